"""Direction words and the two values they speak of, read from one sentence.

A sentence says which way two values go in one of two shapes:
- a change, the direction word before its endpoints: "accuracy increased from 4.8 to 4.4",
  "the error is reduced from 3.91 to 3.45", "improves from 57.63 → 58.39";
- a comparison, the word before "than" (or "compared to") with its pair: "higher for adults
  than for children (0.99 vs. 0.24)", "lower (M = 4.79) than the control (M = 4.42)". The first
  value of a pair belongs to the side named first, as readers take it.

A raw word ("increased", "lower") says which value is the larger; a word of quality ("improves",
"outperforms", "worse") says so only through the metric the sentence names (accuracy up, error
down); a sentence naming no metric, or metrics of both directions, is not read. Values that are
not plain magnitudes of one quantity are not compared: ordinals ("3rd"), powers ("10^-3",
"2e-4"), ratios and fractions ("1:3", "3/4"), ranges ("2-3"), years, and endpoints in two units
("30 s to 2 min"). A sentence that negates, supposes or expects ("not", "if", "expected") may be
stating the reverse on purpose and is not read.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE
from ...quantities import without_refs
from ..tables.model import read_direction

_UP = r"increas\w*|higher|greater|larger|rais(?:e|es|ed|ing)|ris(?:e|es|en|ing)|rose|gr[eo]w(?:s|n|ing)?"
_DOWN = r"decreas\w*|lower(?:s|ed|ing)?|smaller|fewer|reduc\w*|drop(?:s|ped|ping)?|declin\w*|f[ae]ll(?:s|ing|en)?|shr[iau]nk\w*"
_BETTER = r"improv\w*|better|outperform\w*|boost\w*"
_WORSE = r"worse|degrad\w*|deteriorat\w*|underperform\w*"
_WORD = DeferredPattern(rf"\b(?:(?P<up>{_UP})|(?P<down>{_DOWN})|(?P<better>{_BETTER})|(?P<worse>{_WORSE}))\b", re.IGNORECASE)
_SENSE = {"up": 1, "down": -1, "better": 1, "worse": -1}

_NUMBER = r"(?P<{0}>[-−]?\s?(?:\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.\d+)?|[-−]?\.\d+)"
# What follows a value: a unit or "%" (compared between the two), else the next word.
_UNIT = r"(?P<{0}>\s?%|\s?[A-Za-zµ]+\b)?"
# A value that is not a plain magnitude: a power, an ordinal, a ratio or fraction, a range.
_NOT_PLAIN = DeferredPattern(r"(?:\^|e[-+]?\d|\s?[×x]\s?10|st\b|nd\b|rd\b|th\b|[:/]\d|\s?[-–]\s?\d)")
_CHANGE = DeferredPattern(
    rf"\bfrom\s+{_NUMBER.format('a')}{_UNIT.format('ua')}\s*(?:to|→|->)\s*{_NUMBER.format('b')}{_UNIT.format('ub')}", re.IGNORECASE
)
_PAIR = DeferredPattern(rf"{_NUMBER.format('a')}{_UNIT.format('ua')}\s*(?:vs\.?|versus)\s+{_NUMBER.format('b')}{_UNIT.format('ub')}")
_NAMED = DeferredPattern(r"\b(?P<name>M|Mdn|mean|median)\s*=\s*" + _NUMBER.format("a"))
_THAN = DeferredPattern(r"\b(?:than|compared\s+(?:to|with)|relative\s+to)\b", re.IGNORECASE)
# A comparison whose verb takes its object directly: "X outperforms Y (81.2 vs. 83.0)".
_VERB = DeferredPattern(r"\b(?:out|under)perform\w*", re.IGNORECASE)
# Between a direction word and its endpoints: another clause, or a span of values ("ranging from").
_BREAK = DeferredPattern(r"[.;:]\s|\b(?:rang\w*|vary\w*|varied|between|span\w*|sweep\w*)\b", re.IGNORECASE)
_REACH = 60  # characters from a change word to its "from"
_CAUTIOUS = DeferredPattern(
    r"\b(?:not|no|never|neither|nor|without|if|whether|would|should|could|expect\w*|predict\w*|hypothes\w*|suppos\w*|"
    r"contrary|revers\w*|opposite|instead|rather)\b|n't\b",
    re.IGNORECASE,
)
# Cheap signs of either shape, so that a sentence without one is not parsed.
_FROM_VALUE = DeferredPattern(r"\bfrom\s+[-−]?\s?\.?\d")
_PAIR_CUE = DeferredPattern(r"\bvs\b|\bversus\b|\b(?:M|Mdn|mean|median)\s*=")
_YEAR = DeferredPattern(r"^(?:19|20)\d\d$")


@record(slots=True)
class StatedDirection:
    start: int  # the direction word, in the text
    end: int
    word: str
    shape: str  # "change" (from a to b) or "comparison" (a than b)
    first: str  # the values as written, the one the word puts first
    second: str
    metric: bool  # the word's sense came through the metric's name
    rises: bool  # the second value is the larger


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def contradicted_directions(text: str, sentences: tuple[tuple[int, int], ...]) -> tuple[StatedDirection, ...]:
    """The sentences' direction words that their own two values contradict."""
    found: list[StatedDirection] = []
    for start, end in sentences:
        sentence = text[start:end]
        change, pair = _FROM_VALUE.search(sentence) is not None, _PAIR_CUE.search(sentence) is not None
        # A referenced label's words ("fig:no-grad-clip") are no caution of the author's.
        if not (change or pair) or _WORD.search(sentence) is None or _CAUTIOUS.search(without_refs(sentence)):
            continue
        for claim in (*(_changes(sentence) if change else ()), *(_comparisons(sentence) if pair else ())):
            found.append(replace(claim, start=claim.start + start, end=claim.end + start))
    return tuple(found)


