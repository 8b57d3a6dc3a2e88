"""Matching numbers written in prose to table cells, within rounding.

Shared by the NUM and TAB rules. A table index is built once per check: every
numeric cell is keyed by the strings a careful author could write for it
("93.42" → "93.42", "93.4", "93"; a fraction 0.4866 also as the percentage
"48.66"), so "does this prose number appear in a table?" is one dict lookup,
and "is it one mistyped digit away from a cell?" is a handful of lookups.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from ..latex.deferred_pattern import DeferredPattern
from ..latex.macro_signatures import REFERENCE_COMMAND
from ..latex.manuscript import PlacedBlock, Section
from ..latex.model import Block, BlockKind, Cell, Table
from ..latex.record import record
from ..latex.source import value_hash
from .finding import Finding
from .memo import SECTION_CACHE_SIZE, TEXT_CACHE_SIZE
from .registry import Pairwise
from .row_names import names_header

if TYPE_CHECKING:
    from .context import RuleContext

_WORD = DeferredPattern(r"[A-Za-z][A-Za-z0-9\-+]*")
_MACRO = DeferredPattern(r"\\[A-Za-z@]+")
# Macros that survive into plain text but name nothing: references, citations, spacing.
_NOT_A_NAME = DeferredPattern(r"\\(?:(?:auto|c|C|eq|page|hyper)?ref|cite\w*|\w*cite|label|url|href|xspace|[hv]space|(?:no)?indent)$")
# A superscript glued to its letter, as math writes it: "r^2", "R^{2}" name the header "R2".
_SUPERSCRIPT = DeferredPattern(r"(?<=[A-Za-z])\^\{?([A-Za-z0-9])\}?")
# A name with its number: "Model 3", "Study 2", "Exp. 1" (the word alone is generic: "model"); not a pointer,
# nor a step of a sequence ("1:VUA 2:TOEFL").
_NUMBERED = DeferredPattern(r"\b([A-Za-z]{3,})\.?[\s~]*(\d{1,2})\b(?![.,]\d|:)")
# A reference to numbered columns ("Column (1)", "col. 2", "columns (3) and (4)"), as a regression table numbers
# them: each number names the column headed "(N)" (see the numbers family's `column_numbers`).
_COLUMN_REFERENCE = DeferredPattern(r"\b(?:columns?|cols?\.?)[\s~]*(\(?\d{1,2}\)?(?:\s*(?:,|and|&)\s*\(?\d{1,2}\)?)*)", re.IGNORECASE)
_POINTERS = frozenset({"table", "tab", "figure", "fig", "section", "sec", "equation", "eq", "appendix", "chapter", "line", "page", "step"})
# The commands citing a float's label: LaTeX's, hyperref's, cleveref's, varioref's (`\\hyperref[tab:x]{…}` in brackets).
_REF = DeferredPattern(r"\\(?:(?:auto|c|C|v|V|name|sub|labelc)?ref|[cC]refrange)\*?\{([^}]*)\}|\\hyperref\[([^\]]*)\]")
# The part of a float a reference names by a letter written onto it: "Table~\\ref{t}b", "\\ref{t}(B)" (not "\\ref{t} a").
_PART_LETTER = DeferredPattern(r"\(([a-hA-H])\)|([a-hA-H])(?![A-Za-z])")
# Header words that name no setting: they appear in every table.
# The whole header names the aggregate ("Avg.", "Mean acc.", "Total", with a unit or scope in parentheses:
# "Total (pb)", "total (order ≤ 4)"), not a method ("Mean-Teacher").
AGGREGATE_HEADER = DeferredPattern(
    r"^\W*(avg|average|mean|overall|total|sum)\b(?!-)[\s.~]*(acc\.?|accuracy|score|\([^()]{0,20}\)|%)?[\W_]*$", re.IGNORECASE
)
# A column may also name the aggregate of a measure ("Overall Error Rate", "Mean F1 (%)"); a row so named is
# more often a variable of a regression ("Average time at home"). TAB001 trusts a line only when most of it adds up.
AGGREGATE_COLUMN_HEADER = DeferredPattern(
    r"^\W*(avg|average|mean|overall|total|sum)\b(?!-)[\s.~]*([A-Za-z][\w.-]*(?:\s+[A-Za-z][\w.-]*){0,2})?[\s.~]*(\([^()]{0,20}\)|%)?[\W_]*$",
    re.IGNORECASE,
)
_GENERIC = frozenset(
    {
        "method",
        "methods",
        "model",
        "models",
        "ours",
        "our",
        "the",
        "and",
        "avg",
        "average",
        "mean",
        "std",
        "results",
        "result",
        "dataset",
        "datasets",
        "metric",
        "metrics",
        "baseline",
        "baselines",
        "best",
        "all",
        "total",
        "acc",
        "score",
        "scores",
        "setting",
        "settings",
        "task",
        "tasks",
        "table",
        "with",
        "without",
        "for",
        "from",
        "test",
        "train",
        "val",
        "cite",
        "citep",
        "citet",
        "ref",
    }
)


def slack(decimals: int) -> float:
    """Half a unit in the last written place: what rounding can hide."""
    return 0.5 * 10.0**-decimals + 1e-9


def agrees(written: float, decimals: int, exact: float) -> bool:
    """`written` (with `decimals` places) is `exact` rounded or truncated."""
    if abs(written - exact) <= slack(decimals):
        return True
    step = 10.0**-decimals
    return abs(written - int(exact / step) * step) <= 1e-9 * max(1.0, abs(exact))


def spelled(value: float, decimals: int) -> str:
    return f"{abs(value):.{max(decimals, 0)}f}"


def name_words(text: str) -> set[str]:
    """Distinctive lower-case words of a header or caption. A user macro that names a method
    ("\\method{} reaches …" against a row "\\method") is a word of its own, backslash kept."""
    return set(_name_words(text))


@functools.lru_cache(maxsize=4096)
def _name_words(text: str) -> frozenset[str]:
    """Read once per text: every cell of a row or column asks for its header's words."""
    macros = {macro.lower() for macro in _MACRO.findall(text) if not _NOT_A_NAME.match(macro)}
    text = _SUPERSCRIPT.sub(r"\1", _MACRO.sub(" ", text))
    numbered = {f"{word.lower()} {number}" for word, number in _NUMBERED.findall(text) if word.lower() not in _POINTERS}
    numbered |= {column_word(int(number)) for match in _COLUMN_REFERENCE.finditer(text) for number in re.findall(r"\d+", match.group(1))}
    return frozenset(({word.lower() for word in _WORD.findall(text) if len(word) > 1} - _GENERIC) | macros | numbered)


