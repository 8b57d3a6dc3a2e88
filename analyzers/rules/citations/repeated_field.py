"""CIT006: a field given twice in one bibliography entry."""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.bibliography import is_printed_field
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from ...violation import Violation, violation_type
from .model import cited_keys, is_cited


@violation_type
class RepeatedField(Violation):
    reason: str  # the bibliography parser's words
    key: str | None
    field: str

    @property
    def message(self) -> str:
        return self.reason

    @property
    def identity(self) -> str:
        return f"{self.key}:{self.field}"


@rule("CIT006", "repeated-bibliography-field", Category.LATEX, Severity.WARNING, reads=("cite_keys", "bibliography"))
def repeated_bibliography_field(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a `.bib` entry that gives the same field twice (`year` or `doi` repeated, or `Year`
    and `year`), saying which field and in which entry.

    ## Why is this bad?
    BibTeX only warns in its log ("I'm ignoring x's extra "year" field") and keeps the first
    value, so a corrected value added below the old one never reaches the paper. That is a
    warning when the paper cites the entry, the copies differ and the field is one a style
    prints; otherwise (same value, bookkeeping fields like `keywords` or `annote`, an entry
    the paper does not cite) the reference is unaffected and it is a hint.

    ## Example
    ```bibtex
    @article{smith2020, title={A}, year={2019}, year={2020}}
    ```

    ## Use instead
    ```bibtex
    @article{smith2020, title={A}, year={2020}}
    ```
    """
    cited = cited_keys(ctx)
    for file, problem in ctx.index.bib_problems:
        if problem.kind != "repeated_field":
            continue
        matters = problem.differs and is_printed_field(problem.field) and is_cited(problem.key or "", cited)
        violation = RepeatedField(problem.message, problem.key, problem.field)
        yield ctx.flag(violation, file, problem.start, problem.end, severity=None if matters else Severity.HINT)
