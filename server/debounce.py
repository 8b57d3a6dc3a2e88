"""Debouncing: run the newest job after a quiet period, cancelling the one before."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

DEFAULT_DELAY_MS = 200


class Debouncer:
    """`schedule(job)` (re)starts the quiet period; a job already running is cancelled.

    Cancelling a running job only abandons waiting for it: the job must leave
    shared state consistent at every await, so the next job picks up from there.
    """

    def __init__(self, delay_ms: int = DEFAULT_DELAY_MS) -> None:
        self.delay_ms = delay_ms
        self._task: asyncio.Task[None] | None = None

    def schedule(self, job: Callable[[], Awaitable[None]]) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = asyncio.ensure_future(self._later(job))

    async def _later(self, job: Callable[[], Awaitable[None]]) -> None:
        if self.delay_ms > 0:
            await asyncio.sleep(self.delay_ms / 1000)
        await job()
