"""The language server's state and its analysis pipeline (pygls 2, stdio).

The event loop only does bookkeeping; parsing and rule checking run on one
analysis thread so the loop keeps answering (cancel requests, hovers) while a
check is in flight, and the sessions are never touched by two threads.
Edits are debounced; a newer edit makes older work stale, and stale results
are never published. The handlers live in feature modules (documents, lifecycle,
actions, navigation, commands); main.py registers them.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
from collections.abc import Callable, Generator
from concurrent.futures import ThreadPoolExecutor
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.uris import to_fs_path

from .. import __version__
from ..analyzers.folder_watcher import FolderWatcher
from ..analyzers.project_config import CONFIG_FILE
from ..analyzers.registry import Registry
from .debounce import Debouncer
from .diagnostics import Diagnostics, Published
from .llm import LLMState
from .online import OnlineState
from .progress import REQUEST_ID

if TYPE_CHECKING:  # the workspace imports the whole model: built after `initialize` is answered
    from pygls.protocol.json_rpc import MsgId
    from pygls.server import ServerErrors

    from ..analyzers.session import Session
    from .workspace import Workspace

log = logging.getLogger("auditex.server")
T = TypeVar("T")
STATUS = "auditex/status"


class _Protocol(LanguageServerProtocol):
    @lsp_method(lsp.INITIALIZE)
    def lsp_initialize(self, params: lsp.InitializeParams) -> Generator[Any, Any, lsp.InitializeResult]:
        # Findings carry UTF-16 positions; never negotiate another encoding.
        if params.capabilities.general is not None:
            params.capabilities.general.position_encodings = None
        return (yield from super().lsp_initialize(params))

    def _handle_request(self, msg_id: MsgId, method_name: str, params: Any) -> None:
        # Command handlers run as tasks of their own; the id tells them of a $/cancelRequest.
        token = REQUEST_ID.set(msg_id)
        try:
            super()._handle_request(msg_id, method_name, params)
        finally:
            REQUEST_ID.reset(token)

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if "id" in data and "method" in data:
                # pygls drops a request whose params do not decode; answer it
                # so the client is not left waiting.
                self._send_response(data["id"], None, error.to_response_error())
            raise


class AuditexServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("auditex", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental, protocol_cls=_Protocol)
        self.analysis = ThreadPoolExecutor(max_workers=1, thread_name_prefix="auditex-analysis")
        self.debouncer = Debouncer()
        self.ready = asyncio.Event()
        self.watcher: FolderWatcher | None = None
        # Written by the loop, taken by the analysis thread.
        self._pending: dict[Path, str | None] = {}
        self._pending_lock = threading.Lock()
        self.generation = 0
        self.published = Published(self.text_document_publish_diagnostics)
        self.llm = LLMState()  # audits running, and a pending publish of their partial results
        self.online = OnlineState()  # reference verification verdicts (auditex.online)

    # Built on first use, after `initialize` is answered: importing every rule costs start-up time.
    @cached_property
    def registry(self) -> Registry:
        from ..analyzers.rules import default_registry

        return default_registry()

    @cached_property
    def workspace_state(self) -> Workspace:
        from .workspace import Workspace

        return Workspace(self.registry)

    def report_server_error(self, error: Exception, source: ServerErrors) -> None:
        # Malformed messages are the client's problem: log them, no pop-ups.
        log.warning("%s: %s", source.__name__, error)

    # Running work on the analysis thread

    async def run(self, function: Callable[..., T], *arguments: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.analysis, function, *arguments)

    def status(self, state: str, **extra: Any) -> None:
        if state == "idle" and self.llm.running:  # a check finished while an audit goes on
            state = "auditing"
        self.protocol.notify(STATUS, {"state": state, **extra})

    # Edits and disk changes

    def submit(self, path: Path, text: str | None) -> None:
        with self._pending_lock:
            self._pending[path] = text
        self.generation += 1
        self.published.touched.add(path.as_uri())
        self.debouncer.schedule(self.analyse)

    async def analyse(self) -> None:
        """Take the pending changes and publish in two stages (analyzers/staged_check.py): the quick rules'
        findings first, then the full check's. A newer change makes either stage stale: it is not published,
        and a stage not yet begun never runs."""
        await self.ready.wait()
        generation = self.generation

        def is_stale() -> bool:
            return self.generation != generation

        self.status("checking")
        loop = asyncio.get_running_loop()

        def publish_first(first: Diagnostics) -> None:
            if not is_stale():
                self.publish(first, final=False)

        try:
            result = await self.run(self._stages, is_stale, lambda first: loop.call_soon_threadsafe(publish_first, first))
        except Exception as error:  # a bug must cost one analysis, not the server
            log.exception("analysis failed")
            self.status("error", message=f"analysis failed: {error}")
            return
        if result is not None and not is_stale():
            self.publish(result)
            settle_heap()

    def _stages(self, is_stale: Callable[[], bool], publish_first: Callable[[Diagnostics], object]) -> Diagnostics | None:
        """Both stages, one after the other on the analysis thread: the first stage's diagnostics are handed to the
        event loop to publish while the full check goes on, which so waits for no turn of the loop (under load
        each hand-over waits for a core)."""
        first = self._take_changes(is_stale)
        if first is not None and not is_stale():
            publish_first(first)
        return None if is_stale() else self._check(is_stale)

    def _take_changes(self, is_stale: Callable[[], bool]) -> Diagnostics | None:
        """Apply the pending changes; the first stage's diagnostics, or None when nothing is staged."""
        with self._pending_lock:
            changes, self._pending = self._pending, {}
        self.workspace_state.apply(changes)
        return self.diagnostics() if self.workspace_state.check_quick(is_stale) else None

    def _check(self, is_stale: Callable[[], bool]) -> Diagnostics | None:
        return self.diagnostics() if self.workspace_state.check(is_stale) else None

    def disk_changed(self, path: Path) -> None:
        if path.name == CONFIG_FILE or path.as_uri() not in self.workspace.text_documents:
            self.submit(path, None)

    # Publishing

    def diagnostics(self) -> Diagnostics:
        """Every folder's findings, rules, online verification and LLM merged by the session (analysis thread)."""
        return self.workspace_state.diagnostics(self.online.checker)

    def publish(self, diagnostics: Diagnostics, final: bool = True) -> None:
        """Send what changed since the last publish; after a full check (`final`), tell the status and verify new references."""
        self.published.update(diagnostics)
        if final:
            self.status("idle", findings=self.published.count())
            self.online.kick(self)  # verify new references in the background, if auditex.online

    async def check_now(self) -> None:
        """Re-check whatever is dirty and publish, outside the debounce (commands)."""
        self.publish(await self.run(lambda: (self.workspace_state.check(), self.diagnostics())[1]))

    # Lookups for requests

    def open_text(self, uri: str) -> str | None:
        document = self.workspace.text_documents.get(uri)
        return document.source if document is not None else None

    async def with_project(self, uri: str, query: Callable[[Session, str], T], empty: T) -> T:
        """`query(session, relative path)` of the folder holding `uri`, on the analysis thread."""
        await self.ready.wait()
        path = path_of(uri)
        if path is None:
            return empty

        def run() -> T:
            located = self.workspace_state.locate(path)
            return query(*located) if located is not None else empty

        return await self.run(run)

    def supports(self, dotted: str) -> bool:
        """Whether the client declared the capability at the dotted path (e.g. "workspace.configuration")."""
        value: Any = self.client_capabilities
        for part in dotted.split("."):
            value = getattr(value, part, None)
            if value is None:
                return False
        return bool(value)


