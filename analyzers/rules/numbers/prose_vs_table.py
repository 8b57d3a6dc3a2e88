"""NUM001: a number in the prose one digit away from the table cell its sentence talks about.

## How it decides
When several cells are one digit away, the one whose row and column headers the sentence names in
full is meant, then the one whose row and column it names a word of, then the one whose
header words it names most; "on average", "overall" or "in total" names an Average, Mean
or Total row or column, or a header that names an averaged quantity ("Average earnings",
a "Mean" column under a panel's title inside the body). A number that some cell holds is
taken as a correct quote, unless the sentence names the row and the column of the
mistyped cell in full and of no cell holding the number, or unless the sentence cites the
mistyped cell's table and the cell holding the number is in a table it neither cites nor
names the row or column of (a coincidence of digits; such a finding is weak evidence).
Cells named alike in two tables: the one in the table the sentence or its paragraph cites
is meant. A column is named by its number too: "Column (1)", "col. 2" name the columns a regression table heads
"(1)", "(2)" (its parenthesised cells are standard errors), "model 2" a column "Model 2"; such a sentence
quotes no other column of the series (a cell there holding the number excuses nothing), and with the column
alone named a slip of the leading figure ties nothing. A sentence that names a panel of a table ("As Panel A of
Table 3 shows") quotes none of the cells its other panels' title rows head ("Panel B. Inter-item correlation").
A row of a group set once over several rows (`\\multirow{2}{*}{BERT} & MNLI`) is named by its own label, or by the
group and the label where the label recurs in another group: "BERT reaches 83.0 on MNLI" names BERT's MNLI row,
"83.0 on MNLI" alone names none.
A cell whose value the sentence also states (75.2% beside a cell 0.752) is being
compared with, not copied. "Mean" before a metric ("mean absolute error") does not speak of
an aggregate. Rounding is allowed: 93.4 in the
text matches 93.42 in the table, and 48.66% matches a fraction cell 0.4866 (a plain 48.66
does not); a decimal is also one digit from a cell rounded to one place fewer when both
keep two or more figures (0.87 from 0.767, written 0.77; not 1.2 from 0.187, written 0.2),
or to fewer still when both keep three or more (75.4 from 95.3784, written 95.4).
Only references to tables tie:
a sentence citing a table and a figure cites that table alone. A number that is one of a
list or set of values ("$p \\in \\{0.05, 0.1, 0.2\\}$", "0.7, 0.5, 0.3 and 0.1 mm": a grid,
a sweep) quotes no cell; results listed with "respectively" do. Neither does a year, a
p-value, a test statistic, an interval's level ("95% CrI") or a sample size (the quantity
model's roles); a change in percent ("+65%", "decreases by 15%") quotes only a cell of
changes (a signed value, a Δ / gain column); "on average" quotes only an Average, Mean or
Total row or column. A whole number of 10 or more, or a whole percentage, quotes a cell
only of a table its sentence cites, and a whole count only where what it counts ("128
genes") is what the cell's row or column names.

Confidence: from the tie: 0.9 when the sentence cites the cell's table and names its row or column in
full, 0.8 when it cites the table alone, 0.8 when it names the row and the column in full
without a reference and one of them is a name ("AlpacaEval", "FCOS-3D", `\\method`), else
0.6 (only its paragraph cites the table; or the headers are ordinary words like "Width").
Then from the digits: +0.1 for a number of four or more significant figures (13.96), −0.1
for one of two or fewer (0.7, 85%), which are one digit from many values by chance; −0.15
when a number of two or more figures differs by one unit in its last place (85.9 and 85.8:
two roundings of one value); −0.2 when the number is an end of a range, a bound or an approximation ("range:
71.9–100%", "above 85%", "about 86%"); −0.1 when no reference ties a table in another
section; +0.1 when another decimal of the sentence quotes the same table; at most 0.6 when an
uncited table holds the number as written. Below 0.7 the
finding is information. The evidence class says how the sentence ties the cell: "strong:
cited table, row and column named" (or "row or column named"), "moderate: cited table",
"moderate: row and column named", "moderate: column named by its number", "moderate: the table's own caption, row or
column named" (a caption's sentence speaks of its float), "moderate: the sentence quotes the table elsewhere" (with
"three or more figures" or not), "weak: …" (only the
paragraph cites the table, or the number is not a result: an interval bound, a count, a
coefficient); its measured precision decides whether a confident finding may warn.
"strong: the table's commented-out source holds the text's value" is a stale value (0.8
when the sentence cites the table, 0.7 when only its paragraph does).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import NamedTuple

from ....latex.manuscript import Section
from ....latex.numbers import Role
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Related, Severity, Statement
from ...quantities import CellIndex, agreeing_spellings, agrees, named_share, spelled, tie_words
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from ..printed_tables import BY_NUMBER, bound_pointing
from .figures import CellMisquoted, fed_by, held, misquote_finding, quoted, section_figures
from .model import (
    OURS,
    Figures,
    Quote,
    Retired,
    TableCell,
    cell_index,
    clamped,
    figures_evidence,
    last_place_apart,
    significant_figures,
    stem,
)
from .numbered_columns import another_numbered_column, column_picked, leading_slip_in_guessed_row
from .panels import panels_named


@violation_type
class ProseContradictsTable(CellMisquoted):
    """A prose number one digit away from the cell it quotes."""

    @property
    def message(self) -> str:
        return f"text says {self.quote}, {self.where} says {self.cell}"

    @property
    def identity(self) -> str:
        return f"{self.quote} {self.table} {self.cell}"


@violation_type
class StaleQuote(Violation):
    """A prose number (`quote`) that its table (`where`) writes only in a commented-out line of its source."""

    quote: str
    table: str
    where: str

    @property
    def message(self) -> str:
        return f"text says {self.quote}, which {self.where} holds only in a commented-out line: a value the table no longer reports"

    @property
    def identity(self) -> str:
        return f"{self.quote} {self.table} commented out"


# The evidence class of a prose number that its table once held: the table's source comments it out.
STALE = "strong: the table's commented-out source holds the text's value"


def _stale(quote: Quote, retired: dict[str, Retired], index: CellIndex[tuple[int, TableCell]]) -> tuple[Retired, Related] | None:
    """The table the sentence (or its paragraph) cites that holds this number only in a commented-out line, and
    the comment: a result of three or more figures that no live cell holds is a value the table no longer reports."""
    written = spelled(quote.value, quote.decimals)
    if not quote.decimals or significant_figures(written) < 3 or quote.role not in (Role.VALUE, Role.APPROXIMATE):
        return None
    if index.agreeing(quote.agreeing):
        return None
    for label in sorted(quote.pointing.refs | quote.pointing.paragraph_refs):
        table = retired.get(label)
        spot = table.holds(written) if table is not None else None
        if table is not None and spot is not None:
            return table, spot
    return None


def _stale_finding(ctx: RuleContext, quote: Quote, table: Retired, spot: Related) -> Finding:
    violation = StaleQuote(quote=quote.text, table=table.label, where=ctx.index.printed(table.describe))
    sides = [
        quoted(ctx, quote),
        Statement(
            file=spot.file, range=spot.range, quote=_written_in(spot), subject=f"{table.describe}, commented out", role=Role.VALUE.value
        ),
    ]
    evidence = Evidence(kind=STALE, statements=sides, reason=f"no cell holds {quote.text}; the table's source comments it out")
    confidence = 0.8 if quote.pointing.refs else 0.7
    return ctx.report_at(quote.at, violation.message, identity=violation.identity, related=[spot], confidence=confidence, evidence=evidence)


def _written_in(spot: Related) -> str:
    return spot.message.rpartition(" ")[2]


class _Tables(NamedTuple):
    """What every section's quotes are compared with: the cells of the sections holding tables, by their
    spellings and with their section's place; the labels of those tables; and what their sources comment out."""

    cells: CellIndex[tuple[int, TableCell]]
    labels: frozenset[str]
    retired: dict[str, Retired]
    # By table label, the words of its cells' row and column headers: a sentence that names none of them and
    # cites the table nowhere ties none of its cells (see `tie_words`).
    words: dict[str, frozenset[str]]
    # The cell each quote (by place and all but where it is written) is anchored to: the engine keeps the tables
    # while no section feeds them otherwise, so an edit re-reads only the quotes it changed.
    anchors: dict[tuple[object, ...], _Anchor | None]


