"""DRF009: a section, study or experiment numbered by hand where the sentence describes another one.

## How it decides
The units are numbered as `units.py` reads them: sections as LaTeX numbers them (chapter by
chapter in a thesis, the appendix lettered), studies and experiments by the number their titles
give. A sentence that types one unit's number by hand ("as described in Section 2.6", "listed in
Appendix A", "Like in Study 1") is read for what it describes, and is left alone when it names two
units, stands within the unit it names ("To summarize, Study 3 …" closing Study 3), stands in a
roadmap (a block that names three units or more, each sentence borrowing words of the others),
contrasts ("unlike", "whereas", "in contrast", "compared", "new"), or may speak of another
document's units (a citation, "et al.", the supplement).

- **A section** is described by a heading: a title of two words or more, every word of which the
  sentence holds ("Time compression, such as described in Section 2.6"). It is flagged when that
  heading lies under exactly one other section of the typed one's level, no heading under the
  typed section shares a word with the sentence, and the typed section's text does not hold
  every word of that heading (a section that speaks of the subject may be the one meant).
- **A study or experiment**, and a section no heading describes, is described by its text: a word
  is another unit's own against the typed one when that unit's text holds it twice or more (the
  sentence itself not counted) and the typed unit's never does. It is flagged when the sentence
  holds two such words of another unit and none of the typed unit's own against it; of several
  units so described, the one with the most such words is named, the earlier on a tie. A section
  is set against the sections of its level (an appendix's against the appendix's), less those that
  preview or review the whole paper (introduction, background, related work, discussion,
  conclusion), whose words are every section's ("As we have discussed in Section 3, if the income
  target is fixed …", where only Section 4, the theory, speaks of targets and unanticipated earnings).

A unit's number that no heading prints is left alone (DRF003's concern), as is a paper that sets
its sectioning counters by hand.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Manuscript, PlacedBlock
from ....latex.model import BlockKind
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...memo import SECTION_CACHE_SIZE, TEXT_CACHE_SIZE, SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .model import FLOAT_BLOCKS, elsewhere, printed_files
from .units import MENTION, Unit, content_words, mentioned_unit_kind, numbered_units, unit_words

_PROSE = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.THEOREM, BlockKind.CAPTION)
# A sentence that sets one unit against another may use the other's words on purpose.
_CONTRAST = DeferredPattern(
    r"\b(?:unlike|contrast|whereas|instead|rather|differ\w*|compared?|comparison|than|however|new|extend\w*|replicat\w*|beyond|except)\b",
    re.I,
)
# A section that previews or reviews the whole paper speaks of every other section's subject.
_OVERVIEW = DeferredPattern(r"\b(?:introduction|conclu\w*|discussion|summary|related|literature|background|overview|outlook)\b", re.I)
_ROADMAP = 3  # units a block names before it is a roadmap of the paper
_TITLE_WORDS = 2  # words of a heading the sentence must hold to describe its section
_OWN = 2  # words of another unit's own a sentence must hold to describe it
_REPEATED = 2  # times a unit's text holds a word before it is that unit's own


@violation_type
class HandNumberOfAnotherUnit(Violation):
    written: str
    kind: str
    meant: str
    described: str  # what the sentence holds of the unit meant: a heading, or its own words

    @property
    def message(self) -> str:
        named = "Appendix" if self.meant[:1].isalpha() else self.kind.title()  # an appendix prints a letter
        return (
            f'"{self.written}" is numbered by hand, but the {self.kind} this sentence describes ({self.described}) is {named} {self.meant}'
        )

    @property
    def identity(self) -> str:
        return f"{self.written} for {self.kind} {self.meant}"


@rule("DRF009", "hand-number-of-another-unit", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks",))
def hand_number_of_another_unit(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a section, study or experiment named by a number typed by hand ("Time compression, as
    described in Section 2.6", "Like in Study 1, we define the top 20 scorers as High Performers")
    where the sentence describes another unit: the title of a heading under another section
    ("2.5 Audio playback interfaces", whose subsection is "Time compression"), or words only
    another study's text holds (High Performers, defined in Study 2 and never in Study 1), or
    another section's ("As discussed in Section 3, if the income target is fixed …", where only
    Section 4 speaks of income targets).

    ## Why is this bad?
    A number typed by hand does not follow the sections when they move, and a study's number is
    easily confused with its neighbour's: the reader turns to the unit named and does not find
    what the sentence says is there.

    ## Example
    ```latex
    Time compression, as described in Section 2.6, ...  % "Time compression" is a subsection of 2.5
    ```

    ## Use instead
    ```latex
    Time compression, as described in Section~\\ref{sec:time-compression}, ...
    ```

    ## Fix safety
    No fix: the number or the description may be the wrong one.

    ## Evidence
    "moderate: the sentence holds another section's heading"; "moderate: the sentence holds
    another study's own words" (or experiment's, or section's).
    """
    mentioning = [placed for section in ctx.manuscript.sections for placed in _mentioning_blocks(SectionKey(section))]
    if not mentioning:
        return
    texts = {path: ctx.source(path).text for path in printed_files(ctx.whole_project)}
    units = numbered_units(ctx.manuscript, texts)
    words: dict[int, Counter[str]] = {}  # each unit's text, counted when first asked
    for placed in mentioning:
        text = placed.block.plain.text
        if len(MENTION.findall(text)) >= _ROADMAP:
            continue  # a roadmap: each sentence names a unit and borrows words of the others in passing
        for start, end in sentence_spans(text):
            sentence = text[start:end]
            mentions = list(MENTION.finditer(text, start, end))
            around = text[start : mentions[0].start()] + text[mentions[0].end() : end] if len(mentions) == 1 else ""
            if around and not elsewhere(around) and not _CONTRAST.search(sentence):  # the mention's own "Appendix" aside
                yield from _mention(ctx, placed, mentions[0], sentence, units, words)


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _mentioning_blocks(key: SectionKey) -> tuple[PlacedBlock, ...]:
    """A section's prose blocks and captions that type a unit's number, with the floats whose caption the parse left in
    the float's own text (a table nested in a table): searched once per Section the manuscript hands on."""
    blocks = key.section.blocks
    captioned = [placed.block.start for placed in blocks if placed.kind is BlockKind.CAPTION]
    return tuple(
        placed
        for placed in blocks
        if (
            placed.kind in _PROSE
            or (placed.kind in FLOAT_BLOCKS and not any(placed.block.start <= at < placed.block.end for at in captioned))
        )
        and _types_a_number(placed.block.plain.text)
    )


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _types_a_number(text: str) -> bool:
    """Searched once per block text: a section the edit moved, not changed, is walked again without re-reading it."""
    return MENTION.search(text) is not None


