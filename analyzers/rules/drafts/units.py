"""The units a paper numbers in its headings, which its text may name by a number typed by hand.

Sections are numbered as LaTeX numbers them: one step per unstarred `\\chapter`, `\\section`,
`\\subsection` and `\\subsubsection`, a level's counter reset by the level above, printed with the
levels above it ("2.5" for the fifth section of chapter 2, "3.2" for a subsection of an article),
the top level lettered anew after `\\appendix` ("B.2"), the levels below `secnumdepth` left
unnumbered; a paper that sets a sectioning counter by hand is not numbered. Studies and
experiments are numbered in their titles ("Study 2", "Experiment 1b: Prevalence prior"), starred
or not, and span their subsections.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Manuscript, Section
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE
from .model import FUNCTION_WORDS, singular

_HEADING = DeferredPattern(r"\\(?P<command>chapter|section|subsection|subsubsection)\s*(?P<star>\*)?")
_DEPTH = {"chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4}
# Numbering the walk cannot follow: a sectioning counter set by hand or printed otherwise.
_RENUMBERED = DeferredPattern(
    r"\\(?:setcounter|addtocounter)\s*\{(?:chapter|section|subsection)\}|\\renewcommand\s*\{?\\the(?:chapter|section|subsection)\b"
)
# The deepest level LaTeX numbers (chapter 0, section 1, …), when the paper sets it.
_SECNUMDEPTH = DeferredPattern(r"\\setcounter\s*\{secnumdepth\}\s*\{(-?\d+)\}")
_OUTLINES = 16  # outlines numbered and kept: a few projects' current and recent ones
_NUMBERED_TITLE = DeferredPattern(r"^\s*(?:Case\s+)?(?P<kind>Study|Experiment)\s+(?P<number>\d+[a-z]?)\b", re.I)
# A unit typed by hand: "Section 2.6", "Sec. 3", "Study 1", "Experiment 2b" (a list or a range is not read).
MENTION = DeferredPattern(
    r"(?<![\w\\])(?P<name>Section|Sec\.|Chapter|Appendix|App\.|Study|Experiment|Exp\.)[\s~]*(?P<number>\d+(?:\.\d+)*[a-z]?|[A-H](?:\.\d+)*\b)"
    r"(?![\w.]*\d|\s*(?:,|and|&|–|-|to|or)\s*(?:\d|[A-H]\b))"
)
_WORD = DeferredPattern(r"[A-Za-z][a-z]+(?:-[a-z]+)*")
_COMMAND = DeferredPattern(r"\\[A-Za-z@]+\*?")
# A web or mail address: its pieces ("osf", "http") name where material lies, not what a unit is about.
_ADDRESS = DeferredPattern(r"(?:https?://|www\.)\S+|\S+@\S+\.\w+")


@record(slots=True)
class Unit:
    """A numbered section, study or experiment: the number it prints and the sections it spans."""

    kind: str  # "section", "study" or "experiment"
    number: str  # as printed: "2.5", "1b"
    sections: tuple[int, ...]  # indices into Manuscript.sections: its heading's and its subheadings'

    def holds(self, section: int) -> bool:
        return section in self.sections


def mentioned_unit_kind(name: str) -> str:
    """The kind of unit a mention names: "Sec.", "Chapter" and "Appendix" → section, "Exp." → experiment."""
    return {"Sec.": "section", "Chapter": "section", "Appendix": "section", "App.": "section", "Exp.": "experiment"}.get(name, name.lower())


def numbered_units(manuscript: Manuscript, texts: dict[str, str]) -> list[Unit]:
    """The paper's numbered sections (unless it numbers them by hand), studies and experiments, in reading order."""
    sections = manuscript.sections
    settings = [_counter_settings(text) for text in texts.values()]
    deepest = [value for depths, _ in settings for value in depths]
    # What the numbering reads of each heading: typing in a paragraph changes none of it.
    outline = tuple((section.level, section.in_appendix, _depth(section, texts, deepest[-1] if deepest else None)) for section in sections)
    units = [] if any(renumbered for _, renumbered in settings) else list(_numbered_sections(outline))
    levels = tuple(level for level, _, _ in outline)
    for index, section in enumerate(sections):
        title = _NUMBERED_TITLE.match(section.title)
        if title is not None and not section.in_appendix:
            kind, number = title.group("kind").lower(), title.group("number").lower()
            units.append(Unit(kind, number, _subtree(levels, index)))
    return units


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _counter_settings(text: str) -> tuple[tuple[int, ...], bool]:
    """The `secnumdepth` values a file sets, and whether it sets a sectioning counter by hand: read once per
    file text, so an edit re-reads the edited file alone."""
    return tuple(int(value) for value in _SECNUMDEPTH.findall(text)), _RENUMBERED.search(text) is not None


def _depth(section: Section, texts: dict[str, str], deepest: int | None) -> tuple[int, bool] | None:
    """The heading's level and whether LaTeX numbers it (unstarred, within `secnumdepth`); None for another command."""
    heading = _HEADING.match(texts.get(section.file, ""), section.start)
    if heading is None:
        return None
    depth = _DEPTH[heading.group("command")]
    return depth, heading.group("star") is None and (deepest is None or depth - 1 <= deepest)


@lru_cache(maxsize=_OUTLINES)
def _numbered_sections(outline: tuple[tuple[int, bool, tuple[int, bool] | None], ...]) -> tuple[Unit, ...]:
    """The numbered sections of an outline of (level, in the appendix, depth) per heading: numbered once per outline."""
    top = min((depth[0] for _, _, depth in outline if depth is not None), default=0)
    levels = tuple(level for level, _, _ in outline)
    counters: list[int] = []
    units: list[Unit] = []
    lettered = False  # after \appendix, the top level counts A, B, C anew
    for index, (_, in_appendix, depth) in enumerate(outline):
        if in_appendix and not lettered:
            counters, lettered = [], True
        if depth is None or not depth[1]:
            continue
        level = depth[0] - top  # counters above it are kept, those below reset
        counters = counters[: level + 1] + [0] * (level + 1 - len(counters))
        counters[level] += 1
        printed = [chr(ord("A") + counters[0] - 1) if lettered else str(counters[0]), *map(str, counters[1:])]
        units.append(Unit("section", ".".join(printed), _subtree(levels, index)))
    return tuple(units)


def _subtree(levels: tuple[int, ...], index: int) -> tuple[int, ...]:
    """The section at `index` and those under it, up to the next heading of its level or above."""
    end = next((later for later in range(index + 1, len(levels)) if levels[later] <= levels[index]), len(levels))
    return tuple(range(index, end))


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def content_words(text: str) -> tuple[str, ...]:
    """The text's words that may tell one unit from another, lower case and in the singular, commands left out."""
    words = (word.lower() for word in _WORD.findall(_COMMAND.sub(" ", _ADDRESS.sub(" ", text))))
    return tuple(singular(word) for word in words if len(word) > 2 and word not in FUNCTION_WORDS)


def unit_words(manuscript: Manuscript, unit: Unit) -> Counter[str]:
    """How often each content word stands in a unit's text: its headings and its blocks."""
    counted: Counter[str] = Counter()
    for index in unit.sections:
        counted.update(content_words(manuscript.sections[index].title))
    for placed in manuscript.blocks:
        if placed.section in unit.sections:
            counted.update(content_words(placed.block.plain.text))
    return counted