def _changes(sentence: str) -> list[StatedDirection]:
    claims = []
    for values in _CHANGE.finditer(sentence):
        words = list(_WORD.finditer(sentence, max(0, values.start() - _REACH), values.start()))
        if not words or _BREAK.search(sentence, words[-1].end(), values.start()):
            continue
        claim = _contradicted(sentence, words[-1], values, "change")
        claims.extend([claim] if claim else [])
    return claims


def _comparisons(sentence: str) -> list[StatedDirection]:
    than = list(_THAN.finditer(sentence)) or list(_VERB.finditer(sentence))
    words = [word for word in _WORD.finditer(sentence) if than and word.start() <= than[0].start()]
    if len(than) != 1 or not words or _BREAK.search(sentence, words[-1].end(), than[0].start()):
        return []
    word, pivot = words[-1], than[0].end()
    pairs = list(_PAIR.finditer(sentence, word.end()))
    if len(pairs) == 1:
        claim = _contradicted(sentence, word, pairs[0], "comparison")
        return [claim] if claim else []
    named = list(_NAMED.finditer(sentence))
    mine = [m for m in named if m.start() < pivot]
    theirs = [m for m in named if m.start() > pivot]
    if len(mine) != 1 or len(theirs) != 1 or mine[0].group("name") != theirs[0].group("name"):
        return []
    first, second = mine[0], theirs[0]
    claim = _judge(sentence, word, "comparison", (first.group("a"), ""), (second.group("a"), ""))
    return [claim] if claim else []


def _contradicted(sentence: str, word: re.Match[str], values: re.Match[str], shape: str) -> StatedDirection | None:
    """A pair of written values against the word, when both are plain magnitudes in one unit."""
    if any(_NOT_PLAIN.match(sentence, values.end(name)) for name in ("a", "b")):
        return None
    units = [(values.group(name) or "").strip().lower() for name in ("ua", "ub")]
    if units[0] and units[1] and units[0] != units[1]:
        return None
    return _judge(sentence, word, shape, (values.group("a"), units[0]), (values.group("b"), units[1]))


def _judge(sentence: str, word: re.Match[str], shape: str, first: tuple[str, str], second: tuple[str, str]) -> StatedDirection | None:
    """The claim, when its values go against the word (two values written alike are a tie, not a contradiction)."""
    kind = next(name for name, value in word.groupdict().items() if value)
    sense = _SENSE[kind]
    metric = kind in ("better", "worse")
    if metric:
        sense *= read_direction(sentence, None)[0]
    if not sense or any(_YEAR.match(text.strip()) for text, _ in (first, second)):
        return None
    a, b = _value(first[0]), _value(second[0])
    # A change goes from the first value to the second; a comparison puts the first side's value first.
    gap = (b - a) if shape == "change" else (a - b)
    if sense * gap >= 0:
        return None
    return StatedDirection(word.start(), word.end(), word.group(0), shape, _written(first), _written(second), metric, b > a)


def _value(text: str) -> float:
    return float(re.sub(r"[\s,]", "", text).replace("−", "-"))


def _written(value: tuple[str, str]) -> str:
    number, unit = value
    return f"{number.strip()}{'%' if unit == '%' else ''}"
