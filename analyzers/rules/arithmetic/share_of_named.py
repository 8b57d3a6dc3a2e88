"""ARI017: a percentage of a named quantity ("35.7% of its weight") that the value the paper gives that quantity elsewhere does not give.

## How it decides
A sentence states a value with a unit and a percentage "of its/the … <noun>" of it, writing no other
value in that unit (named_quantities.py); the noun's value is looked for in every other sentence of the
paper that names it with a value in the same unit ("a mass of 177 g"; "weight" is read as "mass"). A
noun the paper gives one to three values is a base a reader can recompute from (a paper with two vehicles
gives two masses); more is a noun of many things ("a size of …") and is left alone. The share is flagged
only when none of those values gives it, read every way ARI015 reads a percentage of a value and a base
(share, change relative to either, difference), within the rounding of all three numbers and, for an
estimate ("≈ 25%"), a tenth more.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...quantities import spelled
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .bases import BasedPercentage
from .model import Written
from .named_quantities import NamedShare, named_shares, named_values
from .prose import prose_blocks, quoted

_MOST_VALUES = 3  # a noun the paper gives more values is a noun of many things, not one base


@violation_type
class ShareOfNamedMiscomputed(Violation):
    share: NamedShare
    bases: tuple[float, ...]

    @property
    def message(self) -> str:
        value, percent = self.share.value, self.share.percent
        bases = ", ".join(f"{base:g} {self.share.unit}" for base in self.bases)
        shares = ", ".join(f"{value.value / base * 100:.1f}%" for base in self.bases)
        return (
            f"{spelled(percent.value, percent.decimals)}% of the {self.share.noun} is stated of {spelled(value.value, value.decimals)} "
            f"{self.share.unit}, but the {self.share.noun} the paper gives elsewhere ({bases}) makes it {shares}"
        )


@record(slots=True, eq=False)
class _Base:
    """A named quantity's value, where the paper gives it."""

    noun: str
    unit: str
    value: Written
    block: tuple[str, int]  # (file, block start): the paragraph it is stated in
    statement: Statement


@record(slots=True, eq=False)
class _Share:
    """A share of a named quantity, placed while its section was read; its message and evidence wait for the bases."""

    share: NamedShare
    block: tuple[str, int]
    statement: Statement
    anchor: Finding


def _against_named_values(ctx: RuleContext, parts: list[tuple[Section, list[_Base | _Share]]]) -> Iterator[Finding]:
    """Each share of a named quantity against the values the paper gives that quantity."""
    items = [item for _, found in parts for item in found]
    bases: dict[tuple[str, str], list[_Base]] = {}
    for item in items:
        if isinstance(item, _Base):
            bases.setdefault((item.noun, item.unit), []).append(item)
    for item in items:
        if not isinstance(item, _Share):
            continue
        share = item.share
        values = {base.value.value: base for base in bases.get((share.noun, share.unit), [])}
        if not 1 <= len(values) <= _MOST_VALUES:
            continue
        if any(BasedPercentage(share.value, share.percent, base.value, share.estimate).recomputes() for base in values.values()):
            continue
        where = "another paragraph" if all(base.block != item.block for base in values.values()) else "another sentence"
        evidence = Evidence(
            kind=f"weak: percentage of a named quantity whose value is stated in {where}",
            statements=[item.statement, *(base.statement for base in values.values())],
            reason=f"no value the paper gives the {share.noun} in {share.unit} gives the percentage",
        )
        violation = ShareOfNamedMiscomputed(share, tuple(values))
        yield item.anchor.model_copy(update={"message": violation.message, "evidence": evidence})


@rule(
    "ARI017",
    "share-of-named-quantity-mismatch",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=_against_named_values,
    placed_parts=True,  # each share's finding and each base's statement, placed in their section
)
def share_of_named_mismatch(ctx: RuleContext, section: Section) -> Iterator[_Base | _Share]:
    """## What it does
    Recomputes a percentage a sentence states of a named quantity whose value it does not write
    ("a load of 50 g, which corresponds to 35.7% of its weight") from the value the paper gives
    that quantity in another sentence or paragraph, in the same unit ("a mass of 177 g"). A
    paper may give the quantity up to three values (two vehicles, two masses); the percentage
    is flagged when none of them gives it, within the rounding of the numbers.

    ## Why is this bad?
    A reader who meets "35.7% of its weight" looks back for the weight and divides. When the
    paper's own value gives another percentage (50 / 177 = 28.2%), the share, the load or the
    stated mass is wrong, often left from an earlier version of the setup.

    ## Example
    ```latex
    The miniquad has a mass of 177g. ...
    we add a load of 50g, which corresponds to 35.7\\% of its weight.
    ```

    ## Use instead
    ```latex
    we add a load of 50g, which corresponds to 28.2\\% of its weight.
    ```

    ## Evidence
    "weak: percentage of a named quantity whose value is stated in another paragraph" (or "in
    another sentence" of the same paragraph): the base is found by its noun and unit, not by
    what the sentence points at, so the rule reports at information until measured.

    ## Fix safety
    No fix: the wrong number may be the percentage, the value or the base.
    """
    for placed in prose_blocks(section):
        text = placed.block.plain.text
        block = (placed.file, placed.block.start)
        shares = named_shares(text)
        for share in shares:
            statement = quoted(ctx, placed, share.value.start, share.noun_end, "stated percentage")
            anchor = ctx.flag_block(ShareOfNamedMiscomputed(share, ()), placed, share.percent.start, share.percent.end)
            yield _Share(share, block, statement, anchor)
        own = {share.value.start for share in shares}
        for named in named_values(text):
            if named.value.start not in own:  # "a load of 50 g, which is 28% of its weight" names the share's value, not a base
                yield _Base(named.noun, named.unit, named.value, block, quoted(ctx, placed, named.start, named.end, "stated value"))
