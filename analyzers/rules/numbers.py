"""NUM: numbers in the prose that disagree with the tables, each other, or their own arithmetic."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from ...latex.manuscript import PlacedBlock, Section
from ...latex.memory import NumberInContext
from ...latex.model import BlockKind, Cell, Table
from ...latex.numbers import NumberMention, find_numbers
from ..context import TEXT_CACHE_SIZE, RuleContext
from ..finding import Category, Finding, Fix, Range, Related, Severity, TextEdit
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
from ..registry import Scope, rule

_DIGITS = re.compile(r"[-−]?[\d.,]+")
# The blocks whose numbers the memory lists (its `numbers`): prose, footnotes, captions, theorems.
_PROSE_KINDS = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM)


def _numbers(section: Section) -> Iterator[NumberInContext]:
    """The section's numbers, as the memory lists them."""
    for placed in section.blocks:
        if placed.kind in _PROSE_KINDS:
            for mention in _mentions(placed.block.plain.text):
                yield NumberInContext(mention, placed, section.kind, section.title)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _mentions(text: str) -> list[NumberMention]:
    """Cached by text: a keystroke re-reads one block of the edited section."""
    return find_numbers(text)


def _tables(section: Section) -> Iterator[tuple[PlacedBlock, Table]]:
    """The section's tables, as the memory lists them (its `tables`)."""
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
    text: str
    label: str  # of its table
    row_words: frozenset[str]  # name_words of its row header
    column_words: frozenset[str]
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
    text: str
    pointing: Pointing
    stated: tuple[tuple[float, int], ...]  # the other numbers of the sentence: value, decimals
    agreeing: tuple[str, ...]  # agreeing_spellings
    variants: tuple[str, ...]  # digit_variants of the number as written
    finding: Finding
    digits: Range  # where the fix writes the table's value


@dataclass(frozen=True, slots=True, eq=False)  # hashed by identity: the engine reuses an unchanged section's part
class _Figures:
    """What a section gives NUM001: its tables' numeric cells and its prose numbers."""

    cells: tuple[_TableCell, ...]
    quotes: tuple[_Quote, ...]


def _contradictions(ctx: RuleContext, parts: list[tuple[Section, list[_Figures]]]) -> Iterator[Finding]:
    figures_of = [figures for _, (figures,) in parts]
    index = _cell_index(tuple((place, figures) for place, figures in enumerate(figures_of) if figures.cells))
    if not index:
        return
    for place, figures in enumerate(figures_of):
        for quote in figures.quotes:
            cell = _anchored_cell(quote, place, index)
            if cell is None:
                continue
            told = spelled(cell.value if not _as_percent(quote.value, cell) else cell.value * 100, quote.decimals)
            edit = TextEdit(file=quote.finding.file, range=quote.digits, new_text=("-" if quote.value < 0 else "") + told)
            yield quote.finding.model_copy(update={
                "message": f"text says {quote.text}, {cell.describe} says {cell.text}",
                "identity": f"{quote.text} {cell.label} {cell.text}",
                "related": [cell.related],
                "fixes": [Fix(title=f"Write the table's value {told}", edits=[edit])],
            })


@lru_cache(maxsize=2)
def _cell_index(tables: tuple[tuple[int, _Figures], ...]) -> CellIndex[tuple[int, _TableCell]]:
    """Every table cell by its spellings, with the place of its section; rebuilt only when a section with a table changed."""
    index: CellIndex[tuple[int, _TableCell]] = CellIndex()
    for place, figures in tables:
        for cell in figures.cells:
            index.add((place, cell), cell.rounded, cell.exact)
    return index


@rule("NUM001", "prose-contradicts-table", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "structure"),
      scope=Scope.SECTION, combine=_contradictions)
