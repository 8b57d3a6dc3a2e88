"""The NUM family's science: a section's numbers and tables, the table cells a prose number may quote (`TableCell`),
the prose numbers that may quote one (`Quote`), the index of cells by spelling, and what a sentence names."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.index import NumberInContext
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind, Cell, Table
from ....latex.numbers import POWER_OF_TEN, TIMES_TEN_TO, NumberMention, Role, find_numbers
from ....latex.record import record
from ....latex.row_keys import row_keys
from ...context import RuleContext, Spot
from ...finding import Range, Related
from ...memo import TEXT_CACHE_SIZE
from ...quantities import (
    CellIndex,
    Pointing,
    agreeing_spellings,
    body_cells,
    digit_variants,
    name_words,
    referenced_labels,
    rendered,
    spelled,
)
from ..printed_tables import literal_refs, sentence_pointing

# A number as written without its unit: a fix writes over all of "8×10^5", not its 8.
DIGITS = DeferredPattern(r"[-−]?(?:" + POWER_OF_TEN + r"|[\d.,]+(?:" + TIMES_TEN_TO + r")?)")
# The blocks whose numbers the index lists (its `numbers`): prose, footnotes, captions, theorems.
PROSE_KINDS = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM)


def section_numbers(section: Section) -> Iterator[NumberInContext]:
    """The section's numbers, as the index lists them."""
    for placed in section.blocks:
        if placed.kind in PROSE_KINDS:
            for mention in mentions(placed.block.plain.text):
                yield NumberInContext(mention, placed, section.kind)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def mentions(text: str) -> list[NumberMention]:
    """Cached by text: a keystroke re-reads one block of the edited section."""
    return find_numbers(text)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _by_sentence(text: str) -> dict[int, list[NumberMention]]:
    """A block's numbers by the start of their sentence: what each sentence states beside a number, read
    from the block's own numbers, not by reading every sentence again."""
    grouped: dict[int, list[NumberMention]] = {}
    for mention in mentions(text):
        grouped.setdefault(mention.sentence_start, []).append(mention)
    return grouped


def section_tables(section: Section) -> Iterator[tuple[PlacedBlock, Table]]:
    """The section's tables, as the index lists them (its `tables`)."""
    for placed in section.blocks:
        if placed.kind is BlockKind.TABLE and placed.block.table is not None:
            yield placed, placed.block.table


def section_cells(section: Section) -> Iterator[tuple[PlacedBlock, Cell, float]]:
    """The numeric body cells of the section's tables, with their values."""
    for placed, table in section_tables(section):
        for cell, value in table_values(table):
            yield placed, cell, value


def table_values(table: Table) -> Iterator[tuple[Cell, float]]:
    """The numeric body cells of one table, with their values."""
    for cell in body_cells(table):
        if cell.value is not None:
            yield cell, cell.value


class CellPlace(NamedTuple):
    """A cell's file and its source range's ends, as a finding's range gives them."""

    file: str
    start_line: int
    start_character: int
    end_line: int
    end_character: int

    @property
    def range(self) -> Range:
        return Range.of(self.start_line, self.start_character, self.end_line, self.end_character)


@record(slots=True)
class TableCell:
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
    headers: tuple[str, str]  # its row's and its column's header as the table prints them: ("μ (meV)", "Device A")
    place: CellPlace  # where it sits; its `related` is built only for a cell a finding names
    rounded: frozenset[str]  # rounded_spellings of its value
    exact: frozenset[str]  # exact_spellings
    panel: str = ""  # the panel its table sets it in ("A" under "Panel A: …"), "" if none

    @property
    def related(self) -> Related:
        """The cell, for a finding on a prose number."""
        return Related(file=self.place.file, range=self.place.range, message=f"the table's value {self.text}")


@record(slots=True)
class Quote:
    """A prose number that may quote a table cell, with what ties its sentence to cells and where the
    finding it becomes sits (built, with its message, related cell and fix, once the cell is known)."""

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
    at: Spot  # where its finding sits
    digits: tuple[int, int]  # the source span the fix writes the table's value over


