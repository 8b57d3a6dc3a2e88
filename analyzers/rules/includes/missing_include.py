"""INC001: an included file, or a bibliography, that is not in the project."""

from __future__ import annotations

from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from .model import project_problems


@rule("INC001", "missing-include", Category.LATEX, Severity.WARNING, reads=("problems",))
def missing_include(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags `\\input`, `\\include`, `\\subfile`, `\\import` and bibliography commands whose file is not in the project.

    ## Why is this bad?
    The compiled paper silently lacks that part, or the build fails; a reviewer reading the
    sources cannot see what the authors saw. Generated files (`vc.tex`, `version.tex`) are
    common culprits in arXiv sources.

    ## Example
    ```latex
    \\input{sections/results}   % sections/results.tex does not exist
    ```

    ## Use instead
    Ship every included file with the sources (`sections/results.tex`), generated ones too,
    or remove the `\\input`.
    """
    yield from project_problems(ctx, "missing_file", "missing_bibliography")
