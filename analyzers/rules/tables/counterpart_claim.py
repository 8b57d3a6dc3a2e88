"""TAB010: a claim made of every pair of counterpart lines of a table ("all sentence-level metrics show higher correlations than their corpus-level counterparts") that one pair reverses.

## How it decides
The sentence compares a group with its counterparts: a raw order ("higher / lower / greater /
smaller … than") or a win or loss ("better / worse … than", "outperforms") whose other side is
"their / its / the <B> counterparts" or "the <B> <noun>". The words between the determiner and
"counterparts" (or the noun) are B, the other group's mark ("corpus-level", "non-aggregated").
The group's own mark, A, is a word of the clause before the comparison.

The table is one the sentence cites, else one its paragraph cites, else, in a paragraph that cites
nothing, one its section cites or places (a class of its own: a table presented in one paragraph is
often concluded on two paragraphs later). Its columns are paired when
one column's name, with A written as B, is another column's name ("Sentence-Level Metrics CoNLL
r" and "Corpus-Level Metrics CoNLL r"); else its rows are paired the same way. The claim must be
made of every pair: it says "all", "each", "every", "consistently" or "always", or it speaks of
"counterparts" in the plural. Each pair is compared line by line (every row of a column pair, every
column of a row pair; only the rows or columns the sentence names, when it names some). A win or
loss needs the column's direction (↑/↓, the metric's name, the caption); a raw order does not.

One pair against the claim beyond the rounding of both cells is a contradiction: the sentence
claims it of every pair. Equal cells against a raw order ("higher") are their own, weaker class,
reported only where no pair reverses. Hedged or negated sentences ("most", "generally", "on
average", "except", "not") are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ...context import RuleContext, Spot
from ...finding import Category, Evidence, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...quantities import name_words, slack, without_refs
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from .citing import SECTIONED, claim_finding, claim_sentences, section_cited
from .model import Grid, LabelledTable, against_cited, cited_tables, fed_tables, labelled_tables
from .row_naming import names_row


@violation_type
class CounterpartReversed(Violation):
    claim: str  # "higher correlations than their corpus-level counterparts"
    table: str
    cells: str  # "GREEN: Sentence-Level SEEDA 0.902 vs Corpus-Level SEEDA 0.920"
    reversed: int  # how many compared lines go against the claim
    compared: int  # how many lines the claim covers
    tie: bool  # the lines are equal, rather than reversed

    @property
    def message(self) -> str:
        broken = "ties" if self.tie else "goes the other way"
        return (
            f'the text claims "{self.claim}" of every pair, but in Table {self.table} {self.reversed} of '
            f"{self.compared} compared pairs {broken}: {self.cells}"
        )

    @property
    def identity(self) -> str:
        return f"{self.table} {self.claim}"


_CLAIM = DeferredPattern(
    r"\b(?:(?:(?P<up>higher|greater|larger|more)|(?P<down>lower|smaller|fewer|less)|(?P<win>better)|(?P<loss>worse))"
    r"(?:\s+[\w-]+){0,3}?\s+than|(?P<outperform>outperform(?:s|ed)?)|(?P<underperform>underperform(?:s|ed)?))"
    r"\s+(?:their|its|the)\s+(?P<other>[\w-]+(?:\s+[\w-]+)??)\s+(?P<head>counterparts?|[\w-]+)\b",
    re.IGNORECASE,
)
_EVERY = DeferredPattern(r"\b(?:all|each|every|consistently|always|uniformly|invariably)\b", re.IGNORECASE)
_HEDGED = DeferredPattern(
    r"\b(?:most|majority|many|several|some|average|overall|generally|typically|usually|often|tend\w*|mostly|largely|almost|"
    r"nearly|except|but|apart\s+from|excluding|other\s+than|not|no|never|n't|if|whether|would|could|should|expect\w*|hypothes\w*)\b",
    re.IGNORECASE,
)
# The comparison's group in `_CLAIM` and what it claims: a raw order, or a win or loss read against the column's direction.
_SENSES = {"up": "up", "down": "down", "win": "win", "loss": "loss", "outperform": "win", "underperform": "loss"}
_NOT_A_MARK = frozenset({"all", "the", "each", "every", "our", "their", "its", "these", "those", "both", "show", "shows", "have", "has"})


@dataclass(frozen=True, slots=True, eq=False)
class _CounterpartClaim:
    labels: tuple[str, ...]
    sentence: str
    claim: str
    sense: str  # "up", "down", "win" or "loss"
    marks: tuple[str, ...]  # the candidate marks of the subject's group (A)
    other: str  # the counterparts' mark (B)
    spot: Spot
    sectioned: bool  # its paragraph cites nothing: the tables are those its section cites


@dataclass(frozen=True, slots=True)
class _Against:
    lines: list[tuple[str, Cell, Cell]]  # (the pair as shown, the group's cell, its counterpart's)
    compared: int
    tie: bool


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _may_claim(text: str) -> bool:
    return _CLAIM.search(text) is not None


def _claims(ctx: RuleContext, placed: PlacedBlock, in_section: tuple[str, ...]) -> Iterator[_CounterpartClaim]:
    for start, sentence, labels, sectioned in claim_sentences(placed, in_section):
        found, prose = list(_CLAIM.finditer(sentence)), without_refs(sentence)  # a label's words hedge nothing
        if len(found) != 1 or _HEDGED.search(prose):
            continue
        match = found[0]
        counterparts = match.group("head").lower() == "counterparts"
        other = match.group("other") if match.group("head").lower().startswith("counterpart") else None
        subject = re.split(r"[,;:()]", sentence[: match.start()])[-1]
        if other is None:  # "than the UNMT models": the head noun is the subject's noun
            if match.group("head").lower() not in subject.lower().split():
                continue
            other = match.group("other")
        if not (counterparts or _EVERY.search(prose)):
            continue
        marks = tuple(word for word in re.findall(r"[\w-]+", subject) if len(word) > 1 and word.lower() not in _NOT_A_MARK)
        sense = next(name for name in _SENSES if match.group(name))
        spot = ctx.spot(placed, start + match.start(), start + match.end())
        yield _CounterpartClaim(labels, sentence, " ".join(match.group(0).split()), _SENSES[sense], marks, other, spot, sectioned)


def _pairs(names: dict[int, str], mark: str, other: str) -> list[tuple[int, int]]:
    """Lines whose name, with `mark` written as `other`, is another line's name."""
    own = re.compile(rf"(?<![\w-]){re.escape(mark.lower())}(?![\w-])")
    by_name = {name: line for line, name in names.items()}
    pairs = []
    for line, name in names.items():
        swapped = own.sub(other.lower(), name) if own.search(name) else None
        if swapped is not None and swapped != name and (counterpart := by_name.get(swapped)) is not None:
            pairs.append((line, counterpart))
    return pairs


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


