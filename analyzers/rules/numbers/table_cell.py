"""A table cell as NUM001 and the rules comparing prose with tables read it: its value, its spellings, and what
its row and column headers say of it."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import NamedTuple

from ....latex.manuscript import PlacedBlock
from ....latex.model import Cell, Table
from ....latex.printed_macros import MACRO_CALL
from ....latex.row_keys import header_key
from ...context import RuleContext
from ...quantities import CellAt, column_word, described, exact_spellings, name_words, rounded_spellings
from .model import AVERAGED, CHANGE_HEADER, NAME_LIKE, OURS, SPREAD, CellPlace, TableCell
from .panels import PANEL_TITLE


def table_cell(
    ctx: RuleContext, placed: PlacedBlock, cell: Cell, value: float, above: str, number: int | None = None, grouped: str = ""
) -> TableCell:
    """The cell as NUM001 compares it; `above` is its `lowest_headers`, `number` its column's "(N)" (see
    `column_numbers`), which names it too, and `grouped` its row's name in a group (see `grouped_labels`)."""
    at = CellAt(placed, cell)
    row, column = at.headers()
    own_row = grouped or row.strip() or _own_label(at.table, cell.row)
    read_row, read_column = _printed_header(ctx, own_row), _printed_header(ctx, column)
    return TableCell(
        value=value,
        decimals=cell.decimals,
        text=cell.text,
        label=at.label,
        row_words=read_row.words,
        column_words=read_column.words | ({column_word(number)} if number is not None else set()),
        named=read_row.named or read_column.named,
        aggregate=read_row.averaged or read_column.averaged or _header(above).averaged,
        change=cell.text.lstrip("$ ").startswith(("+", "-", "−")) or read_column.change,
        # Under a numbered (regression) column, a parenthesised cell is the estimate's standard error.
        spread=read_column.spread or (number is not None and cell.text.strip().startswith("(")),
        ours=read_row.ours,
        with_spread=cell.spread is not None,
        describe=described(at.label, grouped or row, column),
        headers=(own_row, column),
        place=CellPlace(placed.file, *ctx.positions(placed.file, cell.start, cell.end)),
        rounded=rounded_spellings(value, cell.decimals),
        exact=exact_spellings(value, cell.decimals),
        panel=panel.group(1).upper() if (panel := PANEL_TITLE.match(above)) else "",
    )


class _Header(NamedTuple):
    """What a row or column header says of its cells (see `TableCell`)."""

    words: frozenset[str]  # name_words
    named: bool  # NAME_LIKE
    averaged: bool  # AVERAGED
    change: bool  # CHANGE_HEADER
    spread: bool  # SPREAD
    ours: bool  # OURS


def _own_label(table: Table, row: int) -> str:
    """The label of a row whose first cell is blank, a row of a group that a `\\multirow` (or the row above)
    names once: its second cell, when that is text ("PCV7 vs NoVax" under a blank "Costs" cell). The group's
    name is left out, so that the row is named as the sentence names it; a label that recurs from group to group
    names several rows, and the rules bind none."""
    cells = table.rows[row]
    if len(cells) > 1 and not cells[0].text.strip() and cells[1].value is None:
        return cells[1].text
    return ""


def grouped_labels(table: Table) -> dict[int, str]:
    """The rows of a group whose own label recurs outside it (`\\multirow{2}{*}{BERT} & SST`, then `& MNLI`, and
    RoBERTa's SST and MNLI below), each with the group's name and its label ("BERT MNLI"), which a sentence names
    to name that one row ("BERT reaches 84.0 on MNLI"). Other rows keep the name `table_cell` reads."""
    rows = table.rows
    labels = {at: rows[at][1].text.strip() for at in range(table.header_rows, len(rows)) if len(rows[at]) > 1 and rows[at][1].value is None}
    labels = {at: label for at, label in labels.items() if label}
    everywhere = Counter(labels.values())
    named: dict[int, str] = {}
    at = table.header_rows
    while at < len(rows):
        last = at
        while at in labels and last + 1 in labels and not rows[last + 1][0].text.strip():
            last += 1
        group = rows[at][0].text.strip()
        if group and last > at:
            inside = Counter(labels[row] for row in range(at, last + 1))
            named |= {row: f"{group} {labels[row]}" for row in range(at, last + 1) if everywhere[labels[row]] > inside[labels[row]]}
        at = last + 1
    return named


def _printed_header(ctx: RuleContext, text: str) -> _Header:
    """A header read as the paper prints it, the author's macros spelled out ("\\calvin" as "CALVIN"), so that a
    sentence naming the row either way names it; a macro still counts as a name, and one that prints no word of a
    name ("\\Zprime" as "Z'") stays as written."""
    if "\\" not in text:  # most headers call no macro
        return _header(text)
    printed = MACRO_CALL.sub(lambda call: _named(ctx.index.printed(call.group())) or call.group(), text)
    read = _header(printed)
    return read if printed == text else read._replace(named=read.named or _header(text).named)


def _named(printed: str) -> str:
    """A macro's printing, when it prints a name: a word of two letters or more."""
    return printed if "\\" not in printed and name_words(printed) else ""


@lru_cache(maxsize=4096)
def _header(text: str) -> _Header:
    """Read once per header text: every cell of a row or column asks."""
    key = header_key(text)  # "(2,2,Y)": a key of no words, named by being written whole, and a name
    return _Header(
        frozenset(name_words(text)) or key,
        bool(key or NAME_LIKE.search(text)),
        bool(AVERAGED.match(text)),
        bool(CHANGE_HEADER.search(text)),
        bool(SPREAD.search(text)),
        bool(OURS.search(text)),
    )
