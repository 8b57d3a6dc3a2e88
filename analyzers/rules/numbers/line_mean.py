"""NUM019: a mean a sentence states of a line of a cited table or plotted figure (a column, a row, a series of
bars) that the line's cells do not give, where another mean of the same sentence is its own line's.

## How it decides
A sentence speaks of means ("mean", "average", "on average") and states two or more numbers, each a decimal
or a percentage. The table is one the sentence cites with `\\ref`, else one its paragraph cites, else, for a
paragraph that cites nothing, one the paragraph just before it cites ("We recorded the time (see
Figure~\\ref{fig:time}). The mean time was ..."). A plotted figure (pgfplots `coordinates`) is such a table:
its series are columns, its points rows.

A line's mean is the mean of its members (its cells less an aggregate row or column: Mean, Total, Avg.), a
fraction cell read as a percentage when the number is one; a percentage is the mean only of a line of
percentages or of fractions ("a 44% improvement" is no mean of times 0.258 to 2.75), a plain number only of
a line without percentages. One number of the sentence, which no cell holds, must be the mean of a line of
the table within its rounding: that ties the sentence to the table's line means. Another number is then
read as the mean of the one line of the same kind (a column when the tie is a column) whose header words
the words after it name, up to the next number ("versus 1.13 minutes for the existing method" names the
column Existing), else the words before it, back to the number before; two such lines, or none, and it is
read as nothing.

It is a finding when that line's mean, rounded to the number's places, is not the number (a mean cut
short, 1.13 for 1.1396, is rounded wrongly: the tie may be either), and the number lies between the line's
lowest and highest cell (a mean must; a number outside is some other quantity). A number that a cell
outside the named line holds (its Avg. cell, another line's), or one of its own cells written in full,
quotes that cell: NUM001's to read; one of the line's own cells may round to it by chance (1.125 beside a
mean stated 1.13).

Confidence 0.6 (information). Evidence: "moderate: another mean of the sentence is its own line's".
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache, partial

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.model import BlockKind, Table
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...quantities import ShownTable, agrees, body_cells, each_cited, name_words, referenced_labels, shown_table, slack, spelled
from ...registry import Scope, rule
from .extents import NUMBER, End, Line, LineContradicted, against_tables, end_of, holds, shown_as, stated_finding, table_lines

_MEAN = DeferredPattern(r"\b(?:mean|average|averaged|on\s+average)\b", re.IGNORECASE)
# A number standing alone: not part of a word, a version, a list of digits or a range's end ("3-5").
_STANDALONE = DeferredPattern(r"(?<![\w.,-])" + NUMBER + r"(?![\w.,]|-\d)")


@dataclass(frozen=True, slots=True)
class _Number:
    value: End
    after: frozenset[str]  # the words after it, up to the next number: "1.13 for the existing method"
    before: frozenset[str]  # the words before it, back to the number before: "the existing method took 1.13"


@dataclass(frozen=True, slots=True, eq=False)
class _Mean:
    stated: _Number
    others: tuple[_Number, ...]  # the sentence's other numbers, one of which must be its own line's mean
    quote: str
    labels: tuple[str, ...]
    anchor: Finding


def _line_mean(line: Line, stated: End) -> float:
    """The mean of the line's cells as the stated number writes them (a fraction cell as a percentage when it is one)."""
    values = [shown_as(cell, stated)[0] for cell in line.cells]
    return sum(values) / len(values)


def _same_unit(number: End, line: Line) -> bool:
    """A percentage is a mean of percentages or of fractions (0.35 read as 35%); a plain number of plain cells."""
    if number.percent:
        return all(cell.percent for cell in line.cells) or all(abs(cell.value or 0.0) <= 1 for cell in line.cells)
    return not any(cell.percent for cell in line.cells)


def _is_mean_of(number: End, line: Line) -> bool:
    return _same_unit(number, line) and agrees(number.value, number.decimals, _line_mean(line, number))


def _named_line(number: _Number, lines: list[Line]) -> Line | None:
    """The one line whose header's words the words after the number name, else those before it."""
    for words in (number.after, number.before):
        named = [line for line in lines if (header := name_words(line.header)) and header <= words]
        if named:
            return named[0] if len(named) == 1 else None
    return None


def _misstated(stated: _Mean, table: Table) -> tuple[Line, float] | None:
    """The line the stated mean names and its mean, when another number of the sentence is its own line's mean, of
    the same kind, and the named line's cells give another mean that spans the number."""
    cells = [cell for cell in body_cells(table) if cell.value is not None]
    number = stated.stated.value
    lines = [line for line in table_lines(table) if len(line.cells) >= 2]
    named = _named_line(stated.stated, lines)
    if (
        named is None
        or not _same_unit(number, named)
        or any(holds(cell, number) and (cell not in named.cells or shown_as(cell, number)[1] <= number.decimals) for cell in cells)
    ):
        return None  # a cell elsewhere (an Avg. column, another line) holds the number, or one of the line's in full: a quote
    if abs(number.value - _line_mean(named, number)) <= slack(number.decimals):
        return None  # rounded as a reader rounds it (a truncated mean, 1.13 for 1.1396, is a slip the ledger counts)
    values = [shown_as(cell, number)[0] for cell in named.cells]
    if not min(values) <= number.value <= max(values):
        return None
    tied = any(
        _is_mean_of(other.value, line)
        for other in stated.others
        if not any(holds(cell, other.value) for cell in cells)
        for line in lines
        if line is not named and line.column == named.column
    )
    return (named, _line_mean(named, number)) if tied else None


