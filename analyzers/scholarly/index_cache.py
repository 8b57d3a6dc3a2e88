"""The on-disk cache of index answers (diskcache), keyed by the normalised query.

A found answer lives 30 days, a "no such work" 1 day; errors are never cached, so an
unreachable service is asked again next time. The folder is the user cache directory
(platformdirs), or `AUDITEX_CACHE_DIR` when set (the tests point it at a temporary folder).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import diskcache

from ..analysis_cache import cache_root

FOUND_TTL_S = 30 * 24 * 3600
NOT_FOUND_TTL_S = 24 * 3600
_MISSING = object()


def cache_folder(env: dict[str, str] | None = None) -> Path:
    return cache_root(env) / "scholarly"


class AnswerCache:
    """service + normalised query → the parsed answer (JSON-able), or a remembered "nothing"."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or cache_folder()
        self._cache: diskcache.Cache | None = None
        self.hits = 0
        self.misses = 0

    @property
    def cache(self) -> diskcache.Cache:
        if self._cache is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._cache = diskcache.Cache(str(self.folder), size_limit=512 * 1024 * 1024)
        return self._cache

    def get(self, key: str) -> Any:
        """The cached answer, or `MISSING` (None is a cached "not found")."""
        value = self.cache.get(key, default=_MISSING)
        if value is _MISSING:
            self.misses += 1
        else:
            self.hits += 1
        return value

    def put(self, key: str, value: Any, found: bool | None = None) -> None:
        """Keep an answer: 30 days when it holds the work, 1 day when not (`found` None: judged by emptiness)."""
        if found is None:
            found = not (value is None or value == [] or value == {})
        self.cache.set(key, value, expire=FOUND_TTL_S if found else NOT_FOUND_TTL_S)

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None


MISSING = _MISSING


def normalised(text: str) -> str:
    return " ".join(text.lower().split())
