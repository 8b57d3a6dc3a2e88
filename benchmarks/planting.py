"""What the error-injection benchmark plants: an Edit, and the sites every kind of slip may use."""

from __future__ import annotations

import re
from dataclasses import dataclass

from auditex.latex.manuscript import PlacedBlock
from auditex.latex.model import SectionKind
from auditex.latex.project import Project


@dataclass
class Edit:
    """One planted error: replacements (start, end, new) in one file and the lines they touch (0-based)."""

    file: str
    changes: list[tuple[int, int, str]]
    lines: set[int]
    what: str

    def apply(self, text: str) -> str:
        for start, end, new in sorted(self.changes, reverse=True):  # later first: offsets stay valid
            text = text[:start] + new + text[end:]
        return text


def replaced(project: Project, file: str, start: int, end: int, new: str, what: str) -> Edit:
    first = project.source(file).text.count("\n", 0, start)
    return Edit(file, [(start, end, new)], set(range(first, first + new.count("\n") + 1)), what)


def prose_blocks(project: Project) -> list[PlacedBlock]:
    return [p for p in project.manuscript.blocks if p.kind.value == "paragraph" and len(p.block.plain.text) > 200]


def append_to_paragraph(project: Project, placed: PlacedBlock, sentence: str, what: str, separator: str = " ") -> Edit:
    end = placed.block.end
    text = project.source(placed.file).text
    while end > placed.block.start and text[end - 1].isspace():
        end -= 1
    return replaced(project, placed.file, end, end, separator + sentence, what)


def uncommented(text: str) -> str:
    """The source with its comments blanked out, offsets kept."""
    return re.sub(r"(?<!\\)%.*", lambda m: " " * len(m.group(0)), text)


def late_paragraphs(project: Project, kinds: tuple[SectionKind, ...]) -> list[PlacedBlock]:
    """Long paragraphs of the given section kinds, from the middle outwards (the first is the old single site)."""
    sections = project.manuscript.sections
    blocks = [p for p in prose_blocks(project) if sections[p.section].kind in kinds]
    middle = len(blocks) // 2
    return sorted(blocks, key=lambda p: abs(blocks.index(p) - middle))
