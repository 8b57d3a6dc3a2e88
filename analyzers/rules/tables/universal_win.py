"""TAB017: a win claimed in every column ("X outperforms all baselines on every benchmark") that a column of the cited table denies.

## How it decides
A clause claims a win over every competitor: a win ("outperforms", "surpasses", "beats", "is better than", "is
superior to") whose other side is every other method ("all baselines", "all compared methods", "every competitor",
"other losses", "the state of the art"), or the best ("achieves the best results", "is the best"; "highest" and
"lowest" are TAB003's, read by the claim's word), and claims it of every line: "on all datasets", "across every
benchmark", "across different datasets", "in all cases", "consistently". A clause that hedges or scopes the claim
("most", "nearly all", "but", "among …", "without extra data", "comparable or better", "on average", "second best",
"not") is left alone; "except MNIST" is read as a scope: the columns it names are left out, and a scope that names no
column leaves the clause alone. The table is one the sentence cites, else one its paragraph cites, else, in a
paragraph citing nothing, one its section cites or places.

The words of the clause before the claim name the claimed rows (by their own words, or "our method" and "the
proposed method" for the rows marked "Ours"). The competitors are the table's other rows, less references (oracle,
human, upper bound, extra data) and the author's own variants (a row marked "Ours", or sharing a word of the claim's
subject: an ablation). The columns are those the sentence names (a metric, a dataset), else every numeric column but
those of cost (parameters, time, memory, FLOPs), which an accuracy claim does not speak of. A table that stacks one
block of the same methods per dataset is read block by block.

This rule reads a table that leaves the better side of a compared column unsaid (no ↑/↓, no metric's name, no note):
TAB003 and TAB007 read one that says every column's, and are silent on one that does not. There the claim fails where
competitors sit on both sides of the claimed rows beyond rounding (one above, one below): whichever side is better,
one of them beats it. A win over every competitor is read also against the columns whose better side the table says,
a competitor better than every claimed row beyond the rounding of both cells denying it; in a table that says every
column's, only where TAB007 does not read its other side ("the state of the art", "all compared methods", "every
competitor"; TAB007 reads "all other methods", "the baselines").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ....latex.record import record
from ...context import RuleContext, Spot
from ...finding import Category, Evidence, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...prefilter import may_match
from ...quantities import name_words, referenced_labels, without_refs
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from ..printed_tables import literal_refs
from .blocks import contests
from .citing import SECTIONED, claim_finding, claim_sentences, section_cited
from .model import (
    CONTRAST,
    DIRECTION_WEIGHT,
    EITHER_SIDE,
    EVERY_OTHER,
    UNIVERSAL,
    WITHIN_SPREAD,
    Grid,
    LabelledTable,
    against_cited,
    beaten,
    cited_tables,
    contrast_clauses,
    fed_tables,
    labelled_tables,
    spread_overlaps,
)
from .row_naming import OURS, names_row


@violation_type
class UniversalWinDenied(Violation):
    subject: str  # the claimed row, as printed
    claim: str  # "outperforms all baselines", or "best"
    table: str
    denied: int
    compared: int
    cells: str  # "C: 83.5 vs 84.3 for Prior"

    @property
    def message(self) -> str:
        said = f'says {self.subject} "{self.claim}"' if self.claim != "best" else f"claims the best for {self.subject}"
        return (
            f"the text {said} in every column, but Table {self.table} denies it in {self.denied} of {self.compared} columns: {self.cells}"
        )

    @property
    def identity(self) -> str:
        return f"{self.table} {self.subject} {self.claim}"


_WIN = DeferredPattern(
    r"\b(?:outperform(?:s|ed|ing)?|surpass(?:es|ed|ing)?|beats?|beating|(?:is|are|was|were|performs?|performed|does|did)"
    r"\s+(?:\w+\s+)?better\s+than|(?:is|are|was|were)\s+superior\s+to)\b",
    re.IGNORECASE,
)
# Where the other side ends: the next clause or a qualifier ("on every benchmark", "in Table 2").
_OBJECT_END = DeferredPattern(r"[,;:()]|\b(?:on|in|for|across|by|at|under|when|as|using|over|with|and|while|whereas)\b", re.IGNORECASE)
# The other side as every competitor: "all baselines", "all compared methods", "every competitor", "the state of the art".
_EVERY_COMPETITOR = DeferredPattern(
    r"^\s*(?:(?:all|every|each)\s+(?:of\s+)?)?(?:the\s+)?(?:(?:other|previous|prior|existing|competing|compared|considered|"
    r"evaluated|baseline|current|recent|strong|leading|state[- ]of[- ]the[- ]art|sota)\s+){0,3}"
    r"(?:baselines|methods|approaches|models|competitors|works|systems|alternatives|techniques|algorithms|detectors|"
    r"trackers|solutions|(?:baseline|method|approach|model|competitor|system))\s*$"
    r"|^\s*(?:(?:all|every|each)\s+)?(?:the\s+)?(?:other|previous|prior|existing|competing|compared|considered|evaluated)\s+"
    r"[\w-]+s\s*$"
    r"|^\s*(?:the\s+)?(?:current\s+)?(?:state[- ]of[- ]the[- ]art|sota)\s*$",
    re.IGNORECASE,
)
# The claim of the best, which names no side of the column ("highest" and "lowest" do: TAB003 reads them by the claim's
# word), unless it names the competitors ("state-of-the-art methods") or is no claim ("to the best of our knowledge",
# "at best", "best-first search").
# The words every win (`_WIN`) or best (`_BEST`) holds: "state" for the state of the art.
_CLAIM_WORDS = ("outperform", "surpass", "beat", "better", "superior", "best", "top", "state", "sota")
_BEST = DeferredPattern(
    r"(?<!\bat\s)\b(?:best|top|state[- ]of[- ]the[- ]art|sota)\b(?!-|\s+of\s+(?:our|my)\s+knowledge|\s+(?:[\w-]+\s+)?(?:baselines?|"
    r"methods?|models?|approaches|systems?|works?|competitors?|algorithms?|techniques?|alternatives?)\b)",
    re.IGNORECASE,
)
# A claim made of every line, beside `UNIVERSAL`: "across different datasets", "across the benchmarks evaluated".
_ACROSS_LINES = DeferredPattern(
    r"\bacross\s+(?:the\s+)?(?:different\s+|various\s+|several\s+)?(?:[\w-]+\s+)?(?:datasets|benchmarks|tasks|metrics|"
    r"settings|domains|languages|splits|scenarios|environments|games|corpora|categories|conditions)\b",
    re.IGNORECASE,
)
# A scope of the claim that names the lines it leaves out ("on every task except MNIST"): the other lines are claimed.
_EXCEPTED = DeferredPattern(
    r"\b(?:except(?:\s+for)?|excluding|apart\s+from|other\s+than|save\s+for)\s+(?:on\s+|for\s+|in\s+)?(?:the\s+)?(?P<lines>[^,;:()]+)",
    re.IGNORECASE,
)
# A singular other side is one competitor ("the previous method"), unless a quantifier makes it every one.
_EVERY_ONE = DeferredPattern(r"^\s*(?:all|every|each)\b|(?:s|state[- ]of[- ]the[- ]art|sota)\s*$", re.IGNORECASE)
_HEDGED = DeferredPattern(
    r"\b(?:most|majority|many|several|some|almost|nearly|mostly|largely|generally|typically|usually|often|overall|average|"
    r"except|excluding|apart\s+from|other\s+than|save|but|among|amongst|without|extra|additional|comparabl[ey]|on\s+par|"
    r"second|third|runner|close|knowledge|within|"
    r"competitive|similar|equal|match(?:es|ing)?|not|no|never|fails?|if|whether|would|could|should|expect\w*|hypothes\w*|"
    r"respectively)\b|n't\b",
    re.IGNORECASE,
)
# Columns of cost, not of the metric a win is claimed on.
_COST = DeferredPattern(
    r"\b(?:params?|parameters|#\s*params?|flops|gflops|macs|time|runtime|latency|speed|fps|throughput|memory|mem|size|"
    r"gpus?|hours?|hrs|sec|seconds|ms|epochs?|steps|iterations|year)\b|#",
    re.IGNORECASE,
)
_OURS_WEIGHT = 0.9  # "our method" read as the rows marked "Ours"


@record(slots=True, eq=False)
class _WinClaim:
    labels: tuple[str, ...]
    subject: str  # the clause's words before the win
    other: str  # the other side as written: "all baselines"
    claim: str  # the win and its other side: "outperforms all baselines"
    sentence: str  # the clause, for the columns it names
    spot: Spot
    nearby: bool  # the sentence cites no table: its paragraph (or section) does
    sectioned: bool  # its paragraph cites nothing: the tables are those its section cites
    win: bool  # a win over every competitor ("outperforms all baselines"), not a claim of the best
    excepted: str  # the scope that leaves lines out: "except MNIST"


@record(slots=True, eq=False)
class _Denial:
    subject: str  # the claimed row's header
    against: list[tuple[str, Cell, Cell, str]]  # (column, the claimed cell, a better or bracketing cell, its row)
    compared: int
    source: str  # where the first denying line's direction was read; EITHER_SIDE where the table says none
    ours: bool  # the claimed rows are those marked "Ours"
    blockwise: bool


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _may_claim(text: str) -> bool:
    """Cached by block text: most paragraphs claim no win, and an edit leaves the others alone."""
    return may_match(text, _CLAIM_WORDS) and (_WIN.search(text) or _BEST.search(text)) is not None


def _claims(ctx: RuleContext, placed: PlacedBlock, in_section: tuple[str, ...]) -> Iterator[_WinClaim]:
    for start, sentence, labels, sectioned in claim_sentences(placed, in_section):
        nearby = sectioned or not (referenced_labels(sentence) or literal_refs(sentence))
        for begin, clause in contrast_clauses(sentence):
            excepted = _every_line(without_refs(CONTRAST.sub(" ", clause)))
            claim = _win_over_every_competitor(clause) or _best(clause)
            if excepted is not None and claim is not None:
                (claim_start, claim_end), other = claim
                subject = next((part for part in reversed(re.split(r"[,;:()]", clause[:claim_start])) if re.search(r"\w", part)), "")
                spot = ctx.spot(placed, start + begin + claim_start, start + begin + claim_end)
                said = " ".join(f"{clause[claim_start:claim_end]} {other}".split()) if other else "best"
                yield _WinClaim(labels, subject, other, said, clause, spot, nearby, sectioned, bool(other), excepted)


def _every_line(prose: str) -> str | None:
    """For a clause claiming every line, unhedged, the scope that leaves lines out ("except MNIST"; "" for none);
    None for any other clause."""
    if not (UNIVERSAL.search(prose) or _ACROSS_LINES.search(prose)):
        return None
    excepted = " ".join(match.group("lines") for match in _EXCEPTED.finditer(prose))
    return None if _HEDGED.search(_ACROSS_LINES.sub(" ", UNIVERSAL.sub(" ", _EXCEPTED.sub(" ", prose)))) else excepted


def _win_over_every_competitor(clause: str) -> tuple[tuple[int, int], str] | None:
    """The clause's win over every competitor ("outperforms all baselines") and its other side."""
    win = _WIN.search(clause)
    if win is None:
        return None
    other = _OBJECT_END.split(clause[win.end() :], maxsplit=1)[0]
    return (win.span(), other) if _EVERY_COMPETITOR.match(other) and _EVERY_ONE.search(other) else None


