"""The manuscript as the review prompts read it, and what the related-work search asks for.

The text is the detection prompts' block data (`llm.units.paper_lines`), so every
stage sees the same indexed blocks and the paper stays data, never instructions.
"""

from __future__ import annotations

from ...latex.model import SectionKind
from ...latex.project import Project
from ..llm.units import block_text, paper_lines, reviewable_blocks, reviewable_sections, section_label


def paper_text(project: Project) -> str:
    manuscript = project.manuscript
    return paper_lines(manuscript, reviewable_blocks(manuscript))


def section_titles(project: Project) -> str:
    return "\n".join(f"- {section_label(s)}" for s in reviewable_sections(project.manuscript))


def paper_title(project: Project) -> str:
    """The front matter's first line (the title), else the abstract's first sentence; '' when neither."""
    for section in project.manuscript.sections:
        if section.kind not in (SectionKind.FRONT, SectionKind.ABSTRACT):
            continue
        text = next((t for placed in section.blocks if (t := block_text(placed))), "")
        if text:
            first = text.split(". ")[0] if section.kind is SectionKind.ABSTRACT else text
            return " ".join(first.split()[:25])
    return ""