def _tables_of(ctx: RuleContext, feeding: list[tuple[int, Section, list[Figures]]]) -> _Tables:
    return _Tables(
        cell_index(tuple((place, figures) for place, _, (figures,) in feeding if figures.cells)),
        frozenset(cell.label for _, _, (figures,) in feeding for cell in figures.cells),
        {table.label: table for _, _, (figures,) in feeding for table in figures.retired},
        _header_words(cell for _, _, (figures,) in feeding for cell in figures.cells),
        {},
    )


def _header_words(cells: Iterable[TableCell]) -> dict[str, frozenset[str]]:
    words: dict[str, set[str]] = {}
    for cell in cells:
        words.setdefault(cell.label, set()).update(cell.row_words, cell.column_words)
    return {label: frozenset(named) for label, named in words.items()}


def _contradictions(ctx: RuleContext, tables: _Tables, place: int, section: Section, part: list[Figures]) -> Iterator[Finding]:
    """The section's quotes that contradict a cell, or that quote a value the table comments out: an edit re-reads
    the edited section's quotes against the kept tables, and every section's only when the edited one holds a table
    (the engine's `Pairwise`)."""
    index = tables.cells
    if not index:
        return
    for quote in part[0].quotes:
        ctx.spend(1)  # a quote against the index of every table's cells
        # Only references to tables tie: "Table~\ref{t} and Figure~\ref{f}" cites one table alone.
        pointing = bound_pointing(quote.pointing, tables.labels, ctx)
        quote = replace(
            quote, pointing=replace(pointing, refs=pointing.refs & tables.labels, paragraph_refs=pointing.paragraph_refs & tables.labels)
        )
        compared = (place, *(getattr(quote, name) for name in _COMPARED))
        if compared not in tables.anchors:
            tables.anchors[compared] = _anchored_cell(quote, place, tables)
        anchored = tables.anchors[compared]
        if anchored is None:
            stale = _stale(quote, tables.retired, index)
            if stale is not None:
                yield _stale_finding(ctx, quote, *stale)
            continue
        cell = anchored.cell
        told = _told(quote, cell)
        corroborated = _corroborated(quote, cell, index)
        violation = ProseContradictsTable(
            quote=quote.text, cell=cell.text, table=cell.label, where=ctx.index.printed(cell.describe), told=told
        )
        confidence = _quote_confidence(quote, anchored, told, anchored.place == place, corroborated)
        evidence = _quote_evidence(ctx, quote, anchored, corroborated, tables.retired.get(cell.label))
        yield misquote_finding(ctx, quote, cell, violation, told, confidence, evidence)


