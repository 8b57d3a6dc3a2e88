"""STAT006: an interval that cannot bound the estimate written with it.

## How it decides
Intervals are read in `statistics/model.py`: a labelled interval and the number written right
before it (past a unit, "−0.43 kg [95% CI …]"), unless that number is a sample size, SD or test
statistic; and in `statistics/table_intervals.py`, the intervals a table's header names. Where the estimate lies inside, `statistics/centring.py` asks whether any scale an
interval is built on centres it: each of the three numbers may be anywhere its rounding allows,
and the estimate must be 2.5 times nearer one bound than the other on its own scale, on the log
scale (positive numbers), on the logit (numbers in (0, 1)) and, for a correlation, on Fisher's z.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..tables.model import table_notes
from .centring import LOPSIDED, off_centre
from .model import ReportedInterval, read_intervals
from .table_intervals import TableInterval, table_intervals

# Prose, captions and table cells: an interval reads the same in all three.
_READ = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM, BlockKind.TABLE)


@violation_type
class ReversedInterval(Violation):
    interval: str

    @property
    def message(self) -> str:
        return f"the interval {self.interval} has its lower bound above its upper bound"


@violation_type
class EstimateOutsideInterval(Violation):
    estimate: str
    interval: str

    @property
    def message(self) -> str:
        return f"the estimate {self.estimate} lies outside its own interval {self.interval}"


@violation_type
class EstimateOffCentre(Violation):
    estimate: str
    interval: str
    times: float

    @property
    def message(self) -> str:
        return (
            f"the estimate {self.estimate} is {self.times:.1f} times nearer one bound of {self.interval} than the other"
            " on every scale an interval is built on: one of the three numbers is likely wrong"
        )


@rule("STAT006", "interval-inconsistent", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def interval_inconsistent(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Reads every labelled interval ("95% CI [0.10, 0.52]", "95% CI: 0.10 to 0.52", "95% CrI",
    "HDI", in prose, captions and table cells) and flags one whose lower bound is above its
    upper bound, and one that does not contain the estimate written right before it
    ("OR = 1.23, 95% CI [1.31, 1.52]", "0.45 (95% CI 0.50–0.60)"), beyond the rounding of the
    numbers; and, at information, an estimate so much nearer one bound than the other that no
    scale an interval is built on (its own, the log of a ratio, Fisher's z of a correlation, the
    logit of a proportion) centres it ("−0.43 [−1.16, −0.30]", "d = 0.18, 95% CI [−0.38, 0.38]").
    A table is read where its header, caption or notes name the interval rather than the cell:
    "1.45 (1.50, 1.90)" under "OR (95% CI)" (or "median (IQR)"), a "95% CI" column bounding the
    estimate column nearest to its left past SE, SD, test and p columns ("Mean | SD | 95% CI"),
    and a pair of "Lower" / "Upper" (or "2.5%" / "97.5%") columns.
    An interval may be asymmetric (ratios) or one-sided (`[0.12, ∞)`); an estimate on
    another scale than its interval (a log odds ratio, a back-transformed mean), one given in
    percent against bounds given as fractions, and a number that is a sample size, SD or p are
    left alone.

    ## Why is this bad?
    An interval always contains its point estimate, and its bounds come in order: either the
    estimate or a bound was mistyped, or copied from another analysis.

    ## Example
    ```latex
    The odds of relapse fell (OR = 0.62, 95\\% CI [0.81, 0.45]).
    ```

    ## Use instead
    ```latex
    The odds of relapse fell (OR = 0.62, 95\\% CI [0.45, 0.81]).
    ```

    ## Fix safety
    No fix: any of the three numbers may be the wrong one.

    ## Evidence
    "strong: bounds reversed"; "moderate: estimate outside its interval" (the number before an
    interval is nearly always its estimate, but not always); "moderate: estimate far off its
    interval's centre" (a percentile or posterior interval of a skewed quantity may be lopsided;
    medians, variances, percentages and intervals the estimate touches are left alone); in a table,
    "moderate: a table's interval with its bounds reversed" and "moderate: a table's estimate outside
    the interval its header names" (the header pairs the columns: a wrong pairing is the doubt).
    """
    for placed in section.blocks:
        if placed.kind not in _READ:
            continue
        text = placed.block.plain.text
        for interval in read_intervals(text):
            if interval.reversed:
                yield _flag(ctx, placed, interval, ReversedInterval(interval.written), "strong: bounds reversed", interval.start)
            elif interval.excludes_estimate:
                violation = EstimateOutsideInterval(interval.estimate_text, interval.written)
                yield _flag(ctx, placed, interval, violation, "moderate: estimate outside its interval", interval.estimate_start)
            elif (times := off_centre(interval, text[: interval.estimate_start])) is not None and times >= LOPSIDED:
                off = EstimateOffCentre(interval.estimate_text, interval.written, times)
                yield _flag(ctx, placed, interval, off, "moderate: estimate far off its interval's centre", interval.estimate_start)
        table = placed.block.table
        for read in table_intervals(table, table_notes(section, placed)) if placed.kind is BlockKind.TABLE and table is not None else ():
            yield from _table_finding(ctx, section, placed, read)


def _table_finding(ctx: RuleContext, section: Section, placed: PlacedBlock, read: TableInterval) -> Iterator[Finding]:
    interval = read.interval
    violation: Violation
    if interval.reversed:
        violation, kind, cell = ReversedInterval(interval.written), "moderate: a table's interval with its bounds reversed", read.bounds
    elif interval.excludes_estimate:
        violation = EstimateOutsideInterval(interval.estimate_text, interval.written)
        kind, cell = "moderate: a table's estimate outside the interval its header names", read.estimate
    else:
        return
    reason = "an interval's bounds come in order and contain the estimate they bound; the table's header names the interval"
    evidence = Evidence(kind=kind, reason=reason)
    yield ctx.flag(violation, placed.file, cell.start, cell.end, evidence=evidence, section=section.title or section.kind.value)


def _flag(ctx: RuleContext, placed: PlacedBlock, interval: ReportedInterval, violation: Violation, kind: str, start: int) -> Finding:
    reason = "an interval's bounds come in order and contain the estimate they bound"
    return ctx.flag_block(violation, placed, start, interval.end, evidence=Evidence(kind=kind, reason=reason))
