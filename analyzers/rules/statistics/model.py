"""The statistics family's reading of what a results sentence states besides a test: the intervals
it gives an estimate, and the words it uses of a result's significance.

Both read a block's plain text (apa_results.py reads the tests themselves).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock
from ....latex.model import BlockKind
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...apa_results import P_VALUE, decimals, p_number
from ...memo import SECTION_CACHE_SIZE, TEXT_CACHE_SIZE, SectionKey
from ...quantities import TableAt, without_refs

# A number as the plain text writes it: a sign, thousands separators, or an infinite bound.
_NUMBER = r"(?:[-−–]\s?)?(?:\d{1,3}(?:,\d{3})+(?![\d,])(?:\.\d+)?|\d+(?:\.\d*)?|\.\d+|∞|\\infty|[Ii]nf(?:inity)?)"
# An interval's two bounds and what separates them: "0.10, 0.52", "0.10 to 0.52", "0.10–0.52" (a percent each may keep).
BOUNDS = rf"(?P<low>{_NUMBER})\s*%?\s*(?:,|;|to|––?|—|--?)\s*(?P<high>{_NUMBER})\s*%?"
_INTERVAL_NAME = (
    r"(?:(?P<level>\d{2}(?:\.\d+)?)\s*%\s*)?"
    r"(?P<name>CIs?|C\.I\.|CrI|HDI|HPDI?|(?:confidence|credible|credibility|compatibility|uncertainty) intervals?)"
)
# "95% CI [0.10, 0.52]", "95% CI: 0.10 to 0.52", "(95% CrI 0.1–0.5)", "95% CI = [−∞, 0.3]".
_INTERVAL = DeferredPattern(rf"(?<![\w]){_INTERVAL_NAME}\s*(?:[:=,]\s*)?(?P<open>[\[(])?\s*{BOUNDS}\s*(?P<close>[\])])?")
# A unit written between an estimate and its interval.
_UNIT = r"(?:[kmμµ]?g|[cmk]?m|m?s|sec|min|h|hrs?|days?|weeks?|months?|years?|pp|points?|bpm|mmHg|m?L|ml|dB|Hz)\b"
# The estimate an interval follows, adjacent to it: "OR = 1.23, 95% CI", "0.45 (95% CI", "HR 0.8; 95% CI",
# "−0.43 kg [95% CI" (a unit between them).
_ESTIMATE = DeferredPattern(
    rf"(?:(?P<symbol>[A-Za-zα-ωΑ-Ω][\w'’^{{}}-]{{0,12}})\s*(?P<sign>=|:)?\s*)?(?P<value>{_NUMBER})\s*(?P<percent>%)?\s*(?:{_UNIT}\s*)?[,;(\[]?\s*$"
)
# A number after a sign or a bracket that the symbol before it did not explain: "t(103) = -2.60", "p < .001".
_UNNAMED_AFTER = DeferredPattern(r"[=<>≤≥)\]]\s*$")
# What stands next to a number without being the estimate an interval bounds.
_NOT_ESTIMATES = frozenset("n N SD SE SEM s df p P t F z Z k K I I2 I^2 τ tau χ r2 R2 R^2 age".split())
# An estimate and an interval on two scales: a log ratio against the ratio's bounds, and so on.
_ANOTHER_SCALE = DeferredPattern(r"\blog|\bln\b|\bexp\b|\bexponentiated|\blogit|\bback-?transformed", re.I)


@record(slots=True)
class ReportedInterval:
    """An interval as written, with the estimate written right before it (None: none adjacent)."""

    low: float
    high: float
    low_text: str
    high_text: str
    start: int  # the interval, from its name ("95% CI") to its closing bracket
    end: int
    estimate: float | None
    estimate_text: str
    estimate_start: int
    percent_mismatch: bool  # "45% (95% CI 0.40–0.50)": the estimate in percent, the bounds as fractions
    in_percent: bool  # the estimate is written in percent

    @property
    def reversed(self) -> bool:
        return self.low > self.high

    @property
    def excludes_estimate(self) -> bool:
        """The estimate lies outside the interval by more than the rounding of the numbers."""
        if self.estimate is None or self.percent_mismatch:
            return False
        low, high = sorted((self.low, self.high))
        slack = 0.5 * 10 ** -decimals(self.estimate_text) + 0.5 * 10 ** -min(decimals(self.low_text), decimals(self.high_text))
        return bool(self.estimate < low - slack or self.estimate > high + slack)

    @property
    def written(self) -> str:
        return f"[{self.low_text}, {self.high_text}]"

    def holds(self, value: float) -> bool | None:
        """Whether the interval contains the value (True) or excludes it (False) beyond the rounding
        of its bounds; None where a bound may be the value."""
        low, high = sorted((self.low, self.high))
        slack = 0.5 * 10 ** -min(decimals(self.low_text), decimals(self.high_text))
        if low > value + slack or high < value - slack:
            return False
        if low < value - slack and high > value + slack:
            return True
        return None


def interval_number(text: str) -> float:
    """A bound or estimate as written: "−0.5", "1,234.5", "∞", "-\\infty"."""
    compact = re.sub(r"[\s,]", "", text).replace("−", "-").replace("–", "-")
    sign = -1.0 if compact.startswith("-") else 1.0
    magnitude = compact.lstrip("-")
    if magnitude in ("∞", "\\infty") or magnitude.lower().startswith("inf"):
        return sign * math.inf
    return sign * float(magnitude)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def read_intervals(text: str) -> tuple[ReportedInterval, ...]:
    """Every labelled interval of a block's plain text, with the estimate adjacent to it."""
    if "CI" not in text and "interval" not in text and "CrI" not in text and "HDI" not in text and "HPD" not in text:
        return ()
    found = []
    for match in _INTERVAL.finditer(text):
        if _glued(text, match):
            continue
        low_text, high_text = match.group("low"), match.group("high")
        estimate, estimate_text, estimate_start, mismatch, in_percent = None, "", match.start(), False, False
        before = text[max(0, match.start() - 60) : match.start()]
        adjacent = _ESTIMATE.search(before)
        if adjacent and _names_an_estimate(before, adjacent) and not _ANOTHER_SCALE.search(before[-40:]):
            estimate_text = adjacent.group("value")
            estimate = interval_number(estimate_text)
            estimate_start = match.start() - len(before) + adjacent.start("value")
            bounds_percent = "%" in match.group(0)[match.start("low") - match.start() :]
            in_percent = bool(adjacent.group("percent"))
            mismatch = in_percent != bounds_percent
        found.append(
            ReportedInterval(
                interval_number(low_text),
                interval_number(high_text),
                low_text.strip(),
                high_text.strip(),
                match.start(),
                match.end(),
                estimate,
                estimate_text,
                estimate_start,
                mismatch,
                in_percent,
            )
        )
    return tuple(found)


