"""What a sentence says a table lists ("Table 3 contains the top 10 genes"), and what the table lists.

A count stated about a cited table is a count of its rows (the genes, datasets, runs it lists)
or of its columns (the methods it compares), and a careful reader counts them. Tables count in
more than one way: rows that only title a group ("Panel A"), rows continuing the row above
(an empty first cell), an Average or Total row, columns with or without the row-header column.
A stated count that none of these readings gives is the one a reader would query.

A table may also be said to cover every member of a set the paper names ("Breakdown on every CALVIN task"),
whose count the paper states elsewhere ("45 tasks in Meta-World, 34 in CALVIN"); its rows, without the row of
the whole set, are the members it lists.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell, Table
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...memo import TEXT_CACHE_SIZE
from ...quantities import AGGREGATE_HEADER
from .model import COUNT_WORDS, number

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
# A known set counted in a sentence that cites one table: "our four datasets (Table~\ref{d})", "statistics for
# all nine languages", "the 16 reference studies". A determiner marks the count as the whole set, not a part of it.
_DEFINITE = DeferredPattern(
    r"\b(?:the|all|all\s+(?:of\s+)?the|our|these|those|each\s+of\s+the)\s+" + _COUNT + r"(?:~|\s+)" + _NOUN, re.IGNORECASE
)
# Words that make the count a part or a pick of the table's things: "the first two rows", "the remaining 12 genes".
_PART_OF = DeferredPattern(
    r"\b(?:first|last|top|bottom|next|remaining|other|additional|further|selected|following|former|latter|subsample|subset)\b",
    re.IGNORECASE,
)
_WHOLE_OF = DeferredPattern(
    r"\b(?:\d+|one|" + "|".join(COUNT_WORDS) + r"|some|most|many|few|none|any)\s+(?:out\s+)?of\s*$|(?:^|[,;:])\s*of\s*$", re.IGNORECASE
)
_ANY_REF = DeferredPattern(r"\\(?:c|C|auto|eq|page)?ref\*?\{")
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
    evidence: str  # how the sentence ties the count to the table: its evidence class


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def table_counts(sentence: str) -> tuple[TableCount, ...]:
    """The counts `sentence` states for the tables it cites by `\\ref`: said to be listed there, or, in a sentence
    citing one table alone, a known set it counts ("the four datasets")."""
    found: list[TableCount] = []
    for pattern, label_group, count_group in ((_TABLE_LISTS, 1, 2), (_LISTED_IN_TABLE, 3, 1)):
        for match in pattern.finditer(sentence):
            label = match.group(label_group).split(",")[0].strip()
            found += _exact(sentence, match, count_group, label, LISTED_IN)
    cited = _REF_ONLY.findall(sentence)
    if len(cited) == 1 and len(_ANY_REF.findall(sentence)) == 1:
        for match in _DEFINITE.finditer(sentence):
            told = any(claim.start == match.start(1) for claim in found)
            whole = _WHOLE_OF.search(sentence[: match.start()])  # "2 of the 40 genes": the 40 are not what the table lists
            if not told and not whole and not _PART_OF.search(match.group(0)) and "-" not in match.group(2).split()[-1]:
                found += _exact(sentence, match, 1, cited[0].split(",")[0].strip(), COUNTED_NEAR)
    return tuple(found)


LISTED_IN = "strong: the cited table's rows counted"
COUNTED_NEAR = "moderate: a known set counted beside the table's citation"
_REF_ONLY = DeferredPattern(_REF)


def _exact(sentence: str, match: re.Match[str], group: int, label: str, evidence: str) -> list[TableCount]:
    """The count of `match` (its number in `group`, the noun after), unless it bounds, selects or sets."""
    word, noun = match.group(group), match.group(group + 1)
    before, after = sentence[: match.start(group)], sentence[match.end(group + 1) :]
    exact = not (_NOT_EXACT_BEFORE.search(before) or _NOT_EXACT_AFTER.match(after) or _MORE_LISTED.search(after))
    if not exact or noun.split()[-1].lower() in _SETTING_NOUNS:
        return []
    stated = int(word) if word.isdigit() else COUNT_WORDS.index(word.lower()) + 2
    return [TableCount(label, stated, " ".join(noun.split()), match.start(group), match.end(group), evidence)]


def _filled(row: list[Cell]) -> list[Cell]:
    return [cell for cell in row if cell.text.strip()]


def listings(table: Table) -> Iterator[int]:
    """Every number of things the table may be said to list: its rows, read several ways, and its columns."""
    body = [row for row in table.rows[table.header_rows :] if _filled(row)]
    width = max((sum(cell.column_span for cell in row) for row in table.rows), default=0)
    titles = [row for row in body if _title(row, width)]  # "Panel A", a group's title
    entries = [row for row in body if not _title(row, width)]
    named = [row for row in entries if row and row[0].text.strip()]
    plain = [row for row in named if not _summary(row)]
    yield from (len(body), len(entries), len(named), len(plain), len(titles))
    # Header rows the parse took for the body (under a title spanning the table): leading rows without a number.
    headed = {id(row) for row in itertools.takewhile(lambda row: not any(_DIGIT.search(cell.text) for cell in row), entries)}
    yield sum(id(row) not in headed for row in plain)
    # Each group's rows under its title ("Generalization splits" above the 21 splits), without its summary row.
    for group in _groups(body, width):
        yield from (len(group), sum(not _summary(row) for row in group))
    yield len({" ".join(row[0].text.split()) for row in named})
    yield from (width, width - 1)
    # Rows drawn apart by rules: an entry may run over several lines ("stop reason & A, B, \\ & C, D").
    cuts = sorted({row for row, _ in table.rules if table.header_rows < row < len(table.rows)} | {table.header_rows, len(table.rows)})
    stretches = [[row for row in table.rows[start:end] if _filled(row)] for start, end in itertools.pairwise(cuts)]
    yield sum(bool(stretch) for stretch in stretches)
    yield from (len(stretch) for stretch in stretches)  # or the rows of one stretch between rules


_DIGIT = DeferredPattern(r"\d")
# A row that sums the others up by its name: "Total", "Average", "Combined", "all splits (aggregate)".
_SUMMARY_NAME = DeferredPattern(r"^\W*(?:combined|pooled|all\b)|\baggregate\b", re.IGNORECASE)


def _summary(row: list[Cell]) -> bool:
    name = row[0].text if row else ""
    return bool(AGGREGATE_HEADER.match(name) or _SUMMARY_NAME.search(name))


def _title(row: list[Cell], width: int) -> bool:
    """A row that titles a group: one filled cell in a table of three or more columns, or one filled cell without
    a number in a table of two ("Generalization splits (held out) & \\\\")."""
    filled = _filled(row)
    return len(filled) == 1 and (width > 2 or (len(row) > 1 and not re.search(r"\d", filled[0].text)))


def _groups(body: list[list[Cell]], width: int) -> Iterator[list[list[Cell]]]:
    """The body's rows between group titles."""
    for is_title, rows in itertools.groupby(body, lambda row: _title(row, width)):
        if not is_title:
            yield list(rows)


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


