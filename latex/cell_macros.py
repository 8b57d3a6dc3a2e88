"""Table cells written through the author's own macros, read as TeX prints them.

A results table often marks its best cells with a macro of the paper's own (`\\newcommand{\\B}[1]{\\textbf{#1}}`,
`\\newcommand{\\sbest}[1]{\\underline{#1}}`), or writes a mean with its spread through one
(`\\newcommand{\\res}[2]{#1$\\pm$#2}`). The parse reads each chunk without the preamble, so such a cell shows
the macro's name glued to its arguments ("\\B85.3", "\\res84.10.3"): not bold, and no number. Placing a
table in its project, where the definitions are known, reads each cell that uses one again from its source
with the author's macros expanded, so its marks, its value and its spread are those a reader sees. The cell
keeps its place in the source, and a cell without such a use stays as the parse read it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from .dead_text import Unread, dead_text
from .expansion import MacroTable
from .model import Block, Cell, MacroDef
from .record import record
from .tables import read_cell

if TYPE_CHECKING:
    from .files import ProjectFiles

# A definition as expansion reads it: command, name, arguments, body, default of an optional #1.
_Definition = tuple[str, str, int, str, str | None]


@record(slots=True)
class CellMacros:
    """The author's definitions a cell may be written through: those of macros that take arguments, and every
    other one a use expands through (`\\B` may call `\\best`). Compared by value: an edit that leaves the
    definitions alone keeps the manuscript's blocks."""

    definitions: tuple[_Definition, ...]
    taking: tuple[str, ...]  # the names of the macros that take arguments

    def used_in(self, source: str) -> bool:
        return bool(self.taking) and _uses(self.taking).search(source) is not None

    def expand(self, source: str) -> str:
        return _table(self.definitions).expand(source)


def cell_macros(project: ProjectFiles, unread: Unread) -> CellMacros:
    """What the project's definitions say about its cell macros: those TeX reads (not in `\\iffalse`)."""
    definitions: list[_Definition] = []
    for path in project.files:
        document = project.documents[path]
        if not document.parsed.macros:
            continue
        dead = dead_text(document.text, unread)  # once a file: every keystroke builds these again
        definitions += (
            (macro.command, macro.name.lstrip("\\"), macro.arguments, macro.body, macro.optional)
            for macro in document.parsed.macros
            if not dead.covers(macro.start)
        )
    taking = tuple(sorted({name for _, name, arguments, _, _ in definitions if arguments and name.isalpha()}))
    return CellMacros(tuple(definitions), taking)


def with_cell_macros(block: Block, text: str, macros: CellMacros) -> Block:
    """`block` with each cell of its table that uses an author's macro read again from `text` expanded."""
    table = block.table
    if table is None or not macros.taking:
        return block
    source = text[table.start : table.end]
    kept = _READ.get(id(block))
    if kept is not None and kept[0] is block and kept[1] == macros and kept[2] == source:
        return kept[3]
    read = block
    if macros.used_in(source):
        cells = _cells_read(macros)
        rows = [[_read_again(cell, text, macros, cells) for cell in row] for row in table.rows]
        read = replace(block, table=replace(table, rows=rows))
    if len(_READ) >= _KEPT:
        _READ.clear()
    _READ[id(block)] = (block, macros, source, read)
    return read


# Typing elsewhere in a file hands its unchanged blocks over again: each is read once, and stays the same object,
# so the manuscript that an edit moves keeps its section (see manuscript._moved).
_READ: dict[int, tuple[Block, CellMacros, str, Block]] = {}
_KEPT = 512


def _read_again(cell: Cell, text: str, macros: CellMacros, cells: dict[tuple[str, int, int], Cell | None]) -> Cell:
    source = text[cell.start : cell.end]
    if not macros.used_in(source):
        return cell
    key = (source, cell.row, cell.column)
    if key not in cells:
        expanded = macros.expand(source)
        # `\\ms{1.0}{2.0}` for "1.0 & 2.0": TeX sets two cells where the parse saw one; the grid is not this one (None)
        cells[key] = None if _SPANS_CELLS.search(expanded) else read_cell(expanded, cell.row, cell.column)
    again = cells[key]
    return cell if again is None else replace(again, start=cell.start, end=cell.end, column_span=cell.column_span)


def _cells_read(macros: CellMacros) -> dict[tuple[str, int, int], Cell | None]:
    """The cells read under `macros`, by source, row and column: typing in one cell of a long table reads that cell
    again, not its neighbours. Emptied when the definitions change, or when it has grown large."""
    if not _CELLS or _CELLS[0][0] != macros or len(_CELLS[0][1]) >= _KEPT_CELLS:
        _CELLS[:] = [(macros, {})]
    return _CELLS[0][1]


_CELLS: list[tuple[CellMacros, dict[tuple[str, int, int], Cell | None]]] = []
_KEPT_CELLS = 16384


# An alignment tab or a row's end: what a macro's expansion may hold that makes one cell several.
_SPANS_CELLS = re.compile(r"(?<!\\)&|\\\\")


@lru_cache(maxsize=16)
def _uses(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"\\(?:" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")(?![A-Za-z@])")


# The definitions stay the same while the author types in the text: one expansion table for them.
@lru_cache(maxsize=4)
def _table(definitions: tuple[_Definition, ...]) -> MacroTable:
    return MacroTable(
        MacroDef(command, name, arguments, body, 0, 0, optional=optional) for command, name, arguments, body, optional in definitions
    )
