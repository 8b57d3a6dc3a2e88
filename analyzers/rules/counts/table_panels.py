"""CNT007: a panel a table's note or a sentence names ("Panel B", "This table has two panels") that the table does not title."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...quantities import TableAt, shown_table, tables_at_by_label
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .table_rows import PanelClaim, panel_claims, panel_titles, untitled_panel

# How the text ties the panel to the table: a float's own caption or note speaks of the table below it; a sentence
# elsewhere names the table it means ("Panel B of Table 2").
OWN_NOTE = "strong: a table's caption or note names its own panels"
CITED = "moderate: a sentence names a panel of the table it cites"
_NAMING = (BlockKind.TABLE, BlockKind.CAPTION, BlockKind.PARAGRAPH, BlockKind.FOOTNOTE)  # the blocks that may name a panel


@violation_type
class TablePanelsMismatch(Violation):
    label: str
    claim: PanelClaim
    titles: tuple[int | None, ...]

    @property
    def named(self) -> str:
        stated, panel = self.claim.stated, self.claim.panel or 1
        return f"{stated} panels" if stated is not None else "Panel " + chr(ord("A") + panel - 1)

    @property
    def message(self) -> str:
        count = len(self.titles)
        titled = ", ".join("Panel " + chr(ord("A") + title - 1) if title else "unlettered" for title in self.titles)
        said = f"says Table {self.label} has {self.named}" if self.claim.stated is not None else f"names {self.named} of Table {self.label}"
        return f"the text {said}, but the table titles {count} panel{'s' * (count != 1)} ({titled})"

    @property
    def identity(self) -> str:
        return f"{self.label} {self.named}"


@dataclass(frozen=True, slots=True, eq=False)
class _Claim:
    claim: PanelClaim
    label: str
    evidence: str
    block: int  # the block's place in its section: one finding for each text and table
    anchor: Finding  # where the panel is named, placed while its section was read


def _claims_against_tables(ctx: RuleContext, parts: list[tuple[Section, list[TableAt | _Claim]]]) -> Iterator[Finding]:
    """Each named panel against the panels every part of its table titles (a table laid out as several tabulars
    under one label titles a panel in each), wherever that table sits."""
    titles = {
        label: [title for _, table in tabulars for title in panel_titles(table)]
        for label, tabulars in tables_at_by_label(parts, TableAt).items()
    }
    for _, items in parts:
        reported: set[tuple[int, str]] = set()  # a note naming two missing panels names them for one reason
        for item in items:
            if not isinstance(item, _Claim) or (item.block, item.label) in reported:
                continue
            if not untitled_panel(item.claim, titles.get(item.label, [])):
                continue
            reported.add((item.block, item.label))
            violation = TablePanelsMismatch(item.label, item.claim, tuple(titles[item.label]))
            anchor = item.anchor
            evidence = Evidence(
                kind=item.evidence,
                statements=[Statement(file=anchor.file, range=anchor.range, quote=violation.named, role="named panel")],
                reason="the table's rows title its panels, and they are not the panels the text names",
            )
            yield anchor.model_copy(update={"message": violation.message, "identity": violation.identity, "evidence": evidence})


@rule(
    "CNT007",
    "table-panels-mismatch",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=_claims_against_tables,
    placed_parts=True,  # tables by block index within the section, named panels by their findings' ranges
)
def table_panels_mismatch(ctx: RuleContext, section: Section) -> Iterator[TableAt | _Claim]:
    """## What it does
    Reads the panels a table titles in its rows ("Panel A: Speed of payment", "Panel : Survey
    Data") and checks what its own caption and notes say of them ("This table has two panels.
    Panel A uses administrative data, while Panel B …"), and what a sentence anywhere says of
    the table it cites ("Panel B of Table~\\ref{t}", "Table~\\ref{t}, Panel B"): a named panel
    the table does not title, or a number of panels that is not the number it titles. Tables
    that title no panel are left alone (their panels, if any, are not told apart by the
    source), and so is a table whose first titled panel is not the first ("Panel C" first:
    the rest of a table split over two floats).

    ## Why is this bad?
    A note that describes panels the table does not have was written for another version of
    the table: a panel was dropped, split off or merged, and the note (and every sentence
    citing the panel) sends the reader to numbers that are not there.

    ## Example
    ```latex
    \\begin{tabular}{lcc}
     & Control & Treated \\\\
    \\multicolumn{3}{c}{Panel : Survey data} \\\\
    Age & 43.3 & 42.9 \\\\
    \\end{tabular}
    This table has two panels. Panel A uses administrative data, Panel B survey data.
    ```

    ## Use instead
    ```latex
    This table uses survey data.
    ```

    ## Fix safety
    No fix: the note may be right and a panel missing from the table.

    ## Evidence
    "strong: a table's caption or note names its own panels" for a float's own caption or
    note; "moderate: a sentence names a panel of the table it cites" for a sentence naming
    a table by its label.
    """
    for block, placed in enumerate(section.blocks):
        shown = shown_table(placed)
        if shown is not None:
            yield TableAt(shown.labels, block)
        if placed.kind in _NAMING and "anel" in placed.block.plain.text:
            yield from _claims(ctx, placed, block)


def _claims(ctx: RuleContext, placed: PlacedBlock, block: int) -> Iterator[_Claim]:
    """The panels a block names, each with the table it names them of: the table it cites, or, in a float's caption
    or note, the float's own table."""
    own = placed.block.labels + placed.block.describes if placed.kind is not BlockKind.PARAGRAPH else []
    for claim in panel_claims(placed.block.plain.text):
        label, evidence = (claim.label, CITED) if claim.label else (own[0] if own else None, OWN_NOTE)
        if label is not None:
            yield _Claim(claim, label, evidence, block, ctx.report_block(placed, claim.start, claim.end, ""))
