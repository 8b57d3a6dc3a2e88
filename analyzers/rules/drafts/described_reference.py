"""DRF013: a reference to a float whose sentence describes another float.

## How it decides
Each float with one caption (figure, table, algorithm) is read for its words: its caption's, the
rest of its text (a table's notes and cells), its label's, and the names among them: a word
with a letter and a digit ("O10", "CA184-024") or a capital after its first letter ("CheckMate").
A word is a float's own when no other float's text holds it (plurals count as their singular;
words any caption may hold, such as figure, results, model, never count).

A sentence of the prose that references one such float (`\\ref`, `\\cref`, `\\autoref`, to its
labels; a sentence that references two floats compares them) is flagged when

- it holds two own words of one other float, one of them a name, and two or more of no other
  float unless two fewer (the sentence describes that float), and
- neither it nor the sentence before it (which often names what this one shows) holds a word of
  the referenced float's text, the text of a float its caption refers to ("Same as
  Figure~\\ref{fig:main} for the second case") included, and the sentence holds no word of the
  same stem ("relationship" of "relations") nor the initials of some of its words ("TRT" of
  "Transition Radiation Tracker").

"The models O10 and O15 exhibited foreshock sequences (Figure~\\ref{fig5})", where only the
caption of another figure speaks of O10 and of the models, is flagged; a sentence that says
nothing of any float's own names ("Results are in Figure~\\ref{fig:main}") is not read.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache

from ....latex.manuscript import Manuscript, PlacedBlock
from ....latex.model import BlockKind
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...memo import SECTION_CACHE_SIZE, TEXT_CACHE_SIZE, SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .float_numbers import float_captions
from .model import FUNCTION_WORDS
from .panels import REFERENCE, label_words, names, sentence_words

_PROSE = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.THEOREM)
_DESCRIBED = 2  # another float's own words a sentence must hold to describe it
_STEM = 4  # letters a word must have before another word starting with it shares its stem
_INITIALS = range(2, 6)  # the lengths of an acronym read as the initials of consecutive words


@violation_type
class ReferenceOfAnotherFloat(Violation):
    key: str
    meant: str  # the label of the float the sentence describes
    words: tuple[str, ...]  # that float's own words the sentence holds

    @property
    def message(self) -> str:
        words = ", ".join(f'"{word}"' for word in self.words)
        return f"the sentence references `{self.key}` for {words}, of which only `{self.meant}` speaks"

    @property
    def identity(self) -> str:
        return f"{self.key} for {self.meant}"


@rule("DRF013", "reference-of-another-float", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks",))
def reference_of_another_float(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a reference to a figure, table or algorithm ("Figure~\\ref{fig5}") whose sentence
    describes another float by names that only that float's caption or notes hold ("The models O10
    and O15 exhibited foreshock sequences (Figure~\\ref{fig5})", where fig5 shows the homogeneous
    model and only fig11's caption speaks of O10), while neither the sentence nor the one before
    it holds a word of the referenced float's caption.

    ## Why is this bad?
    A label is easily mistyped or copied with the sentence around it: the reader follows the
    reference and finds a figure about something else.

    ## Example
    ```latex
    The models O10 and O15 cascade up into full ruptures (Figure~\\ref{fig:homogeneous}).
    ```

    ## Use instead
    ```latex
    The models O10 and O15 cascade up into full ruptures (Figure~\\ref{fig:recurrence}).
    ```

    ## Fix safety
    No fix: the reference or the description may be the wrong one.

    ## Evidence
    "moderate: the sentence holds another float's own names".
    """
    floats = _float_words(ctx.manuscript)
    by_label = {label: read for read in floats for label in read.labels}
    held = Counter(word for read in floats for word in read.words)
    # Each float's own words, by word: a sentence's words are looked up, not intersected with every float's.
    owners = {word: read for read in floats if read.captioned for word in read.words if held[word] == 1}
    for section in ctx.manuscript.sections if by_label else ():
        for placed in _referencing_blocks(SectionKey(section)):
            for reference in _references(placed.block.plain.text):
                referenced = {id(by_label[key]): by_label[key] for key, _, _ in reference.keys if key in by_label}
                own = next(iter(referenced.values())) if len(referenced) == 1 else None
                if own is not None and own.captioned:
                    yield from _judged(ctx, placed, reference, own, owners)


@record(slots=True)
class _FloatWords:
    """What a float's text says: the words and names of its caption, notes and labels."""

    placed: PlacedBlock
    labels: tuple[str, ...]
    words: frozenset[str]
    read: frozenset[str]  # with the words of the floats its caption refers to
    text: str
    captioned: bool  # one caption: a float a reference can be judged against


