"""What a "respectively" sentence binds in a table: item i of one coordinated list to item i of the other.

"wordGREEN and charGREEN perform the best on CoNLL and SEEDA, respectively" pairs the rows wordGREEN and
charGREEN with the columns CoNLL and SEEDA one to one; "Naive Bayes reaches 0.30 and 0.05 on design and
requirement debt, respectively" pairs the numbers with the columns Design and Requirement of one row. The
lists are read from the table, not from the grammar: a list is a run of the table's row names (or of its
column headers) that the sentence writes one after another, joined by a comma, "and", "or" or "/" (with
"the", and one word of the item's own before it: "Direct prompting and CoT"). A header is named by its
distinctive words, less the little words of grammar ("# of Features" by "features"); a row "Ours" also by
"our method", an aggregate row ("Average", "Total") by its word ("on average"). A word of the sentence
also names a header that adds a suffix to it after a hyphen ("SEEDA" the columns "SEEDA-S" and "SEEDA-E",
"CoNLL-2014" the column "CoNLL"), since a dataset's variants and years are written that way. Of two
headers named, one whose words the other holds is not: the longest name wins. Header cells the sentence
names outside the list (a spanning "Corpus-Level Metrics", a metric) narrow each item's columns to those
under the most of them.

A binding is one of three shapes: a list of k rows against columns the rest of the sentence names, a list
of k columns against the one row the sentence names, or a list of k rows against a list of k columns. A
row named outside the list, two lists of rows, or a list whose items name more than one row each leaves
the sentence unbound: then the items are settings, sizes or other papers' numbers, not this table's cells.

A list of subjects may instead name one table each, by its caption: "For DIC and OQA, two clusters keep 60%/51%
respectively", where the paper gives one table per dataset ("DICES Performance Metrics", "OpinionQA Performance
Metrics") of the same columns. An item names a caption by one of its words: the word itself, or, written in
capitals, the word's start ("DIC" for "DICES") or the word's capitals ("OQA" for "OpinionQA"); the item must name
exactly one of the tables, so a word every caption shares ("Performance") names none, and a caption two items name
("Datasets: OQA, HK, DIC") names neither. Which row and column of those tables the list means is NUM013's to find.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE
from ...quantities import name_words
from .model import Grid
from .row_naming import OURS

RESPECTIVELY = DeferredPattern(r"\brespectively\b", re.IGNORECASE)
_WORD = DeferredPattern(r"[A-Za-z][A-Za-z0-9\-+]*")
# What may stand between two items of one list: "A, B, and the C", "A/B", "A or B", "A prompting and B".
_JOINED = DeferredPattern(r"^[\s~]*(?:[A-Za-z-]+\s*)?(?:,|/|&|\band\b|\bor\b)(?:[\s,/&~]|\band\b|\bor\b|\bthe\b)*$", re.IGNORECASE)
# A reference or citation: its key ("tab:kept") names no header.
_CITING = DeferredPattern(r"\\(?:\w*ref|\w*cite\w*|label)\*?\{[^}]*\}")
_AGGREGATE = DeferredPattern(r"^\W*(average|mean|total|overall)\W*$", re.IGNORECASE)
_LITTLE = frozenset({"of", "in", "on", "at", "for", "to", "by", "per", "with", "a", "an", "the", "and", "or"})
# A number of a list ("60%", "0.81", "531.4 eV") and the list itself, at least two joined by commas, "and", "or" or "/".
_ITEM = r"[-−]?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:\s*%)?"
_NUMBERS = DeferredPattern(
    rf"(?<![\w.,±-])({_ITEM}(?:\s*[a-zA-Zμ]{{1,3}}\b)?(?:\s*,\s*{_ITEM}(?:\s*[a-zA-Zμ]{{1,3}}\b)?)*\s*,?\s*(?:and|or|/)\s*{_ITEM})(?![\w.±])"
)
_SPREAD_BEFORE = DeferredPattern(r"(?:±|\+/-|\\pm)\s*$")
_SPREAD_AFTER = DeferredPattern(r"\s*(?:±|\+/-|\\pm)")
_NUMBER = DeferredPattern(r"([-−]?)(\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.(\d+))?(\s*%)?")


@record(slots=True)
class Stated:
    """One number of a list: its text and value, places, whether it is a percentage, and where it stands."""

    text: str
    value: float
    decimals: int
    percent: bool
    start: int
    end: int


@record(slots=True)
class Pair:
    """Item i of a binding: its row and the columns it names (one, for a cell)."""

    row: int
    columns: tuple[int, ...]


def may_pair(text: str) -> bool:
    return "espectively" in text and RESPECTIVELY.search(text) is not None


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def stated_list(sentence: str) -> tuple[Stated, ...]:
    """The last list of two or more numbers before "respectively", or () when there is none. A list that runs
    into a spread ("81.2 and 0.3 ± ...", "... ± 0.3 and 79.4") mixes means with spreads, and is none."""
    before = RESPECTIVELY.search(sentence)
    lists = list(_NUMBERS.finditer(sentence[: before.start()] if before else ""))
    if not lists or _SPREAD_BEFORE.search(sentence[: lists[-1].start()]) or _SPREAD_AFTER.match(sentence, lists[-1].end()):
        return ()
    found = lists[-1]
    return tuple(_stated(number, found.start()) for number in _NUMBER.finditer(found.group(1)))


def _stated(number: re.Match[str], offset: int) -> Stated:
    sign, whole, places, percent = number.groups()
    value = float(f"{sign.replace('−', '-')}{whole.replace(',', '')}.{places or 0}")
    text = " ".join(number.group().split())
    return Stated(text, value, len(places or ""), bool(percent), offset + number.start(), offset + number.end())


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _spans(sentence: str) -> dict[str, tuple[int, int]]:
    """Each word's first place in the sentence, under its own name and its stem before a hyphen ("our method"
    under "ours")."""
    found: dict[str, tuple[int, int]] = {}
    for match in _WORD.finditer(_CITING.sub(lambda cited: " " * len(cited.group()), sentence)):
        word = match.group().lower()
        for name in (word, word.split("-")[0]):
            found.setdefault(name, match.span())
    ours = OURS.search(sentence)
    if ours:  # "our method" names the row "Ours"
        found.setdefault("ours", ours.span())
    return found


def _words(header: str) -> frozenset[str]:
    """A header's distinctive words without the little words a sentence uses for its own grammar ("# of Features");
    a row "Ours" by "ours", which "our method" names; an aggregate row ("Average", "Total") by its word, which "on
    average" names."""
    words = name_words(header) - _LITTLE | ({"ours"} if re.search(r"\bours\b", header, re.IGNORECASE) else set())
    aggregate = _AGGREGATE.match(header)
    return frozenset(words) or frozenset({aggregate.group(1).lower()} if aggregate else ())


