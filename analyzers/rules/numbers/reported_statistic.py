"""NUM004: a regression statistic reported in the prose ("b = 0.16, SE = 0.08, p = .040") that the table row it
reports says otherwise.

## How it decides
A results paragraph restates a coefficient table row by row: the predictor or contrast it names, then its
estimate, standard error, test statistic and p-value, each labelled. The label says which column the value
quotes, and the words before it (with the heading of the section, which often names the outcome) say which
row. Both ends are named, so the comparison needs no guess about what the number measures.

A table of group means with a p-value column (a measure per row, its mean in each condition, the test's p)
is restated otherwise: "between the mediated (M=1.15, SD=0.16) and non-mediated (M=1.26) conditions, t(9) =
-3.72, p = .004" names its row by the values it quotes, not by the row's words. When no row is named in
words, a sentence that quotes two or more of one row's other cells as written (the same places, a decimal
each), and no other row's two, reports that row's statistics: "moderate: row quoted by two of its other cells".

A balance or attrition table (a measure per row, its mean per arm, the equality test's p-value) is restated in
a sentence that names the row anywhere, often after the statistic: "Although we cannot reject equality across
the three arms (p-value=0.21), the Choice arm has a somewhat larger number of borrowers". When neither route
above ties a row, a sentence whose paragraph cites the table, and which names every word of one of its rows
(the row with the most such words, when one row's words hold another's) that has a column for a statistic it
reports, reports that row: "weak: row named by a sentence whose paragraph cites the table". The sentence may
report another test of the same measure, so the rule is unsure of it (confidence 0.6) until it is measured.

A p-value may be stated as a bound, "p < .05" or "p > .10": the cell agrees when it lies within the bound.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterator

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind, Cell, Table
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Related, Severity, Statement
from ...quantities import agrees, block_refs, name_words
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from .model import stem

# The statistics a coefficient table gives a column each, by what its header or the prose label spells.
_KINDS = {
    "estimate": r"b|B|β|\\beta|beta|Beta|[Ee]stimates?|Est\.?|[Cc]oef(?:f(?:icient)?)?s?\.?",
    "standard error": r"SE|S\.E\.|[Ss]td\.?\s*[Ee]rr(?:or|\.)?|[Ss]tandard\s+[Ee]rror",
    "test statistic": r"t|z|[tz][-\s]?value|[tz]\s*stat(?:istic)?",
    "p-value": r"p|P|[pP][-\s]?value|Pr\s*\(\s*>\s*\|[tz]\|\s*\)|P\s*>\s*\|[tz]\||Sig\.?",
    "odds ratio": r"OR|[Oo]dds\s+[Rr]atio|[Ee]xp\s*\(\s*B\s*\)",
}
_HEADER = {kind: re.compile(rf"^\s*(?:{pattern})\s*$") for kind, pattern in _KINDS.items()}
# How the prose labels a value: "b = 0.16", "SE = 0.08", "p = .040", "p-value=0.21", "OR = 1.89" (no "t(28) = ...":
# that is a test with its degrees of freedom, read by the statistics family).
_PROSE_LABEL = {
    "estimate": r"b|B|β",
    "standard error": r"SE",
    "test statistic": r"t|z",
    "p-value": r"p(?:[-\s]?values?)?",
    "odds ratio": r"OR",
}
# A p-value may be stated as a bound ("p < .05"): a cell agrees with it when it lies within the bound.
# The bound at its own value agrees: "p < .05" against a cell .05 may be the cell rounded.
_BOUNDS: dict[str, Callable[[float, float], bool]] = {"<": operator.le, "≤": operator.le, ">": operator.ge}


def _group(kind: str) -> str:
    """The regex group of a statistic's prose label: "standard error" -> "standard_error"."""
    return re.sub(r"\W", "_", kind)


