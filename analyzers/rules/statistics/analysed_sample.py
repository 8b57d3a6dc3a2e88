"""STAT018: a test whose degrees of freedom give the sample a study recruited, where the study says it excluded some of it.

## How it decides
A study is the section a "Study 2" or "Experiment 1" heading opens, with its subsections; a paper
without such headings is one study. The study's prose states the units it recruits ("we recruit
472 participants", "A total of 91 (mean age 25.1) participants completed the experiment"), the
units it removes from them ("we remove 115 participants who failed to follow instructions", "Seven
participants were excluded") and the sample it keeps ("leaving 357 participants", "the final sample
comprised 290 students", "final n = 160"). The statements after a recruitment, up to the next one,
give its analysed sample: the sample kept where the study states it, else the recruited count less
every exclusion. An exclusion from one analysis ("from the eye-tracking analyses") or of units that
were replaced leaves the sample as recruited.

Each APA test of the study gives the numbers of units its degrees of freedom allow: t(df) df + 1
(one sample, paired) or df + 2 (two groups), r(df) df + 2, F(k, d) d + k + 1 (one-way, or a
regression with k predictors) or d / k + 1 (one factor repeated), a chi-square the N in its
parentheses. Welch's fractional degrees of freedom give none.

A test that gives one of the study's analysed samples ran on it, and one that gives fewer units (a
subgroup, a condition, missing answers) or far more (trials, repeated ratings) is left alone: on the
corpus, most tests are of these. A test is reported when one of its numbers is a recruited count
exactly, where the study says it excluded some of them: the test ran on every unit recruited, the
removed ones included ("moderate: a test's degrees of freedom give the sample before its stated
exclusions"). A test whose smallest number exceeds an analysed sample by a slip (two units, or 5%)
needs units the study does not have; that is reported unsure ("moderate: a test's degrees of freedom
need a few more units than the study has").
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.model import BlockKind
from ....latex.record import record
from ...apa_results import read_results
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Range, Related, Severity, Statement
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .samples import STUDY_HEADING, SampleRole, read_sample_counts, sizes_of_test


@violation_type
class TestSampleMismatch(Violation):
    statistic: str
    tested: int  # the units the test's degrees of freedom give
    recruited: int
    analysed: int  # the units the study keeps for its analyses: the recruited ones, less those it excludes

    @property
    def message(self) -> str:
        if self.tested == self.recruited:
            return (
                f"{self.statistic} gives a sample of {self.tested}, the number recruited, but the study excludes "
                f"{self.recruited - self.analysed} of them and analyses {self.analysed}"
            )
        return f"{self.statistic} gives a sample of at least {self.tested}, but the study analyses {self.analysed}"

    @property
    def identity(self) -> str:
        return f"{self.statistic} {self.recruited} {self.analysed}"


@record(slots=True, eq=False)
class _Stated:
    """A count of the study's units a sentence states: recruited, excluded, or left for the analysis."""

    count: int
    role: SampleRole
    quote: str
    file: str
    range: Range


@record(slots=True, eq=False)
class _Test:
    """An APA test with the numbers of units its degrees of freedom allow."""

    statistic: str
    sizes: frozenset[int]
    anchor: Finding


@record(slots=True, eq=False)
class _Sample:
    """A recruitment of a study, with the statements after it (before the next recruitment) that exclude some of it."""

    recruited: _Stated
    exclusions: tuple[_Stated, ...] = ()

    @property
    def analysed(self) -> int:
        """The sample left, where the study states it; else the recruited count less every exclusion."""
        left = [stated.count for stated in self.exclusions if stated.role is SampleRole.LEFT]
        return left[-1] if left else self.recruited.count - sum(stated.count for stated in self.exclusions)


_BEFORE_EXCLUSIONS = "moderate: a test's degrees of freedom give the sample before its stated exclusions"
_BEYOND_SAMPLE = "moderate: a test's degrees of freedom need a few more units than the study has"
_REASON = "a test's degrees of freedom count the units it analysed, and the study states how many it has"
# A test this many units beyond the study's sample, at most, is a slip of its df; far beyond, it counts trials or ratings.
_SLIP = 0.05
_SLIP_UNITS = 2


def _studies(parts: list[tuple[Section, list[_Stated | _Test]]]) -> Iterator[list[_Stated | _Test]]:
    """The items of each study in reading order: a study heading opens one, and a heading as high as it closes it."""
    study: list[_Stated | _Test] = []
    level: int | None = None
    for section, items in parts:
        opens = STUDY_HEADING.match(section.title) is not None
        if opens or (level is not None and section.level <= level):
            yield study
            study, level = [], section.level if opens else None
        study.extend(items)
    yield study


