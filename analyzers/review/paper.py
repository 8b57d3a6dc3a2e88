"""The manuscript as the review prompts read it, and what the related-work search asks for.

The text is the detection prompts' block data (`llm.units.paper_lines`), so every
stage sees the same indexed blocks and the paper stays data, never instructions.
"""

from __future__ import annotations

import re

from ...latex.model import SectionKind
from ...latex.project import Project
from ..llm.units import block_text, paper_lines, reviewable_blocks, reviewable_sections, section_label
from ..scholarly.references import to_text


def paper_text(project: Project) -> str:
    manuscript = project.manuscript
    return paper_lines(manuscript, reviewable_blocks(manuscript))


def section_titles(project: Project) -> str:
    return "\n".join(f"- {section_label(s)}" for s in reviewable_sections(project.manuscript))


def paper_title(project: Project) -> str:
    """`\\title{…}` as text (the author's argument-less macros expanded), else the front matter's
    first line, else the abstract's first sentence; '' when none."""
    title = _declared_title(project)
    if title:
        return title
    for section in project.manuscript.sections:
        if section.kind not in (SectionKind.FRONT, SectionKind.ABSTRACT):
            continue
        text = next((t for placed in section.blocks if (t := block_text(placed))), "")
        if text:
            first = text.split(". ")[0] if section.kind is SectionKind.ABSTRACT else text
            return " ".join(first.split()[:25])
    return ""


def _declared_title(project: Project) -> str:
    source = project.source(project.root_file).text
    found = _TITLE.search(source)
    if found is None:
        return ""
    start = found.end()
    depth, end = 1, start
    while end < len(source) and depth:
        depth += {"{": 1, "}": -1}.get(source[end], 0) if source[end - 1] != "\\" else 0
        end += 1
    raw = source[start : end - 1]
    # The author's own shorthands (\method, \ours): their bodies, as LaTeX would print them.
    macros = {macro.name.lstrip("\\"): macro.body for _, macro in project.index.macros if macro.arguments == 0}
    for _ in range(3):  # macros that use macros
        raw = _MACRO.sub(lambda use: macros.get(use.group(1), use.group(0)), raw)
    raw = _BREAK.sub(" ", raw)
    return " ".join(to_text(raw).split())


_TITLE = re.compile(r"\\title\s*(?:\[[^\]]*\])?\s*\{")
_MACRO = re.compile(r"\\([A-Za-z@]+)\b\s*(?:\{\})?")
_BREAK = re.compile(r"\\\\(?:\[[^\]]*\])?|\\thanks\s*\{[^{}]*\}")
