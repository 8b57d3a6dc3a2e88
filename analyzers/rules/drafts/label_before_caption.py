from __future__ import annotations

import re
from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement, TextEdit
from ...memo import SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .float_layout import MisplacedLabel, float_layout, may_misplace_label
from .model import section_floats, unprinted


@violation_type
class LabelBeforeCaption(Violation):
    key: str
    environment: str
    subfloat: bool

    @property
    def message(self) -> str:
        kind = "subfigure" if self.subfloat else self.environment.rstrip("*")
        prints = "the enclosing float's or section's number" if self.subfloat else "the section's number"
        return f"`\\label{{{self.key}}}` comes before the `\\caption` of its {kind}, so a reference to it prints {prints}"

    @property
    def fix_title(self) -> str:
        return "Move the label after the caption"

    @property
    def identity(self) -> str:
        return f"label {self.key} before caption"


@rule("DRF002", "label-before-caption", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks", "macros", "refs"))
def label_before_caption(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a `\\label` placed before the `\\caption` of its figure, table or algorithm (or of a
    subfigure): `\\caption` steps the float's counter, and a `\\label` reads the last number
    stepped, so one placed before the caption records the section's number instead. A label
    inside the caption's argument, or after it, is right; a caption inside a group (a
    `minipage`) numbers only that group, as in TeX.

    ## Why is this bad?
    Every `\\ref` to the figure prints the wrong number ("Figure 3" for the fifth figure, in
    section 3), and the reader is sent to another figure.

    ## Example
    ```latex
    \\begin{figure}
      \\includegraphics{loss}
      \\label{fig:loss}
      \\caption{Training loss.}
    \\end{figure}
    ```

    ## Use instead
    ```latex
    \\begin{figure}
      \\includegraphics{loss}
      \\caption{Training loss.}
      \\label{fig:loss}
    \\end{figure}
    ```

    ## Fix safety
    Safe: moving the label after the caption of the same group changes only the number it records.

    ## Evidence
    "strong" when the paper refers to the label; "moderate" when nothing refers to it yet (no
    reference prints the wrong number today).
    """
    hidden = unprinted(ctx.whole_project, ctx.index.macros)
    referenced = {use.key for _, use in ctx.index.refs}
    for placed in (placed for section in ctx.manuscript.sections for placed in section_floats(SectionKey(section))):
        block = placed.block
        if hidden.covers(placed.file, block.start):
            continue
        source = ctx.source(placed.file).text
        latex = source[block.start : block.end]
        layout = float_layout(latex) if may_misplace_label(latex) else None
        if layout is None:
            continue
        for label in layout.misplaced:
            yield _finding(ctx, placed.file, source, block.start, label, layout.environment, label.key in referenced)


def _finding(ctx: RuleContext, file: str, source: str, offset: int, label: MisplacedLabel, environment: str, referenced: bool) -> Finding:
    start, end = offset + label.start, offset + label.end
    violation = LabelBeforeCaption(label.key, environment, label.subfloat)
    where = Statement(file=file, range=ctx.range(file, start, end), quote=source[start:end], role="label")
    kind = "strong: label referenced" if referenced else "moderate: label not referenced"
    evidence = Evidence(kind=kind, statements=[where], reason="a label reads the number of the last counter stepped before it")
    return ctx.flag(
        violation, file, start, end, edits=_moved(ctx, file, source, start, end, offset + label.caption_end), safe=True, evidence=evidence
    )


def _moved(ctx: RuleContext, file: str, source: str, start: int, end: int, caption_end: int) -> list[TextEdit]:
    """Delete the label (its line too when it stands alone) and write it right after the caption."""
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", end)
    line_end = len(source) if line_end == -1 else line_end
    alone = not source[line_start:start].strip() and not re.sub(r"(?<!\\)%.*", "", source[end:line_end]).strip()
    removed = (line_start, min(line_end + 1, len(source))) if alone else (start, end)
    return [ctx.edit(file, *removed, ""), ctx.edit(file, caption_end, caption_end, source[start:end])]
