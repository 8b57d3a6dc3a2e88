"""CIT007: one work cited under two keys."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rapidfuzz import fuzz

from ....latex.bibliography import BibEntry
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from ...scholarly.cited_references import split_authors, to_text
from ...scholarly.matching import normal, surname
from ...scholarly.normalise import clean_doi
from ...violation import Violation, violation_type
from .model import cited_keys, is_cited, numbered_apart


@violation_type
class DuplicateReference(Violation):
    key: str
    other_key: str  # the earlier entry's
    shared_doi: str | None  # the DOI both entries give, when they do
    same_title: bool  # with the shared DOI, the titles nearly agree

    @property
    def message(self) -> str:
        key, other = self.key, self.other_key
        if self.shared_doi is None:
            return f"`{key}` and `{other}` look like the same work (nearly the same title and first author): cite it under one key"
        if self.same_title:
            return f"`{key}` and `{other}` are the same work (the same DOI, {self.shared_doi}): cite it under one key"
        return (
            f"`{key}` and `{other}` give the same DOI ({self.shared_doi}) under different titles: "
            "one of them may have the wrong DOI, or they are parts of one work"
        )

    @property
    def identity(self) -> str:
        return f"{self.other_key}={self.key}"


@rule("CIT007", "duplicate-reference", Category.LATEX, Severity.INFORMATION, reads=("cite_keys", "bibliography"))
def duplicate_reference(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Points at one work cited under two keys: two cited `.bib` entries with the same DOI, or with
    nearly the same title (rapidfuzz ratio of the normalised titles at least 95) and the same
    first author's surname, and years no more than one apart. Entries with different DOIs are
    different works, however alike their titles.

    ## Why is this bad?
    The bibliography lists the work twice (often once as the preprint and once as the
    published version, or once from each co-author's library), which readers and reviewers
    notice and which splits its citations.

    ## Example
    ```bibtex
    @inproceedings{vaswani2017, title={Attention Is All You Need}, author={Vaswani, Ashish}, year={2017}}
    @article{vaswani2017attention, title={Attention is all you need}, author={Vaswani, A.}, year={2017}}
    ```

    ## Use instead
    One entry, and one key in every `\\cite`.
    """
    cited = cited_keys(ctx)
    first_of: dict[tuple[str, str], tuple[str, BibEntry]] = {}
    by_surname: dict[str, list[_Earlier]] = {}
    for key, places in ctx.index.bib_entries.items():
        file, entry = places[0]
        if not is_cited(key, cited) or not file.endswith(".bib"):
            continue
        doi = clean_doi(entry.fields.get("doi", ""))
        title = normal(to_text(entry.fields.get("title", "")))
        authors, _ = split_authors(entry.fields.get("author", ""))
        year_match = re.search(r"\d{4}", entry.fields.get("year", "") or entry.fields.get("date", ""))
        year = int(year_match.group(0)) if year_match else None
        same = first_of.get(("doi", doi)) if doi else None
        if same is None and len(title) >= 12 and authors:
            earlier = by_surname.setdefault(surname(authors[0]), [])
            same = _same_title(earlier, title, year, doi)
            earlier.append((file, entry, title, year, doi))
        if doi:
            first_of.setdefault(("doi", doi), (file, entry))
        if same is None:
            continue
        other_file, other = same
        shared_doi = doi if doi and clean_doi(other.fields.get("doi", "")) == doi else None
        same_title = shared_doi is not None and fuzz.ratio(title, normal(to_text(other.fields.get("title", "")))) >= 90
        related = [ctx.related(other_file, other.start, other.end, f"the entry `{other.key}`")]
        yield ctx.flag(DuplicateReference(key, other.key, shared_doi, same_title), file, entry.start, entry.end, related=related)


# An entry met before: its file, the entry, its normalised title, its year and its DOI.
_Earlier = tuple[str, BibEntry, str, int | None, str]


def _same_title(earlier: list[_Earlier], title: str, year: int | None, doi: str) -> tuple[str, BibEntry] | None:
    """The first of `earlier` (entries of the same first author) with nearly the same title, a year at most
    one apart and no other DOI: (its file, it)."""
    return next(
        (
            (other_file, other)
            for other_file, other, other_title, other_year, other_doi in earlier
            if not (doi and other_doi and doi != other_doi)
            and (year is None or other_year is None or abs(year - other_year) <= 1)
            and fuzz.ratio(title, other_title) >= 95
            and not numbered_apart(title, other_title)
        ),
        None,
    )
