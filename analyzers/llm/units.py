"""Prompt units: the manuscript as delimited, indexed block data.

The paper reaches a model only through `paper_lines`: one JSON object per line,
`{"index", "section", "text"}`, placed between `<paper>` tags by the templates.
JSON escaping keeps a block from ending its own string, and `<` before a letter or
`/` is written `\u003c`, so no block can open or close a tag: the manuscript stays
data, never instructions.

`index` is `PlacedBlock.index`, the global reading-order index that answers quote
back as `block_index` and that anchoring resolves.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...latex.manuscript import Manuscript, PlacedBlock, Section
from ...latex.model import SectionKind
from ...latex.project import Project
from ..finding import Finding

# Sections whose text is not under audit, and would only cost tokens.
_SKIPPED_KINDS = (SectionKind.REFERENCES,)
# One block longer than this is cut: a giant table or verbatim dump says nothing a model needs twice.
MAX_BLOCK_CHARS = 6000
MAX_KNOWN = 60
_TAG_START = re.compile(r"<(?=[/A-Za-z])")


@dataclass
class Unit:
    """One LLM call's worth of work; `id` is stable across edits elsewhere."""

    id: str
    kind: str  # fast | memory | section | planner | retriever | specialist | merge | critical
    label: str  # for progress and failure reports
    sections: list[Section] = field(default_factory=list)
    blocks: list[PlacedBlock] = field(default_factory=list)


def section_label(section: Section) -> str:
    if section.title:
        return section.title
    return "Front matter" if section.kind is SectionKind.FRONT else section.kind.value.replace("_", " ").title()


def block_text(placed: PlacedBlock) -> str:
    text = " ".join(placed.block.plain.text.split())
    return text if len(text) <= MAX_BLOCK_CHARS else text[:MAX_BLOCK_CHARS] + " [...]"


def reviewable_sections(manuscript: Manuscript) -> list[Section]:
    """Sections with text to audit, in reading order."""
    return [
        section
        for section in manuscript.sections
        if section.kind not in _SKIPPED_KINDS and any(block_text(placed) for placed in section.blocks)
    ]


def reviewable_blocks(manuscript: Manuscript) -> list[PlacedBlock]:
    return [placed for section in reviewable_sections(manuscript) for placed in section.blocks if block_text(placed)]


def data_line(record: dict[str, Any]) -> str:
    """One JSON line that cannot open or close a delimiter tag."""
    return _TAG_START.sub(r"\\u003c", json.dumps(record, ensure_ascii=False))


def paper_lines(manuscript: Manuscript, blocks: Iterable[PlacedBlock]) -> str:
    lines = []
    for placed in blocks:
        text = block_text(placed)
        if not text:
            continue
        record = {"index": placed.index, "section": section_label(manuscript.sections[placed.section]), "text": text}
        lines.append(data_line(record))
    return "\n".join(lines)


def outline(manuscript: Manuscript) -> str:
    """Section names with their block ranges, for the planner."""
    lines = []
    for section in reviewable_sections(manuscript):
        indices = [placed.index for placed in section.blocks]
        indent = "  " * max(0, section.level - 2)
        lines.append(f"{indent}- {section_label(section)} (blocks {indices[0]}-{indices[-1]})")
    return "\n".join(lines)


def preview_lines(manuscript: Manuscript, chars: int = 240) -> str:
    """The first block of every section, cut short: the planner's glimpse of content."""
    firsts = [next(p for p in section.blocks if block_text(p)) for section in reviewable_sections(manuscript)]
    lines = []
    for placed in firsts:
        text = block_text(placed)
        record = {"index": placed.index, "section": section_label(manuscript.sections[placed.section]), "text": text[:chars]}
        lines.append(data_line(record))
    return "\n".join(lines)


def block_at(project: Project, file: str, offset: int) -> PlacedBlock | None:
    for placed in project.manuscript.blocks:
        if placed.file == file and placed.block.start <= offset < max(placed.block.end, placed.block.start + 1):
            return placed
    return None


def known_lines(project: Project, findings: Iterable[Finding], blocks: Iterable[PlacedBlock] | None) -> str:
    """Deterministic findings inside `blocks` (None: anywhere), so the model does not repeat them."""
    wanted = None if blocks is None else {placed.index for placed in blocks}
    lines = []
    for finding in findings:
        document = project.documents.get(finding.file)
        placed = None
        if document is not None:
            placed = block_at(project, finding.file, document.source.offset(finding.range.start.line, finding.range.start.character))
        if wanted is not None and (placed is None or placed.index not in wanted):
            continue
        where = f"block {placed.index}" if placed is not None else finding.file
        lines.append(f"- [{where}] {finding.category.value}: {finding.message}")
        if len(lines) >= MAX_KNOWN:
            break
    return "\n".join(lines) or "(none)"
