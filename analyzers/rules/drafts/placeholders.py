from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache, lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...memo import SECTION_CACHE_SIZE, SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .model import (
    Placeholder,
    PlaceholderKind,
    float_type,
    in_math_naming_a_variable,
    mentioned,
    not_text,
    placeholders,
    publisher_slot,
    read_blocks,
    unprinted,
)

# A marker the paper writes this often is what it is about (a study of TODO comments), not a leftover.
_SUBJECT = 4
# A roman "X" numbers the tenth table or section of a paper that has ten.
_ROMAN_TEN = 10
# A caption telling that a value is missing: a question mark in the table then stands for it.
_UNKNOWN_TOLD = DeferredPattern(
    r"(?i)\b(?:could\s+not\s+be\s+(?:found|determined|obtained|measured|recovered)|(?:is|are|was|were)\s+unknown"
    r"|not\s+(?:available|reported|known)|unavailable)\b|\?\s*(?:=|:|denotes|indicates|marks|means)"
)


@violation_type
class DraftPlaceholder(Violation):
    written: str
    kind: PlaceholderKind
    times: int  # in this block: a table of "x.xx" cells is one finding
    before: str  # the words before it, which tell two of them in one file apart

    @property
    def message(self) -> str:
        again = f", {self.times} times in this passage" if self.times > 1 else ""
        return f'the draft placeholder "{self.written}" ({self.kind.value}) is printed in the text{again}'

    @property
    def identity(self) -> str:
        return f'{self.kind.value}: {self.written} after "{self.before}"'


