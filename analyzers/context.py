"""What a rule sees, and how it reports."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..latex.manuscript import Manuscript, PlacedBlock, Section
from ..latex.memory import Memory
from ..latex.project import Project
from ..latex.source import SourceText
from .config import Config
from .finding import Finding, Fix, Range, Related, Severity, TextEdit
from .registry import Rule

# Rules memoise per-block work by the block's text (functools.lru_cache(maxsize=TEXT_CACHE_SIZE)),
# so re-running a project rule after an edit re-reads only the edited blocks.
TEXT_CACHE_SIZE = 8192


def paragraphs(text: str) -> Iterator[tuple[int, str]]:
    """The text's blank-line-separated pieces ("\\n\\n" splits) with their offsets: what per-paragraph caches key on."""
    offset = 0
    for paragraph in text.split("\n\n"):
        yield offset, paragraph
        offset += len(paragraph) + 2


@dataclass
class RuleContext:
    project: Project
    rule: Rule
    config: Config

    @property
    def memory(self) -> Memory:
        return self.project.memory

    @property
    def manuscript(self) -> Manuscript:
        return self.project.manuscript

    def source(self, file: str) -> SourceText:
        if file in self.project.documents:
            return self.project.documents[file].source
        if file in self.project.bibliographies:
            return self.project.bibliographies[file].source
        return SourceText("")

    def range(self, file: str, start: int, end: int) -> Range:
        source = self.source(file)
        start_line, start_char = source.position(start)
        end_line, end_char = source.position(max(start, end))
        return Range.of(start_line, start_char, end_line, end_char)

    def related(self, file: str, start: int, end: int, message: str) -> Related:
        return Related(file=file, range=self.range(file, start, end), message=message)

    def edit(self, file: str, start: int, end: int, new_text: str) -> TextEdit:
        return TextEdit(file=file, range=self.range(file, start, end), new_text=new_text)

    def fix(self, title: str, *edits: TextEdit, safe: bool = False) -> Fix:
        return Fix(title=title, edits=list(edits), safe=safe)

    def report(self, file: str, start: int, end: int, message: str, *, identity: str = "",
               related: list[Related] | None = None, fixes: list[Fix] | None = None,
               confidence: float = 1.0, explanation: str | None = None, section: str | None = None,
               severity: Severity | None = None) -> Finding:
        return Finding(
            code=self.rule.code, category=self.rule.category, severity=severity or self.rule.severity, message=message,
            file=file, range=self.range(file, start, end), related=related or [], confidence=confidence,
            fixes=fixes or [], explanation=explanation, identity=identity or message, section=section,
        )

    def report_block(self, placed: PlacedBlock, plain_start: int, plain_end: int, message: str, **kwargs: Any) -> Finding:
        """Report on a span of a block's plain text, mapped back to the source."""
        start, end = placed.block.plain.source_span(plain_start, plain_end)
        section = self.manuscript.sections[placed.section]
        kwargs.setdefault("section", section.title or section.kind.value)
        return self.report(placed.file, start, end, message, **kwargs)

    def related_block(self, placed: PlacedBlock, plain_start: int, plain_end: int, message: str) -> Related:
        start, end = placed.block.plain.source_span(plain_start, plain_end)
        return self.related(placed.file, start, end, message)

    def section_of(self, placed: PlacedBlock) -> Section:
        return self.manuscript.sections[placed.section]
