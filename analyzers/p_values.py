"""Reported p-values against the p-values their own statistics give (statcheck's check).

A reported result stands for a range of p-values: `p = .036` for [.0355, .0365], `p < .05`
for [0, .05], "ns" for the p-values at or above alpha. Its statistic stands for another: the
p of every value that rounds to the one written (`t(28) = 2.20` is 2.195 to 2.205), or every p
beyond a bound (`F(1, 24) < 1`). The result is consistent when the two ranges meet. When they
do not, two readings may still explain the numbers, and the verdict says which: the author
truncated p instead of rounding it, or ran a one-tailed test. The settings (alpha, whether
p = alpha counts as significant, one-tailed tests) are `[statistics]` in `.auditex.toml`.

scipy's distribution functions are imported only when a paper reports a test statistic, so
papers without any (most of machine learning) pay nothing for them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from enum import Enum
from functools import lru_cache

from ..latex.deferred_pattern import DeferredPattern
from ..latex.manuscript import Manuscript, PlacedBlock, Section
from ..latex.model import BlockKind
from ..latex.one_tailed import announces_one_tailed
from ..latex.project import Project
from ..latex.record import record
from .apa_results import ReportedResult, read_results
from .memo import TEXT_CACHE_SIZE
from .project_config import OneTailed, StatisticsConfig

PROSE = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION)
# Where results are read: prose, and table cells, where `$F(1, 267) = 2.739$, $p = .765$` reads as in prose.
_RESULTS_IN = (*PROSE, BlockKind.TABLE)
# An interval bound at infinity, as the plain text writes `\infty`: "[-∞, 9.54]" bounds the effect below nowhere.
_INFINITE_BOUND = DeferredPattern(r"(?P<below>[\[(]\s*[-−–]\s*∞\s*[,;])|[,;]\s*\+?\s*∞\s*[\])]")
# An equivalence test (TOST) reports the p of its tests against the equivalence bounds.
_EQUIVALENCE = DeferredPattern(r"equivalen(?:ce|t)|\bTOST\b|two one-sided|non-?inferiority", re.I)
_EQUIVALENCE_REACH = 250  # characters before a result that may say it is one: its sentence and the one before
# statcheck's words for a one-tailed test; "non-directional" announces the opposite.


class Verdict(str, Enum):
    """What a reported result is, from consistent to a reversed decision."""

    CONSISTENT = "consistent"
    EQUIVALENCE_TEST = "not checked: an equivalence test"  # its p is against the bounds, not against 0
    ONE_TAILED = "consistent as a one-tailed test"  # announced in the text, or `one-tailed = "always"`
    TRUNCATED = "consistent only if p was truncated"
    UNANNOUNCED_ONE_TAILED = "consistent only as an unannounced one-tailed test"
    P_ZERO = "p = 0 reported"
    INCONSISTENT = "inconsistent"
    DECISION_ERROR = "decision error"

    @property
    def flagged(self) -> bool:
        return self not in (Verdict.CONSISTENT, Verdict.ONE_TAILED, Verdict.EQUIVALENCE_TEST)


@record(slots=True)
class CheckedResult:
    """A reported result with the p-values its statistic gives and the verdict on the two."""

    reported: ReportedResult
    computed: float  # the p of the statistic as written, or of its bound (`F(1, 24) < 1`)
    low: float  # the smallest and largest p the statistic gives within its rounding
    high: float
    verdict: Verdict
    # The reported significance contradicts the statistic's as written (two-tailed for t, r and z
    # unless `one-tailed = "always"`): statcheck's decision error.
    decision_error: bool
    one_tailed: bool  # low and high are one-tailed p-values

    @property
    def computed_text(self) -> str:
        """`p = .036` for a statistic written as a value; `p > .036` or `p < .036` for one written as a bound."""
        comparison = {"<": ">", ">": "<"}.get(self.reported.test_comparison, "=")
        if self.computed == 0:  # below what floating point holds
            return "p < 1e-300" if comparison != ">" else "p > 0"
        return f"p {comparison} {_format(self.computed)}"

    def message(self, settings: StatisticsConfig) -> str:
        reported = self.reported
        tails = " (one-tailed)" if self.one_tailed else " (two-tailed)" if reported.one_tailed_possible else ""
        text = f"{reported.statistic} gives {self.computed_text}{tails}, but the text reports {reported.stated_p}"
        if self.verdict is Verdict.P_ZERO:
            impossible, gives = (
                f"p = {reported.p_text} is impossible: a p-value is never 0",
                f"{reported.statistic} gives {self.computed_text}",
            )
            if self.low < 0.001:
                return f"{impossible} ({gives}); report p < .001"
            reverses = f", which reverses its significance at {_format_alpha(settings.alpha)}" if self.decision_error else ""
            return f"{impossible} ({gives}{tails}); report the p the statistic gives{reverses}"
        if self.verdict is Verdict.TRUNCATED:
            text += ": consistent only if p was truncated, not rounded"
        if self.verdict is Verdict.UNANNOUNCED_ONE_TAILED:
            text += ": consistent only with a one-tailed test, which the text does not announce"
        if self.decision_error:
            reverses = f"reverses its significance at {_format_alpha(settings.alpha)}"
            if self.verdict is Verdict.UNANNOUNCED_ONE_TAILED:
                text += f"; two-tailed, it {reverses}"
            elif self.verdict is Verdict.TRUNCATED:
                text += f"; either way, it {reverses}"
            else:
                text += f", which {reverses}"
        return text


def _format(p: float) -> str:
    if p < 0.001:
        return f"{p:.1e}"
    return f"{p:.3f}".lstrip("0") if p < 1 else f"{p:.3f}"


def _format_alpha(alpha: float) -> str:
    return f"{alpha:g}".lstrip("0") if alpha < 1 else f"{alpha:g}"


def one_tailed_announced(manuscript: Manuscript, settings: StatisticsConfig) -> bool:
    """A one-tailed test may explain a p: the settings let the text say so, and it does."""
    return settings.one_tailed is OneTailed.ANNOUNCED and announces_one_tailed(manuscript)


def checked_results(manuscript: Manuscript, settings: StatisticsConfig) -> Iterator[tuple[PlacedBlock, CheckedResult]]:
    """Every result the prose reports, checked under the settings."""
    announced = one_tailed_announced(manuscript, settings)
    for section in manuscript.sections:
        yield from section_results(section, settings, announced)


def section_results(section: Section, settings: StatisticsConfig, announced: bool) -> Iterator[tuple[PlacedBlock, CheckedResult]]:
    """The results a section's prose and tables report; `announced`: the document announces one-tailed tests."""
    for placed in section.blocks:
        if placed.kind in _RESULTS_IN:
            for checked in _checked_block(placed.block.plain.text, settings, announced):
                yield placed, checked


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _checked_block(text: str, settings: StatisticsConfig, announced: bool) -> tuple[CheckedResult, ...]:
    return tuple(
        _not_checked(reported, Verdict.EQUIVALENCE_TEST)
        if _EQUIVALENCE.search(text, max(0, reported.start - _EQUIVALENCE_REACH), reported.end)
        else check(reported, settings, announced, _one_sided_interval(text, reported))
        for reported in read_results(text)
    )


