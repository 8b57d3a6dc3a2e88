"""Plain data of the manuscript model: what one file contributes.

Offsets are code-point offsets into the file's text. These are hot internal
structures, so they are slotted dataclasses, not pydantic models.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from .record import record


class BlockKind(str, Enum):
    PARAGRAPH = "paragraph"
    MATH = "math"
    TABLE = "table"
    FIGURE = "figure"
    CAPTION = "caption"
    THEOREM = "theorem"
    ALGORITHM = "algorithm"
    FOOTNOTE = "footnote"
    CODE = "code"


class SectionKind(str, Enum):
    FRONT = "front"  # anything before the first heading: title, preamble text
    ABSTRACT = "abstract"
    INTRODUCTION = "introduction"
    RELATED_WORK = "related_work"
    METHOD = "method"
    EXPERIMENTS = "experiments"
    RESULTS = "results"
    DISCUSSION = "discussion"
    CONCLUSION = "conclusion"
    LIMITATIONS = "limitations"
    ETHICS = "ethics"
    APPENDIX = "appendix"
    REFERENCES = "references"
    OTHER = "other"


@dataclass(slots=True)
class PlainText:
    """A plain-text view of LaTeX that maps back to the source.

    `segments` are (plain_start, plain_end, src_start, src_end) runs in plain
    order, their source offsets relative to `offset`. A run as long in plain
    text as in source maps 1:1; any other run (a macro rendered as a symbol,
    collapsed white space) maps each of its characters to the whole source span.
    """

    text: str
    segments: list[tuple[int, int, int, int]]
    # Moving a view (a chunk's parse placed in its file) changes only this: the segments are shared.
    offset: int = 0

    def _segment(self, index: int) -> tuple[int, int, int, int] | None:
        if not self.segments:
            return None
        position = bisect.bisect_right(self.segments, index, key=lambda segment: segment[0]) - 1
        return self.segments[max(position, 0)]

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """Source span covering the plain range [start, end)."""
        first = self._segment(start)
        if first is None:
            return 0, 0
        plain_start, plain_end, src_start, src_end = first
        one_to_one = plain_end - plain_start == src_end - src_start
        source_start = src_start + min(start - plain_start, src_end - src_start) if one_to_one else src_start
        last = self._segment(max(end - 1, start))
        assert last is not None  # there are segments: the first was found
        plain_start, plain_end, src_start, src_end = last
        one_to_one = plain_end - plain_start == src_end - src_start
        source_end = src_start + min(max(end - plain_start, 0), src_end - src_start) if one_to_one else src_end
        return self.offset + source_start, self.offset + max(source_start, source_end)

    def source_offset(self, index: int) -> int:
        return self.source_span(index, index + 1)[0]

    def shifted(self, delta: int) -> PlainText:
        return PlainText(self.text, self.segments, self.offset + delta)


@dataclass(slots=True)
class Cell:
    row: int
    column: int
    text: str  # plain text of the cell
    start: int
    end: int
    value: float | None = None  # the cell's main number, if it is numeric
    spread: float | None = None  # the ± part
    percent: bool = False
    bold: bool = False
    underline: bool = False
    column_span: int = 1
    decimals: int = 0  # digits after the decimal point, for rounding tolerance
    italic: bool = False


@dataclass(slots=True)
class Table:
    rows: list[list[Cell]]
    start: int
    end: int
    environment: str
    header_rows: int = 1
    caption: str | None = None
    label: str | None = None
    # (row, macro) for each rule drawn above a row (row == len(rows) below the last), and each lone
    # argument-less macro there: an author's rule (\shline) once its definition is known.
    rules: tuple[tuple[int, str], ...] = ()
    # Files whose bare rows the tabular reads where it stands (`\input{rows}`, `\PlainInput{rows}`), as
    # (row, command, file as written, start, end of the command): rows come in above `row`.
    pulls: tuple[RowPull, ...] = ()

    def column_header(self, column: int) -> str:
        parts = [
            cell.text
            for row in self.rows[: self.header_rows]
            for cell in row
            if cell.column <= column < cell.column + cell.column_span and cell.text
        ]
        return " ".join(parts)

    def row_header(self, row: int) -> str:
        cells = self.rows[row]
        return cells[0].text if cells else ""

    def set_apart(self, row: int) -> bool:
        """A row set in italics, its name and two or more numbers: concurrent or non-comparable work, shown beside
        the comparison and not in it (a table that bolds its best leaves these rows out)."""
        cells = self.rows[row]
        numbers = [cell for cell in cells[1:] if cell.value is not None]
        return len(numbers) >= 2 and cells[0].italic and all(cell.italic for cell in numbers)

    def shifted(self, delta: int) -> Table:
        rows = [[_shift_cell(cell, delta) for cell in row] for row in self.rows]
        pulls = tuple(RowPull(pull.row, pull.command, pull.target, pull.start + delta, pull.end + delta) for pull in self.pulls)
        return Table(
            rows, self.start + delta, self.end + delta, self.environment, self.header_rows, self.caption, self.label, self.rules, pulls
        )


class RowPull(NamedTuple):
    """A command in a tabular that reads the rows of a file there: `\\input{tables/rows}`."""

    row: int
    command: str
    target: str
    start: int
    end: int


def _shift_cell(cell: Cell, delta: int) -> Cell:
    return Cell(
        cell.row,
        cell.column,
        cell.text,
        cell.start + delta,
        cell.end + delta,
        cell.value,
        cell.spread,
        cell.percent,
        cell.bold,
        cell.underline,
        cell.column_span,
        cell.decimals,
        cell.italic,
    )


@dataclass(slots=True)
class Block:
    kind: BlockKind
    start: int
    end: int
    plain: PlainText
    environment: str | None = None
    labels: list[str] = field(default_factory=list)
    table: Table | None = None
    # A caption's float labels: its sentences speak of that float ("E.g. 49.5% of the trees …") without citing it.
    describes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Heading:
    level: int  # 0 part, 1 chapter, 2 section, 3 subsection, … 5 paragraph
    title: str
    starred: bool
    start: int
    end: int


@dataclass(slots=True)
class KeyUse:
    """A key in \\ref-like, \\cite-like or \\label commands."""

    command: str
    key: str
    start: int  # span of the key itself
    end: int
    kind: str = ""  # for labels: section, figure, table, equation, theorem, other


@dataclass(slots=True)
class IncludeSite:
    command: str
    target: str
    start: int  # span of the argument
    end: int
    kind: str  # "tex", "bib", "package", "class", or "file" (read as it is: a figure, a listing)
    base_dir: str = ""  # for \import{dir}{file}


@record(slots=True)
class Inclusion:
    """An include site and the project file it resolved to (None: not followed)."""

    file: str
    site: IncludeSite
    target: str | None


@dataclass(slots=True)
class MacroDef:
    command: str  # newcommand, renewcommand, providecommand, def, DeclareMathOperator
    name: str
    arguments: int
    body: str
    start: int
    end: int
    # The conditionals around the definition: (ordinal of the conditional in the file, branch
    # number, conditionals.NEVER for a branch TeX never takes), outermost first.
    branch: tuple[tuple[int, int], ...] = ()
    # `\newcommand{\ket}[2][\psi]{…}`: #1 is optional, and this is its default (None: no optional argument).
    optional: str | None = None


@dataclass(slots=True)
class Acronym:
    short: str
    long: str
    start: int
    end: int
    origin: str  # "inline" ("Large Language Model (LLM)") or the package command


@dataclass(slots=True)
class StyledText:
    """Text under a colour, size or phantom command: hidden-text evidence."""

    command: str
    style: str  # the colour name, font size, or the command for phantoms
    text: str
    start: int
    end: int


@dataclass(slots=True)
class Marker:
    kind: str  # "appendix", "begin_document", "end_document", "bibliography", "thebibliography"
    offset: int