def searched_by_text(pattern: DeferredPattern) -> Callable[[str], bool]:
    """Whether `pattern` matches in a text, kept by the text: a section's walk asks of each of its blocks on every
    edit, and an edit searches the edited block alone."""

    @functools.lru_cache(maxsize=TEXT_CACHE_SIZE)
    def found(text: str) -> bool:
        return pattern.search(text) is not None

    return found


def rendered(words: frozenset[str], text: str, printed: Callable[[str], str]) -> frozenset[str]:
    """A sentence's words with those of its rendering, where it calls a macro the paper defines
    ("\\calvin" as the "CALVIN" it prints): a sentence naming a row through the macro names the row written out."""
    if "\\" not in text:
        return words
    shown = printed(text)
    return words if shown == text else words | name_words(shown)


def named_at(text: str, words: AbstractSet[str]) -> list[int]:
    """Where `text` names one of `words` (as `name_words` reads a header): a word, a macro, a numbered name
    ("Model 2"), a reference to numbered columns ("col. 2")."""
    found = [match.start() for pattern in (_WORD, _MACRO) for match in pattern.finditer(text) if match.group().lower() in words]
    found += [match.start() for match in _NUMBERED.finditer(text) if f"{match.group(1).lower()} {match.group(2)}" in words]
    found += [
        match.start()
        for match in _COLUMN_REFERENCE.finditer(text)
        if any(column_word(int(number)) in words for number in re.findall(r"\d+", match.group(1)))
    ]
    return sorted(found)