# A row that titles a panel: "Panel A: Speed of payment", "Panel (b)", "Panel 2.", or an unlettered "Panel : Survey
# Data" (a colon or the cell's end after the word, so "Panel data" names a row, not a panel).
_PANEL_TITLE = DeferredPattern(r"^\W*Panel\s*(?:\(?([A-H1-9])\)?(?!\w)|(?=[:.\-–—]|$))", re.IGNORECASE)
_PANEL_LETTER = r"\(?([A-H1-9]|[a-h](?=\)))\)?(?!\w)"  # "Panel B", "panel (b)": a bare lower-case "a" is an article
# "Panel B", "Panels A and B", "panels (a)-(c)": the panels a text names, and the table it names them of, if it says.
_PANEL_NAMED = DeferredPattern(
    r"\b[Pp]anels?\s+" + _PANEL_LETTER + r"(?:\s*(?:,|and|&|to|-|–|--)\s*" + _PANEL_LETTER + r")?"
    r"(?:\s+(?:of|in)\s+(?:the\s+)?" + _REF + r"|\s+of\s+this\s+table)?"
)
_TABLE_THEN_PANEL = DeferredPattern(_REF + r",?\s*\(?\s*[Pp]anels?\s+" + _PANEL_LETTER)
_PANELS_COUNTED = DeferredPattern(r"(?<![\d.,])\b(" + "|".join(COUNT_WORDS[:5]) + r"|[2-6])\s+panels\b", re.IGNORECASE)


@record(slots=True)
class PanelClaim:
    """A panel a text names ("Panel B", index 2), or a number of panels it says a table has ("two panels"), with the
    label of the table it cites for it (None: the table whose caption or note the text is)."""

    panel: int | None
    stated: int | None
    label: str | None
    start: int
    end: int


