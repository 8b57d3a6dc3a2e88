"""NUM: numbers in the prose that disagree with the tables, each other, or their own arithmetic."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import NamedTuple

from rapidfuzz import fuzz

from ...latex.index import NumberInContext
from ...latex.manuscript import PlacedBlock, Section
from ...latex.model import BlockKind, Cell, SectionKind, Table
from ...latex.numbers import NumberMention, Role, find_numbers
from ..context import RuleContext
from ..finding import Category, Evidence, Finding, Fix, Range, Related, Severity, Statement, TextEdit
from ..memo import TEXT_CACHE_SIZE
from ..quantities import (
    CellAt,
    CellIndex,
    Pointing,
    agreeing_spellings,
    agrees,
    body_cells,
    digit_variants,
    exact_spellings,
    name_words,
    named_share,
    rounded_spellings,
    slack,
    spelled,
    tie_words,
)
from ..registry import Pairwise, Scope, rule

_DIGITS = re.compile(r"[-−]?[\d.,]+")
# The blocks whose numbers the index lists (its `numbers`): prose, footnotes, captions, theorems.
_PROSE_KINDS = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM)


def _numbers(section: Section) -> Iterator[NumberInContext]:
    """The section's numbers, as the index lists them."""
    for placed in section.blocks:
        if placed.kind in _PROSE_KINDS:
            for mention in _mentions(placed.block.plain.text):
                yield NumberInContext(mention, placed, section.kind)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _mentions(text: str) -> list[NumberMention]:
    """Cached by text: a keystroke re-reads one block of the edited section."""
    return find_numbers(text)


def _tables(section: Section) -> Iterator[tuple[PlacedBlock, Table]]:
    """The section's tables, as the index lists them (its `tables`)."""
    for placed in section.blocks:
        if placed.kind is BlockKind.TABLE and placed.block.table is not None:
            yield placed, placed.block.table


def _cells(section: Section) -> Iterator[tuple[PlacedBlock, Cell, float]]:
    """The numeric body cells of the section's tables, with their values."""
    for placed, table in _tables(section):
        for cell in body_cells(table):
            if cell.value is not None:
                yield placed, cell, cell.value


@dataclass(frozen=True, slots=True)
class _TableCell:
    """A numeric table cell as NUM001 compares it, without its table."""

    value: float
    decimals: int
    text: str
    label: str  # of its table
    row_words: frozenset[str]  # name_words of its row header
    column_words: frozenset[str]
    named: bool  # its row or column header is a name ("AlpacaEval", "FCOS-3D", "\\method"), not an ordinary word ("Width")
    aggregate: bool  # its row or column header is an aggregate ("Average", "Mean", "Total")
    change: bool  # it holds a change: a signed value ("+2.3") or one under a Δ / gain / improvement header
    spread: bool  # its column holds a spread or an interval (SD, SE, 95% CI), not the quantity itself
    ours: bool  # its row header names the authors' own method ("Ours", "BTS (ours)")
    with_spread: bool  # it is written with its spread ("19.7 ± 6.1"): a mean of runs
    describe: str  # "Table tab:main (row Ours, column AlpacaEval)"
    related: Related  # the cell, for a finding on a prose number
    rounded: frozenset[str]  # rounded_spellings of its value
    exact: frozenset[str]  # exact_spellings


@dataclass(frozen=True, slots=True)
class _Quote:
    """A prose number that may quote a table cell, with what ties its sentence to cells and the
    finding it becomes (message, related cell and fix filled in once the cell is known)."""

    value: float
    decimals: int
    percent: bool
    text: str
    sentence: str
    subject: tuple[str, ...]
    pointing: Pointing
    stated: tuple[tuple[float, int], ...]  # the other numbers of the sentence: value, decimals
    role: Role
    aggregate: bool  # its clause speaks of an aggregate ("on average", "overall"): it names an Average row or column
    spread: bool  # its sentence speaks of a spread or an interval ("SD", "standard error", "95% CI")
    before: str  # its sentence up to the number, lower-cased: which row it names last
    with_spread: bool  # it is written with its spread ("19.7% +/- 6.1%"): a mean of runs, as a cell with one is
    agreeing: tuple[str, ...]  # agreeing_spellings
    variants: tuple[str, ...]  # digit_variants of the number as written
    finding: Finding
    digits: Range  # where the fix writes the table's value


@dataclass(frozen=True, slots=True, eq=False)  # hashed by identity: the engine reuses an unchanged section's part
class _Figures:
    """What a section gives NUM001: its tables' numeric cells and its prose numbers."""

    cells: tuple[_TableCell, ...]
    quotes: tuple[_Quote, ...]


class _Tables(NamedTuple):
    """What every section's quotes are compared with: the cells of the sections holding tables, by their
    spellings and with their section's place, and the labels of those tables."""

    cells: CellIndex[tuple[int, _TableCell]]
    labels: frozenset[str]


def _cells_fed(part: list[_Figures]) -> tuple[object, ...] | None:
    """What a section's cells give every section's quotes (None: it holds no table): all a cell is, in a stable
    order, so typing in the prose around a table leaves every other section's findings kept."""
    cells = part[0].cells
    if not cells:
        return None
    return tuple(
        (
            c.value,
            c.decimals,
            c.text,
            c.label,
            tuple(sorted(c.row_words)),
            tuple(sorted(c.column_words)),
            c.named,
            c.aggregate,
            c.change,
            c.spread,
            c.ours,
            c.with_spread,
            c.describe,
            c.related.file,
            c.related.range.start.line,
            c.related.range.start.character,
            c.related.range.end.line,
            c.related.range.end.character,
        )
        for c in cells
    )


def _tables_of(ctx: RuleContext, feeding: list[tuple[int, Section, list[_Figures]]]) -> _Tables:
    return _Tables(
        _cell_index(tuple((place, figures) for place, _, (figures,) in feeding)),
        frozenset(cell.label for _, _, (figures,) in feeding for cell in figures.cells),
    )


def _contradictions(ctx: RuleContext, tables: _Tables, place: int, section: Section, part: list[_Figures]) -> Iterator[Finding]:
    """The section's quotes that contradict a cell: an edit re-reads the edited section's quotes against the
    kept cells, and every section's only when the edited section holds a table (the engine's `Pairwise`)."""
    index = tables.cells
    if not index:
        return
    for quote in part[0].quotes:
        # Only references to tables tie: "Table~\ref{t} and Figure~\ref{f}" cites one table alone.
        pointing = quote.pointing
        quote = replace(quote, pointing=Pointing(pointing.words, pointing.refs & tables.labels, pointing.paragraph_refs & tables.labels))
        anchored = _anchored_cell(quote, place, index)
        if anchored is None:
            continue
        cell = anchored.cell
        told = _told(quote, cell)
        corroborated = _corroborated(quote, cell, index)
        edit = TextEdit(file=quote.finding.file, range=quote.digits, new_text=("-" if quote.value < 0 else "") + told)
        yield quote.finding.model_copy(
            update={
                "message": f"text says {quote.text}, {ctx.index.printed(cell.describe)} says {cell.text}",
                "identity": f"{quote.text} {cell.label} {cell.text}",
                "related": [cell.related],
                "fixes": [Fix(title=f"Replace with the table's value {told}", edits=[edit])],
                "confidence": _quote_confidence(quote, anchored, told, anchored.place == place, corroborated),
                "evidence": _quote_evidence(quote, anchored, corroborated),
            }
        )