@rule(
    "NUM001",
    "prose-contradicts-table",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "structure", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_by, _tables_of, _contradictions),
)
def prose_contradicts_table(ctx: RuleContext, section: Section) -> list[Figures]:
    """## What it does
    Flags a number in the prose that is one digit away from a table cell it talks about.
    The sentence must tie the number to the cell: it references the table (`\\ref{tab:…}`, or
    its printed number typed by hand, "(Table 2)", when that names one table: the evidence
    class then says so), or it names both the cell's row (method) and its column (dataset, metric). Rounding is
    allowed, and a number that some cell holds is taken as a correct quote; which cell is meant,
    and which numbers quote no cell, is told below.

    A stale value: a table updated after the prose was written often keeps its old numbers in
    comments (`%13.96 &` above `13.94 &`). A result of three or more figures that no cell
    holds, and that a table the sentence or its paragraph cites writes only in a commented-out
    line of its source, is a value the table no longer reports, however far from the live
    cell it is ("17.03" where the row now reads 18.20); a one-digit slip whose value the
    table comments out is classed the same way.

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

    ## Confidence
    From how the sentence ties the cell (a cited table, its row and column named) and from the
    digits; below 0.7 the finding is information. The classes are told below.
    """
    return section_figures(ctx, section)


def _told(quote: Quote, cell: TableCell) -> str:
    """The cell's value as the sentence would write it: as a percentage when that is the spelling one digit away."""
    plain = spelled(cell.value, quote.decimals)
    if abs(cell.value) <= 1 < abs(quote.value) and plain not in quote.variants:
        percent = spelled(cell.value * 100, quote.decimals)  # spelled only where it may be the one: a quote weighs every cell near it
        if percent in quote.variants:
            return percent
    return plain


def _tie(quote: Quote, cell: TableCell) -> int:
    return tie_words(quote.pointing, cell.label, cell.row_words, cell.column_words)


# What `_anchored_cell` reads of a quote: all but where it is written.
_COMPARED = tuple(name for name in Quote.__dataclass_fields__ if name not in ("at", "digits"))


class _Anchor(NamedTuple):
    """The cell a prose number is a mistyped copy of, the place of its section, and whether a table the
    sentence does not cite holds the number as written."""

    place: int
    cell: TableCell
    held_elsewhere: bool


