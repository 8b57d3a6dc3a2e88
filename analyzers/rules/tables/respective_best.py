"""TAB009: "X and Y perform the best on A and B, respectively", where the cited table has another row best for a pair.

## How it decides
The sentence must hold "respectively" and one superlative ("best", "worst", "highest", "lowest",
"largest", "smallest"), cite a table (or sit in a paragraph or caption that does), and bind its lists
to that table's rows and columns as the tables family reads a "respectively" sentence
(analyzers/rules/tables/respectively.py): the rows wordGREEN and charGREEN against the columns under
CoNLL and under SEEDA. Each pair claims its row the extreme of its columns among the table's rows that
are not references (oracle, human, upper bound). "Best" and "worst" need the column's direction (↑/↓,
the metric's name, the caption); "highest" and "lowest" do not.

A pair is contradicted when, in every column it names whose direction is known, another row is better
than its row beyond the rounding of both cells: one column where the row leads or ties leaves the pair
alone. Superlatives scoped to a subset or hedged ("second best", "among", "except", "one of the",
"nearly", "not") are left alone.

Evidence: "weak: a respectively pair whose row another row beats in each column it names"; information
until measured.
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
from ...quantities import name_words, slack, speaks_of_tables, without_refs
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from .model import Grid, LabelledTable, against_cited, cited_tables, citing_sentences, fed_tables, labelled_tables
from .respectively import Pair, bind, may_pair
from .row_naming import OURS, names_row


@violation_type
class RespectiveBestContradicted(Violation):
    word: str  # "best", "highest", ...
    table: str
    row: str  # the pair's row, as printed
    columns: str  # the pair's columns, as printed
    better: str  # "charGREEN 0.786 vs 0.741; …"

    @property
    def message(self) -> str:
        return f'the text calls {self.row} the {self.word} on {self.columns} ("respectively"), but Table {self.table} has {self.better}'

    @property
    def identity(self) -> str:
        return f"{self.table} {self.row} {self.columns} {self.word}"


# The superlative and what it claims: +1 the highest value, -1 the lowest, "best"/"worst" read against the column.
_SUPERLATIVE = DeferredPattern(r"\b(best|worst|highest|lowest|largest|smallest)\b", re.IGNORECASE)
_RAW = {"highest": 1, "largest": 1, "lowest": -1, "smallest": -1}
_HEDGED = DeferredPattern(
    r"\b(?:second|third|runner|among|except|excluding|other\s+than|one\s+of\s+the|nearly|almost|close\s+to|not|no|nor|"
    r"baselines?|prior|previous|best\s+of\s+(?:our|my)\s+knowledge)\b",
    re.IGNORECASE,
)


@record(slots=True, eq=False)
class _PairedBest:
    labels: tuple[str, ...]
    sentence: str
    word: str
    subject: frozenset[str]  # the words before the superlative, which name the rows it is claimed of
    spot: Spot


def _claims(ctx: RuleContext, placed: PlacedBlock) -> Iterator[_PairedBest]:
    for start, sentence, labels in citing_sentences(placed):
        prose = without_refs(sentence)  # a label's words ("tab:baselines", "fig:best") neither claim nor scope
        words = _SUPERLATIVE.findall(prose)
        if len(words) == 1 and may_pair(sentence) and not _HEDGED.search(prose):
            match = _SUPERLATIVE.search(prose)
            assert match is not None
            subject = frozenset(name_words(sentence[: match.start()]))
            yield _PairedBest(labels, sentence, words[0].lower(), subject, ctx.spot(placed, start + match.start(), start + match.end()))


# The grid and each pair whose row another row beats, with (the pair's cell, the better cell) in each column.
_Beaten = tuple[Grid, list[tuple[Pair, list[tuple[Cell, Cell]]]]]


def _beaten(grid: Grid, claim: _PairedBest) -> _Beaten | None:
    """The pairs whose row another row beats in each of its columns of known direction, each with its cells."""
    pairs = bind(grid, claim.sentence)
    ours = OURS.search(claim.sentence) is not None
    if pairs is None or not all(names_row(grid.row_header(pair.row), set(claim.subject), ours) for pair in pairs):
        return None  # the rows are not what the sentence calls the best: methods side by side as columns
    rows = [row for row in grid.body_rows() if not grid.is_reference(row)]
    beaten = [(pair, cells) for pair in pairs if (cells := _beaten_cells(grid, claim.word, pair, rows))]
    return (grid, beaten) if beaten else None


def _beaten_cells(grid: Grid, word: str, pair: Pair, rows: list[int]) -> list[tuple[Cell, Cell]]:
    """(the pair's cell, the best other cell) in each column, when every column of known direction has one better."""
    found = []
    for column in pair.columns:
        sense = _RAW.get(word) or grid.direction(column)[0] * (1 if word == "best" else -1)
        mine = grid.numeric(pair.row, column)
        others = [cell for row in rows if row != pair.row and (cell := grid.numeric(row, column))]
        if not sense or mine is None or not others:
            continue
        best = max(others, key=lambda cell: sense * cell.value)  # type: ignore[operator]
        if sense * (best.value - mine.value) <= slack(min(mine.decimals, best.decimals)):  # type: ignore[operator]
            return []
        found.append((mine, best))
    return found


def _report(ctx: RuleContext, claim: _PairedBest, label: str, cited: LabelledTable, found: _Beaten) -> Finding:
    grid, pairs = found
    pair, cells = pairs[0]
    printed = ctx.index.printed
    violation = RespectiveBestContradicted(
        claim.word,
        label,
        printed(" ".join(grid.row_header(pair.row).split())),
        printed(", ".join(dict.fromkeys(grid.column_name(mine.column) for mine, _ in cells))),
        "; ".join(f"{printed(' '.join(grid.row_header(best.row).split()))} {best.text} vs {mine.text}" for mine, best in cells),
    )
    evidence = Evidence(
        kind="weak: a respectively pair whose row another row beats in each column it names",
        reason=f"{len(cells)} column(s) of the pair, another row better in each",
    )
    related = [
        cited.related(ctx, cell, f"{role} value {cell.text}")
        for mine, best in cells[:1]
        for cell, role in ((mine, "claimed"), (best, "better"))
    ]
    return ctx.report_at(claim.spot, violation.message, identity=violation.identity, related=related, evidence=evidence)


@rule(
    "TAB009",
    "respective-best-contradicts-table",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_tables, cited_tables, against_cited(_PairedBest, _beaten, _report)),
)
def respective_best_contradicts_table(ctx: RuleContext, section: Section) -> Iterator[LabelledTable | _PairedBest]:
    """## What it does
    Flags a "respectively" sentence that pairs rows of the table it (or its paragraph) cites with its
    columns and calls each row the best (highest, lowest, worst) of its columns, when another row is
    better in every column a pair names.

    ## Why is this bad?
    "X and Y perform the best on A and B, respectively" makes two claims, one per pair. When the table
    has Y ahead on A, the pairs are swapped or one of them is wrong, and the reader takes away a result
    the table does not show.

    ## Example
    ```latex
    wordGREEN and charGREEN perform the best on CoNLL and SEEDA, respectively (Table~\\ref{tab:corr}).
    % tab:corr: wordGREEN & 0.741 & 0.920 \\\\ charGREEN & 0.786 & 0.913 \\\\
    ```

    ## Use instead
    ```latex
    charGREEN and wordGREEN perform the best on CoNLL and SEEDA, respectively (Table~\\ref{tab:corr}).
    ```

    ## Fix safety
    No fix: the sentence or the table may be the one that is wrong.
    """
    yield from labelled_tables(ctx, section)
    for placed in section.blocks:
        if speaks_of_tables(placed) and may_pair(placed.block.plain.text):
            yield from _claims(ctx, placed)
