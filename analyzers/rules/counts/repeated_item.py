"""CNT005: a counted list that names one item twice ("six variables: A High, A Low, …, C High, and C High")."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import COUNT_WORDS, number

_PROSE = ("paragraph", "footnote", "caption")
# A list after a colon, to the sentence's end: "…: A, B, C, and D."
_LISTED = DeferredPattern(r":\s+([^:;]+?)\s*\.?$")
_SEPARATOR = DeferredPattern(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
# A count of things: "six indicator variables", "4 conditions".
_COUNT = DeferredPattern(r"\b(" + "|".join(COUNT_WORDS) + r"|\d{1,2})\s+(?:[a-z][a-z-]*\s+){0,2}?[a-z][a-z-]*[a-rt-z]s\b", re.IGNORECASE)
_LONGEST = 6  # words of an item: longer pieces are clauses, not names of things


@violation_type
class RepeatedItem(Violation):
    item: str
    stated: int

    @property
    def message(self) -> str:
        return f'the list of {self.stated} names "{self.item}" twice, so it gives {self.stated - 1} distinct items'

    @property
    def identity(self) -> str:
        return f"{self.item} twice of {self.stated}"


def _items(listed: str, offset: int) -> Iterator[tuple[int, int]]:
    """Where each item of "A, B, and C" is, from `offset`: the stretches between the separators."""
    cursor = 0
    for separator in _SEPARATOR.finditer(listed):
        yield offset + cursor, offset + separator.start()
        cursor = separator.end()
    yield offset + cursor, offset + len(listed)


def repeated(sentence: str, before: str) -> tuple[int, int, str, int] | None:
    """The second naming of an item in the list after the colon of `sentence` (start, end, item, stated), when
    a count in the sentence or in the one `before` it gives the list's length: the list was meant to name
    that many things and one of them was written twice."""
    listed = _LISTED.search(sentence)
    if listed is None:
        return None
    items = [(start, end) for start, end in _items(listed.group(1), listed.start(1)) if sentence[start:end].strip()]
    names = [" ".join(sentence[start:end].split()).lower() for start, end in items]
    if len(names) < 3 or any(len(name.split()) > _LONGEST for name in names) or len(set(names)) != len(names) - 1:
        return None
    stated = {number(match.group(1)) for match in _COUNT.finditer(before + " " + sentence[: listed.start()])}
    if len(names) not in stated:
        return None
    twice = next(index for index, name in enumerate(names) if name in names[:index])
    start, end = items[twice]
    return start, end, " ".join(sentence[start:end].split()), len(names)


@rule("CNT005", "repeated-list-item", Category.CLAIM_DISTORTION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def repeated_list_item(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a list that names one item twice where a count says how many items it holds: "We
    generated six indicator variables. These were: Woods High, Woods Low, Ochalek High, Ochalek
    Low, P-Rivere High, and P-Rivere High." The list follows a colon and runs to the end of its
    sentence, its items separated by commas and a closing "and"/"or", each of at most six words;
    the count ("six indicator variables") is in the same sentence or the one before, and equals the
    number of items written. Exactly one item repeated is reported, on its second naming.

    ## Why is this bad?
    The count promises six distinct things and the list gives five: one item was copied and not
    edited, and the reader cannot tell which item is missing.

    ## Example
    ```latex
    We use four settings: low noise, high noise, low bias, and high noise.
    ```

    ## Use instead
    ```latex
    We use four settings: low noise, high noise, low bias, and high bias.
    ```

    ## Evidence
    "strong: a counted list names one item twice".
    """
    for placed in section.blocks:
        if placed.kind.value not in _PROSE or ":" not in placed.block.plain.text:
            continue
        text = placed.block.plain.text
        spans = sentence_spans(text)
        for index, (begin, finish) in enumerate(spans):
            previous = text[spans[index - 1][0] : spans[index - 1][1]] if index else ""
            found = repeated(text[begin:finish], previous)
            if found is None:
                continue
            start, end, item, stated = found
            violation = RepeatedItem(item, stated)
            anchor = ctx.range(placed.file, *placed.block.plain.source_span(begin + start, begin + end))
            evidence = Evidence(
                kind="strong: a counted list names one item twice",
                statements=[Statement(file=placed.file, range=anchor, quote=" ".join(text[begin:finish].split()), role="listed items")],
                reason=f"{stated} items are counted, and {item!r} is one of them twice",
            )
            yield ctx.flag_block(violation, placed, begin + start, begin + end, evidence=evidence, confidence=0.9)
