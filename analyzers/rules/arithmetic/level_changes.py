"""A share's level stated with its change in percent from a period or case whose level the sentence does not give
("72% of demand is met by CFE in the reference case, marking an 18% increase from 2025"), and the levels a paper
states of a share ("In the reference case, only 54% of demand is met with CFE").

A careful reader who meets such a change looks back for the level it started from and recomputes it. A share's
change is easily written in points where the sentence says percent: 72% against 54% is 18 points, a 33% increase.
The readers below find both shapes in a block's plain text. The change is read only where its sentence writes one
level, "P% of <noun>", before the change, and no other number but years: a sentence that gives the base ("from 54%
to 72%") is ARI002's, one that gives it after the change ("a 38% decrease from the average (4.7%)") is ARI015's.
What the level measures is the words of its clause up to the change ("demand met cfe reference case"); a level
stated elsewhere is of the same share when its sentence names it "B% of <noun>" with the same noun and holds every
one of those words.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...memo import TEXT_CACHE_SIZE
from .model import NUMBER, PERCENT_SIGN, Written, is_year, may_write_percent

_RISE = r"increase|rise|growth|gain|improvement|jump"
_FALL = r"decrease|drop|reduction|decline|fall"
# "an 18% increase from 2025", "a 12% drop compared to the baseline": a change in percent (not in points) and what it is from.
_CHANGE = DeferredPattern(
    NUMBER
    + PERCENT_SIGN
    + r"\s+(?:relative\s+)?(?:(?P<rise>"
    + _RISE
    + r")|(?P<fall>"
    + _FALL
    + r"))\s+(?:from|since|over|compared\s+(?:to|with)|relative\s+to)\b",
    re.IGNORECASE,
)
# "72% of demand", "54% of the households": a level of a share, named by the noun after "of".
_LEVEL = DeferredPattern(NUMBER + PERCENT_SIGN + r"\s+of\s+(?:the\s+|all\s+)?(?P<noun>[a-z]+)\b", re.IGNORECASE)
_PERCENT = DeferredPattern(NUMBER + PERCENT_SIGN)
_NUMBER = DeferredPattern(NUMBER)
_WORD = DeferredPattern(r"[a-z]+")
# Words that say nothing of what a level measures, and the words that link a level to its change.
_FUNCTION_WORDS = frozenset(
    "a an and are as at be been being by for from in into is it its of on or our that the their this to was were which with "
    "marking marks representing represents amounting corresponding equivalent only about nearly almost roughly around".split()
)


@record(slots=True)
class LevelChange:
    """A change in percent (`change`) stated of a share's level (`level`), without the level it is from."""

    level: Written
    change: Written
    rise: bool  # an increase, else a decrease
    noun: str  # the share's noun: "demand" in "72% of demand"
    subject: frozenset[str]  # what the level measures: the content words of its clause up to the change
    start: int  # the level's start
    end: int  # the change's phrase end ("… increase from")


@record(slots=True)
class StatedLevel:
    """A share's level (`level`) of `noun`, and the words of the sentence that states it."""

    level: Written
    noun: str
    words: frozenset[str]
    start: int  # the sentence's start
    end: int  # the sentence's end


def _content_words(text: str) -> frozenset[str]:
    return frozenset(word for word in _WORD.findall(text.lower()) if word not in _FUNCTION_WORDS)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def level_changes(text: str) -> tuple[LevelChange, ...]:
    """Every change in percent a sentence of the text states of the one share level it writes before it."""
    if not may_write_percent(text):
        return ()
    found = []
    for start, end in sentence_spans(text):
        changes = list(_CHANGE.finditer(text, start, end))
        levels = list(_LEVEL.finditer(text, start, end))
        if len(changes) != 1 or len(levels) != 1 or levels[0].end() > changes[0].start():
            continue
        change, level = changes[0], levels[0]
        percents = {m.start(1) for m in _PERCENT.finditer(text, start, end)}
        others = [m for m in _NUMBER.finditer(text, start, end) if m.start(1) not in percents and not is_year(Written.read(m))]
        if len(percents) != 2 or others:
            continue  # another number in the sentence may be the base: not a change whose base is elsewhere
        subject = _content_words(text[level.start("noun") : change.start()])
        found.append(
            LevelChange(
                Written.read(level),
                Written.read(change),
                change.group("rise") is not None,
                level.group("noun").lower(),
                subject,
                level.start(),
                change.end(),
            )
        )
    return tuple(found)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def stated_levels(text: str) -> tuple[StatedLevel, ...]:
    """Every share level "P% of <noun>" the text states, with the content words of its sentence."""
    if not may_write_percent(text):
        return ()
    found = []
    for start, end in sentence_spans(text):
        levels = list(_LEVEL.finditer(text, start, end))
        words = _content_words(text[start:end]) if levels else frozenset()
        found += [StatedLevel(Written.read(m), m.group("noun").lower(), words, start, end) for m in levels]
    return tuple(found)


def same_share(change: LevelChange, stated: StatedLevel) -> bool:
    """The stated level is of the share the change's level is: the same noun, and every word naming what it measures."""
    return stated.noun == change.noun and change.subject <= stated.words
