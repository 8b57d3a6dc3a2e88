"""STAT: reported statistics that contradict themselves (statcheck and GRIM style).

STAT001 and STAT002 judge the results that apa_results.py reads and p_values.py recomputes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind
from ....latex.numbers import NumberMention, find_numbers
from ....latex.sentences import sentence_spans
from ...apa_results import P_VALUE, decimals, number, p_number
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...p_values import PROSE, CheckedResult, Verdict, one_tailed_announced, section_results
from ...registry import Scope, rule

ALPHA = 0.05  # STAT004's threshold: a 95% interval
# The blocks whose numbers the index collects: prose and theorem statements.
_NUMBERED = (*PROSE, BlockKind.THEOREM)
_NUMBER = r"[-−–]?\s?(?:\d+(?:\.\d*)?|\.\d+)"
_P_ALONE = DeferredPattern(P_VALUE)
# How sure each verdict is: a reading that explains the numbers leaves them less certain to be wrong.
_CONFIDENCE = {Verdict.TRUNCATED: 0.8, Verdict.UNANNOUNCED_ONE_TAILED: 0.8, Verdict.P_ZERO: 0.9}
_CI = DeferredPattern(
    rf"95\s*%\s*(?:CI|C\.I\.|confidence interval)\s*[:=,]?\s*[\[(]\s*(?P<lo>{_NUMBER})\s*(?:,|;|to|–|—|-)\s*(?P<hi>{_NUMBER})\s*[\])]"
)
# The abbreviations in capitals only: "or" is not an odds ratio.
_RATIO_ESTIMATE = DeferredPattern(r"\b(?:a?OR|RR|HR|IRR)\s*[=:]\s*\$?\s*(\d+(?:\.\d+)?)")
_RATIO = DeferredPattern(r"\b(?:OR|RR|HR|IRR)\b|\b(?i:odds|hazard|risk ratio|rate ratio|ratio)\b")
_MEAN = DeferredPattern(r"(?<![\w\\])(?:M|mean(?:\s+of)?)\s*(?:=|:)?\s*(?P<mean>\d+\.\d+)")
_SAMPLE_SIZE = DeferredPattern(r"(?<![\w\\])[Nn]\s*=\s*(?P<n>\d+)")
_INTEGER_DATA = DeferredPattern(
    r"likert|rating|rated|\d+-point|point scale|responses?|answers?|counts?|integer|items?|score[sd]? (?:from|on|between)", re.I
)
_BREAKDOWN = DeferredPattern(
    r"\b(?:respectively|split|breakdown|broken down|distribut\w*|consist\w*|compris\w*|composed|divided|categori[sz]ed|"
    r"classified|fell into|proportions?)\b",
    re.I,
)
_NOT_A_BREAKDOWN = DeferredPattern(
    r"±|\b(?:improv\w*|increas\w*|decreas\w*|reduc\w*|accura\w*|than|vs\.?|versus|outperform\w*|gain\w*|drop\w*|error|rate)\b", re.I
)
_MAX_BREAKDOWN_EXCESS = 20.0
_MULTI_ITEM = DeferredPattern(r"\bitems?\b|\d+-item|subscales?|composite|averaged", re.I)


@rule(
    "STAT001", "inconsistent-p-value", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "one_tailed"), scope=Scope.SECTION
)
def inconsistent_p_value(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes the p-value of every APA-style result the prose or a table cell reports (statcheck's check):
    `t(df)`, `F(df1, df2)`, `r(df)`, `z`, chi-square (`χ²`, `\\chi^2`, `X2`, `chi2`) and the
    Q tests of meta-analyses (`Q`, `Qb`, `Qw`), with a comparison sign on the statistic
    (`F(1, 24) < 1`), "ns" for the p-value, thousands separators, and an effect size or a
    confidence interval between the statistic and p. It flags a reported p that the statistic
    cannot give, allowing for the rounding of both numbers. A reported p on the other side of
    alpha than the recomputed one is STAT002.

    The message says when one reading would explain the numbers: "consistent only if p was
    truncated, not rounded" (`F(1, 186) = 5.73, p = .01`: .018), or "consistent only with a
    one-tailed test, which the text does not announce". `p = .000` has its own message: a
    p-value is never 0.

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

    ## Options
    `[statistics]` in `.auditex.toml` (STAT002 reads it too):

    ```toml
    [statistics]
    alpha = 0.05                       # the significance level the paper uses
    p-equal-alpha-significant = true   # p = .05 counts as significant (false: only p < .05)
    one-tailed = "announced"           # "always", "never"
    ```

    `one-tailed`: with `"announced"` (the default), a t, r or z result that fits only a
    one-tailed test is consistent when the text anywhere in the document says "one-tailed",
    "one-sided" or "directional", and a warning saying so when it does not; with `"always"`
    every t, r and z test is taken as one-tailed; with `"never"` every test is two-tailed.

    `auditex check --statistics` lists every result read, with its recomputed p and verdict;
    `--format json` lists them under `statistics`.

    ## Confidence
    0.95 for an inconsistency no reading explains; 0.9 for `p = .000`; 0.8 for a result
    consistent only under truncation or an unannounced one-tailed test. All are warnings.
    """
    for placed, checked in _section_results(ctx, section):
        if checked.verdict.flagged and not checked.decision_error:
            yield _report(ctx, placed, checked)


