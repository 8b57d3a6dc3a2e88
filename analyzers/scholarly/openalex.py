"""OpenAlex: `GET /works?filter=doi:A|B…` (up to 50 DOIs), `GET /works?search=…`, `GET /works/doi:{doi}`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cache import MISSING
from .service import Service, as_year, clean_doi, dump, is_preprint_venue, works
from .work import Reference, Work

BATCH = 50


class OpenAlex(Service):
    name = "OpenAlex"
    url_env = "AUDITEX_OPENALEX_URL"
    default_url = "https://api.openalex.org"

    def _params(self, params: dict[str, Any]) -> dict[str, Any]:
        mailto = self.env.get("OPENALEX_MAILTO")
        return {**params, "mailto": mailto} if mailto else params

    async def _results(self, params: dict[str, Any]) -> list[Any]:
        body = await self.http.get_json(self.name, f"{self.base_url}/works", self._params(params))
        results = body.get("results") if isinstance(body, dict) else None
        if not isinstance(results, list):
            raise self.unexpected()
        return results

    async def lookup_dois(self, dois: Sequence[str]) -> dict[str, Work | None]:
        """Each DOI → its work (None: OpenAlex has none), asking only for the uncached, 50 to a request."""
        answers: dict[str, Work | None] = {}
        missing = []
        for doi in dict.fromkeys(dois):
            value = self.recall("doi", doi)
            if value is MISSING:
                missing.append(doi)
            else:
                answers[doi] = next(iter(works(value)), None)
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
            body = await self.http.get_json(self.name, f"{self.base_url}/works/doi:{doi}", self._params({}))
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
        title = item.get("display_name") or item.get("title")
        if not title:
            return None
        authors = [
            str(a["author"]["display_name"])
            for a in item.get("authorships") or []
            if isinstance(a, dict) and isinstance(a.get("author"), dict) and a["author"].get("display_name")
        ]
        primary = _source(item.get("primary_location"))
        venue = str(primary.get("display_name") or "")
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
            title=str(title),
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
