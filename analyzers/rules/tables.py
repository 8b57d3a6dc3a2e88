"""TAB: tables that contradict themselves (aggregates, best-value marks) or the claims about them."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ...latex.manuscript import PlacedBlock, Section
from ...latex.model import BlockKind, Cell, Table
from ...latex.sentences import sentence_spans
from ...latex.tables import is_rule, rule_macros
from ..context import RuleContext
from ..finding import Category, Evidence, Finding, Related, Severity, Statement
from ..memo import TEXT_CACHE_SIZE
from ..quantities import AGGREGATE_COLUMN_HEADER, AGGREGATE_HEADER, agrees, name_words, referenced_labels, slack, spelled
from ..registry import Scope, rule

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
# Evidence weights for a finding's confidence.
_DIRECTION_WEIGHT = {"arrow": 1.0, "header": 0.95, "caption": 0.85, "claim": 0.7}
_SET_APART = 0.6  # the better row belongs to another group of rows (a rule or a ✓/✗ column sets it apart)
_WITHIN_SPREAD = 0.85  # the gap is within the rows' ± spreads
_OURS_WEIGHT = 0.9  # "our method" read as the row marked "Ours", not named by its own words


@dataclass(slots=True)
class _Grid:
    """A table's cells addressed by (row, column), header rows excluded from `body`. The author's
    own rule macros (`\\shline`) count as rules: they end the header and split the body into groups."""

    table: Table
    cells: dict[tuple[int, int], Cell]
    header_rows: int
    rule_rows: list[int]  # rows a rule is drawn above
    author_rules: dict[int, list[str]]  # row → the author's rule macros written at its start
    mark_columns: list[int]  # ✓/✗ columns

    @classmethod
    def of(cls, table: Table, rule_macros: frozenset[str] = frozenset()) -> _Grid:
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


def _rule_macros(ctx: RuleContext) -> frozenset[str]:
    """The author's macros that draw table rules (`\\newcommand\\shline{…\\hline…}`)."""
    return rule_macros(macro for _, macro in ctx.index.macros)


