"""What the TAB rules read in a table: its grid of cells, which direction of a column is better,
which rows are references, and how an aggregate or a derived cell follows from other cells.

A table is read as a `Grid`: cells addressed by (row, column), the header rows apart from the
body, the rules that split the body into groups of rows, and the ✓/✗ columns that set rows apart.
An aggregate (an Avg row or column) `adds_up` when it is the mean or the sum of some run of the
cells it summarises, within the rounding of every cell; a derived column follows a `Derivation`
(ratio, difference, relative change) of two other columns, row by row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind, Cell, Table
from ....latex.tables import is_rule, rule_macros
from ...context import RuleContext
from ...quantities import agrees, slack

_HIGHER = re.compile(
    r"↑|\\uparrow|\b(acc|accuracy|f1|auc|auroc|precision|recall|bleu|rouge\S*|map|miou|iou|psnr|ssim|success|sr|win|"
    r"top-?[15]|ndcg|hit|reward|return|score)\b",
    re.IGNORECASE,
)
_LOWER = re.compile(
    r"↓|\\downarrow|\b(error|errors|err|loss|perplexity|ppl|fid|kid|mse|rmse|mae|ece|lpips|chamfer|cd|latency|"
    r"wer|cer|distance|regret|failures?|failure\s+rate|violations?|collisions?|crash(?:es)?|(?:epochs|steps)\s+to)\b",
    re.IGNORECASE,
)
# Rows that are references, not competitors: nobody bolds the oracle, the teacher or the run with extra data.
_REFERENCE_ROW = re.compile(
    r"\b(oracle|upper[- ]bound|human|ground[- ]truth|gt|fully[- ]supervised|(?<!-)supervised|random|chance|topline|teacher|"
    r"privileged|(?:extra|additional|external)\s+(?:data|training\s+data|information))\b",
    re.IGNORECASE,
)
# A cell of a ✓/✗ column: which setting a row belongs to (uses extra data, needs labels, ...).
_MARK = re.compile(r"^\s*(?:✓|✔|✗|✘|×|√|\\checkmark|\\cmark|\\xmark|\\ding\{?5[0-9]\}?|\\(?:tick|cross)\w*|yes|no)\s*$", re.IGNORECASE)
_UNMARKED = re.compile(r"^\s*(?:[-–—]+|n/a)?\s*$", re.IGNORECASE)
# Evidence weights for a finding's confidence: where a column's direction was read.
DIRECTION_WEIGHT = {"arrow": 1.0, "header": 0.95, "caption": 0.85, "claim": 0.7}
SET_APART = 0.6  # the better row belongs to another group of rows (a rule or a ✓/✗ column sets it apart)
WITHIN_SPREAD = 0.85  # the gap is within the rows' ± spreads


@dataclass(slots=True)
class Grid:
    """A table's cells addressed by (row, column), header rows excluded from `body`. The author's
    own rule macros (`\\shline`) count as rules: they end the header and split the body into groups."""

    table: Table
    cells: dict[tuple[int, int], Cell]
    header_rows: int
    rule_rows: list[int]  # rows a rule is drawn above
    author_rules: dict[int, list[str]]  # row → the author's rule macros written at its start
    mark_columns: list[int]  # ✓/✗ columns

    @classmethod
    def of(cls, table: Table, rule_macros: frozenset[str] = frozenset()) -> Grid:
        author_rules: dict[int, list[str]] = {}
        for row, name in table.rules:
            if name in rule_macros:
                author_rules.setdefault(row, []).append(name)
        rule_rows = sorted({row for row, name in table.rules if is_rule(name) or name in rule_macros})
        header_rows = table.header_rows
        if author_rules:  # the header ends at the first inner rule, the author's included
            inner = [row for row in rule_rows if 0 < row < len(table.rows)]
            header_rows = max(1, min(inner[0], len(table.rows) - 1)) if inner else header_rows
        grid = cls(table, {(cell.row, cell.column): cell for row in table.rows for cell in row}, header_rows, rule_rows, author_rules, [])
        grid.mark_columns = grid._marked_columns()
        return grid

    def body_rows(self) -> range:
        return range(self.header_rows, len(self.table.rows))

    def columns(self) -> range:
        return range(1, max((cell.column + cell.column_span for row in self.table.rows for cell in row), default=1))

    def row_header(self, row: int) -> str:
        """The row's first cell, without an author's rule macro written before it."""
        text = self.table.row_header(row)
        for name in self.author_rules.get(row, ()):
            text = re.sub(rf"^\s*\\{re.escape(name)}", "", text)
        return text.strip()

    def column_header(self, column: int) -> str:
        return " ".join(
            cell.text
            for row in self.table.rows[: self.header_rows]
            for cell in row
            if cell.column <= column < cell.column + cell.column_span and cell.text
        )

    def own_header(self, column: int) -> str:
        """The lowest header cell over a column: "Avg" under a spanning "Accuracy (%)"."""
        for row in reversed(self.table.rows[: self.header_rows]):
            for cell in row:
                if cell.column <= column < cell.column + cell.column_span and cell.text.strip():
                    return cell.text
        return ""

    def groups(self) -> list[range]:
        """Column ranges under a spanning header cell ("CIFAR-10N" over its four columns)."""
        return [
            range(cell.column, cell.column + cell.column_span)
            for row in self.table.rows[: self.header_rows]
            for cell in row
            if cell.column_span > 1
        ]

    def numeric(self, row: int, column: int) -> Cell | None:
        cell = self.cells.get((row, column))
        return cell if cell is not None and cell.value is not None and cell.column_span == 1 else None

    def is_reference(self, row: int) -> bool:
        """An oracle, teacher, upper bound or extra-data row, named in any of its text cells."""
        return any(cell.value is None and _REFERENCE_ROW.search(cell.text) for cell in self.table.rows[row]) or bool(
            _REFERENCE_ROW.search(self.row_header(row))
        )

    def is_reference_column(self, column: int) -> bool:
        """A random, human or oracle column: a reference, not a competitor."""
        return bool(_REFERENCE_ROW.search(self.column_header(column)))

    def row_set(self, row: int) -> tuple[int, tuple[str, ...]]:
        """Which group a body row belongs to: the rules above it, and its ✓/✗ marks."""
        rules = sum(1 for ruled in self.rule_rows if self.header_rows < ruled <= row)
        marks = tuple(" ".join(cell.text.split()) for column in self.mark_columns if (cell := self.cells.get((row, column))))
        return rules, marks

    def _marked_columns(self) -> list[int]:
        columns = []
        for column in self.columns():
            texts = [cell.text for row in self.body_rows() if (cell := self.cells.get((row, column)))]
            marked = [text for text in texts if _MARK.match(text)]
            if len(marked) >= 2 and all(_MARK.match(text) or _UNMARKED.match(text) for text in texts):
                columns.append(column)
        return columns


def author_rule_macros(ctx: RuleContext) -> frozenset[str]:
    """The author's macros that draw table rules (`\\newcommand\\shline{…\\hline…}`)."""
    return rule_macros(macro for _, macro in ctx.index.macros)


