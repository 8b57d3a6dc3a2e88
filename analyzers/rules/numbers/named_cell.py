"""NUM014: a number whose sentence names one cell's row and column, and which is not that cell's value.

## How it decides
A sentence that names a row of a table and a column of it ("CoT reaches 71.3 accuracy on GSM8K", a row
"CoT", a column "GSM8K") quotes the cell where they cross, whether or not it cites the table; NUM001 reads
the number one mistyped digit away from that cell, this rule the number that is another value altogether
(a stale run, a row or a column read one off). The tie must be unambiguous: of the tables the sentence
cites (else every table of the paper), exactly one cell has its row header named in full by the sentence
and its column header too (a word of it is enough in a table the sentence cites), each header of at least
one distinctive word. Without a reference, one of the two headers must be a name ("GSM8K", "ResNet-50"),
not an ordinary word ("Width"). A row keyed by punctuation and no word ("(2,2,Y)", "k=5") is named by
writing the key whole, and is a name. A cell that opens with words of its own ("O_2 → π*_1 (531.1)") labels its
number with something the headers do not name, and is not read. A sentence that names one row of the one
table it (else its paragraph) cites in full, and no cell of it near its number by row and column, quotes the
one cell of that row near its number, when the number's own clause names no column of that table in full
("CoT reaches 71.3 (Table 2)" against CoT's accuracy 68.9 beside its time 31.0 s; "(2,2,Y) finds a model in
160s, but cannot exhaust the size" against its 154 s to one model, the exhaust column being the other clause's);
with two cells of the row near it, the sentence names none. A whole number quotes a cell only of a table its
sentence cites, as in NUM001, and only when it counts nothing: a unit may follow it ("160s", "154 ms"), a
word or a macro may not ("45 \\metaworld tasks"). A sentence that names several rows, each in a clause of its
own ("Direct prompting scores 61.4 on StrategyQA, while CoT reaches 71.2"; clauses end at ";", ":", ", and",
", but", "while", "whereas"), ties each number to the row its own clause names; a clause that names two of the
rows ties none.

An abstract cites no table and seldom names the row of its own method ("our router reaches 74.6 on GSM8K"): a
reader takes its result for the paper's own method, so a number of the abstract that names no cell as above
quotes the cell of the own method's row (a row "Ours", "RouteNet (ours)") under the one column its sentence
names in full, in whichever table holds it; cells of that row and column that hold one value (a main table and
an ablation's full model) are one cell, and two values tie none. A row the abstract merely names is no sign of
the own method: read so, an introduction's sentences tied 4 numbers of the corpus to rows they do not speak of.

The number is a misquote of that cell when it is written as finely as the cell (its places, or one fewer;
a percentage of a fraction cell keeps two places fewer), lies within a quarter of the cell's value but is
neither the cell rounded nor cut nor one digit from it, and no cell of a table the sentence ties to (cites,
or names a row or column of) holds it: then the sentence is not quoting some other cell. A number that is
not a result (a range's end, a bound, an approximation, a change, a count), a sentence that states the
cell's value itself (comparing with it) and a cell of changes or of spreads the sentence does not name are
left alone; so is a sentence that compares ("higher than", "improves", "gap", "difference"), whose numbers
are often differences of cells. An abstract's number that any cell of the paper holds quotes that cell.

Confidence 0.6: information, until its classes are measured. Evidence: "moderate: cited table, row and
column named, another value" when the sentence cites the cell's table, "weak: row and column named, no table
cited, another value" when it cites none, and "weak: cited table (or its paragraph cites it), row named, the
one cell of its row near the number" for a row named alone; "moderate: cited table, row named in the number's clause,
column named, another value" and its uncited "weak: …" for a row named in the number's clause; "weak: abstract,
the paper's own method's row, column named in the number's sentence, another value" for an abstract's result.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.model import SectionKind
from ....latex.numbers import Role
from ....latex.row_keys import row_keys
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import agrees, name_words, named_share, rendered, spelled, tie_words
from ...registry import Pairwise, Scope, rule
from ...violation import violation_type
from .figures import CellMisquoted, TableCells, fed_by, held, misquote_finding, quoted, section_figures, table_cells
from .misquote import as_written, comparing, near
from .model import Figures, Quote, TableCell, clause_at

_COMPARING = comparing("respectively")


# A cell that opens with a word ("O_2 → π*_1 (531.1)") labels its number with something the headers do not name.
_LABELLED = DeferredPattern(r"\s*[A-Za-z]")


@violation_type
class NamedCellMisquoted(CellMisquoted):
    """A prose number whose sentence names the row and the column of one cell (or its row alone) and which is not
    that cell's value."""

    @property
    def message(self) -> str:
        return f"text says {self.quote}, but {self.where}, which its sentence names, says {self.cell}"

    @property
    def identity(self) -> str:
        return f"{self.quote} {self.table} {self.cell} named"


