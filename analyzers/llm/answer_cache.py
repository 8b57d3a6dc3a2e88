"""Answers already paid for, on disk: re-running on an unchanged paper makes no calls.

Entries live in diskcache under platformdirs' user cache dir (`.../auditex/llm`), keyed
by `client.cache_key` (provider, model, server, prompt version, exact messages; never
the API key). Values are JSON text, so a corrupt or foreign entry is detected, logged,
dropped and treated as a miss instead of crashing a run.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import diskcache
import platformdirs
from pydantic import ValidationError

from .provider import ChatResponse

log = logging.getLogger(__name__)


def default_cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir("auditex")) / "llm"


class LLMCache:
    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or default_cache_dir()
        self._store = diskcache.Cache(str(self.directory))

    def get(self, key: str) -> ChatResponse | None:
        try:
            raw = self._store.get(key)
        except (sqlite3.Error, OSError, ValueError, EOFError) as exc:  # unreadable row or value file
            log.warning("Ignoring unreadable LLM cache entry %s (%s)", key[:12], type(exc).__name__)
            return None
        if raw is None:
            return None
        try:
            return ChatResponse.model_validate_json(raw)
        except (ValidationError, TypeError, ValueError):
            log.warning("Ignoring corrupt LLM cache entry %s", key[:12])
            self.delete(key)
            return None

    def put(self, key: str, response: ChatResponse) -> None:
        stored = response.model_copy(update={"cached": False, "cost_usd": 0.0})
        try:
            self._store.set(key, stored.model_dump_json())
        except (sqlite3.Error, OSError) as exc:  # a full disk must not fail the audit
            log.warning("Could not write the LLM cache at %s (%s)", self.directory, type(exc).__name__)

    def delete(self, key: str) -> None:
        try:
            self._store.delete(key)
        except (sqlite3.Error, OSError):
            pass

    def close(self) -> None:
        self._store.close()

    def __len__(self) -> int:
        return len(self._store)
