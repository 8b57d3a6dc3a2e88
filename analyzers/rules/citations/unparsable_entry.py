"""CIT003: a bibliography entry BibTeX cannot read."""

from __future__ import annotations

from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from ...violation import Violation, violation_type


@violation_type
class UnparsableEntry(Violation):
    reason: str  # the bibliography parser's words
    key: str | None  # the entry's key, when it was read

    @property
    def message(self) -> str:
        return self.reason

    @property
    def identity(self) -> str:
        return self.key or self.reason


@rule("CIT003", "unparsable-bibliography-entry", Category.LATEX, Severity.WARNING, reads=("bibliography",))
def unparsable_bibliography_entry(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags `.bib` entries that cannot be parsed (an unclosed brace, a missing comma), saying
    what the parser expected and on which line it gave up.

    ## Why is this bad?
    BibTeX reports an error and drops the rest of the entry: fields after the slip are lost,
    and the next entry may be swallowed. The entry itself still counts as defined for CIT001
    when its key could be read, as it does for BibTeX.

    ## Example
    ```bibtex
    @misc{key, title = {Unclosed
    ```

    ## Use instead
    ```bibtex
    @misc{key, title = {Closed}}
    ```
    """
    for file, problem in ctx.index.bib_problems:
        if problem.kind == "unparsable":
            yield ctx.flag(UnparsableEntry(problem.message, problem.key), file, problem.start, problem.end)