def _against(grid: Grid, claim: _CounterpartClaim) -> _Against | None:
    """The pairs of counterpart lines, and each compared line against the claim."""
    rows = [row for row in grid.body_rows() if not grid.is_reference(row)]
    columns = list(grid.columns())
    words = name_words(claim.sentence)
    named_rows = [row for row in rows if names_row(grid.row_header(row), words, False)]
    named_columns = [column for column in columns if words & name_words(grid.own_header(column))]
    column_names = {column: _normal(grid.column_name(column)) for column in columns}
    row_names = {row: _normal(grid.row_header(row)) for row in rows}
    for mark in claim.marks:
        if column_pairs := _pairs(column_names, mark, claim.other):
            compared = [
                (grid.row_header(row), (grid.column_name(a), (row, a)), (grid.column_name(b), (row, b)))
                for a, b in column_pairs
                for row in named_rows or rows
            ]
        elif row_pairs := _pairs(row_names, mark, claim.other):
            compared = [
                (grid.column_name(c), (grid.row_header(a), (a, c)), (grid.row_header(b), (b, c)))
                for a, b in row_pairs
                for c in named_columns or columns
            ]
        else:
            continue
        return _judged(grid, claim, compared)
    return None


# A compared line: where it is (a row, or a column), and each side's name and cell address.
_Side = tuple[str, tuple[int, int]]


