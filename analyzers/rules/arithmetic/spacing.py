"""Lists of values a sentence says are spaced evenly (or double each step), read so that the spacing can be redone.

A sentence that calls a set of values "evenly spaced", "in equal steps", "equidistant" or "linearly spaced" and lists
them ("scored from 1 to 2 across an even distribution, yielding 1, 1.34, 1.67, and 2") promises that each value is the
one the list's ends and its count give. "Doubling at each step", "log-spaced" or "geometric" promise the same on a log
scale. The list is the numbers the shared number reader marks as one enumeration (`Role.LISTED`): four or more,
joined by commas, "and", "or", written in one unit, in order. Each value may be rounded to the places it is written
to; a value written with fewer places than the most precise one of its list is round ("1" beside "1.34" is 1.00).
An even claim is kept when the list is an arithmetic progression, or a geometric one spanning a power of ten (an
author may mean even on a log scale); a log claim when it is geometric, or a grid repeating its mantissas every
decade ("1e-5, 5e-5, 1e-4, 5e-4"); doubling and halving need the ratio 2. A list off its spacing is a slip only
when setting one value aside leaves the others spaced as claimed: a list no value explains is not the one the claim
describes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from enum import Enum
from functools import lru_cache
from itertools import combinations, pairwise

from ....latex.deferred_pattern import DeferredPattern
from ....latex.numbers import NumberMention, Role, find_numbers
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE
from ...quantities import slack

# "evenly spaced", "equally-spaced", "in equal steps", "uniform increments", "equidistant", "at regular intervals".
# "Uniformly distributed" is a random draw, not a list's spacing: distributions are read only as "even(ly)".
_EVEN_WORDS = (
    r"\b(?:even(?:ly)?|equal(?:ly)?|uniform(?:ly)?|linear(?:ly)?|regular(?:ly)?)[\s-]+(?:spaced|spacing|separated|stepped|steps?|increments?"
    r"|intervals?|gaps?)\b|\bequi-?(?:distant|spaced)\b|\blinspace\b|\beven(?:ly)?[\s-]+distribut(?:ed|ion)\b"
)
_EVEN_CLAIM = DeferredPattern(_EVEN_WORDS, re.IGNORECASE)
# "log-spaced", "logarithmically spaced", "a geometric grid", "evenly spaced on a log scale", "searched on a log scale" (an
# even claim, or a choice of values, followed by its scale); a plot "on a log scale" says how values are drawn, not chosen.
_LOG_CLAIM = DeferredPattern(
    r"\blog(?:arithmic(?:ally)?)?[\s-]*(?:spaced|spacing|grid|steps?)\b|\bgeometric(?:ally)?[\s-]+(?:spaced|sequence|progression|grid|steps?)\b"
    r"|\blogspace\b|(?:"
    + _EVEN_WORDS
    + r"|\b(?:search|sampl|chos|select|swe|spac)\w*)[^.;\d]{0,20}?\b(?:on|in)\s+(?:an?\s+)?log(?:arithmic)?[\s-]*(?:scale|space)\b",
    re.IGNORECASE,
)
# Doubling or halving at each step ("doubled at each stage", "halving every round"): a doubled quantity alone is no list's spacing.
_DOUBLING_CLAIM = DeferredPattern(r"\b(?:doubl|halv)(?:ing|es|ed)\b[^.;\d]{0,15}?\b(?:each|every|per|successive(?:ly)?)\b", re.IGNORECASE)
# Between two values of one enumeration: a comma, "and", "or" ("1, 1.34, 1.67, and 2").
_JOIN = DeferredPattern(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", re.IGNORECASE)
# Between a list and a claim after it: its unit, a comma, a verb ("0.1, 0.2 and 0.4 s, evenly spaced", "…, which are equally spaced").
_CLOSE_AFTER = DeferredPattern(r"[^\d.;]{0,30}")
# Four values or more: in three, one value off the spacing cannot be told from a list the claim does not describe.
_LISTED = 4
_EXACT = 1e-9  # the slack, relative, of a value written round: exact
# A value exactly halfway between two written ones is rounded either way, but not both ways in one list: the spacing
# of "0.2, 0.4, 0.6, 0.9, 1.0" is no tie-broken rounding of 0.25, 0.45, 0.65, 0.85, 1.05.
_UNTIED = 1 - 1e-6
# What comes right before the numbers of a set given by its count, ends and step ("21 evenly-spaced increments of τ; the
# first increment was 0 s, the last was 4 s, and consecutive increments differed by 0.4 s", "from 0 to 1 in steps of 0.1").
_FIRST_BEFORE = DeferredPattern(r"(?:\bfrom|\bfirst\b[^\d;,]{0,30}?\b(?:was|is|at|of))\s+$", re.IGNORECASE)
_LAST_BEFORE = DeferredPattern(r"(?:\bto|\blast\b[^\d;,]{0,30}?\b(?:was|is|at|of))\s+$", re.IGNORECASE)
_STEP_BEFORE = DeferredPattern(
    r"(?:\b(?:steps?|increments?|intervals?|spacing)\s+(?:size\s+)?of|\b(?:differ(?:ed|s)?|separated|spaced|apart)\s+by)\s+$", re.IGNORECASE
)
_LOOK_BEFORE = 60  # characters before a number searched for the words that make it an end or the step


class Spacing(str, Enum):
    EVEN = "evenly spaced"
    LOG = "evenly spaced on a log scale"
    DOUBLING = "doubling"


@record(slots=True)
class SpacedList:
    """Values a sentence lists and says are spaced as `spacing` claims; offsets in the block's plain text."""

    values: tuple[NumberMention, ...]
    spacing: Spacing
    claim_start: int
    claim_end: int

    @property
    def start(self) -> int:
        return self.values[0].plain_start

    @property
    def end(self) -> int:
        return self.values[-1].plain_end

    def bounds(self) -> list[tuple[float, float]]:
        """Where each value may lie, rounded to its places; a value written with fewer places than its list's most precise is round."""
        most = max(value.decimals for value in self.values)
        return [
            (value.value - half, value.value + half)
            for value in self.values
            for half in [slack(value.decimals) * _UNTIED if value.decimals == most else _EXACT * max(abs(value.value), 1.0)]
        ]

    def spaced(self) -> bool:
        """Whether the values are spaced as claimed, each within its rounding."""
        return self._fits(None)

    def slip(self) -> int | None:
        """The place of the one value that, set aside, leaves the others spaced as claimed: an inner one before an end (the
        ends are the range the sentence states); None when no one value does, a list the claim may not be of."""
        places = [place for place in range(len(self.values)) if self._fits(place)]
        inner = [place for place in places if 0 < place < len(self.values) - 1]
        return next(iter(inner or places), None)

    def expected_at(self, place: int) -> float:
        """The value at `place` that the others give, spaced as claimed: an inner value from the list's ends, an end from a
        least-squares line through the others (of the logarithms, on a log scale)."""
        last = len(self.values) - 1
        through = (0, last) if 0 < place < last else [other for other in range(last + 1) if other != place]
        others = [(other, self.values[other].value) for other in through]
        if self.spacing is Spacing.EVEN:
            return _line_at(others, place)
        if self.spacing is Spacing.DOUBLING:
            ratio = 2.0 if self.values[-1].value > self.values[0].value else 0.5
            return math.exp(sum(math.log(value / ratio**other) for other, value in others) / len(others)) * ratio**place
        return math.exp(_line_at([(other, math.log(value)) for other, value in others], place))

    def _spans_decades(self) -> bool:
        """Whether the values span a power of ten or more: only then may "evenly spaced" mean on a log scale."""
        magnitudes = [abs(value.value) for value in self.values]
        return min(magnitudes) > 0 and max(magnitudes) >= 10 * min(magnitudes)

    def _fits(self, aside: int | None) -> bool:
        bounds = [None if place == aside else bound for place, bound in enumerate(self.bounds())]
        if self.spacing is Spacing.EVEN:
            return progression_fits(bounds) or (self._spans_decades() and geometric_fits(bounds))
        if self.spacing is Spacing.DOUBLING:
            return ratio_fits(bounds, 2.0)
        return geometric_fits(bounds) or decade_grid([value for place, value in enumerate(self.values) if place != aside])


