"""Europe PMC: `GET /search?query=…&format=json&resultType=core` (`resultList.result[]`), the index of the
life sciences (PubMed, PMC, preprints), asked for biomedical references only: by DOI, by PMID, by title."""

from __future__ import annotations

import re
from typing import Any

from ...latex.deferred_pattern import DeferredPattern
from .normalise import clean_doi, person_names, plain_text
from .service import Service, as_year, dump, works
from .work import Reference, Work

BIOMEDICAL = DeferredPattern(
    r"\b(med\w*|clin\w*|bio\w*|health|lancet|cell|genom\w*|genet\w*|neuro\w*|pharm\w*|cancer|onco\w*|immun\w*|"
    r"epidem\w*|patholog\w*|physiol\w*|cardio\w*|pediatr\w*|psychiatr\w*|nurs\w*|surg\w*|virol\w*|microbio\w*|"
    r"bmj|jama|plos|elife|pubmed|mol\w*|proteom\w*|nucleic|vaccin\w*|infect\w*|diabet\w*|dent\w*|veterin\w*)\b",
    re.IGNORECASE,
)


def is_biomedical(reference: Reference) -> bool:
    """Cited with a PMID, or in a life-science venue."""
    return bool(reference.pmid) or bool(BIOMEDICAL.search(reference.venue))


class EuropePMC(Service):
    name = "Europe PMC"
    url_env = "AUDITEX_EUROPEPMC_URL"
    default_url = "https://www.ebi.ac.uk/europepmc/webservices/rest"

    async def _query(self, kind: str, query: str, rows: int) -> list[Work]:
        async def fetch() -> Any:
            body = await self.http.get_json(
                self.name, f"{self.base_url}/search", {"query": query, "format": "json", "resultType": "core", "pageSize": rows}
            )
            result_list = body.get("resultList") if isinstance(body, dict) else None
            results = result_list.get("result") if isinstance(result_list, dict) else None
            if not isinstance(results, list):
                raise self.unexpected()
            return dump([work for item in results if (work := self.work(item)) is not None])

        return works(await self.cached(kind, query, fetch))

    async def lookup_doi(self, doi: str) -> Work | None:
        found = await self._query("doi", f'DOI:"{doi}"', 1)
        return found[0] if found else None

    async def lookup_pmid(self, pmid: str) -> Work | None:
        found = await self._query("pmid", f"EXT_ID:{pmid} AND SRC:MED", 1)
        return found[0] if found else None

    def search_key(self, reference: Reference) -> tuple[str, str]:
        return "search", f'TITLE:"{_quoted(reference.title)}"'

    async def search(self, reference: Reference, rows: int = 5) -> list[Work]:
        return await self._query(*self.search_key(reference), rows)

    def work(self, item: Any) -> Work | None:
        if not isinstance(item, dict):
            return None
        title = plain_text(str(item.get("title") or "")).removesuffix(".")
        if not title:
            return None
        listed = (item.get("authorList") or {}).get("author") if isinstance(item.get("authorList"), dict) else None
        if isinstance(listed, list):
            names = [
                " ".join(str(a[part]) for part in ("firstName", "lastName") if a.get(part)) or str(a.get("fullName") or "")
                for a in listed
                if isinstance(a, dict)
            ]
        else:  # resultType=lite: "Smith J, Doe A."
            names = [_initials_last(name) for name in str(item.get("authorString") or "").rstrip(".").split(",")]
        info = value if isinstance(value := item.get("journalInfo"), dict) else {}
        journal = value if isinstance(value := info.get("journal"), dict) else {}
        return Work(
            source=self.name,
            title=title,
            authors=person_names([name for name in names if name]),
            year=as_year(item.get("pubYear") or info.get("yearOfPublication")),
            venue=plain_text(str(journal.get("title") or item.get("journalTitle") or "")),
            doi=clean_doi(str(item.get("doi") or "")),
            is_preprint=item.get("source") == "PPR",
            url=f"https://europepmc.org/article/{item.get('source')}/{item.get('id')}" if item.get("id") else "",
        )


def _initials_last(name: str) -> str:
    """PubMed's "Smith JA" → "JA Smith" (the surname last, as every other index writes it)."""
    parts = name.split()
    return f"{parts[-1]} {' '.join(parts[:-1])}" if len(parts) > 1 and parts[-1].isupper() and len(parts[-1]) <= 3 else name.strip()


def _quoted(text: str) -> str:
    return text.replace('"', " ")
