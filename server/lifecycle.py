"""The workspace's life: start-up, folders and settings that change, file watching, shutdown."""

from __future__ import annotations

import asyncio
import logging
import uuid
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pygls.uris import to_fs_path

from ..analyzers.folder_watcher import FolderWatcher
from .debounce import DEFAULT_DELAY_MS
from .diagnostics import Diagnostics, by_uri
from .server import AuditexServer, ClientLogHandler, path_of, settle_heap
from .watch_globs import WATCH_GLOBS

log = logging.getLogger("auditex.server")
SETTINGS_SECTION = "auditex"


def initialize(ls: AuditexServer, params: lsp.InitializeParams) -> None:
    auditex_log = logging.getLogger("auditex")
    auditex_log.setLevel(logging.INFO)
    auditex_log.addHandler(ClientLogHandler(ls, asyncio.get_running_loop()))
    auditex_log.propagate = False  # told once, by window/logMessage, not again on stderr


async def initialized(ls: AuditexServer, params: lsp.InitializedParams) -> None:
    folders = [Path(path) for uri in ls.workspace.folders for path in [to_fs_path(uri)] if path]
    if not folders and ls.workspace.root_path:
        folders = [Path(ls.workspace.root_path)]
    settings = await fetch_settings(ls, folders)
    ls.status("checking")
    recorded: Diagnostics = {}
    workspace = ls.workspace_state
    for folder, folder_settings in zip(folders, settings):
        session = await ls.run(workspace.open_folder, folder, folder_settings)
        # A folder unchanged since its last check shows that check's findings while it is parsed.
        if session.record is not None:
            recorded.update(by_uri(session))
            ls.published.update(recorded)
        await ls.run(workspace.discover, session)
    ls.ready.set()
    await start_watching(ls, list(workspace.folders))
    await ls.check_now()
    settle_heap()


async def folders_changed(ls: AuditexServer, params: lsp.DidChangeWorkspaceFoldersParams) -> None:
    await ls.ready.wait()
    for removed in params.event.removed:
        if (path := path_of(removed.uri)) is not None:
            await ls.run(ls.workspace_state.remove_folder, path)
            if ls.watcher is not None:
                ls.watcher.unwatch(path.resolve())
    added = [path for folder in params.event.added if (path := path_of(folder.uri)) is not None]
    for folder, folder_settings in zip(added, await fetch_settings(ls, added)):
        session = await ls.run(ls.workspace_state.add_folder, folder, folder_settings)
        if ls.watcher is not None:
            ls.watcher.watch(session.folder)
    await ls.check_now()


async def configuration_changed(ls: AuditexServer, params: lsp.DidChangeConfigurationParams) -> None:
    await ls.ready.wait()
    folders = list(ls.workspace_state.folders)
    if ls.supports("workspace.configuration"):
        settings = await fetch_settings(ls, folders)
    else:  # clients without pull configuration push the settings here
        pushed = params.settings.get(SETTINGS_SECTION, {}) if isinstance(params.settings, dict) else {}
        settings = [pushed if isinstance(pushed, dict) else {} for _ in folders]
        ls.debouncer.delay_ms = debounce_ms(settings[0]) if settings else DEFAULT_DELAY_MS
    for folder, folder_settings in zip(folders, settings):
        await ls.run(ls.workspace_state.configure, folder, folder_settings)
    await ls.check_now()


def shutdown(ls: AuditexServer, params: None) -> None:
    if ls.watcher is not None:
        ls.watcher.stop()
    ls.analysis.shutdown(wait=False, cancel_futures=True)


async def fetch_settings(ls: AuditexServer, folders: list[Path]) -> list[dict[str, Any]]:
    if not ls.supports("workspace.configuration"):
        return [{} for _ in folders]
    items = [lsp.ConfigurationItem(scope_uri=folder.as_uri(), section=SETTINGS_SECTION) for folder in folders]
    try:
        values = await ls.workspace_configuration_async(
            lsp.ConfigurationParams(items=items or [lsp.ConfigurationItem(section=SETTINGS_SECTION)])
        )
    except Exception as error:  # a client that answers badly: run with defaults
        log.warning("workspace/configuration failed: %s", error)
        return [{} for _ in folders]
    settings = [value if isinstance(value, dict) else {} for value in values or []]
    if settings:
        ls.debouncer.delay_ms = debounce_ms(settings[0])
    return settings[: len(folders)] + [{} for _ in range(len(folders) - len(settings))]


def debounce_ms(settings: dict[str, Any]) -> int:
    value = settings.get("debounceMs")
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 60_000 else DEFAULT_DELAY_MS


async def start_watching(ls: AuditexServer, folders: list[Path]) -> None:
    """Ask the client to watch the source files; a client that cannot is replaced by watchdog."""
    if ls.supports("workspace.did_change_watched_files.dynamic_registration"):
        options = lsp.DidChangeWatchedFilesRegistrationOptions(watchers=[lsp.FileSystemWatcher(glob_pattern=glob) for glob in WATCH_GLOBS])
        registration = lsp.Registration(id=str(uuid.uuid4()), method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options)
        try:
            await ls.client_register_capability_async(lsp.RegistrationParams(registrations=[registration]))
            return
        except Exception as error:
            log.warning("the client refused to watch files (%s); watching with watchdog", error)
    loop = asyncio.get_running_loop()
    ls.watcher = FolderWatcher(lambda path: loop.call_soon_threadsafe(ls.disk_changed, path))
    for folder in folders:
        ls.watcher.watch(folder)


def register(server: AuditexServer) -> None:
    server.feature(lsp.INITIALIZE)(initialize)
    server.feature(lsp.INITIALIZED)(initialized)
    server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)(folders_changed)
    server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)(configuration_changed)
    server.feature(lsp.SHUTDOWN)(shutdown)