def column_word(number: int) -> str:
    """The word by which a sentence ("Column (1)", "col 1") and a column headed "(1)" name the same column."""
    return f"column {number}"


@functools.lru_cache(maxsize=TEXT_CACHE_SIZE)
def referenced_labels(text: str) -> frozenset[str]:
    """The labels `text` references. Remembered by text: each sentence of a paragraph asks for the paragraph's,
    which would otherwise make a long paragraph's work quadratic, and a section's walk asks of every sentence and
    paragraph on each edit."""
    parts: dict[str, set[int | None]] = {}
    for match in _REF.finditer(text):
        keys = [key.strip() for key in (match.group(1) or match.group(2) or "").split(",")]
        letter = _PART_LETTER.match(text, match.end()) if len(keys) == 1 else None
        for key in keys:
            parts.setdefault(key, set()).add("abcdefgh".index((letter.group(1) or letter.group(2)).lower()) if letter else None)
    return frozenset(
        CitedLabel(key, part) if len(named) == 1 and (part := next(iter(named))) is not None else key for key, named in parts.items()
    )


class CitedLabel(str):
    """A label a text cites by one part of its float: "Table~\\ref{t}b" is `t`, part 1. It is the label wherever a
    label is asked for; where the float holds several tabulars, `tables_part` reads the one it names."""

    part: int

    def __new__(cls, label: str, part: int) -> CitedLabel:
        cited = super().__new__(cls, label)
        cited.part = part
        return cited

    def __reduce__(self) -> tuple[type[CitedLabel], tuple[str, int]]:
        return CitedLabel, (str(self), self.part)


def without_refs(text: str) -> str:
    """The text with its references and citations blanked, every other character where it stands (a match in it is a
    match in `text`): a label's or a key's words ("tab:many-eng-scores", "most2019all"), and a note's ("p.~12"), are
    no words of the prose."""
    return REFERENCE_COMMAND.sub(lambda match: " " * len(match.group(0)), text)


def block_refs(block: Block) -> frozenset[str]:
    """The labels a block cites: those its text references and, for a caption, its own float's."""
    return referenced_labels(block.plain.text) | frozenset(block.describes)


def sentence_refs(sentence: str, block: Block) -> tuple[str, ...]:
    """The labels a sentence of `block` cites: those it references or, in a caption, its own float's."""
    return tuple(referenced_labels(sentence)) or tuple(block.describes)


def speaks_of_tables(placed: PlacedBlock) -> bool:
    """A block whose sentences may state what a table shows: a paragraph, or a caption of its own float."""
    return placed.kind in (BlockKind.PARAGRAPH, BlockKind.CAPTION)


@dataclass(frozen=True, slots=True, eq=False)  # hashed by identity: the engine reuses an unchanged section's part
class ShownTable:
    """A table where its section shows it: the labels a sentence cites it by, and its grid."""

    labels: tuple[str, ...]
    table: Table


def shown_table(placed: PlacedBlock) -> ShownTable | None:
    """The table a block shows, when it is a table with a parsed grid."""
    table = placed.block.table
    if placed.kind is not BlockKind.TABLE or table is None:
        return None
    return ShownTable(tuple(dict.fromkeys(label for label in (table.label, *placed.block.labels) if label)), table)


