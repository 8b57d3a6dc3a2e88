"""What crosses the network boundary: a reference as cited (what may be sent) and a work as an index knows it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

# What a reference is: a scholarly work (an index should hold it) or something indexes mostly lack.
Kind = Literal["work", "software", "web", "dataset", "report"]


class Reference(BaseModel):
    """One cited bibliography entry, reduced to the metadata auditex may send to an index.

    Never manuscript text: only these fields leave the machine (and only the DOI, the
    arXiv id, the title and the first author's surname are actually put in a query).
    """

    key: str
    title: str = ""
    authors: list[str] = Field(default_factory=list)  # as cited, "First Last" order
    more_authors: bool = False  # the list ends with "and others" / "et al."
    year: int | None = None
    venue: str = ""
    doi: str = ""
    arxiv: str = ""
    is_preprint: bool = False  # cited as an arXiv/bioRxiv/… preprint
    pmid: str = ""
    kind: Kind = "work"  # software, web pages, datasets, reports and URL-only entries are never "likely fabricated"
    url: str = ""  # the entry's own URL: asked (HEAD) only when no index holds a non-work reference


class Work(BaseModel):
    """A candidate an index returned, in one shape for every service."""

    source: str  # the service that returned it
    title: str = ""
    authors: list[str] = Field(default_factory=list)
    year: int | None = None
    venue: str = ""
    doi: str = ""
    arxiv: str = ""
    is_retracted: bool = False
    is_preprint: bool = False  # an arXiv/bioRxiv/SSRN record, CoRR in DBLP, a "posted-content" in Crossref
    published_venue: str = ""  # for a preprint: where its peer-reviewed version appeared, when the index knows
    published_doi: str = ""
    url: str = ""


Status = Literal["verified", "mismatch", "not_found", "unchecked"]


class MismatchModel(BaseModel):
    field: str
    cited: str
    found: str
    detail: str = ""


class Verdict(BaseModel):
    key: str
    status: Status
    work: Work | None = None  # the index record that matched
    mismatches: list[MismatchModel] = Field(default_factory=list)
    identifier_problem: str = ""  # BIB003: the DOI / arXiv id does not resolve or names another work
    retracted_by: str = ""  # BIB004: which index says so
    published: Work | None = None  # BIB005: the peer-reviewed version of a cited preprint
    answered: list[str] = Field(default_factory=list)  # indexes that answered the search
    unavailable: list[str] = Field(default_factory=list)  # "service: why"

    @property
    def checked(self) -> bool:
        return self.status != "unchecked"
