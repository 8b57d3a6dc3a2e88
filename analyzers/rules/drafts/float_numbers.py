from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from ....latex.model import BlockKind
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import rule
from ...violation import Violation
from .model import (
    FLOAT_BLOCKS,
    FLOATS,
    HAND_NUMBERED,
    elsewhere,
    float_environments,
    float_layout,
    float_type,
    hand_numbers,
    numbered_in_order,
    unprinted,
)

_PROSE = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM)


@dataclass(frozen=True)
class HandNumberBeyondFloats(Violation):
    written: str
    kind: str
    count: int

    @property
    def message(self) -> str:
        floats = f"{self.count} numbered {self.kind}{'s' if self.count > 1 else ''}"
        return f'"{self.written}" is numbered by hand, but the paper has {floats}'

    @property
    def identity(self) -> str:
        return f"{self.written} of {self.kind}s"


@rule("DRF003", "hand-numbered-float", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks", "macros"))
def hand_numbered_float(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a figure or table named by a number typed in the text ("Figure 5", "Tables 2 and 4",
    abbreviated or not) where the paper has fewer numbered floats of that kind. Floats are counted
    as LaTeX numbers them: one number per `\\caption` of a figure or table environment (starred
    environments too), none for `\\caption*` or a subfigure's caption, skipping floats TeX never
    reads. The rule stays silent for a kind whose numbering it cannot establish: numbered per
    chapter or section, a counter set by hand, `\\captionof`, continued floats, a float it could
    not read, an include it could not follow. A sentence that may number another document's
    floats (a citation, "et al.", the supplement, an appendix) is left alone.

    ## Why is this bad?
    A number typed by hand does not follow the floats when they are added, removed or moved: the
    reader is sent to a figure that does not exist (or to the wrong one).

    ## Example
    ```latex
    As Figure 5 shows, the loss plateaus.  % the paper has four figures
    ```

    ## Use instead
    ```latex
    As Figure~\\ref{fig:loss} shows, the loss plateaus.
    ```

    ## Fix safety
    No fix: the rule cannot tell which figure was meant.

    ## Evidence
    "strong: beyond the last numbered float".
    """
    project = ctx.whole_project  # the files' texts and include graph, which "blocks" covers
    if any(inclusion.target is None for inclusion in project.inclusions if inclusion.site.kind == "tex"):
        return
    texts = [ctx.source(path).text for path in project.files]
    hidden = unprinted(project, [macro for _, macro in ctx.index.macros])
    counts: Counter[str] = Counter()
    environments: Counter[str] = Counter()
    for placed in ctx.manuscript.blocks:
        kind = float_type(placed.block.environment or "")
        if placed.kind not in FLOAT_BLOCKS or kind is None or placed.block.environment not in FLOATS:
            continue
        environments[kind] += 1
        if not hidden.covers(placed.file, placed.block.start):
            layout = float_layout(ctx.source(placed.file).text[placed.block.start : placed.block.end])
            counts[kind] += layout.captions if layout else 0
    known = {kind for kind in ("figure", "table") if counts[kind] and numbered_in_order(texts, kind)}
    known = {kind for kind in known if float_environments(texts, kind) <= environments[kind]}
    if not known:
        return
    for placed in ctx.manuscript.blocks:
        if placed.kind not in _PROSE:
            continue
        text = placed.block.plain.text
        for mention in HAND_NUMBERED.finditer(text) if ("Fig" in text or "Tab" in text) else ():
            kind = "figure" if mention.group("name").startswith("Fig") else "table"
            if kind not in known or max(hand_numbers(mention.group("numbers"))) <= counts[kind]:
                continue
            start, end = next((span for span in sentence_spans(text) if span[0] <= mention.start() < span[1]), (0, len(text)))
            if elsewhere(text[start:end]):
                continue
            violation = HandNumberBeyondFloats(" ".join(mention.group(0).split()), kind, counts[kind])
            evidence = Evidence(kind="strong: beyond the last numbered float", reason=f"LaTeX numbers {counts[kind]} {kind}s in this paper")
            yield ctx.flag_block(violation, placed, mention.start(), mention.end(), evidence=evidence)