@lru_cache(maxsize=2)
def _cell_index(tables: tuple[tuple[int, _Figures], ...]) -> CellIndex[tuple[int, _TableCell]]:
    """Every table cell by its spellings, with the place of its section; rebuilt only when a section with a table changed."""
    index: CellIndex[tuple[int, _TableCell]] = CellIndex()
    for place, figures in tables:
        for cell in figures.cells:
            index.add((place, cell), cell.rounded, cell.exact)
    return index


@rule(
    "NUM001",
    "prose-contradicts-table",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "structure", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(_cells_fed, _tables_of, _contradictions),
)
def prose_contradicts_table(ctx: RuleContext, section: Section) -> list[_Figures]:
    """## What it does
    Flags a number in the prose that is one digit away from a table cell it talks about.
    The sentence must tie the number to the cell: it references the table (`\\ref{tab:…}`),
    or it names both the cell's row (method) and its column (dataset, metric). When several
    cells are one digit away, the one whose row and column headers the sentence names in
    full is meant, then the one whose row and column it names a word of, then the one whose
    header words it names most; "on average", "overall" or "in total" names an Average, Mean
    or Total row or column, or a header that names an averaged quantity ("Average earnings",
    a "Mean" column under a panel's title inside the body). A number that some cell holds is
    taken as a correct quote, unless the sentence names the row and the column of the
    mistyped cell in full and of no cell holding the number, or unless the sentence cites the
    mistyped cell's table and the cell holding the number is in a table it neither cites nor
    names the row or column of (a coincidence of digits; such a finding is weak evidence).
    Cells named alike in two tables: the one in the table the sentence or its paragraph cites
    is meant. A cell whose value the sentence also states (75.2% beside a cell 0.752) is being
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
    From the tie: 0.9 when the sentence cites the cell's table and names its row or column in
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
    "moderate: row and column named", "moderate: the sentence quotes the table elsewhere" (with
    "three or more figures" or not), "weak: …" (only the
    paragraph cites the table, or the number is not a result: an interval bound, a count, a
    coefficient); its measured precision decides whether a confident finding may warn.
    """
    cells = tuple(cell for placed, _ in _tables(section) for cell in _table_cells(ctx, placed))
    return [_Figures(cells, tuple(_quote(ctx, number) for number in _numbers(section) if _may_quote(number.mention)))]


# "On average", "the mean", "overall", "in total": the sentence quotes an aggregate row or column.
# "Mean" before a metric's next word names the metric ("mean absolute error", "mean average precision"), and
# "mean ± std" names how values are reported: neither speaks of an aggregate.
_SPEAKS_OF_AGGREGATE = re.compile(
    r"\b(?:averag\w*|mean(?!\s+(?:absolute|squared?|average|reciprocal|relative|log|opinion)\b|\s*(?:\+/-|±|\\pm))|overall|in total)\b",
    re.IGNORECASE,
)
# A header that names an aggregate ("Avg.", "Mean", "Total") or an averaged quantity ("Average earnings", "Mean F1").
_AVERAGED = re.compile(r"^\W*(?:avg|average|mean|overall|total)\b(?![-:])", re.IGNORECASE)
# A header that names something: a macro, capitals inside a word, letters with digits or joined by a hyphen.
_NAME_LIKE = re.compile(r"\\[A-Za-z]+|[a-z][A-Z]|[A-Z]{2}|\d[A-Za-z]|[A-Za-z]\d|[A-Za-z]-[A-Za-z0-9]")


# A spread or an interval ("SD", "S.E.", "Std.", "95% CI"): a column of them, or a sentence that speaks of one.
_SPREAD = re.compile(
    r"\b(?:SDs?|S\.[DE]\.|SEs?|[Ss]td\.?|[Ss]tdev|standard (?:deviation|error)s?|CIs?|CrIs?|confidence interval|IQR)\b|±|\\pm"
)
# Where a clause ends: "on average" in one clause does not speak of the number in the next.
_CLAUSE_END = re.compile(r"[;:]|,?\s\b(?:but|while|whereas)\b")


def _clause(sentence: str, at: int) -> str:
    """The clause of the sentence holding the character at `at`."""
    starts = [match.end() for match in _CLAUSE_END.finditer(sentence, 0, at)]
    end = _CLAUSE_END.search(sentence, at)
    return sentence[starts[-1] if starts else 0 : end.start() if end else len(sentence)]


# A number written with its spread: "19.7% +/- 6.1%", "0.82 ± 0.03".
_WITH_SPREAD = re.compile(r"\s*(?:±|\+/-|\\pm)")
# The authors' own method: a row "Ours", and a sentence speaking of "our" method.
_OURS = re.compile(r"\bours?\b", re.IGNORECASE)
# A column of changes: "Δ", "Gain", "Improvement", "Diff.".
_CHANGE_HEADER = re.compile(r"Δ|\\Delta|\b(?:gain|improv\w*|change|diff\w*|increase|decrease|reduction|delta)\b", re.IGNORECASE)
# Roles that quote no table cell: what is not a measured value (latex/numbers.py Role).
_NOT_QUOTED = frozenset({Role.YEAR, Role.LISTED, Role.P_VALUE, Role.STATISTIC, Role.INTERVAL_LEVEL, Role.SAMPLE_SIZE})


def _may_quote(mention: NumberMention) -> bool:
    """A number that may quote one cell: a decimal, a percentage of 10 or more, or a whole number of 10 or more
    (which quotes only a table its sentence cites: see `_anchored_cell`); not a year, a p-value, a statistic, an
    interval's level, a sample size, or one of a list of values (a grid, a sweep)."""
    if mention.role in _NOT_QUOTED:
        return False
    return mention.decimals >= 1 or mention.percent or abs(mention.value) >= 10


def _table_cell(ctx: RuleContext, placed: PlacedBlock, cell: Cell, value: float, above: list[dict[int, str]] | None = None) -> _TableCell:
    """`above`: the table's `_headers_above`, when its cells are read together."""
    at = CellAt(placed, cell)
    row, column = at.headers()
    return _TableCell(
        value,
        cell.decimals,
        cell.text,
        at.label,
        frozenset(name_words(row)),
        frozenset(name_words(column)),
        bool(_NAME_LIKE.search(row) or _NAME_LIKE.search(column)),
        any(_AVERAGED.match(header) for header in (row, column, _lowest_header(at, above))),
        cell.text.lstrip("$ ").startswith(("+", "-", "−")) or bool(_CHANGE_HEADER.search(column)),
        bool(_SPREAD.search(column)),
        bool(_OURS.search(row)),
        cell.spread is not None,
        at.describe(),
        ctx.related(placed.file, cell.start, cell.end, f"the table's value {cell.text}"),
        frozenset(rounded_spellings(value, cell.decimals)),
        frozenset(exact_spellings(value, cell.decimals)),
    )


# (file, where a table block starts as (line, column), its source text) → its numeric cells as NUM001 reads them.
# A keystroke re-reads the table it is typed into; the section's other tables (thousands of cells in a
# supplement of tabulars) are the same text at the same place, so the same cells with the same ranges.
_READ_TABLES: dict[tuple[str, tuple[int, int], str], tuple[_TableCell, ...]] = {}


