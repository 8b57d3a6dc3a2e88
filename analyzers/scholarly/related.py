"""Related-work search for the review's novelty report: Semantic Scholar and OpenAlex behind one interface.

The searches go through the same client layer as reference verification (one HTTP
client with the host's rate limit and Retry-After, the same service modules). Anything
that goes wrong (no network, a refusal, a rate limit, an unexpected body) becomes
`ScholarlyUnavailable` with one sentence for the user; the review then states that it
had no related-work evidence. Results are only ever what the service returned: nothing
is made up. Only the search query (built from the paper's title and claims by the
review) is sent.

Keys come from the environment only: SEMANTIC_SCHOLAR_API_KEY (optional, raises the
rate limit), OPENALEX_API_KEY (OpenAlex allows about $0.01 of searches a day without one) and
OPENALEX_MAILTO (optional).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from .http import HostPolicy, HttpClient, ServiceUnavailable
from .openalex import OpenAlex
from .semantic_scholar import SemanticScholar

SEMANTIC_SCHOLAR_URL = SemanticScholar.default_url
OPENALEX_URL = OpenAlex.default_url
SEMANTIC_SCHOLAR_FIELDS = "title,year,authors,venue,abstract,externalIds,url"
SearchName = Literal["auto", "semantic-scholar", "openalex", "none"]
SEARCH_NAMES: tuple[SearchName, ...] = ("auto", "semantic-scholar", "openalex", "none")
ScholarlyUnavailable = ServiceUnavailable  # one sentence for the user


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


class ScholarlySearch(Protocol):
    name: str

    async def search(self, query: str, limit: int) -> list[RelatedWork]: ...


class SemanticScholarSearch:
    """`GET /paper/search` of the Semantic Scholar Graph API."""

    name = SemanticScholar.name

    def __init__(self, base_url: str = SEMANTIC_SCHOLAR_URL, api_key: str | None = None, timeout_s: float = 15.0) -> None:
        self.base_url, self.timeout_s = base_url.rstrip("/"), timeout_s
        self.env = {"SEMANTIC_SCHOLAR_API_KEY": api_key} if api_key else {}

    async def search(self, query: str, limit: int) -> list[RelatedWork]:
        interval = 0.2 if self.env else 1.0
        async with HttpClient({self.base_url + "/": HostPolicy(interval, 1)}, timeout_s=self.timeout_s, retries=1) as http:
            items = await SemanticScholar(http, None, self.env, self.base_url).search_raw(query, limit, SEMANTIC_SCHOLAR_FIELDS)
        return [work for item in items if (work := self._work(item)) is not None][:limit]

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


class OpenAlexSearch:
    """`GET /works?search=` of the OpenAlex API."""

    name = OpenAlex.name

    def __init__(
        self, base_url: str = OPENALEX_URL, mailto: str | None = None, timeout_s: float = 15.0, api_key: str | None = None
    ) -> None:
        self.base_url, self.timeout_s = base_url.rstrip("/"), timeout_s
        self.env = {name: value for name, value in (("OPENALEX_MAILTO", mailto), ("OPENALEX_API_KEY", api_key)) if value}

    async def search(self, query: str, limit: int) -> list[RelatedWork]:
        async with HttpClient({self.base_url + "/": HostPolicy(0.1, 2)}, timeout_s=self.timeout_s, retries=1) as http:
            items = await OpenAlex(http, None, self.env, self.base_url).search_raw(query, limit)
        return [work for item in items if (work := self._work(item)) is not None][:limit]

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
    placed = sorted(
        (position, word)
        for word, positions in index.items()
        if isinstance(positions, list)
        for position in positions
        if isinstance(position, int)
    )
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
    semantic_scholar = SemanticScholarSearch(
        base_url or env.get(SemanticScholar.url_env) or SEMANTIC_SCHOLAR_URL, api_key=env.get("SEMANTIC_SCHOLAR_API_KEY")
    )
    openalex = OpenAlexSearch(
        base_url or env.get(OpenAlex.url_env) or OPENALEX_URL, mailto=env.get("OPENALEX_MAILTO"), api_key=env.get("OPENALEX_API_KEY")
    )
    if name == "none":
        return None
    if name == "semantic-scholar":
        return semantic_scholar
    if name == "openalex":
        return openalex
    if base_url:
        raise ValueError("a related-work URL needs one service: semantic-scholar or openalex")
    return FirstAvailable([semantic_scholar, openalex])