def _best(clause: str) -> tuple[tuple[int, int], str] | None:
    """The clause's claim of the best ("the best performance"), which names no other side: every other row is one."""
    best = _BEST.search(without_refs(clause))
    return (best.span(), "") if best is not None and _WIN.search(clause) is None else None


def _denied(grid: Grid, claim: _WinClaim) -> _Denial | None:
    """The lines where a competitor beats every claimed row: by the better side the table says, or, where it says
    none, with competitors on both sides of the claimed rows."""
    subject_words, ours = name_words(claim.subject), bool(OURS.search(claim.subject))
    rows = [row for row in grid.body_rows() if not grid.is_reference(row)]
    claimed = {row for row in rows if names_row(grid.row_header(row), subject_words, ours)}
    named = any(names_row(grid.row_header(row), subject_words, False) for row in claimed)
    competitors = [
        row
        for row in rows
        if row not in claimed
        and not re.search(r"\bours\b", grid.row_header(row), re.IGNORECASE)
        and not (name_words(grid.row_header(row)) & subject_words)
    ]
    if not claimed or not competitors:
        return None
    columns, named_columns = _columns(grid, claim)
    if named_columns and not claim.win:
        return None  # the best in the columns a sentence names is TAB003's, in every column its own or not
    lines = [(column, cells) for column in columns if _contested(cells := _cells(grid, column, claimed, competitors), claimed)]
    if (EVERY_OTHER.match(claim.other) or not claim.win) and all(grid.direction(column)[0] for column, _ in lines):
        return None  # TAB003 and TAB007 read "the best" and a win over "all other methods" where the table says every side
    against, sources, blockwise = [], [], False
    for column, cells in lines:
        sense, source = grid.direction(column)
        if sense and not claim.win:
            continue  # the best in a column whose better side the table says: TAB003's
        groups = contests(grid, [row for row in rows if row in claimed or row in competitors], claimed, cells)
        blockwise = blockwise or len(groups) > 1
        found = next((pair for group in groups if (pair := beaten(group, claimed, sense))), None)
        if found is not None:
            against.append((_printed_header(grid, column), *found, " ".join(grid.row_header(found[1].row).split())))
            sources.append(source if sense else EITHER_SIDE)
    compared = len(lines)
    if compared < 2 or not against:
        return None
    subject = " ".join(grid.row_header(min(claimed)).split())
    return _Denial(subject, against, compared, sources[0], ours and not named, blockwise)


