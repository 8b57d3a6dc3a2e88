"""`auditex serve`: the language server (pygls 2, stdio).

The event loop only does bookkeeping; parsing and rule checking run on one
analysis thread so the loop keeps answering (cancel requests, hovers) while a
check is in flight, and the projects are never touched by two threads.
Edits are debounced; a newer edit makes older work stale, and stale results
are never published.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import threading
import uuid
from collections.abc import Callable
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
from ..analyzers.finding import Finding, Severity
from ..analyzers.project_config import CONFIG_FILE
from ..analyzers.registry import Registry
from ..analyzers.watch import FolderWatcher, is_watched
from ..latex.source import SOURCE_SUFFIXES
from . import actions, commands, convert, navigation
from .debounce import DEFAULT_DELAY_MS, Debouncer
from .llm import LLMState
from .online import OnlineState
from .watch import WATCH_GLOBS

if TYPE_CHECKING:  # the workspace imports the whole model: built after `initialize` is answered
    from .workspace import FolderState, Workspace

log = logging.getLogger("auditex.server")
T = TypeVar("T")
STATUS = "auditex/status"
SETTINGS_SECTION = "auditex"


class _Protocol(LanguageServerProtocol):
    @lsp_method(lsp.INITIALIZE)
    def lsp_initialize(self, params: lsp.InitializeParams):
        # Findings carry UTF-16 positions; never negotiate another encoding.
        if params.capabilities.general is not None:
            params.capabilities.general.position_encodings = None
        return (yield from super().lsp_initialize(params))

    def _handle_request(self, msg_id, method_name, params):
        # Command handlers run as tasks of their own; the id tells them of a $/cancelRequest.
        token = commands.REQUEST_ID.set(msg_id)
        try:
            return super()._handle_request(msg_id, method_name, params)
        finally:
            commands.REQUEST_ID.reset(token)

    def structure_message(self, data: dict[str, Any]):
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
        self._touched: set[str] = set()  # URIs edited since their last publish
        self.published: dict[str, list[Finding]] = {}  # what the client currently shows
        self.folder_of_uri: dict[str, Path] = {}
        self.llm = LLMState()  # the last LLM audit's findings, per folder
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

    def report_server_error(self, error: Exception, source) -> None:
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
        self._touched.add(path.as_uri())
        self.debouncer.schedule(self.analyse)

    async def analyse(self) -> None:
        await self.ready.wait()
        generation = self.generation
        self.status("checking")
        try:
            result = await self.run(self._sync, lambda: self.generation != generation)
        except Exception as error:  # a bug must cost one analysis, not the server
            log.exception("analysis failed")
            self.status("error", message=f"analysis failed: {error}")
            return
        if result is not None and generation == self.generation:
            self.publish(result)
            _settle_heap()

    def _sync(self, is_stale: Callable[[], bool]):
        with self._pending_lock:
            changes, self._pending = self._pending, {}
        self.workspace_state.apply(changes)
        if not self.workspace_state.check(is_stale):
            return None
        return self.diagnostics()

    def diagnostics(self) -> dict[str, tuple[Path, list[Finding]]]:
        """Rule findings with the LLM findings that still hold and the online BIB findings (analysis thread)."""
        return self.online.merged(self.workspace_state, self.llm.merged(self.workspace_state))

    def publish(self, diagnostics: dict[str, tuple[Path, list[Finding]]]) -> None:
        """Send what changed since the last publish (and every edited file), [] for files gone."""
        self.send_diagnostics(diagnostics)
        self.status("idle", findings=self.shown_count())
        self.online.kick(self)  # verify new references in the background, if auditex.online

    def shown_count(self) -> int:
        """The findings published above hint severity: what VS Code's Problems panel lists, and so what the status bar counts."""
        return sum(1 for findings in self.published.values() for finding in findings if finding.severity is not Severity.HINT)

    def send_diagnostics(self, diagnostics: dict[str, tuple[Path, list[Finding]]]) -> None:
        touched, self._touched = self._touched, set()
        for uri in [uri for uri in self.published if uri not in diagnostics]:
            del self.published[uri]
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        for uri, (folder, findings) in diagnostics.items():
            if uri in touched or self.published.get(uri) != findings:
                self.published[uri] = findings
                self.folder_of_uri[uri] = folder
                diagnostics_ = [convert.diagnostic(finding, folder) for finding in findings]
                self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics_))

    async def check_now(self) -> None:
        """Re-check whatever is dirty and publish, outside the debounce (commands)."""
        self.publish(await self.run(lambda: (self.workspace_state.check(), self.diagnostics())[1]))

    # Settings

    async def fetch_settings(self, folders: list[Path]) -> list[dict[str, Any]]:
        if not _client_supports(self, "workspace.configuration"):
            return [{} for _ in folders]
        items = [lsp.ConfigurationItem(scope_uri=folder.as_uri(), section=SETTINGS_SECTION) for folder in folders]
        try:
            values = await self.workspace_configuration_async(
                lsp.ConfigurationParams(items=items or [lsp.ConfigurationItem(section=SETTINGS_SECTION)])
            )
        except Exception as error:  # a client that answers badly: run with defaults
            log.warning("workspace/configuration failed: %s", error)
            return [{} for _ in folders]
        settings = [value if isinstance(value, dict) else {} for value in values or []]
        if settings:
            self.debouncer.delay_ms = _debounce_ms(settings[0])
        return settings[: len(folders)] + [{} for _ in range(len(folders) - len(settings))]

    # Watching

    async def start_watching(self, folders: list[Path]) -> None:
        if _client_supports(self, "workspace.did_change_watched_files.dynamic_registration"):
            options = lsp.DidChangeWatchedFilesRegistrationOptions(
                watchers=[lsp.FileSystemWatcher(glob_pattern=glob) for glob in WATCH_GLOBS]
            )
            registration = lsp.Registration(id=str(uuid.uuid4()), method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options)
            try:
                await self.client_register_capability_async(lsp.RegistrationParams(registrations=[registration]))
                return
            except Exception as error:
                log.warning("the client refused to watch files (%s); watching with watchdog", error)
        loop = asyncio.get_running_loop()
        self.watcher = FolderWatcher(lambda path: loop.call_soon_threadsafe(self.disk_changed, path))
        for folder in folders:
            self.watcher.watch(folder)

    def disk_changed(self, path: Path) -> None:
        if path.name == CONFIG_FILE or path.as_uri() not in self.workspace.text_documents:
            self.submit(path, None)

    def open_text(self, uri: str) -> str | None:
        document = self.workspace.text_documents.get(uri)
        return document.source if document is not None else None

    # Lookups for requests

    def findings_at(self, uri: str, where: lsp.Range) -> list[Finding]:
        return [finding for finding in self.published.get(uri, []) if convert.overlaps(finding.range, where)]

    async def with_project(self, uri: str, query: Callable[[FolderState, str], T], empty: T) -> T:
        await self.ready.wait()
        path = _path(uri)
        if path is None:
            return empty

        def run() -> T:
            located = self.workspace_state.locate(path)
            return query(*located) if located is not None else empty

        return await self.run(run)


