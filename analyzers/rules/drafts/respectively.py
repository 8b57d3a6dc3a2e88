"""DRF012: floats referenced in one order and described, "respectively", in another.

## How it decides
A sentence is read when it references two floats or more (`\\ref`, `\\cref`, `\\autoref`, to labels of
figures or tables with one caption) and then closes a list of as many items with "respectively":
"Figures~\\ref{fig:a} and \\ref{fig:b} show the AUC for verbs and nouns, respectively". The list is
what follows the last reference up to "respectively", from its last preposition or colon on ("for
verbs and nouns"), or, when nothing does, what comes before the first reference without the words
that present the floats ("BLEU scores for German and French are reported respectively in Figures …"
lists German and French); it is split at commas and "and", and a list of another length is not read. Of each item
only the words no other item holds and not every referenced caption holds count (plurals as their
singular; "splits" of "the test, development and training splits" names none; words any caption may
hold, such as figure, results, model, never). A float holds an item when its caption or its label holds
one of these words.

The sentence is flagged when each float holds exactly one item, no two the same, and the order
they give is not the order of the references: the caption of the first float names the second
item and the caption of the second the first. A float that holds no item, or two, leaves the
sentence alone: the items may name something its caption does not say.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock
from ....latex.model import BlockKind
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...memo import SECTION_CACHE_SIZE, TEXT_CACHE_SIZE, SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .float_numbers import float_captions
from .panels import label_words, sentence_words

_PROSE = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.THEOREM)
_REFERENCE = DeferredPattern(r"\\(?:ref|cref|Cref|autoref)\*?\{([^{}]+)\}")
_RESPECTIVELY = DeferredPattern(r",?\s*respectively\b", re.IGNORECASE)
# Where the list before "respectively" starts: after its last preposition or colon ("… plots for verbs and nouns").
_LIST_START = DeferredPattern(r"\b(?:for|of|in|on|with|from|between|at|by|to|under)\b|:")
# What presents the floats after a list that comes first: "… are shown in Figures~", "… can be found in".
_PRESENTING = DeferredPattern(
    r"(?:[\s~(,]|\b(?:are|is|were|was|be|can|shown|given|reported|plotted|depicted|illustrated|presented|displayed|found|"
    r"provided|listed|summari[sz]ed|visuali[sz]ed|in|see|Figures?|Figs?\.?|Tables?|Tabs?\.?)\b)*$"
)
_WORD = DeferredPattern(r"[A-Za-z]{2,}")
_ITEM_BREAK = DeferredPattern(r"\s*,\s*(?:and\s+)?|\s+and\s+")


@violation_type
class RespectivelySwapped(Violation):
    keys: tuple[str, ...]  # the labels in the order the sentence references them
    items: tuple[str, ...]  # the items in the order the sentence lists them
    held: tuple[str, ...]  # the item each referenced float's caption holds, in reference order

    @property
    def message(self) -> str:
        keys = ", ".join(f"`{key}`" for key in self.keys)
        items = ", ".join(f'"{item}"' for item in self.items)
        held = ", ".join(f'"{item}"' for item in self.held)
        return f"the sentence pairs {keys} with {items}, respectively, but their captions speak of {held} in that order"

    @property
    def identity(self) -> str:
        return f"{' '.join(self.keys)} {' '.join(self.items)}"


@rule("DRF012", "respectively-swaps-floats", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks",))
def respectively_swaps_floats(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a sentence that references floats in one order and lists what they show, "respectively",
    in the other: "Figures~\\ref{fig:auc_nouns} and \\ref{fig:auc_verbs} show the AUC for verbs and
    nouns, respectively", where the first figure's caption speaks of nouns and the second's of verbs.

    ## Why is this bad?
    "Respectively" pairs the references with the items in order: the reader looks for the verbs
    in the nouns' figure, and reads one's results as the other's.

    ## Example
    ```latex
    Figures~\\ref{fig:auc_nouns} and \\ref{fig:auc_verbs} show the AUC for verbs and nouns, respectively.
    ```

    ## Use instead
    ```latex
    Figures~\\ref{fig:auc_nouns} and \\ref{fig:auc_verbs} show the AUC for nouns and verbs, respectively.
    ```

    ## Fix safety
    No fix: the references or the items may be in the wrong order.

    ## Evidence
    "moderate: each caption names the other item".
    """
    captions = _float_words(ctx)
    for section in ctx.manuscript.sections if captions else ():
        for placed in _listing_blocks(SectionKey(section)):
            for offset, keys, items, start, end in respective_lists(placed.block.plain.text):
                yield from _judged(ctx, placed, (keys, items), (offset + start, offset + end), captions)


