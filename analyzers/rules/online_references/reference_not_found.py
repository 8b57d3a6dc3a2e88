"""BIB001: a cited reference that no scholarly index knows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import Scope, rule
from .model import CitedViolation, documented, flag_cited

if TYPE_CHECKING:  # the offline path never imports the HTTP layer
    from ...scholarly.cited_references import Cited
    from ...scholarly.work import Verdict


@record
class ReferenceNotFound(CitedViolation):
    title: str
    searched: str  # the indexes that answered

    @property
    def message(self) -> str:
        return f'`{self.key}` ("{self.title}") matches no work in {self.searched}; it may be fabricated: check it and add its DOI'

    @property
    def about(self) -> str:
        return "not-found"


@rule("BIB001", "reference-not-found", Category.REFERENCE_FABRICATION, Severity.WARNING, reads=(), scope=Scope.ONLINE)
@documented
def reference_not_found(ctx: RuleContext, cited: Cited, verdict: Verdict) -> Iterator[Finding]:
    """## What it does
    Flags a cited reference that no scholarly index knows: at least two indexes answered the
    title search, none returned a candidate above the match threshold (likely fabricated), and
    no index failed to answer. A reference that could not be checked (an index unreachable,
    misconfigured or rate limited, the time budget spent) is never reported; the run's summary
    counts it as unchecked. Software, web pages, datasets, reports and URL-only entries are
    never reported: indexes mostly lack them, so they are checked at DataCite and at their own
    URL instead, or counted as unchecked.

    ## Why is this bad?
    References invented by language models have reached accepted papers; a reader who looks
    one up finds nothing, and the claim it supports stands on air.

    ## Example
    ```bibtex
    @article{smith2021, title = {Quantum Gradient Widgets for Sparse Attention}, author = {Smith, J.}, year = {2021}}
    ```

    ## Use instead
    Cite the work you read, with its DOI; delete the citation if there is none.

    ## Fix safety
    No fix: only the author knows which work was meant.
    """
    if verdict.status == "not_found":
        violation = ReferenceNotFound(cited.reference.key, cited.reference.title, ", ".join(verdict.answered))
        yield flag_cited(ctx, cited, violation)