@dataclass(frozen=True, slots=True, eq=False)  # hashed by identity: the engine reuses an unchanged section's part
class Figures:
    """What a section gives NUM001: its tables' numeric cells and its prose numbers."""

    cells: tuple[TableCell, ...]
    quotes: tuple[Quote, ...]
    retired: tuple[Retired, ...] = ()  # its tables' commented-out values
    fed: str | None = None  # the digest of what its tables give every section's quotes (see figures.fed_by)


@record(slots=True)
class Retired:
    """A table's commented-out source: the decimals it once held ("%13.96 &" above the row's "13.94 &"), each
    with its place, so that a sentence quoting an old value shows as stale."""

    label: str
    describe: str  # "Table tab:main"
    spots: tuple[tuple[str, Related], ...]  # each value as written, and where the comment writes it

    def holds(self, written: str) -> Related | None:
        return next((related for spelling, related in self.spots if spelling == written), None)


# A comment (an unescaped %) and the decimals written in it.
_COMMENT = DeferredPattern(r"(?<!\\)%([^\n]*)")
_DECIMAL = DeferredPattern(r"(?<![\d.])\d+\.\d+(?![\d.])")


def retired_of(ctx: RuleContext, placed: PlacedBlock, table: Table) -> Retired | None:
    """The values a labelled table's source writes only in comments, or None when it comments out none."""
    label = table.label or (placed.block.labels[0] if placed.block.labels else "")
    if not label:
        return None
    source = ctx.source(placed.file).text
    spots = []
    for comment in _COMMENT.finditer(source, table.start, table.end):
        for number in _DECIMAL.finditer(comment.group(1)):
            start = comment.start(1) + number.start()
            spots.append(
                (number.group(), ctx.related(placed.file, start, start + len(number.group()), f"the commented-out value {number.group()}"))
            )
    return Retired(label, f"Table {label}", tuple(spots)) if spots else None


@lru_cache(maxsize=2)
def cell_index(tables: tuple[tuple[int, Figures], ...]) -> CellIndex[tuple[int, TableCell]]:
    """Every table cell by its spellings, with the place of its section; rebuilt only when a section with a table changed."""
    index: CellIndex[tuple[int, TableCell]] = CellIndex()
    for place, figures in tables:
        for cell in figures.cells:
            index.add((place, cell), cell.rounded, cell.exact)
    return index


# "On average", "the mean", "overall", "in total": the sentence quotes an aggregate row or column.
# "Mean" before a metric's next word names the metric ("mean absolute error", "mean average precision"), and
# "mean ± std" names how values are reported: neither speaks of an aggregate.
SPEAKS_OF_AGGREGATE = DeferredPattern(
    r"\b(?:averag\w*|mean(?!\s+(?:absolute|squared?|average|reciprocal|relative|log|opinion)\b|\s*(?:\+/-|±|\\pm))|overall|in total)\b",
    re.IGNORECASE,
)
# A header that names an aggregate ("Avg.", "Mean", "Total") or an averaged quantity ("Average earnings", "Mean F1").
AVERAGED = DeferredPattern(r"^\W*(?:avg|average|mean|overall|total)\b(?![-:])", re.IGNORECASE)
# A header that names something: a macro, capitals inside a word, letters with digits or joined by a hyphen.
NAME_LIKE = DeferredPattern(r"\\[A-Za-z]+|[a-z][A-Z]|[A-Z]{2}|\d[A-Za-z]|[A-Za-z]\d|[A-Za-z]-[A-Za-z0-9]")


# A spread or an interval ("SD", "S.E.", "Std.", "95% CI"): a column of them, or a sentence that speaks of one.
SPREAD = DeferredPattern(
    r"\b(?:SDs?|S\.[DE]\.|SEs?|[Ss]td\.?|[Ss]tdev|standard (?:deviation|error)s?|CIs?|CrIs?|confidence interval|IQR)\b|±|\\pm"
)
# Where a clause ends: "on average" in one clause does not speak of the number in the next.
_CLAUSE_END = DeferredPattern(r"[;:]|,?\s\b(?:but|while|whereas)\b")


