"""NUM010: a sentence whose numbers cut the table cells they quote instead of rounding them.

## How it decides
A sentence quotes a cell with fewer places than the cell has: 0.3083 as 0.31, 0.8477 as 84.8% or 85%. Cut
instead of rounded, the cell reads 0.30 and 84%: a value the table does not give, and one that understates
every quote in the same direction. One such number alone may be a slip of the author or a coincidence of
digits; a sentence in which two or more numbers each cut a cell they quote, and none rounds one up, writes
its values that way.

A number of the sentence is a cut quote when, of the cells of the tables the sentence references (else
those its paragraph references), the cells it names best (their row and column words, then the share of those words the sentence
names) are cells of one value that the number cuts: the value's dropped digits are more than half a unit of
the number's last place, so that rounding gives another number. A cell anywhere that the number quotes
correctly (as written, or rounded) and that the sentence names as well excuses it. A fraction cell is quoted
as a percentage too (0.8477 as 84%). The number must be a result (not a range's end, a bound or an
approximation: "about 0.30" is rounded on purpose) written with a decimal point or as a percentage: a whole
number cut from a decimal ("154 s" for 154.7) is how counts and durations are written.

The sentence's other numbers decide: one that rounds a cell it names up (0.6348 written 0.64) shows the
author rounds, and the sentence is passed. The finding is information; its evidence class says whether the
sentence itself references the table ("moderate: …") or only its paragraph does ("weak: …").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from ....latex.manuscript import Section
from ....latex.numbers import Role
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import named_share, spelled, tie_words
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from .figures import TableCells, fed_by, held, misquote_finding, quoted, section_figures, sentences, table_cells
from .model import Figures, Quote, TableCell

# Two cut numbers in one sentence make a manner of writing, not a slip.
CUT_IN_A_SENTENCE = 2
# The places a float holds exactly enough to tell a cut from a rounding.
MOST_PLACES = 12


@violation_type
class CutQuote(Violation):
    """A prose number (`quote`) that cuts the cell it quotes (`cell`, in `table`; `where` describes it) instead of
    rounding it (`rounded`), one of `cut` such numbers of its sentence."""

    quote: str
    cell: str
    table: str
    where: str
    rounded: str
    cut: int

    @property
    def message(self) -> str:
        return (
            f"text says {self.quote}, {self.where} says {self.cell}, which rounds to {self.rounded}: "
            f"the sentence cuts {self.cut} of the values it quotes instead of rounding them"
        )

    @property
    def fix_title(self) -> str:
        return f"Write the rounded value {self.rounded}"

    @property
    def identity(self) -> str:
        return f"{self.quote} {self.table} {self.cell} cut"


class _Shortened(NamedTuple):
    """How a number writes a cell with fewer places: `cut` (its dropped digits are over half a unit) or rounded up;
    `rounded` is the cell correctly rounded to the number's places."""

    cut: bool
    rounded: str


def shortened(quote: Quote, cell: TableCell) -> _Shortened | None:
    """The number as the cell cut or rounded up to the number's places (as a percentage for a fraction cell quoted
    as one), or None: the number is neither, or the cell's dropped digits are half a unit, which either reading gives."""
    if cell.decimals > MOST_PLACES or quote.decimals > MOST_PLACES:
        return None  # past a float's precision (a cell written with dozens of places)
    units = round(abs(cell.value) * 10**cell.decimals)  # the cell's digits, as written
    wanted = round(abs(quote.value) * 10**quote.decimals)
    if quote.value * cell.value < 0:
        return None
    for percent in (True, False) if quote.percent and abs(cell.value) <= 1 else (False,):
        dropped = cell.decimals - (2 if percent else 0) - quote.decimals
        if dropped < 1:
            continue
        step = 10**dropped
        kept, rest = divmod(units, step)
        if rest * 2 <= step or wanted not in (kept, kept + 1):
            continue
        rounded = spelled((kept + 1) / 10**quote.decimals, quote.decimals)
        return _Shortened(cut=wanted == kept, rounded=rounded)
    return None