def prose_contradicts_table(ctx: RuleContext, section: Section) -> list[_Figures]:
    """## What it does
    Flags a number in the prose that is one digit away from a table cell it talks about.
    The sentence must tie the number to the cell: it references the table (`\\ref{tab:…}`),
    or it names both the cell's row (method) and its column (dataset, metric). When several
    cells are one digit away, the one whose row and column headers the sentence names in
    full is meant. A number that some cell holds is taken as a correct quote, unless the
    sentence names the row and the column of the mistyped cell in full and of no cell holding
    the number. Rounding is allowed: 93.4 in the text matches 93.42 in the table, and 48.66%
    matches a fraction cell 0.4866.

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
    cells = tuple(_table_cell(ctx, placed, cell, value) for placed, cell, value in _cells(section))
    return [_Figures(cells, tuple(_quote(ctx, number) for number in _numbers(section) if _may_quote(number.mention)))]


def _may_quote(mention: NumberMention) -> bool:
    return not mention.is_year and (mention.decimals >= 1 or (mention.percent and mention.value >= 10))


def _table_cell(ctx: RuleContext, placed: PlacedBlock, cell: Cell, value: float) -> _TableCell:
    at = CellAt(placed, cell)
    row, column = at.headers()
    return _TableCell(value, cell.text, at.label, frozenset(name_words(row)), frozenset(name_words(column)), at.describe(),
                      ctx.related(placed.file, cell.start, cell.end, f"the table's value {cell.text}"),
                      frozenset(rounded_spellings(value, cell.decimals)), frozenset(exact_spellings(value, cell.decimals)))


def _quote(ctx: RuleContext, number: NumberInContext) -> _Quote:
    mention, placed = number.mention, number.block
    sentence = mention.sentence
    stated = tuple((other.value, other.decimals) for other in _mentions(sentence)
                   if other.plain_start != mention.plain_start - mention.sentence_start)
    digits = _DIGITS.match(mention.text)
    length = digits.end() if digits else len(mention.text)
    start, end = placed.block.plain.source_span(mention.plain_start, mention.plain_start + length)
    return _Quote(mention.value, mention.decimals, mention.text, Pointing.of(sentence, placed.block.plain.text), stated,
                  tuple(agreeing_spellings(mention.value, mention.decimals)),
                  tuple(dict.fromkeys(digit_variants(spelled(mention.value, mention.decimals)))),
                  ctx.report_block(placed, mention.plain_start, mention.plain_end, ""), ctx.range(placed.file, start, end))


def _as_percent(value: float, cell: _TableCell) -> bool:
    return abs(cell.value) <= 1 < abs(value)


def _tie(quote: _Quote, cell: _TableCell) -> int:
    return tie_words(quote.pointing, cell.label, cell.row_words, cell.column_words)


def _anchored_cell(quote: _Quote, place: int, index: CellIndex[tuple[int, _TableCell]]) -> _TableCell | None:
    """The one cell this number (in the section at `place`) is a mistyped copy of, if the sentence ties them together."""
    candidates = index.one_digit_away(quote.variants)
    if not candidates:
        return None
    # A correct quote of some cell is too often a quote of the cell meant, unless the sentence
    # names the row and the column of another cell and of none that holds the number.
    quoted = index.agreeing(quote.agreeing)
    if any(_tie(quote, cell) == 2 for _, cell in quoted):
        return None
    refs = quote.pointing.refs
    # A cell whose own value the sentence also states is being compared with, not copied.
    candidates = [(at, c) for at, c in candidates if not any(agrees(value, decimals, c.value) for value, decimals in quote.stated)]
    # A whole number ("50%") is one digit away from many cells: only a sentence citing the table counts.
    anchored = [(at, c) for at, c in candidates if _tie(quote, c) and (quote.decimals or c.label in refs)]
    if not anchored:
        return None
    # The cells whose row and column headers the sentence names most fully outvote the others;
    # a quote of some other cell only when the sentence names the row and the column of these.
    words = quote.pointing.words
    named = [sum(named_share(words, header) == 1 for header in (c.row_words, c.column_words)) for _, c in anchored]
    most = max(named)
    chosen = [item for item, count in zip(anchored, named) if count == most]
    if len({c.value for _, c in chosen}) != 1 or (quoted and most < 2):
        return None
    # Of equal cells, the one in the cited table, else in the sentence's own section.
    return min(chosen, key=lambda item: (item[1].label not in refs, item[0] != place))[1]


@dataclass(frozen=True, slots=True)
class _Statement:
    """A result-like prose number with the words around it, and the finding it becomes when an
    earlier statement of the same quantity says otherwise (message and related filled in then)."""

    kind: tuple[str, int, bool]  # unit, decimals, negative
    written: str
    variants: tuple[str, ...]  # spellings one digit away, in a fixed order: which earlier statement is named must not depend on hashing
    agreeing: tuple[str, ...]  # agreeing_spellings: a table cell with one of these holds the number
    block: int  # the block's place in its section
    window: frozenset[str]
    names: frozenset[str]
    text: str
    where: str  # its section's title or kind
    finding: Finding
    related: Related  # this statement, for the later one's finding


class _Statements(NamedTuple):
    """What a section gives NUM002: how its tables' cells may be quoted, and its result-like numbers."""

    table_spellings: frozenset[str]
    statements: tuple[_Statement, ...]


