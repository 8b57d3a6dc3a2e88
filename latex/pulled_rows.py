"""Rows a tabular reads from a file: `\\begin{tabular}{lcc} … \\input{tables/coefs} \\end{tabular}`.

Tables written by estout, stargazer or xtable keep their header in the paper and their body in a
generated file of bare rows (`a & b \\\\`), read by `\\input` or by a command of the paper's own
(`\\let\\PlainInput=\\@@input`). The rows join the table's grid where the command stands, so every rule
that reads the table sees them; their cells sit on that command, the place a reader can go to.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache

from .model import Cell, Table
from .tables import bare_rows

# A definition of the command, with what it does up to the end of its line.
_DEFINITION = r"\\(?:let|def|gdef|edef|xdef|(?:re|provide)?newcommand\*?|DeclareRobustCommand\*?)\s*\{{?\\{name}(?![A-Za-z@])[^\n]*"


def reads_files(command: str, texts: Iterable[str]) -> bool:
    """Whether a command of the paper's own may read a file: it is defined nowhere the project holds
    (a package's), or one of its definitions reads one (`\\@@input`, `\\input`, `\\InputIfFileExists`)."""
    pattern = re.compile(_DEFINITION.format(name=re.escape(command)))
    definitions = [match.group(0) for text in texts for match in pattern.finditer(text)]
    return not definitions or any(re.search(r"input|include", definition, re.IGNORECASE) for definition in definitions)


def with_pulled_rows(table: Table, texts: Sequence[str | None]) -> Table:
    """`table` with the rows of each file it reads (`texts[i]` for `table.pulls[i]`, None: not read)
    set where the command reading them stands, and the rules drawn among them."""
    rows: list[list[Cell]] = []
    rules: list[tuple[int, str]] = []
    header_rows = table.header_rows
    for at in range(len(table.rows) + 1):
        # A rule drawn where a file is read: above its rows, but the closing rule below them.
        rules += [(len(rows), name) for row, name in table.rules if row == at and name != "bottomrule"]
        for pull, text in zip(table.pulls, texts):
            if pull.row != at or text is None:
                continue
            pulled, pulled_rules, pulled_header = _read_rows(text)
            if not table.rows and not rows:  # the file holds the header too
                header_rows = pulled_header
            rules += [(len(rows) + row, name) for row, name in pulled_rules]
            rows += [[replace(cell, start=pull.start, end=pull.end) for cell in row] for row in pulled]
        rules += [(len(rows), name) for row, name in table.rules if row == at and name == "bottomrule"]
        if at < len(table.rows):
            rows.append(table.rows[at])
    for number, row in enumerate(rows):
        rows[number] = [replace(cell, row=number) if cell.row != number else cell for cell in row]
    if not rows:
        return table
    return replace(table, rows=rows, rules=tuple(rules), header_rows=max(1, min(header_rows, len(rows) - 1)), pulls=())


@lru_cache(maxsize=64)
def _read_rows(text: str) -> tuple[list[list[Cell]], tuple[tuple[int, str], ...], int]:
    return bare_rows(text)
