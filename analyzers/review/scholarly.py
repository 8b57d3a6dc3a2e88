"""Related-work search for the novelty report: Semantic Scholar and OpenAlex behind one interface.

Both clients speak the services' public JSON over HTTPS with the standard library,
in a worker thread so the event loop stays free. Anything that goes wrong (no
network, a refusal, a rate limit, an unexpected body) becomes `ScholarlyUnavailable`
with one sentence for the user; the review then states that it had no related-work
evidence. Results are only ever what the service returned: nothing is made up.

Keys come from the environment only: SEMANTIC_SCHOLAR_API_KEY (optional, raises the
rate limit) and OPENALEX_MAILTO (optional, joins OpenAlex's polite pool).
"""

from __future__ import annotations

import asyncio
import json
import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

SEMANTIC_SCHOLAR_URL = "https://api.semanticscholar.org/graph/v1"
OPENALEX_URL = "https://api.openalex.org"
SEMANTIC_SCHOLAR_FIELDS = "title,year,authors,venue,abstract,externalIds,url"
SearchName = Literal["auto", "semantic-scholar", "openalex", "none"]
SEARCH_NAMES: tuple[SearchName, ...] = ("auto", "semantic-scholar", "openalex", "none")


class RelatedWork(BaseModel):
    title: str
    year: int | None = None
    authors: list[str] = Field(default_factory=list)
    venue: str = ""
    abstract: str = ""
    url: str = ""
    doi: str = ""
    source: str  # which service returned it
    cited_in_manuscript: bool = False  # its title matches an entry of the paper's bibliography


class ScholarlyUnavailable(Exception):
    """The search could not answer; `str(error)` says why in one sentence."""


class ScholarlySearch(Protocol):
    name: str

    async def search(self, query: str, limit: int) -> list[RelatedWork]: ...


