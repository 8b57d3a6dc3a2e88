"""What the TAB rules read in a table: its grid of cells, which direction of a column is better,
which rows are references, and how an aggregate or a derived cell follows from other cells.

A table is read as a `Grid`: cells addressed by (row, column), the header rows apart from the
body, the rules that split the body into groups of rows, and the ✓/✗ columns that set rows apart.
An aggregate (an Avg row or column) `adds_up` when it is the mean or the sum of some run of the
cells it summarises, within the rounding of every cell; a derived column follows a `Derivation`
(ratio, difference, relative change) of two other columns, row by row.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from typing import Protocol, TypeVar

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind, Cell, Table
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ....latex.tables import is_rule
from ...context import RuleContext
from ...finding import Finding, Related, Statement
from ...memo import SECTION_CACHE_SIZE, Same
from ...quantities import AGGREGATE_HEADER, agrees, each_cited, slack, spelled, table_digest, tabulars_by_label
from ..printed_tables import marked_by_number, named_by_number, paragraph_tables, sentence_tables, with_printed
from .direction import DIRECTION_WEIGHT as DIRECTION_WEIGHT
from .direction import EITHER_SIDE as EITHER_SIDE
from .direction import direction as direction
from .direction import read_direction as read_direction
from .direction import stated_direction

# Rows that are references, not competitors: nobody bolds the oracle, the teacher or the run with extra data.
_LETTER = DeferredPattern(r"[^\W\d_]")
_REFERENCE_ROW = DeferredPattern(
    r"\b(oracle|upper[- ]bound|human|ground[- ]truth|gt|fully[- ]supervised|(?<!-)supervised|random|chance|topline|teacher|"
    r"privileged|(?:extra|additional|external)\s+(?:data|training\s+data|information))\b",
    re.IGNORECASE,
)
# A cell of a ✓/✗ column: which setting a row belongs to (uses extra data, needs labels, ...).
_MARK = DeferredPattern(r"^\s*(?:✓|✔|✗|✘|×|√|\\checkmark|\\cmark|\\xmark|\\ding\{?5[0-9]\}?|\\(?:tick|cross)\w*|yes|no)\s*$", re.IGNORECASE)
_UNMARKED = DeferredPattern(r"^\s*(?:[-–—]+|n/a)?\s*$", re.IGNORECASE)
# A number scaled by a magnitude suffix: its mantissa alone is not its value.
_MAGNITUDE = DeferredPattern(r"\d\s?(?:k|K|M|B|G|bn|mn)(?![A-Za-z])")
# A claim made of every line (TAB007, TAB014): one line against it is an exception the sentence denies. "All but one"
# and "all except" scope it, and stay hedged.
UNIVERSAL = DeferredPattern(
    r"\b(?:consistently|always|uniformly|invariably|consistent\s+(?=improvements?\s|gains?\s|advantages?\s)"
    r"|(?:in|across|on|for|over)\s+(?:all|every|each|both)\b(?!\s+(?:but|except|save|bar)\b)(?:\s+(?:of\s+)?(?:the\s+)?[\w-]+){1,2}?(?=\s|$|[,.;:)]))",
    re.IGNORECASE,
)
# The other side of a comparison as every other row, which TAB007 reads where the table says every column's better
# side (TAB017 leaves it to TAB007 there): "all other methods", "previous approaches", "all baselines".
EVERY_OTHER = DeferredPattern(
    r"^\s*(?:(?:all|every)\s+)?(?:the\s+)?(?:other|previous|prior|existing|competing)\s+[\w-]+(?:\s+[\w-]+)?\s*$"
    r"|^\s*all\s+(?:the\s+)?(?:baselines|methods|approaches|models)\s*$"
    r"|^\s*(?:the\s+|these\s+)?(?:baselines|baseline\s+(?:methods|models|approaches)|competitors)\s*$",
    re.IGNORECASE,
)
# Where a sentence turns to a contrast ("…, while …", "whereas", ", but", "however", ";"): each side is a claim of its own.
CONTRAST = DeferredPattern(r"\b(?:while|whereas|however)\b|,\s*but\b|;", re.IGNORECASE)
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
    width: int  # one past its last column, read once: the table rules walk its columns for every row and claim
    numbers: dict[tuple[int, int], Cell]  # the cells `numeric` gives, read once: asked some twenty thousand times a paper
    notes: str  # the table's caption and notes (`table_notes`), or its caption where the reader has no float to read
    stated: int  # the better side its caption or notes state in words ("lower is better"): +1, -1, or 0
    # `is_reference` by row, read once: asked for every cell of a column
    references: dict[int, bool] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, table: Table, rule_macros: frozenset[str] = frozenset(), notes: str = "") -> Grid:
        """The table's grid, built once per table object, rule macros and notes: a dozen rules read each table."""
        return _grid(Same(table), rule_macros, notes)

    @classmethod
    def build(cls, table: Table, rule_macros: frozenset[str], notes: str = "") -> Grid:
        author_rules: dict[int, list[str]] = {}
        for row, name in table.rules:
            if name in rule_macros:
                author_rules.setdefault(row, []).append(name)
        rule_rows = sorted({row for row, name in table.rules if is_rule(name) or name in rule_macros})
        header_rows = table.header_rows
        if author_rules:  # the header ends at the first inner rule, the author's included
            inner = [row for row in rule_rows if 0 < row < len(table.rows)]
            header_rows = max(1, min(inner[0], len(table.rows) - 1)) if inner else header_rows
        cells = {(cell.row, cell.column): cell for row in table.rows for cell in row}
        width = max((cell.column + cell.column_span for row in table.rows for cell in row), default=1)
        numbers = {
            place: cell
            for place, cell in cells.items()
            if cell.value is not None and cell.column_span == 1 and not _MAGNITUDE.search(cell.text)
        }
        notes = notes or table.caption or ""
        grid = cls(table, cells, header_rows, rule_rows, author_rules, [], width, numbers, notes, stated_direction(notes))
        grid.mark_columns = grid._marked_columns()
        return grid

    def body_rows(self) -> range:
        return range(self.header_rows, len(self.table.rows))

    def columns(self) -> range:
        return range(1, self.width)

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
        """The lowest header cell over a column: "Avg" under a spanning "Accuracy (%)". A number there names
        the column only with the words above it: "AG News 200" (labels), "Wage (3)" (a regression's)."""
        rows = reversed(self.table.rows[: self.header_rows])
        over = [cell.text for row in rows for cell in row if cell.column <= column < cell.column + cell.column_span and cell.text.strip()]
        named = next((text for text in over if _LETTER.search(text)), "")
        return (over[0] if named in ("", over[0]) else f"{named} {over[0]}") if over else ""

    def direction(self, column: int) -> tuple[int, str]:
        """The column's better side and where it was read (`read_direction`), the table's notes included."""
        return read_direction(self.column_header(column), self.table.caption, self.stated)

    def column_name(self, column: int) -> str:
        """A column's header, its spanning group's name included: "BLEURT SN"."""
        return " ".join(self.column_header(column).split()) or f"column {column + 1}"

    def groups(self) -> list[range]:
        """Column ranges under a spanning header cell ("CIFAR-10N" over its four columns)."""
        return [
            range(cell.column, cell.column + cell.column_span)
            for row in self.table.rows[: self.header_rows]
            for cell in row
            if cell.column_span > 1
        ]

    def numeric(self, row: int, column: int) -> Cell | None:
        """A cell read as one number: not a spanning cell, not a count scaled by its suffix ("2.8B", "310M")."""
        return self.numbers.get((row, column))

    def is_reference(self, row: int) -> bool:
        """An oracle, teacher, upper bound or extra-data row, named in any of its text cells; or a row the table
        sets apart in italics (concurrent work)."""
        known = self.references.get(row)
        if known is None:
            known = self.references[row] = (
                any(cell.value is None and _REFERENCE_ROW.search(cell.text) for cell in self.table.rows[row])
                or bool(_REFERENCE_ROW.search(self.row_header(row)))
                or self.table.set_apart(row)
            )
        return known

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


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _grid(table: Same[Table], rule_macros: frozenset[str], notes: str) -> Grid:
    return Grid.build(table.value, rule_macros, notes)


