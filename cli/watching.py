"""`auditex check --watch`: check, then check again whenever a source file or `.auditex.toml` changes.

Changes are gathered for a moment (an editor's save writes several events, `--fix` writes
its files) before the next check; Ctrl-C ends the watch.
"""

from __future__ import annotations

import queue
import sys
from collections.abc import Callable
from pathlib import Path

from ..analyzers.watch import FolderWatcher

# How long after a change the check waits for more changes.
SETTLE_S = 0.3


def _reported(check: Callable[[], int]) -> int:
    """Run a check and show its report before the watch's next line: piped, stdout is block-buffered."""
    code = check()
    sys.stdout.flush()
    return code


def watch(folder: Path, check: Callable[[], int], settle_s: float = SETTLE_S) -> int:
    """Run `check` now and after each change under `folder`, until interrupted; returns the last check's exit code."""
    changes: queue.SimpleQueue[Path] = queue.SimpleQueue()
    watcher = FolderWatcher(changes.put)
    watcher.watch(folder)
    code = 130  # interrupted before the first check ended
    try:
        code = _reported(check)
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
            code = _reported(check)
    except KeyboardInterrupt:
        return code
    finally:
        watcher.stop()