class _JSONService:
    name = ""

    def __init__(self, base_url: str, timeout_s: float, headers: Mapping[str, str] | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self._headers = {"Accept": "application/json", "User-Agent": "auditex", **(headers or {})}

    async def _get(self, path: str, params: Mapping[str, str | int]) -> Any:
        url = f"{self.base_url}{path}?{urllib.parse.urlencode(params)}"
        return await asyncio.to_thread(self._get_blocking, url)

    def _get_blocking(self, url: str) -> Any:
        request = urllib.request.Request(url, headers=self._headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:  # noqa: S310 (http/https only)
                return json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as error:
            reason = "rate limited" if error.code == 429 else f"HTTP {error.code}"
            raise ScholarlyUnavailable(f"{self.name} refused the search ({reason}).") from None
        except (urllib.error.URLError, TimeoutError, OSError) as error:
            why = getattr(error, "reason", None) or error
            raise ScholarlyUnavailable(f"{self.name} is unreachable ({why}).") from None
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise ScholarlyUnavailable(f"{self.name} answered with something that is not JSON.") from None


class SemanticScholar(_JSONService):
    """`GET /paper/search` of the Semantic Scholar Graph API."""

    name = "Semantic Scholar"

    def __init__(self, base_url: str = SEMANTIC_SCHOLAR_URL, api_key: str | None = None, timeout_s: float = 15.0) -> None:
        super().__init__(base_url, timeout_s, {"x-api-key": api_key} if api_key else None)

    async def search(self, query: str, limit: int) -> list[RelatedWork]:
        body = await self._get("/paper/search", {"query": query, "limit": limit, "fields": SEMANTIC_SCHOLAR_FIELDS})
        if not isinstance(body, dict) or not isinstance(body.get("data", []), list):
            raise ScholarlyUnavailable(f"{self.name} answered in an unexpected shape.")
        return [work for item in body.get("data", []) if (work := self._work(item)) is not None][:limit]

    def _work(self, item: Any) -> RelatedWork | None:
        if not isinstance(item, dict) or not item.get("title"):
            return None
        external = item.get("externalIds") or {}
        return RelatedWork(
            title=str(item["title"]),
            year=item.get("year") if isinstance(item.get("year"), int) else None,
            authors=[str(a["name"]) for a in item.get("authors") or [] if isinstance(a, dict) and a.get("name")],
            venue=str(item.get("venue") or ""),
            abstract=str(item.get("abstract") or ""),
            url=str(item.get("url") or ""),
            doi=str(external.get("DOI") or "") if isinstance(external, dict) else "",
            source=self.name,
        )


class OpenAlex(_JSONService):
    """`GET /works?search=` of the OpenAlex API."""

    name = "OpenAlex"

    def __init__(self, base_url: str = OPENALEX_URL, mailto: str | None = None, timeout_s: float = 15.0) -> None:
        super().__init__(base_url, timeout_s)
        self._mailto = mailto

    async def search(self, query: str, limit: int) -> list[RelatedWork]:
        params: dict[str, str | int] = {"search": query, "per-page": limit}
        if self._mailto:
            params["mailto"] = self._mailto
        body = await self._get("/works", params)
        if not isinstance(body, dict) or not isinstance(body.get("results", []), list):
            raise ScholarlyUnavailable(f"{self.name} answered in an unexpected shape.")
        return [work for item in body.get("results", []) if (work := self._work(item)) is not None][:limit]

    def _work(self, item: Any) -> RelatedWork | None:
        if not isinstance(item, dict):
            return None
        title = item.get("display_name") or item.get("title")
        if not title:
            return None
        location = item.get("primary_location") or {}
        source = (location.get("source") or {}) if isinstance(location, dict) else {}
        return RelatedWork(
            title=str(title),
            year=item.get("publication_year") if isinstance(item.get("publication_year"), int) else None,
            authors=[
                str(a["author"]["display_name"])
                for a in item.get("authorships") or []
                if isinstance(a, dict) and isinstance(a.get("author"), dict) and a["author"].get("display_name")
            ],
            venue=str(source.get("display_name") or "") if isinstance(source, dict) else "",
            abstract=abstract_from_inverted_index(item.get("abstract_inverted_index")),
            url=str(item.get("id") or ""),
            doi=str(item.get("doi") or "").removeprefix("https://doi.org/"),
            source=self.name,
        )


def abstract_from_inverted_index(index: Any) -> str:
    """OpenAlex ships abstracts as {word: [positions]}; put the words back in order."""
    if not isinstance(index, dict):
        return ""
    placed = sorted((position, word) for word, positions in index.items() if isinstance(positions, list)
                    for position in positions if isinstance(position, int))
    return " ".join(word for _, word in placed)


class FirstAvailable:
    """Ask each service in turn; the first that answers wins."""

    name = "scholarly search"

    def __init__(self, services: Sequence[ScholarlySearch]) -> None:
        self.services = list(services)

    async def search(self, query: str, limit: int) -> list[RelatedWork]:
        reasons = []
        for service in self.services:
            try:
                return await service.search(query, limit)
            except ScholarlyUnavailable as error:
                reasons.append(str(error))
        raise ScholarlyUnavailable(" ".join(reasons) or "No scholarly service is configured.")


def make_search(name: SearchName, base_url: str | None = None, env: Mapping[str, str] | None = None) -> ScholarlySearch | None:
    """The search the user chose; None for "none". `base_url` points one service at a mirror."""
    env = os.environ if env is None else env
    semantic_scholar = SemanticScholar(base_url or SEMANTIC_SCHOLAR_URL, api_key=env.get("SEMANTIC_SCHOLAR_API_KEY"))
    openalex = OpenAlex(base_url or OPENALEX_URL, mailto=env.get("OPENALEX_MAILTO"))
    if name == "none":
        return None
    if name == "semantic-scholar":
        return semantic_scholar
    if name == "openalex":
        return openalex
    if base_url:
        raise ValueError("a related-work URL needs one service: semantic-scholar or openalex")
    return FirstAvailable([semantic_scholar, openalex])
