"""The server's model of the editor's world: folders, their projects, open-file texts.

Everything here runs on the single analysis thread (see main.py), so no locks:
the event loop hands it batches of changed texts and reads back findings.
A folder's findings are computed exactly as `check_path(folder)` computes them
(one Engine per root, findings of shared files reported once), which is what
makes live diagnostics equal to a cold `auditex check`. Like the CLI, a folder
reads the analysis cache (unless AUDITEX_NO_CACHE is set): reopening a project
reuses the parses and results its first check kept there. Later checks, one
per edit, keep nothing on disk, so typing never waits for it. A folder whose last
check (by the CLI or by the server) is still true of the disk has its findings
shown at once, from that check's record, while its projects are parsed; a
folder's first check, when no editor text stood in for a file, leaves such a record.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..analyzers.analysis_cache import AnalysisCache, cache_disabled
from ..analyzers.check import InputError, open_projects
from ..analyzers.check_record import CheckRecord, KeptCheck
from ..analyzers.dismissals import Dismissals
from ..analyzers.engine import Engine
from ..analyzers.finding import Finding
from ..analyzers.policy import distinct
from ..analyzers.project_config import CONFIG_FILE, Config, load_config
from ..analyzers.registry import Registry
from ..latex.chunk_parser import ChunkParser
from ..latex.discovery import project_folder_for, root_for_file
from ..latex.project import Project
from ..latex.sandbox import ProjectRoot
from ..latex.source import TEX_SUFFIXES

log = logging.getLogger(__name__)


@dataclass
class ProjectState:
    project: Project
    engine: Engine
    findings: list[Finding] = field(default_factory=list)
    dirty: bool = True
    saved: bool = False  # whether a check's results went to the analysis cache


class FolderState:
    """One workspace folder: its config, dismissals and one Project per root file."""

    def __init__(self, folder: Path, registry: Registry, settings: dict[str, Any]) -> None:
        """The folder's settings and, when its last check still holds, that check's record; `discover` parses it."""
        self.folder = folder
        self.root = ProjectRoot(folder)
        self.registry = registry
        self.settings = settings
        self.dismissals = Dismissals(folder)
        self.cache = None if cache_disabled() else AnalysisCache(folder)
        # One process: the server's analysis thread must not fork.
        self.parser = ChunkParser(self.cache, workers=1)
        self.config = Config()
        self.projects: list[ProjectState] = []
        self.reload_config()
        self._kept = KeptCheck(self.cache, self.root, ".", self.config) if self.cache is not None else None
        self.record: CheckRecord | None = self._kept.reuse() if self._kept is not None else None
        if self.record is not None:
            self._kept = None  # it still holds: nothing new to keep

    # Set-up

    def reload_config(self) -> None:
        self._kept = None  # a record is of a check under the settings the folder opened with
        self.config = merge_settings(load_config(self.folder), self.settings)
        for problem in self.config.problems:
            log.warning("%s: %s", self.folder, problem)
        for state in self.projects:
            state.engine = self._engine()
            state.dirty = True

    def discover(self, overlays: dict[str, str]) -> None:
        """(Re)build the projects from the root files on disk, with the editor's texts on top."""
        if self._kept is not None and not overlays:
            self._kept.before()
        else:
            self._kept = None  # a check that reads editor texts describes no state of the disk
        try:
            _, projects = open_projects(self.folder, self.folder, parser=self.parser, config=self.config)
        except InputError:
            projects = []  # a folder without a root file; opened files add theirs
        self.projects = [ProjectState(project, self._engine()) for project in projects]
        for relative, text in overlays.items():
            self.update(relative, text)
            self.ensure_project(relative, text)

    def _engine(self) -> Engine:
        return Engine(self.registry, self.config, self.dismissals, self.cache)

    def ensure_project(self, relative: str, text: str | None) -> None:
        """Give an opened source file that no project reaches a project of its own root."""
        if not relative.endswith(TEX_SUFFIXES) or any(state.project.contains(relative) for state in self.projects):
            return
        # Every root of the folder has its project already, and none reaches this file.
        main = root_for_file(self.root, relative, candidates=[]) or relative
        if any(state.project.root_file == main for state in self.projects):
            return
        project = Project(self.folder, main, overlays={relative: text} if text is not None else None, parser=self.parser)
        self.projects.append(ProjectState(project, self._engine()))

    # Changes

    def update(self, relative: str, text: str | None) -> None:
        """A file's new text (None: read it from disk, it was closed, changed or deleted)."""
        self._kept = None  # the first check no longer reads what the folder held when it opened
        if relative == CONFIG_FILE:
            self.reload_config()
            return
        for state in self.projects:
            change = state.project.update(relative, text)
            if change.changed_files or change.graph_changed:
                state.dirty = True

    def check(self, is_stale: Callable[[], bool] = lambda: False) -> bool:
        """Re-check the projects that changed; False when a newer edit interrupted."""
        for state in self.projects:
            if state.dirty:
                if is_stale():
                    return False
                self.check_one(state)
        if self._kept is not None:  # the folder's first check, of the disk as it was: the next start shows it at once
            findings = distinct(finding for state in self.projects for finding in state.findings)
            self._kept.keep([state.project for state in self.projects], [state.project.root_file for state in self.projects], findings)
            self._kept = None
        return True

    def check_one(self, state: ProjectState) -> None:
        state.findings = state.engine.check(state.project)
        state.dirty = False
        if not state.saved:
            state.engine.save()
            state.saved = True

    def invalidate(self) -> None:
        for state in self.projects:
            state.dirty = True

    # Results

    def files(self) -> Iterator[str]:
        for state in self.projects:
            yield from state.project.documents
            yield from state.project.bibliographies

    def findings_by_file(self) -> dict[str, list[Finding]]:
        """Every project file (clean ones with []) → its findings, each finding once."""
        result: dict[str, list[Finding]] = {file: [] for file in self.files()}
        for finding in distinct(finding for state in self.projects for finding in state.findings):
            result.setdefault(finding.file, []).append(finding)
        return result

    def projects_with(self, relative: str) -> list[Project]:
        return [state.project for state in self.projects if state.project.contains(relative)]