def _cells(grid: Grid, column: int, claimed: set[int], competitors: list[int]) -> list[Cell]:
    return [cell for row in (*claimed, *competitors) if (cell := grid.numeric(row, column))]


def _contested(cells: list[Cell], claimed: set[int]) -> bool:
    """The column holds a claimed row's number and a competitor's."""
    return any(cell.row in claimed for cell in cells) and any(cell.row not in claimed for cell in cells)


def _columns(grid: Grid, claim: _WinClaim) -> tuple[list[int], bool]:
    """The columns the clause names beside its subject and other side (a metric, a dataset), else every numeric
    column but those of cost and references; less those its scope leaves out ("except MNIST"), and none when that
    scope names no column; and whether the clause names them."""
    left_out = name_words(claim.excepted)
    words = name_words(claim.sentence) - name_words(claim.subject) - name_words(claim.other) - left_out
    columns = [column for column in grid.columns() if column not in grid.mark_columns and not grid.is_reference_column(column)]
    excepted = [column for column in columns if left_out & _header_words(grid, column)]
    if left_out and not excepted:
        return [], False
    columns = [column for column in columns if column not in excepted]
    named = [column for column in columns if words & _header_words(grid, column)]
    return (named, True) if named else ([column for column in columns if not _COST.search(grid.column_header(column))], False)


