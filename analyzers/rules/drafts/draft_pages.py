from __future__ import annotations

from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...registry import rule
from ...violation import Violation, violation_type
from .model import draft_page_marks, printed_files, unprinted


@violation_type
class DraftPageMark(Violation):
    command: str

    @property
    def message(self) -> str:
        return f"`\\{self.command}` stamps every page as a draft"

    @property
    def identity(self) -> str:
        return f"draft stamp by {self.command}"


@rule("DRF006", "draft-page-mark", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("text", "macros"))
def draft_page_mark(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a running head or foot (`\\markboth`, `\\markright`, fancyhdr's `\\fancyhead`,
    `\\lhead` … `\\rfoot`) or a watermark (`\\SetWatermarkText`) that the paper's own files set to
    say "draft". Comments and never-taken branches (`\\ifdraft … \\fi` with the switch never set
    true) are left alone, and so are class and style files, whose draft heads their options select.

    ## Why is this bad?
    Every page of the submitted paper carries "DRAFT" (and often the compile date): the version
    the reader holds announces itself as unfinished.

    ## Example
    ```latex
    \\markboth{Phase estimation by unwrapping}{DRAFT \\today}
    ```

    ## Use instead
    ```latex
    \\markboth{Phase estimation by unwrapping}{Smith and Jones}
    ```

    ## Fix safety
    No fix: the head the author wants is theirs to write.

    ## Evidence
    "strong: draft in a running head".
    """
    project = ctx.whole_project
    hidden = unprinted(project, ctx.index.macros)
    for path in printed_files(project):
        source = ctx.source(path).text
        for command, start, end in draft_page_marks(source):
            if hidden.covers(path, start):
                continue
            where = Statement(file=path, range=ctx.range(path, start, end), quote=source[start:end], role="page mark")
            evidence = Evidence(
                kind="strong: draft in a running head", statements=[where], reason="a running head is printed on every page"
            )
            yield ctx.flag(DraftPageMark(command), path, start, end, evidence=evidence)