def author_rule_macros(ctx: RuleContext) -> frozenset[str]:
    """The author's macros that draw table rules (`\\newcommand\\shline{…\\hline…}`)."""
    return ctx.index.rule_macros


def cell_statement(ctx: RuleContext, file: str, grid: Grid, cell: Cell, role: str = "result", row: str | None = None) -> Statement:
    """One side of a table finding's evidence: the cell quoted, with its row (or the name given) and column."""
    subject = f"row {grid.row_header(cell.row) if row is None else row}, column {grid.column_name(cell.column)}"
    return Statement(file=file, range=ctx.range(file, cell.start, cell.end), quote=cell.text, subject=subject, role=role)


def derivation_statements(ctx: RuleContext, file: str, grid: Grid, cell: Cell, left: Cell, right: Cell) -> list[Statement]:
    """A derived cell's evidence: the cell quoted as the result, and the two cells it is derived from as inputs."""
    return [cell_statement(ctx, file, grid, part, role) for part, role in ((cell, "result"), (left, "input"), (right, "input"))]


def table_blocks(section: Section) -> list[PlacedBlock]:
    """The section's parsed tables (what the index lists as tables, section by section)."""
    return [placed for placed in section.blocks if placed.kind is BlockKind.TABLE and placed.block.table is not None]