@violation_type
class AbstractCellMisquoted(CellMisquoted):
    """An abstract's result that is not the cell of the paper's own method under the column its sentence names."""

    @property
    def message(self) -> str:
        return f"the abstract says {self.quote}, but {self.where}, the paper's own method under the column its sentence names, says {self.cell}"

    @property
    def identity(self) -> str:
        return f"{self.quote} {self.table} {self.cell} abstract"


class _Named(NamedTuple):
    """The one cell a sentence names, the cell's value as the sentence writes it and its places, and how the
    sentence names it (its evidence class)."""

    cell: TableCell
    told: str
    places: int
    kind: str


# How a sentence ties a number to the one cell it names: the evidence classes.
CITED = "moderate: cited table, row and column named, another value"
UNCITED = "weak: row and column named, no table cited, another value"
ROW_ONLY = "weak: cited table (or its paragraph cites it), row named, the one cell of its row near the number"
# A sentence naming several rows, one in each clause: the row named in the number's own clause.
IN_CLAUSE = {
    CITED: "moderate: cited table, row named in the number's clause, column named, another value",
    UNCITED: "weak: row named in the number's clause, column named, no table cited, another value",
}
# An abstract's result, which speaks of the paper's own method: that method's cell under the column its sentence names.
ABSTRACT = "weak: abstract, the paper's own method's row, column named in the number's sentence, another value"
# An abstract's sentence that may give another method's result: it cites, or speaks of prior work or baselines.
_OTHERS = DeferredPattern(r"\\cite|\b(?:prior|previous|existing|baselines?|competing|state[- ]of[- ]the[- ]art|sota)\b", re.IGNORECASE)
# What a whole number counts: a word of four letters or more, or a macro other than a unit's, after it.
_COUNTED = DeferredPattern(r"\s*(?:\\(?!unit\b|si\b|SI\b)[A-Za-z]+|[A-Za-z]{4,})")
# Where a clause that names its own row ends: "A reaches 89.8 on X, and B 84.0", "A …; B …", "A …, while B …".
_ROW_CLAUSE_END = DeferredPattern(r"[;:]|,\s+(?:and|but|while|whereas)\b|\s\b(?:while|whereas)\b")


def _fully_named(quote: Quote, cell: TableCell, cited: bool) -> bool:
    """The sentence names the cell's row in full and its column in full, or a word of it in a table it cites."""
    words = quote.pointing.words
    if not (cell.row_words and cell.column_words) or named_share(words, cell.row_words) < 1:
        return False
    column = named_share(words, cell.column_words)
    return column == 1 or (cited and column > 0)


def _as_written(quote: Quote, cell: TableCell) -> tuple[float, int] | None:
    """The cell's value and places as the sentence would write it, or None when the number is written coarser
    than the cell (one place fewer is a rounding, not a coarser number)."""
    value, places = as_written(quote.value, quote.percent, cell.value, cell.decimals)
    return (value, places) if quote.decimals >= places - 1 else None


