"""The statistics family's reading of a study's sample: the units it recruits and excludes, as its prose states
them, and the numbers of units a test's degrees of freedom give (STAT018 compares the two)."""

from __future__ import annotations

import re
from enum import Enum
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.record import record
from ...apa_results import ReportedResult
from ...memo import TEXT_CACHE_SIZE

# What a study counts as its units: people, and the couples or households a survey samples.
_UNIT = (
    r"(?:participants|respondents|subjects|adults|individuals|people|persons|students|undergraduates|children|infants|patients|"
    r"volunteers|workers|(?:MTurk|Prolific)\s+workers|advis[eo]rs|advisees|users|employees|consumers|voters|teachers|parents|"
    r"couples|dyads|households)\b"
)
# Counts a sentence spells out: "Seven participants were excluded".
_SPELLED = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
_COUNT = rf"(?:\d{{1,3}}(?:,\d{{3}})+|\d{{1,6}}|(?:{'|'.join(_SPELLED)})\b)(?![\d.,]\d|\s*%)"
# The count of a phrase the patterns below read: its first number, written or spelled out.
_FIRST_NUMBER = DeferredPattern(rf"\d{{1,3}}(?:,\d{{3}})+|\d+|\b(?:{'|'.join(_SPELLED)})\b", re.I)
_AFTER_VERB, _BEFORE_VERB = _COUNT, rf"(?<![\w.,]){_COUNT}"  # "recruit 472 participants", "301 students took part"
# "472 adult US participants", "91 (mean age = 25.1 years, 44 women) participants".
_SOME_WORDS = r"(?:\([^()]{1,60}\)\s+)?(?:[\w-]+\s+){0,2}?"
# "we recruit 472 participants", "recruited a sample of 1,000 adults", "301 students took part".
_RECRUITED = DeferredPattern(
    rf"\b(?:recruit\w*|enrol(?:l?ed)?|sampled|surveyed)\s+(?:(?:a\s+)?(?:total|sample)\s+of\s+)?{_AFTER_VERB}\s+{_SOME_WORDS}{_UNIT}"
    rf"|{_BEFORE_VERB}\s+{_SOME_WORDS}{_UNIT}\s+(?:were\s+recruited|took\s+part|participated|completed\s+the\s+(?:study|survey|experiment))",
    re.I,
)
# "we remove 115 participants who failed", "excluded the data of 12 respondents", "58 participants were excluded".
_EXCLUDED = DeferredPattern(
    rf"\b(?:remov|exclud|drop|discard|eliminat)\w*\s+(?:the\s+(?:data|responses)\s+(?:of|from)\s+)?(?:an?\s+(?:additional|further)\s+)?{_AFTER_VERB}\s+{_SOME_WORDS}{_UNIT}"
    rf"|{_BEFORE_VERB}\s+{_SOME_WORDS}{_UNIT}\s+(?:[^.;]{{0,80}}?\s)?(?:were|was)\s+(?:\w+\s+)?(?:removed|excluded|dropped|discarded|eliminated)",
    re.I,
)
# What keeps an exclusion from shrinking the study's sample: it is from one analysis ("from the eye-tracking
# analyses"), or the excluded units were replaced.
_NOT_STUDY_WIDE = DeferredPattern(
    r"[^.;]{0,80}?(?:\b(?:from|in|for)\s+(?:the\s+|this\s+|these\s+|our\s+|some\s+|certain\s+)?(?:[\w-]+\s+){0,3}analys[ie]s\b|\breplac)",
    re.I,
)
# "leaving 357 participants", "the final sample comprised 357 adults", "(final n = 160)", "357 participants remained".
_LEFT = DeferredPattern(
    rf"\bfinal\s+sample(?:\s+size)?\s+(?:of|was|is|comprised|consisted\s+of|included)\s+(?:\w+\s+)?{_AFTER_VERB}"
    rf"|\bfinal\s+[Nn]\s*=\s*{_AFTER_VERB}"
    rf"|\b(?:leaving|left\s+with|resulting\s+in)\s+(?:a\s+(?:final\s+)?sample\s+of\s+)?{_AFTER_VERB}\s+{_SOME_WORDS}{_UNIT}"
    rf"|{_BEFORE_VERB}\s+{_SOME_WORDS}{_UNIT}\s+remained",
    re.I,
)
# Words one of which every sentence the patterns read holds: a block without any is not read.
_SAMPLE_WORDS = (
    *"recruit enrol sampled surveyed participated completed remov exclud drop discard eliminat final leav left remain".split(),
    "took part",
)
# A unit ("participants") or "final" ("final n = 160"): every phrase the patterns read holds one.
_UNIT_OR_FINAL = DeferredPattern(r"\b(?:" + _UNIT + r"|final\b)", re.I)
# A heading that starts a study of its own: what it recruits and excludes is that study's sample.
STUDY_HEADING = DeferredPattern(r"^\s*(?:(?:pilot|main|follow-up)\s+)?(?:study|experiment|exp\.)\s*\d+[a-z]?\b", re.I)
# The N a chi-square gives in its parentheses: "χ²(1, n = 201)".
_CHI_SQUARE_N = DeferredPattern(r",\s*[Nn]\s*=\s*(\d[\d,]*)\s*\)")


