from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.model import BlockKind
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import read_null_claims

_READ = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM)


@violation_type
class NullClaimContradicted(Violation):
    claim: str
    interval: str

    @property
    def message(self) -> str:
        return f'the text says the interval "{self.claim}", but the interval it gives is {self.interval}'

    @property
    def identity(self) -> str:
        return f"{self.claim} {self.interval}"


@rule("STAT009", "interval-claim-contradicted", Category.CLAIM_DISTORTION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def interval_claim_contradicted(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a sentence that says an interval contains (includes, overlaps, spans, crosses) zero or
    one, or excludes it, where the one interval the sentence gives says the opposite, beyond the
    rounding of its bounds: "the CrI contains 0 (b = −3.60, 95% CrI [−7.22, −0.03])". The claim
    must name the interval (CI, CrI, HDI, interval, bounds); a sentence with several intervals is
    left alone.

    ## Why is this bad?
    Whether the interval holds the null value is the paper's test of the effect: the sentence
    draws the opposite conclusion from the interval it prints.

    ## Example
    ```latex
    The CrI contains 0 ($b = -3.60$, 95\\% CrI $[-7.22, -0.03]$).
    ```

    ## Use instead
    ```latex
    The CrI excludes 0 ($b = -3.60$, 95\\% CrI $[-7.22, -0.03]$).
    ```

    ## Fix safety
    No fix: the claim or a bound may be the wrong one.

    ## Evidence
    "moderate: claim and interval in one sentence".
    """
    for placed in section.blocks:
        if placed.kind not in _READ:
            continue
        text = placed.block.plain.text
        if "CI" not in text and "interval" not in text and "CrI" not in text and "HDI" not in text and "HPD" not in text:
            continue
        for claim in read_null_claims(text, sentence_spans(text)):
            if claim.contradicted:
                violation = NullClaimContradicted(" ".join(text[claim.start : claim.end].split()), claim.interval.written)
                evidence = Evidence(kind="moderate: claim and interval in one sentence", reason="an interval holds zero or it does not")
                yield ctx.flag_block(violation, placed, claim.start, claim.end, evidence=evidence)