def table_blocks(section: Section) -> list[PlacedBlock]:
    """The section's parsed tables (what the index lists as tables, section by section)."""
    return [placed for placed in section.blocks if placed.kind is BlockKind.TABLE and placed.block.table is not None]


# How a derived column's cell follows from two other cells of its row.
Derivation = Callable[[float, float], float | None]
DERIVATIONS: dict[str, Derivation] = {
    "ratio": lambda a, b: a / b if b else None,
    "difference": lambda a, b: a - b,
    "relative": lambda a, b: (a - b) / b * 100 if b else None,
}


def derived_agrees(grid: Grid, aggregate_row: int, column: int, rows: list[int]) -> bool:
    """The aggregate row's cell in `column` is the ratio, difference or relative change of two of
    its own cells, as the column's cells are of theirs in (nearly) every row: "Imp. ×" = Ours / Baseline."""
    total = grid.numeric(aggregate_row, column)
    if total is None:
        return False
    columns = [c for c in grid.columns() if c != column]
    for derive in DERIVATIONS.values():
        for a in columns:
            for b in columns:
                if a != b and follows(grid, aggregate_row, column, a, b, derive) and column_follows(grid, rows, column, a, b, derive):
                    return True
    return False


def follows(grid: Grid, row: int, column: int, a: int, b: int, derive: Derivation) -> bool:
    cell, left, right = grid.numeric(row, column), grid.numeric(row, a), grid.numeric(row, b)
    if cell is None or left is None or right is None:
        return False
    value = derive(left.value, right.value)  # type: ignore[arg-type]  # numeric() cells have a value
    return value is not None and agrees(cell.value, cell.decimals, value)  # type: ignore[arg-type]


