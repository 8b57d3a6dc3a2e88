"""NUM003: a stated change ("from A to B (+C)") that does not follow from its own end points."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...quantities import slack
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import section_tables
from .restated import HAS_DIGIT

_NUM = r"([-−]?\d+(?:\.\d+)?)\s*%?"
_CHANGE = DeferredPattern(
    r"(?:from\s+)?" + _NUM + r"\s*(?:→|->|to)\s*" + _NUM + r"[^()\d]{0,40}?\(\s*([+\-−])\s*(\d+(?:\.\d+)?)\s*(%|pp|points?)?\s*\)"
    r"|from\s+" + _NUM + r"\s*to\s*" + _NUM + r"[^.\d]{0,40}?\b(?:by|of)\s+([+\-−]?)(\d+(?:\.\d+)?)\s*(%|pp|points?|×|x\b)?",
)


@violation_type
class ChangeMiscomputed(Violation):
    """A stated change (`stated`, as the sentence writes it) and what its end points give (`problem`)."""

    stated: str
    problem: str

    @property
    def message(self) -> str:
        return f'"{self.stated}": {self.problem}'

    @property
    def identity(self) -> str:
        """The message as first worded (the statement in single quotes), so that fingerprints survive."""
        return f"'{self.stated}': {self.problem}"


@rule("NUM003", "arithmetic-claim-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def arithmetic_claim_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes stated changes: "from A to B (+C)", "A → B (+C)" (in prose and in table
    cells) and "from A to B, an improvement of C%". C must equal B − A (absolute), or
    (B − A) / A as a percentage (relative), or B / A for "×", within the rounding of every
    number involved.

    ## Why is this bad?
    A delta that does not follow from its own end points inflates (or hides) the effect the
    reader takes away; the numbers are all there, so reviewers expect them to agree.

    ## Example
    ```latex
    accuracy rises from 68 to 72 (+6)
    ```

    Grid descriptions claim no change: "from 0.5 to 3 m/s by steps of 0.05", "in increments
    of", "ranging from 1 to 9 by 2".

    ## Use instead
    ```latex
    accuracy rises from 68 to 72 (+4)
    ```

    ## Confidence
    0.9 for "A → B (+C)" and "from A to B (+C)", and for "from A to B by C" with C within a few
    words of B; 0.6 (information) when "by C" comes further on, where it may measure another
    quantity ("from 10 to 20 epochs improves accuracy by 3 points").
    """
    for placed in section.blocks:
        if placed.kind in (BlockKind.PARAGRAPH, BlockKind.CAPTION, BlockKind.FOOTNOTE):
            for start, end, violation, confidence in _wrong_changes(placed.block.plain.text):
                yield ctx.flag_block(violation, placed, start, end, confidence=confidence)
    for placed, table in section_tables(section):
        for cell in (cell for row in table.rows for cell in row if "→" in cell.text or "->" in cell.text):
            for _, _, violation, confidence in _wrong_changes(cell.text):
                yield ctx.flag(violation, placed.file, cell.start, cell.end, confidence=confidence)


# "from 0.5 to 3 m/s by steps of 0.05", "ranging from 1 to 9 in increments of 2": a grid, not a change.
_GRID = DeferredPattern(r"\b(?:steps?|increments?|intervals?|spacing|resolution)\b", re.IGNORECASE)
_SPAN_BEFORE = DeferredPattern(r"\b(?:rang\w*|var(?:y|ies|ied|ying)|sweep\w*|spann?\w*|grid)\b[^.;]{0,30}$", re.IGNORECASE)
_NEAR = 15  # characters between "from A to B" and "by C" that still keep C about the same quantity


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _wrong_changes(text: str) -> tuple[tuple[int, int, ChangeMiscomputed, float], ...]:
    """(start, end, violation, confidence) of the stated changes in `text` that do not add up; cached by text."""
    if not HAS_DIGIT(text):  # both ends are numbers
        return ()
    wrong = []
    for match in _CHANGE.finditer(text):
        groups = match.groups()
        bracketed = groups[0] is not None
        if _GRID.search(match.group(0)) or _SPAN_BEFORE.search(text[max(0, match.start() - 40) : match.start()]):
            continue
        first, second, sign, delta, unit = groups[:5] if bracketed else groups[5:]
        if _consistent(first, second, sign, delta, unit or ""):
            continue
        start, end = match.span(4) if bracketed else match.span(9)
        # "(+C)" right after the end points states their change; a "by C" further on may measure another quantity.
        confidence = 0.9 if bracketed or start - match.end(7) <= _NEAR else 0.6
        stated = " ".join(match.group(0).split())
        problem = (
            f"the change from {first} to {second} is "
            f"{_number(second) - _number(first):+.{_places(first, second)}f}, not {sign or ''}{delta}{unit or ''}"
        )
        wrong.append((start, end, ChangeMiscomputed(stated, problem), confidence))
    return tuple(wrong)


def _number(text: str) -> float:
    return float(text.replace("−", "-"))


def _places(*texts: str) -> int:
    return max(len(text.split(".", 1)[1]) if "." in text else 0 for text in texts)


def _consistent(first: str, second: str, sign: str, delta: str, unit: str) -> bool:
    a, b = _number(first), _number(second)
    c = _number(delta) * (-1 if sign in ("-", "−") else 1)
    rounding = slack(_places(first)) + slack(_places(second))
    tolerance = slack(_places(delta)) + rounding
    if unit in ("×", "x"):
        return a != 0 and abs(b / a - abs(c)) <= tolerance + rounding / abs(a) * max(1.0, abs(b / a))
    absolute = abs((b - a) - c) <= tolerance or (not sign and abs(abs(b - a) - c) <= tolerance)
    relative = a != 0 and abs(abs((b - a) / a * 100) - abs(c)) <= slack(_places(delta)) + 100 * rounding / abs(a)
    return absolute or (unit == "%" and relative) or (not sign and relative)
