"""What the DIS rules share: the paper's text blocks searched section by section, and a finding at a heading.

Each rule reports at most once per paper, as information.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind, SectionKind
from ...context import RuleContext
from ...finding import Finding
from ...memo import SECTION_CACHE_SIZE, TEXT_CACHE_SIZE
from ...prefilter import may_match
from ...violation import Violation

EMPIRICAL_SECTIONS = (SectionKind.EXPERIMENTS, SectionKind.RESULTS)
_TEXT_KINDS = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.TABLE)

Finder = Callable[[str], tuple[re.Match[str], ...]]


def finder(pattern: DeferredPattern, words: tuple[str, ...] | None = None) -> Finder:
    """`pattern`'s matches in a block's text, cached by the text: a keystroke searches only the
    edited block of its section again. One cache per pattern: hashing a pattern costs more than a lookup.
    When every match of the case-blind `pattern` holds one of `words`, a block without them is not searched."""

    @lru_cache(maxsize=TEXT_CACHE_SIZE)
    def matches(text: str) -> tuple[re.Match[str], ...]:
        return tuple(pattern.finditer(text)) if words is None or may_match(text, words) else ()

    return matches


def text_blocks(section: Section, only: tuple[SectionKind, ...] = (), skip: tuple[SectionKind, ...] = ()) -> Iterator[PlacedBlock]:
    if (only and section.kind not in only) or section.kind in skip:
        return
    for placed in section.blocks:
        if placed.kind in _TEXT_KINDS:
            yield placed


def any_text(
    section: Section,
    find: Finder,
    only: tuple[SectionKind, ...] = (),
    skip: tuple[SectionKind, ...] = (),
) -> bool:
    if (only and section.kind not in only) or section.kind in skip:
        return False
    # Asked once per Section the manuscript hands on (held, so its id stays its own) and finder (a module's, for
    # good): a combine asks of every section on each edit, and the blocks of those an edit left are not looked up.
    key = (id(section), id(find))
    kept = _HELD.get(key)
    if kept is not None and kept[0] is section:
        return kept[1]
    if len(_HELD) >= SECTION_CACHE_SIZE:
        _HELD.clear()
    held = any(find(placed.block.plain.text) for placed in text_blocks(section))
    _HELD[key] = (section, held)
    return held


_HELD: dict[tuple[int, int], tuple[Section, bool]] = {}


def flag_heading(ctx: RuleContext, section: Section, violation: Violation) -> Finding:
    """`violation` on the section's heading line (as far as the section's own text reaches)."""
    text = ctx.source(section.file).text
    line_end = text.find("\n", section.start)
    end = line_end if line_end != -1 else len(text)
    # Text past the section's own run (after an \\input on the heading line) is not in its key.
    end = next((min(end, run.end) for run in section.runs if run.file == section.file and run.start <= section.start < run.end), end)
    return ctx.flag(violation, section.file, section.start, end, section=section.title or section.kind.value)
