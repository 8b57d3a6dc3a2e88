"""A percentage a sentence states of a value and of the base it names: "cancellations reduce the rate by
1.78 ppt, which represents a 38% decrease from the average rate (4.7%)", "a decrease of 204 pesos (out
of a group mean of 942), equivalent to 22%", "a slowdown of 1.2, which is 48% lower than the baseline's 2.3".

The value is the last number of the clause before the connecting words (", which is", ", or",
"representing", "equivalent to", ", a"), outside parentheses; the base is the number the words after
the percentage lead to ("of", "a decrease from", "lower than", a few naming words between), or the one
a parenthesis "(out of … N)" gives before. A list of percentages ("a 37% and 34% drop"), a range, a
bound ("over 20%") and a factor for a base ("10x of lock") say something else and are not read.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from enum import IntEnum
from functools import lru_cache
from itertools import product

from ....latex.deferred_pattern import DeferredPattern
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE
from .model import NUMBER, PERCENT_SIGN, Written, is_year, may_write_percent

_ESTIMATE = r"(?P<estimate>about|roughly|approximately|nearly|almost|around|close\s+to|some|\\approx|≈|~|\\sim)\s*"
_CONNECT = (
    r"(?:,|\()\s*(?:(?:which\s+(?:is|was|represents|corresponds\s+to|amounts\s+to)|represent(?:s|ing)|or|i\.e\.,?|that\s+is,?"
    r"|equivalent\s+to|corresponding\s+to|amounting\s+to)\s+)?(?:an?\s+)?(?:" + _ESTIMATE + r")?"
)
_CHANGE_NOUN = r"(?:decrease|increase|drop|reduction|rise|decline|improvement|gain|loss|cut|fall|change)"
_RELATION = (
    r"\s*(?:of|" + _CHANGE_NOUN + r"(?:\s+(?:from|over|relative\s+to|compared\s+(?:to|with)|of|on|in))?"
    r"|(?:lower|higher|less|more|smaller|larger|greater|fewer|below|above)\s+than)\b"
)
_RANK = r"\\?%\s*ile|percentile|th\b"  # "the 99%ile slowdown", "the 95th": a rank, not a value
# The words that lead from the relation to the base: a few, no digit, no other clause.
_TO_BASE = r"(?P<words>(?:\s+(?!(?:and|or|but|while|whereas|which)\b)[^\s\d,;:().]+){0,9}?)\s*\(?\s*(?:\\?[$€£]\s*)?"
_STATED = DeferredPattern(
    _CONNECT
    + NUMBER
    + PERCENT_SIGN
    + r"(?!\s*(?:and|or|to|-|–|--)\s*\d)"
    + _RELATION
    + r"(?:"
    + _TO_BASE
    + NUMBER
    + r"(?!\s*(?:×|x\b|\\times|times|-?fold)))?",
    re.IGNORECASE,
)
_NUMBER = DeferredPattern(NUMBER)
_RANK_AFTER = DeferredPattern(r"\s*(?:" + _RANK + r")", re.IGNORECASE)
_OUT_OF = DeferredPattern(r"\(\s*out\s+of\s+(?:an?\s+|the\s+)?[^()\d]{0,40}?" + NUMBER + r"[^()\d]*\)", re.IGNORECASE)
# A pair written before the value: "0.79 minutes, versus 1.13 minutes for the old method, which is a 44% improvement".
_VERSUS = DeferredPattern(r"(?:vs\.?|versus|compared\s+(?:to|with)|against)\s*(?:\\?[$€£]\s*)?$", re.IGNORECASE)
_PARENTHESIS = DeferredPattern(r"\([^()]*\)")
_CLAUSE_START = DeferredPattern(r"[;:]|\.\s+[A-Z]")  # a clause opens after ";", ":" or a sentence's end ("s.e. 0.04" is none)
_REACH = 80  # characters before the connecting words within which the value is written, parentheses aside
_PAIR_GAP = 60  # characters between the first of a pair and "versus" (its unit, what it measures)


class Reading(IntEnum):
    """How a percentage may be read of a value and a base, by its place in `_readings`."""

    SHARE = 0
    CHANGE_OF_BASE = 1  # the change relative to the base
    CHANGE_OF_VALUE = 2  # the change relative to the value
    POINTS = 3  # the difference, in points where both are percentages


@record(slots=True)
class BasedPercentage:
    """A percentage (`percent`) stated of a value (`value`) against a base (`base`), with how it is hedged."""

    value: Written
    percent: Written
    base: Written
    estimate: bool

    def recomputes(self, readings: Collection[Reading] = tuple(Reading)) -> bool:
        """The percentage is the value's share of the base, or its change from the base (either side as the
        reference), or their difference in points: one of `readings`, within the rounding of all three; an
        estimate ("about") within a tenth more."""
        corners = [
            result
            for a, b in product(
                (self.value.value - self.value.slack, self.value.value + self.value.slack),
                (self.base.value - self.base.slack, self.base.value + self.base.slack),
            )
            for result in _readings(a, b)
        ]
        allowance = self.percent.slack + (0.1 * self.percent.value if self.estimate else 0)
        lows = [min(corners[i::4]) for i in range(4)]
        highs = [max(corners[i::4]) for i in range(4)]
        return any(lows[reading] - allowance <= self.percent.value <= highs[reading] + allowance for reading in readings)


def _readings(a: float, b: float) -> tuple[float, float, float, float]:
    """The share of `a` in `b`, the change between them relative to `b` and to `a`, in percent, and their
    difference (in points, where both are percentages)."""
    if a <= 0 or b <= 0:
        return (float("nan"),) * 4
    return a / b * 100, abs(a - b) / b * 100, abs(a - b) / a * 100, abs(a - b)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def based_percentages(text: str) -> tuple[BasedPercentage, ...]:
    """Every percentage the text states of a value and a base it gives in the same clause."""
    if not may_write_percent(text):
        return ()
    found = []
    for match in _STATED.finditer(text):
        value, before = _value_before(text, match.start())
        base = Written.read(match, 5) if match.group(5) else before
        if value is not None and base is not None:
            found.append(BasedPercentage(value, Written.read(match, 2), base, bool(match.group("estimate"))))
    return tuple(found)


def _value_before(text: str, connect: int) -> tuple[Written | None, Written | None]:
    """The number the connecting words at `connect` refer back to, and the base it is written with: "(out of
    … N)" after it, or "N versus" before it."""
    clause = max((m.end() for m in _CLAUSE_START.finditer(text, 0, connect)), default=0)
    start = max(clause, connect - _REACH - 60)
    bracketed = [(m.start(), m.end()) for m in _PARENTHESIS.finditer(text, start, connect)]
    outside = (m for m in _NUMBER.finditer(text, start, connect) if not any(low <= m.start() < high for low, high in bracketed))
    numbers = [Written.read(match) for match in outside]
    if (
        not numbers
        or is_year(numbers[-1])
        or connect - numbers[-1].end > _REACH + sum(high - low for low, high in bracketed if low >= numbers[-1].end)
    ):
        return None, None
    value = numbers[-1]
    if _RANK_AFTER.match(text, value.end):
        return None, None
    after = _PARENTHESIS.sub("", text[value.end : connect])
    if re.search(r"\d", after) or ")" in after:  # another number between, or the value closes a parenthesis: "(s.e. 0.04), which"
        return None, None
    out_of = _OUT_OF.search(text, value.end, connect)
    if out_of:
        return value, Written.read(out_of)
    versus = _VERSUS.search(text, start, value.start)
    paired = [number for number in numbers[:-1] if versus and number.end <= versus.start()]
    if not versus or not paired or versus.start() - paired[-1].end > _PAIR_GAP or re.search(r"\d", text[paired[-1].end : versus.start()]):
        return value, None
    return value, paired[-1]