_LABELLED = DeferredPattern(
    r"(?<![\w.\\])(?:" + "|".join(f"(?P<{_group(kind)}>{label})" for kind, label in _PROSE_LABEL.items()) + r")"
    r"\s*(?P<relation>[=<>≤])\s*(?P<value>[-−]?(?:\d+(?:\.\d+)?|\.\d+))(?![\d.]*\s*[×x]\s*10)"
)
# What every labelled statistic has between its label and its value.
_RELATION = DeferredPattern(r"[=<>≤]")
# What may stand between two statistics of one report: a comma, a semicolon, white space.
_JOINED = DeferredPattern(r"^[\s,;]*$")
# A row word too short to name anything ("vs", "1").
_MIN_WORD = 3
# A decimal the prose writes ("1.15", ".004", "-0.3"): the values that may quote a row's cells.
_DECIMAL = DeferredPattern(r"(?<![\w.])[-−]?\d*\.\d+(?![\w.])")


@record(slots=True)
class Stated:
    """One labelled value of a report: its statistic, its value as written, and where it is in the block's text."""

    kind: str
    relation: str  # "=", or the bound a p-value is stated within ("<", "≤", ">")
    text: str
    value: float
    decimals: int
    start: int
    end: int


@record(slots=True, eq=False)
class Report:
    """Statistics a sentence reports together, the words before them (which name the row), and what the whole
    sentence and its section's heading name (the outcome, the contrast)."""

    stated: tuple[Stated, ...]
    phrase: frozenset[str]
    context: frozenset[str]
    sentence: str
    placed: PlacedBlock
    title: str
    quoted: frozenset[tuple[float, int]]  # the sentence's decimals outside its labelled statistics, as written


@record(slots=True, eq=False)
class CoefficientTable:
    """A table with a column for two or more statistics of a coefficient, and where each of its cells is (placed
    when its section is read, as the section's findings are)."""

    table: Table
    columns: dict[str, int]  # the statistic of each column that one column gives
    places: dict[tuple[int, int], Related]  # (row, column) -> the cell in the source
    labels: frozenset[str]  # what a sentence cites it by: its own label and its float's

    @property
    def name(self) -> str:
        label = self.table.label or min(self.labels, default=None)
        return f"Table {label}" if label else "a table"

    @property
    def coefficients(self) -> bool:
        """A coefficient table (two statistics or more), whose rows a sentence names in words; a table with one
        (means per condition and their test's p) is named by the values a sentence quotes of a row."""
        return len(self.columns) >= 2


@violation_type
class StatisticContradictsTable(Violation):
    """A labelled statistic (`kind`, as written `stated`) that the table row the sentence names (`row`, in `table`)
    gives as `cell`."""

    kind: str
    stated: str
    cell: str
    table: str
    row: str

    @property
    def message(self) -> str:
        return f"text reports {self.kind} {self.stated} for {self.row}, {self.table} says {self.cell}"

    @property
    def identity(self) -> str:
        return f"{self.kind} {self.stated} {self.table} {self.row} {self.cell}"


def _stems(words: set[str] | frozenset[str]) -> frozenset[str]:
    return frozenset(stem(word) for word in words if len(word) >= _MIN_WORD)


def _columns(table: Table) -> dict[str, int]:
    """The statistic each column gives, for statistics exactly one column gives: a table repeating "B SE p" per
    model leaves which model the prose reports open."""
    found: dict[str, list[int]] = {}
    for column in range(max((len(row) for row in table.rows), default=0)):
        header = " ".join(table.column_header(column).replace("$", " ").replace("{", " ").replace("}", " ").split())
        for kind, pattern in _HEADER.items():
            if pattern.match(header):
                found.setdefault(kind, []).append(column)
    return {kind: columns[0] for kind, columns in found.items() if len(columns) == 1}


def _reports(text: str) -> Iterator[tuple[int, int, int, tuple[Stated, ...]]]:
    """Each sentence's runs of labelled statistics: (sentence start, sentence end, where the words naming the
    run's row start: after the run before it, else at the sentence's start, the run)."""
    for start, end in sentence_spans(text):
        if not _RELATION.search(text, start, end):
            continue
        run: list[Stated] = []
        phrase = start
        for match in _LABELLED.finditer(text, start, end):
            kind, relation = next(kind for kind in _PROSE_LABEL if match.group(_group(kind))), match.group("relation")
            if relation != "=" and kind != "p-value":  # "t > 2" bounds no cell it reports
                continue
            written = match.group("value")
            value = float(written.replace("−", "-"))
            stated = Stated(kind, relation, written, value, len(written.partition(".")[2]), match.start(), match.end())
            if run and not _JOINED.match(text[run[-1].end : match.start()]):
                yield start, end, phrase, tuple(run)
                phrase, run = run[-1].end, []
            run.append(stated)
        if run:
            yield start, end, phrase, tuple(run)