def _samples(items: list[_Stated | _Test]) -> list[_Sample]:
    """Each recruitment of a study, with the exclusions stated after it that leave some of it."""
    samples: list[_Sample] = []
    for item in items:
        if isinstance(item, _Stated) and item.role is SampleRole.RECRUITED:
            samples.append(_Sample(item))
        elif isinstance(item, _Stated) and samples and 0 < item.count < samples[-1].recruited.count:
            samples[-1] = _Sample(samples[-1].recruited, (*samples[-1].exclusions, item))
    return samples


def _against_samples(ctx: RuleContext, parts: list[tuple[Section, list[_Stated | _Test]]]) -> Iterator[Finding]:
    for items in _studies(parts):
        samples = _samples(items)
        analysed = {sample.analysed for sample in samples}
        for test in (item for item in items if isinstance(item, _Test)):
            ctx.spend(1)
            if test.sizes & analysed:
                continue  # the test ran on a sample the study analyses
            for sample in samples:
                if sample.analysed < sample.recruited.count and sample.recruited.count in test.sizes:
                    yield _reported(test, sample.recruited.count, sample)
                    break
                if sample.analysed < min(test.sizes) <= sample.analysed + max(_SLIP_UNITS, _SLIP * sample.analysed):
                    yield _reported(test, min(test.sizes), sample)
                    break


def _reported(test: _Test, tested: int, sample: _Sample) -> Finding:
    violation = TestSampleMismatch(test.statistic, tested, sample.recruited.count, sample.analysed)
    anchor = test.anchor
    stated = [sample.recruited, *sample.exclusions]
    statements = [
        Statement(file=anchor.file, range=anchor.range, quote=test.statistic, subject="the test's sample", role="test statistic"),
        *(Statement(file=s.file, range=s.range, quote=s.quote, subject=f"the units {s.role.value}", role="sample size") for s in stated),
    ]
    related = [Related(file=s.file, range=s.range, message=f"the units {s.role.value}: {s.count}") for s in stated]
    before_exclusions = sample.analysed < sample.recruited.count == tested
    return anchor.model_copy(
        update={
            "message": violation.message,
            "identity": violation.identity,
            "related": related,
            "confidence": 0.7 if before_exclusions else 0.6,
            "evidence": Evidence(kind=_BEFORE_EXCLUSIONS if before_exclusions else _BEYOND_SAMPLE, statements=statements, reason=_REASON),
        }
    )


@rule(
    "STAT018",
    "test-on-sample-before-exclusions",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=_against_samples,
    placed_parts=True,  # counts and tests by their ranges
)
def test_on_sample_before_exclusions(ctx: RuleContext, section: Section) -> Iterator[_Stated | _Test]:
    """## What it does
    Compares the degrees of freedom of a study's tests with the sample the study says it
    analysed: "we recruit 472 participants … and we remove 115 participants who failed to follow
    instructions" leaves 357, but the comparison of the two treatments is reported as
    t(470) = 5.44, the df of 472 participants in two groups. A test is reported when its degrees of
    freedom give exactly the number recruited and not the number left after the exclusions, or
    (unsure) a few more units than the study analyses. Tests on fewer units (a subgroup, a
    condition) or on far more (trials) are left alone.

    ## Why is this bad?
    Either the test ran on the participants the paper says it removed, so its result is not the
    one the exclusion rule promises, or the degrees of freedom were copied from another analysis.
    The reader cannot tell which sample the conclusion rests on.

    ## Example
    ```latex
    We recruit 472 participants and remove 115 participants who failed the attention check.
    Advisers in the Likeable treatment recommend lower ranks ($t(470) = 5.44$, $p < .001$).
    ```

    ## Use instead
    ```latex
    We recruit 472 participants and remove 115 participants who failed the attention check.
    Advisers in the Likeable treatment recommend lower ranks ($t(355) = 5.44$, $p < .001$).
    ```

    ## Fix safety
    No fix: the test, the exclusion or the count may be the wrong one.

    ## Evidence
    "moderate: a test's degrees of freedom give the sample before its stated exclusions".
    """
    for placed in section.blocks:
        if placed.kind not in (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE):
            continue
        text = placed.block.plain.text
        for count in read_sample_counts(text):
            start, end = placed.block.plain.source_span(count.start, count.end)
            quote = " ".join(text[count.start : count.end].split())
            yield _Stated(count.count, count.role, quote, placed.file, ctx.range(placed.file, start, end))
        for result in read_results(text):
            sizes = sizes_of_test(result)
            if sizes:
                yield _Test(result.statistic, sizes, ctx.report_block(placed, result.start, result.end, ""))
