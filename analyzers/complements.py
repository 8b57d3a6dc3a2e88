"""The names of rates that come in complementary pairs: a share of some subjects and the share of the same
subjects that is its complement, so that the two add up to 100% (or 1).

A reader who meets "an accuracy of 99.7%" and, of the same model, "an error rate of 0.03%" knows one of them is
wrong; one who meets the same 0.22 as a "failure rate" in the prose and a "Success Rate" in the table knows the
two cannot both be right. `measure_named` reads which measure a header or a phrase names, and `complement_of`
which measure is its complement.

A header is read as one measure only when it names no other ("Error rate of the accurate runs" names both and
is read as neither). "Error" names the error rate only where it is not another kind of error: a standard error,
a mean squared or absolute error, a relative or reconstruction error, an error in a unit ("Error (eV)") are no
shares. "Retention time" is no retention, and a "dropout" is a setting of a network more often than an attrition.
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
        ("retention", r"\bretention\b(?!\s+times?)|\bretained\b", "attrition", r"\battrition\b|\bdrop-outs\b|\bdropped\s+out\b"),
        ("coverage", r"\bcoverage\b", "miss rate", r"\bmiss(?:es|ed)?(?:\s+rates?)?\b"),
        ("response rate", _NOT + r"\bresponse\s+rates?\b", "non-response", r"\bnon-?\s?response\b"),
        ("acceptance rate", r"\bacceptance\b", "rejection rate", r"\brejection\b"),
        ("compliance", _NOT + r"\bcompliance\b", "non-compliance", r"\bnon-?\s?compliance\b"),
        ("agreement", r"\bagreement\b", "disagreement", r"\bdisagreement\b"),
        (
            "sensitivity",
            r"\bsensitivity\b(?!\s+analys[ie]s)|\btrue[-\s]positive\s+rates?\b|\bTPR\b",
            "false negative rate",
            r"\bfalse[-\s]negative\s+rates?\b|\bFNR\b",
        ),
        (
            "specificity",
            r"\bspecificity\b|\btrue[-\s]negative\s+rates?\b|\bTNR\b",
            "false positive rate",
            r"\bfalse[-\s]positive\s+rates?\b|\bFPR\b",
        ),
    )
)

# Errors that are no share of wrong answers.
_OTHER_ERROR = DeferredPattern(
    r"\b(?:standard|squared|absolute|relative|reconstruction|approximation|estimation|prediction|quantization|"
    r"tracking|position\w*|angular|rms|mse|mae|rmse|type\s+i+)\b",
    re.IGNORECASE,
)


_ERROR_CONTEXT = 30  # characters before "error" that may say it is another kind of error ("mean squared")
_UNIT_CONTEXT = 15  # characters after it that may give its unit: "Error (eV)", "Height Err. (m)"
_UNIT = DeferredPattern(r"\((?![^)]*%)[^)]*[A-Za-z][^)]*\)")


def _named_at(measure: Measure, text: str, start: int, end: int) -> Measure | None:
    """The measure the name matched at `start:end` of `text` names: an error is the error rate only where the words
    before it do not make it another error (None)."""
    if measure.name == "error rate" and (
        _OTHER_ERROR.search(text, max(0, start - _ERROR_CONTEXT), end) or _UNIT.search(text, end, end + _UNIT_CONTEXT)
    ):
        return None
    return measure


_MEASURES = tuple(measure for pair in PAIRS for measure in pair)
# Every measure's names in one pattern, a group per measure, so that a text is scanned once, not once per name. Every
# name starts a word: the lookahead rejects every other place before the names are tried.
_ANY_NAME = DeferredPattern(
    r"\b(?=[a-z])(?:" + "|".join(f"(?P<m{index}>{measure.names.pattern})" for index, measure in enumerate(_MEASURES)) + ")",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=TEXT_CACHE_SIZE)
def measures_in(text: str) -> tuple[tuple[int, int, Measure | None], ...]:
    """Every name of a measure in `text`, in order: (start, end, measure); the measure is None for a name of another
    kind of error ("the median relative error"), which names a quantity, but no share."""
    return tuple(
        (match.start(), match.end(), _named_at(_MEASURES[int(match.lastgroup[1:])], text, match.start(), match.end()))
        for match in _ANY_NAME.finditer(text)
        if match.lastgroup is not None
    )


def measure_named(text: str) -> Measure | None:
    """The one measure of a complementary pair that `text` (a header, a phrase) names, or None."""
    named = {measure.name: measure for _, _, measure in measures_in(text) if measure is not None}
    return next(iter(named.values())) if len(named) == 1 else None


def complement_of(measure: Measure) -> Measure:
    return next(second if first is measure else first for first, second in PAIRS if measure in (first, second))
