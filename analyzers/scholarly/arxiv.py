"""arXiv: `GET /api/query?id_list=…` (an Atom feed), many ids to a request: arXiv asks for one request every 3 s."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence

from .index_cache import MISSING
from .normalise import bare_id, clean_doi, person_names
from .service import Service, as_year, dump, works
from .work import Work

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
BATCH = 50


class ArXiv(Service):
    name = "arXiv"
    url_env = "AUDITEX_ARXIV_URL"
    default_url = "https://export.arxiv.org"

    async def lookup_ids(self, ids: Sequence[str]) -> dict[str, Work | None]:
        answers: dict[str, Work | None] = {}
        missing = []
        for arxiv_id in dict.fromkeys(ids):
            value = self.recall("id", arxiv_id)
            if value is MISSING:
                missing.append(arxiv_id)
            else:
                answers[arxiv_id] = next(iter(works(value)), None)
        for start in range(0, len(missing), BATCH):
            chunk = missing[start : start + BATCH]
            text = await self.http.get_text(
                self.name, f"{self.base_url}/api/query", {"id_list": ",".join(chunk), "max_results": len(chunk)}
            )
            found = {work.arxiv: work for work in self.parse(text)}
            for arxiv_id in chunk:
                work = found.get(arxiv_id)
                self.remember("id", arxiv_id, dump([work]) if work else None)
                answers[arxiv_id] = work
        return answers

    def parse(self, text: str) -> list[Work]:
        try:
            feed = ElementTree.fromstring(text)
        except ElementTree.ParseError:
            raise self.unexpected() from None
        if feed.tag != f"{ATOM}feed":
            raise self.unexpected()
        result = []
        for entry in feed.findall(f"{ATOM}entry"):
            entry_id = entry.findtext(f"{ATOM}id") or ""
            title = " ".join((entry.findtext(f"{ATOM}title") or "").split())
            if "/api/errors" in entry_id or not title or title == "Error":
                continue  # arXiv reports a bad id as an entry titled "Error"
            arxiv_id = bare_id(entry_id.split("/abs/", 1)[-1])
            published = entry.findtext(f"{ATOM}published") or ""
            journal_ref = " ".join((entry.findtext(f"{ARXIV}journal_ref") or "").split())
            doi = clean_doi(entry.findtext(f"{ARXIV}doi") or "")
            authors = [" ".join((author.findtext(f"{ATOM}name") or "").split()) for author in entry.findall(f"{ATOM}author")]
            result.append(
                Work(
                    source=self.name,
                    title=title,
                    authors=person_names(authors),
                    year=as_year(published[:4]),
                    venue="arXiv",
                    arxiv=arxiv_id,
                    is_preprint=True,
                    published_venue=journal_ref,
                    published_doi=doi,
                    url=entry_id,
                )
            )
        return result