def _mention(sentence: str, header: str, shared: frozenset[str] = frozenset()) -> tuple[int, int] | None:
    """Where the sentence names a header: every distinctive word of it, a hyphenated one also by its stem. The
    place is that of its words no other named header shares, so "design and requirement debt" lists the
    headers "Design Debt" and "Requirement Debt" at "design" and at "requirement"."""
    spans, words = _spans(sentence), _words(header)
    places = [spans.get(word) or spans.get(word.split("-")[0]) for word in words]
    if not places or any(place is None for place in places):
        return None
    own = [place for word, place in zip(words, places, strict=True) if place and word not in shared] or places
    return min(place[0] for place in own if place), max(place[1] for place in own if place)


def _mentions(sentence: str, headers: list[tuple[str, frozenset[int]]]) -> list[tuple[tuple[int, int], frozenset[int]]]:
    """The headers the sentence names, each at the place of its own words (see `_mention`)."""
    named = [(text, items) for text, items in headers if _mention(sentence, text)]
    # The longest name wins: "# of Features" is not named where "positive weight features" names its neighbour.
    texts = {text: _words(text) for text, _ in named}
    named = [(text, items) for text, items in named if not any(texts[text] < other for other in texts.values())]
    counts = Counter(word for text in {text for text, _ in named} for word in _words(text))
    shared = frozenset(word for word, count in counts.items() if count > 1)
    return [(span, items) for text, items in named if (span := _mention(sentence, text, shared))]


def _runs(sentence: str, mentions: list[tuple[tuple[int, int], frozenset[int]]]) -> list[list[frozenset[int]]]:
    """The mentions merged by place and cut into lists: a run of places joined by nothing but "and", "or", ","."""
    merged: dict[tuple[int, int], frozenset[int]] = {}
    for span, items in mentions:
        merged[span] = merged.get(span, frozenset()) | items
    runs: list[list[frozenset[int]]] = []
    last_end = -1
    for (start, end), items in sorted(merged.items()):
        if start < last_end:
            return []  # two headers named by overlapping words: no clean list
        if runs and _JOINED.match(sentence[last_end:start]):
            runs[-1].append(items)
        else:
            runs.append([items])
        last_end = end
    return runs


