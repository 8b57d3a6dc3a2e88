"""The analysis session: what every front end drives, as ruff's CLI and server share `check_path`.

A session owns one folder's (or one extracted archive's) analysis: its settings, its
projects (one per root file), one `Engine` per project, the kept check record, and the
findings of each source in a slot of its own:
- rules: each project's findings from its last check, rechecked as the text changes;
- every other source (finding_source.py: the online verification of references, the LLM
  audit), run by `run(source)` over the projects' snapshots, in the slot it names.
`findings` puts the slots together through the one merge rule (`policy.merged`). The session
knows no source by name: the front end hands it the source to run.

The CLI opens a session, checks once and renders; the server keeps one per workspace
folder and feeds it the editor's changes; batch opens one per submission.

The kept check record: a check of what the disk held when the session opened, under the
settings it opened with, is kept in the analysis cache (see folder_record.py), and a
session whose record still holds answers from it at once: the CLI without parsing, the
editor while the projects are parsed. Anything else a session is told (an editor text, a
change on disk, other settings) makes its first check describe no state of the disk,
and then no record is kept.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from itertools import groupby
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING

from ..latex.chunk_parser import ChunkParser
from ..latex.discovery import is_fragment, root_for_file
from ..latex.project import Project, ProjectProblem
from ..latex.sandbox import ProjectRoot
from ..latex.source import TEX_SUFFIXES, SourceText
from .analysis_cache import AnalysisCache, cache_disabled
from .dismissals import Dismissals
from .finding import Finding
from .finding_source import RULES_SLOT, FindingSource, Progress, RuleChecker, RuleSource, Snapshot, SourceReport, SourceRun
from .folder_record import CheckRecord, KeptCheck
from .kept_findings import KeptFinding, anchored, current
from .policy import Policy, in_report_order, merged
from .project_config import CONFIG_FILE, Config, load_config
from .projects import InputError, open_projects
from .staged_check import is_quick, moved_through_edits, texts_of

if TYPE_CHECKING:  # a plain check never waits on the event loop: asyncio loads only when a source runs
    import asyncio

Configure = Callable[[Path], Config]


@dataclass
class ProjectState:
    project: Project
    engine: RuleChecker
    findings: list[Finding] = field(default_factory=list)  # the rules' slot
    dirty: bool = True
    saved: bool = False  # whether a check's results went to the analysis cache
    texts: dict[str, SourceText] | None = None  # the texts `findings` are placed in (None: not checked yet)


@dataclass
class Kept:
    """What one source reported in one project: its findings (kept on their sections when the source
    follows edits), the other slots' findings as it reports them, and those it refuted."""

    findings: list[Finding] = field(default_factory=list)
    on_sections: dict[str, KeptFinding] | None = None
    shown: list[Finding] = field(default_factory=list)
    refuted: set[str] = field(default_factory=set)


