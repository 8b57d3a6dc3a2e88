"""The manuscript as the review prompts read it, and what the related-work search asks for.

The text is the detection prompts' block data (`llm.units.PaperData`), so every
stage sees the same indexed blocks and the paper stays data, never instructions.
"""

from __future__ import annotations

from ...latex.deferred_pattern import DeferredPattern
from ...latex.expansion import MacroTable
from ...latex.model import SectionKind
from ...latex.project import Project
from ..llm.units import PaperData, section_label
from ..scholarly.cited_references import to_text


def paper_text(project: Project) -> str:
    paper = PaperData(project)
    return paper.lines(paper.blocks())


def section_titles(project: Project) -> str:
    return "\n".join(f"- {section_label(s)}" for s in PaperData(project).sections())


def paper_title(project: Project) -> str:
    """`\\title{…}` as text (the author's argument-less macros expanded), else the front matter's
    first line, else the abstract's first sentence; '' when none."""
    title = _declared_title(project)
    if title:
        return title
    for section in project.manuscript.sections:
        if section.kind not in (SectionKind.FRONT, SectionKind.ABSTRACT):
            continue
        text = next((t for placed in section.blocks if (t := " ".join(placed.block.plain.text.split()))), "")
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
    raw = _BREAK.sub(" ", MacroTable(macro for _, macro in project.index.macros).expand(raw))
    return " ".join(to_text(raw).split())


_TITLE = DeferredPattern(r"\\title\s*(?:\[[^\]]*\])?\s*\{")
_BREAK = DeferredPattern(r"\\\\(?:\[[^\]]*\])?|\\thanks\s*\{[^{}]*\}")
