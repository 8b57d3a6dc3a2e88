"""Where a sentence says a change ends ("decreases run-time performance to 317 fps"), and the line
of a table the change is on: the line its unit or its words name ("FPS").

A value that no cell of that line holds, but that two of its cells differ by, is the size of the
change written as its end: "decreases to 317 fps" where the line gives 416 and 99 fps.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell, Table
from ...memo import TEXT_CACHE_SIZE
from ...quantities import name_words, named_share, slack

# A change and where it ends: "decreases run-time performance to 317 fps", "the error drops to 2.3%".
# The words between (at most five) name what changes; "from 8.50 to 8.84" has both ends (ARI002 reads it).
_TARGET = DeferredPattern(
    r"\b(?P<verb>decreas|drop|fall|fell|reduc|cut|shr[iau]nk|shorten|increas|improv|rise|rose|grow|grew|declin|boost|rais|degrad|slow|speed)\w*"
    r"(?P<what>(?:\s+(?!(?:from|up|close|compared|relative|equal|similar|due|according|next|prior|and|or|but)\b)[^\s.;:,()]+){0,5}?)"
    r"\s+to\s+(?:only\s+|just\s+)?(?P<value>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\d.,]*\s*(?:times|x\b|×|-?fold))"
    r"\s*(?P<unit>%|[A-Za-z]{1,8}\b)?",
    re.IGNORECASE,
)
_HINT = DeferredPattern(r"\bto\s+\d", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Target:
    """Where the sentence says a change ends: its value as written, and the words naming its line."""

    value: float
    decimals: int
    words: frozenset[str]  # of the unit and of what changes
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Difference:
    """Two cells of one line that differ by the stated end, which no cell of the line holds."""

    line: str
    first: Cell
    second: Cell


@lru_cache(maxsize=TEXT_CACHE_SIZE)  # kept by text: a section's walk asks of each of its blocks on every edit
def may_state_target(text: str) -> bool:
    return _HINT.search(text) is not None


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def targets(sentence: str) -> tuple[Target, ...]:
    """The ends of changes the sentence states, each with the words that may name its line."""
    found = []
    for match in _TARGET.finditer(sentence):
        value = match.group("value")
        words = name_words(f"{match.group('unit') or ''} {match.group('what')}")
        found.append(Target(float(value.replace(",", "")), len(value.partition(".")[2]), frozenset(words), match.start(), match.end()))
    return tuple(found)


def differences(table: Table, target: Target) -> Iterator[Difference]:
    """For each line the target's words name (a row or a column), the two cells differing by its value,
    when no cell of the line is that value within the rounding of both."""
    width = max((cell.column + 1 for row in table.rows for cell in row), default=0)
    body = range(table.header_rows, len(table.rows))
    rows = [(table.row_header(row), [cell for cell in table.rows[row] if cell.column > 0]) for row in body]
    columns = [
        (table.column_header(column), [cell for row in body for cell in table.rows[row] if cell.column == column])
        for column in range(1, width)
    ]
    for header, cells in (*rows, *columns):
        if named_share(target.words, name_words(header)) < 0.5:
            continue
        values = [cell for cell in cells if cell.value is not None]
        if any(_within(cell.value or 0.0, target, slack(cell.decimals)) for cell in values):
            continue
        pair = next(
            (
                (a, b)
                for index, a in enumerate(values)
                for b in values[index + 1 :]
                if _within(abs((a.value or 0.0) - (b.value or 0.0)), target, slack(a.decimals) + slack(b.decimals))
            ),
            None,
        )
        if pair is not None:
            yield Difference(header, *pair)


def _within(value: float, target: Target, cell_slack: float) -> bool:
    return abs(value - target.value) <= slack(target.decimals) + cell_slack
