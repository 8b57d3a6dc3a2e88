"""STAT014: a direction word that its own two values contradict ("increased from 4.8 to 4.4").

## How it decides
The reader is in `statistics/direction.py`. Each sentence is read for a change ("increased /
reduced / improves from a to b", the word within 60 characters before "from", no other clause or
"ranging" between) and for a comparison ("higher / lower / better … than", "outperforms") with
its one pair of values: "(a vs. b)", or a mean on each side ("(M = a) than … (M = b)"). The first
value of a pair belongs to the side the sentence names first.

A raw word decides which value must be the larger; a word of quality ("improves", "better",
"outperforms") decides only through the metric the sentence names (accuracy, F1 and BLEU are
better higher; error, loss and time lower), and is not read when the sentence names none or
metrics of both kinds. A tie is not a contradiction (the rounding may hide the change). Values
that are not plain magnitudes of one quantity are not compared, nor is a sentence that negates,
supposes or expects, since it may state the reverse on purpose.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.model import BlockKind
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .direction import StatedDirection, contradicted_directions

_READ = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION)


@violation_type
class DirectionContradicted(Violation):
    stated: StatedDirection

    @property
    def message(self) -> str:
        stated = self.stated
        if stated.shape == "change":
            went = "up" if stated.rises else "down"
            return f'the text says "{stated.word}", but the values it gives go {went}: from {stated.first} to {stated.second}'
        return f'the text says "{stated.word}", but the values it gives say the opposite: {stated.first} vs. {stated.second}'

    @property
    def identity(self) -> str:
        return f"{self.stated.word} {self.stated.first} {self.stated.second}"


@rule("STAT014", "direction-contradicts-values", Category.CLAIM_DISTORTION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def direction_contradicts_values(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a direction word whose own two values go the other way: "the error rate increased
    from 4.8% to 4.4%", "participants guessed lower (M = 4.79) than the control (M = 4.42)",
    "accuracy improves from 61.2 to 59.8", "X outperforms Y in F1 (81.2 vs. 83.0)". A word of
    quality ("improves", "better", "outperforms") is read against the metric the sentence names
    (accuracy higher, error lower) and left alone when it names none.

    ## Why is this bad?
    The sentence states a result and prints the numbers that deny it: either the word or one of
    the values is wrong, and the reader cannot tell which without the raw data.

    ## Example
    ```latex
    The error rate increased from 4.8\\% to 4.4\\% after the update.
    ```

    ## Use instead
    ```latex
    The error rate decreased from 4.8\\% to 4.4\\% after the update.
    ```

    ## Evidence
    "moderate: a change word against its endpoints" (from a to b), "moderate: an order word
    against its pair" (a than b), "weak: a word of quality against its values, through the
    metric's name".

    ## Fix safety
    No fix: the word or a value may be the one that is wrong.
    """
    for placed in section.blocks:
        if placed.kind not in _READ:
            continue
        text = placed.block.plain.text
        if " from " not in text and "than" not in text and "perform" not in text:
            continue
        for stated in contradicted_directions(text, tuple(sentence_spans(text))):
            if stated.metric:
                kind = "weak: a word of quality against its values, through the metric's name"
            elif stated.shape == "change":
                kind = "moderate: a change word against its endpoints"
            else:
                kind = "moderate: an order word against its pair"
            evidence = Evidence(kind=kind, reason=f"{stated.first} then {stated.second}")
            yield ctx.flag_block(DirectionContradicted(stated), placed, stated.start, stated.end, evidence=evidence)