def _anchored_cell(quote: Quote, place: int, tables: _Tables) -> _Anchor | None:
    """The one cell this number (in the section at `place`) is a mistyped copy of, if the sentence ties them
    together, with the place of the cell's section."""
    index = tables.cells
    candidates = _one_digit_away(quote, tables)
    if not candidates:
        return None
    # A correct quote of some cell is too often a quote of the cell meant, unless the sentence
    # names the row and the column of another cell and of none that holds the number.
    quoted = index.agreeing(quote.agreeing)
    if any(_tie(quote, cell) == 2 for _, cell in quoted):
        return None
    refs = quote.pointing.refs
    # A cell whose own value the sentence also states is being compared with, not copied.
    candidates = [(at, c) for at, c in candidates if not any(_states_cell(value, decimals, c) for value, decimals in quote.stated)]
    # A whole number ("50%") is one digit away from many cells: only a sentence citing the table counts, and a whole
    # count ("108 genes") only where what it counts is what the cell's row or column names.
    # "On average" quotes an Average row or column (or an average quantity: a Mean column, "Average earnings"),
    # never one row's cell.
    anchored = [
        (at, c)
        for at, c in candidates
        if (quote.decimals or c.label in refs)
        and (quote.decimals or quote.percent or _counts_what_cell_names(quote, c))
        and (c.aggregate or not quote.aggregate or (quote.with_spread and c.with_spread))
        and (quote.spread or not c.spread)
        and not leading_slip_in_guessed_row(quote, c, _told(quote, c))
    ]
    if not anchored:
        return None
    # The cells whose row and column headers the sentence names most fully outvote the others, then those it
    # ties firmest (names a word of the row and of the column), then those whose header words it names most;
    # a quote of some other cell only when the sentence names the row and the column of these.
    named = [(_headers_named(quote, c), _tie(quote, c), _header_share(quote, c)) for _, c in anchored]
    most = max(named)
    chosen = _resolved(quote, [item for item, count in zip(anchored, named) if count == most])
    if len({c.value for _, c in chosen}) != 1:
        return None
    # A cell holding the number excuses it, unless the match is a coincidence of digits (see `_excusing`).
    holding = _holding(quote, chosen, quoted)
    excusing = _excusing(quote, chosen, holding)
    if excusing and most[0] < 2:
        return None
    # Of equal cells, the one in the cited table, else in the sentence's own section.
    at, cell = min(chosen, key=lambda item: (item[1].label not in refs, item[0] != place))
    return _Anchor(at, cell, held_elsewhere=bool(holding) and not excusing)


def _one_digit_away(quote: Quote, tables: _Tables) -> list[tuple[int, TableCell]]:
    """The cells the sentence ties that it may quote with one digit mistyped. The cell as the sentence writes it
    must be one digit away: as written, or rounded (see `_quotable`: 0.767 quoted as 0.87, one digit from 0.77); a
    fraction cell (0.0195) as a percentage (1.99%), not as a plain 1.99. A change in percent ("+65%", "improves by
    15%") quotes a cell of changes, not a level. The tie is tested first, by the cell's table: most cells one digit
    away sit in tables the sentence does not point at."""
    pointing = quote.pointing
    pointed = {
        label
        for label, words in tables.words.items()
        if label in pointing.refs or label in pointing.paragraph_refs or not words.isdisjoint(pointing.words)
    }
    # "As Panel A of Table 3 shows": the cells of the table's other panels are not the ones it quotes.
    panels = panels_named(quote.sentence)
    return [
        (at, c)
        for at, c in tables.cells.one_digit_away(quote.variants, rounded=quote.decimals >= 1)
        if c.label in pointed
        and not (panels and c.panel and c.panel not in panels)
        and _tie(quote, c)
        and (told := _told(quote, c)) in quote.variants
        and (quote.percent or told == spelled(c.value, quote.decimals))
        and (quote.role is not Role.CHANGE or not quote.percent or c.change)
        and _quotable(quote, c)
    ]


def _holding(quote: Quote, chosen: list[tuple[int, TableCell]], quoted: list[tuple[int, TableCell]]) -> list[TableCell]:
    """The cells holding the number, but for those in another numbered column than the one the sentence picks
    ("model 2 improves r2 to 0.56", 0.56 being Model 3's): the sentence says it does not quote them."""
    words = quote.pointing.words
    return [cell for _, cell in quoted if not any(another_numbered_column(words, meant, cell) for _, meant in chosen)]


