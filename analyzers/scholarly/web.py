"""A web, software or dataset reference no index holds is checked at its own URL: one HEAD request
to the entry's own host, redirects not followed (a 3xx answer already says the page exists), the
answer cached like the indexes' answers. Only http(s) URLs are asked; nothing else is sent."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from .http import HttpClient
from .service import Service


class WebPage(Service):
    name = "the entry's URL"

    def __init__(self, http: HttpClient, cache: Any = None) -> None:
        super().__init__(http, cache, env={}, base_url="")

    async def exists(self, url: str) -> bool | None:
        """True when the URL answers (2xx or 3xx), False when it is gone (404), None for a URL that is not http(s) or not a URL."""
        try:
            parts = urlsplit(url)
        except ValueError:  # "http://[not-a-host": not a URL anyone can ask
            return None
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return None
        host = parts.netloc

        async def fetch() -> Any:
            await self.http.request(f"{host} (the entry's URL)", "HEAD", url, missing="record", follow_redirects=False)
            return True  # a 404 is cached as None: gone

        return bool(await self.cached("head", url, fetch))
