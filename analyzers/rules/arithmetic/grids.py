"""Counts a sentence states for a grid it spells out, read so that they can be recounted.

A design is often given twice: as a count ("120 synthetic datasets", "a total of 33 poses") and as
the grid that makes it up, a product of factors ("(3 DAGs x 4 sample sizes x 10 CPTs)"), a count
per unit and the units in words ("34,683 total cases, resulting from 10 observations of 3,147
counties") or a range walked in steps ("from -90° to +90° with step size 5.625°"). The count must
be the product, or the number of points of the range (stated in a sentence with no other number):
both ends counted, or one of them (authors differ on whether "from 10 to 80 in steps of 10" holds
8 values or 7).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE
from .model import NUMBER, Written, is_year

_TIMES = r"\s*(?:x|×|\\times|\*)\s*"
_NAMING = r"(?:\s+(?!x\b)[A-Za-z][\w-]*){1,3}"  # the words that name what a factor counts: "sample sizes"
# "120 synthetic datasets (3 DAGs x 4 sample sizes x 10 CPTs)", "12 GPUs (6 nodes x 2 each)": a count, the few
# words naming it, and in parentheses nothing but the product, each factor but the last named.
_PRODUCT = DeferredPattern(
    NUMBER + r"(?:\s+[A-Za-z][\w-]*){1,4}\s*\(\s*((?:" + NUMBER + _NAMING + _TIMES + r")+" + NUMBER + r"(?:" + _NAMING + r")?)\s*\)",
    re.IGNORECASE,
)
_FACTOR = DeferredPattern(NUMBER)
_SIGNED = r"([-+−]?)\s*\$?(\d+(?:\.\d+)?)"  # an end of a range, its unit apart: "-90^∘", "10%"
_UNIT = r"\s*(?:\\?%|\^\s*\{?\s*(?:∘|\\circ)\s*\}?|°|[A-Za-z]{1,8}\b)?"
# "ranging from -90° to +90° with step size 5.625°", "from 10% to 80% with an increment of 10%"
_RANGE = DeferredPattern(
    r"\bfrom\s+" + _SIGNED + _UNIT + r"\s+to\s+" + _SIGNED + _UNIT + r"\s*,?\s+(?:with|in|at)\s+(?:an?\s+)?"
    r"(?:steps?\s+(?:size\s+)?(?:of\s+)?|step\s+sizes?\s+(?:of\s+)?|increments?\s+(?:of\s+)?|intervals?\s+of\s+)(\d+(?:\.\d+)?)",
    re.IGNORECASE,
)
# The count the range makes, in its sentence: "There are 8 proportions", "a total of 33 poses".
_COUNT = DeferredPattern(
    r"\b(?:there\s+(?:are|were)|a\s+total\s+of|in\s+total|totall?ing|giving|yielding)\s+" + NUMBER + r"(?!\s*(?:\\?%|°))", re.IGNORECASE
)


# A total and, in the same sentence and nothing else numbered, a count per unit and the units in words: "There are
# 34,683 total cases, resulting from 10 observations of 3,147 counties", "a total of 120 runs, 5 seeds for each of 24
# settings". What each unit has is named by a plural noun ("observations"): "10 of 3,147 counties" is a share, and
# "out of" never a product.
_TOTAL = DeferredPattern(
    r"\b(?:a\s+total\s+of|in\s+total|totall?ing)\s+" + NUMBER + r"|" + NUMBER + r"(?=(?:\s+[A-Za-z][\w-]*){0,2}?\s+(?:in\s+)?total\b)",
    re.IGNORECASE,
)
_PER_UNIT = DeferredPattern(
    NUMBER + r"(?:\s+(?!out\b)[A-Za-z][\w-]*){1,3}?(?<=s)\s+(?:of|(?:for|from|in|on)\s+each\s+of)\s+(?:the\s+|all\s+)?" + NUMBER + _NAMING,
    re.IGNORECASE,
)


@record(slots=True)
class StatedGrid:
    """A count, and what the grid it describes gives: a product of factors, or the points of a range."""

    count: Written
    start: int  # where the grid is written in the text
    end: int
    counts: tuple[int, ...]  # the counts the grid allows (a range: with both ends, or one)
    how: str  # "3 × 4 × 10", "from -90 to 90 in steps of 5.625"
    per_unit: bool = False  # a count per unit and the units, in words ("10 observations of 3,147 counties")

    def recounts(self) -> bool:
        return round(self.count.value) in self.counts


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def stated_grids(sentence: str) -> tuple[StatedGrid, ...]:
    """The products and stepped ranges the sentence states beside a count of the grid they make."""
    return (*_products(sentence), *_per_unit_products(sentence), *_ranges(sentence))


def _products(sentence: str) -> list[StatedGrid]:
    if "(" not in sentence:
        return []
    found = []
    for match in _PRODUCT.finditer(sentence):
        count = Written.read(match)
        factors = [Written.read(factor) for factor in _FACTOR.finditer(sentence, match.start(3), match.end(3))]
        if count.decimals or any(factor.decimals for factor in factors):
            continue  # counts are whole numbers
        product = 1
        for factor in factors:
            product *= int(factor.value)
        found.append(StatedGrid(count, match.start(3), match.end(3), (product,), " × ".join(f"{factor.value:g}" for factor in factors)))
    return found


def _per_unit_products(sentence: str) -> list[StatedGrid]:
    if "total" not in sentence.lower():
        return []
    totals = [Written.read(total, 1) if total.group(1) else Written.read(total, 3) for total in _TOTAL.finditer(sentence)]
    numbers = [Written.read(number) for number in _FACTOR.finditer(sentence)]
    if len(totals) != 1 or len(numbers) != 3:
        return []  # one total and its two factors alone: with other numbers, which ones make it is open
    total = totals[0]
    found = []
    for match in _PER_UNIT.finditer(sentence):
        each, units = Written.read(match, 1), Written.read(match, 3)
        if match.start() <= total.start < match.end() or any(number.decimals for number in (total, each, units)):
            continue
        if min(each.value, units.value) < 2 or total.value < max(each.value, units.value) or is_year(each) or is_year(units):
            continue
        how = f"{each.value:g} × {units.value:g}"
        found.append(StatedGrid(total, match.start(), match.end(), (int(each.value * units.value),), how, per_unit=True))
    return found


def _ranges(sentence: str) -> list[StatedGrid]:
    if "from" not in sentence.lower():
        return []
    found = []
    for match in _RANGE.finditer(sentence):
        low, high = _signed(match, 1), _signed(match, 3)
        step = float(match.group(5))
        counts = [Written.read(count) for count in _COUNT.finditer(sentence)]
        others = [number for number in _FACTOR.finditer(sentence) if not match.start() <= number.start() < match.end()]
        if step <= 0 or high <= low or len(counts) != 1 or len(others) != 1:
            continue  # the count and the range alone: with other numbers, which one the range makes is open
        points = (high - low) / step
        if abs(points - round(points)) > 1e-6:
            continue  # a step that does not divide the range: the ends are not both on the grid
        how = f"from {low:g} to {high:g} in steps of {step:g}"
        found.append(StatedGrid(counts[0], match.start(), match.end(), (round(points) + 1, round(points)), how))
    return found


def _signed(match: re.Match[str], group: int) -> float:
    value = float(match.group(group + 1))
    return -value if match.group(group) in ("-", "−") else value