@dataclass(frozen=True, slots=True, eq=False)
class TableAt:
    """A table its section shows, named by its block's place among the section's blocks, with the labels a sentence
    cites it by: what a combining rule's part keeps of a table, without its cells' offsets (`placed_parts`)."""

    labels: tuple[str, ...]
    block: int

    def placed(self, section: Section) -> PlacedBlock:
        """The table's block where it lies now (`section` is the one the part was read from, or that text moved)."""
        return section.blocks[self.block]

    def table(self, section: Section) -> Table:
        return self.placed(section).block.table  # type: ignore[return-value]  # a table block: its text parses the same

    def shown(self, section: Section) -> ShownTable:
        return ShownTable(self.labels, self.table(section))


Shown = TypeVar("Shown", bound=ShownTable)
At = TypeVar("At", bound=TableAt)
Judged = TypeVar("Judged")
Tabular = TypeVar("Tabular")
ByLabel = TypeVar("ByLabel", bound=Mapping[str, tuple[Table, ...]])


def tabulars_by_label(labelled: Iterable[tuple[tuple[str, ...], Tabular]]) -> dict[str, tuple[Tabular, ...]]:
    """Every table under each of its labels, in reading order, from (labels, table) pairs: where a sentence's
    "Table 3" points. A float that holds several tabulars (side by side, a top and a bottom part, subtables
    without labels of their own) gives its label all of them, each with the float's caption: a statement about
    its first part is read against it too."""
    under: dict[str, list[Tabular]] = {}
    for labels, table in labelled:
        for label in labels:
            under.setdefault(label, []).append(table)
    return {label: tuple(tables) for label, tables in under.items()}


def tables_part(label: str, tables: tuple[Tabular, ...]) -> tuple[Tabular, ...]:
    """The tabulars of a float that a cited label names: the lettered part alone where the float holds several (none
    where it holds fewer), else all of them."""
    if isinstance(label, CitedLabel) and len(tables) > 1:
        return tables[label.part : label.part + 1]
    return tables


def each_cited(labels: Iterable[str], tables: Mapping[str, tuple[Tabular, ...]]) -> Iterator[tuple[str, Tabular]]:
    """Each table the labels cite, in order, with the label that cites it: every tabular of a float, or the part a
    letter names (`tables_part`)."""
    for label in labels:
        for table in tables_part(label, tables.get(label, ())):
            yield label, table


def shown_tables(parts: Iterable[tuple[Section, Iterable[object]]]) -> Iterator[ShownTable]:
    """The tables that sections' parts hold (`TableAt`), in reading order, as their sections show them now."""
    return (item.shown(section) for section, items in parts for item in items if isinstance(item, TableAt))


def tables_at_by_label(parts: Iterable[tuple[Section, Iterable[object]]], kind: type[At]) -> dict[str, tuple[tuple[At, Table], ...]]:
    """The tables that sections' parts show (their `TableAt`s of type `kind`) by label (`tabulars_by_label`), each
    table as its section holds it now."""
    return tabulars_by_label(
        (item.labels, (item, item.table(section))) for section, items in parts for item in items if isinstance(item, kind)
    )


def tables_by_label(parts: Iterable[tuple[object, Iterable[object]]], kind: type[Shown]) -> dict[str, tuple[Shown, ...]]:
    """The tables that sections' parts show (those of type `kind`) by label (`tabulars_by_label`)."""
    return tabulars_by_label((item.labels, item) for _, items in parts for item in items if isinstance(item, kind))


def fed_shown_tables(part: Iterable[object]) -> tuple[tuple[tuple[str, ...], str], ...] | None:
    """What a section's tables (`ShownTable`) give a `Pairwise` combine's shared state (None: it shows none): their
    labels and grids, each cell counted from the table's start, so typing in the prose before a table keeps every
    section's findings (a statement is judged by the table's values, and reported where the statement is)."""
    fed = tuple((item.labels, table_digest(item.table, item.table.start)) for item in part if isinstance(item, ShownTable))
    return fed or None