def _table_cells(ctx: RuleContext, placed: PlacedBlock) -> tuple[_TableCell, ...]:
    source = ctx.source(placed.file)
    key = (placed.file, source.position(placed.block.start), source.text[placed.block.start : placed.block.end])
    cells = _READ_TABLES.get(key)
    if cells is None:
        if len(_READ_TABLES) >= TEXT_CACHE_SIZE // 8:
            _READ_TABLES.clear()
        table = placed.block.table
        assert table is not None
        above = _headers_above(table)
        cells = _READ_TABLES[key] = tuple(
            _table_cell(ctx, placed, cell, cell.value, above) for cell in body_cells(table) if cell.value is not None
        )
    return cells


def _lowest_header(at: CellAt, above: list[dict[int, str]] | None = None) -> str:
    """The nearest text cell above the cell in its column: its header ("Mean" under "Panel A: Summary
    statistics"), or the sub-header a panel repeats inside the body. `above` answers it at once."""
    table, column = at.table, at.cell.column
    if above is not None:
        return above[min(max(at.cell.row, 0), len(above) - 1)].get(column, "")
    for row in reversed(table.rows[: at.cell.row]):
        for cell in row:
            if cell.column <= column < cell.column + cell.column_span and cell.text.strip() and cell.value is None:
                return cell.text
    return ""


def _headers_above(table: Table) -> list[dict[int, str]]:
    """`_lowest_header` of every row at once: for row r (and for len(rows): below the last), column → the
    text of the nearest text cell above covering it (the first such cell of its row), in one pass down
    the table instead of one walk up it per cell (a table of thousands of cells read them all per cell)."""
    above: dict[int, str] = {}
    snapshots = []
    for row in table.rows:
        snapshots.append(dict(above))
        set_here: set[int] = set()
        for cell in row:
            if cell.text.strip() and cell.value is None:
                for column in range(cell.column, cell.column + cell.column_span):
                    if column not in set_here:
                        set_here.add(column)
                        above[column] = cell.text
    snapshots.append(above)
    return snapshots


def _quote(ctx: RuleContext, number: NumberInContext) -> _Quote:
    mention, placed = number.mention, number.block
    sentence = mention.sentence
    stated = tuple(
        (other.value, other.decimals) for other in _mentions(sentence) if other.plain_start != mention.plain_start - mention.sentence_start
    )
    digits = _DIGITS.match(mention.text)
    length = digits.end() if digits else len(mention.text)
    start, end = placed.block.plain.source_span(mention.plain_start, mention.plain_start + length)
    return _Quote(
        mention.value,
        mention.decimals,
        mention.percent,
        mention.text,
        " ".join(sentence.split()),
        mention.subject,
        Pointing.of(sentence, placed.block.plain.text),
        stated,
        mention.role,
        bool(_SPEAKS_OF_AGGREGATE.search(_clause(sentence, mention.plain_start - mention.sentence_start))),
        bool(_SPREAD.search(sentence)),
        sentence[: mention.plain_start - mention.sentence_start].lower(),
        bool(_WITH_SPREAD.match(sentence, mention.plain_end - mention.sentence_start)),
        tuple(agreeing_spellings(mention.value, mention.decimals)),
        tuple(dict.fromkeys(digit_variants(spelled(mention.value, mention.decimals)))),
        ctx.report_block(placed, mention.plain_start, mention.plain_end, ""),
        ctx.range(placed.file, start, end),
    )


def _told(quote: _Quote, cell: _TableCell) -> str:
    """The cell's value as the sentence would write it: as a percentage when that is the spelling one digit away."""
    plain, percent = spelled(cell.value, quote.decimals), spelled(cell.value * 100, quote.decimals)
    return percent if abs(cell.value) <= 1 < abs(quote.value) and percent in quote.variants and plain not in quote.variants else plain


def _tie(quote: _Quote, cell: _TableCell) -> int:
    return tie_words(quote.pointing, cell.label, cell.row_words, cell.column_words)


class _Anchor(NamedTuple):
    """The cell a prose number is a mistyped copy of, the place of its section, and whether a table the
    sentence does not cite holds the number as written."""

    place: int
    cell: _TableCell
    held_elsewhere: bool


def _anchored_cell(quote: _Quote, place: int, index: CellIndex[tuple[int, _TableCell]]) -> _Anchor | None:
    """The one cell this number (in the section at `place`) is a mistyped copy of, if the sentence ties them
    together, with the place of the cell's section."""
    # The cell as the sentence writes it must be one digit away: as written, or rounded (see `_quotable`: 0.767
    # quoted as 0.87, one digit from 0.77); a fraction cell (0.0195) as a
    # percentage (1.99%), not as a plain 1.99. A change in percent ("+65%", "improves by 15%") quotes a cell of
    # changes, not a level.
    # A whole number ("50%") is one digit away from many cells: only a sentence citing the table counts, and a whole
    # count ("108 genes") only where what it counts is what the cell's row or column names.
    # "On average" quotes an Average row or column (or an average quantity: a Mean column, "Average earnings"),
    # never one row's cell. A cell whose own value the sentence also states is being compared with, not copied.
    # One pass, the cheap questions first: of the many cells one digit away, few are tied to the sentence.
    refs = quote.pointing.refs
    anchored = []
    for at, c in index.one_digit_away(quote.variants, rounded=quote.decimals >= 1):
        if (
            (quote.role is not Role.CHANGE or not quote.percent or c.change)
            and (quote.decimals or c.label in refs)
            and (c.aggregate or not quote.aggregate or (quote.with_spread and c.with_spread))
            and (quote.spread or not c.spread)
            and _tie(quote, c)
            and (quote.decimals or quote.percent or _counts_what_cell_names(quote, c))
        ):
            told = _told(quote, c)
            if (
                told in quote.variants
                and (quote.percent or told == spelled(c.value, quote.decimals))
                and _quotable(quote, c, told)
                and not any(_states_cell(value, decimals, c) for value, decimals in quote.stated)
            ):
                anchored.append((at, c))
    if not anchored:
        return None
    # A correct quote of some cell is too often a quote of the cell meant, unless the sentence
    # names the row and the column of another cell and of none that holds the number.
    quoted = index.agreeing(quote.agreeing)
    if any(_tie(quote, cell) == 2 for _, cell in quoted):
        return None
    # The cells whose row and column headers the sentence names most fully outvote the others, then those it
    # ties firmest (names a word of the row and of the column), then those whose header words it names most;
    # a quote of some other cell only when the sentence names the row and the column of these.
    named = [(_headers_named(quote, c), _tie(quote, c), _header_share(quote, c)) for _, c in anchored]
    most = max(named)
    chosen = _resolved(quote, [item for item, count in zip(anchored, named) if count == most])
    if len({c.value for _, c in chosen}) != 1:
        return None
    # A cell holding the number excuses it, unless the sentence (or its paragraph) cites the table one digit
    # away and neither cites nor names the table that holds it: there the match is a coincidence of digits.
    cites_chosen = all(c.label in refs | quote.pointing.paragraph_refs for _, c in chosen)
    excusing = [cell for _, cell in quoted if not cites_chosen or cell.label in refs or _tie(quote, cell)]
    if excusing and most[0] < 2:
        return None
    # Of equal cells, the one in the cited table, else in the sentence's own section.
    at, cell = min(chosen, key=lambda item: (item[1].label not in refs, item[0] != place))
    return _Anchor(at, cell, held_elsewhere=bool(quoted) and not excusing)