def _panel_index(letter: str) -> int:
    return int(letter) if letter.isdigit() else ord(letter.upper()) - ord("A") + 1


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def panel_claims(text: str) -> tuple[PanelClaim, ...]:
    """The panels `text` names and the numbers of panels it states, each with the table it cites for it."""
    found: list[PanelClaim] = []
    for match in _TABLE_THEN_PANEL.finditer(text):
        found.append(PanelClaim(_panel_index(match.group(2)), None, match.group(1).split(",")[0].strip(), match.start(), match.end()))
    for match in _PANEL_NAMED.finditer(text):
        if any(claim.start <= match.start() < claim.end for claim in found):
            continue
        first, last, label = match.group(1), match.group(2), match.group(3)
        label = label.split(",")[0].strip() if label else None
        # "Panels A and B" names both; "Panels A-C" the run between: the last one named says the most.
        found.append(PanelClaim(_panel_index(last or first), None, label, match.start(), match.end()))
    for match in _PANELS_COUNTED.finditer(text):
        word = match.group(1).lower()
        stated = int(word) if word.isdigit() else COUNT_WORDS.index(word) + 2
        found.append(PanelClaim(None, stated, None, match.start(), match.end()))
    return tuple(sorted(found, key=lambda claim: claim.start))


def panel_titles(table: Table) -> list[int | None]:
    """The panels a table titles in its rows, in order: each one's index ("Panel B" is 2), None for an unlettered
    "Panel : Survey Data"."""
    titles: list[int | None] = []
    for row in table.rows:
        for cell in row:  # two panels may sit side by side: "Panel B: Default" & "Panel C: Visits"
            title = _PANEL_TITLE.match(cell.text)
            if title:
                titles.append(_panel_index(title.group(1)) if title.group(1) else None)
    return titles


def untitled_panel(claim: PanelClaim, titles: list[int | None]) -> bool:
    """Whether the panel or number of panels `claim` states is not what the titles give. Titles that start past the
    first panel ("Panel C" first) are the rest of a table split over floats, and say nothing of the panels before."""
    lettered = [title for title in titles if title is not None]
    if not titles or (lettered and min(lettered) != 1):
        return False
    if claim.stated is not None:
        return claim.stated != len(titles)
    return claim.panel not in lettered if lettered else (claim.panel or 0) > len(titles)


# A named set: a macro the paper defines ("\calvin") or a capitalised name ("BabyAI", "Meta-World").
_SET_NAME = r"(\\[A-Za-z]+(?:\{\})?|[A-Z][\w-]*)"
_MEMBER = r"([a-z][a-z-]*[a-z])\b"  # what the set holds: "task", "tasks", "games"
# "Breakdown on every \calvin task", "results for each of the Atari games", "all BabyAI tasks".
_COVERS = DeferredPattern(r"\b(?:every|each|all)(?:\s+of\s+the|\s+the)?\s+" + _SET_NAME + r"\s+" + _MEMBER)
_COUNT_IN = r"(?<![\d.,])" + _COUNT + r"\s+"
# "45 tasks in \metaworld", "the 57 games of Atari".
# Not "5 tasks from \metaworld": drawn from a set is a part of it.
_MEMBERS_IN_SET = DeferredPattern(_COUNT_IN + _NOUN + r"\s+(?:in|of)\s+(?:the\s+)?" + _SET_NAME + r"(?![\w-])")
# The list the count above leads: ", 34 in \calvin, 20 in \habpick where …, and 5 in BabyAI".
_NEXT_IN_SET = DeferredPattern(r"[^,;.]{0,80}?(?:,|;)\s*(?:and\s+)?" + _COUNT_IN + r"(?:in|of)\s+(?:the\s+)?" + _SET_NAME + r"(?![\w-])")
# "\calvin, with 34 tasks", "the ML-45 version of \metaworld, which has 45 tasks".
_HAS = r"\b(?:with|has|have|contains?|comprises?|consists\s+of|includes?)\s+" + _COUNT_IN + _NOUN
_SET_HAS = DeferredPattern(_SET_NAME + r"(?![\w-])[^.;A-Z\\]{0,80}?" + _HAS)  # the nearest name before the count
# A paragraph led by the set's name ("\textbf{CALVIN}~\cite{…}: … the benchmark with 34 tasks").
_LED_BY_SET = DeferredPattern(r"^\s*" + _SET_NAME + r"(?:\s*\\cite\w*\{[^}]*\})?\s*:")
_SET_HAS_LED = DeferredPattern(_HAS)
_CAPITALISED = DeferredPattern(r"[A-Z][a-z-]*")  # any word that starts a sentence, not a name by its spelling
_CLAUSE_START = DeferredPattern(r"(?:^|[:;])\s*$")