def clause_at(sentence: str, at: int, ends: DeferredPattern = _CLAUSE_END) -> str:
    """The clause of the sentence holding the character at `at`, clauses ending where `ends` matches."""
    starts = [match.end() for match in ends.finditer(sentence, 0, at)]
    end = ends.search(sentence, at)
    return sentence[starts[-1] if starts else 0 : end.start() if end else len(sentence)]


# A number written with its spread: "19.7% +/- 6.1%", "0.82 ± 0.03".
_WITH_SPREAD = DeferredPattern(r"\s*(?:±|\+/-|\\pm)")
# The authors' own method: a row "Ours", and a sentence speaking of "our" method.
OURS = DeferredPattern(r"\bours?\b", re.IGNORECASE)
# A column of changes: "Δ", "Gain", "Improvement", "Diff.".
CHANGE_HEADER = DeferredPattern(r"Δ|\\Delta|\b(?:gain|improv\w*|change|diff\w*|increase|decrease|reduction|delta)\b", re.IGNORECASE)
# Roles that quote no table cell: what is not a measured value (latex/numbers.py Role).
NOT_QUOTED = frozenset({Role.YEAR, Role.LISTED, Role.P_VALUE, Role.STATISTIC, Role.INTERVAL_LEVEL, Role.SAMPLE_SIZE})


def may_quote(mention: NumberMention) -> bool:
    """A number that may quote one cell: a decimal, a percentage of 10 or more, or a whole number of 10 or more
    (which quotes only a table its sentence cites: see `_anchored_cell`); not a year, a p-value, a statistic, an
    interval's level, a sample size, or one of a list of values (a grid, a sweep)."""
    if mention.role in NOT_QUOTED:
        return False
    return mention.decimals >= 1 or mention.percent or abs(mention.value) >= 10


def lowest_headers(table: Table) -> dict[tuple[int, int], str]:
    """By (row, column), the nearest text cell above each cell in its column: its header ("Mean" under "Panel A:
    Summary statistics"), or the sub-header a panel repeats inside the body ("" if none). Read in one walk
    down the rows, not a walk up from every cell."""
    above: dict[int, str] = {}
    found: dict[tuple[int, int], str] = {}
    for index, row in enumerate(table.rows):
        for cell in row:
            found[(index, cell.column)] = above.get(cell.column, "")
        headers: dict[int, str] = {}
        for cell in row:
            if cell.text.strip() and cell.value is None:
                for column in range(cell.column, cell.column + cell.column_span):
                    headers.setdefault(column, cell.text)
        above.update(headers)
    return found


def quote_of(ctx: RuleContext, number: NumberInContext) -> Quote:
    mention, placed = number.mention, number.block
    digits = DIGITS.match(mention.text)
    length = digits.end() if digits else len(mention.text)
    start, end = placed.block.plain.source_span(mention.plain_start, mention.plain_start + length)
    fields = _quoted(MentionKey(number))
    pointing = fields[6]
    # A row named through the author's macro; most sentences call none, and ask nothing of the index.
    words = rendered(pointing.words, fields[4], ctx.index.printed) if "\\" in fields[4] else pointing.words
    if words is not pointing.words:
        fields = (*fields[:6], replace(pointing, words=words), *fields[7:])
    return Quote(*fields, ctx.spot(placed, mention.plain_start, mention.plain_end), (start, end))


