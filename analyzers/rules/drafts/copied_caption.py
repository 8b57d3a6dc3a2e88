"""DRF010: one caption printed on two floats of a kind whose contents differ.

## How it decides
Each printed figure and table with one numbered caption is read: its caption's plain text (case,
white space and closing punctuation aside) and its contents, the float's LaTeX without comments,
placement options, captions and labels, white space aside. Two floats of one kind with the same
caption of three words or more and different contents, in one chapter of a thesis, are a caption
copied onto another float (each chapter's "Schematic of the experimental setup" is its own):
the later one is flagged, the earlier named beside it. A float of several captions (subfigures,
two minipages) is not read; a continued float (`\\ContinuedFloat`, "(continued)", "cont.") repeats
its caption on purpose, and two floats whose contents are also the same are one float printed
twice, another problem.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.conditionals import group_end
from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...memo import SECTION_CACHE_SIZE, TEXT_CACHE_SIZE, SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .model import FLOAT_BLOCKS, FLOATS, float_type, unprinted

_WORDS = 3  # a shorter caption ("Results.") may be one on purpose
_CONTINUED = DeferredPattern(r"\\ContinuedFloat\b|\bcont(?:inued|\.)|\(cont\b", re.I)
# What a float's contents are not: its comments, placement, captions and labels (read by brace depth below).
_COMMENT = DeferredPattern(r"(?<!\\)%[^\n]*")
_PLACEMENT = DeferredPattern(r"^\\begin\{[^}]*\}\s*(?:\[[^\]]*\])?")
# The captions that step the float's counter: one, or the float has subfigures or several parts.
_NUMBERED = DeferredPattern(r"\\caption(?:of\s*\{\w+\})?\s*[\[{]")
_CAPTION_OR_LABEL = DeferredPattern(r"\\(?:caption\*?|captionof\s*\{\w+\}|label)\s*(?:\[[^\]]*\])?\s*\{")


@violation_type
class CopiedCaption(Violation):
    kind: str
    caption: str
    other: str  # the earlier float's label, if any

    @property
    def message(self) -> str:
        named = f" (\\ref{{{self.other}}})" if self.other else ""
        return f'This {self.kind} has the caption of an earlier {self.kind}{named}, "{self.caption}", but other contents'

    @property
    def identity(self) -> str:
        return f"{self.kind} caption {self.caption} copied"


@rule("DRF010", "copied-caption", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks", "macros"))
def copied_caption(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a figure or table whose caption is word for word the caption of an earlier float of its
    kind while the two floats hold different contents: a table of ROC AUC scores and a table of
    sensitivities both captioned "Population-based ROC AUC Scores under different conditions".

    ## Why is this bad?
    A caption copied from the float above and not rewritten describes what the float does not
    show, and the reader cannot tell the two floats apart.

    ## Example
    ```latex
    \\begin{table}\\caption{ROC AUC scores by condition.}\\input{auc}\\end{table}
    \\begin{table}\\caption{ROC AUC scores by condition.}\\input{sensitivity}\\end{table}
    ```

    ## Use instead
    ```latex
    \\begin{table}\\caption{ROC AUC scores by condition.}\\input{auc}\\end{table}
    \\begin{table}\\caption{Sensitivity and specificity by condition.}\\input{sensitivity}\\end{table}
    ```

    ## Fix safety
    No fix: only the authors know what the second float shows.

    ## Evidence
    "moderate: one caption on two floats of different contents".
    """
    shared: dict[tuple[str, str, int], list[tuple[PlacedBlock, str]]] = {}
    chapter = 0  # a thesis's chapter frames its floats: each chapter's "Schematic of the setup" is its own
    for section in ctx.manuscript.sections:
        chapter += section.level <= 1
        for holder, captions in _captioned_floats(SectionKey(section)):
            caption = _caption(holder, captions, ctx.source(holder.file).text)
            said = _said(caption) if caption is not None else None
            if said is not None:
                shared.setdefault((float_type(holder.block.environment or "") or "", said, chapter), []).append((holder, caption or ""))
    shared = {key: floats for key, floats in shared.items() if len(floats) > 1}
    if not shared:  # most papers: no caption printed twice, nothing more to read
        return
    hidden = unprinted(ctx.whole_project, ctx.index.macros)
    for (kind, _, _), floats in shared.items():
        first: tuple[PlacedBlock, str] | None = None
        for holder, caption in floats:
            latex = ctx.source(holder.file).text[holder.block.start : holder.block.end]
            if hidden.covers(holder.file, holder.block.start) or len(_NUMBERED.findall(latex)) != 1 or _CONTINUED.search(latex):
                continue
            contents = _contents(latex)
            first = first or (holder, contents)
            if first[1] != contents:
                yield _finding(ctx, holder, caption, latex, first[0], kind)


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _captioned_floats(key: SectionKey) -> tuple[tuple[PlacedBlock, tuple[PlacedBlock, ...]], ...]:
    """A section's figures and tables with their caption blocks."""
    found: list[tuple[PlacedBlock, tuple[PlacedBlock, ...]]] = []
    holder: PlacedBlock | None = None
    captions: list[PlacedBlock] = []
    for placed in [*key.section.blocks, None]:
        if placed is None or placed.kind in FLOAT_BLOCKS:
            if holder is not None:
                found.append((holder, tuple(captions)))
            holder, captions = (placed if placed is not None and _numbered_float(placed) else None), []
        elif holder is not None and placed.kind is BlockKind.CAPTION and holder.block.start <= placed.block.start < holder.block.end:
            captions.append(placed)
    return tuple(found)