class Session:
    """One folder's analysis. `configure` reads its settings (`.auditex.toml` and whatever the
    front end lays on top); `path` is what is checked in it (a file checks its root's project)."""

    def __init__(
        self,
        folder: Path,
        *,
        path: Path | None = None,
        configure: Configure = load_config,
        rules: RuleSource,
        use_cache: bool = True,
        parse_workers: int | None = 1,
        progress: Callable[[str], None] | None = None,
        external_problems: list[ProjectProblem] | None = None,
        boundary: Path | None = None,
    ) -> None:
        """The settings and, when the last check of `path` still holds, its record; nothing is parsed yet.

        `parse_workers` processes parse large projects during the first check (None: every core);
        `progress` hears what is being done; `external_problems` (an archive's refused members)
        are reported as the projects' own, and such a session keeps no record. Reads stay within
        `boundary` (default: read_boundary's)."""
        self.folder = folder.resolve()
        self.root = ProjectRoot(self.folder, boundary)
        self.path = path or self.folder
        self.configure = configure
        self.rules = rules
        self.registry = rules.registry
        self.progress = progress
        self.external_problems = external_problems
        self.dismissals = Dismissals(self.folder)
        self.cache = AnalysisCache(self.folder) if use_cache and not cache_disabled() else None
        self.parser = ChunkParser(self.cache, workers=parse_workers, progress=progress)
        self.config = configure(self.folder)
        self.states: list[ProjectState] | None = None  # None: not opened yet
        self.slots: dict[str, dict[str, Kept]] = {}  # a source's slot → root file → what it reported there
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
            _, projects = open_projects(self.path, self.folder, self.external_problems, self.parser, self.config, self.root.boundary)
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

    def _engine(self) -> RuleChecker:
        return self.rules.checker(self.policy, self.cache)

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
        overlays = {relative: text} if text is not None else None
        project = Project(self.folder, main, overlays=overlays, parser=self.parser, boundary=self.root.boundary)
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
        try:
            for number, state in enumerate(states, 1):
                if state.dirty:
                    if is_stale():
                        return False
                    if self.progress is not None:
                        self.progress(f"checking {state.project.root_file}" + (f" ({number}/{len(states)})" if len(states) > 1 else ""))
                    self.check_one(state)
        except BaseException:
            # A Ctrl-C or SIGTERM after the parse: the workers are joined here, not left to the interpreter's
            # exit hook, whose wake-up races the pool's own thread closing it ("Bad file descriptor").
            self.parser.close()
            raise
        self.parser.close()  # parse workers serve the first check; later parses are single files
        if self._kept is not None:  # the first check, of the disk as it was: the next session answers from it
            self._kept.keep([state.project for state in states], self.roots, self.findings)
            self._kept = None
        return True

    @property
    def changed(self) -> bool:
        """Whether a project changed since its last check."""
        return any(state.dirty for state in self.states or [])

    @property
    def stageable(self) -> bool:
        """Whether every changed project was checked before: a first stage can show it (staged_check.py)."""
        return all(state.texts is not None for state in self.states or [] if state.dirty)

    def check_quick(self, is_stale: Callable[[], bool] = lambda: False) -> bool:
        """The first stage of a staged check: in each changed project, the quick rules' findings anew and the
        others' moved through the edits; the projects stay to be checked. False when `is_stale` says a newer
        change interrupted."""
        for state in self.states or []:
            if state.dirty and state.texts is not None:
                if is_stale():
                    return False
                others = moved_through_edits(
                    [finding for finding in state.findings if not is_quick(finding.code)], state.texts, state.project
                )
                state.findings = in_report_order(state.engine.check(state.project, only=is_quick), others)
                state.texts = texts_of(state.project)
        return True

    def check_one(self, state: ProjectState) -> None:
        state.findings = state.engine.check(state.project)
        state.texts = texts_of(state.project)
        state.dirty = False
        if not state.saved:
            state.engine.save()
            state.saved = True

    # Other sources

    def snapshots(self, relative: str | None = None) -> list[Snapshot]:
        """The projects (those holding `relative`, if given) as of now, checked: what a source reads."""
        self.check()
        states = self.opened()
        chosen = [state for state in states if relative is None or state.project.contains(relative)] or states
        return [Snapshot.of(state.project, state.findings) for state in chosen]

    async def run(
        self,
        source: FindingSource,
        *,
        snapshots: list[Snapshot] | None = None,
        private: bool = False,
        progress: Callable[[str], Progress | None] = lambda root: None,
        cancel: asyncio.Event | None = None,
    ) -> AsyncIterator[SourceReport]:
        """Run `source` over every project (or `snapshots` of some), keeping each report in its slot as it
        comes and yielding it; `private` parses each snapshot into a project of its own, off this thread.
        `progress(root)` gives a project's progress callback; a set `cancel` ends the run after the project
        it stopped, which keeps what it had reported."""
        for snapshot in snapshots if snapshots is not None else self.snapshots():
            project = await self.project_of(snapshot, private)
            read = {slot: self._read(slot, snapshot) for slot in source.reads}
            earlier = self.slots.get(source.slot, {}).get(snapshot.root)
            run = SourceRun(snapshot, project, self.config, self.policy, read, progress(snapshot.root), cancel)
            async for report in source.run(run):
                self.slots.setdefault(source.slot, {})[snapshot.root] = _kept(source, project, report, earlier)
                yield report
            if cancel is not None and cancel.is_set():
                break

    def keep_findings(self, slot: str, findings: list[Finding]) -> None:
        """Fill `slot` with `findings`, each kept with the project that reads its file (verdicts that arrive
        while the author types; an earlier run's record): they replace what the slot held."""
        kept: dict[str, Kept] = {}
        for finding in findings:
            state = next((state for state in self.opened() if state.project.contains(finding.file)), None)
            if state is not None:
                kept.setdefault(state.project.root_file, Kept()).findings.append(finding)
        self.slots[slot] = kept

    async def project_of(self, snapshot: Snapshot, private: bool) -> Project:
        """The project a source reads: the live one, or (`private`) the snapshot's own, parsed off this thread."""
        if private:
            import asyncio

            return await asyncio.to_thread(lambda: snapshot.private_project)
        return next(state.project for state in self.opened() if state.project.root_file == snapshot.root)

    def _read(self, slot: str, snapshot: Snapshot) -> list[Finding]:
        if slot == RULES_SLOT:
            return snapshot.rule_findings
        kept = self.slots.get(slot, {}).get(snapshot.root)
        return kept.findings if kept is not None else []

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
                    state.texts = texts_of(state.project)
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
        rules = [finding for state in self.states for finding in state.findings]
        others: list[Finding] = []
        judged: list[Finding] = []
        refuted: set[str] = set()
        for state in self.states:
            for slot in self.slots.values():
                kept = slot.get(state.project.root_file)
                if kept is not None:
                    on_sections = kept.on_sections
                    others += current(state.project, state.engine.policy, on_sections) if on_sections is not None else kept.findings
                    judged += kept.shown
                    refuted |= kept.refuted
        if len(self.states) == 1 and not (others or judged or refuted):
            return rules  # one project's rule findings: its check made them distinct, in report order
        return merged(rules, others, judged, refuted)

    def files(self) -> list[str]:
        """Every file the projects read (or, before they are opened, the record's)."""
        if self.states is None:
            return self.record.files if self.record is not None else []
        return list(dict.fromkeys(path for state in self.states for path in (*state.project.documents, *state.project.bibliographies)))

    def findings_by_file(self) -> dict[str, list[Finding]]:
        """Every project file (clean ones with []) → its findings."""
        result: dict[str, list[Finding]] = {file: [] for file in self.files()}
        for file, findings in groupby(self.findings, key=attrgetter("file")):  # in report order, a file's findings run together
            result.setdefault(file, []).extend(findings)
        return result

    def projects_with(self, relative: str) -> list[Project]:
        return [state.project for state in self.states or [] if state.project.contains(relative)]


def _kept(source: FindingSource, project: Project, report: SourceReport, earlier: Kept | None) -> Kept:
    """The slot's new contents for one project. A complete last report replaces what the slot held; a
    partial one, or a last one cut short, adds its findings to the earlier run's (the findings of units
    that did not run again stay), and a partial one keeps the earlier verdicts until the last comes."""
    if not source.follows_edits:
        return Kept(report.findings, None, report.shown, report.refuted)
    on_sections = anchored(project, report.findings)
    if earlier is not None and not (report.final and report.complete):
        on_sections = {**(earlier.on_sections or {}), **on_sections}
    verdicts = report if report.final or earlier is None else earlier
    return Kept(report.findings, on_sections, verdicts.shown, verdicts.refuted)
