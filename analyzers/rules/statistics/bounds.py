"""The values a reported statistic can take, read so that an impossible one is found.

Some numbers are impossible whatever the data: a p-value is a probability that a test never
computes as exactly 0 and that never exceeds 1, a correlation lies in [−1, 1], an R² or η² is a
share of variance (at most 1), a standard deviation, standard error or variance is never negative,
nor is an F or chi-square statistic (a ratio and a sum of squares),
and a Bayes factor is a ratio of likelihoods, not a percentage. One test gives one Bayes factor of
each direction, so a result that states the same one twice with two values ("BF = 0.19, BF > 100")
contradicts itself.

A letter alone often names something else (a rank r = 8, a dropout p = 0, an order p = 2), so each
reader asks for a spelling only a statistic has: a correlation its degrees of freedom, the name of
its coefficient (Pearson's, Spearman's) or the word "correlation" in the clause before it, and not
a whole number; a p-value of 0 the places of a reported p (".000", "0.00") or the words "p-value";
a p above 1 the words "p-value".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.record import record
from ...apa_results import NEGATIVE_STATISTIC, P_VALUE, p_number, read_results
from ...memo import TEXT_CACHE_SIZE
from ...prefilter import may_match
from .model import ZERO_P

_NUMBER = r"(?P<value>[-−–]?\s*(?:\d+(?:\.\d+)?|\.\d+))"
_SHARE_OF_VARIANCE = DeferredPattern(
    r"(?<![\w\\^])(?P<name>R\^?2|R²|[ηω](?:_\w+)?\^?2|[ηω]²)(?:_\w+)?\s*=\s*" + _NUMBER + r"(?!\.?\d)(?!\s*%)"  # "R^2 = 72%": in percent
)
_CORRELATION = DeferredPattern(r"(?<![\w\\^.])(?P<name>r|ρ|r_s|r_\{s\})\s*(?P<df>\(\s*\d[\d,]*\s*\))?\s*=\s*" + _NUMBER)
_NAMES_CORRELATION = DeferredPattern(r"correlat|\bPearson|\bSpearman|\bKendall", re.IGNORECASE)
_SPREAD = DeferredPattern(r"(?<![\w\\^-])(?P<name>SDs?|SEM?|s\.d\.|s\.e\.|std\.?|variance)\s*(?:=|of)\s*" + _NUMBER)
_BAYES_PERCENT = DeferredPattern(r"(?<![\w\\^])(?P<name>BF(?:_\{?\w+\}?)?)\s*[=<>≤≥]\s*" + _NUMBER + r"\s*%")
_P_VALUE_WORDS = DeferredPattern(r"\bp[- ]values?\s*(?:=|of|is|was|were)\s*" + _NUMBER, re.IGNORECASE)
_P_VALUE = DeferredPattern(P_VALUE)
_BAYES_FACTOR = DeferredPattern(r"(?<![\w\\^])(?P<name>BF(?:_\{?\w+\}?)?)\s*(?P<cmp>[=<>≤≥])\s*" + _NUMBER)
_RESULT_GROUP = DeferredPattern(r"\(([^()]*(?:\([^()]*\)[^()]*)*)\)")
_TEST = DeferredPattern(r"(?<![\w\\^])(?:t|F|z|χ\^?2|χ²|r)\s*(?:\([^()]*\))?\s*=")
_CLAUSE = 120  # characters before a correlation in which its name may stand


@record(slots=True)
class ImpossibleValue:
    """A statistic written with a value it cannot take, and why."""

    written: str  # "r(45) = 1.23" as written
    why: str  # "a correlation lies between -1 and 1"
    kind: str  # the evidence class
    start: int
    end: int


def _value(match: re.Match[str]) -> float:
    return float(re.sub(r"\s", "", match.group("value")).replace("−", "-").replace("–", "-"))


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def impossible_values(text: str) -> tuple[ImpossibleValue, ...]:
    """Every statistic of the text written with a value outside its range; cached by text."""
    if not any(sign in text for sign in "=%") and "value" not in text:
        return ()
    found = [*_out_of_range(text), *_zero_p_values(text), *_twice_stated(text)]
    return tuple(sorted(found, key=lambda value: value.start))


_OUT_OF_RANGE = "strong: a value outside the statistic's range"


def _at(match: re.Match[str], why: str, kind: str = _OUT_OF_RANGE) -> ImpossibleValue:
    """The whole match, as written, out of its statistic's range."""
    return ImpossibleValue(" ".join(match.group(0).split()), why, kind, match.start(), match.end())