def _judged(grid: Grid, claim: _CounterpartClaim, compared: list[tuple[str, _Side, _Side]]) -> _Against | None:
    reversed_, tied, total = [], [], 0
    for line, (mine_name, mine), (theirs_name, theirs) in compared:
        first, second = grid.numeric(*mine), grid.numeric(*theirs)
        sense = {"up": 1, "down": -1}.get(claim.sense)
        if sense is None:
            sense = grid.direction(theirs[1])[0] * (1 if claim.sense == "win" else -1)
        if first is None or second is None or not sense:
            continue
        total += 1
        shown = " ".join(f"{line}: {mine_name} {first.text} vs {theirs_name} {second.text}".split())
        if sense * (second.value - first.value) > slack(min(first.decimals, second.decimals)):  # type: ignore[operator]
            reversed_.append((shown, first, second))
        elif first.value == second.value and claim.sense in ("up", "down"):
            tied.append((shown, first, second))
    if total < 2 or not (reversed_ or tied):
        return None
    return _Against(reversed_ or tied, total, not reversed_)


def _report(ctx: RuleContext, claim: _CounterpartClaim, label: str, cited: LabelledTable, found: _Against) -> Finding:
    printed = ctx.index.printed
    cells = "; ".join(printed(shown) for shown, _, _ in found.lines[:3])
    violation = CounterpartReversed(claim.claim, label, cells, len(found.lines), found.compared, found.tie)
    kind = (
        "weak: a counterpart pair ties where an order is claimed of every pair"
        if found.tie
        else "weak: a counterpart pair reverses a claim made of every pair"
    )
    kind += f", {SECTIONED}" if claim.sectioned else ""
    evidence = Evidence(kind=kind, reason=f"{len(found.lines)} of {found.compared} compared pairs against the claim")
    _, mine, theirs = found.lines[0]
    return claim_finding(ctx, cited, claim.spot, violation, (mine, theirs), "counterpart", evidence)


@rule(
    "TAB010",
    "counterpart-claim-contradicts-table",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_tables, cited_tables, against_cited(_CounterpartClaim, _against, _report)),
)
def counterpart_claim_contradicts_table(ctx: RuleContext, section: Section) -> Iterator[LabelledTable | _CounterpartClaim]:
    """## What it does
    Flags a sentence that orders every member of a group above (or below) its counterpart
    ("all sentence-level metrics show higher correlations than their corpus-level
    counterparts", "the aggregated solvers consistently need less memory than the
    non-aggregated solvers") when one pair of counterpart lines of the cited table goes the other way.

    ## Why is this bad?
    The claim is made of every pair; one pair that reverses it is a counterexample the reader
    finds in the table the sentence cites, and the conclusion drawn from the pattern is weaker
    than the sentence says.

    ## Example
    ```latex
    All sentence-level metrics show higher correlations than their corpus-level counterparts
    (Table~\\ref{tab:corr}).
    % tab:corr: & Corpus-Level & Sentence-Level \\\\ GLEU & 0.91 & 0.90 \\\\
    ```

    ## Use instead
    ```latex
    All sentence-level metrics but GLEU show higher correlations than their corpus-level
    counterparts (Table~\\ref{tab:corr}).
    ```

    ## Evidence
    "weak: a counterpart pair reverses a claim made of every pair"; "weak: a counterpart pair
    ties where an order is claimed of every pair"; each read in a paragraph citing nothing, against
    a table its section cites, is its own class.

    ## Fix safety
    No fix: the sentence or the table may be the one that is wrong.
    """
    yield from labelled_tables(ctx, section)
    in_section = section_cited(section)
    for placed in section.blocks:
        if placed.kind.value == "paragraph" and _may_claim(placed.block.plain.text):
            yield from _claims(ctx, placed, in_section)
