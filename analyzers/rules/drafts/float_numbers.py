"""The number LaTeX prints for each figure and table, in reading order.

A float's `\\caption` steps its counter; `\\setcounter{figure}{0}` sets it; a redefined
`\\thefigure` that prints a letter or two before the counter, with a mark or none
(`\\renewcommand{\\thefigure}{S\\arabic{figure}}`, "OA-", "S.", the kernel's `S\\@arabic\\c@figure`: a
supplement's numbering) prefixes every later number. A kind numbered any other way (per chapter or
section, a counter added to, `\\captionof`, a continued float) is not numbered here at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Manuscript, PlacedBlock
from ....latex.model import BlockKind, MacroDef
from ....latex.record import record
from ...memo import SECTION_CACHE_SIZE, SectionKey
from .float_layout import float_layout
from .model import FLOAT_BLOCKS, Unprinted, float_type, section_floats

# What changes how a kind is counted or printed, between two floats: its counter set, its number redefined.
# Compiled now, as the next: `_change` tells a match apart by `event.re is _SET`.
_SET = re.compile(r"\\setcounter\s*\{(?P<kind>figure|table)\}\s*\{(?P<value>\d+)\}")
_PRINTED = re.compile(
    r"\\(?:re)?newcommand\s*\{?\\the(?P<kind>figure|table)\}?\s*\{(?P<prefix>[A-Za-z]{0,2}[-.]?)"
    r"(?:\\arabic\s*\{(?P=kind)\}|\\@arabic\s*\\c@(?P=kind)\b)\}"
    r"|\\renewcommand\s*\{?\\the(?P<other>figure|table)\b"
)
# Numbering the counters here cannot follow: it leaves a kind unnumbered.
_UNFOLLOWED = DeferredPattern(
    r"\\(?:addtocounter|numberwithin|counterwithin\*?)\s*\{(?P<kind>figure|table)\}|\\captionof\s*\{(?P<captioned>figure|table)\}"
    r"|(?P<all>\\ContinuedFloat|\\chapter\b)"
)


@record(slots=True)
class NumberedFloat:
    """A figure or table with one numbered caption: the number it prints, its labels and its caption's text."""

    kind: str
    number: str  # as printed: "2", "S3"
    labels: tuple[str, ...]
    caption: str
    placed: PlacedBlock


def numbered_floats(
    manuscript: Manuscript, texts: dict[str, str], hidden: Unprinted, macros: list[tuple[str, MacroDef]], noted: bool = False
) -> list[NumberedFloat]:
    """Each printed figure and table of one numbered caption, with its number; a kind whose numbering
    the walk cannot follow is left out, and a float of several captions only steps its counter. With
    `noted`, also a float whose numbered caption comes with unnumbered ones (a `\\caption*` note below
    it) or stands where no caption block was read (inside an `adjustwidth`), its caption then left empty."""
    counters = {"figure": 0, "table": 0}
    prefixes = {"figure": "", "table": ""}
    lost: set[str] = set()
    found: list[NumberedFloat] = []
    captions = float_captions(manuscript)
    for item in _reading_order(manuscript, texts, hidden, macros):
        if isinstance(item, re.Match):
            _change(item, counters, prefixes, lost)
            continue
        kind = float_type(item.block.environment or "") or ""
        layout = float_layout(texts[item.file][item.block.start : item.block.end])
        if layout is None:
            lost.add(kind)
            continue
        counters[kind] += layout.captions
        texts_of = captions.get(item.index, [])
        if layout.captions == 1 and (len(texts_of) == 1 or noted):
            caption = texts_of[0] if len(texts_of) == 1 else ""
            found.append(NumberedFloat(kind, f"{prefixes[kind]}{counters[kind]}", tuple(item.block.labels), caption, item))
    return [numbered for numbered in found if numbered.kind not in lost]


def _change(event: re.Match[str], counters: dict[str, int], prefixes: dict[str, str], lost: set[str]) -> None:
    """A counter set, a number printed with a prefix, or numbering this walk cannot follow."""
    if event.re is _SET:
        counters[event.group("kind")] = int(event.group("value"))
    elif event.re is _PRINTED and event.group("kind"):
        prefixes[event.group("kind")] = event.group("prefix")
    else:
        kinds = [event.group(name) for name in event.re.groupindex if name in ("kind", "captioned", "other")]
        lost.update([kind for kind in kinds if kind] or ["figure", "table"])


