"""CIT005: citations without a bibliography to define them."""

from __future__ import annotations

from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from ...violation import Violation, violation_type
from ...wording import counted
from .model import known_keys, missing_bibliography_files


@violation_type
class MissingBibliography(Violation):
    keys: int  # how many keys the manuscript cites
    missing_file: str | None  # the bibliography file it names and the project lacks

    @property
    def message(self) -> str:
        reason = (
            f"its bibliography `{self.missing_file}` is not in the project and no `.bbl` was found"
            if self.missing_file
            else "no bibliography (`\\bibliography`, `\\addbibresource`, a `.bbl` or `thebibliography`) was found"
        )
        return f"the manuscript cites {counted(self.keys, 'key')} but {reason}"

    @property
    def identity(self) -> str:
        return "missing-bibliography"


@rule("CIT005", "missing-bibliography", Category.REFERENCE_FABRICATION, Severity.WARNING, reads=("cites", "bibliography", "problems"))
def missing_bibliography(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a manuscript that cites works but has no bibliography auditex can read
    (no `.bib`, no `.bbl`, no `thebibliography`).

    ## Why is this bad?
    No citation can be checked; every reference of the paper is unverifiable. When no
    `\\bibliography`, `\\addbibresource` or `thebibliography` exists at all, the compiled paper
    shows "[?]" for every citation and has no reference list.

    ## Example
    ```latex
    \\cite{smith2020} ... \\bibliography{refs}   % refs.bib not shipped, no .bbl
    ```

    ## Use instead
    Ship `refs.bib` with the sources, or the `main.bbl` that BibTeX generated from it.
    """
    if known_keys(ctx) or not ctx.index.cites:
        return
    file, first = ctx.index.cites[0]
    count = len({cite.key for _, cite in ctx.index.cites})
    missing = missing_bibliography_files(ctx)
    yield ctx.flag(MissingBibliography(count, missing[0] if missing else None), file, first.start, first.end)