def _resolved(quote: _Quote, chosen: list[tuple[int, _TableCell]]) -> list[tuple[int, _TableCell]]:
    """Equally named cells of different values, narrowed to one value where the sentence says which: the cell in
    the table the sentence or its paragraph cites (cells named alike in two tables), then the row the sentence
    names last before the number ("M. mirandus: 6.3 vs 10, S. muizoni: 6.2 vs 9.1"; "our" names a row "Ours")."""
    for narrowed in (_in_cited_table(quote, chosen), _named_last(quote, chosen)):
        if len({c.value for _, c in chosen}) == 1:
            break
        if len({c.value for _, c in narrowed}) == 1:
            chosen = narrowed
    return chosen


def _in_cited_table(quote: _Quote, chosen: list[tuple[int, _TableCell]]) -> list[tuple[int, _TableCell]]:
    return [item for item in chosen if item[1].label in quote.pointing.refs | quote.pointing.paragraph_refs]


def _named_last(quote: _Quote, chosen: list[tuple[int, _TableCell]]) -> list[tuple[int, _TableCell]]:
    """The cells whose row the sentence names nearest before the number, after the number before it (in
    "S. muizoni: 5.1 vs 9.1" the row named is 5.1's, and 9.1 names none); a row "Ours" is named by the
    sentence's "our", wherever it stands."""
    previous = max((match.end() for match in re.finditer(r"\d", quote.before)), default=0)

    def last_named(cell: _TableCell) -> int:
        words = [re.escape(word) for word in cell.row_words if not word.startswith("\\")]
        found = [match.start() for match in re.compile(rf"\b(?:{'|'.join(words)})\b").finditer(quote.before, previous)] if words else []
        if cell.ours:
            found += [match.start() for match in _OURS.finditer(quote.before)]
        return max(found, default=-1)

    places = [last_named(cell) for _, cell in chosen]
    nearest = max(places)
    return [item for item, place in zip(chosen, places) if place == nearest] if nearest >= 0 else []


def _states_cell(value: float, decimals: int, cell: _TableCell) -> bool:
    """A number of the sentence states the cell's value, or a fraction cell's as a percentage with all its
    figures (75.2 for 0.752; not "about 20%" for 0.201, nor "n=20" for 19.7)."""
    if decimals == 0 and cell.decimals > (2 if abs(cell.value) <= 1 < abs(value) else 0):
        return False  # a whole number ("n=20") states no decimal cell (19.7) it happens to round
    as_percent = abs(cell.value) <= 1 < abs(value) and decimals >= cell.decimals - 2
    return agrees(value, decimals, cell.value) or (as_percent and agrees(value, decimals, cell.value * 100))


def _quote_evidence(quote: _Quote, anchored: _Anchor, corroborated: bool) -> Evidence:
    """The sentence and the cell, and how the sentence ties them: its class keys NUM001's measured precision.
    Strong: the sentence cites the table and names the cell's row or column. Moderate: the sentence cites the
    table, or names the row and the column in full, or another of its numbers quotes a cell of that table (a
    sentence comparing a subset with the table's summary does that too). Weak otherwise, and whenever the
    number is not a result, or when a table the sentence does not cite holds the number."""
    cell = anchored.cell
    cited, named = cell.label in quote.pointing.refs, _headers_named(quote, cell)
    figures = _figures(spelled(quote.value, quote.decimals))
    if cited and named:
        kind = "strong: cited table, row and column named" if named == 2 else "strong: cited table, row or column named"
    elif corroborated and figures >= 3:
        kind = "moderate: the sentence quotes the table elsewhere, three or more figures"
    elif cited:
        kind = "moderate: cited table"
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
    sides = [
        Statement(
            file=quote.finding.file, range=quote.finding.range, quote=quote.sentence, subject=" ".join(quote.subject), role=quote.role.value
        ),
        Statement(file=cell.related.file, range=cell.related.range, quote=cell.text, subject=cell.describe, role=Role.VALUE.value),
    ]
    return Evidence(kind=kind, statements=sides, reason=f"{quote.text} is one digit away from {cell.text} in {cell.describe}")


def _counts_what_cell_names(quote: _Quote, cell: _TableCell) -> bool:
    headers = {_stem(word) for word in cell.row_words | cell.column_words}
    return any(_stem(word) in headers for word in quote.subject)


def _quotable(quote: _Quote, cell: _TableCell, told: str) -> bool:
    """The cell as written, or rounded to one place fewer, both of two or more figures, or to fewer still, both
    of three or more (95.3784 written 95.4): a coarser rounding (0.187 written 0.2) is one digit from too many
    numbers. `told`: `_told(quote, cell)`."""
    as_percent = told != spelled(cell.value, quote.decimals)  # a fraction quoted as a percentage
    places = cell.decimals - 2 if as_percent else cell.decimals
    if places <= quote.decimals:
        return True
    # 3.2 quotes 3.15 and 9.7 quotes 9.78 (rounded or truncated), whichever way the float rounds.
    shown = abs(cell.value) * (100 if as_percent else 1)
    figures = 2 if places == quote.decimals + 1 else 3
    return (
        _figures(told) >= figures
        and _figures(spelled(quote.value, quote.decimals)) >= figures
        and not agrees(abs(quote.value), quote.decimals, shown)
    )


def _header_share(quote: _Quote, cell: _TableCell) -> float:
    """How much of the cell's row and column headers the sentence names: "def2-TZVP" names the row "def2-TZVP" (1.0)."""
    return named_share(quote.pointing.words, cell.row_words) + named_share(quote.pointing.words, cell.column_words)


def _headers_named(quote: _Quote, cell: _TableCell) -> int:
    """How many of the cell's two headers the sentence names in full; "on average" names an Average row or column."""
    named = sum(named_share(quote.pointing.words, header) == 1 for header in (cell.row_words, cell.column_words))
    return min(2, named + (quote.aggregate and cell.aggregate))


def _quote_confidence(quote: _Quote, anchored: _Anchor, told: str, near: bool, corroborated: bool) -> float:
    """How sure the tie and the digits make NUM001 (see its ## Confidence)."""
    cell = anchored.cell
    cited = cell.label in quote.pointing.refs
    named = _headers_named(quote, cell)
    # Without a reference, ordinary header words ("Width", "Trace") are named by many sentences about other things.
    confidence = (0.9 if named else 0.8) if cited else 0.8 if named == 2 and cell.named else 0.6
    written = spelled(quote.value, quote.decimals)
    confidence += _figures_evidence(written)
    if _figures(written) >= 2 and _last_place_apart(written, told):
        confidence -= 0.15
    if quote.role in (Role.RANGE, Role.BOUND, Role.APPROXIMATE):
        confidence -= 0.2
    if not cited and not near:
        confidence -= 0.1
    if corroborated:
        confidence += 0.1
    if anchored.held_elsewhere:
        confidence = min(confidence, 0.6)
    return _clamped(confidence)


def _corroborated(quote: _Quote, cell: _TableCell, index: CellIndex[tuple[int, _TableCell]]) -> bool:
    """Another number of the sentence quotes a cell of the same table: the sentence is about that table."""
    return any(
        other.label == cell.label
        for value, decimals in quote.stated
        if decimals
        for _, other in index.agreeing(agreeing_spellings(value, decimals))
    )


def _figures(written: str) -> int:
    """Significant figures as written: "13.96" 4, "0.50" 2, "0.05" 1, "85" 2, "40" 1."""
    whole, _, fraction = written.partition(".")
    digits = (whole + fraction).lstrip("0")
    return len(digits if fraction else digits.rstrip("0"))


