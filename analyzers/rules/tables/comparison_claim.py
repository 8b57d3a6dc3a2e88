"""TAB007: a sentence comparing two rows of a table it cites ("X outperforms Y") that every named cell contradicts.

## How it decides
The sentence must cite a table (`\\ref{tab:…}`) and hold one comparison: a verb that claims a win
("outperforms", "beats", "surpasses", "is better than"), a loss ("underperforms", "is worse than")
or a raw order ("higher / lower / greater / smaller than", "exceeds"). The words of the clause
before the comparison must name exactly one row of the table (all of its distinctive words), and
the words after it, up to the next clause, exactly one other row. The columns compared are those
whose header the rest of the sentence names (a metric, a dataset); when it names none, every
numeric column. A win or loss needs each column's direction (↑/↓, the metric's name, the
caption); a raw order does not.

It flags only when every compared column contradicts the claim beyond the rounding of both cells:
a tie or one agreeing column leaves the sentence alone. A claim made of every column
("consistently outperforms", "is better than Y in all cases", "across all datasets") is denied by
one column that reverses it, and is flagged when one does. Sentences that hedge or scope the claim
("on most datasets", "on average", "except", "not", "respectively", "if", "expected") are left
alone, and so are reference rows (oracle, human, upper bound).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ....latex.sentences import sentence_spans
from ...context import RuleContext, Spot
from ...finding import Category, Evidence, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...quantities import name_words, sentence_refs, slack, speaks_of_tables
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from .model import OURS, Grid, LabelledTable, author_rule_macros, cited_tables, fed_tables, labelled_tables, names_row, read_direction


@violation_type
class ComparisonContradicted(Violation):
    claim: str  # the comparison as written: "outperforms", "lower than"
    table: str  # the cited label
    subject: str  # the subject row, as printed
    other: str  # the compared row, as printed
    cells: str  # "Acc 81.2 vs 83.0; F1 …"
    compared: int = 0  # for a claim made of every column ("consistently"), how many it covers

    @property
    def message(self) -> str:
        where = f" in {self.cells.count(';') + 1} of its {self.compared} columns" if self.compared else ""
        return f'the text says {self.subject} "{self.claim}" {self.other}, but Table {self.table} shows the opposite{where}: {self.cells}'

    @property
    def identity(self) -> str:
        return f"{self.table} {self.subject} {self.other} {self.claim}"


# The comparison and what it claims: +1 a win, -1 a loss (both read against the column's direction),
# "raw+" / "raw-" the subject's value above or below the other's.
_COMPARISON = re.compile(
    r"\b(?:(?P<win>outperform(?:s|ed)?|beats|beat|surpass(?:es|ed)?|(?:performs?|performed|is|are|was|were)\s+better\s+than)"
    r"|(?P<loss>underperform(?:s|ed)?|(?:performs?|performed|is|are|was|were)\s+worse\s+than)"
    r"|(?P<up>exceeds|exceeded|(?:higher|greater|larger)(?:\s+[\w-]+){0,3}?\s+than)"
    r"|(?P<down>(?:lower|smaller)(?:\s+[\w-]+){0,3}?\s+than))\b",
    re.IGNORECASE,
)
_HEDGED = re.compile(
    r"\b(?:most|majority|many|several|some|average|overall|generally|typically|except|apart\s+from|excluding|other\s+than|not|no|never|"
    r"n't|fails?|respectively|if|whether|would|could|expect\w*|hypothes\w*|predict\w*|while|whereas|but|although|than\s+(?:the\s+)?others?|all)\b",
    re.IGNORECASE,
)
# A claim made of every column: one column against it is an exception the sentence denies.
_UNIVERSAL = re.compile(
    r"\b(?:consistently|always|uniformly|invariably|in\s+(?:all|every)\s+(?:cases?|settings?|datasets?|tasks?|experiments?|metrics?|benchmarks?)"
    r"|(?:across|on|for)\s+(?:all|every)\s+(?:(?:the|\w+)\s+)?(?:cases?|settings?|datasets?|tasks?|metrics?|benchmarks?|splits?|languages?))\b",
    re.IGNORECASE,
)
# Where the compared row's name ends: the next clause or a qualifier ("on CIFAR", "in Table 2").
_OBJECT_END = re.compile(r"[,;:()]|\b(?:on|in|for|across|by|with|at|under|and|when|as|using|over)\b", re.IGNORECASE)


_CUE = re.compile(r"than|outperform|beat|surpass|exceed", re.IGNORECASE)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _may_compare(text: str) -> bool:
    """Cached by block text: most paragraphs hold no comparison, and an edit leaves the others alone."""
    return _CUE.search(text) is not None and _COMPARISON.search(text) is not None


@dataclass(frozen=True, slots=True, eq=False)
class _Comparison:
    labels: tuple[str, ...]
    sentence: str
    claim: str
    sense: str  # "win", "loss", "up" or "down"
    subject: str  # the clause before the comparison
    other: str  # the words after it, to the next clause
    spot: Spot  # where the comparison is written
    universal: bool  # "consistently", "in all cases": every column is claimed


@dataclass(frozen=True, slots=True)
class _Contradiction:
    grid: Grid
    cells: list[tuple[str, Cell, Cell]]  # (column name, subject's cell, other's cell), each against the claim
    named: bool  # the sentence names the columns
    compared: int  # for a universal claim, the columns it covers; 0 otherwise


def _against_tables(
    ctx: RuleContext, by_label: dict[str, LabelledTable], place: int, section: Section, part: list[LabelledTable | _Comparison]
) -> Iterator[Finding]:
    """The section's comparisons against the tables they cite, wherever those sit: an edit re-reads the edited
    section's claims against the kept tables, and every section's only when a table changed (the engine's `Pairwise`)."""
    claims = [item for item in part if isinstance(item, _Comparison)]
    if not claims:
        return
    rule_macros = author_rule_macros(ctx)
    for claim in claims:
        cited = [(label, by_label[label]) for label in claim.labels if label in by_label]
        found = next(((label, table, result) for label, table in cited if (result := _contradicting(table, claim, rule_macros))), None)
        if found is not None:
            yield _report(ctx, claim, *found)


@rule(
    "TAB007",
    "comparison-claim-contradicts-table",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_tables, cited_tables, _against_tables),
)
def comparison_claim_contradicts_table(ctx: RuleContext, section: Section) -> Iterator[LabelledTable | _Comparison]:
    """## What it does
    Flags a sentence that compares two rows of the table it cites ("X outperforms Y on F1
    (Table 2)", "X has a lower error than Y") when every cell of the comparison says the
    opposite: Y is better (or higher, or lower) than X in each column the sentence names,
    beyond the rounding of both cells. Both rows must be named by their own words, one on
    each side of the comparison; hedged claims ("on most datasets", "on average", "except")
    are left alone. A claim made of every column ("consistently outperforms", "in all
    cases") is flagged when one column reverses it.

    ## Why is this bad?
    A reader takes the sentence's word for which method wins; when the cited table shows the
    reverse, either the sentence or the table is wrong, and the paper's conclusion rests on it.

    ## Example
    ```latex
    MixUp outperforms CutMix on CIFAR-10 (Table~\\ref{tab:main}).
    % tab:main: CutMix & 95.1 \\\\ MixUp & 94.3 \\\\
    ```

    ## Use instead
    ```latex
    CutMix outperforms MixUp on CIFAR-10 (Table~\\ref{tab:main}).
    ```

    ## Evidence
    "moderate: every named column contradicts the comparison" when the sentence names the
    columns; "weak: every column contradicts, none named" when it names none; "weak: a column
    against a claim made of every column" when a "consistently" claim has an exception.

    ## Fix safety
    No fix: the sentence or the table may be the one that is wrong.
    """
    yield from labelled_tables(ctx, section)
    for placed in section.blocks:
        if speaks_of_tables(placed) and _may_compare(placed.block.plain.text):
            yield from _comparisons(ctx, placed)


