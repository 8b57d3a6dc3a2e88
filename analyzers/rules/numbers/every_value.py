"""NUM020: a bound a sentence states of every value of a column of a cited table ("none of the fossils exhibited
any evidence (i.e. log BF < 0.0)", "similarity scores were higher than 98% in all cases") that a cell of the column
breaks.

## How it decides
The sentence quantifies over the table's rows: "none of", "in no arm" (no value meets the bound), or "all",
"every", "each", "in all" (every value meets it); a sentence about part of the table ("other", "except", "most",
"among", "almost", "nearly", "some", "but") states no bound of every value. The bound is a comparison and a number:
"<", ">", "≤", "≥", "below", "above", "under", "over", "less than", "more than", "greater than", "higher than",
"lower than", "exceeds", the number perhaps a percentage, in digits or in words ("three percent").

The words just before the comparison (up to four, less verbs and articles) name the quantity. It is the one
column of the tables the sentence (else its paragraph) cites whose header's words those words all name, each
word perhaps in another form (rate, rates); "log" before them names the column's logarithm ("log BF" of a column
BF). A percentage is compared with a column of fractions as percentages (0.35 is 35%). Two such columns, or none,
and the bound is read as nothing; so is a bound whose sentence names a row of the table (then it is that row's).

Where the words name no column, the bound's clause (from those words to the next comma) may name one measure of a
complementary pair (analyzers/complements.py: "refuse", "error rate"): the line is then the one row or column of
the cited tables named its complement ("Loan take-up"), whose cells are shares, in tables that never name the
measure itself; a row's members are its groups, less a test's column (p-value, difference, N). Each cell is read
as what it leaves of the whole (1 − 0.955 is 4.5%).

The line's members are its cells less an aggregate row (Mean, Total). It is a finding when a member is beyond
the bound: a cell that meets it under "none of", or one on its other side under "all". A cell is compared as the
bound writes it, rounded to its places (3.3% is "three percent"), so a cell equal to the bound meets "≤" and "≥"
and, as its rounding allows, "above" and "below" too. The logarithm of a cell meets a bound only when it does in
every base (2, e and 10): log BF < 0 is BF < 1 in each.

Confidence 0.6 (information). Evidence: "weak: a column's cell breaks the bound stated of every value" and "weak:
the complement of a line's cell breaks the bound stated of every value".
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache, partial

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.model import Cell, Table
from ....latex.numbers import SPELLED_PERCENT, spelled_value
from ....latex.sentences import sentence_spans
from ...complements import Measure, complement_of, measure_named
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...quantities import ShownTable, each_cited, name_words
from ...registry import Scope, rule
from ..printed_tables import paragraph_keys, sentence_tables
from .extents import (
    NUMBER,
    End,
    Line,
    LineContradicted,
    against_tables,
    end_of,
    shown_as,
    stated_finding,
    table_lines,
    tables_and_statements,
)
from .model import stem

# "none of the fossils", "in no arm": no member of the table meets the bound ("in no way" quantifies over nothing).
_NONE = DeferredPattern(r"\bnone\s+of\b|\bin\s+no\s+(?!(?:way|sense|time|doubt)\b)[a-z]+\b", re.IGNORECASE)
_ALL = DeferredPattern(r"\b(?:all|every|each)\b", re.IGNORECASE)
_PART = DeferredPattern(r"\b(?:other|others|except|excluding|most|among|almost|nearly|some|but)\b", re.IGNORECASE)
# The comparison and its number; the group after the operator's says which way the bound faces.
_BOUND = DeferredPattern(
    r"(?:(<|≤|\\leq?\b|\\lt\b|\bbelow\b|\bunder\b|\b(?:less|lower|smaller)\s+than\b)"
    r"|(>|≥|\\geq?\b|\\gt\b|\babove\b|\bover\b|\bexceed(?:s|ed|ing)?\b|\b(?:more|greater|higher|larger)\s+than\b))"
    r"\s*(?:or\s+equal\s+to\s+)?\$?\s*(?:" + NUMBER + r"|" + SPELLED_PERCENT + r")(?!\w|[.,]\d)",
    re.IGNORECASE,
)
_WORD = DeferredPattern(r"[A-Za-z][\w-]*")
# The bound's clause runs from the words naming its quantity to here: "more than 3% of individuals ... refuse loans".
_CLAUSE_END = DeferredPattern(r"[,;:()]")
_TEST_HEADER = DeferredPattern(
    r"^\W*(?:\\\w+\{)?\s*(?:p|p-values?|pr|t|z|f|chi2?|χ2?|diff\.?|differences?|n|obs\.?|observations)\b", re.IGNORECASE
)
# Words between the quantity and its comparison: "similarity scores were higher than", "log BF <".
_LINKING = frozenset(
    {"is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "of", "a", "an", "the", "i", "e", "ie", "all", "any"}
)
_BASES = (2.0, math.e, 10.0)


@dataclass(frozen=True, slots=True, eq=False)
class _Bound:
    threshold: End
    below: bool  # the bound faces down: "< 0", "below 5%"
    inclusive: bool  # "≤", "≥"
    none: bool  # "none of": no value meets the bound; else every value does
    words: frozenset[str]  # the stems of the words naming the quantity, just before the comparison
    logarithm: bool  # "log BF": the bound is of the column's logarithm
    named: frozenset[str]  # the sentence's words, which may name a row
    measure: Measure | None  # the one measure of a complementary pair the bound's clause names ("refuse", "error rate")
    quote: str
    labels: tuple[str, ...]
    anchor: Finding


def _quantity(before: str) -> tuple[int, frozenset[str], bool]:
    """The stems of up to four words before a comparison that name its quantity, where the first of them starts, and
    whether "log" is one of them."""
    kept = [match for match in list(_WORD.finditer(before))[-4:] if match.group().lower() not in _LINKING]
    words = [match.group().lower() for match in kept]
    start = kept[0].start() if kept else len(before)
    return start, frozenset(stem(word) for word in words if word != "log"), "log" in words


def _meets(value: float, stated: _Bound) -> bool:
    """The value meets the bound (a value equal to it meets an inclusive bound, and any bound its rounding allows)."""
    threshold = stated.threshold.value
    if stated.logarithm:
        if value <= 0:
            return stated.below
        return all(_meets_plain(math.log(value, base), threshold, stated) for base in _BASES)
    # A value is compared as the bound writes it: "in no arm more than three percent" holds 3.3%, which rounds to 3%.
    return _meets_plain(round(value, stated.threshold.decimals), threshold, stated)


def _meets_plain(value: float, threshold: float, stated: _Bound) -> bool:
    if value == threshold:  # as its rounding allows, "every value above 90%" holds 90
        return stated.inclusive or not stated.none
    return value < threshold if stated.below else value > threshold


def _columns(stated: _Bound, tables: Mapping[str, tuple[Table, ...]]) -> list[tuple[Table, Line]]:
    """The columns of the cited tables whose header's words the quantity's words all name, in tables whose rows the
    sentence does not name."""
    found = []
    for _, table in each_cited(dict.fromkeys(stated.labels), tables):
        lines = list(table_lines(table))
        if any(not line.column and (header := name_words(line.header)) and header <= stated.named for line in lines):
            continue  # the sentence names a row: the bound is that row's
        for line in lines:
            header = {stem(word) for word in name_words(line.header)}
            if line.column and header and header <= stated.words:
                found.append((table, line))
    return found


def _complement_lines(stated: _Bound, tables: Mapping[str, tuple[Table, ...]]) -> list[Line]:
    """The rows and columns of the cited tables named the complement of the measure the bound's clause names ("Loan
    take-up" for "refuse"), whose cells are shares of the bound's whole; none where a cited table names the measure
    itself (its line is the measure's own)."""
    if stated.measure is None:
        return []
    complement, found = complement_of(stated.measure), []
    for _, table in each_cited(dict.fromkeys(stated.labels), tables):
        lines = list(table_lines(table))
        if any(measure_named(line.header) is stated.measure for line in lines):
            return []
        named = [_members(table, line) for line in lines if measure_named(line.header) is complement]
        found += [line for line in named if line.cells and _shares(line, stated.threshold)]
    return found


def _members(table: Table, line: Line) -> Line:
    """The line less a row's cells under a test's column (a balance table's p-value, a difference of arms): the
    members of a row are its groups."""
    if line.column:
        return line
    return line._replace(cells=[cell for cell in line.cells if not _TEST_HEADER.match(" ".join(table.column_header(cell.column).split()))])


def _shares(line: Line, threshold: End) -> bool:
    whole = _whole(threshold)
    return all(0 <= shown_as(cell, threshold)[0] <= whole for cell in line.cells if cell.value is not None)


def _whole(threshold: End) -> float:
    """What a share and its complement add up to, as the bound writes them: 100%, or 1."""
    return 100.0 if threshold.percent else 1.0


def _broken(stated: _Bound, tables: Mapping[str, tuple[Table, ...]]) -> Iterator[Finding]:
    columns = [line for _, line in _columns(stated, tables)]
    complementary = not columns
    lines = _complement_lines(stated, tables) if complementary else columns
    if len(lines) != 1:
        return  # no line, or several, is the one the words name
    line = lines[0]
    cells: list[Cell] = [cell for cell in line.cells if cell.value is not None]
    values = {id(cell): _stated_value(cell, stated, complementary) for cell in cells}
    breaking = [cell for cell in cells if _meets(values[id(cell)], stated) == stated.none]
    if not cells or not breaking:
        return
    shown = ", ".join(cell.text.strip() for cell in breaking[:3]) + (", …" if len(breaking) > 3 else "")
    told = f"{'it holds' if stated.none else 'it also holds'} {shown}"
    scope = "no value meets it" if stated.none else "every value meets it"
    if complementary:
        assert stated.measure is not None
        places, unit = stated.threshold.decimals + 1, "%" if stated.threshold.percent else ""
        left = ", ".join(f"{values[id(cell)]:.{places}f}{unit}" for cell in breaking[:3]) + (", …" if len(breaking) > 3 else "")
        told = f"{told} of {complement_of(stated.measure).name}, which leaves {left} of {stated.measure.name}"
        reason = f"the sentence bounds the {stated.measure.name} and says {scope}; {line.name} gives its complement"
        kind = "weak: the complement of a line's cell breaks the bound stated of every value"
    else:
        reason = f"the sentence says {scope}; the words before it name {line.name}" + (", as a logarithm" if stated.logarithm else "")
        kind = "weak: a column's cell breaks the bound stated of every value"
    violation = LineContradicted(stated.quote, line.name, told)
    yield stated_finding(stated.anchor, violation, stated.quote, kind, "bound", reason)


def _stated_value(cell: Cell, stated: _Bound, complementary: bool) -> float:
    """The cell as the bound writes it: a fraction as a percentage when the bound is one, and, read against the
    complement's line, what it leaves of the whole."""
    value = shown_as(cell, stated.threshold)[0]
    return _whole(stated.threshold) - value if complementary else value


@rule(
    "NUM020",
    "bound-of-every-value-broken",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),  # a table named by its printed number: the numbering reads the counters macros set
    scope=Scope.SECTION,
    combine=against_tables(_Bound, _broken),
)
def bound_of_every_value_broken(ctx: RuleContext, section: Section) -> Iterator[ShownTable | _Bound]:
    """## What it does
    Flags a bound a sentence states of every value of a column of a table it cites when a cell of
    the column breaks it: "none of the fossils exhibited any evidence (i.e. log BF < 0.0)" where
    the column BF holds 0.63 (its logarithm is below zero), or "similarity scores were higher than
    98% in all cases" where the column Similarity holds 0.97, or "in no arm did more than three
    percent refuse" where the row Loan take-up holds 0.955 (4.5% refuse). Which line a bound
    describes is told below.

    ## Why is this bad?
    "None" and "all" summarise a whole column for the reader, who will not check every cell; one
    cell on the wrong side was added after the sentence was written, or the sentence was written
    of another run.

    ## Example
    ```latex
    Similarity scores were higher than 98\\% in all cases (Table~\\ref{t}).
    % t: Video & Similarity \\\\ A & 0.99 \\\\ B & 0.97
    ```

    ## Use instead
    ```latex
    Similarity scores were higher than 96\\% in all cases (Table~\\ref{t}).
    ```

    ## Fix safety
    No fix: the table may be the side that is wrong.
    """
    return tables_and_statements(ctx, section, _stated_in)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _stated_in(text: str, describes: tuple[str, ...]) -> tuple[tuple[int, int, Callable[[Finding], _Bound]], ...]:
    """The bounds a paragraph states of every value of a quantity, kept by text so an edit re-reads its paragraph alone."""
    paragraph_refs = paragraph_keys(text, describes)
    found: list[tuple[int, int, Callable[[Finding], _Bound]]] = []
    for start, end in sentence_spans(text) if paragraph_refs else ():
        sentence = text[start:end]
        none = _NONE.search(sentence) is not None
        if not (none or _ALL.search(sentence)) or _PART.search(sentence):
            continue
        labels = sentence_tables(sentence, paragraph_refs)
        for match in _BOUND.finditer(sentence):
            at, words, logarithm = _quantity(sentence[: match.start()])
            if not words:
                continue
            below, inclusive = (
                match.group(1) is not None,
                (match.group(1) or match.group(2) or "") in ("≤", "≥") or "equal" in match.group(0),
            )
            threshold = end_of(match.group(3), bool(match.group(4))) if match.group(3) else End(spelled_value(match.group(5)), 0, True)
            quote = " ".join(sentence[at : match.end()].split())
            clause = _CLAUSE_END.search(sentence, match.end())
            measure = measure_named(sentence[at : clause.start() if clause else len(sentence)])
            named = frozenset(name_words(sentence))
            bound = partial(_Bound, threshold, below, inclusive, none, words, logarithm, named, measure, quote, labels)
            found.append((start + at, start + match.end(), bound))
    return tuple(found)
