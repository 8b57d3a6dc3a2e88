"""NUM022: a value the prose gives a symbol ("μ = 1.4 meV") that is not the cell of the table row (or column) that
symbol heads, in the row or column the sentence names beside it.

## How it decides
A table of fitted or descriptive values often keys its rows or columns by a symbol: a row "μ (meV)" across columns
"Device A", "Device B", or columns "M" and "SD" down rows of variables. A sentence that writes the symbol with a
value and names the other header ("the fit of device A … are g = 90, μ = 1.4 meV"; "hopelessness (M = 4.50,
SD = 4.19)") restates that cell, whether or not it cites the table. `name_words` reads neither key: a symbol has
no word, and "Device A" shares its only word with every header of its series, so NUM014 binds none of these.

The number is tied to a cell when the words just before it set a symbol to it ("μ = "), a row or column header of
some table is that symbol (its unit in brackets aside: "μ (meV)", "T_c [K]"; or spelled out as APA prose abbreviates
it: "Mean" for M, "Std. dev." for SD), and the sentence, before the
number, names the cell's other header: whole, for a header keyed by a letter ("device A" for "Device A"), or
every word of it, in any form `row_names` reads. Of the cells so named, those whose other header the sentence
names last before the number are the candidates ("role model status (M = 0.57, SD = 0.84), justification for
violence (M = 0.30, SD = 0.71)" ties 0.71 to the justification row), and exactly one cell of the whole paper
must remain: a symbol and header that two tables share tie nothing. A symbol named alone ties nothing: a paper
reuses a symbol for many settings ("μ = 10 meV" of a simulation against the fitted μ of a device). When the
header gives a unit and the sentence writes another right after the number, the two are other quantities. A
sentence that ties two of its values to one cell speaks of groups the table does not split ("hopelessness was
most prevalent in extremist (M = 5.17) and nationalist manifestos (M = 3.45)" against the overall mean): none of
them is read.

The value is misquoted when it lies within a quarter of the cell's value, is written as finely as the cell (or one
place coarser), is neither the cell rounded nor cut, nor any other value of the cell's table. Confidence 0.6:
information until its classes are measured. Evidence: "moderate: cited table, symbol and the other header named,
another value" when the sentence or its paragraph cites the cell's table, "weak: symbol and the other header
named, no table cited, another value" when it cites none.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.numbers import Role
from ....latex.row_keys import header_symbol, letter_keyed, stated_symbol
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import agrees, name_words, named_at, spelled
from ...registry import Pairwise, Scope, rule
from ...row_names import names_header
from ...violation import violation_type
from .figures import CellMisquoted, TableCells, fed_by, held, misquote_finding, quoted, section_figures, sentences, table_cells
from .misquote import as_written, near
from .model import Figures, Quote, TableCell

CITED = "moderate: cited table, symbol and the other header named, another value"
UNCITED = "weak: symbol and the other header named, no table cited, another value"
# The roles of a value a symbol is given: a result ("M = 4.50"), a setting ("μ = 1.4 meV"), a coefficient ("g = 90").
_GIVEN = frozenset({Role.VALUE, Role.SETTING, Role.COEFFICIENT})
# A unit written right after the number: "1.4 meV", "15 K".
_UNIT_AFTER = DeferredPattern(r"\s?([A-Za-zμΩÅ°]{1,4})\b")


@violation_type
class SymbolCellMisquoted(CellMisquoted):
    """A value the prose gives a symbol that is not the cell the symbol and the sentence's other header name."""

    symbol: str

    @property
    def message(self) -> str:
        return f"text says {self.symbol} = {self.quote}, but {self.where}, which its sentence names by symbol, says {self.cell}"

    @property
    def identity(self) -> str:
        return f"{self.symbol} {self.quote} {self.table} {self.cell} symbol"


class _Keyed(NamedTuple):
    """A cell under a symbol header, the unit that header gives, and the cell's other header."""

    cell: TableCell
    unit: str
    other: str


@lru_cache(maxsize=4096)
def _symbol(header: str) -> tuple[str, str]:
    """Read once per header: every cell of a row or column asks."""
    return header_symbol(header)


def _keyed(cells: TableCells, symbol: str) -> Iterator[_Keyed]:
    """The cells of the paper under a row or column header that is `symbol`."""
    for table in cells.by_table.values():
        for cell in table:
            row, column = cell.headers
            for mine, other in ((row, column), (column, row)):
                key, unit = _symbol(mine)
                if key == symbol:
                    yield _Keyed(cell, unit, other)


def _named_end(header: str, before: str) -> int:
    """Where the text before the number last names the header (-1: it does not): a letter-keyed header ("Device A")
    written whole, any other by every word of it."""
    if letter_keyed(header):  # "device A", not "device Alpha"
        written = list(re.finditer(rf"(?<!\w){re.escape(' '.join(header.split()))}(?!\w)", before, re.IGNORECASE))
        return written[-1].end() if written else -1
    words = name_words(header)
    if not words or not names_header(frozenset(name_words(before)), words):
        return -1
    return max(named_at(before, words), default=0)


