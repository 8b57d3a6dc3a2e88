"""REF003: a label no reference uses."""

from __future__ import annotations

from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from ...violation import Violation, violation_type


@violation_type
class UnusedLabel(Violation):
    key: str

    @property
    def message(self) -> str:
        return f"label `{self.key}` is never referenced"

    @property
    def identity(self) -> str:
        return self.key


@rule("REF003", "unused-label", Category.LATEX, Severity.HINT, reads=("labels", "ref_keys"), unnecessary=True)
def unused_label(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Marks labels that no reference in the project uses.

    ## Why is this bad?
    Not wrong, but an unreferenced figure or table often means the text never discusses
    it, and dead labels clutter the source.

    ## Example
    ```latex
    \\begin{figure}...\\label{fig:unused}\\end{figure}   % never \\ref'd
    ```

    ## Use instead
    Refer to the figure where the text discusses it, or drop its label:
    ```latex
    \\begin{figure}...\\label{fig:architecture}\\end{figure}
    Figure~\\ref{fig:architecture} shows the model.
    ```
    """
    used = {ref.key for _, ref in ctx.index.refs}
    for key, entries in ctx.index.labels.items():
        if key in used:
            continue
        for entry in entries:
            yield ctx.flag(UnusedLabel(key), entry.file, entry.start, entry.end)