class SampleRole(Enum):
    RECRUITED = "recruited"
    EXCLUDED = "excluded"  # from the units recruited
    LEFT = "left"  # for the analysis, after the exclusions


@record(slots=True)
class SampleCount:
    """A count of a study's units as a sentence states it: recruited, excluded, or left for the analysis."""

    count: int
    role: SampleRole
    start: int  # the phrase, in the block's plain text
    end: int


_READ = ((_RECRUITED, SampleRole.RECRUITED), (_EXCLUDED, SampleRole.EXCLUDED), (_LEFT, SampleRole.LEFT))


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def read_sample_counts(text: str) -> tuple[SampleCount, ...]:
    """The units a block's plain text says a study recruited ("we recruit 472 participants"), excluded ("we remove
    115 participants who failed") and kept ("leaving 357"), in the order it states them."""
    lowered = text.lower()
    if not any(word in lowered for word in _SAMPLE_WORDS) or not _UNIT_OR_FINAL.search(text):
        return ()
    found = [
        (match, role)
        for pattern, role in _READ
        for match in pattern.finditer(text)
        if role is not SampleRole.EXCLUDED or not _NOT_STUDY_WIDE.match(text, match.end())
    ]
    counts = (SampleCount(_count(match.group()), role, match.start(), match.end()) for match, role in found)
    return tuple(sorted(counts, key=lambda count: count.start))


def _count(phrase: str) -> int:
    number = _FIRST_NUMBER.search(phrase)
    if number is None:
        return 0
    written = number.group().lower()
    return _SPELLED.index(written) + 1 if written in _SPELLED else int(written.replace(",", ""))


def sizes_of_test(result: ReportedResult) -> frozenset[int]:
    """The numbers of units a test's degrees of freedom give: t(df) one sample or paired (df + 1) or two groups (df + 2),
    r(df) df + 2 pairs, F(k, d) one-way or a regression with k predictors (d + k + 1) or one factor repeated over k + 1
    levels (d / k + 1), a chi-square its stated N. Welch's fractional df only bound the sample: no size."""
    if result.test == "χ²":
        stated = _CHI_SQUARE_N.search(result.statistic)
        return frozenset({int(stated.group(1).replace(",", ""))}) if stated else frozenset()
    if result.df1 is None or not result.df1.is_integer() or (result.df2 is not None and not result.df2.is_integer()):
        return frozenset()
    df = int(result.df1)
    if result.test == "t":
        return frozenset({df + 1, df + 2})
    if result.test == "r":
        return frozenset({df + 2})
    if result.test == "F" and result.df2 is not None:
        within = {int(result.df2) // df + 1} if int(result.df2) % df == 0 else set()
        return frozenset({int(result.df2) + df + 1, *within})
    return frozenset()