def _line_at(points: list[tuple[int, float]], place: int) -> float:
    mean_place = sum(other for other, _ in points) / len(points)
    mean_value = sum(value for _, value in points) / len(points)
    spread = sum((other - mean_place) ** 2 for other, _ in points)
    slope = sum((other - mean_place) * (value - mean_value) for other, value in points) / spread
    return mean_value + slope * (place - mean_place)


Bounds = Sequence[tuple[float, float] | None]  # where each value of a list may lie; None for a value set aside


def progression_fits(bounds: Bounds) -> bool:
    """Whether some first value a and step d put a + k·d within the k-th bounds for every k."""
    placed = [(place, bound) for place, bound in enumerate(bounds) if bound is not None]
    lowest, highest = -math.inf, math.inf
    for (i, (low_i, high_i)), (j, (low_j, high_j)) in combinations(placed, 2):
        lowest = max(lowest, (low_j - high_i) / (j - i))
        highest = min(highest, (high_j - low_i) / (j - i))
    return lowest <= highest + 1e-12


def geometric_fits(bounds: Bounds) -> bool:
    """Whether some first value and ratio put every value within its bounds: a progression of the logarithms."""
    kept = [bound for bound in bounds if bound is not None]
    if any(low <= 0 for low, _ in kept) and any(high >= 0 for _, high in kept):
        return False  # a ratio keeps the sign, and no power reaches zero
    return progression_fits([None if bound is None else _log_bounds(bound) for bound in bounds])


