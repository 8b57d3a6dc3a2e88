"""Changes a sentence states line by line of a table ("gains of 26% on Amazon and 17% on Goodbooks"),
read against the pair of rows (or columns) that gives most of them.

A sentence that gives one percentage per dataset or metric names each by a header of the table it
discusses; the two methods it compares are often not named as the table names them ("our model",
"the baseline"). The pair is found instead: the two lines across whose relative change (of either
side, the same side throughout) gives the stated percentages, each within the rounding of the
cells and of the percentage. Where one pair gives most of them, a percentage it does not give was
computed from other numbers than those printed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import permutations

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell, Table
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE
from ...quantities import name_words, named_at, named_share, slack
from .model import NUMBER, Written

# A percentage that is a change, never a difference in points ("3 points", "3 pp") nor a bound ("up to 30%").
_PERCENT = DeferredPattern(r"(?<!up\sto\s)" + NUMBER + r"\s*(?:\\?%|\s*percent\b)(?!\s*(?:points?|pp|percentage)\b)", re.IGNORECASE)
_CHANGE = DeferredPattern(
    r"\b(?:gains?|improv\w*|outperform\w*|beats?|better|higher|lower|margin|reduc\w*|increas\w*|decreas\w*|boost\w*|faster|speed-?ups?)\b",
    re.IGNORECASE,
)
_NEAR = 60  # characters between a percentage and the header it is stated for
_WORST_MISSES = 1  # a fit leaves at most this many of the stated percentages unexplained


@record(slots=True)
class Stated:
    """A percentage and the line across (a column, or a row) it is stated for."""

    percent: Written
    line: int


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def stated_percentages(sentence: str) -> tuple[Written, ...]:
    """The percentages of a sentence that states changes: two at least, or none."""
    if not _CHANGE.search(sentence):
        return ()
    found = tuple(Written.read(match) for match in _PERCENT.finditer(sentence))
    return found if len(found) >= 2 else ()


def attach(sentence: str, percents: Sequence[Written], headers: Sequence[str]) -> list[Stated]:
    """Each percentage with the header named nearest to it (within `_NEAR` characters, with no other
    percentage between them); a header named for two percentages keeps the nearer one."""
    mentions = [(at, line) for line, header in enumerate(headers) for at in named_at(sentence, _full_words(header))]
    best: dict[int, tuple[int, Stated]] = {}
    for percent in percents:
        between = [other.start for other in percents if other is not percent]
        near = [(_distance(at, percent), at, line) for at, line in mentions if _distance(at, percent) <= _NEAR]
        near = [
            (distance, at, line)
            for distance, at, line in near
            if not any(min(at, percent.start) < other < max(at, percent.start) for other in between)
        ]
        if not near:
            continue
        distance, _, line = min(near)
        if sum(1 for found in near if found[0] == distance and found[2] != line):
            continue  # two headers as near: which one is meant is open
        if line not in best or best[line][0] > distance:
            best[line] = (distance, Stated(percent, line))
    return sorted((stated for _, stated in best.values()), key=lambda stated: stated.percent.start)


def _full_words(header: str) -> frozenset[str]:
    """A header's words, when it has few: a long header ("Accuracy on the held-out set") is named by a sentence only in part."""
    words = name_words(header)
    return frozenset(words) if 0 < len(words) <= 2 else frozenset()


def _distance(at: int, percent: Written) -> int:
    return percent.start - at if at < percent.start else at - percent.end


@record(slots=True)
class PairFit:
    """The two lines (`claimed`, `compared`) whose change, relative to `base` (one of them), gives the stated percentages."""

    claimed: int
    compared: int
    base: int
    held: tuple[Stated, ...]
    missed: tuple[Stated, ...]

    def change(self, cells: dict[tuple[int, int], Cell], line: int) -> float:
        a, b = cells[(self.claimed, line)].value or 0.0, cells[(self.compared, line)].value or 0.0
        return abs(a - b) / abs(cells[(self.base, line)].value or 1.0) * 100


def pair_fits(table: Table, by_rows: bool, stated: Sequence[Stated], named: frozenset[int]) -> list[PairFit]:
    """Every pair of lines (rows when `by_rows`, else columns) and base that gives all but `_WORST_MISSES` of the
    stated percentages and more than it misses (as many, when the sentence names both lines), among pairs
    with a named line when the sentence names some."""
    cells = cells_by_side(table, by_rows)
    sides = sorted({side for side, _ in cells})
    fits = []
    for claimed, compared in permutations(sides, 2):
        if claimed > compared or (named and not {claimed, compared} & named):
            continue  # each pair once: the base says which way round
        if not all((side, item.line) in cells for side in (claimed, compared) for item in stated):
            continue
        for base in (claimed, compared):
            held = tuple(
                item
                for item in stated
                if _gives(cells[(claimed, item.line)], cells[(compared, item.line)], cells[(base, item.line)], item.percent)
            )
            missed = tuple(item for item in stated if item not in held)
            both_named = {claimed, compared} <= named
            if len(missed) <= _WORST_MISSES and (len(held) > len(missed) or (both_named and held)):
                fits.append(PairFit(claimed, compared, base, held, missed))
    return fits


def cells_by_side(table: Table, by_rows: bool) -> dict[tuple[int, int], Cell]:
    """The numeric body cells, keyed (side, line): (row, column) when the sides are rows, else (column, row)."""
    return {
        ((cell.row, cell.column) if by_rows else (cell.column, cell.row)): cell
        for row in table.rows[table.header_rows :]
        for cell in row
        if cell.value is not None and cell.value > 0 and cell.column > 0
    }


def _gives(a: Cell, b: Cell, base: Cell, percent: Written) -> bool:
    """Whether some values the cells' rounding allows give `percent` as |a − b| / base, within its own rounding."""
    spread_a, spread_b = slack(a.decimals), slack(b.decimals)
    gap = abs((a.value or 0.0) - (b.value or 0.0))
    low_base, high_base = (base.value or 0.0) - slack(base.decimals), (base.value or 0.0) + slack(base.decimals)
    if low_base <= 0:
        return False
    low = max(gap - spread_a - spread_b, 0.0) / high_base * 100
    high = (gap + spread_a + spread_b) / low_base * 100
    return low - percent.slack <= percent.value <= high + percent.slack


def named_sides(text: str, headers: Sequence[str]) -> frozenset[int]:
    """The sides (by index into `headers`) whose header `text` names best, at least half its words."""
    words = name_words(text)
    shares = [named_share(words, name_words(header)) for header in headers]
    top = max(shares, default=0.0)
    return frozenset(index for index, share in enumerate(shares) if share == top) if top >= 0.5 else frozenset()


def settled(fits: Sequence[PairFit]) -> Iterator[PairFit]:
    """The fit that explains most, when every fit explaining as much misses the same percentages."""
    most = max((len(fit.held) for fit in fits), default=0)
    top = [fit for fit in fits if len(fit.held) == most]
    if top and top[0].missed and all(fit.missed == top[0].missed for fit in top):
        yield top[0]