def _mention(
    ctx: RuleContext, placed: PlacedBlock, mention: re.Match[str], sentence: str, units: list[Unit], words: dict[int, Counter[str]]
) -> Iterator[Finding]:
    kind = mentioned_unit_kind(mention.group("name"))
    number = mention.group("number") if kind == "section" else mention.group("number").lower()
    typed = next((unit for unit in units if unit.kind == kind and unit.number == number), None)
    if typed is None or (placed.kind is not BlockKind.CAPTION and typed.holds(placed.section)):
        return  # prose within the unit it names ("To summarize, Study 3 …" in Study 3) describes where it stands
    held = set(content_words(sentence))
    manuscript = ctx.manuscript
    described = _headed(manuscript, units, typed, held) if kind == "section" else None
    evidence_kind = "moderate: the sentence holds another section's heading"
    if described is None:
        peers = _peers(manuscript, units, typed)
        counted = {id(unit): _counted(manuscript, unit, words, placed, sentence) for unit in peers}
        described = _studied(peers, typed, held, counted)
        evidence_kind = f"moderate: the sentence holds another {kind}'s own words"
    if described is None:
        return
    meant, what = described
    if placed.kind is not BlockKind.CAPTION and meant.holds(placed.section):
        # Prose within a study that names another is comparing the two ("unlike Study 1, we manipulate …"):
        # the words it holds of its own study are where it stands. A caption names the study its float shows.
        return
    heading = manuscript.sections[meant.sections[0]]
    violation = HandNumberOfAnotherUnit(" ".join(mention.group(0).split()), kind, meant.number, what)
    evidence = Evidence(kind=evidence_kind, reason=f"{kind.title()} {meant.number} holds {what}; {kind.title()} {typed.number} does not")
    related = [ctx.related(heading.file, heading.start, heading.start, f"{kind.title()} {meant.number}")]
    yield ctx.flag_block(violation, placed, mention.start(), mention.end(), evidence=evidence, related=related)