# What an edit's analysis leaves alive (8,400 objects on hott_book, 3,900 on a 100 KB paper) stays below this, so
# the collection after the publish is its only one: at the default 700 it paid a dozen while the author waited.
_YOUNG_OBJECTS = 50_000


def settle_heap() -> None:
    """After an analysis is published: collect what it left, then freeze what lives on.

    The parsed projects live as long as the server; without freezing, the cyclic GC
    re-scans them and adds ~100 ms to every few keystrokes on a book-sized project.
    Collecting first means no cyclic garbage is frozen; the collection only scans
    what changed since the last freeze, a few milliseconds after a keystroke.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(_YOUNG_OBJECTS, *gc.get_threshold()[1:])


def path_of(uri: str) -> Path | None:
    fs_path = to_fs_path(uri)
    return Path(fs_path) if fs_path else None


class ClientLogHandler(logging.Handler):
    """Forwards log records to window/logMessage, from any thread."""

    _TYPES: ClassVar[dict[int, lsp.MessageType]] = {
        logging.ERROR: lsp.MessageType.Error,
        logging.WARNING: lsp.MessageType.Warning,
        logging.INFO: lsp.MessageType.Info,
    }

    def __init__(self, server: AuditexServer, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(logging.INFO)
        self.server, self.loop = server, loop

    def emit(self, record: logging.LogRecord) -> None:
        kind = next((kind for level, kind in self._TYPES.items() if record.levelno >= level), lsp.MessageType.Log)
        params = lsp.LogMessageParams(type=kind, message=self.format(record))
        try:
            self.loop.call_soon_threadsafe(self.server.window_log_message, params)
        except RuntimeError:  # the loop is closed: stderr gets it instead
            logging.getLogger().handle(record)
