"""CNT004: a declared number of figures or tables ("Number of figures: 3") that the manuscript's floats do not give."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind
from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...memo import TEXT_CACHE_SIZE
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..drafts.float_layout import float_layout
from ..drafts.model import FLOAT_BLOCKS, FLOATS, float_type

# "Number of figures: 3", "Number of Tables = 5", "No. of figures 2": a submission's front-matter declaration.
_DECLARED = DeferredPattern(r"\b(?:Number|No\.?)\s+of\s+(figures|tables)\s*[:=]?\s*(\d{1,2})\b(?!\s*[-–.,]\d)", re.IGNORECASE)
_GRAPHICS = DeferredPattern(r"\\includegraphics\b")


@violation_type
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


@record(slots=True)
class _Float:
    kind: str  # "figure" or "table"
    main: bool  # in the main article, not the appendix
    latex: str  # the environment's LaTeX: read (a parse, for its captions) only when the paper declares a count

    @property
    def captions(self) -> int:
        layout = float_layout(self.latex)
        return layout.captions if layout else 1

    @property
    def graphics(self) -> int:
        return len(_GRAPHICS.findall(self.latex))


@record(slots=True, eq=False)
class _Declaration:
    kind: str
    declared: int
    anchor: Finding  # placed while its section was read; its message waits for the count


def _readings(floats: Iterator[_Float]) -> dict[str, set[int]]:
    """Every number of figures and of tables the manuscript may be said to have: numbered captions or float
    environments, in the main article or with its appendix, and for figures their parts (each graphic)."""
    counts: dict[str, Counter[str]] = {"figure": Counter(), "table": Counter()}
    for found in floats:
        for scope in ("all", "main") if found.main else ("all",):
            counts[found.kind][f"{scope} environments"] += 1
            counts[found.kind][f"{scope} captions"] += found.captions
            counts[found.kind][f"{scope} parts"] += max(1, found.graphics)
    return {kind: set(counter.values()) | {counter["main captions"]} for kind, counter in counts.items()}


def _declarations_against_floats(ctx: RuleContext, parts: list[tuple[Section, list[_Float | _Declaration]]]) -> Iterator[Finding]:
    """Each declared count against the floats of the whole manuscript."""
    declarations = [item for _, items in parts for item in items if isinstance(item, _Declaration)]
    if not declarations:
        return
    readings = _readings(item for _, items in parts for item in items if isinstance(item, _Float))
    for declaration in declarations:
        if declaration.declared not in readings[declaration.kind]:
            violation = DeclaredFloats(declaration.kind, declaration.declared, min(readings[declaration.kind]))
            yield declaration.anchor.model_copy(update={"message": violation.message})


@rule(
    "CNT004",
    "declared-float-count",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=_declarations_against_floats,
    placed_parts=True,  # each float's LaTeX, each declaration's finding
)
def declared_float_count(ctx: RuleContext, section: Section) -> Iterator[_Float | _Declaration]:
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
    # A section's floats and declarations: an edit re-reads its own section, and only the count runs over the paper.
    main = not section.in_appendix
    for placed in section.blocks:
        environment = placed.block.environment or ""
        kind = float_type(environment)
        if placed.kind in FLOAT_BLOCKS and kind is not None and environment in FLOATS:
            yield _Float(kind, main, ctx.source(placed.file).text[placed.block.start : placed.block.end])
        if placed.kind is BlockKind.PARAGRAPH and "of" in placed.block.plain.text:
            yield from _declarations(ctx, placed)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _declared_in(text: str) -> tuple[re.Match[str], ...]:
    """A paragraph's declared counts, kept by its text: a section's walk asks of each of its paragraphs on every edit."""
    return tuple(_DECLARED.finditer(text))


def _declarations(ctx: RuleContext, placed: PlacedBlock) -> Iterator[_Declaration]:
    """The counts of figures and tables a paragraph declares, placed; their message waits for the combine's count."""
    for match in _declared_in(placed.block.plain.text):
        kind, declared = match.group(1).lower().rstrip("s"), int(match.group(2))
        start, end = placed.block.plain.source_span(match.start(2), match.end(2))
        evidence = Evidence(
            kind="strong: the manuscript's floats counted",
            statements=[Statement(file=placed.file, range=ctx.range(placed.file, start, end), quote=match.group(0), role="declared count")],
            reason=f"no reading of the {kind} environments (captions, environments, parts; with or without the appendix) gives {declared}",
        )
        violation = DeclaredFloats(kind, declared, 0)
        yield _Declaration(
            kind, declared, ctx.flag_block(violation, placed, match.start(2), match.end(2), evidence=evidence, confidence=0.9)
        )
