"""Document synchronisation: the editor's texts and the changes on disk, handed to the analysis."""

from __future__ import annotations

from lsprotocol import types as lsp

from ..analyzers.folder_watcher import is_watched
from ..analyzers.project_config import CONFIG_FILE
from ..latex.source import SOURCE_SUFFIXES
from .server import AuditexServer, path_of


def did_open(ls: AuditexServer, params: lsp.DidOpenTextDocumentParams) -> None:
    _edited(ls, params.text_document.uri)


def did_change(ls: AuditexServer, params: lsp.DidChangeTextDocumentParams) -> None:
    _edited(ls, params.text_document.uri)


def did_save(ls: AuditexServer, params: lsp.DidSaveTextDocumentParams) -> None:
    path = path_of(params.text_document.uri)
    if path is not None and path.name == CONFIG_FILE:
        ls.submit(path, None)


def did_close(ls: AuditexServer, params: lsp.DidCloseTextDocumentParams) -> None:
    path = path_of(params.text_document.uri)
    if path is not None and is_watched(path) and path.name != CONFIG_FILE:
        ls.submit(path, None)


def watched_files_changed(ls: AuditexServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    for change in params.changes:
        path = path_of(change.uri)
        if path is not None and is_watched(path):
            ls.disk_changed(path)


def _edited(ls: AuditexServer, uri: str) -> None:
    path = path_of(uri)
    text = ls.open_text(uri)
    if path is not None and text is not None and path.suffix in SOURCE_SUFFIXES:
        ls.submit(path, text)


def register(server: AuditexServer) -> None:
    server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))(did_save)
    server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)(watched_files_changed)