def _names_an_estimate(before: str, adjacent: re.Match[str]) -> bool:
    """The number before an interval is an estimate: named by a symbol that is no sample size, SD or
    test statistic ("OR = 1.23"), or standing in words ("a gain of 0.45")."""
    symbol = adjacent.group("symbol")
    if symbol is not None:
        return symbol not in _NOT_ESTIMATES
    return _UNNAMED_AFTER.search(before[: adjacent.start("value")]) is None


def _glued(text: str, match: re.Match[str]) -> bool:
    """The bounds continue into more digits or a range ("1.2-3.4-5.6"): not an interval the pattern read whole."""
    return bool(re.match(r"[\d.]|\s*[-–—]\s*\d", text[match.end() : match.end() + 3])) and not match.group("close")


# What a sentence says of an interval and a null value: "the CrI contains 0", "the CI does not include one".
_NULL_CLAIM = DeferredPattern(
    r"\b(?P<negation>(?:does|do|did)\s+not\s+|doesn['’]t\s+|don['’]t\s+|not\s+)?"
    r"(?P<verb>contain|includ|overlap|span|cross|straddl|exclud)\w*\s+(?:the\s+)?(?:value\s+(?:of\s+)?)?(?P<value>zero|0|one|1)(?![\w.,]\d|\.\d)",
    re.I,
)
_INTERVAL_WORD = DeferredPattern(r"\b(?:CIs?|CrIs?|HDIs?|HPDI?s?|intervals?|bounds?)\b", re.I)


