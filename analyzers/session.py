"""The analysis session: what every front end drives, as ruff's CLI and server share `check_path`.

A session owns one folder's (or one extracted archive's) analysis: its settings, its
projects (one per root file), one `Engine` per project, the kept check record, and the
findings of each source in a slot of its own:
- rules: each project's findings from its last check;
- online verification: the BIB findings of the verdicts on its cited references;
- LLM: each project's last audit, its LLM findings kept on their sections.
`findings` puts the slots together through the one merge rule (`policy.merged`).

The CLI opens a session, checks once and renders; the server keeps one per workspace
folder and feeds it the editor's changes; batch opens one per submission.

The kept check record: a check of what the disk held when the session opened, under the
settings it opened with, is kept in the analysis cache (see check_record.py), and a
session whose record still holds answers from it at once: the CLI without parsing, the
editor while the projects are parsed. Anything else a session is told (an editor text, a
change on disk, other settings) makes its first check describe no state of the disk,
and then no record is kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..latex.chunk_parser import ChunkParser
from ..latex.discovery import is_fragment, root_for_file
from ..latex.project import Project, ProjectProblem
from ..latex.sandbox import ProjectRoot
from ..latex.source import TEX_SUFFIXES
from .analysis_cache import AnalysisCache, cache_disabled
from .check_record import CheckRecord, KeptCheck
from .dismissals import Dismissals
from .engine import Engine
from .finding import Finding, Source
from .llm.kept_findings import KeptFinding, anchored, current
from .policy import Policy, merged
from .project_config import CONFIG_FILE, Config, load_config
from .projects import InputError, open_projects
from .registry import Registry
from .rules import default_registry

if TYPE_CHECKING:  # the LLM and network stacks load when an audit or a verification runs
    from .llm.answer_cache import LLMCache
    from .llm.audit import AuditResult
    from .llm.provider import Provider
    from .llm.run import ProgressCallback
    from .llm.settings import LLMSettings
    from .online_verification import OnlineChecker, Summary

Configure = Callable[[Path], Config]


@dataclass
class ProjectState:
    project: Project
    engine: Engine
    findings: list[Finding] = field(default_factory=list)  # the rules' slot
    dirty: bool = True
    saved: bool = False  # whether a check's results went to the analysis cache


@dataclass
class Audited:
    """A project's last audit: its LLM findings (kept on their sections) and its verdicts on rule findings."""

    llm: dict[str, KeptFinding] = field(default_factory=dict)
    reported: list[Finding] = field(default_factory=list)  # the rule findings as the audit reports them
    rejected: set[str] = field(default_factory=set)  # fingerprints of the rule findings its verifier rejected


def engine_for(policy: Policy, registry: Registry | None = None, cache: AnalysisCache | None = None) -> Engine:
    """The rule engine under `policy`'s settings and dismissals: the one place an `Engine` is built."""
    return Engine(registry, policy.config, policy.dismissals, cache)