class MentionKey:
    """A number as a cache key by what `_quoted` reads of it: its mention counted from its sentence's start, the
    other numbers of its sentence, its block's kind, the float a caption describes and the labels its block cites.
    A number of a sentence that typing did not touch is read once, though its paragraph's text changed (a field
    `_quoted` comes to read belongs in `read`)."""

    __slots__ = ("number", "read")

    def __init__(self, number: NumberInContext) -> None:
        self.number = number
        mention, placed = number.mention, number.block
        start, text = mention.sentence_start, placed.block.plain.text
        self.read = (
            mention.value,
            mention.text,
            mention.decimals,
            mention.percent,
            mention.sentence,
            mention.subject,
            mention.role,
            mention.plain_start - start,
            mention.plain_end - start,
            tuple((other.value, other.decimals, other.plain_start - start) for other in _by_sentence(text)[start]),
            placed.kind,
            tuple(placed.block.describes),
            _paragraph_refs(text),
        )

    def __hash__(self) -> int:
        return hash(self.read)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MentionKey) and other.read == self.read


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _paragraph_refs(text: str) -> frozenset[str]:
    return referenced_labels(text) | literal_refs(text)


_Quoted = tuple[
    float,
    int,
    bool,
    str,
    str,
    tuple[str, ...],
    Pointing,
    tuple[tuple[float, int], ...],
    Role,
    bool,
    bool,
    str,
    bool,
    tuple[str, ...],
    tuple[str, ...],
]


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _quoted(key: MentionKey) -> _Quoted:
    """A quote's fields that its paragraph's text decides: all but where it sits."""
    mention, placed = key.number.mention, key.number.block
    sentence = mention.sentence
    beside = _by_sentence(placed.block.plain.text)[mention.sentence_start]
    at = mention.plain_start - mention.sentence_start
    return (
        mention.value,
        mention.decimals,
        mention.percent,
        mention.text,
        " ".join(sentence.split()),
        mention.subject,
        sentence_pointing(sentence, placed.block, frozenset(name_words(sentence)) | row_keys(sentence)),
        tuple((other.value, other.decimals) for other in beside if other.plain_start != mention.plain_start),
        mention.role,
        bool(SPEAKS_OF_AGGREGATE.search(clause_at(sentence, at))),
        bool(SPREAD.search(sentence)),
        sentence[:at].lower(),
        bool(_WITH_SPREAD.match(sentence, mention.plain_end - mention.sentence_start)),
        tuple(agreeing_spellings(mention.value, mention.decimals)),
        tuple(dict.fromkeys(digit_variants(spelled(mention.value, mention.decimals)))),
    )


def significant_figures(written: str) -> int:
    """Significant figures as written: "13.96" 4, "0.50" 2, "0.05" 1, "85" 2, "40" 1."""
    whole, _, fraction = written.partition(".")
    digits = (whole + fraction).lstrip("0")
    return len(digits if fraction else digits.rstrip("0"))


def figures_evidence(written: str) -> float:
    """A number of many figures is rarely one digit from another by chance; one of one or two often is."""
    figures = significant_figures(written)
    return 0.1 if figures >= 4 else -0.1 if figures <= 2 else 0.0


def last_place_apart(written: str, other: str) -> bool:
    """ "85.9" and "85.8": one unit apart in the last place, as two roundings of one value can be."""
    return (
        len(written) == len(other)
        and written[:-1] == other[:-1]
        and written[-1:].isdigit()
        and other[-1:].isdigit()
        and abs(int(written[-1]) - int(other[-1])) == 1
    )


def clamped(confidence: float) -> float:
    return round(min(0.95, max(0.1, confidence)), 2)


_DRAWING = DeferredPattern(r"\\(?:draw|node|path|fill|coordinate|addplot)\b")  # TikZ the model keeps as prose
# "Lemma 4.5", "Exercise~1.5": an identifier; not a capitalised function word opening a sentence ("The 57 studies").
_NAMED_BEFORE = DeferredPattern(
    r"(?:\b(?!(?:The|A|An|All|Only|These|Those|Our|Their|Its|Of|In|On|For|At|With|By|And|Or|But|Out|About|Over|Some|Most|Each|Both|Nearly|Almost|Roughly)\b)[A-Z][a-z]+|~)\s*$"
)