def _log_bounds(bound: tuple[float, float]) -> tuple[float, float]:
    low, high = sorted(abs(end) for end in bound)
    return math.log(low), math.log(high)


def ratio_fits(bounds: Bounds, ratio: float) -> bool:
    """Whether each value is the one before it times `ratio` (or divided by it), within the bounds."""
    placed = [(place, bound) for place, bound in enumerate(bounds) if bound is not None]
    for factor in (ratio, 1 / ratio):
        lowest = max(low / factor**place for place, (low, _) in placed)
        highest = min(high / factor**place for place, (_, high) in placed)
        if lowest > 0 and lowest <= highest * (1 + 1e-12):
            return True
    return False


def decade_grid(values: Sequence[NumberMention]) -> bool:
    """Whether the values repeat one set of mantissas every power of ten ("1e-5, 5e-5, 1e-4, 5e-4"): even on a log scale per decade."""
    if any(value.value <= 0 for value in values):
        return False
    decades: dict[int, list[float]] = {}
    for value in values:
        exponent = math.floor(math.log10(value.value) + 1e-9)
        decades.setdefault(exponent, []).append(round(value.value / 10.0**exponent, 6))
    mantissas = list(decades.values())
    return (
        len(mantissas) >= 2
        and all(mantissa == mantissas[0] for mantissa in mantissas[1:-1])
        and mantissas[-1] == mantissas[0][: len(mantissas[-1])]
    )


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def spaced_lists(plain: str) -> tuple[SpacedList, ...]:
    """The lists of four values or more that a sentence of `plain` says are evenly spaced, doubling or log-spaced."""
    found = []
    for start, mentions in _numbers_by_sentence(plain).items():
        sentence = mentions[0].sentence
        claim = _claim(sentence)
        if claim is None:
            continue
        spacing, claim_start, claim_end = claim
        for values in _enumerations(mentions):
            if _attached(sentence, mentions, values, claim_start, claim_end):
                found.append(SpacedList(tuple(values), spacing, start + claim_start, start + claim_end))
    return tuple(found)


def _attached(sentence: str, mentions: list[NumberMention], values: list[NumberMention], claim_start: int, claim_end: int) -> bool:
    """Whether the claim speaks of the list: it comes before the list with no other number between ("from 1 to 2 across an even
    distribution, yielding 1, 1.34, 1.67, and 2"), or right after it ("0.1, 0.2 and 0.4, evenly spaced"); a claim after
    another number names what that number counts ("(1, 5, 15, 30 N) at 5 equidistant points")."""
    first, last = values[0].plain_start - values[0].sentence_start, values[-1].plain_end - values[-1].sentence_start
    if claim_end <= first:
        return not any(claim_end <= mention.plain_start - mention.sentence_start < first for mention in mentions)
    return claim_start >= last and _CLOSE_AFTER.fullmatch(sentence, last, claim_start) is not None


