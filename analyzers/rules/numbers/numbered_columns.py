"""Columns a sentence names by their number: "Column (1)" for a regression table's column headed "(1)", "model 2"
for a column "Model 2". Such a name picks one column of a series, so the sentence both ties a number to that
column and says it does not quote the others.
"""

from __future__ import annotations

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell, Table
from ...quantities import spelled
from .model import Quote, TableCell

# A regression table's column number: "(1)", "(2)", … heading the estimates of one specification each.
_COLUMN_NUMBER = DeferredPattern(r"^\s*\((\d{1,2})\)\s*$")


def column_numbers(table: Table) -> dict[tuple[int, int], int]:
    """The number of each body cell's column, (row, column) → N, where a row of "(1)", "(2)", … above it numbers
    the columns (a regression table's specifications; a panel renumbers its own); the numbering row's own cells
    are not numbered, being no results."""
    numbers: dict[tuple[int, int], int] = {}
    current: dict[int, int] = {}
    for index, row in enumerate(table.rows):
        filled = [cell for cell in row if cell.text.strip()]
        found = [_COLUMN_NUMBER.match(cell.text) for cell in filled]
        if len(filled) >= 2 and all(found):
            current = {column: int(match.group(1)) for cell, match in zip(filled, found) if match for column in _spanned(cell)}
            continue
        if index >= table.header_rows:
            numbers.update(((cell.row, cell.column), current[cell.column]) for cell in row if cell.column in current)
    return numbers


# A header word with its number ("model 2", "column 1"), as `name_words` gives it.
_NUMBERED_WORD = DeferredPattern(r"[a-z]+ \d+")


def numbered_names(words: frozenset[str]) -> frozenset[str]:
    return frozenset(word for word in words if _NUMBERED_WORD.fullmatch(word))


def column_picked(words: frozenset[str], cell: TableCell) -> bool:
    """The sentence names the cell's column by its number: "model 2" for a column "Model 2", "column (1)" for "(1)"."""
    return bool(numbered_names(cell.column_words) & words)


def another_numbered_column(words: frozenset[str], meant: TableCell, holder: TableCell) -> bool:
    """The sentence picks `meant`'s column by its number, and `holder`'s column is another of the same series that
    it does not name ("model 2 improves r2 to 0.56" where 0.56 is Model 3's): the number quotes no cell there."""
    picked = numbered_names(meant.column_words) & words
    others = numbered_names(holder.column_words)
    series = {word.rpartition(" ")[0] for word in picked}
    return bool(picked) and not others & words and any(word.rpartition(" ")[0] in series for word in others)


def _spanned(cell: Cell) -> range:
    return range(cell.column, cell.column + cell.column_span)


def leading_slip_in_guessed_row(quote: Quote, cell: TableCell, told: str) -> bool:
    """Only the column's number ties the sentence to the cell, so its row is guessed from the value: a slip of the
    leading figure there (9.7% against column 2's R-squared 0.017) ties nothing."""
    words = quote.pointing.words
    if not column_picked(words, cell) or words & cell.row_words:
        return False
    return told.lstrip("0.")[:1] != spelled(quote.value, quote.decimals).lstrip("0.")[:1]
