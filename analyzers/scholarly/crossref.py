"""Crossref: `GET /works/{doi}` and `GET /works?query.bibliographic=…&rows=N` (the `message` envelope).

Titles come with JATS markup; the year is the `issued` date (the print or online one when
`issued` is `[[null]]`), never `created`, which is when the record was deposited.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from .normalise import clean_doi, person_names, plain_text
from .service import Service, as_year, dump, works
from .work import Reference, Work


class Crossref(Service):
    name = "Crossref"
    url_env = "AUDITEX_CROSSREF_URL"
    default_url = "https://api.crossref.org"

    def _params(self, params: dict[str, Any]) -> dict[str, Any]:
        mailto = self.env.get("CROSSREF_MAILTO")
        return {**params, "mailto": mailto} if mailto else params

    async def lookup_doi(self, doi: str) -> Work | None:
        async def fetch() -> Any:
            body = await self.http.get_json(
                self.name,
                f"{self.base_url}/works/{quote(doi, safe='/:;()')}",
                self._params({}),
                missing="record",
                record_says="resource not found",
            )
            message = body.get("message") if isinstance(body, dict) else None
            if not isinstance(message, dict):
                raise self.unexpected()
            work = self.work(message)
            return dump([work]) if work else None

        found = works(await self.cached("doi", doi, fetch))
        return found[0] if found else None

    def search_key(self, reference: Reference) -> tuple[str, str]:
        return "search", " ".join(part for part in (reference.title, _surname(reference)) if part)

    async def search(self, reference: Reference, rows: int = 5) -> list[Work]:
        query = self.search_key(reference)[1]

        async def fetch() -> Any:
            body = await self.http.get_json(self.name, f"{self.base_url}/works", self._params({"query.bibliographic": query, "rows": rows}))
            message = body.get("message") if isinstance(body, dict) else None
            items = message.get("items") if isinstance(message, dict) else None
            if not isinstance(items, list):
                raise self.unexpected()
            return dump([work for item in items if (work := self.work(item)) is not None])

        return works(await self.cached("search", query, fetch))

    def work(self, item: Any) -> Work | None:
        if not isinstance(item, dict):
            return None
        titles = item.get("title") or []
        title = plain_text(str(titles[0] if isinstance(titles, list) and titles else titles if isinstance(titles, str) else ""))
        if not title:
            return None
        authors = []
        for author in item.get("author") or []:
            if isinstance(author, dict):
                name = " ".join(str(author[part]) for part in ("given", "family") if author.get(part)) or str(author.get("name") or "")
                if name:
                    authors.append(name)
        year = None
        for field in ("issued", "published", "published-print", "published-online"):
            parts = (item.get(field) or {}).get("date-parts") if isinstance(item.get(field), dict) else None
            if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
                year = as_year(parts[0][0])
                if year:
                    break
        containers = item.get("container-title") or []
        venue = containers[0] if isinstance(containers, list) and containers else ""
        retracted = any(
            isinstance(update, dict) and str(update.get("type", "")).lower() == "retraction" for update in item.get("updated-by") or []
        )
        relation = value if isinstance(value := item.get("relation"), dict) else {}
        published = next((str(r.get("id")) for r in relation.get("is-preprint-of") or [] if isinstance(r, dict) and r.get("id")), "")
        preprint = item.get("type") == "posted-content" or item.get("subtype") == "preprint"
        return Work(
            source=self.name,
            title=title,
            authors=person_names(authors),
            year=year,
            venue=plain_text(str(venue)),
            doi=clean_doi(str(item.get("DOI") or "")),
            is_retracted=retracted,
            is_preprint=preprint,
            published_doi=clean_doi(published) if published else "",
            url=str(item.get("URL") or ""),
        )


def _surname(reference: Reference) -> str:
    return reference.authors[0].split()[-1] if reference.authors and reference.authors[0].split() else ""