def _named_cell(quote: Quote, cells: TableCells, printed: Callable[[str], str]) -> _Named | None:
    """The one cell whose row and column the sentence names, among the tables it cites (else all), or the one
    cell near the number in the one row it names of the one table it cites: a cell labelled by words of its own
    ("O_2 → π*_1 (531.1)") is no plain quote of its headers."""
    cited = sorted(quote.pointing.refs & cells.by_table.keys())  # its paragraph's references may be of other tables
    labels = cited or sorted(cells.by_table)
    named = [
        cell for label in labels for cell in cells.in_named_rows(label, quote.pointing.words) if _fully_named(quote, cell, bool(cited))
    ]
    kind = CITED if cited else UNCITED
    discussed = cells.cited(quote.pointing)  # by the sentence, else by its paragraph
    clause = _clause_words(quote, printed)
    if not any(_near(quote, cell) for cell in named) and len(discussed) == 1:
        named, kind = _near_in_named_row(quote, cells.by_table[discussed[0]], clause), ROW_ONLY
    elif len(named) > 1:
        named, kind = [cell for cell in named if named_share(clause, cell.row_words) == 1], IN_CLAUSE[kind]
    if len(named) != 1:
        return None
    cell = named[0]
    if (kind == UNCITED and not cell.named) or _LABELLED.match(cell.text):
        return None
    if not (quote.decimals or quote.percent) and (cell.label not in quote.pointing.refs or _counts(quote)):
        return None  # a whole number quotes a cell only of a table its sentence cites, as in NUM001, and counts nothing
    written = _as_written(quote, cell)
    if written is None:
        return None
    value, places = written
    return _Named(cell, spelled(value, places), places, kind)


def _clause_words(quote: Quote, printed: Callable[[str], str]) -> frozenset[str]:
    """The words of the number's own clause (through the author's macros, as the sentence's words are): "A reaches
    89.8 on X, and B 84.0" names A in the clause of 89.8."""
    at = len(" ".join(quote.before.split()))  # the sentence is kept with its spaces collapsed
    clause = clause_at(quote.sentence, at, _ROW_CLAUSE_END)
    return rendered(frozenset(name_words(clause)) | row_keys(clause), clause, printed)


def _counts(quote: Quote) -> bool:
    """A whole number before a word or a macro ("45 \\metaworld tasks", "128 genes"), which it counts; not before a
    unit ("160s", "154 ms", "160 \\unit{s}")."""
    at = quote.sentence.find(quote.text, len(" ".join(quote.before.split())))
    return at >= 0 and bool(_COUNTED.match(quote.sentence, at + len(quote.text)))


def _near(quote: Quote, cell: TableCell) -> bool:
    """The number lies near the cell's value as the sentence would write it."""
    written = _as_written(quote, cell)
    return written is not None and near(quote.value, written[0])


def _near_in_named_row(quote: Quote, table: list[TableCell], clause: frozenset[str]) -> list[TableCell]:
    """The cells near the number in the one row of the table the sentence names in full, when the number's own
    clause names no column of it in full: "CoT reaches 71.3 (Table 2)" quotes CoT's one cell of that size, and
    "(2,2,Y) finds a model in 160 s, but cannot exhaust the size" its time to one model, not the exhaust column
    the other clause names."""
    words = quote.pointing.words
    rows = {cell.row_words for cell in table if cell.row_words and named_share(words, cell.row_words) == 1}
    if len(rows) != 1 or any(named_share(clause, cell.column_words) == 1 for cell in table):
        return []
    return [cell for cell in table if cell.row_words in rows and _near(quote, cell)]


def _abstract_cell(quote: Quote, cells: TableCells) -> _Named | None:
    """In the abstract, the one cell of the paper's own method under a column the number's sentence names in full:
    "our model reaches 71.3 on GSM8K" quotes the row "Ours" (or "RouteNet (ours)") under "GSM8K", in
    whichever table holds it. Cells of one value are one cell (the main table's and an ablation's full model). A
    sentence that cites or speaks of other methods ("prior methods reach 65.0") may give their result."""
    if _OTHERS.search(quote.sentence):
        return None
    named = [
        cell
        for table in cells.by_table.values()
        for cell in table
        if cell.ours and named_share(quote.pointing.words, cell.column_words) == 1
    ]
    if len({(cell.value, cell.decimals) for cell in named}) != 1 or _LABELLED.match(named[0].text):
        return None
    written = _as_written(quote, named[0])
    return None if written is None else _Named(named[0], spelled(*written), written[1], ABSTRACT)