def _excusing(quote: Quote, chosen: list[tuple[int, TableCell]], holding: list[TableCell]) -> list[TableCell]:
    """The cells holding the number that excuse it: all of them, unless the sentence (or its paragraph) cites the
    table one digit away; then those of a table it cites or whose row or column it names (elsewhere the match is a
    coincidence of digits)."""
    refs = quote.pointing.refs
    cites_chosen = all(c.label in refs | quote.pointing.paragraph_refs for _, c in chosen)
    return [cell for cell in holding if not cites_chosen or cell.label in refs or _tie(quote, cell)]


def _resolved(quote: Quote, chosen: list[tuple[int, TableCell]]) -> list[tuple[int, TableCell]]:
    """Equally named cells of different values, narrowed to one value where the sentence says which: the cell in
    the table the sentence or its paragraph cites (cells named alike in two tables), then the row the sentence
    names last before the number ("M. mirandus: 6.3 vs 10, S. muizoni: 6.2 vs 9.1"; "our" names a row "Ours")."""
    for narrowed in (_in_cited_table(quote, chosen), _named_last(quote, chosen)):
        if len({c.value for _, c in chosen}) == 1:
            break
        if len({c.value for _, c in narrowed}) == 1:
            chosen = narrowed
    return chosen


def _in_cited_table(quote: Quote, chosen: list[tuple[int, TableCell]]) -> list[tuple[int, TableCell]]:
    return [item for item in chosen if item[1].label in quote.pointing.refs | quote.pointing.paragraph_refs]


def _named_last(quote: Quote, chosen: list[tuple[int, TableCell]]) -> list[tuple[int, TableCell]]:
    """The cells whose row the sentence names nearest before the number, after the number before it (in
    "S. muizoni: 5.1 vs 9.1" the row named is 5.1's, and 9.1 names none); a row "Ours" is named by the
    sentence's "our", wherever it stands."""
    previous = max((match.end() for match in re.finditer(r"\d", quote.before)), default=0)

    def last_named(cell: TableCell) -> int:
        words = [re.escape(word) for word in cell.row_words if not word.startswith("\\")]
        found = [match.start() for match in re.compile(rf"\b(?:{'|'.join(words)})\b").finditer(quote.before, previous)] if words else []
        if cell.ours:
            found += [match.start() for match in OURS.finditer(quote.before)]
        return max(found, default=-1)

    places = [last_named(cell) for _, cell in chosen]
    nearest = max(places)
    return [item for item, place in zip(chosen, places) if place == nearest] if nearest >= 0 else []


def _states_cell(value: float, decimals: int, cell: TableCell) -> bool:
    """A number of the sentence states the cell's value, or a fraction cell's as a percentage with all its
    figures (75.2 for 0.752; not "about 20%" for 0.201, nor "n=20" for 19.7)."""
    if decimals == 0 and cell.decimals > (2 if abs(cell.value) <= 1 < abs(value) else 0):
        return False  # a whole number ("n=20") states no decimal cell (19.7) it happens to round
    as_percent = abs(cell.value) <= 1 < abs(value) and decimals >= cell.decimals - 2
    return agrees(value, decimals, cell.value) or (as_percent and agrees(value, decimals, cell.value * 100))