def _numbers_by_sentence(plain: str) -> dict[int, list[NumberMention]]:
    """The numbers of `plain` by the start of their sentence."""
    by_sentence: dict[int, list[NumberMention]] = {}
    for mention in find_numbers(plain):
        by_sentence.setdefault(mention.sentence_start, []).append(mention)
    return by_sentence


def _claim(sentence: str) -> tuple[Spacing, int, int] | None:
    """The spacing the sentence claims, where it says so: a log claim first ("evenly spaced on a log scale")."""
    for pattern, spacing in ((_LOG_CLAIM, Spacing.LOG), (_DOUBLING_CLAIM, Spacing.DOUBLING), (_EVEN_CLAIM, Spacing.EVEN)):
        match = pattern.search(sentence)
        if match:
            return spacing, match.start(), match.end()
    return None


def _enumerations(mentions: list[NumberMention]) -> list[list[NumberMention]]:
    """Runs of listed numbers joined only by commas, "and", "or", written alike and in order: four or more."""
    runs: list[list[NumberMention]] = []
    for before, mention in [(None, mentions[0]), *pairwise(mentions)]:
        joined = (
            before is not None
            and before.role is Role.LISTED
            and mention.role is Role.LISTED
            and (before.percent, before.unit) == (mention.percent, mention.unit)
            and _JOIN.fullmatch(mention.sentence, before.plain_end - before.sentence_start, mention.plain_start - mention.sentence_start)
        )
        if joined:
            runs[-1].append(mention)
        else:
            runs.append([mention])
    return [run for run in runs if len(run) >= _LISTED and _ordered(run)]


def _ordered(run: list[NumberMention]) -> bool:
    steps = [after.value - before.value for before, after in pairwise(run)]
    return all(step > 0 for step in steps) or all(step < 0 for step in steps)


@record(slots=True)
class SteppedSet:
    """A set a sentence says is evenly spaced and gives by its count, its two ends and its step; offsets in the block's plain text."""

    count: NumberMention
    first: NumberMention
    last: NumberMention
    step: NumberMention

    @property
    def start(self) -> int:
        return min(number.plain_start for number in (self.count, self.first, self.last, self.step))

    @property
    def end(self) -> int:
        return max(number.plain_end for number in (self.count, self.first, self.last, self.step))

    @property
    def points(self) -> float:
        """The intervals the step makes between the ends."""
        return abs(self.last.value - self.first.value) / abs(self.step.value)

    def divides(self) -> bool:
        return self.step.value != 0 and abs(self.points - round(self.points)) <= 1e-6

    def counts(self) -> tuple[int, int]:
        """The counts the ends and step give: with both ends counted, or one (authors differ)."""
        return round(self.points) + 1, round(self.points)

    def recounts(self) -> bool:
        return round(self.count.value) in self.counts()


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def stepped_sets(plain: str) -> tuple[SteppedSet, ...]:
    """The sets a sentence of `plain` says are evenly spaced and gives by a count right before the claim, two ends and a step."""
    found = []
    for mentions in _numbers_by_sentence(plain).values():
        sentence = mentions[0].sentence
        match = _EVEN_CLAIM.search(sentence)
        if match is None:
            continue
        counts = [mention for mention in mentions if sentence[_sentence_end(mention) : match.start()].isspace()]  # "21 evenly-spaced"
        firsts, lasts, steps = (_after(sentence, mentions, pattern) for pattern in (_FIRST_BEFORE, _LAST_BEFORE, _STEP_BEFORE))
        if len(counts) != 1 or len(firsts) != 1 or len(lasts) != 1 or len(steps) != 1 or counts[0].decimals or counts[0].unit:
            continue  # one of each, or which number is which is open
        stepped = SteppedSet(counts[0], firsts[0], lasts[0], steps[0])
        if stepped.first.plain_start < stepped.last.plain_start and stepped.divides():
            found.append(stepped)
    return tuple(found)


def _sentence_end(mention: NumberMention) -> int:
    return mention.plain_end - mention.sentence_start


def _after(sentence: str, mentions: list[NumberMention], before: DeferredPattern) -> list[NumberMention]:
    """The numbers of the sentence that the words `before` matches lead to."""
    found = []
    for mention in mentions:
        start = mention.plain_start - mention.sentence_start
        if before.search(sentence[max(0, start - _LOOK_BEFORE) : start]):
            found.append(mention)
    return found
