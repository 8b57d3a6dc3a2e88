"""NUM: numbers in the prose that disagree with the tables, each other, or their own arithmetic."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ...latex.memory import NumberInContext
from ...latex.numbers import find_numbers
from ..context import TEXT_CACHE_SIZE, RuleContext
from ..finding import Category, Finding, Severity
from ..quantities import CellAt, TableIndex, agrees, digit_variants, name_words, named_share, referenced_labels, slack, spelled, tie
from ..registry import rule

_DIGITS = re.compile(r"[-−]?[\d.,]+")


@rule("NUM001", "prose-contradicts-table", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks", "structure"))
def prose_contradicts_table(ctx: RuleContext) -> Iterator[Finding]:
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
    index = TableIndex(ctx.memory.tables)
    if not index.tables:
        return
    for number in ctx.memory.numbers:
        mention = number.mention
        if mention.is_year or not (mention.decimals >= 1 or (mention.percent and mention.value >= 10)):
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
    sentence, paragraph = mention.sentence, number.block.block.plain.text
    # A correct quote of some cell is too often a quote of the cell meant, unless the sentence
    # names the row and the column of another cell and of none that holds the number.
    quoted = index.agreeing(mention.value, mention.decimals)
    if any(tie(cell, sentence, paragraph) == 2 for cell in quoted):
        return None
    refs = referenced_labels(sentence)
    # A cell whose own value the sentence also states is being compared with, not copied.
    stated = [other for other in find_numbers(sentence) if other.plain_start != mention.plain_start - mention.sentence_start]
    candidates = [c for c in candidates if not any(agrees(other.value, other.decimals, c.cell.value) for other in stated)]  # type: ignore[arg-type]
    # A whole number ("50%") is one digit away from many cells: only a sentence citing the table counts.
    anchored = [c for c in candidates if tie(c, sentence, paragraph) and (mention.decimals or c.label in refs)]
    if not anchored:
        return None
    # The cells whose row and column headers the sentence names most fully outvote the others;
    # a quote of some other cell only when the sentence names the row and the column of these.
    words = name_words(sentence)
    named = {id(c): sum(named_share(words, header) == 1 for header in c.headers()) for c in anchored}
    most = max(named.values())
    chosen = [c for c in anchored if named[id(c)] == most]
    if len({c.cell.value for c in chosen}) != 1 or (quoted and most < 2):
        return None
    # Of equal cells, the one in the cited table, else in the sentence's own section.
    return min(chosen, key=lambda c: (c.label not in refs, c.placed.section != number.block.section))


@rule("NUM002", "same-quantity-two-values", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks", "structure"))
def same_quantity_two_values(ctx: RuleContext) -> Iterator[Finding]:
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
    index = TableIndex(ctx.memory.tables)
    # Statements seen so far, by how their value is written: a number is compared only
    # with the few statements one digit away, never with every earlier number.
    seen: dict[tuple[str, int, bool, str], list[tuple[NumberInContext, set[str], set[str]]]] = {}
    for number in ctx.memory.numbers:
        mention = number.mention
        if not _headline(number) or index.agreeing(mention.value, mention.decimals):
            continue
        window, names = _window(mention.sentence, mention.plain_start - mention.sentence_start, mention.plain_end - mention.sentence_start)
        if len(window) < 3:
            continue
        kind = (mention.unit, mention.decimals, mention.value < 0)
        written = spelled(mention.value, mention.decimals)
        candidates = (entry for variant in set(digit_variants(written)) for entry in seen.get((*kind, variant), ()))
        for other, other_window, other_names in candidates:
            if other.block is number.block:
                continue
            shared = window & other_window
            common = names & other_names
            # Same setting: the sentences' capitalised names (datasets, models) overlap, or one names none.
            same_setting = bool(common) or not (names and other_names)
            # Same quantity: most words around the numbers agree, or two do and one of them is a shared name ("at the 95% CL").
            same_quantity = (len(shared) >= 3 and len(shared) * 2 >= min(len(window), len(other_window))) or (
                len(shared) >= 2 and any(name.lower() in shared for name in common))
            if same_quantity and same_setting:
                yield ctx.report_block(
                    number.block, mention.plain_start, mention.plain_end,
                    f"{mention.text} here, but {other.mention.text} for the same quantity in {other.section_title or other.section_kind.value}",
                    identity=f"{mention.text} {other.mention.text} {' '.join(sorted(shared))}",
                    related=[ctx.related_block(other.block, other.mention.plain_start, other.mention.plain_end,
                                               f"the other statement: {other.mention.text}")],
                )
                break
        seen.setdefault((*kind, written), []).append((number, window, names))


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


@rule("NUM003", "arithmetic-claim-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",))
def arithmetic_claim_mismatch(ctx: RuleContext) -> Iterator[Finding]:
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
    for number_block, text, locate in _arithmetic_texts(ctx):
        for start, end, message in _wrong_changes(text):
            yield locate(start, end, message)


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


def _arithmetic_texts(ctx: RuleContext):
    """(block, text, report(start, end, message)) for prose paragraphs and table cells."""
    for number_block in ctx.manuscript.blocks:
        if number_block.kind.value in ("paragraph", "caption", "footnote"):
            def locate(start, end, message, placed=number_block):
                return ctx.report_block(placed, start, end, message, identity=message)
            yield number_block, number_block.block.plain.text, locate
    for placed in ctx.memory.tables:
        for row in placed.block.table.rows:  # type: ignore[union-attr]
            for cell in row:
                if "→" in cell.text or "->" in cell.text:
                    def locate(start, end, message, placed=placed, cell=cell):
                        return ctx.report(placed.file, cell.start, cell.end, message, identity=message)
                    yield placed, cell.text, locate


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
