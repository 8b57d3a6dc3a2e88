"""What the BIB rules share: a finding at the cited entry, the docs' account of matching, and the
fix that rewrites an entry with the index's metadata.

These rules never touch the network themselves: `analyzers/online_verification.py` resolves every
cited reference through `analyzers/scholarly/` and hands each rule the reference and the
indexes' verdict. What is sent is reference metadata only (a DOI, an arXiv id, a title, the
first author's surname), never manuscript text.
"""

from __future__ import annotations

import inspect
from abc import abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ...context import RuleContext
from ...finding import Finding, Fix
from ...scholarly.bibtex_edit import bibtex_value, field_spans
from ...violation import Violation, violation_type

if TYPE_CHECKING:  # the offline path never imports the HTTP layer
    from ...scholarly.cited_references import Cited
    from ...scholarly.work import Work

_HOW = """
    ## How matching works
    Each index's candidates are compared with the cited entry after LaTeX, case, accents and
    punctuation are removed: a candidate is the same work when rapidfuzz's ratio of the two
    titles is at least 0.9 (0.8 when the first author's surname and the year, within one, agree
    too). Authors are compared by surname, the year within one, the venue by shared words or
    abbreviation. Titles and names are compared after the indexes' markup (JATS, HTML entities),
    OpenAlex's numbered names and affiliations listed as authors are removed. Resolution order:
    the DOI, the PMID, the arXiv id, then a title search (configurable: `[online] order` in
    `.auditex.toml`).

    ## What is sent
    Only reference metadata: the entry's DOI, PMID, arXiv id, title and first author's surname, to
    Crossref, OpenAlex, arXiv, Semantic Scholar, DBLP, DataCite and Europe PMC (base URLs
    overridable with `AUDITEX_CROSSREF_URL`, `AUDITEX_OPENALEX_URL`, `AUDITEX_ARXIV_URL`,
    `AUDITEX_S2_URL`, `AUDITEX_DBLP_URL`, `AUDITEX_DATACITE_URL`, `AUDITEX_EUROPEPMC_URL`), and one
    HEAD request to the own URL of a software or web entry no index holds. Never manuscript text.
    Nothing is sent unless `--online` or the `auditex.online` setting asks for it. Answers are
    cached (found 30 days, not found 1 day). A 404 from a search or batch endpoint, a service
    unreachable or rate limiting past its retries leaves the service out for the run: the
    references it might have answered for are unchecked, never "not found".
"""


_Check = TypeVar("_Check", bound=Callable[..., object])


def documented(check: _Check) -> _Check:
    """Every BIB rule's docs end with how matching works and what is sent."""
    check.__doc__ = inspect.cleandoc(check.__doc__ or "") + "\n\n" + inspect.cleandoc(_HOW)
    return check


@violation_type
class CitedViolation(Violation):
    """A problem of one cited reference: its identity is the key and what is wrong with it."""

    key: str

    @property
    @abstractmethod
    def about(self) -> str:
        """What is wrong, in one word ("not-found", "title"): the identity's second half."""

    @property
    def identity(self) -> str:
        return f"{self.key}:{self.about}"


def flag_cited(ctx: RuleContext, cited: Cited, violation: CitedViolation, **kwargs: Any) -> Finding:
    """`violation` at the cited entry, with its first `\\cite`s as related locations."""
    related = [ctx.related(file, start, end, f"`\\cite` of `{cited.reference.key}`") for file, start, end in cited.cites[:5]]
    return ctx.report(cited.file, cited.start, cited.end, violation.message, identity=violation.identity, related=related, **kwargs)


def replace_fix(ctx: RuleContext, cited: Cited, work: Work | None) -> Fix | None:
    """Rewrite title, author, year and doi of the `.bib` entry with the index's values (unsafe)."""
    if work is None:
        return None
    text = ctx.source(cited.file).text
    located = field_spans(text, cited.start)
    if located is None:
        return None
    spans, closing = located
    values = {
        "title": work.title,
        "author": " and ".join(_bibtex_name(name) for name in work.authors),
        "year": str(work.year) if work.year else "",
        "doi": work.doi,
    }
    edits, shown = [], []
    for name, value in values.items():
        if not value:
            continue
        span = spans.get(name)
        new = bibtex_value(value)
        if span is not None:
            if text[span.start : span.end] != new:
                edits.append(ctx.edit(cited.file, span.start, span.end, new))
        else:
            last = closing
            while last > 0 and text[last - 1].isspace():
                last -= 1
            separator = "" if text[last - 1] == "," else ","
            edits.append(ctx.edit(cited.file, last, last, f"{separator}\n  {name} = {{{new}}}"))
        shown.append(f"{name}: {value if len(value) < 80 else value[:77] + '…'}")
    if not edits:
        return None
    return ctx.fix("Replace with verified metadata (" + "; ".join(shown) + ")", *edits, safe=False)


def _bibtex_name(name: str) -> str:
    parts = name.split()
    return f"{parts[-1]}, {' '.join(parts[:-1])}" if len(parts) > 1 else name