def _header_words(grid: Grid, column: int) -> set[str]:
    return name_words(grid.own_header(column)) | name_words(grid.column_header(column))


def _printed_header(grid: Grid, column: int) -> str:
    """The column's name without its ↑/↓: the message says which cell is better."""
    return " ".join(grid.column_name(column).replace("↑", "").replace("↓", "").split())


def _report(ctx: RuleContext, claim: _WinClaim, label: str, cited: LabelledTable, found: _Denial) -> Finding:
    printed = ctx.index.printed
    cells = "; ".join(printed(f"{line} {mine.text} vs {theirs.text} for {row}") for line, mine, theirs, row in found.against[:3])
    violation = UniversalWinDenied(printed(found.subject), claim.claim, label, len(found.against), found.compared, cells)
    _, mine, theirs, _ = found.against[0]
    confidence = (
        DIRECTION_WEIGHT[found.source] * (_OURS_WEIGHT if found.ours else 1.0) * (WITHIN_SPREAD if spread_overlaps(mine, theirs) else 1.0)
    )
    qualifiers = [
        words
        for words, holds in (
            ("competitors on both sides, its better side unsaid", found.source == EITHER_SIDE),
            ("read block by block", found.blockwise),
            ("in a table its paragraph cites", claim.nearby and not claim.sectioned),
            (SECTIONED, claim.sectioned),
        )
        if holds
    ]
    evidence = Evidence(
        kind=", ".join(["weak: a column against a win claimed over every competitor in every column", *qualifiers]),
        reason=f"{len(found.against)} of {found.compared} compared columns against the claim",
    )
    return claim_finding(ctx, cited, claim.spot, violation, (mine, theirs), "better", evidence, confidence=round(confidence, 3))