@rule("DRF001", "draft-placeholder", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks", "macros", "acronyms"))
def draft_placeholder(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags draft placeholders left in the text a reader sees: a number still to be filled in
    (`X.XX`, `x.xx`, `XX.X`, `0.XX`, `XX%`), a reference or citation still to be made ("Table X",
    "Figure Xa", "Section ??", "(CITE)", "[ref]", "[citation needed]"), a draft marker (TODO,
    FIXME, TBD, TBA), `??` typed in the text, XXX, and a table cell holding only a question mark
    (unless the caption says a value is unknown: "could not be found", "not available").

    Only what TeX prints counts: not comments, code and verbatim, the never-taken branch of a
    conditional (`\\iffalse`, a `\\newif` switch never set true), environments the comment
    package excludes, or the argument of a command that prints nothing (`\\todo` of todonotes
    loaded with `disable`, `\\newcommand{\\note}[1]{}`). In math only a number placeholder after
    an equals sign counts (`$p = X.XX$`); `$X$` is a variable. A marker the paper quotes or sets as
    code ("`TODO` comments"), writes four times or more, or defines as an acronym is a word it
    uses, "Table X" is the tenth table of a paper with ten (roman numerals), and a table's
    "[ref]" marks a regression's reference category.

    ## Why is this bad?
    The reader sees "log2FC = X.XX (Table X)": a result that was never filled in, or a reference
    that points nowhere. It tells the reviewer the paper was not proofread, and may hide a
    number that is missing.

    ## Example
    ```latex
    The fold change was $\\log_2 FC = X.XX$ (Table X).
    ```

    ## Use instead
    ```latex
    The fold change was $\\log_2 FC = 1.84$ (Table~\\ref{tab:expression}).
    ```

    ## Fix safety
    No fix: only the author knows the value or the reference.

    ## Evidence
    "strong" for draft markers, placeholder references and citations; "moderate" for
    placeholder numbers; "weak" for `??` and XXX, which also stand for an anonymised name.
    """
    for (index, _), places in _printed_placeholders(ctx).items():
        placed = ctx.manuscript.blocks[index]
        file = placed.file
        start, end, placeholder = places[0]
        preceding = (
            ctx.source(file).text[placed.block.start : start]
            if placeholder.kind is PlaceholderKind.CELL
            else placed.block.plain.text[: placeholder.start]
        )
        before = " ".join(preceding.split()[-4:])
        violation = DraftPlaceholder(placeholder.text, placeholder.kind, len(places), before)
        yield ctx.flag(violation, file, start, end, evidence=_evidence(ctx, file, start, end, placeholder))


def _printed_placeholders(ctx: RuleContext) -> dict[tuple[int, str], list[tuple[int, int, Placeholder]]]:
    """The placeholders TeX prints and the paper does not use as words, by block and text, each with its source span."""
    # The files' texts, which "blocks" covers, with what the project's include graph makes of them.
    hidden = unprinted(ctx.whole_project, ctx.index.macros)
    acronyms = {acronym.short for _, acronym in ctx.index.acronyms} | {acronym.short for _, acronym in ctx.index.inline_acronyms}
    read = [_section_placeholders(SectionKey(section)) for section in ctx.manuscript.sections]
    found = [item for written, _ in read for item in written] + [item for _, cells in read for item in cells]
    written = Counter(placeholder.text for _, placeholder in found if placeholder.kind is PlaceholderKind.MARKER)
    floats = cache(lambda: _counts(ctx))  # counted only for a "Table X" that may be a roman ten
    printed: dict[tuple[int, str], list[tuple[int, int, Placeholder]]] = {}
    for placed, placeholder in found:
        start, end = (
            (placeholder.start, placeholder.end)
            if placeholder.kind is PlaceholderKind.CELL
            else placed.block.plain.source_span(placeholder.start, placeholder.end)
        )
        source = ctx.source(placed.file).text
        block_latex = source[placed.block.start : placed.block.end]
        if not (
            hidden.covers(placed.file, start)
            or (
                placeholder.kind is not PlaceholderKind.CELL
                and in_math_naming_a_variable(placeholder, block_latex, start - placed.block.start)
            )
            or _a_word_it_uses(placeholder, source, start, end, written, acronyms)
            or publisher_slot(source, start)
            or _unprinted_class_text(placeholder, placed.block.plain.text, source, start)
            or not_text(source, start)
            or (placed.kind is BlockKind.TABLE and _reference_category(placeholder))
            or (placeholder.names and "X" in placeholder.text and floats().get(placeholder.names, 0) >= _ROMAN_TEN)
        ):
            printed.setdefault((placed.index, placeholder.text), []).append((start, end, placeholder))
    return printed


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _section_placeholders(
    key: SectionKey,
) -> tuple[tuple[tuple[PlacedBlock, Placeholder], ...], tuple[tuple[PlacedBlock, Placeholder], ...]]:
    """A section's placeholders in its blocks' plain text, then its tables' unfilled cells, before asking whether TeX
    prints them: walked once per Section the manuscript hands on."""
    blocks = read_blocks(key)
    written = tuple((placed, placeholder) for placed in blocks for placeholder in placeholders(placed.block.plain.text))
    return written, tuple((placed, placeholder) for placed in blocks if placed.block.table for placeholder in unfilled_cells(placed))


def _a_word_it_uses(placeholder: Placeholder, source: str, start: int, end: int, written: Counter[str], acronyms: set[str]) -> bool:
    if placeholder.kind not in (PlaceholderKind.MARKER, PlaceholderKind.TRIPLE_X):
        return False
    return mentioned(source, start, end) or written[placeholder.text] >= _SUBJECT or placeholder.text in acronyms


def _unprinted_class_text(placeholder: Placeholder, plain: str, source: str, start: int) -> bool:
    """A marker glued to a class's command in the plain text ("\\answerTODO", "\\journalTBA") that is the end
    of the command's own name, or its argument in the preamble, which only the class decides to print."""
    glued = placeholder.kind is PlaceholderKind.MARKER and plain[placeholder.start - 1 : placeholder.start].isalpha()
    return glued and (source[start - 1 : start] != "{" or 0 <= start < source.find("\\begin{document}"))


def _reference_category(placeholder: Placeholder) -> bool:
    """A regression table's "[ref]" marks the category the others are compared with."""
    return placeholder.kind is PlaceholderKind.CITATION and "ref" in placeholder.text.lower()


def _counts(ctx: RuleContext) -> Counter[str]:
    """How many tables, figures and sections the paper has: what a roman "X" would number."""
    counts: Counter[str] = Counter()
    for placed in ctx.manuscript.blocks:
        kind = float_type(placed.block.environment or "") if placed.kind is BlockKind.CAPTION else None
        if kind is not None:
            counts[kind] += 1
    counts["section"] = sum(1 for section in ctx.manuscript.sections if section.level <= 2)
    return counts


def _evidence(ctx: RuleContext, file: str, start: int, end: int, placeholder: Placeholder) -> Evidence:
    where = Statement(file=file, range=ctx.range(file, start, end), quote=placeholder.text, role=placeholder.kind.value)
    return Evidence(
        kind=placeholder.kind.evidence, statements=[where], reason=f'"{placeholder.text}" is printed where the final text belongs'
    )


def unfilled_cells(placed: PlacedBlock) -> list[Placeholder]:
    """A table's body cells that hold only a question mark: a value or mark never filled in (source offsets). A
    caption that says a value is unknown ("PLW1 for the cyclosporin dataset could not be found") tells what its
    question marks stand for."""
    table = placed.block.table
    if table is None or _UNKNOWN_TOLD.search(table.caption or ""):
        return []
    return [
        Placeholder(PlaceholderKind.CELL, cell.text.strip(), cell.start, cell.end)
        for row in table.rows[table.header_rows :]
        for cell in row
        if cell.text.strip() in ("?", "??")
    ]