def _named(quote: Quote, cell: TableCell) -> tuple[int, float]:
    """How well the sentence names the cell: its tie, then the share of the cell's header words it names ("on
    average" names an Average row or column in full)."""
    words = quote.pointing.words
    tie = tie_words(quote.pointing, cell.label, cell.row_words, cell.column_words)
    return tie, named_share(words, cell.row_words) + named_share(words, cell.column_words) + (quote.aggregate and cell.aggregate)


class _Reading(NamedTuple):
    """A number of a sentence and the cell it writes with fewer places: cut or rounded up."""

    quote: Quote
    cell: TableCell
    how: _Shortened


def _reading(quote: Quote, cells: TableCells) -> _Reading | None:
    """The cell the sentence names best among those the number shortens (in the tables the sentence or its
    paragraph references) and those it quotes correctly (anywhere), when it is a shortened cell of one value."""
    shortening = [
        (cell, how) for label in cells.cited(quote.pointing) for cell in cells.by_table.get(label, ()) if (how := shortened(quote, cell))
    ]
    if not shortening:
        return None
    held = [_named(quote, cell) for _, cell in cells.by_spelling.agreeing(quote.agreeing)]
    named = [_named(quote, cell) for cell, _ in shortening]
    best = max(named)
    chosen = [item for item, key in zip(shortening, named) if key == best]
    if best[0] == 0 or any(key >= best for key in held) or len({cell.value for cell, _ in chosen}) != 1:
        return None
    cell, how = chosen[0]
    return _Reading(quote, cell, how)


def _cut_quotes(ctx: RuleContext, cells: TableCells, place: int, section: Section, part: list[Figures]) -> Iterator[Finding]:
    """The section's sentences whose results cut two or more cells and round none up."""
    if not cells.by_table:
        return
    for sentence in sentences(part[0].quotes):
        ctx.spend(len(sentence))
        readings = [
            reading
            for quote in sentence
            if (quote.decimals or quote.percent) and quote.role is Role.VALUE and (reading := _reading(quote, cells))
        ]
        cut = [reading for reading in readings if reading.how.cut]
        if len(cut) >= CUT_IN_A_SENTENCE and len(cut) == len(readings):
            yield from (_finding(ctx, reading, len(cut)) for reading in cut)


def _finding(ctx: RuleContext, reading: _Reading, count: int) -> Finding:
    quote, cell, how = reading
    violation = CutQuote(
        quote=quote.text,
        cell=cell.text,
        table=cell.label,
        where=ctx.index.printed(cell.describe),
        rounded=how.rounded + ("%" if quote.percent else ""),
        cut=count,
    )
    sides = [quoted(ctx, quote), held(cell)]
    cited = cell.label in quote.pointing.refs
    kind = (
        "moderate: the sentence cuts several cells of a table it cites"
        if cited
        else "weak: the sentence cuts several cells of a table its paragraph cites"
    )
    evidence = Evidence(kind=kind, statements=sides, reason=f"{quote.text} is {cell.text} cut, not rounded ({how.rounded})")
    return misquote_finding(ctx, quote, cell, violation, how.rounded, 0.6, evidence)


@rule(
    "NUM010",
    "prose-cuts-table-values",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "structure", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_by, table_cells, _cut_quotes),
)
def prose_cuts_table_values(ctx: RuleContext, section: Section) -> list[Figures]:
    """## What it does
    Flags the numbers of a sentence that quote table cells with fewer places by cutting their digits
    instead of rounding them: two or more in one sentence, and none rounded.

    ## Why is this bad?
    A cut value is not the table's: 0.3083 quoted as 0.30 is 0.31 rounded. Cut across a sentence, every
    value it quotes is understated, and a reader who checks the table finds none of them there.

    ## Example
    ```latex
    Naive Bayes has an average F1 of 0.30 and a recall of 0.84 (Table~\\ref{tab:nb}).
    % tab:nb: Average & 0.3083 & 0.8477 \\\\
    ```

    ## Use instead
    ```latex
    Naive Bayes has an average F1 of 0.31 and a recall of 0.85 (Table~\\ref{tab:nb}).
    ```

    ## Fix safety
    The fix writes the cell rounded to the sentence's places. It is unsafe: the sentence may quote
    another cell, or the table may be the side that is wrong.
    """
    return section_figures(ctx, section)