def _figures_evidence(written: str) -> float:
    """A number of many figures is rarely one digit from another by chance; one of one or two often is."""
    figures = _figures(written)
    return 0.1 if figures >= 4 else -0.1 if figures <= 2 else 0.0


def _last_place_apart(written: str, other: str) -> bool:
    """ "85.9" and "85.8": one unit apart in the last place, as two roundings of one value can be."""
    return (
        len(written) == len(other)
        and written[:-1] == other[:-1]
        and written[-1:].isdigit()
        and other[-1:].isdigit()
        and abs(int(written[-1]) - int(other[-1])) == 1
    )


def _clamped(confidence: float) -> float:
    return round(min(0.95, max(0.1, confidence)), 2)


@dataclass(frozen=True, slots=True)
class _Statement:
    """A result-like prose number with the words around it, and the finding it becomes when another
    statement of the same quantity says otherwise (message, related and confidence filled in then)."""

    kind: tuple[str, int, bool]  # unit, decimals, negative
    written: str
    variants: tuple[str, ...]  # spellings one digit away, in a fixed order: which earlier statement is named must not depend on hashing
    agreeing: tuple[str, ...]  # agreeing_spellings: a table cell with one of these holds the number
    block: int  # the block's place in its section
    window: frozenset[str]
    names: frozenset[str]  # the capitalised names of its sentence
    near_names: frozenset[str]  # those within its window
    direction: int  # +1 a rise ("improves by"), -1 a fall ("drops"), 0 a level
    role: Role
    subject: frozenset[str]  # the stems of what it measures (NumberMention.subject), compared
    named: str  # what it measures, as the sentence words it
    counted: bool  # an integer before what it counts ("57 studies", "340 fps"): compared with the abstract only
    follows: frozenset[str]  # the stems of the two words after the number ("studies containing", "fps for")
    abstract: bool
    text: str
    sentence: str
    where: str  # its section's title or kind
    finding: Finding
    related: Related  # this statement, for the other one's finding


class _Statements(NamedTuple):
    """What a section gives NUM002: how its tables' cells may be quoted, its result-like numbers, and how
    every number of its prose is written."""

    table_spellings: frozenset[str]
    statements: tuple[_Statement, ...]
    written: frozenset[str]


def _disagreements(ctx: RuleContext, parts: list[tuple[Section, list[_Statements]]]) -> Iterator[Finding]:
    table_spellings = _union(tuple(part.table_spellings for _, (part,) in parts if part.table_spellings))
    body = frozenset().union(*(part.written for section, (part,) in parts if section.kind is not SectionKind.ABSTRACT))
    # Statements seen so far, by how their value is written: a number is compared only
    # with the few statements one digit away, never with every earlier number.
    seen: dict[tuple[str, int, bool, str], list[tuple[int, _Statement, bool]]] = {}
    # The abstract's statements already contradicted: the body's several restatements of one slip make one finding.
    contradicted: set[int] = set()
    for place, (_, (part,)) in enumerate(parts):
        for statement in part.statements:
            # A count ("45 outflows") is no quote of an integer cell, which is as often an identifier or a size.
            in_table = not statement.counted and _held(statement, table_spellings)
            candidates = (entry for variant in statement.variants for entry in seen.get((*statement.kind, variant), ()))
            for other_place, other, other_in_table in candidates:
                if (other_place == place and other.block == statement.block) or id(other) in contradicted:
                    continue
                abstract = statement if statement.abstract else other if other.abstract else None
                # An abstract's value the body's prose never writes summarises nothing there (see `_unseen`).
                unseen = abstract is not None and _unseen(abstract, body)
                # A number a table holds is NUM001's, but the abstract restates results without citing
                # their table: there only the copy that no table holds can be the slip, or an unseen one.
                both_held = in_table and other_in_table  # past this test, only for an unseen abstract value
                if (both_held and not unseen) if abstract else (in_table or other_in_table):
                    continue
                # Unseen and in no table, it needs no names in common with the body's sentence.
                alone = abstract is not None and unseen and not _held(abstract, table_spellings) and not _same_setting(statement, other)
                confidence = _same_quantity(statement, other, alone) if _comparable(statement, other) else None
                if confidence is None:
                    continue
                if abstract is not None and both_held:  # the unseen abstract value is the slip
                    slip, told = abstract, other if statement is abstract else statement
                else:
                    slip, told = (other, statement) if in_table else (statement, other)
                shared = sorted(statement.window & other.window)
                yield slip.finding.model_copy(
                    update={
                        "message": f"{slip.text} for {_named(slip)} here, but {told.text} for {_named(told)} in {told.where}",
                        "identity": f"{slip.text} {told.text} {' '.join(shared)}",
                        "related": [told.related],
                        "confidence": confidence,
                        "evidence": _restatement(slip, told, alone or both_held),
                    }
                )
                if other.abstract:
                    contradicted.add(id(other))
                break
            seen.setdefault((*statement.kind, statement.written), []).append((place, statement, in_table))


def _unseen(abstract: _Statement, body: frozenset[str]) -> bool:
    """The body's prose never writes the abstract's value: a table cell that happens to hold it ("32%" among
    hundreds of cells) is then no evidence that the abstract quotes the table."""
    return not any(spelling in body for spelling in abstract.agreeing)


def _held(statement: _Statement, table_spellings: frozenset[str]) -> bool:
    return any(spelling in table_spellings for spelling in statement.agreeing)


def _named(statement: _Statement) -> str:
    return f'"{statement.named}"'


def _restatement(slip: _Statement, told: _Statement, unseen: bool) -> Evidence:
    """Both statements, what each measures, and why they are taken for one quantity (`unseen`: only because the
    body's prose never writes the abstract's value)."""
    kind = "abstract restates, same subject" if slip.abstract or told.abstract else "same subject"
    if unseen:
        kind += "; the body's prose never writes the abstract's value"
    sides = (
        Statement(
            file=item.finding.file,
            range=item.finding.range,
            quote=item.sentence,
            subject=" ".join(sorted(item.subject)),
            role=item.role.value,
        )
        for item in (slip, told)
    )
    return Evidence(
        kind=kind,
        statements=list(sides),
        reason=f"both state a {slip.role.value} of {_named(slip)}, one digit apart, in {slip.where} and {told.where}",
    )


def _comparable(statement: _Statement, other: _Statement) -> bool:
    """A bound ("> 70%") is restated as a bound, a count ("57 studies") with what it counts; the abstract's
    summary is where either is restated, elsewhere bounds and counts vary with what they describe."""
    abstract = statement.abstract or other.abstract
    if (statement.role is Role.BOUND) != (other.role is Role.BOUND) or (statement.role is Role.BOUND and not abstract):
        return False
    return not (statement.counted or other.counted) or (abstract and bool(statement.follows & other.follows))