@rule(
    "TAB017",
    "universal-win-contradicts-table",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_tables, cited_tables, against_cited(_WinClaim, _denied, _report)),
)
def universal_win_contradicts_table(ctx: RuleContext, section: Section) -> Iterator[LabelledTable | _WinClaim]:
    """## What it does
    Flags a clause that claims a method wins in every column ("X outperforms all baselines
    on every benchmark", "X achieves the best results across different datasets", "X is the
    best on every task except Y") when the table it cites does not say which side of a column
    is better and a column has competitors both above and below X: whichever side is better,
    one of them beats X there. A win over every competitor ("surpasses the state of the art",
    "outperforms all compared methods") is also read against the columns whose better side the
    table says ("all other methods" there is TAB007's). Hedged claims ("most", "comparable or better",
    "among methods without extra data") are left alone; an "except" scope leaves its columns
    out; cost columns (parameters, time) and reference rows (oracle, upper bound) are not read.

    ## Why is this bad?
    "Outperforms all baselines on every benchmark" is the sentence a results section is read
    for; a reviewer checks every column, and one where a baseline is ahead makes the claim false
    as written.

    ## Example
    ```latex
    As Table~\\ref{tab:main} shows, FooNet outperforms all baselines on every benchmark.
    % tab:main: Method & A & B & C & D \\\\ Base & 71.2 & 65.3 & 80.1 & 55.4 \\\\
    % Prior & 74.5 & 66.1 & 84.3 & 57.9 \\\\ FooNet & 77.3 & 69.0 & 83.5 & 60.2 \\\\
    ```

    ## Use instead
    ```latex
    As Table~\\ref{tab:main} shows, FooNet outperforms all baselines on every benchmark except C.
    ```

    ## Evidence
    "weak: a column against a win claimed over every competitor in every column"; read in a column
    whose better side the table does not say (competitors on both sides), block by block, or in a
    table the paragraph (or the section) cites, each its own class.

    ## Confidence
    0.6 for a column whose better side the table does not say; where it says, the weight of where
    (↑/↓ 1.0, the metric's name 0.95, a note 0.9, the caption 0.85); times 0.9 when "our method"
    is read as the rows marked "Ours", times 0.85 when the gap is within the cells' ± spreads.

    ## Fix safety
    No fix: the sentence or the table may be the one that is wrong.
    """
    yield from labelled_tables(ctx, section)
    in_section = section_cited(section)
    for placed in section.blocks:
        if placed.kind.value == "paragraph" and _may_claim(placed.block.plain.text):
            yield from _claims(ctx, placed, in_section)
