"""TAB013: a caption, note or sentence that calls every result of a table significant ("All results except X are significant at p < 10^-4") when a p-value of the table is not.

## How it decides
The claim is a sentence of a table's caption or note, or a sentence citing the table, that makes every result of
it significant: "All <results / correlations / coefficients / estimates / effects / differences / improvements /
comparisons> (except <X>) are (statistically) significant(ly …)" at a threshold it states ("at p < 0.05",
"p < 10^-4", "α = 0.05", "at the 5% level"). A sentence that hedges ("most", "almost", "nearly") or negates is
not one.

The table's p-values are the numbers in its columns headed "p" ("p-value", "p value", "Pr(>|t|)"). A claim with an
exception ("except for DCGAN on CelebA") leaves alone each p-value whose row name, column name and the name of
the column before it (the result it tests) together hold every word of the exception. A p-value that is over the
threshold beyond its rounding, written as a plain number (not "< 0.001"), contradicts the claim. A table without a
p-value column says nothing of it and is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind, Cell
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...context import RuleContext, Spot
from ...finding import Category, Evidence, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...quantities import name_words, slack, without_refs
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from ..statistics.model import stated_level
from ..statistics.table_p import P_HEADER
from .model import Grid, LabelledTable, against_cited, cited_tables, citing_sentences, fed_tables, labelled_tables


@violation_type
class SignificanceNoteContradicted(Violation):
    claim: str  # "All results except for DCGAN on CelebA are significant at p < 10^-4"
    table: str
    threshold: float
    cells: str  # "DRS, DCGAN CIFAR-10: p = 0.0131; …"

    @property
    def message(self) -> str:
        return f'the text says "{self.claim}" at p < {self.threshold:g}, but Table {self.table} gives p-values above it: {self.cells}'

    @property
    def identity(self) -> str:
        return f"{self.table} {self.claim}"


_ALL_SIGNIFICANT = DeferredPattern(
    r"\bAll\s+(?:the\s+|of\s+the\s+|our\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:results|correlations|coefficients|estimates|effects|differences|improvements|comparisons|gains|values|scores)\s+"
    r"(?:(?:except|but)(?:\s+for)?\s+(?P<except>[^,;]+?)\s+)?(?:are|were)\s+(?:all\s+)?(?:statistically\s+)?significant(?:ly)?\b",
    re.IGNORECASE,
)
# A threshold written as a p-value: "p < 0.05", "p<.01", "p < 10^-4" (as plain text renders 10^{-4}); a level
# ("α = 0.05", "at the 5% level") is the statistics family's `stated_level`.
_P_BELOW = DeferredPattern(r"\bp\s*(?:<|≤|\\leq?\b)\s*(?:10\s*\^\s*\{?\s*[-−]\s*(?P<power>\d+)\}?|(?P<p>0?\.\d+))", re.IGNORECASE)
# Macros the plain text leaves glued to what they wrap: "\\smash{$p < 0.05$}" reads "\\smashp < 0.05".
_WRAPPER = DeferredPattern(r"\\(?:smash|mathit|mathrm|mathnormal|textit|emph)")
_HEDGE = DeferredPattern(r"\b(?:most|almost|nearly|not|no|none|some|many)\b", re.IGNORECASE)
# Words that join an exception's names ("DCGAN on CelebA"): no header holds them.
_JOINING = frozenset({"on", "in", "for", "of", "at", "with", "the", "and", "under"})
_OWN_TEXT = (BlockKind.TABLE, BlockKind.CAPTION)  # a float's caption and notes speak of its own table


@record(slots=True, eq=False)
class _SignificanceClaim:
    labels: tuple[str, ...]
    claim: str  # the claim as written, up to its threshold
    exception: str  # the words after "except", or ""
    threshold: float
    own: bool  # the float's own caption or note, not a sentence citing it
    spot: Spot


def threshold_of(sentence: str) -> float | None:
    """The significance threshold a sentence states, as a p-value."""
    match = _P_BELOW.search(_WRAPPER.sub(" ", sentence))
    if match is None:
        return stated_level(sentence)
    return 10.0 ** -int(match.group("power")) if match.group("power") else float(match.group("p"))


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def significance_claims(sentence: str) -> tuple[tuple[int, int, str, float], ...]:
    """(start, end, exception, threshold) of each claim in `sentence` that every result is significant."""
    threshold = threshold_of(sentence)
    if threshold is None or "ignific" not in sentence:
        return ()
    return tuple(
        (match.start(), match.end(), match.group("except") or "", threshold)
        for match in _ALL_SIGNIFICANT.finditer(sentence)
        if not _HEDGE.search(without_refs(sentence[: match.end()]))  # "Almost all results …", "All results are not …"
    )


def _claims(ctx: RuleContext, placed: PlacedBlock) -> Iterator[_SignificanceClaim]:
    text = placed.block.plain.text
    own = placed.kind in _OWN_TEXT
    if own:
        table = placed.block.table
        labels = tuple(
            dict.fromkeys(label for label in (table.label if table else None, *placed.block.labels, *placed.block.describes) if label)
        )
        sentences = [(start, text[start:end], labels) for start, end in sentence_spans(text)]
    else:
        sentences = list(citing_sentences(placed))
    for start, sentence, cited in sentences:
        for begin, end, exception, threshold in significance_claims(sentence):
            claim = " ".join(sentence[begin:end].split())
            spot = ctx.spot(placed, start + begin, start + end)
            yield _SignificanceClaim(cited, claim, exception, threshold, own, spot)


def _contradicting(grid: Grid, claim: _SignificanceClaim) -> list[tuple[str, Cell]] | None:
    """The p-values of the table over the claim's threshold that its exception does not cover."""
    exception = name_words(claim.exception) - _JOINING
    # The header is every row above the first number: a "CIFAR-10 & p" row under "DCGAN" may parse as the body's.
    first = next((row for row in range(len(grid.table.rows)) if any(grid.numeric(row, column) for column in grid.columns())), 0)
    over = []
    for column in grid.columns():
        if not any(P_HEADER.match(text) for text in _headers(grid, first, column)):
            continue
        tested = " ".join([*_headers(grid, first, column), *_headers(grid, first, column - 1)])
        for row in range(first, len(grid.table.rows)):
            cell = grid.numeric(row, column)
            if cell is None or cell.text.lstrip().startswith(("<", "≤")):
                continue
            if exception and exception <= name_words(f"{grid.row_header(row)} {tested}"):
                continue
            if cell.value - claim.threshold > slack(cell.decimals):  # type: ignore[operator]
                where = " ".join(f"{grid.row_header(row)}, {' '.join(_headers(grid, first, column - 1))}".split())
                over.append((where, cell))
    return over or None