def _same_quantity(statement: _Statement, other: _Statement, abstract_alone: bool = False) -> float | None:
    """The confidence that two statements state the same quantity (see NUM002's ## Confidence), or None when
    their words or settings say they do not. `abstract_alone`: one is the abstract's, with a value the body
    never writes; its names need not recur, as the abstract names its setting in its own words."""
    abstract = statement.abstract or other.abstract
    if _kind_of(statement) is not _kind_of(other) or not _same_subject(statement.subject, other.subject, abstract):
        return None
    # A sentence stating both values ("80% and 90% of the maximum") tells two quantities apart.
    if _states(statement.sentence, other) or _states(other.sentence, statement):
        return None
    shared = statement.window & other.window
    common = statement.names & other.names
    if not (_same_setting(statement, other) or abstract_alone):
        return None
    # A rise and a fall are two quantities, whatever the words around them.
    if statement.direction * other.direction < 0:
        return None
    # Same quantity: most words around the numbers agree, or two do and one of them is a shared name
    # ("at the 95% CL"), or two do and one statement is the abstract's summary of the other.
    most = len(shared) >= 3 and len(shared) * 2 >= min(len(statement.window), len(other.window))
    if not (most or (len(shared) >= 2 and (abstract or any(name.lower() in shared for name in common)))):
        return None
    confidence = (
        0.6
        + 0.15 * abstract
        + 0.1 * most
        + 0.1 * bool(common)
        + 0.1 * bool(statement.follows & other.follows)
        + _figures_evidence(statement.written)
    )
    if Role.APPROXIMATE in (statement.role, other.role):
        confidence -= 0.25
    if (statement.direction == 0) != (other.direction == 0):  # a change and a level
        confidence -= 0.2
    # A name next to one number that the other sentence never mentions sets another setting ("FaRM/YCSB").
    if statement.near_names - other.names or other.near_names - statement.names:
        confidence -= 0.15
    return _clamped(confidence)


# The roles NUM002 compares: what states a measured quantity. Test statistics, p-values, coefficients
# and intervals are the STAT rules'; settings, years and interval levels are not results. A sample size
# written before what it counts ("1659 participants") is compared as a count.
_STATED = frozenset({Role.VALUE, Role.APPROXIMATE, Role.CHANGE, Role.BOUND, Role.COUNT, Role.SAMPLE_SIZE})


def _same_setting(statement: _Statement, other: _Statement) -> bool:
    """The sentences' capitalised names (datasets, models) overlap, or one names none."""
    return bool(statement.names & other.names) or not (statement.names and other.names)


def _states(sentence: str, statement: _Statement) -> bool:
    return any(
        spelled(mention.value, mention.decimals) == statement.written and mention.unit == statement.kind[0]
        for mention in _mentions(sentence)
    )


def _kind_of(statement: _Statement) -> Role:
    """An approximation ("about 12%") restates a result; a result stated as a rise or a fall ("22% lower",
    "a 22% reduction") is a relative change."""
    role = Role.VALUE if statement.role is Role.APPROXIMATE else statement.role
    if statement.counted and role in (Role.VALUE, Role.SAMPLE_SIZE):
        return Role.COUNT  # "$4694$ laws", "1659 participants": an integer before what it counts
    return Role.CHANGE if role is Role.VALUE and statement.direction else role


def _held_spellings(value: float, decimals: int) -> set[str]:
    """How a table cell holds a number stated in prose: its roundings, but a whole number only as written
    (a cell of 79.6 holds 79.6 and 80.0, not "80 studies")."""
    return {spelling for spelling in rounded_spellings(value, decimals) if "." in spelling} | exact_spellings(value, decimals)


def _same_subject(subject: frozenset[str], other: frozenset[str], abstract: bool) -> bool:
    """Both sentences say what their number measures, and one names all the other does
    ("accuracy on ImageNet" and "top-1 accuracy on ImageNet"; not "transfers" and "the loss").
    The abstract restates the body in its own words: there one shared word suffices, a metric
    written out or abbreviated ("acc", "accuracy") or spelled alike ("identify", "identified")."""
    if not (subject and other):
        return False
    if subject <= other or other <= subject:
        return True
    return abstract and any(_alike(word, another) for word in subject for another in other)


# Metric names an abstract and its body write in two ways, as `_stem` leaves them ("f-score" → "f-scor").
_METRIC = {"acc": "accuracy", "err": "error", "f-scor": "f1", "f-measur": "f1", "f1-scor": "f1", "prec": "precis"}


def _alike(word: str, other: str) -> bool:
    """Two stems (`_stem`) of one word or metric."""
    word, other = _METRIC.get(word, word), _METRIC.get(other, other)
    return word == other or (min(len(word), len(other)) >= 5 and fuzz.ratio(word, other) >= _ALIKE)


_ALIKE = 85  # rapidfuzz ratio of two stems of one word ("identif", "identifi"), not of two words ("preserv", "present")


@lru_cache(maxsize=2)
def _union(spellings: tuple[frozenset[str], ...]) -> frozenset[str]:
    """Rebuilt only when a section with a table changed: unchanged parts are the same sets, compared by identity."""
    return frozenset().union(*spellings)


@rule(
    "NUM002",
    "same-quantity-two-values",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks", "structure"),
    scope=Scope.SECTION,
    combine=_disagreements,
)
def same_quantity_two_values(ctx: RuleContext, section: Section) -> list[_Statements]:
    """## What it does
    Flags two statements of the same quantity, in different paragraphs, whose values differ
    by one digit: "improves top-1 accuracy on ImageNet by 12.3%" in the abstract, "improves
    top-1 accuracy on ImageNet by 12.8%" in the results. Sameness comes from what each number
    is (the quantity model of `latex/numbers.py`), not from the words the sentences share:
    both numbers have the same role (a result, a relative change, a count, a bound; an
    approximation counts as a result) and the same subject (what its clause says it measures,
    "accuracy on ImageNet", the noun it counts): both sentences name one, and one names all
    the other does. So "the coefficient is −0.228" and "it remains negative, at −0.222" (no
    subject), or "transfers equal 3.0 percent of mean income" and "the loss amounts to 5.0
    percent of mean income" (two subjects), are left alone. Test statistics, p-values,
    coefficients and effect sizes, interval levels and bounds, settings and years are never
    compared here: they are the STAT rules', or no results. Against the abstract,
    which restates the body in its own words, the subjects need only share a word: a metric
    written out or abbreviated ("acc", "accuracy"), or a word spelled alike ("identify",
    "identified"). A result stated as a rise or a fall ("22% lower than the control") is a
    relative change ("decreases the cost by 22%"). Beyond that the words around the numbers
    must agree (at least three shared content words, most of them; or two,
    one of them a name both sentences use: "79% from DualMind" and "DualMind achieves 89%
    success rate") and the sentences must not name different settings: their capitalised
    names (datasets, models, stages) overlap, or one sentence names none. A rise and a fall
    ("improves by 12%", "drops by 13%") are two quantities, and so are two values that one
    of the sentences states side by side ("80% and 90% of the maximum F1").

    Only numbers that state a quantity are compared: not one of a list or set of values, not
    an end of a range ("15%–20%", "between 2 and 5"), not a version ("JASP 0.16.3"). A bound
    ("> 70%", "above 85%") is compared with a bound, and only against the abstract; so is a
    count before what it counts ("57 studies", "340 fps", "1659 participants", a sample size
    too), when the words after the two numbers share what is counted. Against an abstract's
    value that the body never writes, in prose or a table, the sentences need not share names
    (datasets, periods): the abstract words its setting its own way, and a value it shares
    with no other place is suspect. The abstract restates results in its own words: against
    it two shared words suffice. Numbers that a table holds are NUM001's, except against the
    abstract, which quotes them without citing the table: there the copy that no table holds
    is reported. A table holds a whole number only as written (a cell of 79.6 does not hold
    "80%"), and never a count ("45 outflows"): an integer cell is as often an identifier. The message names both subjects; the finding's evidence quotes both
    sentences with their subjects and roles.

    ## Why is this bad?
    The reader cannot tell which value is true, and a headline number that drifts between
    abstract and results is how inflated claims slip through review. PaperAudit files this
    as context misalignment: two parts of the paper disagree.

    ## Example
    ```latex
    \\begin{abstract} ... improves accuracy on ImageNet by 12.3\\% ... \\end{abstract}
    ... our method improves accuracy on ImageNet by 12.8\\% ...
    ```

    ## Use instead
    State the same value (or say why they differ: another split, another seed).

    ## Confidence
    0.6, +0.15 when one statement is the abstract's, +0.1 when most words around the numbers
    agree (three or more), +0.1 when the sentences share a name (dataset, model), +0.1 when
    the same word follows both numbers; +0.1 for four or more significant figures, −0.1 for
    two or fewer (round values like 40% or 85% coincide by chance). Lowered by 0.25 when either
    number is an approximation ("about 10%"), by 0.2 when one states a change and the other a
    level, and by 0.15 when a name next to one number is absent from the other sentence (another
    workload, another dataset). Below 0.7 the finding is information. The evidence class is
    "abstract restates, same subject" or "same subject"; its measured precision decides whether
    a confident finding may warn (see Measured precision below).
    """
    numbers = list(_numbers(section))
    statements = tuple(statement for number in numbers if (statement := _statement(ctx, section, number)) is not None)
    table_spellings = frozenset(spelling for _, cell, value in _cells(section) for spelling in _held_spellings(value, cell.decimals))
    written = frozenset(spelled(number.mention.value, number.mention.decimals) for number in numbers)
    return [_Statements(table_spellings, statements, written)]


