"""TAB014: a gain claimed in every line over a table's one other system ("TRex is slightly improved in all cases") that one line reverses.

## How it decides
A clause claims a gain without naming what it is won over: "X is (slightly) improved / better /
superior", "X has / shows / achieves consistent improvements / gains", with no "than", "over",
"to" or "compared" after it (TAB007 reads those). The clause must claim it of every line: "in all
cases", "in every setting", "across all datasets", "consistently", "always". A sentence that turns to
a contrast ("…, but …", "while", "whereas", ";") is read clause by clause, so "both tools are above
99.5% for most videos, but X is improved in all cases" claims the second clause whole. A clause that
hedges or negates ("most", "on average", "except", "not", "if", "expected") is left alone; the words of a
label it references (`\\ref{tab:many-scores}`) are no words of its prose.

The table is one the sentence cites, else one its paragraph cites, else, in a paragraph that cites
nothing, one its section cites or places (a class of its own: a table presented in one paragraph is
often concluded on two paragraphs later). The words of the clause before the
gain name the system: one column of a spanning header that holds exactly one other column ("% correct"
over "TRex" and "idtracker.ai"), or one body row of a table with exactly one other competing row
(reference rows such as oracle or human left out). Only then is the claim's other side known: the
table's one other system. Each line (the rows of a column pair, the columns of a row pair) whose
better side the table says (↑/↓, the metric's name, a note saying "lower is better") is compared;
one line where the other system is better beyond the rounding of both cells contradicts the claim.
A table of three systems or more leaves the other side open, and the clause alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ....latex.record import record
from ...context import RuleContext, Spot
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import name_words, slack, without_refs
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from .citing import SECTIONED, claim_finding, claim_sentences, section_cited
from .model import (
    CONTRAST,
    DIRECTION_WEIGHT,
    UNIVERSAL,
    WITHIN_SPREAD,
    Grid,
    LabelledTable,
    against_cited,
    cited_tables,
    contrast_clauses,
    fed_tables,
    labelled_tables,
    spread_overlaps,
)
from .row_naming import names_row


@violation_type
class GainReversed(Violation):
    subject: str  # the claimed system, as printed
    claim: str  # "is slightly improved"
    table: str
    other: str  # the table's one other system
    reversed: int
    compared: int
    lines: str  # "rows" or "columns"
    cells: str  # "flies_N59: 99.68 ± 0.533 vs 99.94 ± 0.0"

    @property
    def message(self) -> str:
        return (
            f'the text says {self.subject} "{self.claim}" in every line, but in Table {self.table} {self.other} is better in '
            f"{self.reversed} of {self.compared} {self.lines}: {self.cells}"
        )

    @property
    def identity(self) -> str:
        return f"{self.table} {self.subject} {self.other} {self.claim}"


# A gain that names nothing it is won over: the other side is the table's one other system.
_GAIN = DeferredPattern(
    r"\b(?:(?:is|are|was|were)\s+(?:\w+\s+)?(?:improved|better|superior)"
    r"|(?:has|have|had|shows?|showed|achieves?|achieved|yields?|yielded|gives?|gave)\s+(?:a\s+)?(?:\w+\s+)?"
    r"consistent\s+(?:improvements?|gains?))\b"
    r"(?!\s+(?:[\w-]+\s+){0,3}?(?:than|over|upon|to|against|compared|relative|versus|vs)\b)",
    re.IGNORECASE,
)
_HEDGED = DeferredPattern(
    r"\b(?:most|majority|many|several|some|average|overall|generally|typically|usually|often|almost|nearly|but|save|except|"
    r"apart\s+from|excluding|other\s+than|not|no|never|if|whether|would|could|should|expect\w*|hypothes\w*)\b|n't\b",
    re.IGNORECASE,
)


@record(slots=True, eq=False)
class _GainClaim:
    labels: tuple[str, ...]
    subject: str  # the clause's words before the gain
    claim: str
    spot: Spot
    sectioned: bool  # its paragraph cites nothing: the tables are those its section cites


@record(slots=True, eq=False)
class _Reversal:
    subject: str
    other: str
    lines: str
    against: list[tuple[str, Cell, Cell]]  # (line, the subject's cell, the other's cell), the other better
    compared: int
    source: str  # where the first line's direction was read


def _claims(ctx: RuleContext, placed: PlacedBlock, in_section: tuple[str, ...]) -> Iterator[_GainClaim]:
    for start, sentence, labels, sectioned in claim_sentences(placed, in_section):
        for begin, clause in contrast_clauses(sentence):
            gain = _GAIN.search(clause)
            prose = without_refs(CONTRAST.sub(" ", clause))
            if gain is None or not UNIVERSAL.search(prose) or _HEDGED.search(prose):
                continue
            spot = ctx.spot(placed, start + begin + gain.start(), start + begin + gain.end())
            yield _GainClaim(labels, clause[: gain.start()], " ".join(gain.group(0).split()), spot, sectioned)


def _reversed(grid: Grid, claim: _GainClaim) -> _Reversal | None:
    """The pair of systems the clause sets apart, and each line where the other one is better."""
    words = name_words(claim.subject)
    rows = [row for row in grid.body_rows() if not grid.is_reference(row)]
    named_columns = [column for column in grid.columns() if names_row(grid.own_header(column), words, False)]
    if len(named_columns) == 1:
        pair = [group for group in grid.groups() if named_columns[0] in group and len(group) == 2]
        if len(pair) != 1:
            return None
        mine = named_columns[0]
        theirs = next(column for column in pair[0] if column != mine)
        lines = [(grid.row_header(row), (row, mine), (row, theirs), mine) for row in rows]
        return _judged(grid, grid.own_header(mine), grid.own_header(theirs), "rows", lines)
    named_rows = [row for row in rows if names_row(grid.row_header(row), words, False)]
    if len(named_rows) != 1 or len(rows) != 2:
        return None
    mine = named_rows[0]
    theirs = next(row for row in rows if row != mine)
    lines = [(grid.column_name(column), (mine, column), (theirs, column), column) for column in grid.columns()]
    return _judged(grid, grid.row_header(mine), grid.row_header(theirs), "columns", lines)


def _judged(
    grid: Grid, subject: str, other: str, kind: str, lines: list[tuple[str, tuple[int, int], tuple[int, int], int]]
) -> _Reversal | None:
    against, compared, sources = [], 0, []
    for line, mine, theirs, column in lines:
        first, second = grid.numeric(*mine), grid.numeric(*theirs)
        sense, source = grid.direction(column)
        if first is None or second is None or not sense:
            continue
        compared += 1
        if sense * (second.value - first.value) > slack(min(first.decimals, second.decimals)):  # type: ignore[operator]
            against.append((" ".join(line.split()), first, second))
            sources.append(source)
    if compared < 2 or not against:
        return None
    return _Reversal(subject, other, kind, against, compared, sources[0])


def _report(ctx: RuleContext, claim: _GainClaim, label: str, cited: LabelledTable, found: _Reversal) -> Finding:
    printed = ctx.index.printed
    cells = "; ".join(printed(f"{line}: {mine.text} vs {theirs.text}") for line, mine, theirs in found.against[:3])
    violation = GainReversed(
        printed(" ".join(found.subject.split())),
        claim.claim,
        label,
        printed(" ".join(found.other.split())),
        len(found.against),
        found.compared,
        found.lines,
        cells,
    )
    _, mine, theirs = found.against[0]
    confidence = DIRECTION_WEIGHT[found.source] * (WITHIN_SPREAD if spread_overlaps(mine, theirs) else 1.0)
    evidence = Evidence(
        kind="weak: a line against a gain claimed in every line over the table's one other system"
        + (f", {SECTIONED}" if claim.sectioned else ""),
        reason=f"{len(found.against)} of {found.compared} compared {found.lines} against the claim",
    )
    return claim_finding(ctx, cited, claim.spot, violation, (mine, theirs), "better", evidence, confidence=round(confidence, 3))


@rule(
    "TAB014",
    "gain-claim-contradicts-table",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_tables, cited_tables, against_cited(_GainClaim, _reversed, _report)),
)
def gain_claim_contradicts_table(ctx: RuleContext, section: Section) -> Iterator[LabelledTable | _GainClaim]:
    """## What it does
    Flags a clause that claims a system gains in every line ("X is slightly improved in all
    cases", "X shows consistent gains across all datasets") without naming what it gains over,
    when the table it cites compares X with exactly one other system and one line of the table
    has that other system better.

    ## Why is this bad?
    A claim made of every line is only as true as its worst line. With two systems in the table
    the reader knows what the gain is over, and finds the line where it is a loss.

    ## Example
    ```latex
    Both tools are accurate, but TRex is slightly improved in all cases (Table~\\ref{tab:acc}).
    % tab:acc: & \\multicolumn{2}{c}{Accuracy} \\\\ & TRex & idtracker \\\\ fish & 99.97 & 98.95 \\\\ flies & 99.68 & 99.94 \\\\
    ```

    ## Use instead
    ```latex
    Both tools are accurate, and TRex is slightly improved in all cases but the flies video
    (Table~\\ref{tab:acc}).
    ```

    ## Evidence
    "weak: a line against a gain claimed in every line over the table's one other system"; read in a
    paragraph citing nothing, against a table its section cites, its own class.

    ## Fix safety
    No fix: the sentence or the table may be the one that is wrong.
    """
    yield from labelled_tables(ctx, section)
    in_section = section_cited(section)
    for placed in section.blocks:
        if placed.kind.value == "paragraph" and _GAIN.search(placed.block.plain.text):
            yield from _claims(ctx, placed, in_section)
