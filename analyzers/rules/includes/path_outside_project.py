"""INC003: an include that leads out of the project's folder."""

from __future__ import annotations

from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from .model import project_problems


@rule("INC003", "path-outside-project", Category.LATEX, Severity.ERROR, reads=("problems",))
def path_outside_project(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags includes, bibliographies and every other command that reads a file (`\\import`,
    `\\subimport`, `\\includegraphics`, `\\lstinputlisting`, `\\verbatiminput`, `\\inputminted`,
    `\\includepdf`) that point outside the project: absolute paths, `../` escapes and symbolic
    links. auditex refuses to read them (an error).

    A folder inside a git work tree may read the whole work tree, since for an author the
    repository is the project: `\\includegraphics{../figures/a}` from `paper/` is then a warning,
    because a submission archive of `paper/` would not contain the figure. A submitted archive
    never reads beyond itself.

    ## Why is this bad?
    The manuscript does not build from its own sources, and a submitted archive that reads
    `/etc/passwd` or `~/.ssh` is hostile. Nothing outside the project ever reaches a report
    or an LLM prompt.

    ## Example
    ```latex
    \\input{/etc/passwd}
    \\bibliography{../../secrets}
    \\lstinputlisting{/etc/shadow}
    ```

    ## Use instead
    Paths relative to the project, to files inside it:
    ```latex
    \\input{sections/method}
    \\bibliography{bib/refs}
    ```
    """
    yield from project_problems(ctx, "outside_root")
    yield from project_problems(ctx, "outside_folder", severity=Severity.WARNING)
