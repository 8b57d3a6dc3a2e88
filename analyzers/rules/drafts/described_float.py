"""DRF008: a figure or table numbered by hand where the float its sentence describes prints another number.

## How it decides
The number each figure and table prints is modelled as LaTeX counts it (`float_numbers.py`): in
reading order, one step per numbered caption, a counter set by `\\setcounter`, a prefix from a
redefined `\\thefigure` ("S" in a supplement), also where a command of the paper's own
(`\\beginsupplement`) holds these; a kind numbered any other way is not read. A sentence that
types one number by hand ("Figure S2A shows …", "Table 4 includes …") is compared with the
captions of the paper's floats of that kind. Of a caption's words only those no other caption of
its kind uses count (words any caption may hold, such as figure, results, model, never do). The
sentence, read with the one before it, describes a float when it holds two such words of its
caption, two more than of any other caption: then the number typed should be that float's. It is flagged when the typed number is
another float's, whose caption shares no word with the sentence itself but words three captions or
more hold (the paper's subject: unit, network). A sentence that may speak of
another document's floats (a citation, "et al.", "in the manuscript", the supplement when the
number has no letter) is left alone, as is a number no float of the paper prints (DRF003's concern).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock
from ....latex.model import BlockKind
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...memo import SECTION_CACHE_SIZE, TEXT_CACHE_SIZE, SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .float_numbers import NumberedFloat, numbered_floats
from .model import elsewhere, mentioned_kind, printed_files, unprinted
from .panels import sentence_words

_PROSE = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.THEOREM)
# One float typed by hand: "Figure 5", "Fig. S2A", "Table 4" (a list of numbers or a range is not read).
_TYPED = DeferredPattern(
    r"(?<![\w\\])(?P<name>Figure|Fig\.|Table|Tab\.)[\s~]*(?P<number>(?P<prefix>[A-Z]?)\d+)(?P<panel>[a-z]|[A-H](?![a-z]))?"
    r"(?![\w.]*\d|\s*(?:,|and|&|–|-|to)\s*[A-Z]?\d)"
)
# "Figure 1 in the manuscript": a supplement compiled apart speaks of the paper's floats.
_OTHER_DOCUMENT = DeferredPattern(r"\b(?:in|of|from)\s+the\s+(?:main\s+)?(?:manuscript|paper|article)\b", re.I)
_DESCRIBED = 2  # a caption's own words a sentence must hold to describe its float
_COMMON = 3  # captions that hold a word before it names the paper's subject rather than a float


@violation_type
class HandNumberOfAnotherFloat(Violation):
    written: str
    kind: str
    meant: str  # the number the described float prints
    label: str  # its label, if any

    @property
    def message(self) -> str:
        named = f" (\\ref{{{self.label}}})" if self.label else ""
        return (
            f'"{self.written}" is numbered by hand, but the {self.kind} this sentence describes{named} is {self.kind.title()} {self.meant}'
        )

    @property
    def identity(self) -> str:
        return f"{self.written} for {self.kind} {self.meant}"


@rule("DRF008", "hand-number-of-another-float", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks", "macros"))
def hand_number_of_another_float(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a figure or table named by a number typed by hand ("Figure S2A shows that unit 815
    differentially affects the output layer") where the sentence describes another float, named
    by the words of its caption that no other caption uses ("Efferent weights of number units:
    … project onto the output layer"), and LaTeX prints that float under another number (S3).
    Floats are numbered as LaTeX numbers them: counters set by hand, a supplement's "S" prefix.

    ## Why is this bad?
    A typed number does not follow the floats when they are added or moved: the reader turns to
    Figure S2 and finds the ablation results, not the weights the sentence speaks of.

    ## Example
    ```latex
    Figure S2A shows the efferent weights of unit 815.  % the efferent-weights figure is S3
    ```

    ## Use instead
    ```latex
    Figure~\\ref{fig:efferent_weights}A shows the efferent weights of unit 815.
    ```

    ## Fix safety
    No fix: the number or the description may be the wrong one.

    ## Evidence
    "moderate: the sentence holds another caption's own words".
    """
    for found in misnumbered(ctx):
        kind, number, meant = found.kind, found.mention.group("number"), found.meant
        violation = HandNumberOfAnotherFloat(
            " ".join(found.mention.group(0).split()), kind, meant.number, meant.labels[0] if meant.labels else ""
        )
        evidence = Evidence(
            kind="moderate: the sentence holds another caption's own words",
            reason=f"{kind} {meant.number}'s caption alone holds {', '.join(found.shared)}; {kind} {number}'s caption shares none but the paper's common words with the sentence",
        )
        related = [ctx.related(meant.placed.file, meant.placed.block.start, meant.placed.block.start, f"{kind} {meant.number}")]
        yield ctx.flag_block(violation, found.placed, found.mention.start(), found.mention.end(), evidence=evidence, related=related)