def table_notes(section: Section, placed: PlacedBlock) -> str:
    """The notes of a table, wherever its float writes them: its caption, its own block's text (a tabular written
    in its float holds the float's notes too), and the text of the section's table blocks without a grid that bear
    one of its labels: the float around an `\\input` tabular, where its `tablenotes`, star legend and source lines
    are (the tabular's file holds only the grid)."""
    table = placed.block.table
    labels = {label for label in (table.label if table else None, *placed.block.labels) if label}
    floats = [
        other.block.plain.text
        for other in section.blocks
        if other.kind is BlockKind.TABLE and other.block.table is None and labels.intersection(other.block.labels)
    ]
    return "\n".join([(table.caption if table else None) or "", placed.block.plain.text, *floats])


@record(slots=True, eq=False)
class LabelledTable:
    """A table a claim can cite. Its cells' offsets count from where the block started when it was
    read; `origin` (line, column) says where it starts now."""

    labels: tuple[str, ...]
    table: Table
    file: str
    origin: tuple[int, int]
    block_start: int
    notes: str  # `table_notes`: its caption, and the notes its float writes around the grid

    def related(self, ctx: RuleContext, cell: Cell, message: str) -> Related:
        shift = ctx.source(self.file).offset(*self.origin) - self.block_start
        return ctx.related(self.file, cell.start + shift, cell.end + shift, message)


def labelled_tables(ctx: RuleContext, section: Section) -> Iterator[LabelledTable]:
    """The section's tables that a sentence can cite, each under its labels."""
    for placed in table_blocks(section):
        labels = tuple(label for label in [placed.block.table.label, *placed.block.labels] if label)  # type: ignore[union-attr]
        if labels:
            origin = ctx.source(placed.file).position(placed.block.start)
            notes = table_notes(section, placed)
            yield LabelledTable(labels, placed.block.table, placed.file, origin, placed.block.start, notes)  # type: ignore[arg-type]


def fed_tables(part: Sequence[object]) -> tuple[object, ...] | None:
    """What a section's citable tables give every section's claims, for a `Pairwise` combine (None: it holds
    none): their labels, line and column, and every cell counted from the table's block, so typing in the prose
    around a table (which moves its offsets, not its lines) keeps every other section's findings."""
    tables = tuple(
        (item.labels, item.file, item.origin, table_digest(item.table, item.block_start), item.notes)
        for item in part
        if isinstance(item, LabelledTable)
    )
    return tables or None


