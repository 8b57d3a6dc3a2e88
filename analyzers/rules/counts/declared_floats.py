"""CNT004: a declared number of figures or tables ("Number of figures: 3") that the manuscript's floats do not give."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...registry import rule
from ...violation import Violation
from ..drafts.model import FLOAT_BLOCKS, FLOATS, float_layout, float_type

# "Number of figures: 3", "Number of Tables = 5", "No. of figures 2": a submission's front-matter declaration.
_DECLARED = re.compile(r"\b(?:Number|No\.?)\s+of\s+(figures|tables)\s*[:=]?\s*(\d{1,2})\b(?!\s*[-–.,]\d)", re.IGNORECASE)
_GRAPHICS = re.compile(r"\\includegraphics\b")


@dataclass(frozen=True)
class DeclaredFloats(Violation):
    kind: str  # "figure" or "table"
    declared: int
    counted: int

    @property
    def message(self) -> str:
        plural = "" if self.counted == 1 else "s"
        return f"the manuscript declares {self.declared} {self.kind}s, but it has {self.counted} {self.kind}{plural}"

    @property
    def fix_title(self) -> str:
        return f"Declare {self.counted} {self.kind}s"

    @property
    def identity(self) -> str:
        return f"declared {self.kind}s {self.declared}"


def _readings(ctx: RuleContext) -> dict[str, set[int]]:
    """Every number of figures and of tables the manuscript may be said to have: numbered captions or float
    environments, in the main article or with its appendix, and for figures their parts (each graphic)."""
    counts: dict[str, Counter[str]] = {"figure": Counter(), "table": Counter()}
    for placed in ctx.manuscript.blocks:
        environment = placed.block.environment or ""
        kind = float_type(environment)
        if placed.kind not in FLOAT_BLOCKS or kind is None or environment not in FLOATS:
            continue
        latex = ctx.source(placed.file).text[placed.block.start : placed.block.end]
        layout = float_layout(latex)
        captions = layout.captions if layout else 1
        main = not ctx.manuscript.sections[placed.section].in_appendix
        for scope in ("all", "main") if main else ("all",):
            counts[kind][f"{scope} environments"] += 1
            counts[kind][f"{scope} captions"] += captions
            counts[kind][f"{scope} parts"] += max(1, len(_GRAPHICS.findall(latex)))
    return {kind: set(counter.values()) | {counter["main captions"]} for kind, counter in counts.items()}


@rule("CNT004", "declared-float-count", Category.CLAIM_DISTORTION, Severity.WARNING, reads=("blocks",))
def declared_float_count(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Counts the figures and tables of a manuscript that declares how many it has, as journals ask
    on the title page ("Number of figures: 3", "Number of tables: 5"). Any reading of the count
    agrees: numbered captions or float environments, in the main article or with the appendix,
    and for figures their parts (one per graphic, "1a, 1b, 1c = 3").

    ## Why is this bad?
    The declaration is what the editor checks against the journal's limits; one that the
    manuscript contradicts was left from an earlier version, and says floats were added or
    dropped without the front matter following.

    ## Example
    ```latex
    \\textit{Number of figures:} 3   % the manuscript has one figure
    ```

    ## Use instead
    ```latex
    \\textit{Number of figures:} 1
    ```

    ## Fix safety
    The fix writes the number of numbered captions in the main article; unsafe, as the journal
    may count otherwise.

    ## Evidence
    "strong: the manuscript's floats counted".
    """
    readings: dict[str, set[int]] | None = None
    for placed in ctx.manuscript.blocks:
        if placed.kind is not BlockKind.PARAGRAPH or "of" not in placed.block.plain.text:
            continue
        for match in _DECLARED.finditer(placed.block.plain.text):
            readings = readings if readings is not None else _readings(ctx)
            kind, declared = match.group(1).lower().rstrip("s"), int(match.group(2))
            if declared in readings[kind]:
                continue
            counted = min(readings[kind])
            violation = DeclaredFloats(kind, declared, counted)
            start, end = placed.block.plain.source_span(match.start(2), match.end(2))
            evidence = Evidence(
                kind="strong: the manuscript's floats counted",
                statements=[
                    Statement(file=placed.file, range=ctx.range(placed.file, start, end), quote=match.group(0), role="declared count")
                ],
                reason=f"no reading of the {kind} environments (captions, environments, parts; with or without the appendix) gives {declared}",
            )
            yield ctx.flag_block(violation, placed, match.start(2), match.end(2), evidence=evidence, confidence=0.9)