def subject_tables(sentence: str, captions: Sequence[str]) -> list[int] | None:
    """The captions (by index) that the sentence's one list of subjects names item by item, or None when no list of
    two or more items names distinct captions, or when two lists do (see the module docstring)."""
    words = [(match.span(), match.group()) for match in _WORD.finditer(_CITING.sub(lambda cited: " " * len(cited.group()), sentence))]
    names = {span: {index for index, caption in enumerate(captions) if _names_caption(word, caption)} for span, word in words}
    # A caption that two different words name ("Datasets: OQA, HK, DIC") speaks of them all, not of one.
    by_word = {word.lower(): names[span] for span, word in words}
    spoken = Counter(index for tables in by_word.values() for index in tables)
    named = [(span, frozenset(own)) for span, _ in words if len(own := {index for index in names[span] if spoken[index] == 1}) == 1]
    found = [run for run in _runs(sentence, named) if len(run) > 1]
    if len(found) != 1 or len(set(found[0])) != len(found[0]):
        return None
    return [next(iter(items)) for items in found[0]]


def _names_caption(item: str, caption: str) -> bool:
    """Whether a capitalised word names a caption: as one of its words, or, in capitals, as a word's start or capitals."""
    if not item[0].isupper() or len(item) < 2:
        return False
    words = _caption_words(caption)
    if item.lower() in {word.lower() for word in words}:
        return True
    return item.isupper() and any(_abbreviates(item, word) for word in words)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _caption_words(caption: str) -> tuple[str, ...]:
    return tuple(match.group() for match in _WORD.finditer(_CITING.sub(" ", caption)))


def _abbreviates(item: str, word: str) -> bool:
    """ "DIC" of "DICES" (its start) and "OQA" of "OpinionQA" (its capitals)."""
    capitals = "".join(letter for letter in word if letter.isupper())
    return (len(word) > len(item) and word.upper().startswith(item)) or (len(capitals) > 1 and capitals == item)


def loosely_names(sentence: str, header: str) -> bool:
    """Whether the sentence writes a distinctive word of a header in any form: "clusters" names "cluster-2", "information"
    "Info", "preserves" "Preserved". Looser than `bind`'s naming: it only narrows cells a number already found."""
    written = set(_spans(sentence))
    return any(_same_word(word.split("-")[0], other) for word in _words(header) for other in written)


_ENDING = DeferredPattern(r"(?:es|s|ed|ing)$")


def _same_word(first: str, second: str) -> bool:
    short, long = sorted((first, second), key=len)
    return len(short) > 2 and (
        short == long or _ENDING.sub("", short) == _ENDING.sub("", long) or (len(short) > 3 and long.startswith(short))
    )


def _header_cells(grid: Grid) -> Iterator[tuple[str, frozenset[int]]]:
    for row in grid.table.rows[: grid.header_rows]:
        for cell in row:
            if cell.text.strip() and cell.column > 0:
                yield cell.text, frozenset(range(cell.column, cell.column + cell.column_span))


def bind(grid: Grid, sentence: str) -> list[Pair] | None:
    """Each item of the sentence's "respectively" list as a row and its columns, or None when the sentence
    names the table's rows and columns in no list of one of the three shapes (see the module docstring)."""
    row_headers = [(grid.row_header(row), frozenset({row})) for row in grid.body_rows() if not grid.is_reference(row)]
    rows = _mentions(sentence, row_headers)
    row_runs = _runs(sentence, rows)
    header_mentions = _mentions(sentence, list(_header_cells(grid)))
    column_runs = _runs(sentence, header_mentions)
    row_lists = [run for run in row_runs if len(run) > 1]
    column_lists = [run for run in column_runs if len(run) > 1]
    if len(row_lists) > 1 or len(column_lists) > 1 or any(len(items) != 1 for run in row_runs for items in run):
        return None
    context = [items for run in column_runs if len(run) == 1 for items in run]
    if row_lists and column_lists and len(row_lists[0]) == len(column_lists[0]) and len(row_runs) == 1:
        return [Pair(next(iter(row)), _narrowed(columns, context)) for row, columns in zip(row_lists[0], column_lists[0], strict=True)]
    if row_lists and not column_lists and len(row_runs) == 1 and context:
        return [Pair(next(iter(row)), _narrowed(frozenset(grid.columns()), context)) for row in row_lists[0]]
    if column_lists and len(row_runs) == 1 and len(row_runs[0]) == 1:
        (row,) = row_runs[0][0]
        return [Pair(row, _narrowed(columns, context)) for columns in column_lists[0]]
    return None


def _narrowed(columns: frozenset[int], context: list[frozenset[int]]) -> tuple[int, ...]:
    """An item's columns under the most header cells the sentence names outside its lists."""
    counts = {column: sum(column in named for named in context) for column in columns}
    most = max(counts.values(), default=0)
    return tuple(sorted(column for column, count in counts.items() if count == most))