def cited_tables(ctx: RuleContext, feeding: list[tuple[int, Section, Sequence[object]]]) -> Mapping[str, tuple[LabelledTable, ...]]:
    """The shared state of a `Pairwise` combine over `fed_tables`: every section's citable tables by label (all the
    tabulars of a float: `tabulars_by_label`), and by the number the paper prints for it (`with_printed`)."""
    cited = (item for _, _, part in feeding for item in part if isinstance(item, LabelledTable))
    return with_printed(tabulars_by_label((item.labels, item) for item in cited), ctx)


class CitingClaim(Protocol):
    @property
    def labels(self) -> tuple[str, ...]: ...  # the tables it cites, its own sentence's first


Citing = TypeVar("Citing", bound=CitingClaim)
Verdict = TypeVar("Verdict")


def contrast_clauses(sentence: str) -> list[tuple[int, str]]:
    """The sentence's clauses of a contrast ("X beats Y on A, while Z …"), each read as a sentence of its own, with where
    each begins (its contrast word leads it): the contrast scopes neither claim."""
    cuts = [0, *(match.start() for match in CONTRAST.finditer(sentence)), len(sentence)]
    return [(begin, sentence[begin:end]) for begin, end in pairwise(cuts) if end > begin]


def citing_sentences(placed: PlacedBlock) -> Iterator[tuple[int, str, tuple[str, ...]]]:
    """A paragraph's sentences with the tables each cites (by `\\ref`, or by printed number: `sentence_tables`),
    else the ones its paragraph cites: (start, sentence, labels); a paragraph that cites nothing gives none."""
    return sentences_citing(placed.block.plain.text, tuple(sorted(paragraph_tables(placed.block))))


def sentences_citing(plain: str, around: tuple[str, ...]) -> Iterator[tuple[int, str, tuple[str, ...]]]:
    """`citing_sentences` of a paragraph's plain text and the labels the paragraph cites (`around`)."""
    for start, end in sentence_spans(plain):
        sentence = plain[start:end]
        labels = sentence_tables(sentence, around)
        if labels:
            yield start, sentence, labels


def against_cited(
    kind: type[Citing],
    judge: Callable[[Grid, Citing], Verdict | None],
    report: Callable[[RuleContext, Citing, str, LabelledTable, Verdict], Finding],
) -> Callable[..., Iterator[Finding]]:
    """The `each` of a `Pairwise` combine over `fed_tables`: a section's claims of `kind`, each reported
    against the first table it cites (each tabular of a float) that `judge` finds against it, wherever that table sits."""

    def each(
        ctx: RuleContext, by_label: Mapping[str, tuple[LabelledTable, ...]], place: int, section: Section, part: Sequence[object]
    ) -> Iterator[Finding]:
        rule_macros = author_rule_macros(ctx)
        for claim in part:
            if not isinstance(claim, kind):
                continue
            for label, table in each_cited(claim.labels, by_label):
                verdict = judge(Grid.of(table.table, rule_macros, table.notes), claim)
                if verdict is not None:
                    finding = report(ctx, claim, label, table, verdict)
                    yield marked_by_number(finding) if named_by_number(label, by_label) else finding
                    break

    return each


@record(slots=True)
class Derivation:
    """How a derived column's cell follows from two other cells of its row."""

    name: str  # "ratio"
    formula: str  # "{a} / {b}", filled with the two columns' names
    compute: Callable[[float, float], float | None]

    def holds(self, cell: Cell, left: Cell, right: Cell) -> bool:
        """The cell is the derivation of the other two, within the rounding of all three: the result
        over the interval each rounded input stands for, or the exact result rounded or truncated."""
        exact = self.compute(left.value, right.value)  # type: ignore[arg-type]  # numeric cells
        if exact is None:
            return False
        if agrees(cell.value, cell.decimals, exact):  # type: ignore[arg-type]
            return True
        lefts = (left.value - slack(left.decimals), left.value + slack(left.decimals))  # type: ignore[operator]
        rights = (right.value - slack(right.decimals), right.value + slack(right.decimals))  # type: ignore[operator]
        if rights[0] <= 0 <= rights[1]:
            return False  # a divisor that rounding may make zero bounds nothing
        corners = [value for x in lefts for y in rights if (value := self.compute(x, y)) is not None]
        allowance = slack(cell.decimals)
        if max(corners) - min(corners) > 4 * allowance:
            return False  # rounding leaves the result open (a change relative to a near-equal pair): it bounds nothing
        return min(corners) - allowance <= cell.value <= max(corners) + allowance  # type: ignore[operator]


