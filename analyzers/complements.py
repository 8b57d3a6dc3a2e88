"""The names of rates that come in complementary pairs: a share of some subjects and the share of the same
subjects that is its complement, so that the two add up to 100% (or 1).

A reader who meets "an accuracy of 99.7%" and, of the same model, "an error rate of 0.03%" knows one of them is
wrong; one who meets the same 0.22 as a "failure rate" in the prose and a "Success Rate" in the table knows the
two cannot both be right. `measure_named` reads which measure a header or a phrase names, and `complement_of`
which measure is its complement.

A name is read as one measure only when it names no measure of the other side too ("Error rate of the accurate
runs" names both and is read as neither). "Error" names the error rate only where it is not another kind of
error: a standard error, a mean squared or absolute error, a relative or reconstruction error are no shares.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..latex.deferred_pattern import DeferredPattern
from .memo import TEXT_CACHE_SIZE


@dataclass(frozen=True, slots=True)
class Measure:
    """One side of a complementary pair: its name as a message prints it, and the pattern of its names."""

    name: str
    names: DeferredPattern


_NOT = r"(?<!non-)(?<!non)(?<!non )(?<!un)"  # "non-response" is the other side of "response rate"

# Each pair: a share and its complement. Names are matched as words, case aside.
PAIRS: tuple[tuple[Measure, Measure], ...] = tuple(
    (Measure(first, DeferredPattern(first_names, re.IGNORECASE)), Measure(second, DeferredPattern(second_names, re.IGNORECASE)))
    for first, first_names, second, second_names in (
        ("accuracy", r"\baccura(?:cy|cies)\b|\bacc\b", "error rate", r"\b(?:error|err)(?:\s+rates?)?\b|\bmisclassification"),
        ("success rate", r"\bsuccess(?:es)?\b", "failure rate", r"\bfail(?:ures?|ed|s)?\b"),
        ("take-up", r"\btake-?\s?up\b|\buptake\b", "refusal", r"\brefus(?:als?|e|ed|ing)\b"),
        ("retention", r"\bretention\b|\bretained\b", "attrition", r"\battrition\b|\bdrop-?outs?\b|\bdropped\s+out\b"),
        ("coverage", r"\bcoverage\b", "miss rate", r"\bmiss(?:es|ed)?(?:\s+rates?)?\b"),
        ("response rate", _NOT + r"\bresponse\s+rates?\b", "non-response", r"\bnon-?\s?response\b"),
        ("acceptance rate", r"\bacceptance\b", "rejection rate", r"\brejection\b"),
        ("compliance", _NOT + r"\bcompliance\b", "non-compliance", r"\bnon-?\s?compliance\b"),
        ("agreement", r"\bagreement\b", "disagreement", r"\bdisagreement\b"),
    )
)

# Errors that are no share of wrong answers.
_OTHER_ERROR = DeferredPattern(
    r"\b(?:standard|squared|absolute|relative|reconstruction|approximation|estimation|prediction|quantization|"
    r"tracking|position\w*|angular|rms|mse|mae|rmse|type\s+i+)\b",
    re.IGNORECASE,
)


_ERROR_CONTEXT = 30  # characters before "error" that may say it is another kind of error ("mean squared")


def _named_at(measure: Measure, text: str, start: int, end: int) -> bool:
    """Whether the name matched at `start:end` of `text` names the measure: an error is the error rate only where
    the words before it do not make it another error."""
    return measure.name != "error rate" or not _OTHER_ERROR.search(text, max(0, start - _ERROR_CONTEXT), end)


@functools.lru_cache(maxsize=TEXT_CACHE_SIZE)
def measures_in(text: str) -> tuple[tuple[int, int, Measure], ...]:
    """Every name of a measure in `text`, in order: (start, end, measure)."""
    found = [
        (match.start(), match.end(), measure)
        for pair in PAIRS
        for measure in pair
        for match in measure.names.finditer(text)
        if _named_at(measure, text, match.start(), match.end())
    ]
    return tuple(sorted(found, key=lambda name: name[0]))


def measure_named(text: str) -> Measure | None:
    """The one measure of a complementary pair that `text` (a header, a phrase) names, or None."""
    named = {measure.name: measure for _, _, measure in measures_in(text)}
    return next(iter(named.values())) if len(named) == 1 else None


def complement_of(measure: Measure) -> Measure:
    return next(second if first is measure else first for first, second in PAIRS if measure in (first, second))