def _misquote(quote: Quote, cells: TableCells, printed: Callable[[str], str], in_abstract: bool) -> _Named | None:
    """The cell the number misquotes, if the sentence names it (in the abstract, the paper's own method's cell its
    sentence names a column of) and no cell it ties to holds the number (in the abstract, no cell at all)."""
    found = _named_cell(quote, cells, printed)
    if found is None and in_abstract and (quote.decimals or quote.percent):
        found = _abstract_cell(quote, cells)
    if found is None:
        return None
    cell, told = found.cell, float(found.told)
    if ((cell.change or cell.spread) and not quote.spread) or not near(quote.value, told if cell.value > 0 else -told):
        return None
    if agrees(abs(quote.value), quote.decimals, abs(told)) or agrees(abs(told), found.places, abs(quote.value)):
        return None  # another quantity, or the cell rounded by the sentence or by the table
    if found.told in quote.variants or any(agrees(abs(value), decimals, abs(told)) for value, decimals in quote.stated):
        return None  # one digit away (NUM001), or a sentence comparing with the cell's own value
    for holder in cells.by_spelling.agreeing(quote.agreeing):
        other = holder[1]
        if (
            found.kind == ABSTRACT
            or other.label == cell.label
            or tie_words(quote.pointing, other.label, other.row_words, other.column_words)
        ):
            return None
    return found


def _misquotes(ctx: RuleContext, cells: TableCells, place: int, section: Section, part: list[Figures]) -> Iterator[Finding]:
    """The section's results whose sentence names one cell they are not."""
    if not cells.by_table:
        return
    for quote in part[0].quotes:
        ctx.spend(1)
        if quote.role is not Role.VALUE or _COMPARING.search(quote.sentence):
            continue
        found = _misquote(quote, cells, ctx.index.printed, section.kind is SectionKind.ABSTRACT)
        if found is not None:
            yield _finding(ctx, quote, found)


def _finding(ctx: RuleContext, quote: Quote, found: _Named) -> Finding:
    cell = found.cell
    kind, names = (
        (AbstractCellMisquoted, "the abstract's result is") if found.kind == ABSTRACT else (NamedCellMisquoted, "the sentence names")
    )
    violation = kind(quote=quote.text, cell=cell.text, table=cell.label, where=ctx.index.printed(cell.describe), told=found.told)
    evidence = Evidence(
        kind=found.kind, statements=[quoted(ctx, quote), held(cell)], reason=f"{names} {cell.describe}, which holds {cell.text}"
    )
    return misquote_finding(ctx, quote, cell, violation, found.told, 0.6, evidence)


@rule(
    "NUM014",
    "prose-misquotes-named-cell",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "structure", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_by, table_cells, _misquotes),
)
def prose_misquotes_named_cell(ctx: RuleContext, section: Section) -> list[Figures]:
    """## What it does
    Flags a result whose sentence names the row and the column of exactly one table cell, when the number
    is near that cell's value but is not it (nor one digit from it), and no cell the sentence ties to
    holds the number. A result of the abstract, which seldom names its method's row, is read as the cell
    of the paper's own method under the column its sentence names.

    ## Why is this bad?
    A reader takes "CoT reaches 71.3 on GSM8K" as the table's cell for CoT on GSM8K. A value from an
    older run, or read from the neighbouring row or column, states a result the table does not report.

    ## Example
    ```latex
    With CoT, the model reaches 71.3 accuracy on GSM8K.
    % the table: CoT & 68.9 \\\\ under the column GSM8K
    ```

    ## Use instead
    ```latex
    With CoT, the model reaches 68.9 accuracy on GSM8K.
    ```

    ## Fix safety
    The fix writes the cell's value into the sentence. It is unsafe: the table may be the side that is
    wrong, or the sentence may quote another table.
    """
    return section_figures(ctx, section)