def _out_of_range(text: str) -> Iterator[ImpossibleValue]:
    for match in _SHARE_OF_VARIANCE.finditer(text):
        if _value(match) > 1:
            yield _at(match, f"{match.group('name')} is a share of variance, at most 1")
    for match in _CORRELATION.finditer(text):
        named = match.group("df") or _NAMES_CORRELATION.search(text, max(0, match.start() - _CLAUSE), match.start())
        if named and "." in match.group("value") and abs(_value(match)) > 1:
            yield _at(match, "a correlation lies between -1 and 1")
    for match in _SPREAD.finditer(text):
        if _value(match) < 0:
            yield _at(match, f"{match.group('name')} is a spread, never negative")
    for match in _BAYES_PERCENT.finditer(text) if "BF" in text and "%" in text else ():
        yield _at(match, "a Bayes factor is a ratio of likelihoods, not a percentage")
    for match in _p_value_words(text):
        if _value(match) > 1:
            yield _at(match, "a p-value is a probability, at most 1")
    for match in NEGATIVE_STATISTIC.finditer(text) if "(" in text else ():
        yield _at(match, f"{match.group('test')} is a ratio or sum of squares, never negative", "strong: a negative F or chi-square")


def _p_value_words(text: str) -> Iterator[re.Match[str]]:
    """ "p-value = …", looked for only where the word "value" stands: the case-blind pattern is slow on a book."""
    return _P_VALUE_WORDS.finditer(text) if may_match(text, ("value",)) else iter(())


def _zero_p_values(text: str) -> Iterator[ImpossibleValue]:
    """A p written as exactly 0, outside a test result (whose p STAT001 recomputes)."""
    results = [(result.start, result.end) for result in read_results(text)]
    for match in _P_VALUE.finditer(text):
        written = match.group("p")
        places = len(written.partition(".")[2])
        if p_number(written) != 0 or match.group("cmp") not in ("=", "<", "≤", "<=") or not (places >= 2 or written.startswith(".")):
            continue
        if not any(start <= match.start() < end for start, end in results):
            yield _at(match, ZERO_P)
    for match in _p_value_words(text):
        if _value(match) == 0:
            yield _at(match, ZERO_P)


def _twice_stated(text: str) -> Iterator[ImpossibleValue]:
    """A Bayes factor stated twice with two values in one test's result (a parenthesis, up to a semicolon)."""
    if "BF" not in text:
        return
    for group in _RESULT_GROUP.finditer(text):
        offset = group.start(1)
        for segment in re.finditer(r"[^;]+", group.group(1)):
            if len(_TEST.findall(segment.group(0))) > 1:
                continue  # two tests in one segment: each may have its own Bayes factor
            seen: dict[str, str] = {}
            last_end = 0
            for match in _BAYES_FACTOR.finditer(segment.group(0)):
                stated = f"{match.group('cmp')} {match.group('value')}"
                name = match.group("name")
                # Only side by side: "prior A: BF = 3.5, prior B: BF = 1.3" is a sensitivity analysis, not a slip.
                adjacent = not segment.group(0)[last_end : match.start()].strip(" ,")
                last_end = match.end()
                if name in seen and seen[name] != stated and adjacent:
                    start = offset + segment.start() + match.start()
                    why = f"one test gives one {name}, but the result also states {name} {seen[name]}"
                    yield ImpossibleValue(
                        " ".join(match.group(0).split()),
                        why,
                        "moderate: one result states a statistic twice",
                        start,
                        start + len(match.group(0)),
                    )
                seen.setdefault(name, stated)