def _float_words(manuscript: Manuscript) -> list[_FloatWords]:
    captions = float_captions(manuscript)
    words: dict[int, frozenset[str]] = {}
    by_label: dict[str, int] = {}
    for index in captions:
        block = manuscript.blocks[index].block
        words[index] = _words(" ".join([*captions[index], block.plain.text])) | {
            word for label in block.labels for word in label_words(label)
        }
        by_label.update(dict.fromkeys(block.labels, index))
    found = []
    for index, texts in captions.items():
        placed = manuscript.blocks[index]
        # "Same as Figure~\ref{fig:main} for the second case": that float's words describe this one too.
        borrowed = [words[by_label[key]] for caption in texts for key in _keys(caption) if key in by_label]
        text = " ".join([*texts, placed.block.plain.text])
        found.append(_FloatWords(placed, tuple(placed.block.labels), words[index], words[index].union(*borrowed), text, len(texts) == 1))
    return found


def _keys(text: str) -> list[str]:
    """The labels a text references."""
    return [key.strip() for match in REFERENCE.finditer(text) for key in match.group(1).split(",")]


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _words(text: str) -> frozenset[str]:
    """A text's content words and names, lower case."""
    return frozenset(word.strip("-") for word in sentence_words(text) - FUNCTION_WORDS) | names(text)


@record(slots=True)
class _Reference:
    """A sentence of a prose text that references labels: its span, the one before it, and each key with its reference's span."""

    sentence: tuple[int, int]
    before: tuple[int, int]
    keys: tuple[tuple[str, int, int], ...]


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _references(text: str) -> tuple[_Reference, ...]:
    """The sentences of a prose text that reference labels, kept by text so that an edit re-reads the edited paragraph alone."""
    found = []
    spans = sentence_spans(text)
    for number, (start, end) in enumerate(spans):
        matches = list(REFERENCE.finditer(text, start, end))
        if matches:
            keys = tuple((key.strip(), match.start(), match.end()) for match in matches for key in match.group(1).split(","))
            found.append(_Reference((start, end), spans[number - 1] if number else (start, start), keys))
    return tuple(found)


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _referencing_blocks(key: SectionKey) -> tuple[PlacedBlock, ...]:
    """A section's prose blocks that reference a label, picked once per Section the manuscript hands on."""
    return tuple(
        placed
        for placed in key.section.blocks
        if placed.kind in _PROSE and "ref" in placed.block.plain.text and _references(placed.block.plain.text)
    )


def _judged(
    ctx: RuleContext, placed: PlacedBlock, reference: _Reference, own: _FloatWords, owners: dict[str, _FloatWords]
) -> Iterator[Finding]:
    text = placed.block.plain.text
    sentence = REFERENCE.sub(" ", text[reference.sentence[0] : reference.sentence[1]])
    words = _words(sentence)
    held: dict[int, tuple[set[str], _FloatWords]] = {}
    for word in words:
        if word in owners and owners[word] is not own:
            held.setdefault(id(owners[word]), (set(), owners[word]))[0].add(word)
    described = sorted(((shared, other) for shared, other in held.values() if len(shared) >= _DESCRIBED), key=lambda pair: -len(pair[0]))
    if not described or not described[0][0] & names(sentence):
        return
    if len(described) > 1 and len(described[1][0]) > len(described[0][0]) - _DESCRIBED:
        return  # two floats described
    before = _words(REFERENCE.sub(" ", text[reference.before[0] : reference.before[1]]))
    if before & own.read or _speaks_of(words, own):
        return  # the sentence before names the float's subject, or this one does in other words
    shared, meant = described[0]
    key, start, end = next(written for written in reference.keys if written[0] in own.labels)
    ordered = tuple(sorted(shared, key=lambda word: (sentence.lower().find(word), word)))  # in the order the sentence says them
    violation = ReferenceOfAnotherFloat(key, meant.labels[0] if meant.labels else "", ordered)
    evidence = Evidence(
        kind="moderate: the sentence holds another float's own names",
        reason=f"no other float's text holds {', '.join(ordered)}; the referenced float's shares no word with the sentence or the one before it",
    )
    related = [ctx.related(meant.placed.file, meant.placed.block.start, meant.placed.block.start, "the float the sentence describes")]
    yield ctx.flag_block(violation, placed, start, end, evidence=evidence, related=related)


def _speaks_of(words: frozenset[str], own: _FloatWords) -> bool:
    """Whether the words hold one of the float's, one of the same stem, or the initials of some of its words."""
    if words & own.read:
        return True
    if any(_same_stem(word, theirs) for word in words for theirs in own.read):
        return True
    return bool(words & _initials(own.text))


def _same_stem(one: str, other: str) -> bool:
    """ "relation" and "relationship", "local" and "localized": the shorter, less its last letter, begins the longer."""
    shorter, longer = sorted((one, other), key=len)
    return len(shorter) >= _STEM and longer.startswith(shorter[: max(_STEM, len(shorter) - 1)])


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _initials(text: str) -> frozenset[str]:
    """The acronyms a text's consecutive words spell: "Transition Radiation Tracker" gives trt (and tr, rt)."""
    initials = [word[0].lower() for word in re.findall(r"[A-Za-z]+", text)]
    return frozenset("".join(initials[start : start + length]) for length in _INITIALS for start in range(len(initials) - length + 1))
