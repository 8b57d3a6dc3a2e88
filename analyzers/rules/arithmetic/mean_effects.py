"""A relative effect a sentence states of an outcome ("increases the likelihood of repeat business by 19%"), and the
relative effects a regression table gives: each coefficient over its column's control mean ("Control Mean",
"Mean of dep. var.", "Baseline mean").

An economist's abstract restates a table's effect as a percent of the control group's mean: 0.067 on a control
mean of 0.32 is a 21% increase. The readers below find the effect in a sentence, "<verb> <outcome> by N%", and the
effects a table gives: in a table with a control-mean row, every row named above it (a treatment arm; not the
observations, the R-squared or the unnamed standard-error rows) over the mean of its column. The sentence's
outcome names the columns it may be: a column whose header, or a table whose caption, shares a word with it
("repeat business" and "Effects on Repeat Pawning").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from itertools import product

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell, Table
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE
from ...quantities import slack
from ..tables.model import Grid
from .model import NUMBER, PERCENT_SIGN, Written, may_write_percent

# "Control Mean", "Control group mean", "Mean of dep. var.", "Dep. var. mean", "Baseline mean": the mean a table's
# effects are relative to ("Baseline average" may be the average of a table's baseline methods).
_MEAN_ROW = DeferredPattern(
    r"^\s*(?:(?:control|comparison)(?:\s+group)?\s+(?:mean|average)|baseline\s+mean"
    r"|mean\s+(?:of\s+)?(?:the\s+)?(?:dep(?:endent)?\.?\s*var|outcome|control)|dep(?:endent)?\.?\s*var(?:iable)?\.?\s+mean)",
    re.IGNORECASE,
)
# Rows a regression table names that are not an effect.
_NOT_EFFECT = DeferredPattern(r"observ|r-?sq|^\s*n\s*$|cluster|fixed|controls|mean|p-?val|f-?stat|constant|intercept", re.IGNORECASE)
# "increases the likelihood of repeat business by 19%": a verb of change, the outcome (no number, no clause), the percent.
_EFFECT = DeferredPattern(
    r"\b(?:increas|decreas|reduc|rais|lower|improv|boost|cut)(?:es|e|ed|s|ing)?\s+(?P<outcome>(?:[A-Za-z'’-]+\s+){1,9}?)by\s+"
    r"(?P<estimate>about\s+|almost\s+|nearly\s+|roughly\s+|approximately\s+|around\s+)?"
    + NUMBER
    + PERCENT_SIGN
    + r"(?!\s*(?:points|pp|ppt|-?point))",
    re.IGNORECASE,
)
_WORD = DeferredPattern(r"[a-z]+")
_FUNCTION_WORDS = frozenset("the a an of their its our his her this that these those and or to in on for with who whom which".split())
_PREFIX = 5  # words sharing their first five letters are one word: "recovering" and "Recovery"


@record(slots=True)
class StatedEffect:
    """A relative effect in percent (`percent`) the sentence states of an outcome, named by its words."""

    percent: Written
    outcome: frozenset[str]
    estimate: bool
    start: int  # the verb's start
    end: int  # the percentage's end


@record(slots=True, eq=False)
class TableEffect:
    """An effect a table gives: a named row's cell over the control mean of its column."""

    effect: Cell
    mean: Cell

    def percent_range(self) -> tuple[float, float]:
        """The effect relative to the mean, in percent, within the rounding of both."""
        assert self.effect.value is not None and self.mean.value is not None  # numeric cells
        ratios = [
            abs(effect) / mean * 100
            for effect, mean in product(
                (self.effect.value - slack(self.effect.decimals), self.effect.value + slack(self.effect.decimals)),
                (self.mean.value - slack(self.mean.decimals), self.mean.value + slack(self.mean.decimals)),
            )
            if mean > 0
        ]
        return (min(ratios), max(ratios)) if ratios else (float("nan"), float("nan"))

    def gives(self, stated: StatedEffect) -> bool:
        low, high = self.percent_range()
        allowance = stated.percent.slack + (0.1 * stated.percent.value if stated.estimate else 0)
        return low - allowance <= stated.percent.value <= high + allowance


def words_of(text: str) -> frozenset[str]:
    """The content words of a text, each in the singular."""
    words = (word[:-1] if word.endswith("s") and not word.endswith("ss") else word for word in _WORD.findall(text.lower()))
    return frozenset(word for word in words if word not in _FUNCTION_WORDS and len(word) > 2)


def share_a_word(first: frozenset[str], second: frozenset[str]) -> bool:
    return any(a == b or (len(a) >= _PREFIX and len(b) >= _PREFIX and a[:_PREFIX] == b[:_PREFIX]) for a in first for b in second)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def stated_effects(text: str) -> tuple[StatedEffect, ...]:
    """Every relative effect in percent the text states of an outcome."""
    if not may_write_percent(text):
        return ()
    return tuple(
        StatedEffect(Written.read(m, 3), words_of(m.group("outcome")), bool(m.group("estimate")), m.start(), m.end())
        for m in _EFFECT.finditer(text)
    )


def has_mean_row(table: Table) -> bool:
    """The table gives a control mean: read of its rows' headers, before any grid is built."""
    return any(_MEAN_ROW.search(table.row_header(row)) for row in range(table.header_rows, len(table.rows)))


def table_effects(grid: Grid, outcome: frozenset[str]) -> Iterator[TableEffect]:
    """The effects of the table's columns that `outcome` names (every column, when the caption names it): each named
    row between a control-mean row and the one above it, over that mean."""
    captioned = share_a_word(outcome, words_of(grid.table.caption or ""))
    columns = [column for column in grid.columns() if captioned or share_a_word(outcome, words_of(grid.column_header(column)))]
    first = grid.header_rows
    for row in grid.body_rows():
        if not _MEAN_ROW.search(grid.row_header(row)):
            continue
        effects = [above for above in range(first, row) if grid.row_header(above) and not _NOT_EFFECT.search(grid.row_header(above))]
        first = row + 1
        for column in columns:
            mean = grid.numeric(row, column)
            if mean is None or not mean.value:
                continue
            yield from (TableEffect(cell, mean) for above in effects if (cell := grid.numeric(above, column)) is not None)
