"""Matching numbers written in prose to table cells, within rounding.

Shared by the NUM and TAB rules. A table index is built once per check: every
numeric cell is keyed by the strings a careful author could write for it
("93.42" → "93.42", "93.4", "93"; a fraction 0.4866 also as the percentage
"48.66"), so "does this prose number appear in a table?" is one dict lookup,
and "is it one mistyped digit away from a cell?" is a handful of lookups.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..latex.manuscript import PlacedBlock
from ..latex.model import Cell, Table

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-+]*")
_MACRO = re.compile(r"\\[A-Za-z@]+")
# Macros that survive into plain text but name nothing: references, citations, spacing.
_NOT_A_NAME = re.compile(r"\\(?:(?:auto|c|C|eq|page)?ref|cite\w*|\w*cite|label|url|href|xspace|[hv]space|(?:no)?indent)$")
_REF = re.compile(r"\\(?:ref|autoref|cref|Cref)\*?\{([^}]*)\}")
# Header words that name no setting: they appear in every table.
_GENERIC = frozenset({
    "method", "methods", "model", "models", "ours", "our", "the", "and", "avg", "average", "mean", "std", "results",
    "result", "dataset", "datasets", "metric", "metrics", "baseline", "baselines", "best", "all", "total", "acc",
    "score", "scores", "setting", "settings", "task", "tasks", "table", "with", "without", "for", "from", "test",
    "train", "val", "cite", "citep", "citet", "ref",
})


def slack(decimals: int) -> float:
    """Half a unit in the last written place: what rounding can hide."""
    return 0.5 * 10.0 ** -decimals + 1e-9


def agrees(written: float, decimals: int, exact: float) -> bool:
    """`written` (with `decimals` places) is `exact` rounded or truncated."""
    if abs(written - exact) <= slack(decimals):
        return True
    step = 10.0 ** -decimals
    return abs(written - int(exact / step) * step) <= 1e-9 * max(1.0, abs(exact))


def spelled(value: float, decimals: int) -> str:
    return f"{abs(value):.{max(decimals, 0)}f}"


def name_words(text: str) -> set[str]:
    """Distinctive lower-case words of a header or caption. A user macro that names a method
    ("\\method{} reaches …" against a row "\\method") is a word of its own, backslash kept."""
    macros = {macro.lower() for macro in _MACRO.findall(text) if not _NOT_A_NAME.match(macro)}
    return ({word.lower() for word in _WORD.findall(_MACRO.sub(" ", text)) if len(word) > 1} - _GENERIC) | macros


def referenced_labels(text: str) -> set[str]:
    return {key.strip() for match in _REF.finditer(text) for key in match.group(1).split(",")}


def tie(cell: "CellAt", sentence: str, paragraph: str) -> int:
    """How firmly a sentence points at a cell: 2 when it names the cell's row and column, 1 when it
    references the cell's table (or its paragraph does) and names the row or the column (or the
    sentence cites that table alone), 0 when nothing ties them."""
    row, column = cell.headers()
    words = name_words(sentence)
    named_row, named_column = bool(words & name_words(row)), bool(words & name_words(column))
    if named_row and named_column:
        return 2
    refs = referenced_labels(sentence)
    if cell.label in refs and (named_row or named_column or len(refs) == 1):
        return 1
    return 1 if (named_row or named_column) and cell.label in referenced_labels(paragraph) else 0


def named_share(words: set[str], header: str) -> float:
    """The share of a header's distinctive words that `words` contains: "tt Hadronic" names the
    row "tt Hadronic" fully (1.0) and the row "tt Dileptonic" half (0.5)."""
    own = name_words(header)
    return len(words & own) / len(own) if own else 0.0


@dataclass(slots=True)
class CellAt:
    """A numeric cell with the table it sits in."""

    placed: PlacedBlock
    cell: Cell

    @property
    def table(self) -> Table:
        return self.placed.block.table  # type: ignore[return-value]

    @property
    def label(self) -> str:
        return self.table.label or (self.placed.block.labels[0] if self.placed.block.labels else "")

    def headers(self) -> tuple[str, str]:
        return self.table.row_header(self.cell.row), self.table.column_header(self.cell.column)

    def describe(self) -> str:
        row, column = self.headers()
        where = ", ".join(part for part in (f"row {_short(row)}" if row else "", f"column {_short(column)}" if column else "") if part)
        name = f"Table {self.label}" if self.label else "a table"
        return f"{name} ({where})" if where else name


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:37] + "…"


@dataclass
class TableIndex:
    tables: list[PlacedBlock]
    by_label: dict[str, PlacedBlock] = field(default_factory=dict)
    _by_spelling: dict[str, list[CellAt]] = field(default_factory=dict)
    _by_exact: dict[str, list[CellAt]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for placed in self.tables:
            table = placed.block.table
            if table is None:
                continue
            for label in [table.label, *placed.block.labels]:
                if label:
                    self.by_label[label] = placed
            for cell in body_cells(table):
                if cell.value is None:
                    continue
                at = CellAt(placed, cell)
                for spelling in _spellings(cell.value, cell.decimals):
                    self._by_spelling.setdefault(spelling, []).append(at)
                for spelling in {spelled(cell.value, cell.decimals), spelled(cell.value * 100, max(cell.decimals - 2, 0))}:
                    self._by_exact.setdefault(spelling, []).append(at)

    def agreeing(self, value: float, decimals: int) -> list[CellAt]:
        """Cells this prose number could be a rounding of ("0.80" also matches a cell written "0.8")."""
        found: list[CellAt] = []
        for places in range(decimals, -1, -1):
            written = spelled(value, places)
            if places < decimals and abs(float(written) - value) > 1e-9:
                break
            found += self._by_spelling.get(written, [])
        return found

    def one_digit_away(self, value: float, decimals: int) -> list[CellAt]:
        """Cells written with the same precision that differ in exactly one digit (or two swapped ones)."""
        written = spelled(value, decimals)
        found: list[CellAt] = []
        seen: set[int] = set()
        for variant in digit_variants(written):
            for at in self._by_exact.get(variant, ()):
                if id(at) not in seen:
                    seen.add(id(at))
                    found.append(at)
        return found


def body_cells(table: Table) -> Iterator[Cell]:
    for row in table.rows[table.header_rows:]:
        yield from row


def _spellings(value: float, decimals: int) -> set[str]:
    spellings = {spelled(value, places) for places in range(decimals, -1, -1)}
    if abs(value) <= 1 and decimals >= 2:  # a fraction cell read as a percentage
        spellings |= {spelled(value * 100, places) for places in range(decimals - 2, -1, -1)}
    return spellings


def digit_variants(written: str) -> Iterator[str]:
    """Spellings one mistyped digit (or one swap of neighbours) away."""
    digits = [i for i, char in enumerate(written) if char.isdigit()]
    for i in digits:
        for replacement in "0123456789":
            if replacement != written[i] and not (i == 0 and replacement == "0" and len(digits) > 1 and written[1:2] != "."):
                yield written[:i] + replacement + written[i + 1:]
    for a, b in zip(digits, digits[1:]):
        if b == a + 1 and written[a] != written[b]:
            yield written[:a] + written[b] + written[a] + written[b + 1:]