DERIVATIONS = (
    Derivation("ratio", "{a} / {b}", lambda a, b: a / b if b else None),
    Derivation("difference", "{a} − {b}", lambda a, b: a - b),
    Derivation("relative change", "({a} − {b}) / {b} × 100", lambda a, b: (a - b) / b * 100 if b else None),
    Derivation("share", "{a} / {b} × 100", lambda a, b: a / b * 100 if b else None),
)
# A header that names a value derived from two others: "Δ", "Imp. ×", "Diff.", "Ratio", "Speed-up", "Rel. change".
DERIVED_HEADER = DeferredPattern(
    r"Δ|∆|\\Delta|×|\\times|\b(?:diff(?:erence)?s?|gains?|improv\w*|imp|change|ratios?|speed-?ups?|reductions?|rel|relative|"
    r"increase|decrease|drop)\b",
    re.IGNORECASE,
)


def derived_agrees(grid: Grid, aggregate_row: int, column: int, rows: list[int]) -> bool:
    """The aggregate row's cell in `column` is the ratio, difference or relative change of two of
    its own cells, as the column's cells are of theirs in (nearly) every row: "Imp. ×" = Ours / Baseline."""
    if grid.numeric(aggregate_row, column) is None:
        return False
    return any(
        follows(grid, aggregate_row, column, a, b, derivation) and fit(grid, column, rows, a, b, derivation).nearly_every_row
        for derivation in DERIVATIONS
        for a, b in _pairs(grid, column)
    )


@record(slots=True)
class Fit:
    """A derivation of columns `a` and `b` that a column's cells follow in the rows `held`, and not in `failed`."""

    derivation: Derivation
    a: int
    b: int
    held: tuple[int, ...]
    failed: tuple[int, ...]

    @property
    def nearly_every_row(self) -> bool:
        """At least two rows, and four in five of those with the three cells."""
        return len(self.held) >= 2 and len(self.held) * 5 >= (len(self.held) + len(self.failed)) * 4


def derivations(grid: Grid, column: int, rows: Sequence[int]) -> list[Fit]:
    """Every derivation of two other columns that the column's cells follow in two rows or more."""
    fits = (fit(grid, column, rows, a, b, derivation) for derivation in DERIVATIONS for a, b in _pairs(grid, column))
    return [found for found in fits if len(found.held) >= 2]


def fit(grid: Grid, column: int, rows: Sequence[int], a: int, b: int, derivation: Derivation) -> Fit:
    """Which of the rows with the three cells follow the derivation."""
    checked = [row for row in rows if grid.numeric(row, column) and grid.numeric(row, a) and grid.numeric(row, b)]
    held = tuple(row for row in checked if follows(grid, row, column, a, b, derivation))
    return Fit(derivation, a, b, held, tuple(row for row in checked if row not in held))


def _pairs(grid: Grid, column: int) -> list[tuple[int, int]]:
    columns = [c for c in grid.columns() if c != column]
    return [(a, b) for a in columns for b in columns if a != b]


def follows(grid: Grid, row: int, column: int, a: int, b: int, derivation: Derivation) -> bool:
    cell, left, right = grid.numeric(row, column), grid.numeric(row, a), grid.numeric(row, b)
    return cell is not None and left is not None and right is not None and derivation.holds(cell, left, right)


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


@record(slots=True)
class Statistic:
    """What an aggregate may be of the cells it summarises."""

    name: str  # as a message says it: "mean", "sum", "mean of the absolute values"
    compute: Callable[[list[float]], float]
    cumulative: bool = False  # the cells' rounding adds up (a sum), rather than averaging out
    linear: bool = True  # a cell's rounding moves it by its own share (not so a root mean square)