def _disagreements(ctx: RuleContext, parts: list[tuple[Section, list[_Statements]]]) -> Iterator[Finding]:
    table_spellings = _union(tuple(part.table_spellings for _, (part,) in parts if part.table_spellings))
    # Statements seen so far, by how their value is written: a number is compared only
    # with the few statements one digit away, never with every earlier number.
    seen: dict[tuple[str, int, bool, str], list[tuple[int, _Statement]]] = {}
    for place, (_, (part,)) in enumerate(parts):
        for statement in part.statements:
            if any(spelling in table_spellings for spelling in statement.agreeing):
                continue  # a table's number: NUM001's
            window, names = statement.window, statement.names
            candidates = (entry for variant in statement.variants for entry in seen.get((*statement.kind, variant), ()))
            for other_place, other in candidates:
                if other_place == place and other.block == statement.block:
                    continue
                shared = window & other.window
                common = names & other.names
                # Same setting: the sentences' capitalised names (datasets, models) overlap, or one names none.
                same_setting = bool(common) or not (names and other.names)
                # Same quantity: most words around the numbers agree, or two do and one of them is a shared name ("at the 95% CL").
                same_quantity = (len(shared) >= 3 and len(shared) * 2 >= min(len(window), len(other.window))) or (
                    len(shared) >= 2 and any(name.lower() in shared for name in common))
                if same_quantity and same_setting:
                    yield statement.finding.model_copy(update={
                        "message": f"{statement.text} here, but {other.text} for the same quantity in {other.where}",
                        "identity": f"{statement.text} {other.text} {' '.join(sorted(shared))}",
                        "related": [other.related],
                    })
                    break
            seen.setdefault((*statement.kind, statement.written), []).append((place, statement))


@lru_cache(maxsize=2)
def _union(spellings: tuple[frozenset[str], ...]) -> frozenset[str]:
    """Rebuilt only when a section with a table changed: unchanged parts are the same sets, compared by identity."""
    return frozenset().union(*spellings)


@rule("NUM002", "same-quantity-two-values", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks", "structure"),
      scope=Scope.SECTION, combine=_disagreements)
def same_quantity_two_values(ctx: RuleContext, section: Section) -> list[_Statements]:
    """## What it does
    Flags two statements of the same quantity, in different paragraphs, whose values differ
    by one digit: "improves by 12.3%" in the abstract, "improves by 12.8%" in the results.
    Two statements count as the same quantity when the words around the numbers agree (at
    least three shared content words, most of them; or two, one of them a name both sentences
    use: "79% from DualMind" and "DualMind achieves 89%") and they do not name different
    settings: their capitalised names (datasets, models, stages) overlap, or one sentence
    names none. Function words, citations, references and an acronym of the quantity itself
    ("credibility level (CL)") do not count. Different learning rates for different datasets
    are therefore left alone. Numbers that a table holds are NUM001's.

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
    """
    statements = []
    for number in _numbers(section):
        mention, placed = number.mention, number.block
        if not _headline(number):
            continue
        window, names = _window(mention.sentence, mention.plain_start - mention.sentence_start, mention.plain_end - mention.sentence_start)
        if len(window) < 3:
            continue
        written = spelled(mention.value, mention.decimals)
        statements.append(_Statement(
            (mention.unit, mention.decimals, mention.value < 0), written, tuple(dict.fromkeys(digit_variants(written))),
            tuple(agreeing_spellings(mention.value, mention.decimals)), placed.index - section.blocks[0].index,
            frozenset(window), frozenset(names), mention.text, section.title or section.kind.value,
            ctx.report_block(placed, mention.plain_start, mention.plain_end, ""),
            ctx.related_block(placed, mention.plain_start, mention.plain_end, f"the other statement: {mention.text}"),
        ))
    table_spellings = frozenset(spelling for _, cell, value in _cells(section) for spelling in rounded_spellings(value, cell.decimals))
    return [_Statements(table_spellings, tuple(statements))]


