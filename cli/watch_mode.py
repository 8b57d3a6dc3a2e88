"""`auditex check --watch`: check, then check again whenever a source file or `.auditex.toml` changes.

Changes are gathered for a moment (an editor's save writes several events, `--fix` writes
its files) before the next check; Ctrl-C ends the watch.
"""

from __future__ import annotations

import queue
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from ..analyzers.folder_watcher import FolderWatcher

# How long after a change the check waits for more changes.
SETTLE_S = 0.3


def _reported(check: Callable[[], int]) -> None:
    """Run a check and show its report before the watch's next line: piped, stdout is block-buffered."""
    check()
    sys.stdout.flush()


def watch(folder: Path, check: Callable[[], int], settle_s: float = SETTLE_S) -> NoReturn:
    """Run `check` now and after each change under `folder`, until interrupted: Ctrl-C and SIGTERM end it as
    they end any command (main says so and exits 130 or 143, as the README's exit codes say)."""
    changes: queue.SimpleQueue[Path] = queue.SimpleQueue()
    watcher = FolderWatcher(changes.put)
    watcher.watch(folder)
    try:
        _reported(check)
        while True:
            print("auditex: watching for changes (Ctrl-C stops)", file=sys.stderr, flush=True)
            changed = {changes.get()}
            while True:
                try:
                    changed.add(changes.get(timeout=settle_s))
                except queue.Empty:
                    break
            names = ", ".join(sorted(path.name for path in changed))
            print(f"auditex: {names} changed; checking again", file=sys.stderr, flush=True)
            _reported(check)
    finally:
        watcher.stop()