def _comparisons(ctx: RuleContext, placed: PlacedBlock) -> Iterator[_Comparison]:
    """The paragraph's sentences holding one unhedged comparison and citing a table."""
    plain = placed.block.plain.text
    for start, end in sentence_spans(plain):
        sentence = plain[start:end]
        found = list(_COMPARISON.finditer(sentence))
        labels = sentence_refs(sentence, placed.block)
        universal = _UNIVERSAL.search(sentence) is not None
        if len(found) != 1 or not labels or _HEDGED.search(_UNIVERSAL.sub(" ", sentence)):
            continue
        match = found[0]
        subject = re.split(r"[,;:()]", sentence[: match.start()])[-1]
        other = _OBJECT_END.split(sentence[match.end() :], maxsplit=1)[0]
        sense = next(name for name, value in match.groupdict().items() if value)
        spot = ctx.spot(placed, start + match.start(), start + match.end())
        yield _Comparison(labels, sentence, " ".join(match.group(0).split()), sense, subject, other, spot, universal)


def _contradicting(cited: LabelledTable, claim: _Comparison, rule_macros: frozenset[str]) -> _Contradiction | None:
    """Every compared column, when each contradicts the claim; for a universal claim, those that do."""
    grid = Grid.of(cited.table, rule_macros)
    rows = [row for row in grid.body_rows() if not grid.is_reference(row)]
    mine, theirs = (
        [row for row in rows if names_row(grid.row_header(row), name_words(side), bool(OURS.search(side)))]
        for side in (claim.subject, claim.other)
    )
    if len(mine) != 1 or len(theirs) != 1 or mine == theirs:
        return None
    rest = name_words(claim.sentence) - name_words(grid.row_header(mine[0])) - name_words(grid.row_header(theirs[0]))
    compared = [pair for column in grid.columns() if (pair := _pair(grid, column, mine[0], theirs[0]))]
    named = [pair for pair in compared if rest & name_words(grid.column_header(pair[0].column))]
    contradicting = []
    for first, second in named or compared:
        sense = {"up": 1, "down": -1}.get(claim.sense) or (
            read_direction(grid.column_header(first.column), cited.table.caption)[0] * (1 if claim.sense == "win" else -1)
        )
        if not sense:
            return None  # a column whose better side the table does not say
        if sense * (second.value - first.value) > slack(min(first.decimals, second.decimals)):  # type: ignore[operator]
            contradicting.append((" ".join(grid.column_name(first.column).split()), first, second))
        elif not claim.universal:
            return None
    total = len(named or compared)
    if not contradicting or (len(contradicting) == total and not named and total < 2):
        return None
    return _Contradiction(grid, contradicting, bool(named), 0 if len(contradicting) == total else total)