def _statement(ctx: RuleContext, section: Section, number: NumberInContext) -> _Statement | None:
    """The number as NUM002 compares it, or None when it states no measured quantity: one of a list, an end
    of a range, a statistic or a setting, or a number with fewer than three content words around it."""
    mention, placed = number.mention, number.block
    counted = _counted(number)
    if not (counted or _headline(number)) or mention.role not in _STATED:
        return None
    start, end = mention.plain_start - mention.sentence_start, mention.plain_end - mention.sentence_start
    words, names = _window(mention.sentence, start, end)
    if len(words) < 3:
        return None
    after = _FOLLOWING.match(mention.sentence, end)
    written = spelled(mention.value, mention.decimals)
    return _Statement(
        (mention.unit, mention.decimals, mention.value < 0),
        written,
        tuple(dict.fromkeys(digit_variants(written))),
        tuple(agreeing_spellings(mention.value, mention.decimals)),
        placed.index - section.blocks[0].index,
        frozenset(_stem(word) for word in words),
        frozenset(names),
        frozenset(name for name in names if name.lower() in words),
        _direction(mention.sentence, start, end),
        mention.role,
        frozenset(_stem(word) for word in mention.subject),
        " ".join(mention.subject),
        counted,
        frozenset(_stem(word.lower()) for word in after.groups() if word) if after else frozenset(),
        section.kind is SectionKind.ABSTRACT,
        mention.text,
        " ".join(mention.sentence.split()),
        section.title or ("the front matter" if section.kind is SectionKind.FRONT else section.kind.value),
        ctx.report_block(placed, mention.plain_start, mention.plain_end, ""),
        ctx.related_block(placed, mention.plain_start, mention.plain_end, f"the other statement: {mention.text}"),
    )


_DRAWING = re.compile(r"\\(?:draw|node|path|fill|coordinate|addplot)\b")  # TikZ the model keeps as prose
# "Lemma 4.5", "Exercise~1.5": an identifier; not a capitalised function word opening a sentence ("The 57 studies").
_NAMED_BEFORE = re.compile(
    r"(?:\b(?!(?:The|A|An|All|Only|These|Those|Our|Their|Its|Of|In|On|For|At|With|By|And|Or|But|Out|About|Over|Some|Most|Each|Both|Nearly|Almost|Roughly)\b)[A-Z][a-z]+|~)\s*$"
)


def _headline(number: NumberInContext) -> bool:
    """A result-like quantity in running prose: 12.3%, 0.85, 48.66; not a figure coordinate or a lemma number."""
    mention = number.mention
    if mention.is_year or number.block.kind.value != "paragraph" or _DRAWING.search(mention.sentence):
        return False
    if not (mention.percent or mention.decimals >= 2 or (mention.decimals >= 1 and abs(mention.value) >= 10)):
        return False
    before = mention.sentence[max(0, mention.plain_start - mention.sentence_start - 12) : mention.plain_start - mention.sentence_start]
    return not _NAMED_BEFORE.search(before)


_COUNTED_AFTER = re.compile(r"\s*[a-z]")
_FOLLOWING = re.compile(r"\s*(?:of\s+)?([A-Za-z][\w-]*)(?:\s+([A-Za-z][\w-]*))?")


def _counted(number: NumberInContext) -> bool:
    """An integer of 10 or more before the lower-case word it counts or measures ("57 studies", "340 fps", "80M messages")."""
    mention = number.mention
    if mention.is_year or mention.decimals or mention.percent or abs(mention.value) < 10 or number.block.kind.value != "paragraph":
        return False
    at, end = mention.plain_start - mention.sentence_start, mention.plain_end - mention.sentence_start
    return bool(_COUNTED_AFTER.match(mention.sentence, end)) and not _NAMED_BEFORE.search(mention.sentence[max(0, at - 12) : at])


# Endings that vary between restatements of one quantity ("preserving", "preservation"; "compressed", "compresses").
_SUFFIX = re.compile(r"(?:ations?|ions?|ments?|ings?|ed|es|e|(?<!s)s|ly)$")


def _stem(word: str) -> str:
    return _SUFFIX.sub("", word) if len(word) > 4 else word


_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9\-]*|\d")


def _window(sentence: str, start: int, end: int, size: int = 5) -> tuple[set[str], set[str]]:
    """Content words within `size` words of a number, and the capitalised names of its sentence (the setting)."""
    before = [w for w in _TOKEN.findall(sentence[:start]) if not w.isdigit()][-size:]
    after = [w for w in _TOKEN.findall(sentence[end:]) if not w.isdigit()][:size]
    content = name_words(" ".join(before + after)) - _FUNCTION_WORDS
    words = _TOKEN.findall(_POINTER.sub(" ", sentence))
    initials = {"".join(w[0] for w in words[i : i + 2]).lower() for i in range(len(words) - 1)}
    # The first word is a name only when it is not an ordinary capitalised word ("DualMind achieves …", not "Results show …").
    # A name that abbreviates two words of the sentence ("credibility level (CL)") names the quantity, not a setting.
    names = {
        w
        for i, w in enumerate(words)
        if w[0].isupper()
        and w.lower() not in _NOT_NAMES
        and not (i == 0 and _ORDINARY.fullmatch(w))
        and not (w.isupper() and w.lower() in initials)
    }
    return content, names