@record(slots=True)
class NullClaim:
    """A sentence's word on whether an interval holds a null value, with the interval it speaks of."""

    says_contains: bool
    value: float
    start: int  # the claim's words, in the block's plain text
    end: int
    interval: ReportedInterval

    @property
    def contradicted(self) -> bool:
        """The interval holds the value when the sentence says it does not, or the other way, beyond the rounding of its bounds."""
        return self.interval.holds(self.value) is (not self.says_contains)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def read_null_claims(text: str, sentences: tuple[tuple[int, int], ...]) -> tuple[NullClaim, ...]:
    """Each claim that an interval contains or excludes zero (or one), with the one interval of its
    sentence; a sentence with several intervals, or whose claim names no interval, says nothing sure."""
    intervals = read_intervals(text)
    claims = []
    for match in _NULL_CLAIM.finditer(text) if intervals else ():
        if not _INTERVAL_WORD.search(text, max(0, match.start() - 40), match.start()):
            continue
        sentence = next(((start, end) for start, end in sentences if start <= match.start() < end), None)
        inside = [interval for interval in intervals if sentence and sentence[0] <= interval.start < sentence[1]]
        if len(inside) != 1:
            continue
        excludes = match.group("verb").lower() == "exclud"
        says_contains = excludes == bool(match.group("negation"))
        value = 0.0 if match.group("value").lower() in ("zero", "0") else 1.0
        claims.append(NullClaim(says_contains, value, match.start(), match.end(), inside[0]))
    return tuple(claims)


# Significance words, and how they are negated or hedged.
_SIGNIFICANT = DeferredPattern(r"\b(?P<word>(?:statistically\s+)?(?:non-?|in)?significant(?:ly)?|significance)\b", re.I)
# Words that say the same of a result: "reliably higher", "no credible effect"; "did not differ" and
# "no difference" claim only when negated ("the difference was 3 ms" claims nothing).
_SYNONYM = DeferredPattern(r"\b(?P<word>(?:un)?reliabl[ey]|credibl[ey](?!\s+intervals?)|differ(?:ed|s)?|differences?)\b", re.I)
_NEGATED_ONLY = DeferredPattern(r"differ", re.I)
_NEGATED = DeferredPattern(
    r"\b(?:no|not|nor|without|never|neither|none|lack(?:ed|s|ing)?|fail(?:ed|s)?\s+to\s+(?:reach|be|show|attain)|did\s+not|does\s+not|do\s+not|"
    r"was\s+not|were\s+not|is\s+not|are\s+not|n['’]t)\b[\w\s-]{0,25}$",
    re.I,
)
_HEDGED = DeferredPattern(
    r"\b(?:marginal(?:ly)?|borderline|approach(?:ed|es|ing)?|trend(?:ed|ing)?|near(?:ly)?|weak(?:ly)?|almost|tendency|suggestive)\b[\w\s-]{0,25}$",
    re.I,
)
# What ends the clause a significance word governs: another result begins.
_CLAUSE_END = DeferredPattern(r";|\.\s|\b(?:while|whereas|but|although|though|however|except|unlike|compared\s+(?:to|with))\b", re.I)
# A level stated with the word: "at the .10 level", "at α = 0.01", "at the 10% level", "p < 0.1".
_STATED_LEVEL = DeferredPattern(
    r"(?:α|alpha|level\s+of|at(?:\s+the)?)\s*(?:=|of)?\s*(?P<level>0?\.\d+|\d{1,2}\s?%)(?:\s+level)?|(?P<percent>\d{1,2})\s?%\s+(?:significance\s+)?level",
    re.I,
)
# A significance tested against a corrected threshold: the raw p does not decide it.
_CORRECTED = DeferredPattern(r"bonferroni|holm|correct(?:ed|ion)|adjust(?:ed|ment)|FDR|false discovery|multiple comparisons|q\s*[<=]", re.I)
# "p = .03", and the "P-value < 0.13" of papers that spell the name out.
_P = DeferredPattern(P_VALUE.replace("[pP]", r"[pP](?:[-\s]?values?)?", 1))
_COMPARISON_SIGNS = "<>=≤≥⩽⩾"  # one of them stands in every p-value _P reads
# A p-value the sentence sets as a threshold ("significant at p < .05", "set at p < .05"): not a result.
_THRESHOLD = DeferredPattern(
    r"\b(?:set|defined|considered|deemed|threshold|criterion|cut-?off|unless|if|when|whenever|accepted|assumed|at|level|of)[\s:]*$", re.I
)
_REACH = 120  # characters from a significance word to the p-value it governs
# "p < 10^{-9}" in a plain text that keeps the power: the p-value is not the 10 the pattern reads.
_POWER = DeferredPattern(r"\s*\^")
# ... or twice as far, when the p-value closes the sentence in parentheses: "… higher than … (p < .13)."
_CLOSES_SENTENCE = DeferredPattern(r"\s*[)\]]\s*(?:\.|$)")