def _symbol_cell(quote: Quote, cells: TableCells) -> tuple[str, TableCell] | None:
    """The symbol the sentence gives the number and the one cell of the paper its sentence names by it."""
    at = quote.sentence.find(quote.text, len(" ".join(quote.before.split())))
    symbol = stated_symbol(quote.sentence[:at]) if at > 0 else ""
    if not symbol:
        return None
    written_unit = _UNIT_AFTER.match(quote.sentence, at + len(quote.text))
    named: dict[int, list[TableCell]] = {}
    for keyed in _keyed(cells, symbol):
        if keyed.unit and written_unit and written_unit.group(1) != keyed.unit:
            continue  # "μ = 10 eV" against a header in meV: another quantity
        end = _named_end(keyed.other, quote.sentence[:at])
        if end >= 0:
            named.setdefault(end, []).append(keyed.cell)
    last = named[max(named)] if named else []
    return (symbol, last[0]) if len(last) == 1 else None


def _misquote(quote: Quote, cell: TableCell, cells: TableCells) -> str | None:
    """The cell's value as the sentence writes it, when the number misquotes it."""
    told, places = as_written(quote.value, quote.percent, cell.value, cell.decimals)
    if quote.decimals < places - 1 or not near(quote.value, told):
        return None
    if agrees(abs(quote.value), quote.decimals, abs(told)) or agrees(abs(told), places, abs(quote.value)):
        return None  # the cell rounded by the sentence, or by the table
    if any(other.label == cell.label for _, other in cells.by_spelling.agreeing(quote.agreeing)):
        return None  # the sentence gives another value of the same table
    return spelled(told, places)


def _misquotes(ctx: RuleContext, cells: TableCells, place: int, section: Section, part: list[Figures]) -> Iterator[Finding]:
    """The section's values given to a symbol that misquote the cell the symbol and the sentence name. A sentence
    that ties two values to one cell speaks of groups the table does not split ("most prevalent in extremist
    (M = 5.17), nationalist (M = 3.45) and religious manifestos (M = 2.30)" against the overall mean): none is read."""
    if not cells.by_table:
        return
    for sentence in sentences(part[0].quotes):
        ctx.spend(len(sentence))
        tied = [(quote, found) for quote in sentence if quote.role in _GIVEN and (found := _symbol_cell(quote, cells)) is not None]
        per_cell = Counter(cell.place for _, (_, cell) in tied)
        for quote, (symbol, cell) in tied:
            told = _misquote(quote, cell, cells) if per_cell[cell.place] == 1 else None
            if told is not None:
                yield _finding(ctx, quote, symbol, cell, told)


def _finding(ctx: RuleContext, quote: Quote, symbol: str, cell: TableCell, told: str) -> Finding:
    violation = SymbolCellMisquoted(
        quote=quote.text, cell=cell.text, table=cell.label, where=ctx.index.printed(cell.describe), told=told, symbol=symbol
    )
    cited = cell.label in quote.pointing.refs | quote.pointing.paragraph_refs
    evidence = Evidence(
        kind=CITED if cited else UNCITED,
        statements=[quoted(ctx, quote), held(cell)],
        reason=f"the sentence gives {symbol} a value and names {cell.describe}, which holds {cell.text}",
    )
    return misquote_finding(ctx, quote, cell, violation, told, 0.6, evidence)


@rule(
    "NUM022",
    "prose-misquotes-symbol-cell",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "structure", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_by, table_cells, _misquotes),
)
def prose_misquotes_symbol_cell(ctx: RuleContext, section: Section) -> list[Figures]:
    """## What it does
    Flags a value the prose gives a symbol ("$\\mu = 1.4$ meV") when a table keys a row or column by that symbol,
    the sentence names the cell's other header ("device A" for the column "Device A"), and the cell holds another
    value near it. The sentence need not cite the table.

    ## Why is this bad?
    A reader who meets "the fit of device A uses $\\mu = 1.4$ meV" looks up the row μ of the fit table under
    Device A. When it says 1.5, one of the two is stale, and the reader cannot tell which value the fit used.

    ## Example
    ```latex
    The remaining parameters of the fit of device A are $g = 90$, $\\mu = 1.4$ meV.
    % the table: $\\mu$ (meV) & 1.5 $\\pm$ 0.4 & ... under the columns Device A, Device B
    ```

    ## Use instead
    ```latex
    The remaining parameters of the fit of device A are $g = 90$, $\\mu = 1.5$ meV.
    ```

    ## Fix safety
    The fix writes the cell's value into the sentence. It is unsafe: the table may be the side that is wrong.
    """
    return section_figures(ctx, section)
