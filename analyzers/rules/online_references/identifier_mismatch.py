"""BIB003: a DOI or arXiv id that does not resolve, or resolves to another work."""

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


@record
class IdentifierMismatch(CitedViolation):
    problem: str  # the verdict's words for it

    @property
    def message(self) -> str:
        return f"`{self.key}`: {self.problem}"

    @property
    def about(self) -> str:
        return "identifier"


@rule("BIB003", "identifier-mismatch", Category.REFERENCE_FABRICATION, Severity.WARNING, reads=(), scope=Scope.ONLINE)
@documented
def identifier_mismatch(ctx: RuleContext, cited: Cited, verdict: Verdict) -> Iterator[Finding]:
    """## What it does
    Flags a reference whose DOI or arXiv id does not resolve (no index knows it), or resolves
    to a different work than the entry's title.

    ## Why is this bad?
    The identifier is what readers and tools follow: a wrong one sends them to another paper,
    and an identifier that exists nowhere is a sign of a fabricated reference.

    ## Example
    ```bibtex
    @article{he2016, title = {Deep Residual Learning for Image Recognition}, doi = {10.1038/nature14539}}
    ```

    ## Use instead
    The work's own DOI (`10.1109/CVPR.2016.90`).

    ## Fix safety
    "Replace with verified metadata" (offered by BIB002 when the title search found the work) writes
    the DOI of the work found by title. Unsafe.
    """
    if verdict.identifier_problem:
        # The fix writes the DOI of the work the title found, so only when there is one.
        fix = replace_fix(ctx, cited, verdict.work) if cited.is_bib and verdict.work is not None and verdict.work.doi else None
        violation = IdentifierMismatch(cited.reference.key, verdict.identifier_problem)
        yield flag_cited(ctx, cited, violation, fixes=[fix] if fix is not None else [])