def _row_words(table: Table, row: int) -> frozenset[str]:
    """What names a body row: the words of its cells that hold no number (a contrast, an outcome, a predictor)."""
    text = " ".join(cell.text for cell in table.rows[row] if cell.value is None)
    return _stems(name_words(text))


def _named_rows(report: Report, tables: list[CoefficientTable]) -> list[tuple[CoefficientTable, int]]:
    """The rows the report speaks of: every word of the row named by the sentence or its heading, and most of
    them by the words just before the statistics; ties (two rows named alike) are left open."""
    scored = []
    for found in (found for found in tables if found.coefficients):
        for row in range(found.table.header_rows, len(found.table.rows)):
            words = _row_words(found.table, row)
            if words and words <= report.context:
                scored.append((len(words & report.phrase), found, row))
    best = max((score for score, _, _ in scored), default=0)
    return [(found, row) for score, found, row in scored if score == best] if best else []


def _quoted_row(report: Report, tables: list[CoefficientTable]) -> tuple[CoefficientTable, int] | None:
    """The one row two or more of whose other cells (not its statistics) the sentence writes as they stand, or None
    when no row, or more than one, is quoted so."""
    quoting = []
    for found in tables:
        statistics = set(found.columns.values())
        for row in range(found.table.header_rows, len(found.table.rows)):
            row_cells = found.table.rows[row]
            cells = {_written(cell.value, cell.decimals) for cell in row_cells if cell.value is not None and cell.column not in statistics}
            if len({written for written in cells if written[1] >= 1} & report.quoted) >= 2:
                quoting.append((found, row))
    return quoting[0] if len(quoting) == 1 else None


def _cited_row(report: Report, tables: list[CoefficientTable]) -> tuple[CoefficientTable, int] | None:
    """The one row, of a table with a column for a statistic the sentence reports and which its paragraph cites, all
    of whose words the sentence itself names, or None when no row, or two alike, are named so. Of rows whose words
    hold another's, the most named: "Number of pawns per borrower" over "Number of pawns", and a heading row ("Loan
    take-up measures", whose omnibus test the table does not give) over the rows under it."""
    cited, said = block_refs(report.placed.block), _stems(name_words(report.sentence))
    kinds = {stated.kind for stated in report.stated}
    named = [
        (len(words), found, row)
        for found in tables
        if found.labels & cited and kinds & found.columns.keys()
        for row in range(found.table.header_rows, len(found.table.rows))
        if (words := _row_words(found.table, row)) and words <= said
    ]
    most = max((count for count, _, _ in named), default=0)
    best = [(found, row) for count, found, row in named if count == most]
    return best[0] if len(best) == 1 else None


def _agree(stated: Stated, cell: Cell) -> bool:
    """The prose value is the (numeric) cell's, as either side rounds it, or bounds it ("p < .05" against .03)."""
    value = cell.value or 0.0
    if stated.relation in _BOUNDS:
        return _BOUNDS[stated.relation](value, stated.value)
    return agrees(stated.value, stated.decimals, value) or agrees(value, cell.decimals, stated.value)


def _fed(part: list[CoefficientTable | Report]) -> tuple[str, ...] | None:
    """What a section's coefficient tables give every section's reports (None: it holds none): every cell, counted
    from the table's start, and the lines and columns it sits at, so typing in the prose around a table (which moves
    its offsets, not its lines) keeps every other section's findings."""
    tables = (item for item in part if isinstance(item, CoefficientTable))
    return (
        tuple(repr((found.table.shifted(-found.table.start), found.columns, found.places, sorted(found.labels))) for found in tables)
        or None
    )


