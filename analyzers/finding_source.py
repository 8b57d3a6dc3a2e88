"""A source of findings, and what the session gives it to run.

The session (session.py) knows no detector by name. Besides the rules it checks as the
author types, a front end hands it a `FindingSource` — the online verification of the
references, the LLM audit — and `Session.run(source)` runs it over each project and keeps
what it reports in the source's slot. A source:
- names its `slot` and the slots it `reads` (the LLM audit reads the rules' findings: the
  spans the SEC rules flag are never sent, and candidates with `Evidence` are verified);
- gets one `SourceRun` per project: a `Snapshot` of the project's texts, the project to read
  (the live one, or a private copy parsed from the snapshot), the settings and findings
  policy, the findings of the slots it reads, a progress callback and a cancel event;
- yields `SourceReport`s as its work comes in: partial ones (a unit finished) and a last one;
- may refute other slots' findings (`refuted`: fingerprints the merge leaves out).

A source whose findings take long to come (`follows_edits`) has them kept on their sections
(kept_findings.py), so they follow the text the author keeps typing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..latex.project import Project
from ..latex.record import record
from .analysis_cache import AnalysisCache
from .finding import Finding, Source
from .policy import Policy
from .project_config import Config
from .registry import Registry

if TYPE_CHECKING:  # the event loop loads with the first source that runs, not with a plain check
    import asyncio

RULES_SLOT = "rules"


class RuleChecker(Protocol):
    """One project's rule checker, re-run on every change (the engine: incremental, cached by facets)."""

    policy: Policy

    def check(self, project: Project, only: Callable[[str], bool] | None = None) -> list[Finding]: ...

    def save(self) -> None: ...


class RuleSource(Protocol):
    """The rules: the source the session checks as the text changes, with one checker per project
    (analyzers/engine.py's `RuleEngines`). The front end that opens a session hands it over."""

    registry: Registry

    def checker(self, policy: Policy, cache: AnalysisCache | None) -> RuleChecker: ...


# done, total, what is being done
Progress = Callable[[int, int, str], None]


@record
class Snapshot:
    """One project's texts as of now (the editor's, where it has them) and its rule findings:
    what a slow source reads while the live project goes on changing."""

    folder: Path
    root: str
    texts: dict[str, str]
    rule_findings: list[Finding]
    boundary: Path | None = None  # the live project's read boundary

    @classmethod
    def of(cls, project: Project, findings: list[Finding]) -> Snapshot:
        texts = {relative: document.text for relative, document in project.documents.items()}
        texts |= {relative: bibliography.source.text for relative, bibliography in project.bibliographies.items()}
        rule_findings = [finding for finding in findings if finding.source is Source.RULE]
        return cls(project.root.folder, project.root_file, texts, rule_findings, project.root.boundary)

    @cached_property
    def private_project(self) -> Project:
        """A project of the snapshot's own, parsed once from its texts (off the thread that owns the live one)."""
        return Project(self.folder, self.root, self.texts, boundary=self.boundary)


@record
class SourceRun:
    snapshot: Snapshot
    project: Project
    config: Config
    policy: Policy
    read: Mapping[str, list[Finding]]  # slot → that slot's findings of this project
    progress: Progress | None = None
    cancel: asyncio.Event | None = None


@dataclass
class SourceReport:
    """What a source has found in one project so far. `complete` is False on a partial report, and on
    a last one that stopped early (cancelled, failed in part): the slot then keeps what came before too."""

    root: str
    findings: list[Finding]
    refuted: set[str] = field(default_factory=set)  # fingerprints of other slots' findings to leave out
    shown: list[Finding] = field(default_factory=list)  # other slots' findings as this source reports them
    final: bool = True
    complete: bool = True
    account: Any = None  # the run's own account for the front end (an AuditResult, a Summary)


class FindingSource(ABC):
    slot: ClassVar[str]
    reads: ClassVar[tuple[str, ...]] = ()
    follows_edits: ClassVar[bool] = False

    @abstractmethod
    def run(self, run: SourceRun) -> AsyncIterator[SourceReport]:
        """The project's findings as they come; the last report has `final` set."""
