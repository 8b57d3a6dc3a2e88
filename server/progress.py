"""Work done progress: a server-initiated, cancellable `$/progress` for long commands, and the
cancel request of the command that started it.

A command handler runs as a task of its own; pygls cancels the request's future on
`$/cancelRequest`, not the task, so `WorkDone` listens to both that future and the
progress token's.
"""

from __future__ import annotations

import asyncio
import contextvars
import uuid
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol

from lsprotocol import types as lsp

if TYPE_CHECKING:
    from pygls.progress import Progress
    from pygls.protocol import JsonRPCProtocol

# The id of the request being handled (set by server._Protocol), to hear of its $/cancelRequest.
REQUEST_ID: contextvars.ContextVar[Any] = contextvars.ContextVar("auditex_request_id", default=None)


class ProgressServer(Protocol):
    """What a progress needs of the language server (pygls' LanguageServer has it)."""

    @property
    def protocol(self) -> JsonRPCProtocol: ...

    @property
    def client_capabilities(self) -> lsp.ClientCapabilities: ...

    @property
    def work_done_progress(self) -> Progress: ...


class WorkDone:
    """A server-initiated, cancellable $/progress with percentages."""

    def __init__(self, server: ProgressServer, title: str) -> None:
        self.server, self.title = server, title
        self.token: str | None = None
        self.cancel = asyncio.Event()  # set when the client cancels the progress

    async def __aenter__(self) -> WorkDone:
        request = self.server.protocol._request_futures.get(REQUEST_ID.get())
        if request is not None:  # $/cancelRequest cancels pygls' future of the request, not this task
            request.add_done_callback(lambda future: self.cancel.set() if future.cancelled() else None)
        if self.server.client_capabilities.window and self.server.client_capabilities.window.work_done_progress:
            token = f"auditex-{uuid.uuid4()}"
            try:
                await self.server.work_done_progress.create_async(token)
            except Exception:  # the client said no: work without a progress bar
                return self
            self.token = token
            self.server.work_done_progress.tokens[token].add_done_callback(lambda future: self.cancel.set() if future.cancelled() else None)
            self.server.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(title=self.title, cancellable=True, percentage=0))
        return self

    def report(self, done: int, total: int, message: str) -> None:
        if self.token is not None:
            percentage = 100 * done // total if total else 100
            self.server.work_done_progress.report(
                self.token, lsp.WorkDoneProgressReport(message=message, percentage=percentage, cancellable=True)
            )

    @property
    def cancelled(self) -> bool:
        return self.cancel.is_set()

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None) -> None:
        if self.token is not None:
            message = "cancelled" if self.cancelled or kind is asyncio.CancelledError else "done"
            self.server.work_done_progress.end(self.token, lsp.WorkDoneProgressEnd(message=message))
            self.server.work_done_progress.tokens.pop(self.token, None)