def column_follows(grid: Grid, rows: list[int], column: int, a: int, b: int, derive: Derivation) -> bool:
    """At least two rows, and four in five of those with the three cells, follow the derivation."""
    checked = [row for row in rows if grid.numeric(row, column) and grid.numeric(row, a) and grid.numeric(row, b)]
    held = sum(1 for row in checked if follows(grid, row, column, a, b, derive))
    return held >= 2 and held * 5 >= len(checked) * 4


def runs(total: Cell, peers: list[Cell], column_wise: bool, groups: Sequence[range]) -> list[list[Cell]]:
    """The cells an aggregate may cover: all, all on one side (dropping at most half, for a leading
    "Params" column), or one group (under a spanning header; the rows an aggregate row closes); the
    preferred candidate first, a closed group of rows before the rest."""
    position: Callable[[Cell], int] = (lambda cell: cell.row) if column_wise else (lambda cell: cell.column)
    before = [cell for cell in peers if position(cell) < position(total)]
    after = [cell for cell in peers if position(cell) > position(total)]
    sides = [before[drop:] for drop in range(0, len(before) // 2)]
    sides += [after[: len(after) - drop] for drop in range(0, len(after) // 2)]
    grouped = [[cell for cell in peers if position(cell) in group] for group in groups]
    candidates = grouped + sides if column_wise else sides + grouped
    return [run for run in candidates + [peers] if len(run) >= 2]


def adds_up(total: Cell, peers: list[Cell], column_wise: bool, groups: Sequence[range]) -> bool:
    return any(summarises(total, run) for run in runs(total, peers, column_wise, groups))


def summarises(total: Cell, run: list[Cell]) -> bool:
    values = [cell.value for cell in run]
    rounding = max(slack(cell.decimals) for cell in run)
    mean = sum(values) / len(values)  # type: ignore[arg-type]
    if abs(mean - total.value) <= slack(total.decimals) + rounding:  # type: ignore[operator]
        return True
    return abs(sum(values) - total.value) <= slack(total.decimals) + rounding * len(values)  # type: ignore[arg-type, operator]


def direction(header: str, caption: str | None) -> int:
    """+1 when higher is better, -1 when lower is better, 0 when the table does not say."""
    return read_direction(header, caption)[0]


def read_direction(header: str, caption: str | None) -> tuple[int, str]:
    """The direction and where it was read: "arrow" (↑/↓ in the header), "header" (the metric's
    name in the header) or "caption"; (0, "") when the table does not say."""
    arrows = (bool(re.search(r"↑|\\uparrow", header)), bool(re.search(r"↓|\\downarrow", header)))
    if arrows[0] != arrows[1]:
        return (1 if arrows[0] else -1), "arrow"
    for text, where in ((header, "header"), (caption or "", "caption")):
        higher, lower = bool(_HIGHER.search(text)), bool(_LOWER.search(text))
        if higher != lower:
            return (1 if higher else -1), where
        if higher and lower:
            return 0, ""
    return 0, ""


def spread_overlaps(first: Cell, second: Cell) -> bool:
    """The gap between two `mean ± std` cells is within their spreads."""
    spreads = [cell.spread for cell in (first, second) if cell.spread is not None]
    return bool(spreads) and abs(first.value - second.value) <= max(spreads)  # type: ignore[operator]