def _not_checked(reported: ReportedResult, verdict: Verdict) -> CheckedResult:
    computed = _p_function(reported)(abs(reported.value))
    return CheckedResult(reported, computed, computed, computed, verdict, False, False)


def _one_sided_interval(text: str, reported: ReportedResult) -> str | None:
    """ "greater" or "less" when the result's own interval has an infinite bound (`95% CI [-9.54, ∞]`): the
    interval of a one-sided test, which says the direction the test looks in."""
    bound = _INFINITE_BOUND.search(text, reported.start, reported.end)
    return None if bound is None else "less" if bound.group("below") else "greater"


def check(reported: ReportedResult, settings: StatisticsConfig, announced: bool, one_sided: str | None = None) -> CheckedResult:
    """The verdict on one result; `announced`: the text announces one-tailed tests; `one_sided`: the result's
    interval announces a one-sided test in that direction ("greater", "less"), whose p may lie near 1."""
    p_of = _p_function(reported)
    computed = p_of(abs(reported.value))
    low, high = _computed_range(reported, p_of)
    always = reported.one_tailed_possible and settings.one_tailed is OneTailed.ALWAYS
    if always:
        computed, low, high = computed / 2, low / 2, high / 2
    reported_low, reported_high = _reported_range(reported, settings)
    zero = reported.comparison == "=" and reported.p == 0
    if _meet(reported_low, reported_high, low, high):
        verdict = Verdict.P_ZERO if zero else Verdict.ONE_TAILED if always else Verdict.CONSISTENT
        return CheckedResult(reported, computed, low, high, verdict, False, always)
    decision_error = _decision_error(reported, settings, low, high)
    may_be_one_tailed = reported.one_tailed_possible and settings.one_tailed is OneTailed.ANNOUNCED
    # A one-sided test looking away from the effect gives 1 - p/2: "greater" with a negative statistic.
    away = one_sided is not None and (one_sided == "greater") == (reported.value < 0)
    if may_be_one_tailed and away and _meet(reported_low, reported_high, 1 - high / 2, 1 - low / 2):
        return CheckedResult(reported, 1 - computed / 2, 1 - high / 2, 1 - low / 2, Verdict.ONE_TAILED, False, True)
    if may_be_one_tailed and _meet(reported_low, reported_high, low / 2, high / 2):
        if announced or one_sided:
            return CheckedResult(reported, computed / 2, low / 2, high / 2, Verdict.ONE_TAILED, False, True)
        return CheckedResult(reported, computed, low, high, Verdict.UNANNOUNCED_ONE_TAILED, decision_error, False)
    if reported.comparison == "=" and reported.p is not None and _meet(reported.p, reported.p + 2 * reported.p_half, low, high):
        return CheckedResult(reported, computed, low, high, Verdict.P_ZERO if zero else Verdict.TRUNCATED, decision_error, always)
    # A reported p of 0 is wrong whatever the statistic gives: its own message, which also says what the statistic gives.
    verdict = Verdict.P_ZERO if zero else Verdict.DECISION_ERROR if decision_error else Verdict.INCONSISTENT
    return CheckedResult(reported, computed, low, high, verdict, decision_error, always)