def _headers(grid: Grid, first: int, column: int) -> list[str]:
    """The texts over a column, spanning cells included, in the rows above the first number."""
    return [
        cell.text
        for row in grid.table.rows[:first]
        for cell in row
        if cell.column <= column < cell.column + cell.column_span and cell.text.strip()
    ]


def _report(ctx: RuleContext, claim: _SignificanceClaim, label: str, cited: LabelledTable, over: list[tuple[str, Cell]]) -> Finding:
    printed = ctx.index.printed
    cells = "; ".join(f"{printed(where)}: p = {cell.text}" for where, cell in over[:4])
    violation = SignificanceNoteContradicted(claim.claim, label, claim.threshold, cells)
    kind = (
        "strong: a caption's claim of every result against its p-values"
        if claim.own
        else "moderate: a sentence's claim of every result against the cited table's p-values"
    )
    evidence = Evidence(kind=kind, reason=f"{len(over)} p-value(s) over the stated threshold {claim.threshold:g}")
    related = [cited.related(ctx, cell, f"p-value {cell.text}") for _, cell in over[:2]]
    return ctx.report_at(claim.spot, violation.message, identity=violation.identity, related=related, evidence=evidence)


@rule(
    "TAB013",
    "significance-note-contradicts-table",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_tables, cited_tables, against_cited(_SignificanceClaim, _contradicting, _report)),
)
def significance_note_contradicts_table(ctx: RuleContext, section: Section) -> Iterator[LabelledTable | _SignificanceClaim]:
    """## What it does
    Reads a table's caption and notes, and each sentence citing the table, for a claim that every
    result is significant at a stated threshold ("All results except for DCGAN on CelebA are
    significant at p < 10^-4", "All correlations are significant at α = 0.05"), and checks it
    against the table's own p-value columns: a p-value over the threshold that the claim's
    exception does not cover contradicts it.

    ## Why is this bad?
    The note is what a reader takes from the table without reading its p-values; when a result
    the note calls significant has a p-value above the threshold, the note was written for other
    numbers (or the exception names the wrong result), and the evidence is weaker than it says.

    ## Example
    ```latex
    \\caption{All results except for DCGAN on CelebA are significant at $p < 10^{-4}$.}
    % DRS & 2.977 & 0.0131 & 2.511 & <0.0001 \\\\   (DCGAN CIFAR-10 p = 0.0131)
    ```

    ## Use instead
    ```latex
    \\caption{All results except for DRS on CIFAR-10 are significant at $p < 0.05$.}
    ```

    ## Fix safety
    No fix: the note, its threshold or its exception may be the one that is wrong.

    ## Evidence
    "strong: a caption's claim of every result against its p-values" for the float's own
    caption or note; "moderate: a sentence's claim of every result against the cited table's
    p-values" for a sentence citing the table.
    """
    yield from labelled_tables(ctx, section)
    for placed in section.blocks:
        if placed.kind in (*_OWN_TEXT, BlockKind.PARAGRAPH) and "ignific" in placed.block.plain.text:
            yield from _claims(ctx, placed)
