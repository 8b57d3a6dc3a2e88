"""OpenAlex: `GET /works/doi:{doi}`, `GET /works?filter=doi:A|B…` (up to 50 DOIs), `GET /works?search=…`.

OpenAlex wants an API key (`OPENALEX_API_KEY`, sent as `api_key`) and prices its
endpoints: a single work by DOI is free, a list or filter call costs $0.10 per 1,000, a
search $1 per 1,000. Without a key a day allows about $0.01, ten searches. So a few DOIs
are looked up one by one (free), more go 50 to a filter call, and OpenAlex is searched only
after the free indexes found nothing. Every answer's `X-RateLimit-*` headers are read and
the run reports what it spent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .http import Missing, json_of
from .index_cache import MISSING
from .normalise import clean_doi, is_preprint_venue, person_names, plain_text
from .service import Service, as_year, dump, works
from .work import Reference, Work

BATCH = 50
SINGLETONS = 3  # up to this many uncached DOIs cost less as free single lookups than as one list call
PRICE_USD = {"singleton": 0.0, "list": 0.10 / 1000, "search": 1.0 / 1000}


@dataclass
class Spend:
    """What this run asked OpenAlex for, by price tier, and what its headers said is left."""

    calls: dict[str, int]
    remaining: str = ""  # X-RateLimit-Remaining of the last answer
    limit: str = ""  # X-RateLimit-Limit

    @property
    def usd(self) -> float:
        return sum(PRICE_USD[tier] * count for tier, count in self.calls.items())

    def line(self) -> str:
        asked = ", ".join(f"{count} {tier}" for tier, count in self.calls.items() if count)
        left = f", {self.remaining} of {self.limit or '?'} left today" if self.remaining else ""
        return f"OpenAlex: {asked or 'nothing asked'} (${self.usd:.4f}{left})"


class OpenAlex(Service):
    name = "OpenAlex"
    url_env = "AUDITEX_OPENALEX_URL"
    default_url = "https://api.openalex.org"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.spend = Spend({tier: 0 for tier in PRICE_USD})

    @property
    def has_key(self) -> bool:
        return bool(self.env.get("OPENALEX_API_KEY"))

    def _params(self, params: dict[str, Any]) -> dict[str, Any]:
        extra = {"api_key": self.env.get("OPENALEX_API_KEY"), "mailto": self.env.get("OPENALEX_MAILTO")}
        return {**params, **{name: value for name, value in extra.items() if value}}

    async def _get(self, tier: str, url: str, params: dict[str, Any], missing: Missing = "endpoint") -> Any:
        """One priced request: counted by its tier, the rate-limit headers of the answer kept."""
        response = await self.http.request(self.name, "GET", url, params=self._params(params), missing=missing)
        self.spend.calls[tier] += 1
        self.spend.remaining = response.headers.get("X-RateLimit-Remaining", self.spend.remaining)
        self.spend.limit = response.headers.get("X-RateLimit-Limit", self.spend.limit)
        return json_of(self.name, response)

    async def _results(self, params: dict[str, Any]) -> list[Any]:
        body = await self._get("search" if "search" in params else "list", f"{self.base_url}/works", params)
        results = body.get("results") if isinstance(body, dict) else None
        if not isinstance(results, list):
            raise self.unexpected()
        return results

    async def lookup_dois(self, dois: Sequence[str]) -> dict[str, Work | None]:
        """Each DOI → its work (None: OpenAlex has none), asking only for the uncached: one by one when few, else 50 to a request."""
        answers: dict[str, Work | None] = {}
        missing = []
        for doi in dict.fromkeys(dois):
            value = self.recall("doi", doi)
            if value is MISSING:
                missing.append(doi)
            else:
                answers[doi] = next(iter(works(value)), None)
        if len(missing) <= SINGLETONS:
            for doi in missing:
                answers[doi] = await self.lookup_doi(doi)
            return answers
        for start in range(0, len(missing), BATCH):
            chunk = missing[start : start + BATCH]
            results = await self._results({"filter": "doi:" + "|".join(chunk), "per-page": BATCH})
            by_doi = {work.doi: work for item in results if (work := self.work(item)) is not None}
            for doi in chunk:
                work = by_doi.get(doi)
                self.remember("doi", doi, dump([work]) if work else None)
                answers[doi] = work
        return answers

    async def lookup_doi(self, doi: str) -> Work | None:
        async def fetch() -> Any:
            body = await self._get("singleton", f"{self.base_url}/works/doi:{doi}", {}, missing="record")
            work = self.work(body)
            if work is None:
                raise self.unexpected()
            return dump([work])

        found = works(await self.cached("doi", doi, fetch))
        return found[0] if found else None

    def search_key(self, reference: Reference) -> tuple[str, str]:
        return "search", f"5\x1f{reference.title}"

    async def search(self, reference: Reference) -> list[Work]:
        return await self.search_text(reference.title, 5)

    async def search_text(self, query: str, rows: int = 5) -> list[Work]:
        async def fetch() -> Any:
            return dump(
                [work for item in await self._results({"search": query, "per-page": rows}) if (work := self.work(item)) is not None]
            )

        return works(await self.cached("search", f"{rows}\x1f{query}", fetch))

    async def search_raw(self, query: str, rows: int) -> list[Any]:
        """The results as OpenAlex sends them (the review reads their abstracts)."""

        async def fetch() -> Any:
            return await self._results({"search": query, "per-page": rows})

        return list(await self.cached("search-raw", f"{rows}\x1f{query}", fetch) or [])

    def work(self, item: Any) -> Work | None:
        if not isinstance(item, dict):
            return None
        title = plain_text(str(item.get("display_name") or item.get("title") or ""))
        if not title:
            return None
        authors = person_names(
            [
                str(a["author"]["display_name"])
                for a in item.get("authorships") or []
                if isinstance(a, dict) and isinstance(a.get("author"), dict) and a["author"].get("display_name")
            ]
        )
        primary = _source(item.get("primary_location"))
        venue = plain_text(str(primary.get("display_name") or ""))
        preprint = item.get("type") in ("preprint", "posted-content") or primary.get("type") == "repository" or is_preprint_venue(venue)
        published = ""
        for location in item.get("locations") or []:
            source = _source(location)
            if source.get("type") in ("journal", "conference") and not is_preprint_venue(str(source.get("display_name") or "")):
                published = str(source.get("display_name") or "")
                break
        ids = value if isinstance(value := item.get("ids"), dict) else {}
        arxiv = ""
        for location in item.get("locations") or []:
            landing = str((location or {}).get("landing_page_url") or "") if isinstance(location, dict) else ""
            if "arxiv.org/abs/" in landing:
                arxiv = landing.split("arxiv.org/abs/", 1)[1]
        return Work(
            source=self.name,
            title=title,
            authors=authors,
            year=as_year(item.get("publication_year")),
            venue=venue,
            doi=clean_doi(str(item.get("doi") or ids.get("doi") or "")),
            arxiv=arxiv,
            is_retracted=bool(item.get("is_retracted")),
            is_preprint=preprint and not published,
            published_venue=published,
            url=str(item.get("id") or ""),
        )


def _source(location: Any) -> dict[str, Any]:
    if not isinstance(location, dict):
        return {}
    source = location.get("source")
    return source if isinstance(source, dict) else {}