class Session:
    """One folder's analysis. `configure` reads its settings (`.auditex.toml` and whatever the
    front end lays on top); `path` is what is checked in it (a file checks its root's project)."""

    def __init__(
        self,
        folder: Path,
        *,
        path: Path | None = None,
        configure: Configure = load_config,
        registry: Registry | None = None,
        use_cache: bool = True,
        parse_workers: int | None = 1,
        progress: Callable[[str], None] | None = None,
        external_problems: list[ProjectProblem] | None = None,
    ) -> None:
        """The settings and, when the last check of `path` still holds, its record; nothing is parsed yet.

        `parse_workers` processes parse large projects during the first check (None: every core);
        `progress` hears what is being done; `external_problems` (an archive's refused members)
        are reported as the projects' own, and such a session keeps no record."""
        self.folder = folder.resolve()
        self.root = ProjectRoot(self.folder)
        self.path = path or self.folder
        self.configure = configure
        self.registry = registry or default_registry()
        self.progress = progress
        self.external_problems = external_problems
        self.dismissals = Dismissals(self.folder)
        self.cache = AnalysisCache(self.folder) if use_cache and not cache_disabled() else None
        self.parser = ChunkParser(self.cache, workers=parse_workers, progress=progress)
        self.config = configure(self.folder)
        self.states: list[ProjectState] | None = None  # None: not opened yet
        self.online: dict[str, list[Finding]] = {}  # root file → the online verification's slot
        self.audits: dict[str, Audited] = {}  # root file → the LLM slot
        relative = self.root.relative(self.path)
        # A path outside the folder has no record: opening it says what is wrong with it.
        kept = (
            KeptCheck(self.cache, self.root, relative, self.config)
            if self.cache is not None and relative is not None and not external_problems
            else None
        )
        self.record: CheckRecord | None = kept.reuse() if kept is not None else None
        self._kept = kept if self.record is None else None  # a record that holds needs no new one

    # Opening

    def open(self, overlays: dict[str, str] | None = None, require_root: bool = True) -> None:
        """(Re)build the projects from the root files on disk, with `overlays` (editor texts) on top.

        InputError when `path` holds no root file, unless `require_root` is False (the editor:
        the files it opens bring their own projects)."""
        self.states = []
        if self._kept is not None:
            self._kept.before()
        try:
            _, projects = open_projects(self.path, self.folder, self.external_problems, self.parser, self.config)
        except InputError:
            if require_root:
                raise
            projects = []
        self.states = [ProjectState(project, self._engine()) for project in projects]
        self.apply(overlays or {})

    def reload_config(self) -> None:
        """Read the settings again; every project is checked again under them."""
        self._kept = None  # a record is of a check under the settings the session opened with
        self.config = self.configure(self.folder)
        for state in self.states or []:
            state.engine = self._engine()
            state.dirty = True

    def _engine(self) -> Engine:
        return engine_for(self.policy, self.registry, self.cache)

    @property
    def policy(self) -> Policy:
        return Policy(self.config, self.dismissals)

    # Changes

    def apply(self, changes: Mapping[str, str | None]) -> None:
        """New texts of project-relative paths (None: read from disk, it was closed, changed or deleted)."""
        for relative, text in changes.items():
            self._kept = None  # the first check no longer reads what the folder held when it opened
            if relative == CONFIG_FILE:
                self.reload_config()
                continue
            for state in self.opened():
                change = state.project.update(relative, text)
                if change.changed_files or change.graph_changed:
                    state.dirty = True
            if relative.endswith(TEX_SUFFIXES) and (text is not None or self.root.exists(relative)):
                self._ensure_project(relative, text)

    def _ensure_project(self, relative: str, text: str | None) -> None:
        """Give a source file that no project reaches a project of its own root."""
        states = self.opened()
        if any(state.project.contains(relative) for state in states):
            return
        # Every root of the folder has its project already, and none reaches this file.
        main = root_for_file(self.root, relative, candidates=[]) or relative
        if any(state.project.root_file == main for state in states):
            return
        project = Project(self.folder, main, overlays={relative: text} if text is not None else None, parser=self.parser)
        states.append(ProjectState(project, self._engine()))

    def invalidate(self) -> None:
        """Check every project again (a finding was dismissed)."""
        for state in self.states or []:
            state.dirty = True

    # Checking

    def check(self, is_stale: Callable[[], bool] = lambda: False) -> bool:
        """Check the projects that changed; False when `is_stale` says a newer change interrupted.

        A session whose record holds and that was never opened is answered by the record."""
        if self.states is None:
            if self.record is not None:
                return True
            self.open()
        states = self.states or []
        for number, state in enumerate(states, 1):
            if state.dirty:
                if is_stale():
                    return False
                if self.progress is not None:
                    self.progress(f"checking {state.project.root_file}" + (f" ({number}/{len(states)})" if len(states) > 1 else ""))
                self.check_one(state)
        self.parser.close()  # parse workers serve the first check; later parses are single files
        if self._kept is not None:  # the first check, of the disk as it was: the next session answers from it
            self._kept.keep([state.project for state in states], self.roots, self.findings)
            self._kept = None
        return True

    def check_one(self, state: ProjectState) -> None:
        state.findings = state.engine.check(state.project)
        state.dirty = False
        if not state.saved:
            state.engine.save()
            state.saved = True

    # Verifying references

    async def verify_references(self, on_answer: Callable[[int, int], None] | None = None, checker: OnlineChecker | None = None) -> Summary:
        """Resolve every project's cited references and fill the online slot; `on_answer` hears how many
        references of a project have an answer. Returns the run's account. The network stack loads here."""
        from .online_verification import OnlineChecker, Summary

        own = checker is None
        checker = checker or OnlineChecker(self.registry)
        total = Summary()
        try:
            for state in self.opened():
                self.online[state.project.root_file], summary = await checker.check(state.project, state.engine.policy, on_answer=on_answer)
                total = total.plus(summary)
        finally:
            if own:
                checker.cache.close()
        return total

    def take_verdicts(self, checker: OnlineChecker | None) -> None:
        """Fill the online slot from the verdicts `checker` holds (None: empty it), against the current text,
        on each `.bib` entry and on each `\\cite` of it (the editor: verdicts arrive while the author types)."""
        if checker is None or not checker.verdicts:
            self.online = {}
            return
        from .scholarly.cited_references import cited_references

        self.online = {
            state.project.root_file: checker.findings(state.project, state.engine.policy, cited_references(state.project), at_cites=True)
            for state in self.states or []
        }

    def restore_online(self, findings: list[Finding]) -> None:
        """Fill the online slot with what an earlier run reported (a batch record's findings: those the
        rules do not report again are its online verification's), without the network."""
        checked = {finding.fingerprint for finding in self.findings}
        self.online = {"": [finding for finding in findings if finding.fingerprint not in checked]}

    # Auditing

    async def audit(
        self,
        settings: LLMSettings,
        mode: str,
        *,
        cache: LLMCache | None = None,
        progress: Callable[[Project], ProgressCallback | None] = lambda project: None,
        cancel: asyncio.Event | None = None,
        provider: Provider | None = None,
        refresh: bool = False,
        critical_k: int = 5,
    ) -> AsyncIterator[AuditResult]:
        """The LLM audit of every project, each kept in the LLM slot and yielded as it finishes (a failure
        keeps the earlier projects'); `progress(project)` gives the progress callback of a project's audit."""
        for state in self.opened():
            project = state.project
            result = await audit_project(
                project,
                settings,
                mode,
                self.config,
                state.engine.policy,
                [finding for finding in self.findings if project.contains(finding.file)],
                cache=cache,
                on_progress=progress(project),
                cancel=cancel,
                provider=provider,
                refresh=refresh,
                critical_k=critical_k,
            )
            self.keep_audit(project, result.llm_findings, result)
            yield result
            if cancel is not None and cancel.is_set():
                break

    def keep_audit(
        self, project: Project, llm_findings: list[Finding], result: AuditResult | None = None, earlier: Audited | None = None
    ) -> None:
        """Keep an audit of `project` (this text, or a private copy of it) in the LLM slot: its LLM
        findings on their sections, added to `earlier`'s (a run cancelled, failed in part, or still
        running), and with `result` its verdicts on rule findings."""
        audited = Audited({**(earlier.llm if earlier is not None else {}), **anchored(project, llm_findings)})
        if result is not None:
            audited.reported = [finding for finding in result.findings if finding.source is not Source.LLM]
            audited.rejected = {finding.with_fingerprint().fingerprint for finding in result.rejected_rules}
        self.audits[project.root_file] = audited

    # Results

    def opened(self) -> list[ProjectState]:
        """The projects, opened on first use when the record answered the check."""
        if self.states is None:
            self.parser.close()
            self.open()
            opened: list[ProjectState] = self.states or []
            if self.record is not None:  # it answered the check: it holds these projects' rule findings
                for state in opened:
                    state.findings = [finding for finding in self.record.findings if state.project.contains(finding.file)]
                    state.dirty = False
        return self.states or []

    @property
    def projects(self) -> list[Project]:
        return [state.project for state in self.opened()]

    @property
    def roots(self) -> list[str]:
        if self.states is None and self.record is not None:
            return self.record.roots
        return [state.project.root_file for state in self.states or []]

    @property
    def fragments(self) -> list[str]:
        """The checked files that are no root file: nothing includes them, each was checked alone."""
        return [file for file in self.roots if is_fragment(self.root, file)]

    @property
    def findings(self) -> list[Finding]:
        """Every source's findings through the one merge rule, in report order."""
        if self.states is None:
            return self.record.findings if self.record is not None else []
        rules: list[Finding] = []
        audited: list[Finding] = []
        rejected: set[str] = set()
        for state in self.states:
            rules += state.findings
            audit = self.audits.get(state.project.root_file)
            if audit is not None:
                audited += [*audit.reported, *current(state.project, state.engine.policy, audit.llm)]
                rejected |= audit.rejected
        online = [finding for findings in self.online.values() for finding in findings]
        return merged(rules, online, audited, rejected)

    def files(self) -> list[str]:
        """Every file the projects read (or, before they are opened, the record's)."""
        if self.states is None:
            return self.record.files if self.record is not None else []
        return list(dict.fromkeys(path for state in self.states for path in (*state.project.documents, *state.project.bibliographies)))

    def findings_by_file(self) -> dict[str, list[Finding]]:
        """Every project file (clean ones with []) → its findings."""
        result: dict[str, list[Finding]] = {file: [] for file in self.files()}
        for finding in self.findings:
            result.setdefault(finding.file, []).append(finding)
        return result

    def projects_with(self, relative: str) -> list[Project]:
        return [state.project for state in self.states or [] if state.project.contains(relative)]


async def audit_project(
    project: Project,
    settings: LLMSettings,
    mode: str,
    config: Config,
    policy: Policy,
    deterministic: list[Finding],
    **options: Any,
) -> AuditResult:
    """One project's LLM audit under the folder's `[llm]` severities and findings `policy`;
    `options` as `run_audit`'s (cache, on_progress, on_findings, cancel, provider, refresh, critical_k)."""
    from .llm.audit import run_audit
    from .llm.config_section import severity_policy

    return await run_audit(
        project,
        settings,
        mode,  # type: ignore[arg-type]  # the front end checked the mode
        policy=severity_policy(config.llm),
        finding_policy=policy,
        deterministic=deterministic,
        **options,
    )