@record(slots=True, eq=False)
class Misnumbered:
    """A float's number typed by hand in a sentence that describes another float of its kind (`meant`)."""

    placed: PlacedBlock
    mention: re.Match[str]
    kind: str
    meant: NumberedFloat
    shared: list[str]  # the words of `meant`'s caption alone that the sentence holds


def misnumbered(ctx: RuleContext) -> Iterator[Misnumbered]:
    """Every hand-typed float number the paper gives a sentence that describes another float (DRF008's findings)."""
    mentioning = [placed for section in ctx.manuscript.sections for placed in _typing_blocks(SectionKey(section))]
    if not mentioning:  # floats are numbered only for a paper that types a number
        return
    project = ctx.whole_project  # the files' texts and include graph, which "blocks" covers
    texts = {path: ctx.source(path).text for path in printed_files(project)}
    hidden = unprinted(project, ctx.index.macros)
    floats = numbered_floats(ctx.manuscript, texts, hidden, list(ctx.index.macros))
    own, common = _caption_words(floats)
    for placed in mentioning:
        text = placed.block.plain.text
        spans = sentence_spans(text)
        for number, (start, end) in enumerate(spans):
            before = spans[number - 1][0] if number else start  # the sentence before often names what this one shows
            for mention in _TYPED.finditer(text, start, end):
                found = _mention(mention, (text[start:end], text[before:end]), floats, (own, common))
                if found is not None:
                    yield Misnumbered(placed, mention, *found)


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _typing_blocks(key: SectionKey) -> tuple[PlacedBlock, ...]:
    """A section's prose blocks that type a float's number: searched once per Section the manuscript hands on."""
    return tuple(placed for placed in key.section.blocks if placed.kind in _PROSE and _types_a_number(placed.block.plain.text))


@lru_cache(maxsize=TEXT_CACHE_SIZE)  # by text: the sections after an edit, in its file, are new Sections of the same blocks
def _types_a_number(text: str) -> bool:
    return _TYPED.search(text) is not None


def _caption_words(floats: list[NumberedFloat]) -> tuple[dict[int, set[str]], dict[str, set[str]]]:
    """Each float's caption words that no other caption of its kind holds, by its place in the list; and
    for each kind the words of three of its captions or more, which name the paper's subject, no float."""
    words = [sentence_words(numbered.caption) for numbered in floats]
    held: dict[str, Counter[str]] = {}
    for numbered, caption in zip(floats, words, strict=True):
        held.setdefault(numbered.kind, Counter()).update(caption)
    own = {index: {word for word in words[index] if held[numbered.kind][word] == 1} for index, numbered in enumerate(floats)}
    return own, {kind: {word for word, count in counted.items() if count >= _COMMON} for kind, counted in held.items()}


def _mention(
    mention: re.Match[str],
    sentences: tuple[str, str],
    floats: list[NumberedFloat],
    words_of: tuple[dict[int, set[str]], dict[str, set[str]]],
) -> tuple[str, NumberedFloat, list[str]] | None:
    """A typed number whose float the sentence (with the one before it) does not describe, while it clearly
    describes one other float of its kind: (kind, that float, the words of its caption alone the sentence holds)."""
    sentence, context = sentences
    own, common = words_of
    kind = mentioned_kind(mention.group("name"))
    number = mention.group("number")
    written = next((index for index, numbered in enumerate(floats) if numbered.kind == kind and numbered.number == number), None)
    if written is None or _OTHER_DOCUMENT.search(sentence) or (elsewhere(sentence) and not mention.group("prefix")):
        return None
    words = sentence_words(context)
    held = sorted(
        ((len(own[index] & words), index) for index, peer in enumerate(floats) if peer.kind == kind and own[index] & words), reverse=True
    )
    if not held or held[0][1] == written or (sentence_words(floats[written].caption) & sentence_words(sentence)) - common[kind]:
        return None  # the sentence holds words of the typed float's caption: it may describe it
    if held[0][0] < _DESCRIBED or (len(held) > 1 and held[0][0] < held[1][0] + _DESCRIBED):
        return None  # no float described, or two
    return kind, floats[held[0][1]], sorted(own[held[0][1]] & words)
