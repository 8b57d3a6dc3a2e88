"""The server's model of the editor's world: one analysis session per workspace folder, and the open files' texts.

Everything here runs on the single analysis thread (see server.py), so no locks:
the event loop hands it batches of changed texts and reads back findings. Each
folder is an `analyzers.session.Session`, the one `auditex check` opens, fed the
editor's texts and the changes on disk; that is what makes live diagnostics equal
to a cold `auditex check`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..analyzers.engine import RuleEngines
from ..analyzers.project_config import Config, load_config
from ..analyzers.registry import Registry
from ..analyzers.session import Session
from ..latex.discovery import project_folder_for
from ..latex.sandbox import ProjectRoot
from .diagnostics import Diagnostics, by_uri

if TYPE_CHECKING:
    from ..analyzers.online_verification import OnlineChecker

log = logging.getLogger(__name__)


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
    """All folders' sessions; paths come in absolute and are mapped to (session, relative path)."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.folders: dict[Path, Session] = {}
        self.open: dict[Path, str] = {}  # texts of the files open in the editor
        self.settings: dict[Path, dict[str, Any]] = {}

    def open_folder(self, folder: Path, settings: dict[str, Any] | None = None) -> Session:
        """A folder's session with its settings and record, not parsed yet: `discover` it next."""
        folder = folder.resolve()
        self.settings[folder] = settings or {}
        session = Session(folder, configure=self._configure, rules=RuleEngines(self.registry))
        self.folders[folder] = session
        return session

    def _configure(self, folder: Path) -> Config:
        """`.auditex.toml` with the folder's editor settings on top; its problems go to the editor's log."""
        config = merge_settings(load_config(folder), self.settings.get(folder, {}))
        for problem in config.problems:
            log.warning("%s: %s", folder, problem)
        return config

    def discover(self, session: Session) -> None:
        """(Re)build the folder's projects from the root files on disk, with the editor's texts on top."""
        session.open(self.overlays(session.folder), require_root=False)  # a folder without a root: opened files add theirs

    def add_folder(self, folder: Path, settings: dict[str, Any] | None = None) -> Session:
        session = self.open_folder(folder, settings)
        self.discover(session)
        return session

    def remove_folder(self, folder: Path) -> None:
        self.folders.pop(folder.resolve(), None)

    def configure(self, folder: Path, settings: dict[str, Any]) -> None:
        session = self.folders.get(folder)
        if session is not None:
            self.settings[folder] = settings
            session.reload_config()

    def online(self, session: Session) -> bool:
        """Whether the folder verifies references (`auditex.online`, off by default)."""
        return self.settings.get(session.folder, {}).get("online") is True

    def locate(self, path: Path, create: bool = False) -> tuple[Session, str] | None:
        """The folder holding `path` (the innermost) and the path relative to it."""
        candidates = [(session, relative) for session in self.folders.values() if (relative := session.root.relative(path)) is not None]
        if candidates:
            return max(candidates, key=lambda item: len(item[0].folder.parts))
        if not create:
            return None
        # A file opened outside every workspace folder: its own project folder.
        session = self.add_folder(project_folder_for(path))
        relative = session.root.relative(path)
        return (session, relative) if relative is not None else None

    def apply(self, changes: dict[Path, str | None]) -> None:
        """Take new texts (None: closed or changed on disk) of absolute paths."""
        for path, text in changes.items():
            if text is None:
                self.open.pop(path, None)
            else:
                self.open[path] = text
            located = self.locate(path, create=text is not None)
            if located is not None:
                session, relative = located
                session.apply({relative: text})

    def check_quick(self, is_stale: Callable[[], bool] = lambda: False) -> bool:
        """The first stage of a staged check in every changed folder; False (nothing to show before the full
        check) when none changed, or one holds a changed project never checked, which has no findings to keep."""
        changed = [session for session in self.folders.values() if session.changed]
        return bool(changed) and all(session.stageable for session in changed) and all(session.check_quick(is_stale) for session in changed)

    def check(self, is_stale: Callable[[], bool] = lambda: False) -> bool:
        return all(session.check(is_stale) for session in list(self.folders.values()))

    def diagnostics(self, checker: OnlineChecker | None = None) -> Diagnostics:
        """URI → (folder, findings) for every file of every project; `checker`'s verdicts fill the
        online slot of the folders that verify references."""
        result: Diagnostics = {}
        for session in self.folders.values():
            if checker is not None:  # the network stack is loaded once verification was asked for
                from ..analyzers.online_verification import ONLINE_SLOT, verdict_findings

                session.keep_findings(ONLINE_SLOT, verdict_findings(session, checker if self.online(session) else None))
            result.update(by_uri(session))
        return result

    def overlays(self, folder: Path) -> dict[str, str]:
        root = ProjectRoot(folder)
        overlays = {}
        for path, text in self.open.items():
            relative = root.relative(path)
            if relative is not None:
                overlays[relative] = text
        return overlays
