"""NUM: numbers in the prose that disagree with the tables, each other, or their own arithmetic."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...latex.memory import NumberInContext
from ...latex.numbers import find_numbers
from ..context import RuleContext
from ..finding import Category, Finding, Severity
from ..quantities import CellAt, TableIndex, name_words, referenced_labels, spelled
from ..registry import rule

_DIGITS = re.compile(r"[-−]?[\d.,]+")


@rule("NUM001", "prose-contradicts-table", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "structure"))
def prose_contradicts_table(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a number in the prose that is one digit away from a table cell it talks about,
    while no table holds the number itself. The sentence must tie the number to the cell:
    it references the table (`\\ref{tab:…}`), or it names both the cell's row (method) and
    its column (dataset, metric). Rounding is allowed: 93.4 in the text matches 93.42 in
    the table, and 48.66% matches a fraction cell 0.4866.

    ## Why is this bad?
    The reader quotes the sentence, the reviewer checks the table. A narrative number that
    contradicts its own evidence (PaperAudit's "48.66% on AlpacaEval vs 38.66 in the
    table") is evidence manipulation, whether it started as a typo or not.

    ## Example
    ```latex
    Ours reaches 48.66 on AlpacaEval (Table~\\ref{tab:main}).
    % tab:main: Ours & 38.66 \\\\
    ```

    ## Use instead
    ```latex
    Ours reaches 38.66 on AlpacaEval (Table~\\ref{tab:main}).
    ```

    ## Fix safety
    The fix writes the table's value into the sentence. It is unsafe: the table may be the
    side that is wrong.
    """
    index = TableIndex(ctx.memory.tables)
    if not index.tables:
        return
    for number in ctx.memory.numbers:
        mention = number.mention
        if mention.is_year or not (mention.decimals >= 1 or (mention.percent and mention.value >= 10)):
            continue
        if index.agreeing(mention.value, mention.decimals):
            continue
        cell = _anchored_cell(number, index)
        if cell is None:
            continue
        told = spelled(cell.cell.value if not _as_percent(mention.value, cell) else cell.cell.value * 100, mention.decimals)
        digits = _DIGITS.match(mention.text)
        length = digits.end() if digits else len(mention.text)
        start, end = number.block.block.plain.source_span(mention.plain_start, mention.plain_start + length)
        fix = ctx.fix(f"Write the table's value {told}", ctx.edit(number.block.file, start, end, ("-" if mention.value < 0 else "") + told))
        yield ctx.report_block(
            number.block, mention.plain_start, mention.plain_end,
            f"text says {mention.text}, {cell.describe()} says {cell.cell.text}",
            identity=f"{mention.text} {cell.label} {cell.cell.text}",
            related=[ctx.related(cell.placed.file, cell.cell.start, cell.cell.end, f"the table's value {cell.cell.text}")],
            fixes=[fix],
        )


def _as_percent(value: float, cell: CellAt) -> bool:
    return cell.cell.value is not None and abs(cell.cell.value) <= 1 < abs(value)


def _anchored_cell(number: NumberInContext, index: TableIndex) -> CellAt | None:
    """The one cell this number is a mistyped copy of, if the sentence ties them together."""
    mention = number.mention
    candidates = index.one_digit_away(mention.value, mention.decimals)
    if not candidates:
        return None
    # A cell whose own value the sentence also states is being compared with, not copied.
    stated = {spelled(other.value, other.decimals) for other in find_numbers(mention.sentence)}
    candidates = [c for c in candidates if spelled(c.cell.value, c.cell.decimals) not in stated]  # type: ignore[arg-type]
    refs = referenced_labels(mention.sentence)
    words = name_words(mention.sentence)
    anchored = []
    for candidate in candidates:
        row, column = candidate.headers()
        if candidate.label in refs and (words & name_words(row) or words & name_words(column) or len(refs) == 1):
            anchored.append(candidate)
        elif words & name_words(row) and words & name_words(column):
            anchored.append(candidate)
    values = {candidate.cell.value for candidate in anchored}
    return anchored[0] if len(values) == 1 else None