def merge_settings(config: Config, settings: dict[str, Any]) -> Config:
    """Editor settings on top of `.auditex.toml`: disabled rules add to its ignore list,
    enabled rules replace its selection, severities override per code."""
    rules = settings.get("rules") or {}
    overrides: dict[str, Any] = {}
    if rules.get("disabled"):
        overrides["ignore"] = [*config.rules.ignore, *rules["disabled"]]
    if rules.get("enabled"):
        overrides["select"] = list(rules["enabled"])
    if rules.get("severity"):
        overrides["severity"] = {**config.rules.severity, **rules["severity"]}
    llm = {key: value for key, value in (settings.get("llm") or {}).items() if value not in (None, "")}
    return config.merged({"rules": overrides, "llm": llm})


class Workspace:
    """All folders; paths come in absolute and are mapped to (folder, relative path)."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.folders: dict[Path, FolderState] = {}
        self.open: dict[Path, str] = {}  # texts of the files open in the editor
        self.settings: dict[Path, dict[str, Any]] = {}

    def open_folder(self, folder: Path, settings: dict[str, Any] | None = None) -> FolderState:
        """A folder with its settings and record, not parsed yet: `discover` it next."""
        folder = folder.resolve()
        self.settings[folder] = settings or {}
        state = FolderState(folder, self.registry, self.settings[folder])
        self.folders[folder] = state
        return state

    def add_folder(self, folder: Path, settings: dict[str, Any] | None = None) -> FolderState:
        state = self.open_folder(folder, settings)
        state.discover(self.overlays(state.folder))
        return state

    def take_record(self, state: FolderState) -> dict[str, tuple[Path, list[Finding]]]:
        """URI → (folder, findings) of every file of the folder's record, as `diagnostics` gives them;
        the record is shown once, before the folder's own check replaces it."""
        record, state.record = state.record, None
        if record is None:
            return {}
        result: dict[str, list[Finding]] = {file: [] for file in record.files}
        for finding in record.findings:
            result.setdefault(finding.file, []).append(finding)
        return {(state.folder / file).as_uri(): (state.folder, findings) for file, findings in result.items()}

    def remove_folder(self, folder: Path) -> None:
        self.folders.pop(folder.resolve(), None)

    def configure(self, folder: Path, settings: dict[str, Any]) -> None:
        state = self.folders.get(folder)
        if state is not None:
            state.settings = self.settings[folder] = settings
            state.reload_config()

    def locate(self, path: Path, create: bool = False) -> tuple[FolderState, str] | None:
        """The folder holding `path` (the innermost) and the path relative to it."""
        candidates = [(state, relative) for state in self.folders.values() if (relative := state.root.relative(path)) is not None]
        if candidates:
            return max(candidates, key=lambda item: len(item[0].folder.parts))
        if not create:
            return None
        # A file opened outside every workspace folder: its own project folder.
        state = self.add_folder(project_folder_for(path))
        relative = state.root.relative(path)
        return (state, relative) if relative is not None else None

    def apply(self, changes: dict[Path, str | None]) -> None:
        """Take new texts (None: closed or changed on disk) of absolute paths."""
        for path, text in changes.items():
            if text is None:
                self.open.pop(path, None)
            else:
                self.open[path] = text
            located = self.locate(path, create=text is not None)
            if located is None:
                continue
            state, relative = located
            state.update(relative, text)
            if path.suffix in TEX_SUFFIXES and (text is not None or state.root.exists(relative)):
                state.ensure_project(relative, text)

    def check(self, is_stale: Callable[[], bool] = lambda: False) -> bool:
        return all(state.check(is_stale) for state in list(self.folders.values()))

    def diagnostics(self) -> dict[str, tuple[Path, list[Finding]]]:
        """URI → (folder, findings) for every file of every project."""
        result: dict[str, tuple[Path, list[Finding]]] = {}
        for state in self.folders.values():
            for file, findings in state.findings_by_file().items():
                result[(state.folder / file).as_uri()] = (state.folder, findings)
        return result

    def overlays(self, folder: Path) -> dict[str, str]:
        root = ProjectRoot(folder)
        overlays = {}
        for path, text in self.open.items():
            relative = root.relative(path)
            if relative is not None:
                overlays[relative] = text
        return overlays