def _meet(low: float, high: float, other_low: float, other_high: float) -> bool:
    return low <= other_high and other_low <= high


def _reported_range(reported: ReportedResult, settings: StatisticsConfig) -> tuple[float, float]:
    """The p-values the reported one stands for, within its rounding."""
    if reported.p is None:  # "ns": not significant
        return settings.alpha, 1.0
    if reported.comparison == "<":
        return 0.0, reported.p
    if reported.comparison == ">":
        return reported.p, 1.0
    return max(reported.p - reported.p_half, 0.0), reported.p + reported.p_half


def _computed_range(reported: ReportedResult, p_of: Callable[[float], float]) -> tuple[float, float]:
    """The smallest and largest p the statistic gives, within its rounding or beyond its bound."""
    magnitude = abs(reported.value)
    half = 0.5 * 10**-reported.decimals
    if reported.test_comparison == "<":  # the statistic is below the bound: p is above p(bound)
        return p_of(magnitude), 1.0
    if reported.test_comparison == ">":
        return 0.0, p_of(magnitude)
    return p_of(magnitude + half), p_of(max(magnitude - half, 0.0))


def _p_function(reported: ReportedResult) -> Callable[[float], float]:
    # scipy.special holds the distribution functions without the import cost of scipy.stats.
    from scipy import special

    df1, df2 = reported.df1, reported.df2
    if reported.test == "t":
        return lambda value: 2 * float(special.stdtr(df1, -value))
    if reported.test == "F":
        return lambda value: float(special.fdtrc(df1, df2, value))
    if reported.test in ("χ²", "Q"):
        return lambda value: float(special.chdtrc(df1, value))
    if reported.test == "r":
        assert df1 is not None  # apa_results keeps only r tests with their df

        def of_r(value: float) -> float:
            if value >= 1:
                return 0.0
            return 2 * float(special.stdtr(df1, -value * math.sqrt(df1 / (1 - value * value))))

        return of_r
    return lambda value: 2 * float(special.ndtr(-value))


def _decision_error(reported: ReportedResult, settings: StatisticsConfig, low: float, high: float) -> bool:
    """The reported p and the statistic's fall on two sides of alpha, whatever the rounding."""
    significant = _reported_significant(reported, settings)
    if significant is None:
        return False
    if significant:
        return low > settings.alpha or (low == settings.alpha and not settings.p_equal_alpha_significant)
    return high < settings.alpha


def _reported_significant(reported: ReportedResult, settings: StatisticsConfig) -> bool | None:
    """Whether the text calls the result significant at alpha; None when it does not say (p < .10)."""
    alpha = settings.alpha
    if reported.p is None:
        return False
    if reported.comparison == "<":
        return True if reported.p <= alpha else None
    if reported.comparison == ">":
        return False if reported.p >= alpha else None
    return reported.p < alpha or (reported.p == alpha and settings.p_equal_alpha_significant)


@record(slots=True)
class ResultRow:
    """One result read, where it is and its verdict: a row of `auditex check --statistics`."""

    file: str
    line: int  # 0-based, as a finding's range (LSP)
    checked: CheckedResult

    @property
    def verdict(self) -> str:
        verdict = self.checked.verdict
        return (
            f"{verdict.value}, decision error" if self.checked.decision_error and verdict is not Verdict.DECISION_ERROR else verdict.value
        )

    def as_dict(self) -> dict[str, object]:
        """The row in `auditex check --format json` (`statistics`)."""
        reported = self.checked.reported
        return {
            "file": self.file,
            "line": self.line,
            "test": reported.test,
            "df1": reported.df1,
            "df2": reported.df2,
            "value": reported.value,
            "statistic": reported.statistic,
            "reported": reported.stated_p,
            "reported_p": reported.p,
            "computed": self.checked.computed_text,
            "computed_p": self.checked.computed,
            "tails": 1 if self.checked.one_tailed else 2 if reported.one_tailed_possible else None,
            "verdict": self.checked.verdict.value,
            "decision_error": self.checked.decision_error,
        }


def result_rows(project: Project, settings: StatisticsConfig) -> list[ResultRow]:
    """Every result the project's prose reports, in reading order."""
    rows = []
    for placed, checked in checked_results(project.manuscript, settings):
        start, _ = placed.block.plain.source_span(checked.reported.start, checked.reported.end)
        rows.append(ResultRow(placed.file, project.source(placed.file).position(start)[0], checked))
    return rows