def _tables(ctx: RuleContext, feeding: list[tuple[int, Section, list[CoefficientTable | Report]]]) -> list[CoefficientTable]:
    return [item for _, _, part in feeding for item in part if isinstance(item, CoefficientTable)]


def _contradictions(
    ctx: RuleContext, tables: list[CoefficientTable], place: int, section: Section, part: list[CoefficientTable | Report]
) -> Iterator[Finding]:
    """The section's reports against the row of the one table they name: an edit re-reads the edited section's
    reports against the kept tables, and every section's only when a table changed (the engine's `Pairwise`)."""
    if not tables:
        return
    for report in part:
        if not isinstance(report, Report):
            continue
        named = _named_rows(report, tables)
        if len(named) == 1:
            yield from _mismatches(ctx, report, *named[0], NAMED_ROW)
        elif not named and (quoted := _quoted_row(report, tables)) is not None:
            yield from _mismatches(ctx, report, *quoted, QUOTED_ROW)
        elif not named and (cited := _cited_row(report, tables)) is not None:
            yield from _mismatches(ctx, report, *cited, CITED_ROW)


@rule(
    "NUM004",
    "statistic-contradicts-table",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(_fed, _tables, _contradictions),
)
def statistic_contradicts_table(ctx: RuleContext, section: Section) -> Iterator[CoefficientTable | Report]:
    """## What it does
    Flags a statistic reported in the prose with its label ("b = 0.16", "SE = 0.08", "p = .040",
    "p-value=0.21", "p < .05", "OR = 1.89") that the coefficient table gives otherwise for the row
    the sentence names. A coefficient table is one with a column headed by the statistic (B, β,
    Estimate, SE, Std. Error, t, z, p, Pr(>|t|), OR) for two or more statistics; a table repeating
    the columns per model is left alone, since the prose may report any of its models. The row is
    the one all of whose words (its contrast, predictor and outcome cells) the sentence or its
    section's heading names, and the most of whose words stand in the sentence before the
    statistics, after the statistics reported before them ("both extreme (b = …) and violent
    manifestos (b = …)"). When two rows are named alike, nothing is compared (a row named by two
    of its cells, or in a paragraph citing its table, is told below). Values agree when one is the
    other rounded, or the cell lies within a bound the prose states ("p < .05" against .03).

    ## Why is this bad?
    The reader takes the sentence's statistics as the table's. A coefficient, standard error or
    p-value that differs from its row (often a draft's value kept after the model was re-run)
    reports a result the analysis does not give, and may call significant what the table does not.

    ## Example
    ```latex
    \\subsection{Dyadic harm}
    Violent manifestos used more of it (b = 0.18, SE = 0.08, p = .035).
    % table: Dyadic Harm & Violent vs. Moderate & 0.16 & 0.09 & 1.82 & 0.081
    ```

    ## Use instead
    ```latex
    Violent manifestos did not differ significantly (b = 0.16, SE = 0.09, p = .081).
    ```

    ## Fix safety
    No fix: the table may be the side that is wrong.

    ## Confidence
    0.9 when another statistic of the same report agrees with the row ("strong: row named, another
    statistic agrees"), 0.8 when the sentence names the row ("moderate: row named"), 0.6 when it
    names it after the statistic, citing its table. Its measured precision decides whether it warns.
    """
    heading = _stems(name_words(section.title))
    for placed in section.blocks:
        if placed.kind is BlockKind.TABLE and (table := placed.block.table) is not None and (columns := _columns(table)):
            yield _coefficient_table(ctx, placed, table, columns)
        elif placed.kind is BlockKind.PARAGRAPH and _RELATION.search(placed.block.plain.text):  # every labelled statistic has one
            text = placed.block.plain.text
            for start, end, phrase, run in _reports(text):
                sentence = text[start:end]
                words = _stems(name_words(text[phrase : run[0].start])), _stems(name_words(sentence)) | heading  # phrase, context
                yield Report(run, *words, sentence, placed, section.title, _decimals_beside(text, start, end, run))


