"""STAT: reported statistics that contradict themselves (statcheck and GRIM style).

scipy's distribution functions are imported only when a paper reports a test
statistic, so papers without any (most of machine learning) pay nothing for them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from ...latex.manuscript import PlacedBlock, Section
from ...latex.model import BlockKind
from ...latex.numbers import NumberMention, find_numbers
from ...latex.sentences import sentence_spans
from ..context import TEXT_CACHE_SIZE, RuleContext
from ..finding import Category, Finding, Severity
from ..registry import Scope, rule

ALPHA = 0.05
_PROSE = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION)
# The blocks whose numbers the index collects: prose and theorem statements.
_NUMBERED = (*_PROSE, BlockKind.THEOREM)
_NUMBER = r"[-−–]?\s?(?:\d+(?:\.\d*)?|\.\d+)"
_P_VALUE = (
    r"(?<![\w.])p\s*(?P<cmp><=|>=|[<>=≤≥⩽⩾])\s*(?P<p>(?:\d*\.\d+|\d+)(?:\s*(?:[×x·]|\\times|\\cdot)\s*10\^\{?[-−]\d+\}?|[eE][-−]\d+)?)"
)
_STATISTIC = re.compile(
    r"(?<![\w^\\])(?P<test>t|F|r|z|Z|χ\s*\^?\s*2|χ²|chi\s*\^?\s*2|X\^2)\s*"
    r"(?:\(\s*(?P<df1>\d+(?:\.\d+)?)\s*(?:,\s*(?P<df2>\d+(?:\.\d+)?))?\s*(?:,\s*[Nn]\s*=\s*\d+)?\s*\)\s*)?"
    rf"=\s*(?P<value>{_NUMBER})"
    # one effect size may sit between the statistic and its p-value: "t(28) = 2.2, d = 0.8, p = .04"
    rf"\s*[,;]\s*(?:[A-Za-zηω]\w*(?:\^2)?\s*=\s*{_NUMBER}\s*[,;]\s*)?{_P_VALUE}"
)
_P_ALONE = re.compile(_P_VALUE)
_ONE_TAILED = re.compile(r"one[- ](?:tailed|sided)|directional", re.I)
_CI = re.compile(
    rf"95\s*%\s*(?:CI|C\.I\.|confidence interval)\s*[:=,]?\s*[\[(]\s*(?P<lo>{_NUMBER})\s*(?:,|;|to|–|—|-)\s*(?P<hi>{_NUMBER})\s*[\])]"
)
_RATIO = re.compile(r"\b(?:OR|RR|HR|IRR|odds|hazard|risk ratio|rate ratio|ratio)\b", re.I)
_MEAN = re.compile(r"(?<![\w\\])(?:M|mean(?:\s+of)?)\s*(?:=|:)?\s*(?P<mean>\d+\.\d+)")
_SAMPLE_SIZE = re.compile(r"(?<![\w\\])[Nn]\s*=\s*(?P<n>\d+)")
_INTEGER_DATA = re.compile(
    r"likert|rating|rated|\d+-point|point scale|responses?|answers?|counts?|integer|items?|score[sd]? (?:from|on|between)", re.I
)
_BREAKDOWN = re.compile(
    r"\b(?:respectively|split|breakdown|broken down|distribut\w*|consist\w*|compris\w*|composed|divided|categori[sz]ed|"
    r"classified|fell into|proportions?)\b",
    re.I,
)
_NOT_A_BREAKDOWN = re.compile(
    r"±|\b(?:improv\w*|increas\w*|decreas\w*|reduc\w*|accura\w*|than|vs\.?|versus|outperform\w*|gain\w*|drop\w*|error|rate)\b", re.I
)
_MAX_BREAKDOWN_EXCESS = 20.0
_MULTI_ITEM = re.compile(r"\bitems?\b|\d+-item|subscales?|composite|averaged", re.I)


@dataclass(frozen=True, slots=True)
class ReportedTest:
    """One `t(28) = 2.20, p = .036` in the plain text of a block."""

    test: str
    df1: float | None
    df2: float | None
    value: float
    decimals: int
    comparison: str
    p: float
    p_half: float  # half a unit of the reported p's last digit
    statistic: str  # "t(28) = 2.20"
    p_text: str
    start: int
    end: int

    @property
    def reported_significant(self) -> bool | None:
        if self.comparison in "<≤⩽" or self.comparison == "<=":
            return True if self.p <= ALPHA else None
        if self.comparison in ">≥⩾" or self.comparison == ">=":
            return False if self.p >= ALPHA else None
        return self.p <= ALPHA


@rule("STAT001", "inconsistent-p-value", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def inconsistent_p_value(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes the p-value of every reported `t(df)`, `F(df1, df2)`, `χ²(df)`, `r(df)` and
    `z` statistic (statcheck style) and flags a reported p that the statistic cannot give,
    allowing for the rounding of both numbers and for one-tailed tests the text announces.
    A reported p on the other side of .05 than the recomputed one is STAT002.

    ## Why is this bad?
    A p-value that does not follow from its own test statistic is a typo at best and a
    sign of edited results at worst; either way the reader cannot trust the inference.

    ## Example
    ```latex
    The effect was reliable, $t(28) = 2.20$, $p = .026$.
    ```

    ## Use instead
    ```latex
    The effect was reliable, $t(28) = 2.20$, $p = .036$.
    ```

    ## Fix safety
    No fix: either number may be the wrong one.

    ## Confidence
    0.95 for an exact recomputation that no reading explains. 0.6 (information) when one
    explains it: the reported p is the recomputed one truncated rather than rounded to its
    digits (p = .06 for .067), or the statistic fits a one-tailed test the text does not announce.
    """
    for placed, reported, computed in _checked_tests(section.blocks):
        low, high = computed
        if _consistent(reported, low, high) or _decision_error(reported, low, high):
            continue
        yield ctx.report_block(
            placed,
            reported.start,
            reported.end,
            _message(reported, low, high),
            identity=f"{reported.statistic} p{reported.comparison}{reported.p_text}",
            confidence=_test_confidence(reported, low, high),
        )


