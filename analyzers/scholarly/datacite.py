"""DataCite: `GET /dois/{doi}` (JSON:API, `data.attributes`), the registrar of most dataset and software DOIs
(Zenodo, Figshare, Dryad, arXiv's own 10.48550), which Crossref does not know."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from .normalise import clean_doi, person_name, plain_text
from .service import Service, as_year, dump, works
from .work import Work


class DataCite(Service):
    name = "DataCite"
    url_env = "AUDITEX_DATACITE_URL"
    default_url = "https://api.datacite.org"

    async def lookup_doi(self, doi: str) -> Work | None:
        async def fetch() -> Any:
            body = await self.http.get_json(
                self.name, f"{self.base_url}/dois/{quote(doi, safe='/:;()')}", missing="record", record_says="doesn't exist"
            )
            data = body.get("data") if isinstance(body, dict) else None
            work = self.work(data.get("attributes") if isinstance(data, dict) else None)
            if work is None:
                raise self.unexpected()
            return dump([work])

        found = works(await self.cached("doi", doi, fetch))
        return found[0] if found else None

    def work(self, attributes: Any) -> Work | None:
        if not isinstance(attributes, dict):
            return None
        titles = [t.get("title") for t in attributes.get("titles") or [] if isinstance(t, dict) and t.get("title")]
        if not titles:
            return None
        authors: list[str] = []
        for creator in attributes.get("creators") or []:
            if not isinstance(creator, dict) or not (creator.get("name") or creator.get("familyName")):
                continue
            if creator.get("nameType") == "Organizational":
                authors.append(plain_text(str(creator.get("name") or creator.get("familyName"))))
                continue
            if creator.get("familyName"):
                name = " ".join(str(creator[part]) for part in ("givenName", "familyName") if creator.get(part))
            else:
                family, _, given = str(creator["name"]).partition(",")  # DataCite writes "Family, Given"
                name = f"{given.strip()} {family.strip()}"
            if person := person_name(name):
                authors.append(person)
        types = attributes.get("types")
        general = str(types.get("resourceTypeGeneral") or "") if isinstance(types, dict) else ""
        return Work(
            source=self.name,
            title=plain_text(str(titles[0])),
            authors=authors,
            year=as_year(attributes.get("publicationYear")),
            doi=clean_doi(str(attributes.get("doi") or "")),
            is_preprint=general == "Preprint",
            url=str(attributes.get("url") or ""),
        )