MEAN = Statistic("mean", lambda values: sum(values) / len(values))
SUM = Statistic("sum", sum, cumulative=True)
MEAN_ABSOLUTE = Statistic("mean of the absolute values", lambda values: sum(abs(value) for value in values) / len(values))
ROOT_MEAN_SQUARE = Statistic(
    "root mean square", lambda values: math.sqrt(sum(value * value for value in values) / len(values)), linear=False
)
# A row named for an error measure summarises signed errors: "MAE" the mean of their absolute values, "RMSE" their
# root mean square; either may also be the mean of per-item errors. Any other aggregate is a mean or a sum.
_SUM_NAMED = DeferredPattern(r"^\W*(?:total|sum)\b", re.IGNORECASE)
_UNIT = r"\b[\s.~]*(?:\([^()]{0,20}\))?[\W_]*$"  # "MAE (eV)", "RMSE:"
_MEAN_ABSOLUTE_ROW = DeferredPattern(r"^\W*(?:mae|mad|mean\s+abs(?:olute|\.)?\s*(?:error|deviation|err\.?)?)" + _UNIT, re.IGNORECASE)
_ROOT_MEAN_SQUARE_ROW = DeferredPattern(r"^\W*(?:rmse|rmsd|rms|root[- ]mean[- ]squared?(?:\s+(?:error|deviation))?)" + _UNIT, re.IGNORECASE)


def signed(value: float, decimals: int) -> str:
    """A recomputed value as a table would print it, its sign kept: "-0.2"."""
    text = spelled(value, decimals)
    return f"-{text}" if value < 0 and text.strip("0.") else text


def is_aggregate_row(header: str) -> bool:
    """A row that summarises the rows above it: Avg, Mean, Total, Sum, Overall, MAE, RMSE."""
    return bool(AGGREGATE_HEADER.match(header) or _MEAN_ABSOLUTE_ROW.match(header) or _ROOT_MEAN_SQUARE_ROW.match(header))


def statistics_of(header: str) -> tuple[Statistic, ...]:
    """The statistics an aggregate so named may be, the one it most likely is first."""
    if _MEAN_ABSOLUTE_ROW.match(header):
        return MEAN_ABSOLUTE, MEAN
    if _ROOT_MEAN_SQUARE_ROW.match(header):
        return ROOT_MEAN_SQUARE, MEAN
    return (SUM, MEAN) if _SUM_NAMED.match(header) else (MEAN, SUM)


def adds_up(
    total: Cell, peers: list[Cell], column_wise: bool, groups: Sequence[range], statistics: Sequence[Statistic] = (MEAN, SUM)
) -> bool:
    return any(_summarises(total, run, statistic) for run in runs(total, peers, column_wise, groups) for statistic in statistics)


def _summarises(total: Cell, run: list[Cell], statistic: Statistic) -> bool:
    """Within the rounding of the aggregate and of its cells, the aggregate rounded or cut after its places
    (a table that truncates its cells truncates its aggregates too); a sum printed negative ("− 2343
    excluded") gives its parts' total as well."""
    values: list[float] = [cell.value for cell in run]  # type: ignore[misc]  # numeric cells
    allowance = slack(total.decimals) + cells_rounding(run, statistic)
    exact = statistic.compute(values)
    aggregate: float = total.value  # type: ignore[assignment]  # a numeric cell
    written = (aggregate, -aggregate) if statistic.cumulative else (aggregate,)
    # A value cut after its places lies between it and one unit further from zero: half a unit beyond it.
    read = [value for printed in written for value in (printed, printed + math.copysign(slack(total.decimals), printed))]
    return any(abs(exact - value) <= allowance for value in read)


def cells_rounding(run: list[Cell], statistic: Statistic) -> float:
    """How far the rounding of the cells can move their statistic. At worst every cell is rounded the
    same way, but the roundings of many cells are independent and cancel: a mean or a sum is allowed
    four standard deviations of their uniform errors (a 1-in-10,000 miss), never more than the worst case."""
    slacks = [slack(cell.decimals) for cell in run]
    if not statistic.linear:
        return max(slacks)
    scale = 1 if statistic.cumulative else len(run)
    worst = sum(slacks) / scale
    spread = math.sqrt(sum(each * each for each in slacks) / 3) / scale
    return min(worst, 4 * spread)


