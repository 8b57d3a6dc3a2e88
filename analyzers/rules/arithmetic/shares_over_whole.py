"""ARI016: shares of one thing a sentence lists ("58% HF exchange, 39% B88 exchange, and 8% Slater exchange") that add up to more than all of it.

## How it decides
A list of two percentages or more, joined by commas and "and", each followed by the words that
name its part, up to three, the last of them the same noun in every part ("HF exchange", "B88
exchange", "Slater exchange"): the parts of one whole, as a reader takes a functional's exchange
mix, a sample's composition or a budget's split. Parts named with words that give each percentage
a base of its own ("of the time", "on A", "for training", "per", "each") are rates, not parts, and
a noun that names a metric ("top-1 accuracy, top-5 accuracy") or a change ("reduction") is a
measure, not a whole: neither is read. The parts must not add up to more than 100%, beyond the
rounding of each; parts that exceed it by more than a fifth are measures of several things that
share a name, and are left alone. Parts that add up to less are not flagged: a list may leave a
part unnamed.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import spelled
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import ListedShares, listed_shares
from .prose import prose_blocks, quoted


@violation_type
class SharesExceedWhole(Violation):
    shares: ListedShares

    @property
    def message(self) -> str:
        parts = self.shares.parts
        listed = " + ".join(f"{spelled(part.value, part.decimals)}%" for part in parts)
        total = spelled(self.shares.total, max(part.decimals for part in parts))
        return f"the shares {listed} of the {self.shares.noun} add up to {total}%, more than the whole"


@rule("ARI016", "shares-exceed-whole", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def shares_exceed_whole(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Adds up the percentages a sentence lists as the parts of one thing, each named by words
    that end with the same noun: "58% HF exchange, 39% B88 exchange, and 8% Slater exchange".
    The parts of one whole cannot add up to more than 100%, beyond the rounding of each.

    ## Why is this bad?
    Shares that exceed the whole say that one of them is mistyped, or that a part was counted
    twice; a reader cannot tell which number to trust, and a method rebuilt from them is not the
    one the paper ran.

    ## Example
    ```latex
    The functional includes 58\\% HF exchange, 39\\% B88 exchange, and 8\\% Slater exchange.
    ```

    ## Use instead
    ```latex
    The functional includes 58\\% HF exchange, 39\\% B88 exchange, and 3\\% Slater exchange.
    ```

    ## Evidence
    "moderate: shares of one noun listed together".
    """
    for placed in prose_blocks(section):
        text = placed.block.plain.text
        for shares in listed_shares(text):
            if not shares.exceeds_whole():
                continue
            start, end = shares.parts[0].start, shares.end
            evidence = Evidence(
                kind="moderate: shares of one noun listed together",
                statements=[quoted(ctx, placed, start, end, "listed shares")],
                reason=f"percentages that each name a part of the {shares.noun} cannot add up to more than 100%",
            )
            yield ctx.flag_block(SharesExceedWhole(shares), placed, start, end, evidence=evidence)