def _quote_evidence(ctx: RuleContext, quote: Quote, anchored: _Anchor, corroborated: bool, retired: Retired | None) -> Evidence:
    """The sentence and the cell, and how the sentence ties them: its class keys NUM001's measured precision.
    Strong: the sentence cites the table and names the cell's row or column. Moderate: the sentence cites the
    table, or is the table's own caption and names its row or column, or names the row and the column in full, or
    another of its numbers quotes a cell of that table (a
    sentence comparing a subset with the table's summary does that too). Weak otherwise, and whenever the
    number is not a result, or when a table the sentence does not cite holds the number."""
    cell = anchored.cell
    cited, named = cell.label in quote.pointing.refs, _headers_named(quote, cell)
    figures = significant_figures(spelled(quote.value, quote.decimals))
    if retired is not None and retired.holds(spelled(quote.value, quote.decimals)):
        kind = STALE
    elif cited and named:
        kind = "strong: cited table, row and column named" if named == 2 else "strong: cited table, row or column named"
    elif named and cell.label in quote.pointing.captioned:
        kind = "moderate: the table's own caption, row or column named"  # not measured yet: information
    elif corroborated and figures >= 3:
        kind = "moderate: the sentence quotes the table elsewhere, three or more figures"
    elif cited:
        kind = "moderate: cited table"
    elif column_picked(quote.pointing.words, cell):
        kind = "moderate: column named by its number"
    elif named == 2 and cell.named:
        kind = "moderate: row and column named"
    elif corroborated:
        kind = "moderate: the sentence quotes the table elsewhere"
    else:
        kind = "weak: paragraph cites the table or headers are ordinary words"
    if quote.role not in (Role.VALUE, Role.APPROXIMATE):
        kind = f"weak: {kind.partition(': ')[2]}; the number's role: {quote.role.value}"
    elif anchored.held_elsewhere:
        kind = f"weak: {kind.partition(': ')[2]}; an uncited table holds the number"
    if cell.label in quote.pointing.by_number:
        kind += BY_NUMBER
    sides = [
        quoted(ctx, quote),
        held(cell),
    ]
    return Evidence(kind=kind, statements=sides, reason=f"{quote.text} is one digit away from {cell.text} in {cell.describe}")


def _counts_what_cell_names(quote: Quote, cell: TableCell) -> bool:
    headers = {stem(word) for word in cell.row_words | cell.column_words}
    return any(stem(word) in headers for word in quote.subject)


def _quotable(quote: Quote, cell: TableCell) -> bool:
    """The cell as written, or rounded to one place fewer, both of two or more figures, or to fewer still, both
    of three or more (95.3784 written 95.4): a coarser rounding (0.187 written 0.2) is one digit from too many
    numbers."""
    told = _told(quote, cell)
    as_percent = told != spelled(cell.value, quote.decimals)  # a fraction quoted as a percentage
    places = cell.decimals - 2 if as_percent else cell.decimals
    if places <= quote.decimals:
        return True
    # 3.2 quotes 3.15 and 9.7 quotes 9.78 (rounded or truncated), whichever way the float rounds.
    shown = abs(cell.value) * (100 if as_percent else 1)
    figures = 2 if places == quote.decimals + 1 else 3
    return (
        significant_figures(told) >= figures
        and significant_figures(spelled(quote.value, quote.decimals)) >= figures
        and not agrees(abs(quote.value), quote.decimals, shown)
    )


def _header_share(quote: Quote, cell: TableCell) -> float:
    """How much of the cell's row and column headers the sentence names: "def2-TZVP" names the row "def2-TZVP" (1.0)."""
    return named_share(quote.pointing.words, cell.row_words) + named_share(quote.pointing.words, cell.column_words)


def _headers_named(quote: Quote, cell: TableCell) -> int:
    """How many of the cell's two headers the sentence names in full; "on average" names an Average row or column."""
    words = quote.pointing.words
    named = (named_share(words, cell.row_words) == 1) + (named_share(words, cell.column_words) == 1 or column_picked(words, cell))
    return min(2, named + (quote.aggregate and cell.aggregate))


def _quote_confidence(quote: Quote, anchored: _Anchor, told: str, near: bool, corroborated: bool) -> float:
    """How sure the tie and the digits make NUM001 (see its ## Confidence)."""
    cell = anchored.cell
    cited = cell.label in quote.pointing.refs
    named = _headers_named(quote, cell)
    # Without a reference, ordinary header words ("Width", "Trace") are named by many sentences about other things.
    confidence = (0.9 if named else 0.8) if cited else 0.8 if named == 2 and cell.named else 0.6
    written = spelled(quote.value, quote.decimals)
    confidence += figures_evidence(written)
    if significant_figures(written) >= 2 and last_place_apart(written, told):
        confidence -= 0.15
    if quote.role in (Role.RANGE, Role.BOUND, Role.APPROXIMATE):
        confidence -= 0.2
    if not cited and not near:
        confidence -= 0.1
    if corroborated:
        confidence += 0.1
    if anchored.held_elsewhere:
        confidence = min(confidence, 0.6)
    return clamped(confidence)


def _corroborated(quote: Quote, cell: TableCell, index: CellIndex[tuple[int, TableCell]]) -> bool:
    """Another number of the sentence quotes a cell of the same table: the sentence is about that table."""
    return any(
        other.label == cell.label
        for value, decimals in quote.stated
        if decimals
        for _, other in index.agreeing(agreeing_spellings(value, decimals))
    )
