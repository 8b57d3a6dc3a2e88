"""What a section gives the rules that compare prose numbers with table cells (NUM001, NUM010): its tables'
numeric cells, its prose numbers that may quote one, and what its tables' sources comment out; and the part of
that every other section's quotes are compared with, so an edit of the prose re-reads only its own section."""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.numbers import TIMES_TEN_TO, Role
from ....latex.source import value_hash
from ...context import RuleContext
from ...finding import Evidence, Finding, Fix, Statement, TextEdit
from ...quantities import CellIndex, Pointing
from ...row_names import names_header
from ...violation import Violation, violation_type
from .model import (
    Figures,
    Quote,
    Retired,
    TableCell,
    cell_index,
    lowest_headers,
    may_quote,
    quote_of,
    retired_of,
    section_numbers,
    section_tables,
    table_values,
)
from .numbered_columns import column_numbers
from .table_cell import grouped_labels, table_cell

# The rules comparing prose with tables read a section once between them: by the section object, which a
# parse rebuilds when the section changes (as the engine keeps a section's part while it is the same object).
_READ: dict[int, tuple[Section, list[Figures]]] = {}
_KEPT = 1024


def section_figures(ctx: RuleContext, section: Section) -> list[Figures]:
    """The section's cells, quotes and commented-out values, as one part of a `Pairwise` combine."""
    kept = _READ.get(id(section))
    if kept is not None and kept[0] is section:
        return kept[1]
    if len(_READ) >= _KEPT:
        _READ.clear()
    part = _read(ctx, section)
    _READ[id(section)] = (section, part)
    return part


def _read(ctx: RuleContext, section: Section) -> list[Figures]:
    read: list[TableCell] = []
    for placed, table in section_tables(section):
        numbering, above, grouped = column_numbers(table), lowest_headers(table), grouped_labels(table)
        for cell, value in table_values(table):
            at = (cell.row, cell.column)
            read.append(table_cell(ctx, placed, cell, value, above[at], numbering.get(at), grouped.get(cell.row, "")))
    cells = tuple(read)
    quotes = tuple(quote_of(ctx, number) for number in section_numbers(section) if may_quote(number.mention))
    retired = tuple(found for placed, table in section_tables(section) if (found := retired_of(ctx, placed, table)) is not None)
    return [Figures(cells=cells, quotes=quotes, retired=retired, fed=_fed(cells, retired))]


def fed_by(part: list[Figures]) -> str | None:
    """What a section's tables give every section's quotes (None: it holds none), as digested when it was read."""
    return part[0].fed


def _fed(cells: tuple[TableCell, ...], retired: tuple[Retired, ...]) -> str | None:
    """All a cell is, and every value its tables comment out, in a stable order, so typing in the prose around a
    table keeps every other section's findings. Digested once: the four rules reading a section's figures feed on it."""
    if not cells and not retired:
        return None
    read = tuple(
        (
            c.value,
            c.decimals,
            c.text,
            c.label,
            tuple(sorted(c.row_words)),
            tuple(sorted(c.column_words)),
            c.named,
            c.aggregate,
            c.change,
            c.spread,
            c.ours,
            c.with_spread,
            c.describe,
            c.headers,
            c.panel,
            *c.place,
        )
        for c in cells
    )
    commented = tuple(
        (
            table.label,
            table.describe,
            tuple((spelling, spot.file, spot.range.start.line, spot.range.start.character) for spelling, spot in table.spots),
        )
        for table in retired
    )
    return value_hash((read, commented))


class TableCells(NamedTuple):
    """Every table's cells, by table and by spelling (which cells a number quotes correctly)."""

    by_table: dict[str, list[TableCell]]
    by_spelling: CellIndex[tuple[int, TableCell]]
    # Each table's cells by the words of their row header: a sentence that names a row is matched against the
    # table's rows, not each of its cells.
    by_row: dict[str, dict[frozenset[str], list[TableCell]]]

    def in_named_rows(self, label: str, words: AbstractSet[str]) -> Iterator[TableCell]:
        """The table's cells whose row header has words, all of which `words` names (in any form `row_names` reads)."""
        for row_words, cells in self.by_row[label].items():
            if names_header(words, row_words):
                yield from cells

    def cited(self, pointing: Pointing) -> list[str]:
        """The tables a sentence references, else those its paragraph references: a sentence citing one table
        speaks of that one, whatever else its paragraph cites."""
        return sorted(pointing.refs & self.by_table.keys() or pointing.paragraph_refs & self.by_table.keys())


