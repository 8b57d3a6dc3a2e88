"""Semantic Scholar Graph API: `GET /paper/search/match`, `GET /paper/search`, `GET /paper/{DOI:x|ARXIV:x}`, `POST /paper/batch`.

Without a key (`SEMANTIC_SCHOLAR_API_KEY`) it allows one request a second, so it is
asked last and in batches. `search/match` answers 404 when no title matches; the
journal's full name is preferred over `venue`, which is often abbreviated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .index_cache import MISSING
from .normalise import clean_doi, is_preprint_venue, person_names, plain_text
from .service import Service, as_year, dump, works
from .work import Reference, Work

FIELDS = "title,year,authors,venue,externalIds,publicationTypes,journal,publicationVenue"
BATCH = 500


class SemanticScholar(Service):
    name = "Semantic Scholar"
    url_env = "AUDITEX_S2_URL"
    default_url = "https://api.semanticscholar.org/graph/v1"

    @property
    def headers(self) -> dict[str, str]:
        key = self.env.get("SEMANTIC_SCHOLAR_API_KEY")
        return {"x-api-key": key} if key else {}

    async def match(self, reference: Reference) -> list[Work]:
        async def fetch() -> Any:
            body = await self.http.get_json(
                self.name,
                f"{self.base_url}/paper/search/match",
                {"query": reference.title, "fields": FIELDS},
                self.headers,
                missing="record",
                record_says="title match not found",
            )
            data = body.get("data") if isinstance(body, dict) else None
            if not isinstance(data, list):
                raise self.unexpected()
            return dump([work for item in data if (work := self.work(item)) is not None])

        return works(await self.cached("match", reference.title, fetch))

    search = match

    def search_key(self, reference: Reference) -> tuple[str, str]:
        return "match", reference.title

    async def search_raw(self, query: str, limit: int, fields: str) -> list[Any]:
        """`/paper/search` answers as sent (the review reads abstracts and URLs)."""

        async def fetch() -> Any:
            body = await self.http.get_json(
                self.name, f"{self.base_url}/paper/search", {"query": query, "limit": limit, "fields": fields}, self.headers
            )
            data = body.get("data", []) if isinstance(body, dict) else None
            if not isinstance(data, list):
                raise self.unexpected()
            return data

        return list(await self.cached("search", f"{limit}\x1f{fields}\x1f{query}", fetch) or [])

    async def paper(self, identifier: str) -> Work | None:
        """`identifier` is `DOI:…` or `ARXIV:…`."""

        async def fetch() -> Any:
            body = await self.http.get_json(
                self.name,
                f"{self.base_url}/paper/{identifier}",
                {"fields": FIELDS},
                self.headers,
                missing="record",
                record_says="paper with id",
            )
            work = self.work(body)
            if work is None:
                raise self.unexpected()
            return dump([work])

        found = works(await self.cached("paper", identifier, fetch))
        return found[0] if found else None

    async def batch(self, identifiers: Sequence[str]) -> dict[str, Work | None]:
        answers: dict[str, Work | None] = {}
        missing = []
        for identifier in dict.fromkeys(identifiers):
            value = self.recall("paper", identifier)
            if value is MISSING:
                missing.append(identifier)
            else:
                answers[identifier] = next(iter(works(value)), None)
        for start in range(0, len(missing), BATCH):
            chunk = missing[start : start + BATCH]
            body = await self.http.post_json(self.name, f"{self.base_url}/paper/batch", {"ids": chunk}, {"fields": FIELDS}, self.headers)
            if not isinstance(body, list) or len(body) != len(chunk):
                raise self.unexpected()
            for identifier, item in zip(chunk, body):
                work = self.work(item)
                self.remember("paper", identifier, dump([work]) if work else None)
                answers[identifier] = work
        return answers

    def work(self, item: Any) -> Work | None:
        if not isinstance(item, dict) or not item.get("title"):
            return None
        external = value if isinstance(value := item.get("externalIds"), dict) else {}
        journal = value if isinstance(value := item.get("journal"), dict) else {}
        venue_info = value if isinstance(value := item.get("publicationVenue"), dict) else {}
        # The journal's full name first ("Nature Machine Intelligence", not "Nat. Mac. Intell."), unless it is
        # "ArXiv" for a paper whose venue is a conference.
        names = [plain_text(str(name)) for name in (journal.get("name"), venue_info.get("name"), item.get("venue")) if name]
        venue = next((name for name in names if not is_preprint_venue(name)), names[0] if names else "")
        preprint = not venue or is_preprint_venue(venue)
        published = "" if preprint else venue
        return Work(
            source=self.name,
            title=plain_text(str(item["title"])),
            year=as_year(item.get("year")),
            venue=venue,
            authors=person_names([str(a["name"]) for a in item.get("authors") or [] if isinstance(a, dict) and a.get("name")]),
            doi=clean_doi(str(external.get("DOI") or "")),
            arxiv=str(external.get("ArXiv") or "").lower(),
            is_preprint=preprint,
            published_venue=published,
            url=f"https://www.semanticscholar.org/paper/{item.get('paperId')}" if item.get("paperId") else "",
        )
