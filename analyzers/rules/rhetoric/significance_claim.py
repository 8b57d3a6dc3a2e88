"""RHE002: "significantly better" in a paper that reports no statistical test."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...registry import Scope, rule
from .model import Claim, at_most_a_few, claims

_SIGNIFICANTLY = DeferredPattern(
    r"\b(?:significantly|statistically\s+significant(?:ly)?)\s+(?:\w+\s+)?(?:outperform\w*|improv\w*|better|higher|lower|reduc\w*|increas\w*|"
    r"faster|surpass\w*|exceed\w*|boost\w*|enhanc\w*|superior|beat\w*)",
    re.I,
)
_TEST_REPORTED = DeferredPattern(
    r"(?<![\w.])p\s*[<=≤]\s*0?\.\d|p-values?|t-tests?|Wilcoxon|Mann[- ]Whitney|ANOVA|bootstrap\w*|permutation test|"
    r"confidence intervals?|standard errors?|significance (?:level|test)|statistical(?:ly)? tests?|χ\^?2|chi-squared|McNemar",
    re.I,
)


@record
class SignificanceWithoutTest(Claim):
    @property
    def message(self) -> str:
        return f'"{self.quote}" but the paper reports no statistical test'


class _Significance(NamedTuple):
    """What a section adds to RHE002: its first "significantly" claims."""

    claims: list[Finding]


def _significance_unless_tested(ctx: RuleContext, parts: list[tuple[Section, list[_Significance]]]) -> Iterator[Finding]:
    claimed = [finding for _, section_parts in parts for part in section_parts for finding in part.claims]
    # The paper is searched for a test only when it claims significance: most papers do not.
    if claimed and not any(_reports_test(placed.block.plain.text) for section, _ in parts for placed in section.blocks):
        yield from at_most_a_few(iter(claimed))


@rule(
    "RHE002",
    "significance-without-test",
    Category.RHETORIC_BIAS,
    Severity.HINT,
    reads=("blocks", "structure"),
    scope=Scope.SECTION,
    combine=_significance_unless_tested,
    placed_parts=True,  # findings, by their ranges
)
def significance_without_test(ctx: RuleContext, section: Section) -> Iterator[_Significance]:
    """## What it does
    Marks "significantly better/outperforms/improves" when the paper reports no statistical
    test anywhere (no p-value, test name, confidence interval or standard error). At most
    three per paper.

    ## Why is this bad?
    "Significantly" promises a statistical test; without one, readers cannot tell a real
    effect from seed noise.

    ## Example
    ```latex
    Our method significantly outperforms the baselines.
    ```

    ## Use instead
    ```latex
    Our method outperforms the baselines by 3.1 points (paired t-test, p < .01).
    ```

    ## Fix safety
    No fix: either report the test or drop the word.
    """
    first = list(at_most_a_few(claims(ctx, section, _SIGNIFICANTLY, ("significant",), SignificanceWithoutTest, hedge=None)))
    yield _Significance(first)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _reports_test(text: str) -> bool:
    return _TEST_REPORTED.search(text) is not None
