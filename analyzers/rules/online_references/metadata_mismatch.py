"""BIB002: a cited reference whose title, authors, year or venue differ from the indexed work."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import Scope, rule
from .model import CitedViolation, documented, flag_cited, replace_fix

if TYPE_CHECKING:  # the offline path never imports the HTTP layer
    from ...scholarly.cited_references import Cited
    from ...scholarly.work import Verdict

# Text parsed out of a formatted \bibitem is a guess; its title and author comparisons inform only.
GUESSED = 0.6
_SEVERITY = {"title": Severity.WARNING, "authors": Severity.WARNING, "year": Severity.INFORMATION, "venue": Severity.INFORMATION}


@record
class MetadataMismatch(CitedViolation):
    field: str  # title, authors, year or venue
    source: str  # the index that holds the work
    detail: str  # what differs, when the field says too little ("" otherwise)
    cited: str
    found: str

    @property
    def message(self) -> str:
        found = f" ({self.detail})" if self.detail else ""
        verb = "differ" if self.field == "authors" else "differs"
        return f'`{self.key}`: the {self.field} {verb} from {self.source}{found}: cited "{self.cited}", found "{self.found}"'

    @property
    def about(self) -> str:
        return self.field


@rule("BIB002", "reference-metadata-mismatch", Category.REFERENCE_FABRICATION, Severity.WARNING, reads=(), scope=Scope.ONLINE)
@documented
def reference_metadata_mismatch(ctx: RuleContext, cited: Cited, verdict: Verdict) -> Iterator[Finding]:
    """## What it does
    Flags a cited reference whose metadata differs from the work the indexes hold: the title
    (beyond case and punctuation), the first author or missing or extra authors (warning), a
    year off by more than one, or the venue (information). The message shows what is cited
    and what was found.

    ## Why is this bad?
    A wrong author list or title makes the reference hard to find and misattributes the work;
    mis-dated and mis-attributed references are a common trace of references written from memory
    or by a language model.

    ## Example
    ```bibtex
    @inproceedings{vaswani2017, title = {Attention Is All You Need}, author = {Vaswani, Ashish and Bengio, Yoshua}, year = {2015}}
    ```

    ## Use instead
    The metadata of the published record (title, full author list, year, DOI).

    ## Fix safety
    "Replace with verified metadata" rewrites the `.bib` entry's title, authors, year and DOI with
    the index's values (its title shows them). Unsafe: check that the index found the work you
    meant.
    """
    work = verdict.work
    if work is None:
        return
    fix = replace_fix(ctx, cited, work) if cited.is_bib else None
    for mismatch in verdict.mismatches:
        violation = MetadataMismatch(cited.reference.key, mismatch.field, work.source, mismatch.detail, mismatch.cited, mismatch.found)
        yield flag_cited(
            ctx,
            cited,
            violation,
            severity=_SEVERITY[mismatch.field],
            fixes=[fix] if fix is not None else [],
            confidence=1.0 if cited.is_bib or mismatch.field in ("year", "venue") else GUESSED,
        )