def _judged(stated: _Mean, tables: Mapping[str, tuple[Table, ...]]) -> Iterator[Finding]:
    for _, table in each_cited(stated.labels, tables):
        found = _misstated(stated, table)
        if found is None:
            continue
        line, mean = found
        decimals = stated.stated.value.decimals
        unit = "%" if stated.stated.value.percent else ""
        told = f"the mean of its {len(line.cells)} cells is {mean:.6g}{unit}, {spelled(mean, decimals)}{unit} as written"
        reason = f"another mean of the sentence is its own line's; this one names {line.name}"
        kind = "moderate: another mean of the sentence is its own line's"
        yield stated_finding(stated.anchor, LineContradicted(stated.quote, line.name, told), stated.quote, kind, "mean", reason)
        return


@rule(
    "NUM019",
    "mean-not-of-line",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),  # a table named by its printed number: the numbering reads the counters macros set
    scope=Scope.SECTION,
    combine=against_tables(_Mean, _judged),
)
def mean_not_of_line(ctx: RuleContext, section: Section) -> Iterator[ShownTable | _Mean]:
    """## What it does
    Flags a mean a sentence states of a line of a table or plotted figure it cites (a column, a
    row, a series of bars) that the line's cells do not give, when another mean of the same
    sentence is its own line's: "The mean time was 0.79 minutes with the new editor, versus 1.13
    minutes for the existing method" where the plotted New bars average 0.79 and the Existing
    bars 1.14. Which line a number names is told below.

    ## Why is this bad?
    The reader takes the sentence's means for the data shown; one the data does not give was
    computed from another version of the data or mistyped, and so is any comparison built on it.

    ## Example
    ```latex
    The mean time was 0.79 with the new editor, versus 1.13 for the existing one (Table~\\ref{t}).
    % t: & New & Existing \\\\ P1 & 0.619 & 1.125 \\\\ P2 & 0.941 & 1.0 \\\\ P3 & 1.48 & 2.75
    %    \\\\ P4 & 0.395 & 0.258 \\\\ P5 & 0.529 & 0.565
    ```

    ## Use instead
    ```latex
    The mean time was 0.79 with the new editor, versus 1.14 for the existing one (Table~\\ref{t}).
    ```

    ## Fix safety
    No fix: the data may be the side that is wrong.
    """
    cited_before: tuple[str, ...] = ()
    for placed in section.blocks:
        here = shown_table(placed)
        if here is not None:
            yield here
        if placed.kind is not BlockKind.PARAGRAPH:
            continue
        text = placed.block.plain.text
        for start, end, stated in _stated_in(text, cited_before):
            yield stated(ctx.report_block(placed, start, end, "", confidence=0.6))
        cited_before = tuple(sorted(referenced_labels(text)))  # the paragraph just before only: what it cites is its own


def _numbers(sentence: str) -> list[tuple[int, int, _Number]]:
    """The sentence's decimals and percentages, each with the words after it and before it, up to its neighbours."""
    found = [(match.start(), match.end(), end_of(match.group(1), bool(match.group(2)))) for match in _STANDALONE.finditer(sentence)]
    found = [(at, until, value) for at, until, value in found if value.decimals > 0 or value.percent]
    if not found:
        return []
    bounds = [0, *(until for _, until, _ in found[:-1])]
    starts = [*(at for at, _, _ in found[1:]), len(sentence)]
    return [
        (at, until, _Number(value, frozenset(name_words(sentence[until:after])), frozenset(name_words(sentence[before:at]))))
        for (at, until, value), before, after in zip(found, bounds, starts, strict=True)
    ]


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _stated_in(text: str, cited_before: tuple[str, ...]) -> tuple[tuple[int, int, partial[_Mean]], ...]:
    """The numbers a paragraph's sentences of means state, each with the sentence's others, kept by text (and the
    labels the paragraph before cites, which its sentences fall back on) so an edit re-reads its paragraph alone."""
    paragraph_refs = tuple(sorted(referenced_labels(text))) or cited_before
    if not paragraph_refs or not _MEAN.search(text):
        return ()
    found: list[tuple[int, int, partial[_Mean]]] = []
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        if not _MEAN.search(sentence):
            continue
        numbers = _numbers(sentence)
        if len(numbers) < 2:
            continue
        labels = tuple(sorted(referenced_labels(sentence))) or paragraph_refs
        for at, until, number in numbers:
            others = tuple(other for _, _, other in numbers if other is not number)
            found.append((start + at, start + until, partial(_Mean, number, others, sentence[at:until], labels)))
    return tuple(found)
