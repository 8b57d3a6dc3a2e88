"""CIT004: a bibliography entry the paper never cites."""

from __future__ import annotations

from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from ...violation import Violation, violation_type
from .model import cited_keys


@violation_type
class UnusedEntry(Violation):
    key: str

    @property
    def message(self) -> str:
        return f"bibliography entry `{self.key}` is never cited"

    @property
    def identity(self) -> str:
        return self.key


@rule("CIT004", "unused-bibliography-entry", Category.LATEX, Severity.HINT, reads=("cite_keys", "bibliography"), unnecessary=True)
def unused_bibliography_entry(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Marks `.bib` entries that the manuscript never cites.

    ## Why is this bad?
    Harmless for BibTeX, which drops them, but a `\\nocite{*}` or a shared file of
    thousands of entries hides which references the paper really relies on.

    ## Example
    ```bibtex
    @article{old2001, ...}   % never \\cite'd
    ```

    ## Use instead
    Cite the entry where the paper relies on it (`\\cite{old2001}`), or delete it from the `.bib`.
    """
    cited = cited_keys(ctx)
    if "*" in cited:
        return
    for key, places in ctx.index.bib_entries.items():
        if key in cited:
            continue
        for file, entry in places:
            if file.endswith(".bib"):
                yield ctx.flag(UnusedEntry(key), file, entry.start, entry.end)
