"""TAB015: a column its caption or note defines as a difference or a ratio of two named columns, whose every row gives the operation the other way round.

## How it decides
The definition is a sentence of the table's caption or notes (its float's caption, the notes written in its block, or
a float of its label around an `\\input` grid) that defines a quantity as an operation on two operands whose order the
operator fixes: "Δ L2FC is the log2 fold change of (5) minus (3)", "Speed-up is the runtime of the baseline divided
by that of ours", "R is the ratio of (2) to (1)", "Δ is B subtracted from A" (`stated_derivations`). "The difference
between A and B" and "the change from A to B" are left alone: they do not say which side is subtracted.

Each operand names one column: by the number the paper gives an analysis or model ("(5)", in the column's header),
or by the words nearest the operator, all of them in one header only. The defined column is the one other column
whose header holds every word of the quantity's name ("Δ (3) vs (5) L2FC" for "Δ L2FC"). The body rows with the
three cells are recomputed within the rounding of all three (`Derivation.holds`). When two rows or more follow the
operation with its operands swapped (the difference's opposite sign, the reciprocal ratio) and none follows it as
written, the definition and the cells disagree on the direction, and the definition is flagged. A definition that
its rows follow, or that fits neither order, is left alone: the second is either another operation than the one
read or a column TAB004 recomputes row by row.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .definitions import StatedDerivation, defined_column, operand_column, stated_derivations
from .model import Grid, author_rule_macros, derivation_statements, fit, is_aggregate_row, table_blocks


@violation_type
class DefinitionReversed(Violation):
    table: str | None  # its label
    name: str  # the quantity defined, as written: "Δ L2FC"
    stated: str  # the operation as defined, on the columns' names: "GTEx L2FC (5) − HD+ L2FC (3)"
    reversed: str  # the operation the rows follow: "HD+ L2FC (3) − GTEx L2FC (5)"
    example: str  # one row recomputed: "CFAP157: -0.13 − 4.30 = -4.43"
    rows: int  # how many rows follow the reversed operation

    @property
    def message(self) -> str:
        name = f"Table {self.table}" if self.table else "the table"
        return f"the note defines {self.name} as {self.stated}, but all {self.rows} rows of {name} give {self.reversed} ({self.example})"

    @property
    def identity(self) -> str:
        return f"{self.table} {self.name} {self.stated}"


_NOTE_KINDS = (BlockKind.CAPTION, BlockKind.TABLE)


@rule(
    "TAB015",
    "derived-definition-reversed",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
)
def derived_definition_reversed(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Reads a table's caption and notes for the definition of a column as a difference or a ratio
    of two other columns, in an order the words fix ("Δ L2FC is the log2 fold change of (5) minus
    (3)", "Speed-up is the runtime of the baseline divided by that of ours"), finds the three
    columns (an operand by the number the paper gives it, "(5)", or by its header's words), and
    recomputes every row. When the rows all follow the operation the other way round (the
    opposite sign of the difference, the reciprocal of the ratio) and none follows it as
    defined, the definition is flagged.

    ## Why is this bad?
    The definition tells the reader which way a sign points: "a positive Δ means higher in (5)".
    When every cell is the reversed difference, each positive value in the table means the
    opposite of what the note says, and so does every conclusion a reader draws from it.

    ## Example
    ```latex
    Gene & HD (3) & GTEx (5) & $\\Delta$ L2FC \\\\
    CFAP157 & -0.13 & 4.30 & -4.43 \\\\
    MMP8 & 4.70 & 0.13 & 4.57 \\\\
    \\caption{$\\Delta$ L2FC is the log2 fold change of (5) minus (3).}
    ```

    ## Use instead
    ```latex
    \\caption{$\\Delta$ L2FC is the log2 fold change of (3) minus (5).}
    ```

    ## Evidence
    "moderate: a note's definition that every row reverses" when two rows or more follow the
    reversed operation and none the defined one.

    ## Fix safety
    No fix: the definition may be the one that is right, and the cells (with what the text says
    of them) the ones to change.
    """
    rule_macros = author_rule_macros(ctx)
    for placed in table_blocks(section):
        grid = Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]  # `table_blocks` gives parsed tables
        for note in _note_blocks(section, placed):
            for definition, start in _definitions(note):
                finding = _reversed(ctx, placed, grid, note, start, definition)
                if finding is not None:
                    yield finding


def _note_blocks(section: Section, placed: PlacedBlock) -> list[PlacedBlock]:
    """Where a table's caption and notes are: its own block, and the section's caption and grid-less table blocks
    that bear or describe one of its labels (the float around an `\\input` grid)."""
    labels = {label for label in (placed.block.table.label, *placed.block.labels) if label}  # type: ignore[union-attr]
    return [placed] + [
        other
        for other in section.blocks
        if other is not placed
        and other.kind in _NOTE_KINDS
        and other.block.table is None
        and labels.intersection((*other.block.labels, *other.block.describes))
    ]


def _definitions(note: PlacedBlock) -> Iterator[tuple[StatedDerivation, int]]:
    """Each definition in the note's sentences (not the grid's rows, which a table block's text holds too), with
    where its sentence starts."""
    text = note.block.plain.text
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        if "&" not in sentence:
            for definition in stated_derivations(sentence):
                yield definition, start


def _reversed(
    ctx: RuleContext, placed: PlacedBlock, grid: Grid, note: PlacedBlock, start: int, definition: StatedDerivation
) -> Finding | None:
    left = operand_column(grid, definition.left, (), first=True)
    right = operand_column(grid, definition.right, (left,), first=False) if left is not None else None
    column = defined_column(grid, definition.name, (left, right)) if left is not None and right is not None else None
    if left is None or right is None or column is None:
        return None
    rows = [row for row in grid.body_rows() if not is_aggregate_row(grid.row_header(row))]
    stated = fit(grid, column, rows, left, right, definition.derivation)
    swapped = fit(grid, column, rows, right, left, definition.derivation)
    if stated.held or len(swapped.held) < 2 or swapped.failed:
        return None
    printed = ctx.index.printed
    names = (printed(grid.column_name(left)), printed(grid.column_name(right)))
    formula = definition.derivation.formula
    row = swapped.held[0]
    cell, first, second = grid.numeric(row, column), grid.numeric(row, right), grid.numeric(row, left)
    assert cell is not None and first is not None and second is not None  # a row that follows has the three cells
    example = f"{printed(grid.row_header(row))}: {formula.format(a=first.text, b=second.text)} = {cell.text}"
    violation = DefinitionReversed(
        grid.table.label,
        " ".join(printed(definition.name).split()),
        formula.format(a=names[0], b=names[1]),
        formula.format(a=names[1], b=names[0]),
        example,
        len(swapped.held),
    )
    evidence = Evidence(
        kind="moderate: a note's definition that every row reverses",
        statements=derivation_statements(ctx, placed.file, grid, cell, first, second),
        reason=f"{len(swapped.held)} rows give {violation.reversed}; none gives {violation.stated}",
    )
    related = [ctx.related(placed.file, part.start, part.end, "recomputed") for part in (cell, first, second)]
    return ctx.flag_block(violation, note, start + definition.start, start + definition.end, related=related, evidence=evidence)