_RISE = frozenset(
    {
        "higher",
        "increase",
        "increases",
        "increased",
        "improve",
        "improves",
        "improved",
        "improvement",
        "gain",
        "gains",
        "rise",
        "rises",
        "rose",
        "raises",
        "boost",
        "boosts",
        "more",
        "faster",
        "better",
        "speedup",
        "up",
    }
)
_FALL = frozenset(
    {
        "lower",
        "decrease",
        "decreases",
        "decreased",
        "reduce",
        "reduces",
        "reduced",
        "reduction",
        "drop",
        "drops",
        "dropped",
        "decline",
        "declines",
        "fall",
        "falls",
        "fell",
        "less",
        "fewer",
        "slower",
        "worse",
        "down",
        "degrades",
        "degraded",
        "degradation",
        "plummets",
        "cuts",
        "saves",
    }
)


def _direction(sentence: str, start: int, end: int) -> int:
    """+1 when the number states a rise, -1 a fall, 0 a level: the rise or fall word nearest the number within its
    phrase (up to a comma), the two words after it first ("22% lower"), then those before it, nearest first
    ("decreases the cost of loans by 22%"), then the rest after it. The next phrase's verb ("…, increases the
    likelihood") governs another number."""
    before = _TOKEN.findall(re.split(r"[,;:]", sentence[:start])[-1].lower())
    after = _TOKEN.findall(re.split(r"[,;:]", sentence[end:])[0].lower())
    for word in [*after[:2], *reversed(before), *after[2:]]:
        if word in _RISE or word in _FALL:
            return 1 if word in _RISE else -1
    return 0


_NOT_NAMES = frozenset({"we", "our", "the", "this", "in", "on", "table", "figure", "section", "appendix"})
_ORDINARY = re.compile(r"[A-Z][a-z]*")
# Words that surround any number and say nothing about which quantity it is.
_FUNCTION_WORDS = frozenset(
    {
        "a",
        "an",
        "at",
        "as",
        "by",
        "of",
        "on",
        "in",
        "to",
        "is",
        "are",
        "was",
        "were",
        "be",
        "that",
        "this",
        "these",
        "it",
        "its",
        "which",
        "so",
        "we",
        "from",
        "or",
        "than",
        "about",
        "over",
        "both",
        "each",
    }
)
# References and citations point elsewhere; their keys and commands name no setting.
_POINTER = re.compile(r"\\[A-Za-z]*(?:cite|ref)[A-Za-z]*\*?(?:\[[^\]]*\])*\{[^}]*\}")


_NUM = r"([-−]?\d+(?:\.\d+)?)\s*%?"
_CHANGE = re.compile(
    r"(?:from\s+)?" + _NUM + r"\s*(?:→|->|to)\s*" + _NUM + r"[^()\d]{0,40}?\(\s*([+\-−])\s*(\d+(?:\.\d+)?)\s*(%|pp|points?)?\s*\)"
    r"|from\s+" + _NUM + r"\s*to\s*" + _NUM + r"[^.\d]{0,40}?\b(?:by|of)\s+([+\-−]?)(\d+(?:\.\d+)?)\s*(%|pp|points?|×|x\b)?",
)


@rule("NUM003", "arithmetic-claim-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def arithmetic_claim_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes stated changes: "from A to B (+C)", "A → B (+C)" (in prose and in table
    cells) and "from A to B, an improvement of C%". C must equal B − A (absolute), or
    (B − A) / A as a percentage (relative), or B / A for "×", within the rounding of every
    number involved.

    ## Why is this bad?
    A delta that does not follow from its own end points inflates (or hides) the effect the
    reader takes away; the numbers are all there, so reviewers expect them to agree.

    ## Example
    ```latex
    accuracy rises from 68 to 72 (+6)
    ```

    Grid descriptions claim no change: "from 0.5 to 3 m/s by steps of 0.05", "in increments
    of", "ranging from 1 to 9 by 2".

    ## Use instead
    ```latex
    accuracy rises from 68 to 72 (+4)
    ```

    ## Confidence
    0.9 for "A → B (+C)" and "from A to B (+C)", and for "from A to B by C" with C within a few
    words of B; 0.6 (information) when "by C" comes further on, where it may measure another
    quantity ("from 10 to 20 epochs improves accuracy by 3 points").
    """
    for placed in section.blocks:
        if placed.kind in (BlockKind.PARAGRAPH, BlockKind.CAPTION, BlockKind.FOOTNOTE):
            for start, end, message, identity, confidence in _wrong_changes(placed.block.plain.text):
                yield ctx.report_block(placed, start, end, message, identity=identity, confidence=confidence)
    for placed, table in _tables(section):
        for cell in (cell for row in table.rows for cell in row if "→" in cell.text or "->" in cell.text):
            for _, _, message, identity, confidence in _wrong_changes(cell.text):
                yield ctx.report(placed.file, cell.start, cell.end, message, identity=identity, confidence=confidence)


# "from 0.5 to 3 m/s by steps of 0.05", "ranging from 1 to 9 in increments of 2": a grid, not a change.
_GRID = re.compile(r"\b(?:steps?|increments?|intervals?|spacing|resolution)\b", re.IGNORECASE)
_SPAN_BEFORE = re.compile(r"\b(?:rang\w*|var(?:y|ies|ied|ying)|sweep\w*|spann?\w*|grid)\b[^.;]{0,30}$", re.IGNORECASE)
_NEAR = 15  # characters between "from A to B" and "by C" that still keep C about the same quantity


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _wrong_changes(text: str) -> tuple[tuple[int, int, str, str, float], ...]:
    """(start, end, message, identity, confidence) of the stated changes in `text` that do not add up; cached by text.

    The identity is the message as first worded (the statement in single quotes), so that fingerprints survive.
    """
    wrong = []
    for match in _CHANGE.finditer(text):
        groups = match.groups()
        bracketed = groups[0] is not None
        if _GRID.search(match.group(0)) or _SPAN_BEFORE.search(text[max(0, match.start() - 40) : match.start()]):
            continue
        first, second, sign, delta, unit = groups[:5] if bracketed else groups[5:]
        if _consistent(first, second, sign, delta, unit or ""):
            continue
        start, end = match.span(4) if bracketed else match.span(9)
        # "(+C)" right after the end points states their change; a "by C" further on may measure another quantity.
        confidence = 0.9 if bracketed or start - match.end(7) <= _NEAR else 0.6
        stated = " ".join(match.group(0).split())
        problem = (
            f"the change from {first} to {second} is "
            f"{_number(second) - _number(first):+.{_places(first, second)}f}, not {sign or ''}{delta}{unit or ''}"
        )
        wrong.append((start, end, f'"{stated}": {problem}', f"'{stated}': {problem}", confidence))
    return tuple(wrong)


def _number(text: str) -> float:
    return float(text.replace("−", "-"))


def _places(*texts: str) -> int:
    return max(len(text.split(".", 1)[1]) if "." in text else 0 for text in texts)


def _consistent(first: str, second: str, sign: str, delta: str, unit: str) -> bool:
    a, b = _number(first), _number(second)
    c = _number(delta) * (-1 if sign in ("-", "−") else 1)
    rounding = slack(_places(first)) + slack(_places(second))
    tolerance = slack(_places(delta)) + rounding
    if unit in ("×", "x"):
        return a != 0 and abs(b / a - abs(c)) <= tolerance + rounding / abs(a) * max(1.0, abs(b / a))
    absolute = abs((b - a) - c) <= tolerance or (not sign and abs(abs(b - a) - c) <= tolerance)
    relative = a != 0 and abs(abs((b - a) / a * 100) - abs(c)) <= slack(_places(delta)) + 100 * rounding / abs(a)
    return absolute or (unit == "%" and relative) or (not sign and relative)