@record(slots=True)
class SignificanceClaim:
    """A significance word and the p-value it governs in the same clause."""

    says_significant: bool  # "significantly higher" (True) or "no significant difference" (False)
    word: str  # as written, with its negation: "no significant"
    word_start: int
    p_text: str  # "p = 0.046"
    comparison: str
    p: float
    p_start: int
    p_end: int
    level: float | None  # the significance level the sentence states, if it does
    corrected: bool  # the paragraph speaks of a correction for multiple comparisons
    synonym: bool = False  # "no reliable difference", "did not differ": a word other than "significant"


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def read_significance_claims(text: str) -> tuple[SignificanceClaim, ...]:
    """Each significance word of a block's plain text with the first p-value after it in its clause,
    unless another significance word comes between (that one governs the p); hedged words
    ("marginally significant", "a trend towards significance") claim nothing."""
    if "ignifican" not in text or ("p" not in text and "P" not in text):
        return ()
    return _claims(text, list(_SIGNIFICANT.finditer(text)), synonym=False)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def read_synonym_claims(text: str) -> tuple[SignificanceClaim, ...]:
    """The same for the words that stand for significance where a sentence avoids the word: "no
    reliable difference (p = .03)", "did not differ (p = .01)". A synonym next to a significance
    word ("no significant difference") is that word's claim, read by read_significance_claims."""
    # The cheap tests first: a claim needs a p-value, so a p and a comparison, and most blocks hold no synonym.
    if ("p" not in text and "P" not in text) or not any(sign in text for sign in _COMPARISON_SIGNS) or not _SYNONYM.search(text):
        return ()
    return _claims(text, _synonym_words(text), synonym=True)


# The blocks whose words claim a result: prose, notes and captions.
CLAIMING = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM)


@lru_cache(maxsize=2 * SECTION_CACHE_SIZE)  # two readers ask: STAT007's words and STAT016's comparatives
def section_claims(
    key: SectionKey, read: Callable[[str], tuple[SignificanceClaim, ...]]
) -> tuple[tuple[PlacedBlock, SignificanceClaim], ...]:
    """The claims `read` finds in a section's prose: walked once per Section the manuscript hands on."""
    return tuple((placed, claim) for placed in key.section.blocks if placed.kind in CLAIMING for claim in read(placed.block.plain.text))


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def read_worded_claims(text: str) -> tuple[SignificanceClaim, ...]:
    """The significance words of a text and the words that stand for them, each with the p-value it governs."""
    return (*read_significance_claims(text), *read_synonym_claims(text))