def beaten(cells: Sequence[Cell], claimed: Collection[int], sense: int) -> tuple[Cell, Cell] | None:
    """The claimed rows' best cell and another row's cell better beyond the rounding of both, if any (TAB003, TAB017).
    Where the table does not say the column's better side (`sense` 0), the claim of the best still fails when other
    rows sit on both sides of the claimed ones: whichever side is better, one of them beats it (the higher is given)."""
    mine = [cell for cell in cells if cell.row in claimed]
    theirs = [cell for cell in cells if cell.row not in claimed]
    if not mine or not theirs:
        return None
    beyond = {}
    for side in (sense,) if sense else (1, -1):
        best = max(mine, key=lambda cell: side * cell.value)  # type: ignore[operator]
        rival = max(theirs, key=lambda cell: side * cell.value)  # type: ignore[operator]
        if side * (rival.value - best.value) > slack(min(best.decimals, rival.decimals)):  # type: ignore[operator]
            beyond[side] = (best, rival)
    return beyond.get(sense or 1) if len(beyond) == (1 if sense else 2) else None


def spread_overlaps(first: Cell, second: Cell) -> bool:
    """The gap between two `mean ± std` cells is within their spreads."""
    spreads = [cell.spread for cell in (first, second) if cell.spread is not None]
    return bool(spreads) and abs(first.value - second.value) <= max(spreads)  # type: ignore[operator]


# A row that states the size of the sample its table breaks down: "n", "N", "Total", "All", "Sample size".
_SIZE_ROW = DeferredPattern(
    r"^\W*(?:n|total(?:\s+(?:sample|n|count))?|all|(?:full\s+|whole\s+)?sample(?:\s+size)?|(?:number|no\.)\s+of\s+\w+)[\W_]*$",
    re.IGNORECASE,
)


def count(grid: Grid, row: int, column: int) -> Cell | None:
    """A cell that holds a whole count: "548", "548 (58.7%)", not "54.8", "12%" or "3 ± 1"."""
    cell = grid.numeric(row, column)
    if cell is None or cell.decimals or cell.percent or cell.spread is not None or cell.value < 0:  # type: ignore[operator]
        return None
    return cell


def label_columns(grid: Grid, row: int) -> range:
    """The leading columns that name a row: those before its first number."""
    return range(next((cell.column for cell in grid.table.rows[row] if cell.value is not None), 1))


def row_label(grid: Grid, row: int, columns: range | None = None) -> str:
    """A row's name in the given leading columns (its own, by default): "Sex female"."""
    columns = label_columns(grid, row) if columns is None else columns
    return " ".join(" ".join(cell.text.split()) for cell in grid.table.rows[row] if cell.column in columns and cell.text.strip())


def size_rows(grid: Grid) -> list[int]:
    """Body rows that state the sample size: the name in their leading columns is n, N, Total, All, ..."""
    return [row for row in grid.body_rows() if _SIZE_ROW.match(row_label(grid, row))]


def row_groups(grid: Grid, total_row: int) -> list[list[int]]:
    """The other body rows in groups, a group ending at each rule and at each category label (a first
    cell written where the rows below leave it empty: "Sex" over "female", "male")."""
    columns = label_columns(grid, total_row)
    categorised = len(columns) >= 2
    groups: list[list[int]] = []
    key: tuple[int, int] | None = None
    starts = 0
    for row in grid.body_rows():
        first = grid.cells.get((row, 0))
        if categorised and first is not None and first.text.strip():
            starts += 1
        if row == total_row or _SIZE_ROW.match(row_label(grid, row, columns)):
            key = None
            continue
        row_key = (grid.row_set(row)[0], starts)
        if row_key != key:
            groups.append([])
            key = row_key
        groups[-1].append(row)
    return groups
