"""What a sentence says a table lists ("Table 3 contains the top 10 genes"), and what the table lists.

A count stated about a cited table is a count of its rows (the genes, datasets, runs it lists)
or of its columns (the methods it compares), and a careful reader counts them. Tables count in
more than one way: rows that only title a group ("Panel A"), rows continuing the row above
(an empty first cell), an Average or Total row, columns with or without the row-header column.
A stated count that none of these readings gives is the one a reader would query.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell, Table
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE
from ...quantities import AGGREGATE_HEADER
from .model import COUNT_WORDS

_COUNT = r"(" + "|".join(COUNT_WORDS) + r"|\d{1,3})"
# The counted thing: a plural noun, with up to two words before it ("differentially expressed genes").
_NOUN = r"((?:[a-z][a-z-]*\s+){0,2}?[a-z][a-z-]*[a-rt-z]s)\b"
_REF = r"(?:Table|Tab\.|Tables)?[~\s]*\\(?:c|C|auto)?ref\*?\{([^}]*)\}"
_LISTS = r"(?:lists?|contains?|shows?|presents?|reports?|summari[sz]es|summari[sz]e|gives?|displays?|details?|enumerates?)"
_LISTED = r"(?:listed|shown|given|presented|reported|summari[sz]ed|detailed|enumerated)"
_SELECTION = r"(?:(?:the|all|our)\s+)?(?:(?:top|first|following|selected)\s+)?"
# "Table 3 contains the top 10 genes", "Table~\ref{t} lists all 48 sequences".
_TABLE_LISTS = DeferredPattern(_REF + r"[^.;]{0,25}?\b" + _LISTS + r"\s+" + _SELECTION + _COUNT + r"\s+" + _NOUN, re.IGNORECASE)
# "The 16 gene sets listed in Table 4".
_LISTED_IN_TABLE = DeferredPattern(
    r"\b(?:the|all|our)\s+(?:top\s+)?" + _COUNT + r"\s+" + _NOUN + r"\s+(?:are\s+|is\s+)?" + _LISTED + r"\s+in\s+" + _REF,
    re.IGNORECASE,
)
# A count that bounds or selects rather than counts: "at least 10 genes", "3 of the 12 genes", "10 or more".
_NOT_EXACT_BEFORE = DeferredPattern(
    r"\b(?:at\s+(?:least|most)|up\s+to|over|more\s+than|fewer\s+than|less\s+than|about|around|some)\s+$", re.IGNORECASE
)
_NOT_EXACT_AFTER = DeferredPattern(r"\s+(?:of\b|or\s+(?:more|fewer|less)\b|out\s+of\b)", re.IGNORECASE)
# "… shown in Table 3, along with a few intermediate behaviours": the table lists more than the count.
_MORE_LISTED = DeferredPattern(
    r"\b(?:along\s+with|as\s+well\s+as|together\s+with|in\s+addition\s+to|among\s+others|besides)\b", re.IGNORECASE
)
_SETTING_NOUNS = frozenset(
    {"times", "runs", "seeds", "trials", "folds", "epochs", "iterations", "repetitions", "replicates", "decimals", "digits"}
)


@record(slots=True)
class TableCount:
    """A count a sentence states for a table it cites, and where the count is written."""

    label: str
    stated: int
    noun: str
    start: int
    end: int


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def table_counts(sentence: str) -> tuple[TableCount, ...]:
    """The counts `sentence` states for the tables it cites by `\\ref`."""
    found = []
    for pattern, label_group, count_group in ((_TABLE_LISTS, 1, 2), (_LISTED_IN_TABLE, 3, 1)):
        for match in pattern.finditer(sentence):
            word, noun = match.group(count_group), match.group(count_group + 1)
            before, after = sentence[: match.start(count_group)], sentence[match.end(count_group + 1) :]
            exact = not (_NOT_EXACT_BEFORE.search(before) or _NOT_EXACT_AFTER.match(after) or _MORE_LISTED.search(after))
            if not exact or noun.split()[-1].lower() in _SETTING_NOUNS:
                continue
            stated = int(word) if word.isdigit() else COUNT_WORDS.index(word.lower()) + 2
            label = match.group(label_group).split(",")[0].strip()
            found.append(TableCount(label, stated, " ".join(noun.split()), match.start(count_group), match.end(count_group)))
    return tuple(found)


def _filled(row: list[Cell]) -> list[Cell]:
    return [cell for cell in row if cell.text.strip()]


def listings(table: Table) -> Iterator[int]:
    """Every number of things the table may be said to list: its rows, read several ways, and its columns."""
    body = [row for row in table.rows[table.header_rows :] if _filled(row)]
    width = max((sum(cell.column_span for cell in row) for row in table.rows), default=0)
    titles = [row for row in body if len(_filled(row)) == 1 and width > 2]  # "Panel A", a group's title
    entries = [row for row in body if not (len(_filled(row)) == 1 and width > 2)]
    named = [row for row in entries if row and row[0].text.strip()]
    plain = [row for row in named if not AGGREGATE_HEADER.match(row[0].text)]
    yield from (len(body), len(entries), len(named), len(plain), len(titles))
    yield len({" ".join(row[0].text.split()) for row in named})
    yield from (width, width - 1)
    # Rows drawn apart by rules: an entry may run over several lines ("stop reason & A, B, \\ & C, D").
    cuts = sorted({row for row, _ in table.rules if table.header_rows < row < len(table.rows)} | {table.header_rows, len(table.rows)})
    yield sum(any(_filled(row) for row in table.rows[start:end]) for start, end in itertools.pairwise(cuts))


def names_listed(table: Table, noun: str) -> bool:
    """Whether the table speaks of the counted things: the noun's head word in its caption, header or first column
    ("genes" and the header "Gene"; "attributes" and the caption "5 attributes, 28 values")."""
    head = re.sub(r"(?:es|s)$", "", noun.split()[-1].lower())
    header = " ".join(cell.text for row in table.rows[: table.header_rows] for cell in row)
    first_column = " ".join(row[0].text for row in table.rows if row)
    return head in f"{table.caption or ''} {header} {first_column}".lower()


def countable(table: Table, source: str) -> bool:
    """Whether the table's rows can be counted from its parse: one tabular, not a layout of several."""
    return source.count("\\begin{tabular") + source.count("\\begin{longtable") <= 1 and len(table.rows) > table.header_rows