# Words that put one side ahead of the other: "performs better than", "higher than", "outperforms".
_COMPARATIVE = DeferredPattern(r"\b(?P<word>better|worse|higher|lower|greater|larger|smaller|outperform(?:s|ed)?|exceed(?:s|ed)?)\b", re.I)
# Words that give a difference as the sample's alone, or as a hypothesis: "numerically higher", "predicted to be better".
_UNCLAIMED = DeferredPattern(
    r"\b(?:numerical(?:ly)?|descriptive(?:ly)?|nominal(?:ly)?|slight(?:ly)?|somewhat|tend(?:s|ed|ency)?|trend|"
    r"(?:predict|expect)(?:s|ed)?\s+(?:that|to)|hypothes[ie]s|hypothesi[sz]ed|whether|if|marginal(?:ly)?|borderline|suggestive)\b",
    re.I,
)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def read_comparative_claims(text: str) -> tuple[SignificanceClaim, ...]:
    """Each comparative ("performs better than", "outperforms") with the first p-value after it in its clause, in
    a sentence that says nothing of significance: the comparative then claims the difference the p-value tests. A
    sentence with a significance word or a synonym of one is read_significance_claims's, and one that gives the
    difference as the sample's alone ("numerically higher") or as a hypothesis claims nothing, and so does a p-value
    given as a bound ("p > 0.5" defines a threshold as often as it reports a test)."""
    if ("p" not in text and "P" not in text) or not any(sign in text for sign in _COMPARISON_SIGNS):
        return ()
    words = [word for word in _COMPARATIVE.finditer(text) if not _speaks_of_significance(text, word.start())]
    return tuple(claim for claim in _claims(text, words, synonym=False) if claim.says_significant and claim.comparison == "=")


def _speaks_of_significance(text: str, at: int) -> bool:
    """Whether the sentence holding `at` names significance or a synonym, or gives its differences as unclaimed."""
    start, end = next(((start, end) for start, end in sentence_spans(text) if start <= at < end), (0, len(text)))
    sentence = without_refs(text[start:end])  # a referenced label's words ("tab:significance") say nothing
    return any(pattern.search(sentence) for pattern in (_SIGNIFICANT, _SYNONYM, _UNCLAIMED))


def _synonym_words(text: str) -> list[re.Match[str]]:
    """The synonyms of significance that claim on their own: not beside the word itself, and "differ" only negated."""
    return [
        word
        for word in _SYNONYM.finditer(text)
        if not _SIGNIFICANT.search(text, max(0, word.start() - 30), min(len(text), word.end() + 30))
        and (not _NEGATED_ONLY.match(word.group("word")) or _NEGATED.search(text[max(0, word.start() - 40) : word.start()]))
    ]


# An interval that tests at .05: labelled 95%, or with no level (95% is the default one).
_AT_95 = DeferredPattern(r"(?:95(?:\.0+)?\s*%|[^\d])")
# An effect's symbol before its estimate: "b = ", "β = ", "d = ", "Cohen's d = ", "Δ = ", "r = ".
_EFFECT = DeferredPattern(
    r"(?:(?<![\w\\])(?:[bBdgrβρΔ]|Cohen['’]s\s+d|Hedges['’]?\s+g)(?:_\{?\w+\}?)?|\b(?:difference|effect))\s*[=:]?\s*$"
)
# A test against another value than 0 or 1: "not different from chance", "differ from 0.5", "than the baseline".
_OTHER_NULL = DeferredPattern(
    r"\bchance\b|\bbaseline\b|\b(?:from|than)\s+(?:the\s+)?(?:value\s+(?:of\s+)?)?[-−]?(?:0?\.\d*[1-9]|[1-9])", re.I
)
# An interval of a ratio, whose null value is 1: named so before the interval.
_RATIO = DeferredPattern(r"\b(?:a?OR|a?HR|RR|IRR)\b|\b(?i:odds|hazard|ratios?)\b")


@record(slots=True)
class IntervalSignificance:
    """A significance word whose clause gives an interval in place of a p-value."""

    says_significant: bool
    word: str  # as written, with its negation: "not statistically significant"
    word_start: int
    interval: ReportedInterval
    null: float | None  # the value the word's test rejects or not; None where the interval may be of a level
    synonym: bool

    @property
    def contradicted(self) -> bool:
        """The interval holds the null value where the word says significant, or excludes it where the word says not."""
        return self.null is not None and self.interval.holds(self.null) is self.says_significant


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def read_interval_significance(text: str) -> tuple[IntervalSignificance, ...]:
    """Each significance word (or its synonym) with the first interval in its clause, where the clause
    gives no p-value (the p is what STAT007 reads); hedged words claim nothing."""
    if "ignifican" not in text and not _SYNONYM.search(text):
        return ()
    intervals = read_intervals(text)
    claims = []
    for words, synonym in ((list(_SIGNIFICANT.finditer(text)), False), (_synonym_words(text), True)) if intervals else ():
        for index, word in enumerate(words):
            end = min(_clause_end(text, words, index), word.end() + _REACH)
            interval = next((interval for interval in intervals if word.end() <= interval.start < end), None)
            if interval is None or _P.search(text, word.end(), max(end, interval.end)) or not _AT_95.match(text, interval.start):
                continue
            said = _said(text, word, interval.start)
            if said is not None and not _OTHER_NULL.search(text, word.end(), interval.start):
                claims.append(IntervalSignificance(*said, interval, _null(text, word.end(), interval), synonym))
    return tuple(claims)


