"""A factor a sentence states between two things ("over 40 times faster than GMAP", "an order of
magnitude fewer"), and the factor between the cells of a table that it names.

The sentence names the two things by the headers of a cited table's lines (rows, or columns when
the methods stand side by side); the factor is recomputed from their cells on every line across
(each metric), with the rounding of the cells. A bound ("over 40 times", "at least an order of
magnitude") must hold; an estimate ("about 40 times", "40 times", "an order of magnitude") must
be near. The factor is taken either way round: "faster" is a smaller time or a larger throughput.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ....latex.model import Cell, Table
from ...memo import TEXT_CACHE_SIZE
from ...quantities import name_words, named_share, slack, spelled

_WORD_FACTORS = {"two": 2, "three": 3, "four": 4, "five": 5, "ten": 10, "twice": 2}
_BOUND = r"(?P<bound>over|more\s+than|at\s+least|above|exceeding|greater\s+than)\s+"
_ESTIMATE = r"(?P<estimate>about|around|roughly|approximately|nearly|almost|close\s+to|some|~|\\sim)\s*"
_FACTOR = r"(?P<factor>\d+(?:\.\d+)?)\s*(?:times|x|×|\\times|-?fold)"
_MAGNITUDE = r"(?P<orders>an|one|two|three|four)\s+orders?\s+of\s+magnitude"
# "faster than", "fewer conflicts than", "that of", "as large as".
_COMPARISON = r"\s+(?:(?P<comparative>[a-z]+er|more|less|fewer)(?:\s+[a-z-]+){0,2}?\s+)?(?:than|that\s+of|as\s+\w+\s+as)\b"
_CLAIM = re.compile(
    r"(?<![\w.])(?:" + _BOUND + r"|" + _ESTIMATE + r")?(?:" + _FACTOR + r"|" + _MAGNITUDE + r")" + _COMPARISON, re.IGNORECASE
)
# What every factor above contains: a number before its "times" (or "x", "fold"), or "magnitude".
_FACTOR_HINT = re.compile(r"\d\s*(?:times|x|×|\\times|-?fold)|magnitude", re.IGNORECASE)
# A comparison of speed names a line of times or rates; other lines measure something else.
_SPEED = re.compile(r"\b(?:faster|slower|quicker|speedier)\b", re.IGNORECASE)
_TIME_HEADER = re.compile(r"time|speed|throughput|latency|fps|\bs\b|sec|min|hour|\bms\b|\bh\b|per\s+second|/s\b", re.IGNORECASE)
_OBJECT_END = re.compile(r"[.;,:()]|\b(?:while|whereas|but|which|when|on|in|for|with)\b")
_UP_TO = re.compile(r"\b(?:up\s+to|as\s+much\s+as)\s+$", re.IGNORECASE)
_PRONOUN = re.compile(r"[\s,;]*(?:(?:while|whereas|and|but|so)\s+)?(?:it|they|this|these|which)\b", re.IGNORECASE)
_LEADING_PREPOSITION = re.compile(r"\s*(?:in|on|for|with|of|by)\b", re.IGNORECASE)
_UNIT = re.compile(r"[\d.,\s{}~$\\]+|(?:SI|num)\b")


@dataclass(frozen=True, slots=True)
class RatioClaim:
    """A factor the sentence states, how (a bound or an estimate), and the words naming each side."""

    factor: float
    bound: bool
    orders: bool  # "an order of magnitude": the factor is a power of ten, read loosely
    speed: bool
    subject: str
    compared: str
    words: frozenset[str]  # of the whole sentence: the lines across it names ("fewer conflicts")
    start: int
    end: int

    def holds(self, low: float, high: float) -> bool:
        """Whether a factor somewhere between `low` and `high` (what the cells' rounding allows) bears the claim out."""
        if self.bound:
            return high >= self.factor
        if self.orders:
            return high >= self.factor / 2
        return high >= self.factor * 0.8 and low <= self.factor * 1.25


def may_state_ratio(text: str) -> bool:
    """Whether `text` may state a factor: one short pattern, so a paragraph without one is not split into sentences."""
    return _FACTOR_HINT.search(text) is not None


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def ratio_claims(sentence: str) -> tuple[RatioClaim, ...]:
    """The factors the sentence states. The claimed side is named before the factor, apart from
    what an earlier factor of the sentence compared with ("13 times less than A, while it is 18
    times that of B", where "it" is the claimed side again); the compared side after "than", up to
    the end of its phrase."""
    found: list[RatioClaim] = []
    for match in _CLAIM.finditer(sentence):
        if match.group("orders"):
            orders = _WORD_FACTORS.get(match.group("orders").lower(), 1)
            factor = 10.0**orders
        else:
            factor = float(match.group("factor"))
        if factor <= 1 or _UP_TO.search(sentence, 0, match.start()):
            continue  # "up to 100 times": the best case of many
        begin = _LEADING_PREPOSITION.match(sentence, match.end())
        end = _OBJECT_END.search(sentence, begin.end() if begin else match.end())
        compared = sentence[match.end() : end.start() if end else len(sentence)]
        subject = sentence[found[-1].end + len(found[-1].compared) if found else 0 : match.start()]
        if found and _PRONOUN.match(subject):  # "…, while it is 18 times that of B": the same claimed side
            subject = found[-1].subject
        comparative = match.group("comparative") or ""
        found.append(
            RatioClaim(
                factor,
                bool(match.group("bound")),
                bool(match.group("orders")),
                bool(_SPEED.match(comparative)),
                subject,
                compared,
                frozenset(name_words(sentence)),
                match.start(),
                match.end(),
            )
        )
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Factor:
    """The factor between two cells on one line across: the claimed side's and the compared side's."""

    claimed: Cell
    compared: Cell
    line: str
    low: float
    high: float

    @property
    def exact(self) -> float:
        a, b = self.claimed.value or 0.0, self.compared.value or 0.0
        return max(a / b, b / a)


def factors(table: Table, claim: RatioClaim) -> Iterator[list[Factor]]:
    """For each thing the sentence compares with, the factors its cells give against the claimed thing's,
    one per line across (a metric) that holds a number for both: the lines the sentence names
    ("fewer conflicts"), else every line."""
    width = max((cell.column + 1 for row in table.rows for cell in row), default=0)
    body = range(table.header_rows, len(table.rows))
    rows = [(table.row_header(row), {cell.column: cell for cell in table.rows[row]}) for row in body]
    columns = [
        (table.column_header(column), {row: cell for row in body for cell in table.rows[row] if cell.column == column})
        for column in range(1, width)
    ]
    row_lines = [(table.column_header(column), column) for column in range(1, width)]
    column_lines = [(table.row_header(row), row) for row in body]
    for lines, across in ((rows, row_lines), (columns, column_lines)):
        subject, compared = _named(lines, claim.subject), _named(lines, claim.compared)
        if len(subject) != 1 or not compared or subject[0] in compared:
            continue
        named = [(header, at) for header, at in across if named_share(claim.words, name_words(header)) >= 0.5]
        for other in compared:
            found = (_factor(lines[subject[0]][1].get(at), lines[other][1].get(at), header) for header, at in named or across)
            yield [factor for factor in found if factor is not None and (not claim.speed or _TIME_HEADER.search(factor.line))]
        return


def _factor(a: Cell | None, b: Cell | None, line: str) -> Factor | None:
    if a is None or b is None or not (a.value and b.value and a.value > 0 and b.value > 0):
        return None
    if not (_as_written(a) and _as_written(b)) or _UNIT.sub("", a.text) != _UNIT.sub("", b.text):
        return None  # "9 MB" against "700 kB": the numbers alone do not compare
    (small, small_slack), (large, large_slack) = sorted(((a.value, slack(a.decimals)), (b.value, slack(b.decimals))))
    if small <= small_slack:
        return None
    return Factor(a, b, line, (large - large_slack) / (small + small_slack), (large + large_slack) / (small - small_slack))


def _as_written(cell: Cell) -> bool:
    """Whether the cell's digits are its value's: "2\\,076" read as 2, or "3e5" as 3, compare nothing."""
    return re.sub(r"\D", "", cell.text) == re.sub(r"\D", "", spelled(cell.value or 0.0, cell.decimals))


def _named(lines: list[tuple[str, dict[int, Cell]]], words_of: str) -> list[int]:
    """The lines whose header `words_of` names best, at least half of its words."""
    words = name_words(words_of)
    shares = [named_share(words, name_words(header)) for header, _ in lines]
    best = max(shares, default=0.0)
    return [index for index, share in enumerate(shares) if share == best] if best >= 0.5 else []