def _settle_heap() -> None:
    """After an analysis is published: collect what it left, then freeze what lives on.

    The parsed projects live as long as the server; without freezing, the cyclic GC
    re-scans them and adds ~100 ms to every few keystrokes on a book-sized project.
    Collecting first means no cyclic garbage is frozen; the collection only scans
    what changed since the last freeze, a few milliseconds after a keystroke.
    """
    gc.collect()
    gc.freeze()


def _path(uri: str) -> Path | None:
    fs_path = to_fs_path(uri)
    return Path(fs_path) if fs_path else None


def _client_supports(server: LanguageServer, dotted: str) -> bool:
    value: Any = server.client_capabilities
    for part in dotted.split("."):
        value = getattr(value, part, None)
        if value is None:
            return False
    return bool(value)


def _debounce_ms(settings: dict[str, Any]) -> int:
    value = settings.get("debounceMs")
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 60_000 else DEFAULT_DELAY_MS


def build_server() -> AuditexServer:
    server = AuditexServer()

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: AuditexServer, params: lsp.InitializeParams) -> None:
        auditex_log = logging.getLogger("auditex")
        auditex_log.setLevel(logging.INFO)
        auditex_log.addHandler(_ClientLogHandler(ls, asyncio.get_running_loop()))
        auditex_log.propagate = False  # told once, by window/logMessage, not again on stderr

    @server.feature(lsp.INITIALIZED)
    async def initialized(ls: AuditexServer, params: lsp.InitializedParams) -> None:
        folders = [Path(path) for uri in ls.workspace.folders for path in [to_fs_path(uri)] if path]
        if not folders and ls.workspace.root_path:
            folders = [Path(ls.workspace.root_path)]
        settings = await ls.fetch_settings(folders)
        ls.status("checking")
        recorded: dict[str, tuple[Path, list[Finding]]] = {}
        for folder, folder_settings in zip(folders, settings):
            state = await ls.run(ls.workspace_state.open_folder, folder, folder_settings)
            # A folder unchanged since its last check shows that check's findings while it is parsed.
            if state.record is not None:
                recorded.update(ls.workspace_state.take_record(state))
                ls.send_diagnostics(recorded)
            await ls.run(state.discover, ls.workspace_state.overlays(state.folder))
        ls.ready.set()
        await ls.start_watching([state.folder for state in ls.workspace_state.folders.values()])
        await ls.check_now()
        _settle_heap()

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def folders_changed(ls: AuditexServer, params: lsp.DidChangeWorkspaceFoldersParams) -> None:
        await ls.ready.wait()
        for removed in params.event.removed:
            if (path := _path(removed.uri)) is not None:
                await ls.run(ls.workspace_state.remove_folder, path)
                if ls.watcher is not None:
                    ls.watcher.unwatch(path.resolve())
        added = [path for folder in params.event.added if (path := _path(folder.uri)) is not None]
        for folder, folder_settings in zip(added, await ls.fetch_settings(added)):
            state = await ls.run(ls.workspace_state.add_folder, folder, folder_settings)
            if ls.watcher is not None:
                ls.watcher.watch(state.folder)
        await ls.check_now()

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration_changed(ls: AuditexServer, params: lsp.DidChangeConfigurationParams) -> None:
        await ls.ready.wait()
        folders = list(ls.workspace_state.folders)
        if _client_supports(ls, "workspace.configuration"):
            settings = await ls.fetch_settings(folders)
        else:  # clients without pull configuration push the settings here
            pushed = params.settings.get(SETTINGS_SECTION, {}) if isinstance(params.settings, dict) else {}
            settings = [pushed if isinstance(pushed, dict) else {} for _ in folders]
            ls.debouncer.delay_ms = _debounce_ms(settings[0]) if settings else DEFAULT_DELAY_MS
        for folder, folder_settings in zip(folders, settings):
            await ls.run(ls.workspace_state.configure, folder, folder_settings)
        await ls.check_now()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: AuditexServer, params: lsp.DidOpenTextDocumentParams) -> None:
        _edited(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: AuditexServer, params: lsp.DidChangeTextDocumentParams) -> None:
        _edited(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))
    def did_save(ls: AuditexServer, params: lsp.DidSaveTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is not None and path.name == CONFIG_FILE:
            ls.submit(path, None)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: AuditexServer, params: lsp.DidCloseTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is not None and is_watched(path) and path.name != CONFIG_FILE:
            ls.submit(path, None)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched_files_changed(ls: AuditexServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            path = _path(change.uri)
            if path is not None and is_watched(path):
                ls.disk_changed(path)

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def code_action(ls: AuditexServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        folder = ls.folder_of_uri.get(uri)
        if folder is None:
            return []
        result: list[lsp.CodeAction] = []
        for finding in ls.findings_at(uri, params.range):
            diagnostic = convert.diagnostic(finding, folder)
            result += [actions.fix_action(fix, diagnostic, folder) for fix in finding.fixes]
            result.append(actions.ignore_line_action(finding, diagnostic, uri, _line_text(ls, uri, finding.range.start.line)))
            disable = actions.disable_in_project_action(finding, diagnostic, folder)
            if disable is not None:
                result.append(disable)
            result.append(actions.dismiss_action(finding, diagnostic, uri))
        return result

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: AuditexServer, params: lsp.HoverParams) -> lsp.Hover | None:
        line, character = params.position.line, params.position.character
        findings = [f for f in ls.published.get(params.text_document.uri, []) if convert.contains(f.range, line, character)]
        if not findings:
            return None
        return lsp.Hover(
            contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=convert.hover_markdown(findings)),
            range=convert.lsp_range(findings[0].range),
        )

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: AuditexServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
        return await ls.with_project(
            params.text_document.uri,
            lambda state, relative: _locations(state, relative, params.position, lambda project, key: navigation.definitions(project, key)),
            [],
        )

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: AuditexServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
        declaration = params.context.include_declaration
        return await ls.with_project(
            params.text_document.uri,
            lambda state, relative: _locations(
                state, relative, params.position, lambda project, key: navigation.references(project, key, declaration)
            ),
            [],
        )

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def document_symbol(ls: AuditexServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        def outline(state: FolderState, relative: str) -> list[lsp.DocumentSymbol]:
            projects = state.projects_with(relative)
            return navigation.outline(projects[0], relative) if projects else []

        return await ls.with_project(params.text_document.uri, outline, [])

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: AuditexServer, params: None) -> None:
        if ls.watcher is not None:
            ls.watcher.stop()
        ls.analysis.shutdown(wait=False, cancel_futures=True)

    commands.register(server)
    return server


def _edited(ls: AuditexServer, uri: str) -> None:
    path = _path(uri)
    text = ls.open_text(uri)
    if path is not None and text is not None and path.suffix in SOURCE_SUFFIXES:
        ls.submit(path, text)


def _line_text(ls: AuditexServer, uri: str, line: int) -> str:
    text = ls.open_text(uri)
    if text is None:
        path = _path(uri)
        try:
            text = path.read_text(encoding="utf-8", errors="replace") if path is not None else ""
        except OSError:
            text = ""
    lines = text.split("\n")
    return lines[line].rstrip("\r") if 0 <= line < len(lines) else ""


def _locations(state: FolderState, relative: str, position: lsp.Position, find) -> list[lsp.Location]:
    found: dict[tuple, lsp.Location] = {}
    for project in state.projects_with(relative):
        key = navigation.key_at(project, relative, project.source(relative).offset(position.line, position.character))
        if key is None:
            continue
        for span in find(project, key):
            location = navigation.location(project, span)
            if location is not None:
                found.setdefault((span.file, span.start), location)
    return list(found.values())


class _ClientLogHandler(logging.Handler):
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


def serve() -> int:
    # The protocol owns the real stdout; a stray print() anywhere must not corrupt it.
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr
    # Python's warnings reach stderr through logging, as "auditex: WARNING: ...", so the editor logs them as warnings.
    logging.captureWarnings(True)
    server = build_server()
    server.start_io(sys.stdin.buffer, stdout)
    return 0