def _null(text: str, start: int, interval: ReportedInterval) -> float | None:
    """The null value of the interval a clause cites from `start`: 0 for a signed quantity (a bound at or
    below 0) or an effect's symbol, 1 for a named ratio; None for an interval of a level (an accuracy, a mean)."""
    if min(interval.low, interval.high) <= 0:
        return 0.0
    before = text[max(start, interval.start - 80) : interval.start]
    if _RATIO.search(before):
        return 1.0
    return 0.0 if _EFFECT.search(text, max(start, interval.estimate_start - 20), interval.estimate_start) else None


def _claims(text: str, words: list[re.Match[str]], synonym: bool) -> tuple[SignificanceClaim, ...]:
    corrected = _CORRECTED.search(text) is not None
    claims = []
    for index, word in enumerate(words):
        p_match = _P.search(text, word.end(), _clause_end(text, words, index))
        if p_match is None or _THRESHOLD.search(text[word.end() : p_match.start()]) or _POWER.match(text, p_match.end()):
            continue
        if p_match.start() > word.end() + _REACH and not _CLOSES_SENTENCE.match(text, p_match.end()):
            continue  # a p-value this far from the word reports the word's test only in the parenthesis that ends its sentence
        said = _said(text, word, p_match.start())
        p = p_number(p_match.group("p"))
        if said is None or p is None:
            continue
        stated = _STATED_LEVEL.search(text, max(0, word.start() - 60), min(len(text), p_match.end() + 40))
        claims.append(
            SignificanceClaim(
                said[0],
                said[1],
                said[2],
                p_match.group(0),
                p_match.group("cmp"),
                p,
                p_match.start(),
                p_match.end(),
                _level(stated) if stated else None,
                corrected,
                synonym,
            )
        )
    return tuple(claims)


def _clause_end(text: str, words: list[re.Match[str]], index: int) -> int:
    """Where the clause of the index-th significance word ends: at the next word, a clause break, or past the reach."""
    word = words[index]
    limit = min(len(text), word.end() + 2 * _REACH, words[index + 1].start() if index + 1 < len(words) else len(text))
    clause_end = _CLAUSE_END.search(text, word.end(), limit)
    return clause_end.start() if clause_end else limit


def _said(text: str, word: re.Match[str], until: int) -> tuple[bool, str, int] | None:
    """What a significance word says up to the number it governs at `until`: significant or not, the
    words as written with their negation, and where they start; None for a hedged word ("marginally")."""
    before = text[max(0, word.start() - 40) : word.start()]
    if _HEDGED.search(before) or re.search(r"\b(?:marginal|trend|borderline)", text[word.end() : until], re.I):
        return None
    negation = _NEGATED.search(before)
    negative = word.group("word").lower().startswith(("non", "in", "unreliab")) or negation is not None
    written = (before[negation.start() :].strip() + " " if negation else "") + word.group("word")
    return not negative, " ".join(written.split()), word.start() - (len(before) - negation.start() if negation else 0)


def stated_level(text: str) -> float | None:
    """The significance level a text states ("at the .10 level", "α = 0.01"), if it states one."""
    match = _STATED_LEVEL.search(text)
    return _level(match) if match else None


def _level(match: re.Match[str]) -> float:
    written = match.group("level") or match.group("percent")
    return float(written.rstrip("% ")) / 100 if "%" in match.group(0) or match.group("percent") else float(written)


ZERO_P = "a test never gives p = 0; report p < .001"


def apa_p(p: float) -> str:
    """A computed p as APA reports it: "p = .036", "p < .001"."""
    return f"p = {p:.3f}".replace("0.", ".") if p >= 0.001 else "p < .001"


# Correlation tables: stars against the r and N the table states.

