"""ARI001: a percentage written beside its count and its base that is not their share."""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import spelled
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import Share, shares
from .prose import prose_blocks, quoted


@violation_type
class ShareMiscomputed(Violation):
    share: Share

    @property
    def message(self) -> str:
        share = self.share
        exact = spelled(share.exact, max(share.percent.decimals, 1))
        return (
            f"{_count(share.part.value)} of {_count(share.whole.value)} is {exact}%, "
            f"not {spelled(share.percent.value, share.percent.decimals)}%"
        )


def _count(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:g}"


@rule("ARI001", "share-of-count-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def share_of_count_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes a percentage that a sentence writes beside the count and the base it is the
    share of: "33 out of 868 (9%)", "9% (33/868)", "23/36 = 64%", "Of the 19,233 isoforms,
    12,911 (67.2%) matched", "63 participants, of which 41 (65%) passed", "325,800 records; of
    these, 10,885 (about 3.3%) …". The percentage must be the count over the base, within its own
    rounding (or truncated to its places).

    ## Why is this bad?
    Readers take the percentage and skip the counts. A share that does not follow from its
    own numbers is either a slip in the count or in the percentage, and one of the two is
    what the paper reports wrongly.

    ## Example
    ```latex
    9\\% of searches (33 out of 868) failed.
    ```

    ## Use instead
    ```latex
    3.8\\% of searches (33 out of 868) failed.
    ```

    ## Evidence
    "strong: count and base beside the percentage" when the sentence writes "A out of B" or
    "A/B" next to the percentage; "moderate: base named earlier in the sentence" for "Of the
    B …, A (P%)", "Of B …", "B …, of which A (P%)" and "B …; of these, A (P%)", where the
    percentage may be of another base.
    """
    for placed in prose_blocks(section):
        text = placed.block.plain.text
        for share in shares(text):
            if share.recomputes():
                continue
            kind = (
                "moderate: base named earlier in the sentence"
                if share.base_named_before
                else "strong: count and base beside the percentage"
            )
            evidence = Evidence(
                kind=kind,
                statements=[quoted(ctx, placed, share.percent.start, share.percent.end, "share")],
                reason=f"{share.part.value:g} / {share.whole.value:g} = {share.exact:.3f}%",
            )
            yield ctx.flag_block(ShareMiscomputed(share), placed, share.percent.start, share.percent.end, evidence=evidence)
