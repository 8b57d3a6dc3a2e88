from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import ReportedInterval, read_intervals

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


@rule("STAT006", "interval-inconsistent", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def interval_inconsistent(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Reads every labelled interval ("95% CI [0.10, 0.52]", "95% CI: 0.10 to 0.52", "95% CrI",
    "HDI", in prose, captions and table cells) and flags one whose lower bound is above its
    upper bound, and one that does not contain the estimate written right before it
    ("OR = 1.23, 95% CI [1.31, 1.52]", "0.45 (95% CI 0.50–0.60)"), beyond the rounding of the
    numbers. An interval may be asymmetric (ratios) or one-sided (`[0.12, ∞)`); an estimate on
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
    interval is nearly always its estimate, but not always).
    """
    for placed in section.blocks:
        if placed.kind not in _READ:
            continue
        for interval in read_intervals(placed.block.plain.text):
            if interval.reversed:
                yield _flag(ctx, placed, interval, ReversedInterval(interval.written), "strong: bounds reversed", interval.start)
            elif interval.excludes_estimate:
                violation = EstimateOutsideInterval(interval.estimate_text, interval.written)
                yield _flag(ctx, placed, interval, violation, "moderate: estimate outside its interval", interval.estimate_start)


def _flag(ctx: RuleContext, placed: PlacedBlock, interval: ReportedInterval, violation: Violation, kind: str, start: int) -> Finding:
    reason = "an interval's bounds come in order and contain the estimate they bound"
    return ctx.flag_block(violation, placed, start, interval.end, evidence=Evidence(kind=kind, reason=reason))
