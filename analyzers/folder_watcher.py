"""Watching the files checks read (sources, `.auditex.toml`) on disk: a watchdog observer per folder.

The language server watches when its client cannot; `auditex check --watch` re-checks on change.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..latex.source import SOURCE_SUFFIXES
from .project_config import CONFIG_FILE

if TYPE_CHECKING:
    from watchdog.observers.api import ObservedWatch

log = logging.getLogger(__name__)


def is_watched(path: Path) -> bool:
    return path.suffix in SOURCE_SUFFIXES or path.name == CONFIG_FILE


class FolderWatcher:
    """Calls `on_change(path)` (from the observer's thread) for watched files that change."""

    def __init__(self, on_change: Callable[[Path], object]) -> None:
        from watchdog.events import FileSystemEvent, FileSystemEventHandler
        from watchdog.observers import Observer

        self._on_change = on_change
        watcher = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event: FileSystemEvent) -> None:
                if event.is_directory or event.event_type in ("opened", "closed_no_write"):
                    return
                for name in (event.src_path, getattr(event, "dest_path", "")):
                    if name:
                        watcher._changed(Path(os.fsdecode(name)))

        self._handler = Handler()
        self._observer = Observer()
        self._observer.daemon = True
        self._watches: dict[Path, ObservedWatch] = {}

    def watch(self, folder: Path) -> None:
        if folder in self._watches:
            return
        try:
            self._watches[folder] = self._observer.schedule(self._handler, str(folder), recursive=True)
            if not self._observer.is_alive():
                self._observer.start()
        except OSError as error:  # inotify limits, vanished folder: degrade, never crash
            log.warning("cannot watch %s: %s", folder, error)

    def unwatch(self, folder: Path) -> None:
        watch = self._watches.pop(folder, None)
        if watch is not None:
            self._observer.unschedule(watch)

    def stop(self) -> None:
        if self._observer.is_alive():
            self._observer.stop()

    def _changed(self, path: Path) -> None:
        if is_watched(path) and ".auditex" not in path.parts:
            self._on_change(path)