def _carriers(macros: list[tuple[str, MacroDef]]) -> dict[str, list[re.Match[str]]]:
    """The paper's own commands of no argument whose body sets or prints a counter (`\\beginsupplement`):
    using one is using its body."""
    carriers: dict[str, list[re.Match[str]]] = {}
    for _, macro in macros:
        events = sorted(_events(macro.body, 0, len(macro.body)), key=lambda event: event.start())
        if macro.arguments == 0 and events:
            carriers[macro.name.lstrip("\\")] = events
    return carriers


def _events(text: str, start: int, end: int) -> Iterator[re.Match[str]]:
    for pattern in (_SET, _PRINTED, _UNFOLLOWED):
        yield from pattern.finditer(text, start, end)


@lru_cache(maxsize=SECTION_CACHE_SIZE)  # about a run a section: a book's, and the edited file's last few versions
def _run_events(text: str, start: int, end: int) -> tuple[re.Match[str], ...]:
    """The numbering events of a section's run of `text`, kept by the file's text: an edit scans the edited file's
    runs alone, where every run of a book was scanned three times over on every edit."""
    return tuple(_events(text, start, end))


def _reading_order(
    manuscript: Manuscript, texts: dict[str, str], hidden: Unprinted, macros: list[tuple[str, MacroDef]]
) -> Iterator[re.Match[str] | PlacedBlock]:
    """The numbering events (a carrier's where it is used) and the printed floats, in the order LaTeX reads them."""
    carriers = _carriers(macros)
    definitions: dict[str, list[MacroDef]] = {}
    for file, macro in macros:
        definitions.setdefault(file, []).append(macro)

    def read(file: str, offset: int) -> bool:
        """TeX reads the command at `offset` where it stands: not in a comment, a definition or dead code."""
        text = texts[file]
        line = text[text.rfind("\n", 0, offset) + 1 : offset]
        defining = any(macro.start < offset < macro.end for macro in definitions.get(file, ()))  # a definition itself is read
        return "%" not in line.replace("\\%", "") and not defining and not hidden.covers(file, offset)

    uses = re.compile(rf"\\({'|'.join(map(re.escape, carriers))})(?![A-Za-z@])") if carriers else None
    floats: dict[str, list[PlacedBlock]] = {}
    for section in manuscript.sections:
        for placed in section_floats(SectionKey(section)):
            if float_type(placed.block.environment or "") is not None:
                floats.setdefault(placed.file, []).append(placed)
        for run in section.runs:
            text = texts[run.file]
            items: list[tuple[int, list[re.Match[str]] | PlacedBlock]] = [
                (event.start(), [event]) for event in _run_events(text, run.start, run.end) if read(run.file, event.start())
            ]
            items += [
                (use.start(), carriers[use.group(1)])
                for use in (uses.finditer(text, run.start, run.end) if uses else ())
                if read(run.file, use.start())
            ]
            items += [
                (placed.block.start, placed)
                for placed in floats.get(run.file, [])
                if run.start <= placed.block.start < run.end and not hidden.covers(run.file, placed.block.start)
            ]
            for _, item in sorted(items, key=lambda pair: pair[0]):
                yield from item if isinstance(item, list) else [item]


def float_captions(manuscript: Manuscript) -> dict[int, list[str]]:
    """The caption texts of each float block, by the float's reading index: a caption is its innermost float's,
    a subfigure's its own, and one set after a float's second table still the float's."""
    captions: dict[int, list[str]] = {}
    floats: list[PlacedBlock] = []
    for placed in (placed for section in manuscript.sections for placed in _floats_and_captions(SectionKey(section))):
        if placed.kind in FLOAT_BLOCKS:
            floats.append(placed)
            continue
        holder = next(
            (held for held in reversed(floats) if held.file == placed.file and held.block.start <= placed.block.start < held.block.end),
            None,
        )
        if holder is not None:
            captions.setdefault(holder.index, []).append(placed.block.plain.text)
    return captions


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _floats_and_captions(key: SectionKey) -> tuple[PlacedBlock, ...]:
    """A section's float and caption blocks, in order: picked once per Section the manuscript hands on, where
    every edit walked every block of the paper."""
    return tuple(placed for placed in key.section.blocks if placed.kind in FLOAT_BLOCKS or placed.kind is BlockKind.CAPTION)
