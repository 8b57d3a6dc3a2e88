"""CNT006: the whole of a counted set ("57 studies", "196 unique evaluations") that a table gives otherwise ("Count of unique studies, N=63").

## How it decides
A paper counts its whole sample once and restates it: the abstract's "we identified 57 studies containing 196
unique evaluations", the results' "a total of 57 studies", the descriptive table's header "Number of
evaluations, N=209" or its Total row. Counts of one noun are many in a paper and mostly of other things (each
experiment's participants, a split, the studies of one comparison), so a count is taken for the whole only where
the paper says it is one:

- in a table, a header cell that writes a capital N beside the noun ("Number (%) of evaluations, N=209"; a
  lower-case n is a group's), or beside no noun under a caption that names one ("Characteristics of the
  patients" over "Overall (N=120)"); the cell of a row named Total, All or Overall under a column whose header
  names the noun ("Images"); or a row of the sample's size ("Observations", "N", "Respondents") with one value in
  every column, each model fitted on one sample. A table that gives two wholes of one noun (a training and a test
  column) gives none, and a row naming a setting ("Number of layers") is no sample's size;
- in the prose, a count of ten or more before its noun in the abstract, which states the whole sample, or in the
  body with a word that makes it the whole: "a total of", "in total", "all", "the final sample consisted of", "the
  57 included studies", "120 participants took part"; and a capital N anywhere ("participants (N = 120)"). The
  prose must state the whole of a noun with one value throughout: a paper that gives several (each study's
  "a total of 120 children took part", "a total of 90 children took part") counts several sets, none compared.

The prose's whole is compared with the tables' whole of the same noun (singular or plural alike) when every table
that gives one gives the same value. It is reported when it differs, is written nowhere in that table (a cell it
quotes is a part the table breaks down), and its sentence does not write the table's value too. Parts and
bounds are never wholes: a count after "20 of", "among", "remaining", "excluded", "up to", "at least", "each",
"per", or in a sentence framed by a whole ("Of the 63 studies, 30 studies ..."); a count of a training, test or
validation split, or of what a sample was drawn from ("300 patients were screened"); a count in a sentence that
cites another work. A
rounded count ("about 200 studies") restates a whole within 15% of it, "nearly 200" one up to 15% under it, and a
bound ("more than 500 participants") any whole past it. Two wholes of one set differ by
what was added or excluded: a prose count under half the table's, or over twice it, counts another set ("all 11
languages" of the experiments against the "Total: 7,111" languages of the world the table describes).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.model import Cell, SectionKind, Table
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Related, Severity, Statement
from ...memo import TEXT_CACHE_SIZE
from ...quantities import shown_table
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from ..numbers.model import PROSE_KINDS, stem
from ..numbers.restated import HAS_DIGIT, NUMBER, value_of

# A count before what it counts: up to two words and a plural noun ("57 studies", "196 unique evaluations").
_COUNT = DeferredPattern(
    r"(?<![\w.,=^_~/$-])("
    + NUMBER
    + r")(\s*[kK]\b|\s+(?:thousand|million|billion)\b)?\s+((?:[a-z][\w-]*\s+){0,2}?)([a-z][a-z-]*[a-rt-z]s)\b"
)
_SCALE = {"k": 1e3, "thousand": 1e3, "million": 1e6, "billion": 1e9}
_SMALLEST = 10
# The words that make a body count the whole: "a total of 57", "in total, 57", "all 57", "the entire corpus of 57".
_WHOLE_BEFORE = DeferredPattern(
    r"\b(?:a\s+total\s+of|in\s+total,?|altogether,?|all(?:\s+of\s+the)?|(?:the|our)\s+(?:entire|full|whole|complete|final)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:of|with|comprising|containing|comprised\s+of)|(?:total|final|full|analytic(?:al)?)\s+sample\s+(?:size\s+)?(?:of|was|is|comprised|comprises|consisted\s+of|included))\s+$",
    re.IGNORECASE,
)
_INCLUDED = frozenset({"included", "eligible", "final", "total"})  # "the 57 included studies": the whole that was kept
# After the noun: "57 studies in total", "120 participants took part", "63 studies were included in the review".
_IN_TOTAL_AFTER = DeferredPattern(
    r"\s+(?:in\s+total|overall|altogether|took\s+part|participated|(?:were\s+)?included\s+in\s+(?:the|our|this)\s+"
    r"(?:analysis|analyses|review|meta-analysis|study|sample))\b",
    re.IGNORECASE,
)
# A part or a bound, not the whole: "of the 57", "among 196", "the remaining 45", "up to 100", "each of 12".
_PART_BEFORE = DeferredPattern(
    r"(?:(?:\d[\d,.]*\s*%?|\b(?:some|most|many|half|none|one|two|three|four|five|six|seven|eight|nine|ten|majority|minority|subset|"
    r"proportion|share|fraction|percent|portion))\s+(?:[\w-]+\s+)?(?:of|out\s+of)|\b(?:out\s+of|among|amongst|remaining|excluding|"
    r"excluded|except|only|up\s+to|at\s+least|at\s+most|fewer\s+than|less\s+than|each|per|every|top|first|last|further|additional|"
    r"another|other|next))\s+(?:the\s+|these\s+|those\s+|our\s+|its\s+)?$",
    re.IGNORECASE,
)
_PARTITIVE_FRAME = DeferredPattern(r"\b(?:of|among|amongst|out\s+of)\s+(?:the\s+|these\s+|all\s+)?\d", re.IGNORECASE)
_PART_AFTER = DeferredPattern(
    r"\s*(?:\([^()]*\)\s*)?(?:from|per|each|of\s+(?:which|whom|them|these|the)|were\s+(?:excluded|removed|dropped)|remain\w*|"
    r"in\s+(?:the|our|each)\s+(?:training|test|testing|validation|held-out)|for\s+(?:training|testing|validation|each)|in\s+each|"
    # what a sample was drawn from, before its exclusions: "863 articles returned by the search", "300 patients were screened"
    r"(?:who\s+|that\s+)?(?:were\s+|was\s+)?(?:screened|assessed|invited|approached|contacted|returned|retrieved|eligible\s+for\s+screening))\b",
    re.IGNORECASE,
)
_SPLITS = frozenset(
    stem(word) for word in "training train test testing validation held-out unseen excluded remaining new other additional".split()
)
# A count that bounds or rounds: "more than 500" (the whole is at least it), "nearly 200" (at most it), "about 60".
_BOUND_BEFORE = DeferredPattern(
    r"(?:\b(?P<above>over|more\s+than|above|in\s+excess\s+of)|\b(?P<below>nearly|almost|under|below|just\s+under)|"
    r"(?P<about>\b(?:about|approximately|around|roughly|some|circa|ca\.)|~|\\sim|≈))\s*$",
    re.IGNORECASE,
)
_ROUGH = 0.15
_NEAR = 0.5  # a whole restated is at least half the other
_CITES = DeferredPattern(r"\\cite|\[\d+(?:[,–-]\s*\d+)*\]|\(\D{2,40}(?:et\s+al\.?)?,?\s+(?:19|20)\d\d[a-z]?\)|\bet\s+al\b")
# A table's whole: a capital N beside the noun in a header cell ("Number (%) of evaluations, N=209").
_HEADER_N = DeferredPattern(r"(?<![\w])N\s*=\s*(" + NUMBER + r")")
_PLURAL = DeferredPattern(r"\b([a-z][a-z-]*[a-rt-z]s)\b", re.IGNORECASE)
_TOTAL_ROW = DeferredPattern(r"\W*(?:grand\s+)?(?:total|all|overall)\W*", re.IGNORECASE)
_LISTED_AFTER = DeferredPattern(r"\s*,\s*\d")
# What a table reports of the counted things, named in its caption before them: not a count's noun.
_REPORTED = frozenset(
    stem(word)
    for word in "characteristics statistics results values variables estimates measures outcomes differences means analyses".split()
)
_NOUN_REACH = 60  # characters before "N =" that name its noun
# A count as a cell writes it: "1,792", "209 (100%)".
_PROSE_N = DeferredPattern(
    r"\b([a-z][a-z-]*[a-rt-z]s)\s*\(\s*N\s*=\s*(" + NUMBER + r")\s*\)"
    r"|(?<![\w])N\s*=\s*(" + NUMBER + r")\s+(?:[a-z][\w-]*\s+){0,2}?([a-z][a-z-]*[a-rt-z]s)\b"
)
_PLAIN_COUNT = DeferredPattern(r"(\d{1,3}(?:,\d{3})+|\d+)(?:\s*\(\s*100(?:\.0+)?\s*\\?%\s*\))?")
# A row of the sample's size: "Observations", "Obs.", "N", "Sample size", "Respondents"; not a setting's
# ("Number of layers" in a table of hyperparameters).
_SIZE_ROW = DeferredPattern(
    r"\W*(?:N|Obs\.?|Observations|Sample\s+size|(respondents|participants|subjects|patients|individuals|households|firms|studies))\W*",
    re.IGNORECASE,
)


@record(slots=True)
class TableWhole:
    """A table's whole of a counted noun (`key`: the noun's stem), with every number its cells write."""

    key: str
    value: float
    written: str  # as the table writes it: "evaluations, N=209", "Total: 1792 images"
    held: frozenset[float]
    where: str  # the table, as a reader finds it
    related: Related


@record(slots=True)
class ProseWhole:
    """A count the prose states as a whole of its noun (`key`: the noun's stem)."""

    key: str
    value: float
    bound: str  # "" as written, "~" rounded, ">" or "<" a bound the whole is above or below
    written: str
    sentence: str
    evidence: str
    anchor: Finding


def prose_wholes(sentence: str, abstract: bool) -> Iterator[tuple[int, int, str, float, str, str]]:
    """The counts of `sentence` that state a whole (start, end, the noun's stem, value, bound (`_bound`), as written)."""
    if _CITES.search(sentence):
        return
    # A capital N is the whole sample, wherever it stands: "participants (N = 120)", "N = 2,240 subjects".
    for match in _PROSE_N.finditer(sentence):
        noun, number = (match.group(1), match.group(2)) if match.group(1) else (match.group(4), match.group(3))
        if not _PART_AFTER.match(sentence, match.end()):
            yield match.start(), match.end(), stem(noun.lower()), value_of(number), "", " ".join(match.group(0).split())
    for match in _COUNT.finditer(sentence):
        number, scale, qualifiers, noun = match.groups()
        value = value_of(number) * _SCALE.get((scale or "").strip().lower(), 1)
        if (
            value < _SMALLEST
            or not value.is_integer()
            or ("." in number and not scale)
            or (number.isdigit() and 1900 <= value <= 2100 and not scale)
        ):
            continue
        before, words = sentence[: match.start()], qualifiers.split()
        if _PART_BEFORE.search(before) or _PART_AFTER.match(sentence, match.end()) or any(stem(word) in _SPLITS for word in words):
            continue
        if _PARTITIVE_FRAME.search(before):  # "Of the 63 studies, 30 studies ...": the counts after it are its parts
            continue
        marked = _WHOLE_BEFORE.search(before) or _IN_TOTAL_AFTER.match(sentence, match.end())
        if abstract or marked or (before.rstrip().lower().endswith("the") and words[:1] and words[0] in _INCLUDED):
            yield match.start(1), match.end(), stem(noun), value, _bound(before), " ".join(match.group(0).split())


def table_wholes(table: Table) -> Iterator[tuple[str, float, str, tuple[int, int]]]:
    """The wholes `table` gives: (the noun's stem, value, as written, the cell's source span); none for a noun it
    gives two wholes of."""
    found: dict[str, list[tuple[float, str, tuple[int, int]]]] = {}
    for noun, value, written, cell in (*_header_ns(table), *_total_rows(table), *_size_rows(table)):
        found.setdefault(stem(noun.lower()), []).append((value, written, (cell.start, cell.end)))
    for key, wholes in found.items():
        if len({value for value, _, _ in wholes}) == 1:
            yield key, *wholes[0]


def _header_ns(table: Table) -> Iterator[tuple[str, float, str, Cell]]:
    """A header's capital N beside its noun ("Number of evaluations, N=209"), or under the caption's ("Characteristics
    of the participants" over "Overall (N=120)"); a list of Ns ("N=7161, 7040") is one per group, no whole."""
    for row in table.rows[: table.header_rows]:
        for cell in row:
            for match in _HEADER_N.finditer(cell.text):
                nouns = _PLURAL.findall(cell.text[max(0, match.start() - _NOUN_REACH) : match.start()]) or _caption_nouns(table)
                if nouns and not _LISTED_AFTER.match(cell.text, match.end()):
                    yield nouns[-1], value_of(match.group(1)), " ".join(cell.text.split()), cell


def _total_rows(table: Table) -> Iterator[tuple[str, float, str, Cell]]:
    """The cells of a row named Total, All or Overall under a column whose header names what it counts ("Images")."""
    for row in table.rows[table.header_rows :]:
        if not row or not _TOTAL_ROW.fullmatch(row[0].text):
            continue
        for cell in row[1:]:
            nouns, count = _PLURAL.findall(table.column_header(cell.column)), _count_of(cell)
            if nouns and count is not None:
                yield nouns[-1], count, f"{row[0].text.strip()}: {cell.text.strip()} {nouns[-1]}", cell


def _size_rows(table: Table) -> Iterator[tuple[str, float, str, Cell]]:
    """A row that gives the sample's size ("Observations", "N", "Respondents") with one value in every column: each
    model fitted on one sample. Rows of several values are several samples, no whole."""
    for row in table.rows[table.header_rows :]:
        named = _SIZE_ROW.fullmatch(row[0].text) if row else None
        if named is None:
            continue
        cells = [cell for cell in row[1:] if cell.text.strip()]
        counts = [_count_of(cell) for cell in cells]
        values = {count for count in counts if count is not None}
        if named.group(1):
            nouns = [named.group(1)]
        else:
            nouns = ["observations"] if named.group(0).strip().lower().startswith("obs") else _caption_nouns(table)
        if len(values) == 1 and None not in counts and nouns:
            yield nouns[-1], values.pop(), f"{row[0].text.strip()}: {cells[0].text.strip()}", cells[0]


def _count_of(cell: Cell) -> float | None:
    """The count a cell writes alone ("1,792", "209 (100%)"), not a scaled or decimal value ("7B", "0.5")."""
    match = _PLAIN_COUNT.fullmatch(cell.text.strip())
    return value_of(match.group(1)) if match else None


def _caption_nouns(table: Table) -> list[str]:
    """The first plural noun of the caption that may be counted, not what a table reports of them ("characteristics")."""
    return [noun for noun in _PLURAL.findall(table.caption or "") if stem(noun.lower()) not in _REPORTED][:1]


def _held(table: Table) -> frozenset[float]:
    return frozenset(float(cell.value) for row in table.rows for cell in row if cell.value is not None)


@violation_type
class WholeRestated(Violation):
    """The whole `stated` here, but `told` in the table `where`."""

    stated: str
    told: str
    where: str

    @property
    def message(self) -> str:
        return f'"{self.stated}" here, but {self.where} gives the whole as "{self.told}"'

    @property
    def identity(self) -> str:
        return f"{self.stated} {self.told}"


def _feeds(part: list[TableWhole | ProseWhole]) -> object | None:
    """The tables' wholes, and the values the prose states wholes of each noun with: several values of one noun in
    the prose are several sets (each study's participants), and none of them is compared."""
    wholes = tuple(
        (item.key, item.value, item.written, tuple(sorted(item.held)), item.where) for item in part if isinstance(item, TableWhole)
    )
    stated = tuple(sorted({(item.key, item.value) for item in part if isinstance(item, ProseWhole) and not item.bound}))
    return (wholes, stated) if wholes or stated else None


class _Wholes(NamedTuple):
    """The tables' wholes by noun, and the values the prose states wholes of each noun with."""

    tables: dict[str, list[TableWhole]]
    stated: dict[str, set[float]]


def _shared(ctx: RuleContext, feeding: list[tuple[int, Section, list[TableWhole | ProseWhole]]]) -> _Wholes:
    wholes = _Wholes({}, {})
    for _, _, part in feeding:
        for item in part:
            if isinstance(item, TableWhole):
                wholes.tables.setdefault(item.key, []).append(item)
            elif not item.bound:
                wholes.stated.setdefault(item.key, set()).add(item.value)
    return wholes


def _against_tables(
    ctx: RuleContext, wholes: _Wholes, place: int, section: Section, part: list[TableWhole | ProseWhole]
) -> Iterator[Finding]:
    """Each whole the section's prose states against the one whole the tables give of its noun, when the prose
    states the whole of that noun with one value throughout."""
    for item in part:
        if not isinstance(item, ProseWhole) or len(wholes.stated.get(item.key, ())) > 1:
            continue
        tables = wholes.tables.get(item.key, [])
        if tables and len({table.value for table in tables}) == 1 and _differs(item, tables[0]):
            yield _reported(item, tables[0])


def _bound(before: str) -> str:
    """How the count before which `before` ends states the whole: as written, rounded, or as a bound."""
    match = _BOUND_BEFORE.search(before)
    return "" if match is None else ">" if match.group("above") else "<" if match.group("below") else "~"


def _within(bound: str, value: float, whole: float) -> bool:
    """Whether a bound or a rounded count holds the whole: "more than 500" of 1,050, "nearly 200" of 190, "about 60"
    of 63."""
    if bound == ">":
        return whole >= value
    if bound == "<":  # "nearly 200" is a little under it
        return (1 - _ROUGH) * value <= whole <= value
    return bound == "~" and abs(value - whole) <= _ROUGH * whole


def _differs(prose: ProseWhole, table: TableWhole) -> bool:
    """The prose's whole is another than the table's: not a number the table writes (a part it breaks down), not
    the table's rounded, and its sentence does not write the table's too."""
    if prose.value in table.held or _within(prose.bound, prose.value, table.value):
        return False
    # One set restated differs by what was added or excluded; wholes further apart count two sets ("all 11
    # languages" of the experiments, the "Total: 7,111" languages of the world).
    if min(prose.value, table.value) < _NEAR * max(prose.value, table.value):
        return False
    return re.search(r"(?<![\w.])" + re.escape(f"{table.value:g}") + r"(?![\w]|\.\d)", prose.sentence.replace(",", "")) is None


def _reported(prose: ProseWhole, table: TableWhole) -> Finding:
    violation = WholeRestated(prose.written, table.written, table.where)
    noun = prose.written.split()[-1]
    sides = [
        Statement(file=prose.anchor.file, range=prose.anchor.range, quote=prose.sentence, subject=noun, role="whole count"),
        Statement(file=table.related.file, range=table.related.range, quote=table.written, subject=noun, role="whole count"),
    ]
    reason = f"the prose states {prose.written} as the whole, and the table gives the whole as {table.written}"
    evidence = Evidence(kind=prose.evidence, statements=sides, reason=reason)
    update = {
        "message": violation.message,
        "identity": violation.identity,
        "related": [table.related],
        "confidence": 0.6,
        "evidence": evidence,
    }
    return prose.anchor.model_copy(update=update)


@rule(
    "CNT006",
    "whole-count-restated",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=Pairwise(_feeds, _shared, _against_tables),
)
def whole_count_restated(ctx: RuleContext, section: Section) -> list[TableWhole | ProseWhole]:
    """## What it does
    Flags the whole of a counted set that the prose and a table give with two values: the abstract's
    "we identified 57 studies containing 196 unique evaluations" against Table 1's headers "Number (%)
    of evaluations, N=209" and "Count of unique studies, N=63"; "a total of 1,750 images" against a
    Total row of 1,792 under "Images". Parts, splits and bounds are left alone (see How it decides).

    ## Why is this bad?
    The whole sample is what every percentage and test of the paper is taken over; a table and a
    sentence that disagree on it mean that one was written before the sample changed (studies added
    to a review, participants excluded), and the reader cannot tell which numbers the analysis used.

    ## Example
    ```latex
    \\begin{abstract} We identified 57 studies containing 196 unique evaluations. \\end{abstract}
    ...
    Characteristic & Number (\\%) of evaluations, N=209 & Count of unique studies, N=63 \\\\
    ```

    ## Use instead
    The same whole in the prose and the table, or say which part the prose counts.

    ## Evidence
    "moderate: counts: the abstract's count against a table's whole" or "moderate: counts: a body
    count marked whole against a table's whole"; confidence 0.6. Their measured precision decides
    whether a finding is information or a hint.
    """
    found: list[TableWhole | ProseWhole] = []
    abstract = section.kind is SectionKind.ABSTRACT
    evidence = _ABSTRACT if abstract else _MARKED
    for placed in section.blocks:
        shown = shown_table(placed)
        if shown is not None:
            where = f"Table {shown.labels[0]}" if shown.labels else "the table"
            wholes = list(table_wholes(shown.table))
            held = _held(shown.table) if wholes else frozenset()
            for key, value, written, (start, end) in wholes:
                related = ctx.related(placed.file, start, end, f"the table's whole: {written}")
                found.append(TableWhole(key, value, written, held, where, related))
        text = placed.block.plain.text
        if placed.kind not in PROSE_KINDS or not _may_hold(text, abstract):
            continue
        for begin, finish in sentence_spans(text):
            sentence = text[begin:finish]
            if not _may_hold(sentence, abstract):
                continue
            for start, end, key, value, bound, written in prose_wholes(sentence, abstract):
                anchor = ctx.report_block(placed, begin + start, begin + end, "")
                found.append(ProseWhole(key, value, bound, written, " ".join(sentence.split()), evidence, anchor))
    return found


@lru_cache(maxsize=TEXT_CACHE_SIZE)  # kept by text: a section's walk asks of each of its blocks on every edit
def _may_hold(text: str, abstract: bool) -> bool:
    """Whether `text` may state a whole: a digit, and in the body a word that marks one (plain substring tests, far
    cheaper than reading)."""
    return HAS_DIGIT(text) is not None and (abstract or any(word in text for word in _MARKS_WHOLE))


# What every whole of the body has: "a total of", "in total", "all", "the entire", "the 57 included", "took part", a capital N.
_MARKS_WHOLE = tuple(
    "otal|all |All |ltogether|verall|ntire|full|whole|omplete|final|nalytic|included|eligible|took part|participated|N=|N =".split("|")
)
_ABSTRACT = "moderate: counts: the abstract's count against a table's whole"
_MARKED = "moderate: counts: a body count marked whole against a table's whole"