@rule("STAT002", "significance-reversed", Category.EVIDENCE_MANIPULATION, Severity.ERROR, reads=("blocks",), scope=Scope.SECTION)
def significance_reversed(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a reported p-value whose side of the 0.05 threshold differs from the p-value its
    own test statistic gives (a statcheck "decision error").

    ## Why is this bad?
    The conclusion of the test flips: the paper calls an effect significant that its
    statistic does not support, or the other way round.

    ## Example
    ```latex
    $F(2, 45) = 1.10$, $p < .05$
    ```

    ## Use instead
    ```latex
    $F(2, 45) = 1.10$, $p = .34$
    ```

    ## Fix safety
    No fix: either number may be the wrong one.

    ## Confidence
    As STAT001: 0.95 for an exact recomputation, 0.6 when a truncated p or an unannounced
    one-tailed test explains the reported value.
    """
    for placed, reported, computed in _checked_tests(section.blocks):
        low, high = computed
        if _decision_error(reported, low, high):
            yield ctx.report_block(
                placed,
                reported.start,
                reported.end,
                _message(reported, low, high) + ", which reverses its significance at .05",
                identity=f"{reported.statistic} p{reported.comparison}{reported.p_text}",
                confidence=_test_confidence(reported, low, high),
            )


@rule("STAT003", "grim-inconsistent-mean", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def grim_inconsistent_mean(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Applies the GRIM test to a mean of integer data (Likert ratings, counts, item scores)
    reported with its sample size: the mean of N integers is a multiple of 1/N, so with two
    decimals and N = 20 a mean of 3.47 is impossible (3.45 and 3.50 are the neighbours).

    ## Why is this bad?
    An impossible mean means the mean, the sample size or the exclusions are misreported.

    ## Example
    ```latex
    Participants rated the tool on a 5-point scale ($M = 3.47$, $SD = 1.2$, $N = 20$).
    ```

    ## Use instead
    ```latex
    Participants rated the tool on a 5-point scale ($M = 3.45$, $SD = 1.2$, $N = 20$).
    ```

    ## Fix safety
    No fix: either the mean or N is wrong.

    ## Options
    Only sentences that say the data are integer (ratings, Likert, points, counts, items)
    are tested; multi-item scales can make a mean legitimately finer than 1/N.

    ## Confidence
    0.85; 0.6 (information) when the sentence speaks of items, subscales or composites: a
    mean over several items per person is a multiple of 1/(N × items), not of 1/N.
    """
    for placed in _prose(section.blocks):
        text = placed.block.plain.text
        if "=" not in text:
            continue
        for start, end in sentence_spans(text):
            sentence = text[start:end]
            sizes = _SAMPLE_SIZE.findall(sentence)
            if len(set(sizes)) != 1 or not _INTEGER_DATA.search(sentence):
                continue
            n = int(sizes[0])
            for match in _MEAN.finditer(sentence):
                mean = match.group("mean")
                decimals = len(mean.split(".")[1])
                if n <= 0 or n >= 10**decimals or _grim_possible(float(mean), decimals, n):
                    continue
                yield ctx.report_block(
                    placed,
                    start + match.start("mean"),
                    start + match.end("mean"),
                    f"a mean of {mean} is impossible for {n} integer values (GRIM): the nearest possible means are "
                    f"{_grim_neighbours(float(mean), decimals, n)}",
                    identity=f"{mean}/{n}",
                    confidence=0.6 if _MULTI_ITEM.search(sentence) else 0.85,
                )


@rule(
    "STAT004", "confidence-interval-contradicts-p", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION
)
def confidence_interval_contradicts_p(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a 95% confidence interval reported with a p-value when the two disagree: the
    interval excludes the null value (0, or 1 for ratios) but p > .05, or it contains the
    null value well inside but p < .05.

    ## Why is this bad?
    For the same two-sided test, p < .05 exactly when the 95% interval excludes the null.
    A disagreement means one of the two was copied from another analysis or mistyped.

    ## Example
    ```latex
    a difference of 0.3 (95\\% CI [0.1, 0.5], $p = .21$)
    ```

    ## Use instead
    ```latex
    a difference of 0.3 (95\\% CI [0.1, 0.5], $p = .004$)
    ```

    ## Fix safety
    No fix: either the interval or the p-value is wrong.

    ## Confidence
    0.85 when the p-value follows the interval (the same estimate); 0.65 (information) when
    the nearest p-value comes before it and may belong to another estimate.
    """
    for placed in _prose(section.blocks):
        text = placed.block.plain.text
        if "95" not in text:
            continue
        for interval in _CI.finditer(text):
            p_match = _nearest_p(text, interval.start(), interval.end())
            if p_match is None:
                continue
            low, high = _to_float(interval.group("lo")), _to_float(interval.group("hi"))
            null = 1.0 if _RATIO.search(text[max(0, interval.start() - 80) : interval.start()]) else 0.0
            p, comparison = _p_value(p_match.group("p")), p_match.group("cmp")
            assert p is not None  # every number _P_VALUE matches parses
            excludes = low > null or high < null
            margin = 10 ** -_decimals(interval.group("lo"))
            inside = low + margin < null < high - margin
            says_significant = (comparison in ("<", "≤", "⩽", "<=") and p <= ALPHA) or (comparison == "=" and p <= 0.04)
            says_not = (comparison in (">", "≥", "⩾", ">=") and p >= ALPHA) or (comparison == "=" and p >= 0.06)
            if (excludes and says_not) or (inside and says_significant):
                verdict = "excludes" if excludes else "contains"
                yield ctx.report_block(
                    placed,
                    interval.start(),
                    p_match.end() if p_match.start() > interval.start() else interval.end(),
                    f"the 95% CI [{interval.group('lo')}, {interval.group('hi')}] {verdict} the null value {null:g} "
                    f"but the text reports p {comparison} {p_match.group('p')}",
                    identity=f"{interval.group(0)} p{comparison}{p_match.group('p')}",
                    related=[ctx.related_block(placed, p_match.start(), p_match.end(), "the reported p-value")],
                    confidence=0.85 if p_match.start() > interval.start() else 0.65,
                )


@rule("STAT005", "breakdown-not-100-percent", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def breakdown_not_100_percent(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a sentence that breaks a whole into three or more percentages ("split into 45%,
    30% and 20%", "…, respectively") whose sum is not 100 within rounding: above 100 always,
    below 100 only when the sum is close enough (95 or more) that a remainder is unlikely.

    ## Why is this bad?
    The parts of a whole cannot exceed it; a breakdown off by a few points usually means one
    share was mistyped or changed.

    ## Example
    ```latex
    The annotators were students, engineers and researchers (45\\%, 35\\% and 25\\%, respectively).
    ```

    ## Use instead
    ```latex
    The annotators were students, engineers and researchers (45\\%, 35\\% and 20\\%, respectively).
    ```

    ## Fix safety
    No fix: any share may be the wrong one.

    ## Confidence
    0.85 for shares above 100%; 0.65 (information) for shares a little below, where an
    unnamed remainder ("other", missing answers) may explain the gap.
    """
    for placed in section.blocks:
        if placed.kind not in _NUMBERED:
            continue
        by_sentence: dict[int, list[NumberMention]] = {}
        for mention in _percentages(placed.block.plain.text):
            by_sentence.setdefault(mention.sentence_start, []).append(mention)
        for mentions in by_sentence.values():
            if len(mentions) < 3:
                continue
            sentence = mentions[0].sentence
            if not _BREAKDOWN.search(sentence) or _NOT_A_BREAKDOWN.search(sentence):
                continue
            values = [mention.value for mention in mentions]
            if any(not 0 <= value <= 100 for value in values):
                continue
            total = sum(values)
            tolerance = sum(0.5 * 10**-mention.decimals for mention in mentions) + 1e-9
            if 100 + tolerance < total <= 100 + _MAX_BREAKDOWN_EXCESS or 95 <= total < 100 - tolerance:
                shares = ", ".join(mention.text for mention in mentions)
                yield ctx.report_block(
                    placed,
                    mentions[0].plain_start,
                    mentions[-1].plain_end,
                    f"the shares {shares} sum to {total:g}%, not 100%",
                    identity=shares,
                    confidence=0.85 if total > 100 else 0.65,
                )


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _percentages(text: str) -> tuple[NumberMention, ...]:
    """The percentages of a block's plain text (years aside), as the index's number mentions."""
    if "%" not in text and "percent" not in text:
        return ()
    return tuple(mention for mention in find_numbers(text) if mention.percent and not mention.is_year)


# Shared parsing.


def _prose(blocks: list[PlacedBlock]) -> Iterator[PlacedBlock]:
    return (placed for placed in blocks if placed.kind in _PROSE)


def _checked_tests(blocks: list[PlacedBlock]) -> Iterator[tuple[PlacedBlock, ReportedTest, tuple[float, float]]]:
    for placed in _prose(blocks):
        text = placed.block.plain.text
        if "p" not in text or "=" not in text:
            continue
        for reported, p_range in _block_tests(text):
            yield placed, reported, p_range


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _block_tests(text: str) -> tuple[tuple[ReportedTest, tuple[float, float]], ...]:
    """The tests a block reports with the p range each implies; cached by text, so an edit re-reads one block."""
    one_tailed = _ONE_TAILED.search(text) is not None
    tests = []
    for reported in _reported_tests(text):
        computed = _p_range(reported)
        if computed is None:
            continue
        low, high = computed
        if one_tailed and not _consistent(reported, low, high):
            low, high = low / 2, high / 2
        tests.append((reported, (low, high)))
    return tuple(tests)


def _reported_tests(text: str) -> Iterator[ReportedTest]:
    for match in _STATISTIC.finditer(text):
        test = match.group("test")
        test = "χ²" if test[0] in "χcX" else test.lower() if test in ("Z",) else test
        df1 = float(match.group("df1")) if match.group("df1") else None
        df2 = float(match.group("df2")) if match.group("df2") else None
        if (test in ("t", "r", "χ²") and (df1 is None or df2 is not None)) or (test == "F" and df2 is None):
            continue
        if test == "z" and df1 is not None:
            continue
        p = _p_value(match.group("p"))
        if p is None or p > 1:
            continue
        value = _to_float(match.group("value"))
        exponent = re.search(r"(?:\^\{?|[eE])([-−]\d+)", match.group("p"))
        p_half = 0.5 * 10 ** -_decimals(match.group("p")) * (10 ** int(exponent.group(1).replace("−", "-")) if exponent else 1)
        yield ReportedTest(
            test,
            df1,
            df2,
            value,
            _decimals(match.group("value")),
            match.group("cmp"),
            p,
            p_half,
            " ".join(text[match.start() : match.end("value")].split()),
            match.group("p"),
            match.start(),
            match.end(),
        )


def _p_range(reported: ReportedTest) -> tuple[float, float] | None:
    """The smallest and largest p the statistic gives within its rounding."""
    half = 0.5 * 10**-reported.decimals
    magnitude = abs(reported.value)
    if reported.test == "r" and magnitude + half >= 1:
        return None
    if reported.test in ("F", "χ²") and reported.value < 0:
        return None
    low_stat, high_stat = max(magnitude - half, 0.0), magnitude + half
    p_of = _p_function(reported)
    return p_of(high_stat), p_of(low_stat)


def _p_function(reported: ReportedTest) -> Callable[[float], float]:
    # scipy.special holds the distribution functions without the import cost of scipy.stats.
    from scipy import special

    if reported.test == "t":
        return lambda value: 2 * float(special.stdtr(reported.df1, -value))
    if reported.test == "F":
        return lambda value: float(special.fdtrc(reported.df1, reported.df2, value))
    if reported.test == "χ²":
        return lambda value: float(special.chdtrc(reported.df1, value))
    if reported.test == "r":
        df = reported.df1
        assert df is not None  # _reported_tests keeps only r tests with their df
        return lambda value: 2 * float(special.stdtr(df, -value * math.sqrt(df / (1 - value * value))))
    return lambda value: 2 * float(special.ndtr(-value))


def _consistent(reported: ReportedTest, low: float, high: float) -> bool:
    comparison, p = reported.comparison, reported.p
    if comparison in ("<", "≤", "⩽", "<="):
        return low <= p
    if comparison in (">", "≥", "⩾", ">="):
        return high >= p
    return low <= p + reported.p_half and high >= p - reported.p_half


def _test_confidence(reported: ReportedTest, low: float, high: float) -> float:
    """0.6 when a reading explains the reported p (truncated digits, an unannounced one tail), else 0.95."""
    truncated = reported.comparison == "=" and low < reported.p + 2 * reported.p_half and high >= reported.p
    one_tailed = reported.test in ("t", "r", "z") and _consistent(reported, low / 2, high / 2)
    return 0.6 if truncated or one_tailed else 0.95


def _decision_error(reported: ReportedTest, low: float, high: float) -> bool:
    significant = reported.reported_significant
    if significant is None or _consistent(reported, low, high):
        return False
    return low > ALPHA if significant else high < ALPHA


def _message(reported: ReportedTest, low: float, high: float) -> str:
    tails = " (two-tailed)" if reported.test in ("t", "r", "z") else ""
    return f"{reported.statistic} gives p = {_format_p((low + high) / 2)}{tails}, but the text reports p {reported.comparison} {reported.p_text}"


def _format_p(p: float) -> str:
    if p < 0.001:
        return f"{p:.1e}"
    return f"{p:.3f}".lstrip("0") if p < 1 else f"{p:.3f}"


def _nearest_p(text: str, start: int, end: int) -> re.Match[str] | None:
    after = _P_ALONE.search(text, end, min(len(text), end + 60))
    if after:
        return after
    before = list(_P_ALONE.finditer(text, max(0, start - 60), start))
    return before[-1] if before else None


def _p_value(text: str) -> float | None:
    text = text.replace("−", "-").replace("\\times", "×").replace("\\cdot", "×")
    match = re.fullmatch(r"(\d*\.?\d+)\s*(?:[×x·]\s*10\^\{?(-\d+)\}?|[eE](-\d+))?", text.strip())
    if not match:
        return None
    exponent = match.group(2) or match.group(3)
    return float(match.group(1)) * (10 ** int(exponent) if exponent else 1)


def _to_float(text: str) -> float:
    return float(re.sub(r"\s", "", text).replace("−", "-").replace("–", "-"))


def _decimals(text: str) -> int:
    mantissa = re.split(r"[×x·eE\\]", text)[0]
    return len(mantissa.split(".")[1].strip()) if "." in mantissa else 0


def _grim_possible(mean: float, decimals: int, n: int) -> bool:
    total = round(mean * n)
    return any(abs(k / n - mean) <= 0.5 * 10**-decimals + 1e-9 for k in (total - 1, total, total + 1))


def _grim_neighbours(mean: float, decimals: int, n: int) -> str:
    total = math.floor(mean * n)
    return f"{total / n:.{decimals}f} and {(total + 1) / n:.{decimals}f}"