# A stars legend: "* p < .05, ** p < .01, *** p < .001" (also "*p<0.05" and "p ≤ .05").
_LEGEND = DeferredPattern(
    r"(?<!\*)(?P<stars>\*{1,3})\s*(?:\^?\s*)?(?:[pP](?:[-\s]?values?)?\s*[<≤]\s*(?P<level>0?\.\d+)|"
    r"(?:statistically\s+)?significant\s+at\s+(?:the\s+)?(?P<percent>\d{1,2}(?:\.\d)?)\s?%)"
)
# The econometrics legend in one sentence: "*, ** and *** denote significance at the 10%, 5% and 1% levels".
_LEGEND_SENTENCE = DeferredPattern(
    r"(?<!\*)\*\s*,\s*\*\*\s*,?\s*(?:and\s+)?\*\*\*\s+(?:denote|indicate|represent|mark)\w*\s+(?:statistical\s+)?significance\s+"
    r"(?:levels?\s+)?(?:at\s+)?(?:the\s+)?(?P<one>\d{1,2})\s?%\s*,\s*(?P<two>\d{1,2})\s?%\s*,?\s*(?:and\s+)?(?P<three>\d{1,2})\s?%",
    re.IGNORECASE,
)
# "N = 120" once in a caption or note; pairwise deletion makes the N of each r another.
_SAMPLE = DeferredPattern(r"(?<![\w\\])[Nn]\s*=\s*(?P<n>\d{1,3}(?:,\d{3})+|\d+)(?![\d.,]\d)")
_PAIRWISE = DeferredPattern(
    r"pairwise|range[sd]?\b|varies|varied|between\s+\d+\s+and\s+\d+|from\s+\d+\s+to\s+\d+|ns?\s*=\s*\d+\s*[-–]", re.I
)
_CORRELATION = DeferredPattern(r"correlat|\bPearson|\bSpearman|inter-?correlation|\bzero-order", re.I)


@dataclass(frozen=True, slots=True, eq=False)
class StarredTable(TableAt):
    """A table, with the stars its legend defines: ((1, .05), (2, .01)), () when it defines none."""

    legend: tuple[tuple[int, float], ...] = ()


def star_legend(text: str) -> dict[int, float]:
    """The stars a table's legend defines, by their count: {1: .05, 2: .01, 3: .001}; {} when it defines none,
    or defines them inconsistently (more stars for a larger p)."""
    legend = {len(match.group("stars")): _legend_level(match) for match in _LEGEND.finditer(text)}
    for match in _LEGEND_SENTENCE.finditer(text):
        legend.update({count: float(match.group(name)) / 100 for count, name in ((1, "one"), (2, "two"), (3, "three"))})
    levels = [legend[count] for count in sorted(legend)]
    return legend if levels and all(a > b for a, b in pairwise(levels)) else {}


def _legend_level(match: re.Match[str]) -> float:
    return float(match.group("level")) if match.group("level") else float(match.group("percent")) / 100


def stated_sample(text: str) -> int | None:
    """The one N a correlation table states for every r; None when it states none, several, or a range."""
    if _PAIRWISE.search(text):
        return None
    sizes = {int(match.group("n").replace(",", "")) for match in _SAMPLE.finditer(text)}
    return sizes.pop() if len(sizes) == 1 else None


def is_correlation_table(caption: str) -> bool:
    return _CORRELATION.search(caption) is not None


def correlation_p(r: float, n: int) -> float:
    """The two-tailed p of a Pearson r over n pairs (t with n − 2 degrees of freedom)."""
    from scipy import special

    if abs(r) >= 1:
        return 0.0
    df = n - 2
    return 2 * float(special.stdtr(df, -abs(r) * math.sqrt(df / (1 - r * r))))


def possible_stars(r: float, decimals_written: int, n: int, legend: dict[int, float]) -> range:
    """The star counts an r written with these decimals may earn, whatever its rounding (more |r|, more stars)."""
    half = 0.5 * 10**-decimals_written
    fewest, most = (
        sum(1 for level in legend.values() if correlation_p(magnitude, n) < level) for magnitude in (abs(r) - half, abs(r) + half)
    )
    return range(fewest, most + 1)