def judged_against_tables(
    kind: type[Judged],
    judge: Callable[[Judged, ByLabel], Iterable[Finding]],
    tables: Callable[[RuleContext, list[tuple[int, Section, list[object]]]], ByLabel],
) -> Pairwise:
    """A `Pairwise` combine that judges each statement of type `kind` the sections yielded against the paper's
    tables by label (`tables` builds them from the sections that show some): an edit judges the edited section's
    statements again, and every section's only when a table changes."""

    def each(ctx: RuleContext, by_label: ByLabel, place: int, section: Section, part: list[object]) -> Iterator[Finding]:
        for item in part:
            if isinstance(item, kind):
                yield from judge(item, by_label)

    return Pairwise(fed_shown_tables, tables, each)


# Each table's digest by the table object and the offset its cells are counted from (a parse rebuilds a table it
# changes): the rules that judge statements against tables feed on the same tables, each digested once.
_TABLE_DIGESTS: dict[tuple[int, int], tuple[Table, str]] = {}


def table_digest(table: Table, start: int) -> str:
    """The table with every cell counted from `start` (its own start or its block's), as a `Pairwise` feed digests it."""
    key = (id(table), start)
    kept = _TABLE_DIGESTS.get(key)
    if kept is not None and kept[0] is table:
        return kept[1]
    if len(_TABLE_DIGESTS) >= SECTION_CACHE_SIZE:
        _TABLE_DIGESTS.clear()
    digest = value_hash(table.shifted(-start))
    _TABLE_DIGESTS[key] = (table, digest)
    return digest


@record(slots=True)
class Pointing:
    """What ties a sentence to table cells: its distinctive words, the labels it references,
    the labels its paragraph references and, for a caption's sentence, the float it describes;
    `by_number`, the labels of those tables it names only by a printed number ("Table 2")."""

    words: frozenset[str]
    refs: frozenset[str]
    paragraph_refs: frozenset[str]
    captioned: frozenset[str] = frozenset()
    by_number: frozenset[str] = frozenset()

    @classmethod
    def of(cls, sentence: str, paragraph: str) -> Pointing:
        return cls(frozenset(name_words(sentence)), referenced_labels(sentence), referenced_labels(paragraph))


def tie(cell: CellAt, sentence: str, paragraph: str) -> int:
    """How firmly a sentence points at a cell (see `tie_words`)."""
    row, column = cell.headers()
    return tie_words(Pointing.of(sentence, paragraph), cell.label, name_words(row), name_words(column))


def tie_words(pointing: Pointing, label: str, row_words: AbstractSet[str], column_words: AbstractSet[str]) -> int:
    """How firmly a sentence points at a cell of table `label` with these header words: 2 when it
    names the cell's row and column, 1 when it references the cell's table (or its paragraph does)
    and names the row or the column (or the sentence cites that table alone), 0 when nothing ties them."""
    words, refs = pointing.words, pointing.refs
    named_row = not words.isdisjoint(row_words) or names_header(words, row_words)
    named_column = not words.isdisjoint(column_words) or names_header(words, column_words)
    if named_row and named_column:
        return 2
    if label in refs and (named_row or named_column or len(refs) == 1):
        return 1
    return 1 if (named_row or named_column) and label in pointing.paragraph_refs else 0


def named_share(words: AbstractSet[str], header_words: AbstractSet[str]) -> float:
    """The share of a header's distinctive words (`name_words(header)`) that `words` contains, or 1.0 when it
    names the header whole in another form (see `row_names`): "tt Hadronic" names the row "tt Hadronic" fully
    (1.0) and the row "tt Dileptonic" half (0.5)."""
    if not header_words:
        return 0.0
    return 1.0 if names_header(words, header_words) else len(words & header_words) / len(header_words)


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
        return described(self.label, *self.headers())


def described(label: str, row: str, column: str) -> str:
    """A cell as a message names it: "Table t (row Ours, column F1)"."""
    where = ", ".join(part for part in (f"row {_short(row)}" if row else "", f"column {_short(column)}" if column else "") if part)
    name = f"Table {label}" if label else "a table"
    return f"{name} ({where})" if where else name


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:37] + "…"