def _numbered_float(placed: PlacedBlock) -> bool:
    environment = placed.block.environment or ""
    return environment in FLOATS and float_type(environment) is not None


def _caption(holder: PlacedBlock, captions: tuple[PlacedBlock, ...], source: str) -> str | None:
    """The plain text of a float's one numbered caption: its caption block, or the caption its table was read with."""
    numbered = [caption for caption in captions if not source.startswith("\\caption*", caption.block.start)]
    if len(numbered) == 1:
        return numbered[0].block.plain.text
    table = holder.block.table
    return table.caption if not captions and table is not None else None


def _said(caption: str) -> str | None:
    """A caption as a reader compares it: case, white space and closing punctuation aside; None when too short."""
    words = caption.lower().split()
    return " ".join(words).rstrip(".:; ") if len(words) >= _WORDS else None


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _contents(latex: str) -> str:
    """A float's LaTeX without its comments, placement, captions and labels, white space aside."""
    text = _PLACEMENT.sub("", _COMMENT.sub("", latex))
    kept: list[str] = []
    position = 0
    for match in _CAPTION_OR_LABEL.finditer(text):
        if match.start() < position:
            continue  # a label inside the caption just dropped
        kept.append(text[position : match.start()])
        position = group_end(text, match.end() - 1) or len(text)
    kept.append(text[position:])
    return "".join("".join(kept).split())


def _finding(ctx: RuleContext, holder: PlacedBlock, caption: str, latex: str, earlier: PlacedBlock, kind: str) -> Finding:
    shown = " ".join(caption.split())
    shown = shown if len(shown) <= 80 else shown[:77] + "…"
    violation = CopiedCaption(kind, shown, earlier.block.labels[0] if earlier.block.labels else "")
    evidence = Evidence(
        kind="moderate: one caption on two floats of different contents",
        reason=f"the earlier {kind} has this caption word for word; the two floats' contents differ",
    )
    related = [ctx.related(earlier.file, earlier.block.start, earlier.block.start, f"the earlier {kind} with this caption")]
    match = _NUMBERED.search(latex)
    start = holder.block.start + (match.start() if match else 0)
    end = holder.block.start + (match.end() if match else 0)
    return ctx.flag(violation, holder.file, start, end, evidence=evidence, related=related)
