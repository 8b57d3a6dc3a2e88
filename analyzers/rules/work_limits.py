"""LIM: the rules a project was too large for (their work budget, analyzers/work_budget.py)."""

from __future__ import annotations

from collections.abc import Iterator

from ..context import RuleContext
from ..finding import Category, Finding, Severity
from ..registry import Scope, rule


@rule("LIM001", "too-large-to-analyse", Category.LATEX, Severity.WARNING, reads=(), scope=Scope.LIMIT)
def too_large_to_analyse(ctx: RuleContext, skipped: list[str]) -> Iterator[Finding]:
    """## What it does
    Says that the project was too large to analyse fully, and names the rules skipped. A rule that
    compares items in pairs (each number against the others written the same way, each quoted number
    against the table cells) may compare only so many in one unit of its work (the project, a
    section); past that budget it stops and reports nothing for the project.

    ## Why is this bad?
    The skipped rules' findings are missing: a clean report does not mean the project is clean. The
    budget counts work, not seconds, so the same input always skips the same rules, and one runaway
    file (megabytes of generated text on one line) never blocks an editor or a batch worker.

    ## Example
    A 4 MB `main.tex` of generated results, each sentence with three numbers:
    ```latex
    In Table~\\ref{tab:t1} the score is 77.3 and the loss 2.48 over 51 runs. ...
    ```

    ## Use instead
    Check the paper as its authors write it: generated text belongs in a table or a data file that
    the paper includes. To analyse such a project anyway, raise the budget in `.auditex.toml`:
    ```toml
    [rules]
    work-limit = 20000000   # items one unit of a rule may compare; default 2,000,000
    ```
    """
    root = ctx.whole_project.root_file
    names = ", ".join(skipped)
    message = f"too large to analyse fully; {len(skipped)} rule{'s' if len(skipped) != 1 else ''} skipped ({names})"
    yield ctx.report(root, 0, 0, message, identity=f"skipped:{names}")