def _float_words(ctx: RuleContext) -> dict[str, set[str]]:
    """The words of each labelled float with one caption: its caption's and its label's."""
    found: dict[str, set[str]] = {}
    for index, texts in float_captions(ctx.manuscript).items():
        if len(texts) != 1:
            continue
        for label in ctx.manuscript.blocks[index].block.labels:
            found[label] = sentence_words(texts[0]) | label_words(label)
    return found


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _listing_blocks(key: SectionKey) -> tuple[PlacedBlock, ...]:
    """A section's prose blocks that may pair references with a list: picked once per Section the manuscript hands on."""
    return tuple(placed for placed in key.section.blocks if placed.kind in _PROSE and respective_lists(placed.block.plain.text))


RespectiveList = tuple[int, tuple[str, ...], tuple[str, ...], int, int]  # sentence offset, keys, items, span of the references


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def respective_lists(text: str) -> tuple[RespectiveList, ...]:
    """Each sentence that references two labels or more and then lists as many items before "respectively"."""
    if "espectively" not in text or "ref" not in text:
        return ()
    found = []
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        closing = _RESPECTIVELY.search(sentence)
        references = list(_REFERENCE.finditer(sentence)) if closing else []
        listed = sentence[references[-1].end() : closing.start()] if references and closing else ""
        if closing and not _WORD.search(listed):  # the items come first: "X and Y are shown in Figures~\ref{a} and \ref{b}"
            listed = _PRESENTING.sub("", sentence[: min(references[0].start(), closing.start())]) if references else ""
        else:
            references = [reference for reference in references if closing and reference.end() <= closing.start()]
        keys = tuple(key.strip() for reference in references for key in reference.group(1).split(","))
        if len(keys) < 2 or len(set(keys)) != len(keys):
            continue
        starts = [match.end() for match in _LIST_START.finditer(listed)]
        items = tuple(item.strip() for item in _ITEM_BREAK.split(listed[starts[-1] if starts else 0 :]) if item.strip())
        if len(items) == len(keys):
            found.append((start, keys, items, references[0].start(), references[-1].end()))
    return tuple(found)


def held_items(items: tuple[str, ...], floats: list[set[str]]) -> tuple[int, ...] | None:
    """The item each float holds by the words no other item has and not every caption holds (the head noun of
    "the test, development and training splits"), in the floats' order; None when a float holds none or several,
    or two floats hold the same one."""
    words = [sentence_words(item) for item in items]
    shared = set.intersection(*floats)
    own = [mine - shared - set().union(*(other for j, other in enumerate(words) if j != i)) for i, mine in enumerate(words)]
    held = []
    for caption in floats:
        holding = [index for index, distinct in enumerate(own) if distinct & caption]
        if len(holding) != 1:
            return None
        held.append(holding[0])
    return tuple(held) if len(set(held)) == len(held) else None


def _judged(
    ctx: RuleContext,
    placed: PlacedBlock,
    listed: tuple[tuple[str, ...], tuple[str, ...]],
    span: tuple[int, int],
    captions: dict[str, set[str]],
) -> Iterator[Finding]:
    keys, items = listed
    if not all(key in captions for key in keys):
        return
    held = held_items(items, [captions[key] for key in keys])
    if held is None or held == tuple(range(len(keys))):
        return
    violation = RespectivelySwapped(keys, items, tuple(items[index] for index in held))
    evidence = Evidence(
        kind="moderate: each caption names the other item", reason="each referenced caption holds the words of another item than its own"
    )
    yield ctx.flag_block(violation, placed, span[0], span[1], evidence=evidence)
