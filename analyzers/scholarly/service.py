"""What every scholarly service shares: its base URL (overridable from the environment), the
HTTP client, and the answer cache wrapped around each question."""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from .http import HttpClient, NotFound, ServiceUnavailable
from .index_cache import MISSING, AnswerCache, normalised
from .work import Work


class Service:
    name = ""
    url_env = ""
    default_url = ""

    def __init__(
        self, http: HttpClient, cache: AnswerCache | None = None, env: Mapping[str, str] | None = None, base_url: str | None = None
    ) -> None:
        self.env = os.environ if env is None else env
        self.http = http
        self.cache = cache
        self.base_url = (base_url or self.env.get(self.url_env) or self.default_url).rstrip("/")

    @property
    def host(self) -> str:
        return self.base_url.split("//", 1)[-1].split("/", 1)[0]

    def key(self, kind: str, query: str) -> str:
        return f"{self.name}\x1f{kind}\x1f{normalised(query)}"

    async def cached(self, kind: str, query: str, fetch: Callable[[], Awaitable[Any]]) -> Any:
        """The cached answer to (kind, query), or fetch it; a 404 is a cached "nothing", errors are not cached."""
        key = self.key(kind, query)
        if self.cache is not None:
            value = self.cache.get(key)
            if value is not MISSING:
                return value
        try:
            value = await fetch()
        except NotFound:
            value = None
        if self.cache is not None:
            self.cache.put(key, value)
        return value

    def remember(self, kind: str, query: str, value: Any) -> None:
        if self.cache is not None:
            self.cache.put(self.key(kind, query), value)

    def demote(self, kind: str, query: str) -> None:
        """An answer that held candidates but not the work asked about lives only as long as a "not found"."""
        if self.cache is not None:
            value = self.cache.get(self.key(kind, query))
            if value is not MISSING:
                self.cache.put(self.key(kind, query), value, found=False)

    def search_key(self, reference: Any) -> tuple[str, str]:
        """The cache (kind, query) of this service's search for `reference`."""
        return "search", reference.title

    def recall(self, kind: str, query: str) -> Any:
        return self.cache.get(self.key(kind, query)) if self.cache is not None else MISSING

    def unexpected(self) -> ServiceUnavailable:
        return ServiceUnavailable(f"{self.name} answered in an unexpected shape.")


def works(value: Any) -> list[Work]:
    """Cached answers are plain JSON; turn them back into Works."""
    if not value:
        return []
    return [Work.model_validate(item) for item in value]


def dump(items: list[Work]) -> list[dict[str, Any]]:
    return [item.model_dump() for item in items]


def as_year(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*\d{4}\s*", value):
        return int(value)
    return None