_DRAWING = re.compile(r"\\(?:draw|node|path|fill|coordinate|addplot)\b")  # TikZ the model keeps as prose
_NAMED_BEFORE = re.compile(r"(?:\b[A-Z][a-z]+|~)\s*$")  # "Lemma 4.5", "Exercise~1.5": an identifier


def _headline(number: NumberInContext) -> bool:
    """A result-like quantity in running prose: 12.3%, 0.85, 48.66; not a figure coordinate or a lemma number."""
    mention = number.mention
    if mention.is_year or number.block.kind.value != "paragraph" or _DRAWING.search(mention.sentence):
        return False
    if not (mention.percent or mention.decimals >= 2 or (mention.decimals >= 1 and abs(mention.value) >= 10)):
        return False
    before = mention.sentence[max(0, mention.plain_start - mention.sentence_start - 12):mention.plain_start - mention.sentence_start]
    return not _NAMED_BEFORE.search(before)


_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9\-]*|\d")


def _window(sentence: str, start: int, end: int, size: int = 5) -> tuple[set[str], set[str]]:
    """Content words within `size` words of a number, and the capitalised names of its sentence (the setting)."""
    before = [w for w in _TOKEN.findall(sentence[:start]) if not w.isdigit()][-size:]
    after = [w for w in _TOKEN.findall(sentence[end:]) if not w.isdigit()][:size]
    content = name_words(" ".join(before + after)) - _FUNCTION_WORDS
    words = _TOKEN.findall(_POINTER.sub(" ", sentence))
    initials = {"".join(w[0] for w in words[i:i + 2]).lower() for i in range(len(words) - 1)}
    # The first word is a name only when it is not an ordinary capitalised word ("DualMind achieves …", not "Results show …").
    # A name that abbreviates two words of the sentence ("credibility level (CL)") names the quantity, not a setting.
    names = {w for i, w in enumerate(words) if w[0].isupper() and w.lower() not in _NOT_NAMES
             and not (i == 0 and _ORDINARY.fullmatch(w)) and not (w.isupper() and w.lower() in initials)}
    return content, names


_NOT_NAMES = frozenset({"we", "our", "the", "this", "in", "on", "table", "figure", "section", "appendix"})
_ORDINARY = re.compile(r"[A-Z][a-z]*")
# Words that surround any number and say nothing about which quantity it is.
_FUNCTION_WORDS = frozenset({"a", "an", "at", "as", "by", "of", "on", "in", "to", "is", "are", "was", "were", "be", "that",
                             "this", "these", "it", "its", "which", "so", "we", "from", "or", "than", "about", "over"})
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

    ## Use instead
    ```latex
    accuracy rises from 68 to 72 (+4)
    ```
    """
    for placed in section.blocks:
        if placed.kind in (BlockKind.PARAGRAPH, BlockKind.CAPTION, BlockKind.FOOTNOTE):
            for start, end, message in _wrong_changes(placed.block.plain.text):
                yield ctx.report_block(placed, start, end, message, identity=message)
    for placed, table in _tables(section):
        for cell in (cell for row in table.rows for cell in row if "→" in cell.text or "->" in cell.text):
            for _, _, message in _wrong_changes(cell.text):
                yield ctx.report(placed.file, cell.start, cell.end, message, identity=message)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _wrong_changes(text: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, message) of the stated changes in `text` that do not add up; cached by text."""
    wrong = []
    for match in _CHANGE.finditer(text):
        groups = match.groups()
        first, second, sign, delta, unit = groups[:5] if groups[0] is not None else groups[5:]
        if _consistent(first, second, sign, delta, unit or ""):
            continue
        start, end = match.span(4) if groups[0] is not None else match.span(9)
        wrong.append((start, end, f"'{' '.join(match.group(0).split())}': the change from {first} to {second} is "
                                  f"{_number(second) - _number(first):+.{_places(first, second)}f}, not {sign or ''}{delta}{unit or ''}"))
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
