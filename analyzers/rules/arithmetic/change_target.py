"""ARI014: a change said to end at a value ("decreases run-time performance to 317 fps") that is how much the cited table's line changes, not where it ends.

## How it decides
The sentence states a change ("decreases", "drops", "improves", "rises") ending "to" a number, and
the table is the one the sentence or its paragraph references, else the one shown last before it
in the section. The line of the table it is on is a row or a column whose header the number's unit
("fps", "ms") or the words naming what changes ("run-time performance") name. When no cell of that
line is the number, within the rounding of both, but two of its cells differ by it, the sentence
wrote the size of the change where its end belongs: the line gives 416 and 99 fps, the change is
by 317 fps, to 99. Both ends of a change ("from 8.50 to 8.84") are ARI002's; "up to", "close
to", "compared to" state no end; "to 3 times" is a factor.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Table
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import ShownTable, each_cited, spelled
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..printed_tables import paragraph_tables, sentence_tables
from .cited import against_shown_tables, with_shown_tables
from .prose import PROSE, quoted
from .targets import Difference, Target, differences, may_state_target, targets


@violation_type
class EndIsDifference(Violation):
    target: Target
    label: str
    difference: Difference

    @property
    def message(self) -> str:
        a, b = self.difference.first, self.difference.second
        value = spelled(self.target.value, self.target.decimals)
        line = " ".join(self.difference.line.split())
        return (
            f"the change is said to end at {value}, but Table {self.label} gives no {value} on {line}: "
            f"{spelled(a.value or 0.0, a.decimals)} and {spelled(b.value or 0.0, b.decimals)} differ by it (a change by {value}, not to it)"
        )


@dataclass(frozen=True, slots=True, eq=False)
class _Stated:
    target: Target
    labels: tuple[str, ...]  # the tables the sentence cites, else those its paragraph cites, else the one just shown
    anchor: Finding


def _contradicted(item: _Stated, tables: Mapping[str, tuple[Table, ...]]) -> Iterator[Finding]:
    for label, table in each_cited(item.labels, tables):
        for difference in differences(table, item.target):
            violation = EndIsDifference(item.target, label, difference)
            evidence = Evidence(
                kind="weak: the end is the difference of two cells on the line its words name",
                statements=list(item.anchor.evidence.statements) if item.anchor.evidence else [],
                reason="no cell of the line is the stated end, and two of its cells differ by it",
            )
            yield item.anchor.model_copy(update={"message": violation.message, "identity": violation.identity, "evidence": evidence})
            return


@rule(
    "ARI014",
    "change-end-is-difference",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=against_shown_tables(_Stated, _contradicted),
)
def change_end_is_difference(ctx: RuleContext, section: Section) -> Iterator[ShownTable | _Stated]:
    """## What it does
    Reads where a sentence says a change ends ("decreases run-time performance to 317 fps") on
    the line of a cited table its unit or its words name, and finds the number there as the
    difference of two cells rather than a cell: the change's size written as its end.

    ## Why is this bad?
    "Decreases to 317 fps" where the table gives 416 and 99 fps tells the reader the result
    runs at 317 fps; it runs at 99. The sentence swaps "to" and "by", and the headline number
    is the wrong one.

    ## Example
    ```latex
    this combination decreases run-time performance to 317 fps (Table~\\ref{t}).
    % t: FPS & 416 & 99
    ```

    ## Use instead
    ```latex
    this combination decreases run-time performance by 317 fps, to 99 fps (Table~\\ref{t}).
    ```

    ## Evidence
    "weak: the end is the difference of two cells on the line its words name": the line is
    named by the number's unit or the words of what changes, and two of its cells differ by the
    stated end, which none of them is.
    """
    return with_shown_tables(section, lambda placed, shown: _stated(ctx, placed, shown))


def _stated(ctx: RuleContext, placed: PlacedBlock, shown: tuple[str, ...]) -> Iterator[_Stated]:
    """The ends the block's sentences state, each against the tables it or its paragraph cites, else `shown`."""
    text = placed.block.plain.text
    if placed.kind not in PROSE or not may_state_target(text):
        return
    paragraph_refs = paragraph_tables(placed.block)
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        for target in targets(sentence):
            begin, stop = start + target.start, start + target.end
            statement = quoted(ctx, placed, begin, stop, "stated end")
            anchor = ctx.report_block(placed, begin, stop, "", evidence=Evidence(kind="", statements=[statement], reason=""))
            yield _Stated(target, sentence_tables(sentence, paragraph_refs or shown), anchor)
