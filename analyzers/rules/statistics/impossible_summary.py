"""STAT019: descriptive statistics of one variable that no data can give together.

## How it decides
The readers are in `statistics/summaries.py`. A table is read when a header row (among its first
four) or its first column names a centre (a mean, a median or another percentile) and a min, a max
or a range cell ("18–65"), or two percentiles; each row (or column) is one variable, and a header
row that names a statistic twice holds two groups of columns side by side. A cell is read only as
a plain number: a bound ("< 0.01"), a percentage or a "mean (SD)" pair is left out. Every
comparison allows the rounding of both numbers (a mean of 4.0 with a maximum of 4 holds), and a whole
maximum may stand for its completed unit (ages in years: "aged 7–8" holds a mean of 8.5). Statistics
whose headers give two units ("Mean (ms)" beside "Max (s)") are not compared. The SD
bound is Bhatia and Davis's: n values in [min, max] with mean μ have a variance of at most
(max − μ)(μ − min), and a sample SD at most that times n / (n − 1), with n from an N column or 2 (the
loosest) without one. Bounds of a scale (Likert 1–7) bound the observed values too, so a table that
gives them in place of the observed ones is read the same. A sentence is read where it gives a mean
or a median and, within a few words and no other quantity between, a range ("M = 5.2, SD = 1.1,
range 1–4"; "aged 18–40 (M = 27.1)"), and where it gives a median and its interquartile range
("median 12 days (IQR 3–10)"); a mean is not read against an interquartile range (it may lie outside).
STAT010 reports a negative SD or variance; this rule does not.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import CLAIMING
from .summaries import PROSE, ImpossibleSummary, impossible_summaries, stated_ranges, table_variables


@violation_type
class ImpossibleSummaryStatistic(Violation):
    variable: str
    written: str
    why: str

    @property
    def message(self) -> str:
        subject = f" of {self.variable}" if self.variable else ""
        return f"the {self.written}{subject} is impossible: {self.why}"

    @property
    def identity(self) -> str:
        return f"{self.variable} {self.written}"


@rule("STAT019", "impossible-summary-statistics", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def impossible_summary_statistics(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Checks the descriptive statistics of each variable against one another: a mean or a median
    outside [min, max], a minimum above the maximum, percentiles out of order (P25 above the
    median), and an SD larger than any values between the min and max with that mean can have.
    Descriptive-statistics tables of either orientation (variables as rows under "Mean | SD | Min
    | Max", or as columns beside a first column of statistics) and sentences that give a mean and
    a range ("M = 5.2, range 1–4") are read.

    ## Why is this bad?
    No data give such a combination: a number was mistyped, copied from another variable or
    another unit, or the columns are in the wrong order, and a reader cannot trust the table.

    ## Example
    ```latex
    Variable & N & Mean & SD & Min & Max \\\\
    Income & 120 & 52.3 & 12.4 & 10.2 & 48.9 \\\\
    ```

    ## Use instead
    ```latex
    Variable & N & Mean & SD & Min & Max \\\\
    Income & 120 & 32.3 & 12.4 & 10.2 & 48.9 \\\\
    ```

    ## Evidence
    "moderate: a summary outside the order min ≤ percentiles ≤ max"; "moderate: a mean outside its
    min and max"; "moderate: an SD larger than the min, max and mean allow" (a table's header names
    each statistic); "moderate: a sentence's mean outside the range it gives" (the range may be
    another quantity's).

    ## Fix safety
    No fix: which of the numbers is wrong is in the data, not in the text.
    """
    where = section.title or section.kind.value
    for placed in section.blocks:
        table = placed.block.table
        if placed.kind is BlockKind.TABLE and table is not None:
            for variable in table_variables(table):
                for found in impossible_summaries(variable):
                    yield ctx.flag(_violation(found), placed.file, found.at.start, found.at.end, evidence=_evidence(found), section=where)
        elif placed.kind in CLAIMING:
            for stated in stated_ranges(placed.block.plain.text):
                for found in impossible_summaries(stated.variable):
                    evidence = Evidence(kind=PROSE, reason=found.why)
                    yield ctx.flag_block(_violation(found), placed, stated.start, stated.end, evidence=evidence)


def _violation(found: ImpossibleSummary) -> ImpossibleSummaryStatistic:
    return ImpossibleSummaryStatistic(found.variable, found.written, found.why)


def _evidence(found: ImpossibleSummary) -> Evidence:
    return Evidence(kind=found.kind, reason=found.why)