def _coefficient_table(ctx: RuleContext, placed: PlacedBlock, table: Table, columns: dict[str, int]) -> CoefficientTable:
    """The table with where each of its statistics' cells is, and the labels a sentence cites it by."""
    cells = (cell for row in table.rows for cell in row if cell.column in columns.values())
    places = {(cell.row, cell.column): ctx.related(placed.file, cell.start, cell.end, "") for cell in cells}
    labels = frozenset(label for label in [table.label, *placed.block.labels] if label)
    return CoefficientTable(table, columns, places, labels)


def _decimals_beside(text: str, start: int, end: int, run: tuple[Stated, ...]) -> frozenset[tuple[float, int]]:
    """The decimals of the sentence `text[start:end]` that are not the run's labelled statistics, as written."""
    found = (match for match in _DECIMAL.finditer(text, start, end) if not any(s.start <= match.start() < s.end for s in run))
    return frozenset(_written(float(match.group().replace("−", "-")), len(match.group().partition(".")[2])) for match in found)


def _written(value: float, decimals: int) -> tuple[float, int]:
    """A number as written, to compare a prose decimal with a cell: its value at its places, and its places."""
    return round(value, decimals), decimals


# The evidence class of a row named in words before the statistics the sentence reports.
NAMED_ROW = "moderate: row named"
# The evidence class of a row named by the values the sentence quotes of it, not by its words.
QUOTED_ROW = "moderate: row quoted by two of its other cells"
# The evidence class of a row named anywhere in a sentence (not before its statistics) whose paragraph cites the
# table: the sentence may speak of another test of that row, so it is unsure until measured.
CITED_ROW = "weak: row named by a sentence whose paragraph cites the table"
# How a finding's reason says the sentence ties the row: in words, by its values, or in a paragraph citing its table.
_TIED_BY = {"moderate: row named": "names", QUOTED_ROW: "quotes two other cells of", CITED_ROW: "names in a paragraph citing the table"}


def _mismatches(ctx: RuleContext, report: Report, found: CoefficientTable, row: int, tie: str) -> Iterator[Finding]:
    """The report's statistics that the row differs from; `tie` is the evidence class of how the sentence ties the row."""
    cells = {kind: cell for kind, column in found.columns.items() if (cell := _cell(found.table, row, column)) is not None}
    compared = [(stated, cells[stated.kind]) for stated in report.stated if stated.kind in cells]
    agreeing = [stated for stated, cell in compared if _agree(stated, cell)]
    row_name = ", ".join(" ".join(cell.text.split()) for cell in found.table.rows[row] if cell.value is None and cell.text.strip())
    for stated, cell in compared:
        if stated in agreeing:
            continue
        written = stated.text if stated.relation == "=" else f"{stated.relation} {stated.text}"
        violation = StatisticContradictsTable(stated.kind, written, cell.text.strip(), found.name, ctx.index.printed(row_name))
        kind = "strong: row named, another statistic agrees" if agreeing and tie == NAMED_ROW else tie
        anchor = ctx.flag_block(violation, report.placed, stated.start, stated.end)
        place = found.places[(cell.row, cell.column)]
        related = place.model_copy(update={"message": f"the table's {stated.kind} {cell.text.strip()}"})
        sides = [
            Statement(file=anchor.file, range=anchor.range, quote=report.sentence, subject=report.title, role=stated.kind),
            Statement(
                file=related.file, range=related.range, quote=cell.text.strip(), subject=f"{found.name} ({row_name})", role=stated.kind
            ),
        ]
        evidence = Evidence(
            kind=kind,
            statements=sides,
            reason=f"{stated.kind} {written} against {cell.text.strip()} in the row the sentence {_TIED_BY[tie]}",
        )
        confidence = 0.6 if tie == CITED_ROW else 0.9 if agreeing else 0.8
        yield anchor.model_copy(update={"related": [related], "confidence": confidence, "evidence": evidence})


def _cell(table: Table, row: int, column: int) -> Cell | None:
    """The numeric cell at (row, column), unless it bounds its value ("< .001")."""
    cell = next((cell for cell in table.rows[row] if cell.column == column), None)
    if cell is None or cell.value is None or re.search(r"[<>≤≥]", cell.text):
        return None
    return cell