# Two or more cell separators: a table's rows in a file of their own ("tabs/reg-fragment.tex", as estout and
# stargazer write them), \input inside a tabular elsewhere and so read as prose.
_TABLE_ROW = DeferredPattern(r"(?:\s&\s[^&]*){2}")
# The spread after a value ("22% +/- 6.7%", "0.91 ± 0.02"): a sample's dispersion, not a result of its own.
_SPREAD_BEFORE = DeferredPattern(r"(?:±|\+/-|\\pm)\s*$")


def _in_prose(number: NumberInContext) -> bool:
    """A number of running prose: a paragraph's, not a TikZ drawing's nor a table row's read as prose."""
    mention = number.mention
    return not (
        mention.is_year
        or number.block.kind.value != "paragraph"
        or _DRAWING.search(mention.sentence)
        or _TABLE_ROW.search(mention.sentence)
    )


def headline(number: NumberInContext) -> bool:
    """A result-like quantity in running prose: 12.3%, 0.85, 48.66; not a figure coordinate, a lemma number or a spread."""
    mention = number.mention
    if not _in_prose(number):
        return False
    if not (mention.percent or mention.decimals >= 2 or (mention.decimals >= 1 and abs(mention.value) >= 10)):
        return False
    before = mention.sentence[max(0, mention.plain_start - mention.sentence_start - 12) : mention.plain_start - mention.sentence_start]
    return not (_NAMED_BEFORE.search(before) or _SPREAD_BEFORE.search(before))


_COUNTED_AFTER = DeferredPattern(r"\s*[a-z]")
FOLLOWING = DeferredPattern(r"\s*(?:of\s+)?([A-Za-z][\w-]*)(?:\s+([A-Za-z][\w-]*))?")


# Scales a count is written in: "3.2 million observations", "1.5 billion tokens".
SCALES = frozenset({"million", "billion"})


def is_counted(number: NumberInContext) -> bool:
    """An integer of 10 or more before the lower-case word it counts or measures ("57 studies", "340 fps", "80M messages"),
    or a number of millions or billions of it ("3.2 million observations")."""
    mention = number.mention
    scaled = mention.unit in SCALES
    if mention.percent or not _in_prose(number):
        return False
    if not scaled and (mention.decimals or abs(mention.value) < 10):
        return False
    at, end = mention.plain_start - mention.sentence_start, mention.plain_end - mention.sentence_start
    return bool(_COUNTED_AFTER.match(mention.sentence, end)) and not _NAMED_BEFORE.search(mention.sentence[max(0, at - 12) : at])


# Endings that vary between restatements of one quantity ("preserving", "preservation"; "compressed", "compresses").
_SUFFIX = DeferredPattern(r"(?:ations?|ions?|ments?|ings?|ed|es|e|(?<!s)s|ly)$")


def stem(word: str) -> str:
    return _SUFFIX.sub("", word) if len(word) > 4 else word


_TOKEN = DeferredPattern(r"[A-Za-z][A-Za-z0-9\-]*|\d")


def window(sentence: str, start: int, end: int, size: int = 5) -> tuple[set[str], set[str]]:
    """Content words within `size` words of a number, and the capitalised names of its sentence (the setting)."""
    before = [w for w in _TOKEN.findall(sentence[:start]) if not w.isdigit()][-size:]
    after = [w for w in _TOKEN.findall(sentence[end:]) if not w.isdigit()][:size]
    content = name_words(" ".join(before + after)) - _FUNCTION_WORDS
    words = _TOKEN.findall(POINTER.sub(" ", sentence))
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


def direction(sentence: str, start: int, end: int) -> int:
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
_ORDINARY = DeferredPattern(r"[A-Z][a-z]*")
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
POINTER = DeferredPattern(r"\\[A-Za-z]*(?:cite|ref)[A-Za-z]*\*?(?:\[[^\]]*\])*\{[^}]*\}")