def table_cells(ctx: RuleContext, feeding: list[tuple[int, Section, list[Figures]]]) -> TableCells:
    """The shared state of a `Pairwise` combine over `section_figures`: the cells of the sections holding tables."""
    by_table: dict[str, list[TableCell]] = {}
    by_row: dict[str, dict[frozenset[str], list[TableCell]]] = {}
    for _, _, (figures,) in feeding:
        for cell in figures.cells:
            by_table.setdefault(cell.label, []).append(cell)
            by_row.setdefault(cell.label, {}).setdefault(cell.row_words, []).append(cell)
    return TableCells(by_table, cell_index(tuple((place, figures) for place, _, (figures,) in feeding if figures.cells)), by_row)


def sentences(quotes: tuple[Quote, ...]) -> Iterator[list[Quote]]:
    """A section's quotes, a sentence's together, in reading order."""
    grouped: dict[tuple[str, str], list[Quote]] = {}
    for quote in quotes:
        grouped.setdefault((quote.at.file, quote.sentence), []).append(quote)
    yield from grouped.values()


def quoted(ctx: RuleContext, quote: Quote) -> Statement:
    """The prose side of a finding's evidence: the number's sentence."""
    at = quote.at
    return Statement(
        file=at.file,
        range=ctx.range(at.file, at.start, at.end),
        quote=quote.sentence,
        subject=" ".join(quote.subject),
        role=quote.role.value,
    )


def held(cell: TableCell) -> Statement:
    """The table side of a finding's evidence: the cell."""
    return Statement(file=cell.place.file, range=cell.place.range, quote=cell.text, subject=cell.describe, role=Role.VALUE.value)


# A prose number in scientific notation: its mantissa and its power of ten.
_MANTISSA = DeferredPattern(r"([\d.]+)" + TIMES_TEN_TO)


@violation_type
class CellMisquoted(Violation):
    """A prose number (`quote`, as written) that is not the cell it quotes (`cell`, in `table`; `where` describes
    the cell as the editor prints it; `told` is the cell's value as the sentence would write it)."""

    quote: str
    cell: str
    table: str
    where: str
    told: str

    @property
    def fix_title(self) -> str:
        return f"Replace with the table's value {self.told}"


def misquote_finding(
    ctx: RuleContext, quote: Quote, cell: TableCell, violation: Violation, written: str, confidence: float, evidence: Evidence
) -> Finding:
    """The finding on a prose number that misquotes `cell`: the cell beside it, and the fix writing the cell's value
    as the sentence would (`written`) over the number's digits, its sign kept; over a number in scientific notation,
    the mantissa the sentence's power of ten gives ("3.25" over the "4.25" of "4.25×10^-5")."""
    start, end = quote.digits
    scientific = _MANTISSA.fullmatch(quote.text.lstrip("-−"))
    if scientific is not None:
        mantissa, power = scientific.group(1), next(group for group in scientific.groups()[1:] if group)
        places = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
        written = f"{abs(float(written.replace(',', ''))) / 10 ** int(power.replace('−', '-')):.{places}f}"
        end = start + len(mantissa) + (quote.text[:1] in "-−")
    edit = TextEdit(file=quote.at.file, range=ctx.range(quote.at.file, start, end), new_text=("-" if quote.value < 0 else "") + written)
    return ctx.report_at(
        quote.at,
        violation.message,
        identity=violation.identity,
        related=[cell.related],
        fixes=[Fix(title=violation.fix_title or "", edits=[edit])],
        confidence=confidence,
        evidence=evidence,
    )
