"""Reference verification in the editor (`auditex.online`, off by default).

After diagnostics are published, a background task collects the cited references that
have no verdict yet (on the analysis thread, which owns the projects), asks the
scholarly indexes on the event loop (async HTTP: the loop keeps answering, the other
diagnostics never wait) with a cancellable progress, and re-publishes as verdicts arrive.
BIB findings are recomputed from the verdicts against the current text at every publish,
on the `.bib` entry and on each `\\cite` of it, through the folder's rule policy.

The network stack is imported on first use: `auditex serve` starts without it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .progress import ProgressServer, WorkDone

if TYPE_CHECKING:
    from ..analyzers.online_verification import OnlineChecker
    from ..analyzers.registry import Registry
    from ..analyzers.scholarly.cited_references import Cited
    from ..analyzers.scholarly.resolver import OnlineSettings
    from ..analyzers.scholarly.work import Verdict
    from .diagnostics import Diagnostics
    from .workspace import Workspace

log = logging.getLogger(__name__)
PUBLISH_EVERY_S = 0.5
RETRY_UNCHECKED_S = 600.0  # a reference no index could answer for is asked again after this
T = TypeVar("T")


class _Server(ProgressServer, Protocol):
    """What reference verification uses of the AuditexServer (whose module imports this one)."""

    @property
    def registry(self) -> Registry: ...

    @property
    def workspace_state(self) -> Workspace: ...

    async def run(self, function: Callable[..., T], *arguments: Any) -> T: ...

    def diagnostics(self) -> Diagnostics: ...

    def publish(self, diagnostics: Diagnostics) -> None: ...


@dataclass
class OnlineState:
    checker: OnlineChecker | None = None
    task: asyncio.Task[None] | None = None
    wanted: bool = False
    running: bool = False
    failed: dict[str, float] = field(default_factory=dict)  # digest → when it was asked without an answer

    def get_checker(self, server: _Server) -> OnlineChecker:
        if self.checker is None:
            from ..analyzers.online_verification import OnlineChecker

            self.checker = OnlineChecker(server.registry)
        return self.checker

    def kick(self, server: _Server) -> None:
        """Something was published: verify what is new, in the background (event loop)."""
        workspace = server.workspace_state
        if not any(workspace.online(session) for session in workspace.folders.values()):
            return
        self.wanted = True
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run(server))

    async def _run(self, server: _Server) -> None:
        checker = self.get_checker(server)
        while self.wanted:
            self.wanted = False
            batches = await server.run(self._pending, server.workspace_state, checker)
            batches = [(settings, cited) for settings, cited in batches if cited]
            if not batches:
                continue
            total = sum(len(cited) for _, cited in batches)
            done = 0
            self.running = True
            try:
                async with WorkDone(server, "auditex: verifying references") as progress:
                    publisher = _Publisher(server)
                    for settings, cited in batches:
                        by_key = {c.reference.key: c for c in cited}

                        def heard(
                            verdict: Verdict, by_key: dict[str, Cited] = by_key, total: int = total, publisher: _Publisher = publisher
                        ) -> None:
                            nonlocal done
                            done += 1
                            item = by_key.get(verdict.key)
                            if item is not None:
                                checker.remember(item, verdict)
                                if not verdict.checked:
                                    self.failed[item.digest] = time.monotonic()
                            progress.report(done, total, f"{done}/{total} references")
                            publisher.soon()

                        task = asyncio.ensure_future(checker.resolve([c.reference for c in cited], settings, heard))
                        while not task.done():
                            await asyncio.wait({task}, timeout=0.2)
                            if progress.cancelled:
                                task.cancel()
                        if task.cancelled() or progress.cancelled:
                            break
                        verdicts, requests = task.result()
                        log.info("auditex: %d references verified online (%d requests)", len(verdicts), requests)
                    await publisher.now()
            except Exception:  # the network must cost the verification, never the server
                log.exception("reference verification failed")
            finally:
                self.running = False

    def _pending(self, workspace: Workspace, checker: OnlineChecker) -> list[tuple[OnlineSettings, list[Cited]]]:
        """Per online folder: its [online] settings and the cited references without a verdict (analysis thread)."""
        from ..analyzers.online_verification import settings_of
        from ..analyzers.scholarly.cited_references import cited_references

        result: list[tuple[OnlineSettings, list[Cited]]] = []
        for session in workspace.folders.values():
            if not workspace.online(session):
                continue
            cited = [c for project in session.projects for c in cited_references(project)]
            now = time.monotonic()
            pending = [c for c in checker.pending(cited) if now - self.failed.get(c.digest, -RETRY_UNCHECKED_S) >= RETRY_UNCHECKED_S]
            result.append((settings_of(session.config)[0], pending))
        return result


class _Publisher:
    """Re-publishes at most every PUBLISH_EVERY_S while verdicts arrive."""

    def __init__(self, server: _Server) -> None:
        self.server = server
        self.handle: asyncio.TimerHandle | None = None

    def soon(self) -> None:
        if self.handle is None:
            self.handle = asyncio.get_running_loop().call_later(PUBLISH_EVERY_S, lambda: asyncio.ensure_future(self.now()))

    async def now(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        self.server.publish(await self.server.run(self.server.diagnostics))
