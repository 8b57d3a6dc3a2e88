"""What a rule sees, and how it reports."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..latex.index import Index
from ..latex.manuscript import Manuscript, PlacedBlock, Section
from ..latex.project import Project, ProjectProblem
from ..latex.source import SourceText
from .facets import CheckedIndex, CheckedProject, CheckedSource, checking
from .finding import Evidence, Finding, Fix, Range, Related, Severity, TextEdit
from .project_config import Config
from .registry import Rule, Scope
from .violation import Violation
from .work_budget import WorkBudget


def paragraphs(text: str) -> Iterator[tuple[int, str]]:
    """The text's blank-line-separated pieces ("\\n\\n" splits) with their offsets: what per-paragraph caches key on."""
    offset = 0
    for paragraph in text.split("\n\n"):
        yield offset, paragraph
        offset += len(paragraph) + 2


class Spot(NamedTuple):
    """Where a finding would sit (a span of a file's source, in its section), kept without building the
    finding: a rule that weighs every number of a paper builds findings only for those it reports."""

    file: str
    start: int
    end: int
    section: str


@dataclass
class RuleContext:
    """A rule's view of the project. What it reads must lie within the facets it declares
    (see facets.py): under AUDITEX_CHECK_FACETS, a read beyond them raises."""

    whole_project: Project
    rule: Rule
    config: Config
    budget: WorkBudget = field(default_factory=WorkBudget)  # the engine gives each unit it computes a fresh one

    def __post_init__(self) -> None:
        # Online rules run in the verification pass, whose results are not cached by facets.
        self._checked = checking() and self.rule.scope is not Scope.ONLINE

    def spend(self, items: int) -> None:
        """Count `items` compared or pairs considered; past the unit's budget, the rule stops (OverBudget)."""
        self.budget.spend(items)

    @property
    def project(self) -> Project:
        if self._checked:
            return CheckedProject(self.whole_project, self.rule.code, self.rule.reads)  # type: ignore[return-value]
        return self.whole_project

    @property
    def index(self) -> Index:
        if self._checked:
            return CheckedIndex(self.whole_project.index, self.rule.code, self.rule.reads)  # type: ignore[return-value]
        return self.whole_project.index

    @property
    def manuscript(self) -> Manuscript:
        return self.index.manuscript

    def source(self, file: str) -> SourceText:
        if self._checked:
            return CheckedSource(self.whole_project.source(file), self.rule.code, self.rule.reads)  # type: ignore[return-value]
        return self.whole_project.source(file)

    def problem_text(self, problem: ProjectProblem) -> str:
        """The source text a project problem spans (the "problems" facet digests it with the problem)."""
        return self.whole_project.source(problem.file).text[problem.start : problem.end]

    def range(self, file: str, start: int, end: int) -> Range:
        return Range.of(*self.positions(file, start, end))

    def positions(self, file: str, start: int, end: int) -> tuple[int, int, int, int]:
        """A span's start and end (line, UTF-16 character), what its `range` holds, without building the model."""
        source = self.whole_project.source(file)
        return (*source.position(start), *source.position(max(start, end)))

    def related(self, file: str, start: int, end: int, message: str) -> Related:
        return Related(file=file, range=self.range(file, start, end), message=message)

    def edit(self, file: str, start: int, end: int, new_text: str) -> TextEdit:
        return TextEdit(file=file, range=self.range(file, start, end), new_text=new_text)

    def fix(self, title: str, *edits: TextEdit, safe: bool = False) -> Fix:
        return Fix(title=title, edits=list(edits), safe=safe)

    def report(
        self,
        file: str,
        start: int,
        end: int,
        message: str,
        *,
        identity: str = "",
        related: list[Related] | None = None,
        fixes: list[Fix] | None = None,
        confidence: float = 1.0,
        explanation: str | None = None,
        section: str | None = None,
        severity: Severity | None = None,
        evidence: Evidence | None = None,
    ) -> Finding:
        return Finding(
            code=self.rule.code,
            category=self.rule.category,
            severity=severity or self.rule.severity,
            message=message,
            file=file,
            range=self.range(file, start, end),
            related=related or [],
            confidence=confidence,
            fixes=fixes or [],
            explanation=explanation,
            identity=identity or message,
            section=section,
            evidence=evidence,
        )

    def flag(
        self,
        violation: Violation,
        file: str,
        start: int,
        end: int,
        *,
        edits: list[TextEdit] | None = None,
        safe: bool = False,
        **kwargs: Any,
    ) -> Finding:
        """Place `violation` on `file[start:end]`; `edits` are its fix, titled by the violation."""
        fixes = [self.fix(violation.fix_title, *edits, safe=safe)] if edits and violation.fix_title else []
        return self.report(file, start, end, violation.message, identity=violation.identity, fixes=fixes, **kwargs)

    def flag_block(self, violation: Violation, placed: PlacedBlock, plain_start: int, plain_end: int, **kwargs: Any) -> Finding:
        """Place `violation` on a span of a block's plain text, mapped back to the source."""
        return self.report_block(placed, plain_start, plain_end, violation.message, identity=violation.identity, **kwargs)

    def report_block(self, placed: PlacedBlock, plain_start: int, plain_end: int, message: str, **kwargs: Any) -> Finding:
        """Report on a span of a block's plain text, mapped back to the source."""
        return self.report_at(self.spot(placed, plain_start, plain_end), message, **kwargs)

    def spot(self, placed: PlacedBlock, plain_start: int, plain_end: int) -> Spot:
        """A span of a block's plain text, mapped back to the source, where a finding may be reported later."""
        start, end = placed.block.plain.source_span(plain_start, plain_end)
        section = self.whole_project.manuscript.sections[placed.section]
        return Spot(placed.file, start, end, section.title or section.kind.value)

    def report_at(self, spot: Spot, message: str, **kwargs: Any) -> Finding:
        kwargs.setdefault("section", spot.section)
        return self.report(spot.file, spot.start, spot.end, message, **kwargs)

    def related_block(self, placed: PlacedBlock, plain_start: int, plain_end: int, message: str) -> Related:
        start, end = placed.block.plain.source_span(plain_start, plain_end)
        return self.related(placed.file, start, end, message)

    def section_of(self, placed: PlacedBlock) -> Section:
        return self.manuscript.sections[placed.section]
