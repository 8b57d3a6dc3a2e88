"""A table's p-values, and the sentences that say none of a table's tests is significant.

A p-value column is named by its header ("p", "P-value", "Pr(>|z|)", "Sig."); its cells hold a
p ("0.049", ".012*") or a bound ("< 0.001"). A cell shows significance at a level when even the
largest p its rounding allows lies below the level ("0.049" is below .05: at most 0.0495).

The intercept's row is not read: a sentence about a model's predictors does not speak of it.

A table without a p column may mark its tests by stars its legend defines ("* p < .05"): a cell
with stars shows significance at a level when the stars' level is no higher ("**" of "** p < .01"
is significant at .05; "*" of "* p < .10" is not).

A sentence speaks of all of a table's tests only with a universal word: "none of these
associations were statistically significant", "all were non-significant", "not significant for
any", "no significant differences for any of the metrics", "all ps > .10". A sentence that makes an exception ("except", "apart from"), or whose
paragraph speaks of a corrected threshold (Bonferroni, FDR), is not read: its level is not the
table's raw p.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell, Table
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE
from .model import stated_level

P_HEADER = DeferredPattern(r"^\s*(?:\$?[pP]\$?(?:[-\s]?values?)?|Pr\s*\(>\s*\|[zt]\|\)|Sig\.?)\s*$")
_P_CELL = DeferredPattern(r"^\s*(?P<cmp>[<≤]\s*)?(?P<p>0?\.\d+|[01](?:\.0+)?)\s*[*†+]*\s*$")
_NONE_SIGNIFICANT = DeferredPattern(
    r"\bnone\s+of\b[^.;:]{0,150}?\b(?:statistically\s+)?significant(?:ly)?\b"
    r"|\ball\b[^.;:]{0,80}?\b(?:were|are|was|is|remained|proved)\s+(?:statistically\s+)?(?:non-?significant|insignificant|not\s+(?:statistically\s+)?significant)"
    r"|\b(?:were|are|remained)\s+all\s+(?:statistically\s+)?(?:non-?significant|insignificant|not\s+(?:statistically\s+)?significant)"
    r"|\b(?:non-?significant|not\s+(?:statistically\s+)?significant)\s+(?:for|in|across)\s+(?:all|any|every|each)\b"
    r"|\bno\s+(?:statistically\s+)?significant\b[^.;:]{0,80}?\b(?:for|in|across|among|between)\s+(?:any|all|every|each)\b"
    r"|\ball\s+(?:ps|p-values|p\s*'?s)\s*[>≥]\s*(?P<level>0?\.\d+)",
    re.IGNORECASE,
)
_EXCEPTION = DeferredPattern(r"\bexcept\b|\bapart\s+from\b|\bother\s+than\b|\bbesides\b|\bbut\s+(?:for|one|two)\b", re.IGNORECASE)
_CORRECTED = DeferredPattern(
    r"bonferroni|holm|correct(?:ed|ion)|adjust(?:ed|ment)|\bFDR\b|false discovery|multiple comparisons", re.IGNORECASE
)
_DEFAULT_LEVEL = 0.05
# A number's significance stars, written after it ("0.322***", "-1.2^{**}").
_STARS = DeferredPattern(r"(?<=[\d)}^])\s*\^?\{?(\*{1,4})")
# Rows whose test no sentence about "these predictors" means: the model's intercept.
_INTERCEPT = DeferredPattern(r"^\W*(?:intercept|constant|const\.?|_cons)\W*$", re.IGNORECASE)


@record(slots=True)
class NoneSignificant:
    """A sentence's word that none of the tests it speaks of is significant, at the level it states or .05."""

    start: int
    end: int
    level: float


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def none_significant(sentence: str, paragraph_corrected: bool) -> NoneSignificant | None:
    """The sentence's universal claim of no significance, unless it makes an exception or tests a corrected level."""
    match = _NONE_SIGNIFICANT.search(sentence)
    if match is None or paragraph_corrected or _EXCEPTION.search(sentence):
        return None
    written = match.group("level")
    level = float(written) if written else stated_level(sentence) or _DEFAULT_LEVEL
    return NoneSignificant(match.start(), match.end(), level)


def corrected(text: str) -> bool:
    return _CORRECTED.search(text) is not None


def p_columns(table: Table) -> set[int]:
    widest = max((len(row) for row in table.rows), default=0)
    return {column for column in range(widest) if P_HEADER.match(table.column_header(column))}


def significant_cells(table: Table, level: float) -> Iterator[Cell]:
    """The p-value cells that show significance at `level` whatever their rounding."""
    columns = p_columns(table)
    for index, row in enumerate(table.rows[table.header_rows :], table.header_rows):
        if _INTERCEPT.match(row_name(table, index)):
            continue
        for cell in row:
            match = _P_CELL.match(cell.text) if cell.column in columns else None
            if match is None:
                continue
            written = match.group("p")
            largest = float(written) + (0 if match.group("cmp") else 0.5 * 10 ** -len(written.partition(".")[2]))
            if largest < level:
                yield cell


def starred_cells(table: Table, legend: dict[int, float], level: float) -> Iterator[Cell]:
    """The body's cells whose stars the legend defines at `level` or below (a cell with more stars than the legend
    defines reads as the most it defines)."""
    if not legend:
        return
    most = max(legend)
    for index, row in enumerate(table.rows[table.header_rows :], table.header_rows):
        if _INTERCEPT.match(row_name(table, index)):
            continue
        for cell in row[1:]:
            stars = _STARS.search(cell.text)
            if stars and legend.get(min(len(stars.group(1)), most), 1.0) <= level:
                yield cell


def row_name(table: Table, row: int) -> str:
    """The row's header, or the nearest one above it (a multirow header names the rows below it)."""
    for index in range(row, table.header_rows - 1, -1):
        if name := table.row_header(index).strip():
            return name
    return ""
