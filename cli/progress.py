"""A progress line on stderr for work that takes a while.

Shown only when stderr is a terminal and only once the work has run for a
second: a quick check, a script, a pipe or `--format json` see nothing new.
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.status import Status

SHOW_AFTER_S = 1.0


class ProgressLine:
    """Call it with what is being done; `close` (or leaving the `with` block) clears the line."""

    def __init__(self, stream: TextIO | None = None, delay: float = SHOW_AFTER_S) -> None:
        self.stream = stream or sys.stderr
        self.message = "checking"
        self._status: Status | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._timer: threading.Timer | None = None
        if self.stream.isatty():
            self._timer = threading.Timer(delay, self._show)
            self._timer.daemon = True
            self._timer.start()

    def __call__(self, message: str) -> None:
        with self._lock:
            self.message = message
            if self._status is not None:
                self._status.update(f"auditex: {message}")

    def _show(self) -> None:
        from rich.console import Console  # only a terminal that waits a second pays for rich

        with self._lock:
            if self._closed:
                return
            self._status = Console(file=self.stream).status(f"auditex: {self.message}")
            self._status.start()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            if self._status is not None:
                self._status.stop()
                self._status = None

    def __enter__(self) -> ProgressLine:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