@rule(
    "STAT002", "significance-reversed", Category.EVIDENCE_MANIPULATION, Severity.ERROR, reads=("blocks", "one_tailed"), scope=Scope.SECTION
)
def significance_reversed(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a reported p-value whose side of alpha (.05 unless `[statistics]` says otherwise)
    differs from the side of the p-value its own test statistic gives, whatever the rounding
    (a statcheck "decision error"): `p < .05` for a statistic that gives .34, `ns` for one that
    gives .001. It reads the results STAT001 reads, under the same settings.

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
    0.95, an error. A result that a one-tailed test the text does not announce would make
    consistent is a warning (0.8) whose message says so.
    """
    for placed, checked in _section_results(ctx, section):
        if checked.decision_error:
            explained = checked.verdict is Verdict.UNANNOUNCED_ONE_TAILED
            yield _report(ctx, placed, checked, Severity.WARNING if explained else None)


def _section_results(ctx: RuleContext, section: Section) -> Iterator[tuple[PlacedBlock, CheckedResult]]:
    settings = ctx.config.statistics
    return section_results(section, settings, one_tailed_announced(ctx.manuscript, settings))


def _report(ctx: RuleContext, placed: PlacedBlock, checked: CheckedResult, severity: Severity | None = None) -> Finding:
    reported = checked.reported
    return ctx.report_block(
        placed,
        reported.start,
        reported.end,
        checked.message(ctx.config.statistics),
        identity=f"{reported.statistic} p{reported.comparison}{reported.p_text}",
        confidence=_CONFIDENCE.get(checked.verdict, 0.95),
        severity=severity,
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
    null value well inside but p < .05. An interval that does not contain the ratio reported
    just before it ("OR = 1.891, λ = 2.293, 95% CI [2.091, 2.622]") is another statistic's, and
    its null value is unknown: it is left alone.

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
            low, high = number(interval.group("lo")), number(interval.group("hi"))
            null = _null_value(text[max(0, interval.start() - 80) : interval.start()], low, high)
            if null is None:
                continue
            excludes = low > null or high < null
            margin = 10 ** -decimals(interval.group("lo"))
            inside = low + margin < null < high - margin
            comparison, reading = p_match.group("cmp"), _p_reading(p_match)
            if (excludes and reading == "not significant") or (inside and reading == "significant"):
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
    return (placed for placed in blocks if placed.kind in PROSE)


def _nearest_p(text: str, start: int, end: int) -> re.Match[str] | None:
    after = _P_ALONE.search(text, end, min(len(text), end + 60))
    if after:
        return after
    before = list(_P_ALONE.finditer(text, max(0, start - 60), start))
    return before[-1] if before else None


def _null_value(before: str, low: float, high: float) -> float | None:
    """The value a 95% interval is tested against, from the words before it: 1 for a ratio's, 0 for a
    difference's; None for an interval of another statistic than the one named."""
    # A ratio's interval is positive: one with a bound at or below 0 is of a difference.
    ratio = low > 0 and _RATIO.search(before)
    # "OR = 1.891, λ = 2.293, 95% CI [2.091, 2.622]": an interval that misses the ratio reported before it is
    # another statistic's, whose null value the sentence does not give.
    estimate = _RATIO_ESTIMATE.search(before) if ratio else None
    if estimate and not low <= number(estimate.group(1)) <= high:
        return None
    return 1.0 if ratio else 0.0


def _p_reading(p_match: re.Match[str]) -> str | None:
    """What a reported p-value says of the test at the 95% interval's level: "significant", "not significant",
    or None when an exact p too near .05 says neither for sure."""
    p, comparison = p_number(p_match.group("p")), p_match.group("cmp")
    assert p is not None  # every number P_VALUE matches parses
    if (comparison in ("<", "≤", "⩽", "<=") and p <= ALPHA) or (comparison == "=" and p <= 0.04):
        return "significant"
    if (comparison in (">", "≥", "⩾", ">=") and p >= ALPHA) or (comparison == "=" and p >= 0.06):
        return "not significant"
    return None


def _grim_possible(mean: float, decimals: int, n: int) -> bool:
    total = round(mean * n)
    return any(abs(k / n - mean) <= 0.5 * 10**-decimals + 1e-9 for k in (total - 1, total, total + 1))


def _grim_neighbours(mean: float, decimals: int, n: int) -> str:
    total = math.floor(mean * n)
    return f"{total / n:.{decimals}f} and {(total + 1) / n:.{decimals}f}"
