"""INC002: files that include each other in a loop."""

from __future__ import annotations

from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from .model import project_problems


@rule("INC002", "include-cycle", Category.LATEX, Severity.ERROR, reads=("problems",))
def include_cycle(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags an include that leads back to a file already being included.

    ## Why is this bad?
    LaTeX recurses until it runs out of memory or the input stack overflows.

    ## Example
    ```latex
    % a.tex
    \\input{b}
    % b.tex
    \\input{a}
    ```

    ## Use instead
    Include each file from one place only, or move what both share into a third file that
    includes nothing back:
    ```latex
    % main.tex
    \\input{a}
    \\input{b}
    % a.tex and b.tex
    \\input{details}
    ```
    """
    yield from project_problems(ctx, "include_cycle")
