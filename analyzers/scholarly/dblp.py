"""DBLP: `GET /search/publ/api?q=…&format=json` (`result.hits.hit[].info`; titles with HTML entities and a final period)."""

from __future__ import annotations

import re
from typing import Any

from .normalise import clean_doi, person_names, plain_text
from .service import Service, as_year, dump, works
from .work import Reference, Work


class DBLP(Service):
    name = "DBLP"
    url_env = "AUDITEX_DBLP_URL"
    default_url = "https://dblp.org"

    async def search(self, reference: Reference, rows: int = 5) -> list[Work]:
        query = reference.title

        async def fetch() -> Any:
            body = await self.http.get_json(self.name, f"{self.base_url}/search/publ/api", {"q": query, "format": "json", "h": rows})
            result = body.get("result") if isinstance(body, dict) else None
            hits = result.get("hits") if isinstance(result, dict) else None
            if not isinstance(hits, dict):
                raise self.unexpected()
            hit = hits.get("hit") or []
            hit = [hit] if isinstance(hit, dict) else hit
            if not isinstance(hit, list):
                raise self.unexpected()
            return dump([work for item in hit if (work := self.work(item)) is not None])

        return works(await self.cached("search", query, fetch))

    def work(self, hit: Any) -> Work | None:
        info = hit.get("info") if isinstance(hit, dict) else None
        if not isinstance(info, dict) or not info.get("title"):
            return None
        raw = (info.get("authors") or {}).get("author") if isinstance(info.get("authors"), dict) else None
        raw = [raw] if isinstance(raw, (dict, str)) else raw or []
        authors = []
        for author in raw:
            name = author.get("text") if isinstance(author, dict) else author
            if isinstance(name, str) and name:
                authors.append(re.sub(r"\s+\d{4}$", "", name))  # DBLP numbers homonyms: "Wei Wang 0001"
        venue = info.get("venue") or ""
        venue = ", ".join(venue) if isinstance(venue, list) else str(venue)
        ee = info.get("ee") or ""
        ee = ee[0] if isinstance(ee, list) and ee else str(ee)
        preprint = venue.strip().lower() == "corr" or "arxiv.org" in ee
        arxiv = ee.split("arxiv.org/abs/", 1)[1] if "arxiv.org/abs/" in ee else ""
        return Work(
            source=self.name,
            title=plain_text(str(info["title"])).removesuffix("."),
            authors=person_names(authors),
            year=as_year(info.get("year")),
            venue=plain_text(venue),
            doi=clean_doi(str(info.get("doi") or "")),
            arxiv=arxiv.lower(),
            is_preprint=preprint,
            published_venue="" if preprint else venue,
            url=str(info.get("url") or ""),
        )