@rule(
    "TAB001", "table-aggregate-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "macros"), scope=Scope.SECTION
)
def table_aggregate_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes the cells of an Avg / Average / Mean / Overall / Total / Sum row or column
    (a column also when its header names the aggregate of a measure: "Overall Error Rate",
    "Mean F1 (%)") and flags one that equals neither the mean nor the sum of the cells it
    summarises.
    Rounding of every cell is allowed for, `±std` parts are ignored, bold and `%` are read
    through, and empty cells are skipped. Because an average often covers only some of the
    columns, every run of adjacent cells next to the aggregate is tried before flagging; an
    aggregate row that closes a group of rows ("Video, Audio, Overall" twice, for two
    conditions) may cover the rows since the previous aggregate row.
    In a derived column (an "Imp. ×" or "Δ" column whose cells are the ratio or difference
    of two other columns, row by row), the aggregate row may hold that ratio or difference
    of its own aggregates instead. Tables ruled with the author's own macros
    (`\\newcommand\\shline{…\\hline…}`) are split into header and body like any other.

    ## Why is this bad?
    An altered average is the cheapest way to inflate a result: readers look at the last
    column, not at the arithmetic. PaperAudit plants exactly this ("Table 7 average altered
    without split changes"); it is evidence manipulation.

    ## Example
    ```latex
    Method & A & B & Avg \\\\ \\midrule
    Ours   & 80.0 & 90.0 & 87.0 \\\\
    ```

    ## Use instead
    ```latex
    Ours   & 80.0 & 90.0 & 85.0 \\\\
    ```

    ## Confidence
    0.95 for a header that names the kind (Avg, Average, Mean, Total, Sum), times 0.8 for
    "Overall" (often a pooled figure, not a mean of the cells shown); times 0.8 when only one
    other aggregate of the same line adds up (little evidence the line is a plain mean); times
    0.85 for a near miss (within twice the rounding allowance). Below 0.7 the finding is
    information.

    ## Fix safety
    The fix writes the recomputed mean of all the cells beside the aggregate. It is unsafe:
    the average may be weighted or cover other columns, and a wrong average may mean a
    wrong cell.
    """
    rule_macros = _rule_macros(ctx)
    for placed in _tables(section):
        grid = _Grid.of(placed.block.table, rule_macros)  # type: ignore[arg-type]
        rows, columns = grid.body_rows(), grid.columns()
        for column in columns:
            if AGGREGATE_COLUMN_HEADER.match(grid.own_header(column)):
                others = [c for c in columns if c != column and not AGGREGATE_COLUMN_HEADER.match(grid.own_header(c))]
                line = [(grid.numeric(row, column), [grid.numeric(row, c) for c in others]) for row in rows]
                yield from _check_line(ctx, placed, grid, line, column_wise=False, groups=grid.groups())
        aggregate_rows = [row for row in rows if AGGREGATE_HEADER.match(grid.row_header(row))]
        for row in aggregate_rows:
            others = [r for r in rows if r not in aggregate_rows]
            line = [
                (grid.numeric(row, column), [grid.numeric(r, column) for r in others])
                for column in columns
                if not _derived_agrees(grid, row, column, others)
            ]
            # An aggregate row may close a group: it summarises the rows since the previous aggregate row.
            opened = max((r + 1 for r in aggregate_rows if r < row), default=grid.header_rows)
            yield from _check_line(ctx, placed, grid, line, column_wise=True, groups=[range(opened, row)])


def _tables(section: Section) -> list[PlacedBlock]:
    """The section's parsed tables (what the index lists as tables, section by section)."""
    return [placed for placed in section.blocks if placed.kind is BlockKind.TABLE and placed.block.table is not None]


def _check_line(
    ctx: RuleContext,
    placed: PlacedBlock,
    grid: _Grid,
    line: list[tuple[Cell | None, list[Cell | None]]],
    column_wise: bool,
    groups: Sequence[range] = (),
) -> Iterator[Finding]:
    """Check every aggregate cell of one Avg column (or row); trust the line only if most of it adds up."""
    verdicts = []
    for total, peers in line:
        present = [cell for cell in peers if cell is not None]
        if total is not None and len(present) >= 2:
            verdicts.append((total, present, _adds_up(total, present, column_wise, groups)))
    matches = sum(1 for *_, ok in verdicts if ok)
    wrong = [(total, peers) for total, peers, ok in verdicts if not ok]
    if not wrong or matches == 0 or len(wrong) > max(1, matches // 2):
        return  # an "Avg" that never adds up is weighted, or is not an aggregate at all
    for aggregate, cells in wrong:
        yield _report_aggregate(ctx, placed, grid, aggregate, cells, column_wise, matches, groups if column_wise else ())


# How a derived column's cell follows from two other cells of its row.
_Derivation = Callable[[float, float], float | None]
_DERIVATIONS: dict[str, _Derivation] = {
    "ratio": lambda a, b: a / b if b else None,
    "difference": lambda a, b: a - b,
    "relative": lambda a, b: (a - b) / b * 100 if b else None,
}


def _derived_agrees(grid: _Grid, aggregate_row: int, column: int, rows: list[int]) -> bool:
    """The aggregate row's cell in `column` is the ratio, difference or relative change of two of
    its own cells, as the column's cells are of theirs in (nearly) every row: "Imp. ×" = Ours / Baseline."""
    total = grid.numeric(aggregate_row, column)
    if total is None:
        return False
    columns = [c for c in grid.columns() if c != column]
    for derive in _DERIVATIONS.values():
        for a in columns:
            for b in columns:
                if a != b and _follows(grid, aggregate_row, column, a, b, derive) and _column_follows(grid, rows, column, a, b, derive):
                    return True
    return False


def _follows(grid: _Grid, row: int, column: int, a: int, b: int, derive: _Derivation) -> bool:
    cell, left, right = grid.numeric(row, column), grid.numeric(row, a), grid.numeric(row, b)
    if cell is None or left is None or right is None:
        return False
    value = derive(left.value, right.value)  # type: ignore[arg-type]  # numeric() cells have a value
    return value is not None and agrees(cell.value, cell.decimals, value)  # type: ignore[arg-type]


def _column_follows(grid: _Grid, rows: list[int], column: int, a: int, b: int, derive: _Derivation) -> bool:
    """At least two rows, and four in five of those with the three cells, follow the derivation."""
    checked = [row for row in rows if grid.numeric(row, column) and grid.numeric(row, a) and grid.numeric(row, b)]
    held = sum(1 for row in checked if _follows(grid, row, column, a, b, derive))
    return held >= 2 and held * 5 >= len(checked) * 4


def _runs(total: Cell, peers: list[Cell], column_wise: bool, groups: Sequence[range]) -> list[list[Cell]]:
    """The cells an aggregate may cover: all, all on one side (dropping at most half, for a leading
    "Params" column), or one group (under a spanning header; the rows an aggregate row closes); the
    preferred candidate first, a closed group of rows before the rest."""
    position: Callable[[Cell], int] = (lambda cell: cell.row) if column_wise else (lambda cell: cell.column)
    before = [cell for cell in peers if position(cell) < position(total)]
    after = [cell for cell in peers if position(cell) > position(total)]
    sides = [before[drop:] for drop in range(0, len(before) // 2)]
    sides += [after[: len(after) - drop] for drop in range(0, len(after) // 2)]
    grouped = [[cell for cell in peers if position(cell) in group] for group in groups]
    runs = grouped + sides if column_wise else sides + grouped
    return [run for run in runs + [peers] if len(run) >= 2]


def _adds_up(total: Cell, peers: list[Cell], column_wise: bool, groups: Sequence[range]) -> bool:
    return any(_summarises(total, run) for run in _runs(total, peers, column_wise, groups))


def _report_aggregate(
    ctx: RuleContext,
    placed: PlacedBlock,
    grid: _Grid,
    total: Cell,
    peers: list[Cell],
    column_wise: bool,
    matches: int,
    closed: Sequence[range] = (),
) -> Finding:
    chosen = _runs(total, peers, column_wise, closed)[0]
    mean = sum(cell.value for cell in chosen) / len(chosen)  # type: ignore[misc]
    table = placed.block.table
    assert table is not None  # only table blocks are checked
    header = grid.row_header(total.row) if not column_wise else grid.own_header(total.column)
    where = f"row {header}" if not column_wise else f"column {header}"
    name = f"Table {table.label}" if table.label else "a table"
    recomputed = spelled(mean, total.decimals)
    return ctx.report(
        placed.file,
        total.start,
        total.end,
        f"{name} ({ctx.index.printed(where)}) gives the aggregate {total.text}, but the mean of its {len(chosen)} cells is {recomputed}"
        f" and their sum is {spelled(sum(cell.value for cell in chosen), total.decimals)}",  # type: ignore[misc]
        identity=f"{table.label} {total.text} {recomputed}",
        related=[ctx.related(placed.file, chosen[0].start, chosen[-1].end, "the cells it summarises")],
        fixes=[
            ctx.fix(
                f"Replace with the recomputed mean {recomputed}", ctx.edit(placed.file, *_number_span(ctx, placed.file, total), recomputed)
            )
        ],
        # The aggregate's own name: an Avg column's header, an Avg row's header (not where the cell sits).
        confidence=_aggregate_confidence(grid.own_header(total.column) if not column_wise else header, total, chosen, matches),
    )


def _aggregate_confidence(header: str, total: Cell, chosen: list[Cell], matches: int) -> float:
    """See TAB001's "## Confidence"."""
    confidence = 0.95
    if re.match(r"^\W*overall\b", header, re.IGNORECASE):
        confidence *= 0.8
    if matches < 2:
        confidence *= 0.8
    values = [cell.value for cell in chosen]
    allowance = slack(total.decimals) + max(slack(cell.decimals) for cell in chosen)
    miss = min(abs(sum(values) / len(values) - total.value), abs(sum(values) - total.value))  # type: ignore[arg-type, operator]
    if miss <= 2 * allowance:
        confidence *= 0.85
    return round(confidence, 3)


def _summarises(total: Cell, run: list[Cell]) -> bool:
    values = [cell.value for cell in run]
    rounding = max(slack(cell.decimals) for cell in run)
    mean = sum(values) / len(values)  # type: ignore[arg-type]
    if abs(mean - total.value) <= slack(total.decimals) + rounding:  # type: ignore[operator]
        return True
    return abs(sum(values) - total.value) <= slack(total.decimals) + rounding * len(values)  # type: ignore[arg-type, operator]


def _number_span(ctx: RuleContext, file: str, cell: Cell) -> tuple[int, int]:
    """The source span of the cell's main number, for a fix that keeps its decoration."""
    match = re.search(re.escape(spelled(cell.value, cell.decimals)), ctx.source(file).text[cell.start : cell.end])  # type: ignore[arg-type]
    return (cell.start + match.start(), cell.start + match.end()) if match else (cell.start, cell.end)


def direction(header: str, caption: str | None) -> int:
    """+1 when higher is better, -1 when lower is better, 0 when the table does not say."""
    return _direction(header, caption)[0]


def _direction(header: str, caption: str | None) -> tuple[int, str]:
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


def _spread_overlaps(first: Cell, second: Cell) -> bool:
    """The gap between two `mean ± std` cells is within their spreads."""
    spreads = [cell.spread for cell in (first, second) if cell.spread is not None]
    return bool(spreads) and abs(first.value - second.value) <= max(spreads)  # type: ignore[operator]


@rule("TAB002", "bold-not-best", Category.CLAIM_DISTORTION, Severity.WARNING, reads=("blocks", "macros"), scope=Scope.SECTION)
def bold_not_best(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a bold (or `\\best`-style highlighted) cell that is not the best value of its
    column. The direction comes from ↑/↓ in the header, else from the metric's name in the
    header or caption: accuracy, F1, AUC, BLEU are higher-better; error, loss, perplexity,
    FID, distances, failures, "epochs to" converge are lower-better. Columns whose direction is unknown, and
    oracle / teacher / upper-bound / random / human / extra-data rows (named in any text cell)
    are left alone. So are tables whose bold means something else: the caption says bold marks
    significance or the best of each row, or most bold cells (in three rows or more) are the
    best of their own row within their header group, and more of them than of their column:
    methods compared across columns, one game or language pair per row. A column of p-values
    ("p", "Sig.") is no metric: bold there marks significance.

    Bold often marks the best of a group of rows: the rows between two rules (`\\midrule`,
    `\\hline`, `\\cline`, `\\addlinespace`, the author's own rule macros), or the rows with the
    same marks in a ✓/✗ column ("uses extra data"). When a column has bold in several groups,
    each group is judged on its own; several different bold values within one group are left
    alone.

    ## Why is this bad?
    Bold is a claim: "this is the best result". A bold that sits on a worse number moves
    the reader's eye to the wrong winner; it is claim distortion.

    ## Example
    ```latex
    Method & Acc.~$\\uparrow$ \\\\ \\midrule
    Baseline & 81.2 \\\\
    Ours & \\textbf{79.5} \\\\
    ```

    ## Use instead
    ```latex
    Baseline & \\textbf{81.2} \\\\
    Ours & 79.5 \\\\
    ```

    ## Confidence
    1.0 when the better row is in the bold cell's own group and ↑/↓ gives the direction;
    times 0.95 when the direction comes from the metric's name in the header, 0.85 from the
    caption; times 0.85 when the gap is within the cells' ± spreads; times 0.6 when the bold
    cell is the best of its own group (of two rows or more, or set apart by a ✓/✗ column) and
    only a row of another group is better: bold may mark the best of its group, so the
    finding is information.
    """
    rule_macros = _rule_macros(ctx)
    for placed in _tables(section):
        table = placed.block.table
        grid = _Grid.of(table, rule_macros)  # type: ignore[arg-type]
        if _BOLD_MEANS_OTHER.search(table.caption or "") or _marks_rows(grid, table.caption or ""):  # type: ignore[union-attr]
            continue
        settings = _row_settings(grid)
        for column in grid.columns():
            sense, source = _direction(grid.column_header(column), table.caption)  # type: ignore[union-attr]
            if not sense or _P_COLUMN.match(grid.own_header(column)):
                continue
            cells = [cell for row in grid.body_rows() if (cell := grid.numeric(row, column)) and not grid.is_reference(row)]
            bold = [cell for cell in cells if cell.bold]
            if not bold or len(bold) * 2 > len(cells):
                continue
            by_set: dict[tuple[int, tuple[str, ...]], list[Cell]] = {}
            for cell in cells:
                by_set.setdefault(grid.row_set(cell.row), []).append(cell)
            marked_sets = [members for members in by_set.values() if any(cell.bold for cell in members)]
            for members in marked_sets:
                marked = [cell for cell in members if cell.bold]
                if len({cell.value for cell in marked}) > 1:
                    continue  # several bold values in one group: per sub-setting, not one best
                # Bold in one group only claims the best of the column; bold in several, of each group.
                rivals = _rivals(marked[0], grid, settings)
                found = _better(marked[0], rivals(members), rivals(cells if len(marked_sets) == 1 else members), sense, grid)
                if found is not None:
                    yield _report_bold(ctx, placed, grid, column, marked[0], *found, sense, source)


_P_COLUMN = re.compile(r"^\W*(?:\$?p\$?(?:[- ]?values?)?|sig\.?|significance)\W*$", re.IGNORECASE)
# A caption that gives bold another meaning: significance, or the best of each row.
_BOLD_MEANS_OTHER = re.compile(
    r"(?:bold\w*|highlight\w*)[^.]{0,80}\b(?:signific\w*|p\s*[<≤])|signific\w*[^.]{0,60}\b(?:bold\w*|highlight\w*)"
    r"|\b(?:each|every|per)\s+row\b|\brow-?wise\b",
    re.IGNORECASE,
)


def _marks_rows(grid: _Grid, caption: str) -> bool:
    """Bold marks the best of each row, not of each column: methods compared across columns. Most bold
    cells (in three rows or more) are the best of their row, in their column's direction, among the
    columns of their header group (the whole row where a group holds only a value and its spread),
    leaving out reference columns (random, human, oracle) and parenthesised spreads; and more of them
    are the best of their row than of their column."""
    senses = {column: _direction(grid.column_header(column), caption)[0] for column in grid.columns()}
    # Only bold cells whose column's direction is known can be judged best of anything.
    bold = [
        cell
        for row in grid.body_rows()
        for column in grid.columns()
        if (cell := grid.numeric(row, column)) and cell.bold and senses[column]
    ]
    if len({cell.row for cell in bold}) < 3:
        return False
    groups = grid.groups()
    reference = {column for column in grid.columns() if _REFERENCE_ROW.search(grid.column_header(column))}

    def comparable(row: int, columns: Iterable[int]) -> list[Cell]:
        return [
            peer
            for column in columns
            if column not in reference and (peer := grid.numeric(row, column)) and not peer.text.lstrip().startswith("(")
        ]

    def row_peers(cell: Cell) -> list[Cell]:
        group = next((group for group in groups if cell.column in group), None)
        peers = comparable(cell.row, group) if group is not None else []
        return peers if len(peers) >= 2 else comparable(cell.row, grid.columns())

    def column_peers(cell: Cell) -> list[Cell]:
        return [
            peer for row in grid.body_rows() if (peer := grid.numeric(row, cell.column)) and grid.row_set(row) == grid.row_set(cell.row)
        ]

    def best(cell: Cell, peers: list[Cell]) -> bool:
        sense = senses[cell.column]
        others = [peer.value for peer in peers if peer is not cell]
        return bool(others) and all(sense * (cell.value - value) >= 0 for value in others)  # type: ignore[operator]

    by_row = sum(best(cell, row_peers(cell)) for cell in bold)
    by_column = sum(best(cell, column_peers(cell)) for cell in bold)
    return by_row > by_column and by_row >= 0.8 * len(bold)


# A text column that names the setting a row was measured in, not the method it measures.
_SETTING_HEADER = re.compile(r"\b(?:data\s*sets?|tasks?|benchmarks?|splits?|domains?|languages?|corpus|corpora)\b", re.IGNORECASE)


def _row_settings(grid: _Grid) -> dict[int, tuple[str, ...]]:
    """Each body row's setting: its values in the text columns headed as a dataset, task or benchmark
    (a method-by-dataset table); an empty cell continues the one above it (`\\multirow`)."""
    rows = list(grid.body_rows())
    labels: list[list[str]] = []
    for column in grid.columns():
        cells = [grid.cells.get((row, column)) for row in rows]
        if not _SETTING_HEADER.search(grid.own_header(column)) or not all(cell is not None and cell.value is None for cell in cells):
            continue
        values: list[str] = []
        for cell in cells:
            text = " ".join(cell.text.split()) if cell is not None else ""
            values.append(text or (values[-1] if values else ""))
        labels.append(values)
    return {row: tuple(values[index] for values in labels) for index, row in enumerate(rows)}


def _rivals(marked: Cell, grid: _Grid, settings: dict[int, tuple[str, ...]]) -> Callable[[list[Cell]], list[Cell]]:
    """The cells a bold one competes with: rows of its own setting that name something (a row whose text
    cells are all empty continues the one above: another setting of the same method)."""

    def named(row: int) -> bool:
        return any(cell.value is None and cell.text.strip() for cell in grid.table.rows[row])

    def rivals(cells: list[Cell]) -> list[Cell]:
        return [cell for cell in cells if cell is marked or (settings[cell.row] == settings[marked.row] and named(cell.row))]

    return rivals


def _better(marked: Cell, members: list[Cell], candidates: list[Cell], sense: int, grid: _Grid) -> tuple[Cell, bool] | None:
    """A cell better than the bold one beyond rounding, from its own group first; and whether
    only another group beats it while it is the best of a group of its own (set apart)."""

    def beats(cell: Cell) -> bool:
        return sense * (cell.value - marked.value) > slack(min(marked.decimals, cell.decimals))  # type: ignore[operator]

    best_within = max(members, key=lambda cell: sense * cell.value)  # type: ignore[operator]
    if beats(best_within):
        return best_within, False
    best = max(candidates, key=lambda cell: sense * cell.value)  # type: ignore[operator]
    if not beats(best):
        return None
    set_apart = len(members) >= 2 or grid.row_set(best.row)[1] != grid.row_set(marked.row)[1]
    return best, set_apart


def _report_bold(
    ctx: RuleContext, placed: PlacedBlock, grid: _Grid, column: int, marked: Cell, best: Cell, set_apart: bool, sense: int, source: str
) -> Finding:
    table = placed.block.table
    header = " ".join(grid.own_header(column).split()) or f"column {column + 1}"
    confidence = (
        _DIRECTION_WEIGHT[source] * (_WITHIN_SPREAD if _spread_overlaps(marked, best) else 1.0) * (_SET_APART if set_apart else 1.0)
    )
    group = " (in another group of rows)" if set_apart else ""
    if set_apart:
        kind = "weak: only a row of another group is better"
    elif source == "claim":
        kind = "moderate: a better row in its own group, direction from a claim"
    else:
        kind = f"strong: a better row in its own group, direction from the {source}"

    def side(cell: Cell) -> Statement:
        subject = f"row {grid.row_header(cell.row)}, column {header}"
        return Statement(
            file=placed.file, range=ctx.range(placed.file, cell.start, cell.end), quote=cell.text, subject=subject, role="result"
        )

    evidence = Evidence(
        kind=kind,
        statements=[side(marked), side(best)],
        reason=f"bold claims the best of column {header}; {'higher' if sense > 0 else 'lower'} is better",
    )
    return ctx.report(
        placed.file,
        marked.start,
        marked.end,
        f"{marked.text} is marked best in column {ctx.index.printed(header)}, but row {ctx.index.printed(grid.row_header(best.row))}{group} has "
        f"{best.text} ({'higher' if sense > 0 else 'lower'} is better)",
        identity=f"{table.label} {header} {marked.text} {best.text}",  # type: ignore[union-attr]
        related=[ctx.related(placed.file, best.start, best.end, f"better value {best.text}")],
        confidence=round(confidence, 3),
        evidence=evidence,
    )


_SUPERLATIVE = re.compile(r"\b(best|highest|lowest|state-of-the-art|sota)\b", re.IGNORECASE)
# A superlative scoped to a subset ("the best among the baselines", "second best"), a comparison that claims no
# win ("performs comparably to state-of-the-art methods", "on par with the best", "within 0.5 points of the best"), or a phrase that is no claim
# ("to the best of our knowledge").
_SCOPED = re.compile(
    r"\b(second|third|runner|except|excluding|among\s+(?!all\b)|other\s+than|baselines?|prior|previous|"
    r"not|no|nor|fails?|close\s+to|comparabl[ey]|competitive(?:ly)?|on\s+par|par\s+with|similar(?:ly)?\s+to|"
    r"approach(?:es|ing)?\s+(?:the\s+)?(?:best|state)|within\s+(?:\S+\s+){1,3}?of\s+(?:the\s+)?(?:best|highest|lowest|state|sota)|"
    r"rival\w*|best\s+of\s+(?:our|my)\s+knowledge)\b",
    re.IGNORECASE,
)
# "state-of-the-art methods" names the competitors, not a result.
_SOTA_COMPETITORS = re.compile(
    r"\b(?:state[- ]of[- ]the[- ]art|sota)\s+(?:\w+\s+)?(?:methods?|models?|baselines?|approaches|"
    r"systems?|techniques?|works?|algorithms?|competitors?|alternatives?|solutions?|detectors?|"
    r"trackers?|architectures?|networks?|frameworks?)\b",
    re.IGNORECASE,
)
_OURS = re.compile(r"\b(ours|our\s+(?:method|model|approach|framework|system))\b", re.IGNORECASE)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _has_superlative(text: str) -> bool:
    """Cached by block text: the pre-filter is most of this rule's time on a book."""
    return _SUPERLATIVE.search(text) is not None


@dataclass(frozen=True, slots=True, eq=False)
class _LabelledTable:
    """A table a claim can cite. Its cells' offsets count from where the block started when it was
    read; `origin` (line, column) says where it starts now."""

    labels: tuple[str, ...]
    table: Table
    file: str
    origin: tuple[int, int]
    block_start: int

    def related(self, ctx: RuleContext, cell: Cell, message: str) -> Related:
        shift = ctx.source(self.file).offset(*self.origin) - self.block_start
        return ctx.related(self.file, cell.start + shift, cell.end + shift, message)


@dataclass(frozen=True, slots=True, eq=False)
class _BestClaim:
    """A sentence claiming the best value and citing tables; `finding` is its anchor."""

    labels: tuple[str, ...]
    sentence: str
    word: str
    finding: Finding


def _claims_against_tables(ctx: RuleContext, parts: list[tuple[Section, list[_LabelledTable | _BestClaim]]]) -> Iterator[Finding]:
    """Each claim against the table it cites, wherever that table sits (the last one under a label)."""
    rule_macros = _rule_macros(ctx)
    by_label = {label: item for _, items in parts for item in items if isinstance(item, _LabelledTable) for label in item.labels}
    for _, items in parts:
        for claim in items:
            if not isinstance(claim, _BestClaim):
                continue
            for label in claim.labels:
                cited = by_label.get(label)
                if cited is None:
                    continue
                found = _contradicted(cited.table, claim.sentence, claim.word, rule_macros)
                if found is None:
                    continue
                claimed, better, header, grid, confidence = found
                yield claim.finding.model_copy(
                    update={
                        "message": f"the text claims the {claim.word} {ctx.index.printed(header)} for {ctx.index.printed(' '.join(grid.row_header(claimed.row).split()))}"
                        f" ({claimed.text}), but Table {label} has {better.text} for {ctx.index.printed(' '.join(grid.row_header(better.row).split()))}",
                        "identity": f"{label} {header} {claimed.text} {better.text}",
                        "related": [
                            cited.related(ctx, better, f"better value {better.text}"),
                            cited.related(ctx, claimed, f"claimed value {claimed.text}"),
                        ],
                        "confidence": confidence,
                    }
                )
                break


@rule(
    "TAB003",
    "best-claim-contradicts-table",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=_claims_against_tables,
)
def best_claim_contradicts_table(ctx: RuleContext, section: Section) -> Iterator[_LabelledTable | _BestClaim]:
    """## What it does
    Flags a sentence that claims a method achieves the best (highest, lowest,
    state-of-the-art) value on a metric while the table it cites shows another row better.
    The sentence must reference the table (`\\ref{tab:…}`), name the method as written in a
    row header (user macros such as `\\method` count as names; "our method" matches a row
    marked "Ours") and name the column (metric or dataset). The direction comes from ↑/↓ or
    the metric's name, else from the claim's own word ("highest", "lowest"). Claims scoped
    to a subset ("best among the baselines", "second best"), comparisons that claim no win
    ("performs comparably to state-of-the-art methods", "competitive with", "on par with",
    "close to the best"), "state-of-the-art methods" naming the competitors, and "to the best
    of our knowledge" are left alone; so are oracle, teacher and extra-data rows.

    ## Why is this bad?
    "X achieves the best accuracy" is the sentence reviewers quote. When the cited table
    shows a competitor ahead, the claim overstates the evidence: PaperAudit files it as
    claim distortion.

    ## Example
    ```latex
    Ours achieves the highest accuracy on CIFAR-10 (Table~\\ref{tab:main}).
    % tab:main: Baseline & 91.3 \\\\ Ours & 90.8 \\\\
    ```

    ## Use instead
    ```latex
    Ours is within 0.5 points of the best accuracy on CIFAR-10 (Table~\\ref{tab:main}).
    ```

    ## Confidence
    1.0 when the sentence names the row by its own words and ↑/↓ in the column header gives
    the direction; times 0.95 when the metric's name in the header gives it, 0.85 the
    caption, 0.7 only the claim's word ("highest"); times 0.9 when "our method" is read as
    the row marked "Ours"; times 0.85 when the gap is within the cells' ± spreads; times 0.6
    when a ✓/✗ column sets the better row apart (another setting).
    """
    for placed in _tables(section):
        labels = tuple(label for label in [placed.block.table.label, *placed.block.labels] if label)  # type: ignore[union-attr]
        if labels:
            origin = ctx.source(placed.file).position(placed.block.start)
            yield _LabelledTable(labels, placed.block.table, placed.file, origin, placed.block.start)  # type: ignore[arg-type]
    for placed in section.blocks:
        if placed.kind.value != "paragraph":
            continue
        plain = placed.block.plain.text
        if not _has_superlative(plain):
            continue
        for start, end in sentence_spans(plain):
            sentence = plain[start:end]
            competitors = [match.span() for match in _SOTA_COMPETITORS.finditer(sentence)]
            claim = next(
                (
                    match
                    for match in _SUPERLATIVE.finditer(sentence)
                    if not any(left <= match.start() < right for left, right in competitors)
                ),
                None,
            )
            if claim is None or _SCOPED.search(sentence):
                continue
            labels = tuple(referenced_labels(sentence))
            if labels:
                anchor = ctx.report_block(placed, start + claim.start(), start + claim.end(), "")
                yield _BestClaim(labels, sentence, claim.group(1).lower(), anchor)


def _contradicted(table: Table, sentence: str, word: str, rule_macros: frozenset[str]) -> tuple[Cell, Cell, str, _Grid, float] | None:
    """(the claimed row's best cell, a better cell of another row, the column's header, the grid,
    the confidence), or None."""
    grid = _Grid.of(table, rule_macros)
    words = name_words(sentence)
    ours = bool(_OURS.search(sentence))
    rows = [row for row in grid.body_rows() if not grid.is_reference(row)]
    named = {row for row in rows if _names_row(grid.row_header(row), words, False)}
    claimed_rows = named | {row for row in rows if _names_row(grid.row_header(row), words, ours)}
    if not claimed_rows or len(claimed_rows) == len(rows):
        return None
    for column in grid.columns():
        header = " ".join(grid.own_header(column).split())
        if not words & (name_words(header) | name_words(grid.column_header(column))):
            continue
        sense, source = _direction(grid.column_header(column), table.caption)
        if not sense:
            sense, source = {"highest": 1, "lowest": -1}.get(word, 0), "claim"
        cells = [cell for row in rows if (cell := grid.numeric(row, column))]
        mine = [cell for cell in cells if cell.row in claimed_rows]
        if not sense or not mine:
            continue
        claimed = max(mine, key=lambda cell: sense * cell.value)  # type: ignore[operator]
        others = [cell for cell in cells if cell.row not in claimed_rows]
        better = max(others, key=lambda cell: sense * cell.value, default=None)  # type: ignore[operator]
        if better is not None and sense * (better.value - claimed.value) > slack(min(claimed.decimals, better.decimals)):  # type: ignore[operator]
            confidence = (
                _DIRECTION_WEIGHT[source]
                * (1.0 if named else _OURS_WEIGHT)
                * (_WITHIN_SPREAD if _spread_overlaps(claimed, better) else 1.0)
                * (_SET_APART if grid.row_set(better.row)[1] != grid.row_set(claimed.row)[1] else 1.0)
            )
            return claimed, better, header.replace("↑", "").replace("↓", "").strip(), grid, round(confidence, 3)
    return None


def _names_row(header: str, words: set[str], ours: bool) -> bool:
    """The sentence names this row: all of its distinctive words, or "our method" for an "Ours" row."""
    names = name_words(header)
    return (bool(names) and names <= words) or (ours and bool(re.search(r"\bours\b", header, re.IGNORECASE)))