def _pair(grid: Grid, column: int, mine: int, theirs: int) -> tuple[Cell, Cell] | None:
    first, second = grid.numeric(mine, column), grid.numeric(theirs, column)
    return (first, second) if first is not None and second is not None else None


def _report(ctx: RuleContext, claim: _Comparison, label: str, cited: LabelledTable, found: _Contradiction) -> Finding:
    grid, cells, printed = found.grid, found.cells, ctx.index.printed
    _, first, second = cells[0]
    violation = ComparisonContradicted(
        claim.claim,
        label,
        printed(" ".join(grid.row_header(first.row).split())),
        printed(" ".join(grid.row_header(second.row).split())),
        "; ".join(f"{printed(column)} {mine.text} vs {theirs.text}" for column, mine, theirs in cells),
        found.compared,
    )
    if found.compared:
        kind = "weak: a column against a claim made of every column"
    elif found.named:
        kind = "moderate: every named column contradicts the comparison"
    else:
        kind = "weak: every column contradicts, none named"
    reason = (
        f"{len(cells)} of {found.compared} columns against the claim"
        if found.compared
        else f"{len(cells)} column(s) compared, each against the claim"
    )
    evidence = Evidence(kind=kind, reason=reason)
    return ctx.report_at(
        claim.spot,
        violation.message,
        identity=violation.identity,
        related=[
            cited.related(ctx, cell, f"{role} value {cell.text}")
            for _, mine, theirs in cells[:1]
            for cell, role in ((mine, "claimed"), (theirs, "other"))
        ],
        evidence=evidence,
    )