@record(slots=True)
class SetCoverage:
    """A text's "every <set> <member>": the table it says covers the set's members, by the set's name as written."""

    label: str | None  # the cited table (None: the float whose caption the text is)
    name: str
    member: str
    start: int
    end: int


@record(slots=True)
class SetCount:
    """A count a text states of a named set's members ("45 tasks in \\metaworld"), and where it is written."""

    name: str
    member: str
    stated: int
    start: int
    end: int


def member_head(member: str) -> str:
    """The members as compared, without the plural: "tasks" and "task" are one member, "holdout tasks" another."""
    return re.sub(r"(?<=[^s])s$", "", " ".join(member.lower().split()))


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def set_coverages(sentence: str, caption: bool) -> tuple[SetCoverage, ...]:
    """The named sets `sentence` says a table covers member by member: a caption's own float, or the one table a
    sentence cites and no other reference."""
    covers = list(_COVERS.finditer(sentence))
    cited = _REF_ONLY.findall(sentence) if covers and not caption else []
    if caption:
        label = None
    elif len(cited) == 1 and len(_ANY_REF.findall(sentence)) == 1:
        label = cited[0].split(",")[0].strip()
    else:
        return ()
    return tuple(SetCoverage(label, match.group(1), match.group(2), match.start(), match.end()) for match in covers)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def set_counts(paragraph: str) -> tuple[SetCount, ...]:
    """The counts of named sets' members a paragraph states: "N <members> in <set>" and the list it leads
    ("…, 34 in \\calvin"), "<set> … with N <members>" in one sentence, and "with N <members>" in a paragraph led by
    the set's name."""
    found: list[SetCount] = []
    for start, end in sentence_spans(paragraph):
        sentence = paragraph[start:end]
        if not _DIGIT.search(sentence) and not any(word in sentence for word in COUNT_WORDS):
            continue  # every shape below states a count: most sentences state none, and their patterns are not cheap
        for match in _MEMBERS_IN_SET.finditer(sentence):
            member = match.group(2)
            found.append(_set_count(match, 3, member, 1, start))
            at = match.end()
            while following := _NEXT_IN_SET.match(sentence, at):
                found.append(_set_count(following, 2, member, 1, start))
                at = following.end()
        for match in _SET_HAS.finditer(sentence) if _SET_HAS_LED.search(sentence) else ():
            if not (_CAPITALISED.fullmatch(match.group(1)) and _CLAUSE_START.search(sentence[: match.start()])):  # "We use …"
                found.append(_set_count(match, 1, match.group(3), 2, start))
    led = _LED_BY_SET.match(paragraph)
    if led and not _CAPITALISED.fullmatch(led.group(1)):  # "CALVIN:", not "Training:"
        # The paragraph's set, whatever a sentence's nearest name ("the ABC → D split of the benchmark with 34 tasks").
        for match in _SET_HAS_LED.finditer(paragraph, led.end()):
            found.append(SetCount(led.group(1), match.group(2), number(match.group(1)), match.start(1), match.end()))
    return tuple(found)


def _set_count(match: re.Match[str], name: int, member: str, count: int, offset: int) -> SetCount:
    return SetCount(match.group(name), member, number(match.group(count)), offset + match.start(count), offset + match.end())


def set_members(table: Table, name: str, printed: Callable[[str], str]) -> int:
    """The members of the set `name` a table lists: its named rows, without group titles, summary rows and the row
    of the whole set (a "CALVIN" row over the CALVIN tasks), each cell read as it prints."""
    body = [row for row in table.rows[table.header_rows :] if _filled(row)]
    width = max((sum(cell.column_span for cell in row) for row in table.rows), default=0)
    whole = set_key(name)
    return sum(
        bool(row[0].text.strip()) and not _title(row, width) and not _summary(row) and set_key(printed(row[0].text)) != whole
        for row in body
    )


def set_key(name: str) -> str:
    """A set's name as compared: "Meta-World", "meta-world" and "Meta World" are one set."""
    return re.sub(r"[\W_]+", "", name).lower()