T = TypeVar("T")


class CellIndex(Generic[T]):
    """Items (cells) keyed by the spellings of their values: `rounded_spellings` for "does a cell
    hold this number?", `exact_spellings` for "is a cell one mistyped digit away?"."""

    def __init__(self) -> None:
        self._by_spelling: dict[str, list[T]] = {}
        self._by_exact: dict[str, list[T]] = {}

    def __bool__(self) -> bool:
        return bool(self._by_exact)

    def add(self, item: T, rounded: Iterable[str], exact: Iterable[str]) -> None:
        for spelling in rounded:
            self._by_spelling.setdefault(spelling, []).append(item)
        for spelling in exact:
            self._by_exact.setdefault(spelling, []).append(item)

    def agreeing(self, spellings: Sequence[str]) -> list[T]:
        """Items holding a value written as `spellings` (see `agreeing_spellings`): the first, full spelling as
        a cell rounds to it, the shorter ones only as a cell writes them ("0.70" is the cell "0.7", not the
        cell 0.69 rounded to one place)."""
        if not spellings:
            return []
        full, *shorter = spellings
        return [*self._by_spelling.get(full, ()), *(item for written in shorter for item in self._by_exact.get(written, ()))]

    def one_digit_away(self, variants: Collection[str], rounded: bool = False) -> list[T]:
        """Items written exactly as one of `variants` (see `digit_variants`), each once; with `rounded`, also
        items whose value rounds to one of them (a cell 0.767 for the variant 0.77)."""
        spellings = self._by_spelling if rounded else self._by_exact
        if spellings.keys().isdisjoint(variants):  # the common case, without a Python-level loop
            return []
        found: list[T] = []
        seen: set[int] = set()
        for variant in variants:
            for item in spellings.get(variant, ()):
                if id(item) not in seen:
                    seen.add(id(item))
                    found.append(item)
        return found


def body_cells(table: Table) -> Iterator[Cell]:
    for row in table.rows[table.header_rows :]:
        yield from row


@functools.lru_cache(maxsize=4096)
def rounded_spellings(value: float, decimals: int) -> frozenset[str]:
    """How a cell's value may be quoted: rounded to fewer places, a fraction also as a percentage. Kept by value:
    a paper's tables repeat their values, and two rules index every cell."""
    spellings = {spelled(value, places) for places in range(decimals, -1, -1)}
    if abs(value) <= 1 and decimals >= 2:  # a fraction cell read as a percentage
        spellings |= {spelled(value * 100, places) for places in range(decimals - 2, -1, -1)}
    return frozenset(spellings)


@functools.lru_cache(maxsize=4096)
def exact_spellings(value: float, decimals: int) -> frozenset[str]:
    """A cell's value as written, and as the percentage of a fraction."""
    return frozenset({spelled(value, decimals), spelled(value * 100, max(decimals - 2, 0))})


def agreeing_spellings(value: float, decimals: int) -> list[str]:
    """The spellings of a prose number a cell it rounds would share ("0.80" also "0.8")."""
    spellings: list[str] = []
    for places in range(decimals, -1, -1):
        written = spelled(value, places)
        if places < decimals and abs(float(written) - value) > 1e-9:
            break
        spellings.append(written)
    return spellings


def digit_variants(written: str) -> Iterator[str]:
    """Spellings one mistyped digit (or one swap of neighbours) away."""
    digits = [i for i, char in enumerate(written) if char.isdigit()]
    for i in digits:
        for replacement in "0123456789":
            if replacement != written[i] and not (i == 0 and replacement == "0" and len(digits) > 1 and written[1:2] != "."):
                yield written[:i] + replacement + written[i + 1 :]
    for a, b in itertools.pairwise(digits):
        if b == a + 1 and written[a] != written[b]:
            yield written[:a] + written[b] + written[a] + written[b + 1 :]