def _peers(manuscript: Manuscript, units: list[Unit], typed: Unit) -> list[Unit]:
    """The units the typed one may be mistaken for: its kind's; for a section, those of its level and lettering, less
    the sections that preview or review the whole paper (an introduction's words are every section's)."""
    if typed.kind != "section":
        return [unit for unit in units if unit.kind == typed.kind]
    return [
        unit
        for unit in units
        if unit.kind == "section"
        and unit.number.count(".") == typed.number.count(".")
        and unit.number[:1].isalpha() == typed.number[:1].isalpha()
        and (unit is typed or not _OVERVIEW.search(manuscript.sections[unit.sections[0]].title))
    ]


def _headed(manuscript: Manuscript, units: list[Unit], typed: Unit, held: set[str]) -> tuple[Unit, str] | None:
    """The one other section of the typed one's level with a heading under it whose words the sentence all holds,
    and the typed section's text does not."""
    if any(held & set(content_words(manuscript.sections[index].title)) for index in typed.sections):
        return None  # the sentence holds words of the typed section's headings: it may describe it
    level = typed.number.count(".")
    found = [
        (unit, title, words)
        for unit in units
        if unit.kind == "section" and unit is not typed and unit.number.count(".") == level
        for index in unit.sections
        if len(words := set(content_words(title := manuscript.sections[index].title))) >= _TITLE_WORDS and words <= held
    ]
    if len({id(unit) for unit, _, _ in found}) != 1 or found[0][2] <= set(unit_words(manuscript, typed)):
        return None  # no heading described, two sections', or one the typed section's text speaks of too
    return found[0][0], f'"{found[0][1]}"'


def _studied(units: list[Unit], typed: Unit, held: set[str], counted: dict[int, Counter[str]]) -> tuple[Unit, str] | None:
    """The other study or experiment whose own words against the typed one the sentence holds most, if it holds
    two, and none of the typed one's own against it."""
    mine = counted[id(typed)]
    best: tuple[int, Unit, list[str]] | None = None
    for unit in units:
        if id(unit) not in counted or unit is typed:
            continue
        theirs = counted[id(unit)]
        own = sorted(word for word in held if theirs[word] >= _REPEATED and not mine[word])
        if any(mine[word] and not theirs[word] for word in held):
            continue  # the sentence holds what the typed unit speaks of and this one does not
        if len(own) >= _OWN and (best is None or len(own) > best[0]):
            best = (len(own), unit, own)
    return (best[1], ", ".join(best[2])) if best else None


def _counted(manuscript: Manuscript, unit: Unit, words: dict[int, Counter[str]], placed: PlacedBlock, sentence: str) -> Counter[str]:
    """A unit's words, without the sentence being read when the unit holds it."""
    if id(unit) not in words:
        words[id(unit)] = unit_words(manuscript, unit)
    if not unit.holds(placed.section):
        return words[id(unit)]
    return words[id(unit)] - Counter(content_words(sentence))
