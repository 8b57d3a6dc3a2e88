"""A progress line on stderr for work that takes a while.

Shown on a terminal once the work has run for a second: a quick check sees
nothing new. Elsewhere (a log, a CI job, a batch's pipe) a plain line every
half minute says what is being done, so that a long check is seen to be alive.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.status import Status

SHOW_AFTER_S = 1.0
LOG_EVERY_S = 30.0


class ProgressLine:
    """Call it with what is being done; `close` (or leaving the `with` block) clears the line."""

    def __init__(self, stream: TextIO | None = None, delay: float = SHOW_AFTER_S, log_every: float = LOG_EVERY_S) -> None:
        self.stream = stream or sys.stderr
        self.message = "checking"
        self._status: Status | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._stopped = threading.Event()
        self._timer: threading.Timer | None = None
        if self.stream.isatty():
            self._timer = threading.Timer(delay, self._show)
            self._timer.daemon = True
            self._timer.start()
        else:
            threading.Thread(target=self._log, args=(log_every,), name="progress-log", daemon=True).start()

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

    def _log(self, every: float) -> None:
        started = time.monotonic()
        while not self._stopped.wait(every):
            with self._lock:
                print(f"auditex: {self.message} ({time.monotonic() - started:.0f} s)", file=self.stream, flush=True)

    def close(self) -> None:
        self._stopped.set()
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
