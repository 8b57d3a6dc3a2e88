"""REF002: a label defined twice."""

from __future__ import annotations

from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from ...violation import Violation, violation_type


@violation_type
class DuplicateLabel(Violation):
    key: str
    first_file: str  # where the first definition is

    @property
    def message(self) -> str:
        return f"label `{self.key}` is already defined in `{self.first_file}`"

    @property
    def identity(self) -> str:
        return self.key


@rule("REF002", "duplicate-label", Category.LATEX, Severity.ERROR, reads=("labels",))
def duplicate_label(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a `\\label` key defined more than once in the project.

    ## Why is this bad?
    LaTeX silently uses the last definition, so references point at the wrong figure,
    table or equation.

    ## Example
    ```latex
    \\label{fig:setup} ... \\label{fig:setup}
    ```

    ## Use instead
    Give each labelled object its own key (`fig:setup`, `fig:setup-ablation`).
    """
    for key, entries in ctx.index.labels.items():
        if len(entries) < 2:
            continue
        first = entries[0]
        for entry in entries[1:]:
            yield ctx.flag(
                DuplicateLabel(key, first.file),
                entry.file,
                entry.start,
                entry.end,
                related=[ctx.related(first.file, first.start, first.end, f"first definition of `{key}`")],
            )
