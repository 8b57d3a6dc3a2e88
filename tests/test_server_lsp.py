"""End-to-end tests of `auditex serve`: real JSON-RPC over stdio, driven by pytest-lsp."""

from __future__ import annotations

import ast
import asyncio
import contextlib
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import client_capabilities
from pytest_lsp.client import make_test_lsp_client

from auditex.analyzers.path_check import check_path

FIXTURE = Path(__file__).parent / "fixtures" / "lsp"
SERVER = [sys.executable, "-m", "auditex.cli.main", "serve"]


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    folder = tmp_path / "paper"
    shutil.copytree(FIXTURE, folder)
    return folder


def vscode_capabilities(watch_files: bool = True) -> lsp.ClientCapabilities:
    capabilities = client_capabilities("visual-studio-code")
    if not watch_files:
        capabilities.workspace.did_change_watched_files = None
    return capabilities


# No API key reaches these servers: an audit must answer that it needs one, never call a real API.
SERVER_ENV = {name: value for name, value in os.environ.items() if name not in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AUDITEX_API_KEY")}

# Rules other than these are added by other work; the tests pin what they look at.
SELECTED = ["REF", "CIT", "INC"]


@contextlib.asynccontextmanager
async def session(folder: Path, capabilities: lsp.ClientCapabilities | None = None, debounce_ms: int = 20, rules: list[str] = SELECTED):
    client = make_test_lsp_client()
    client.set_configuration({"debounceMs": debounce_ms, "rules": {"enabled": rules}}, section="auditex")
    client.statuses = []
    client.feature(lsp.CLIENT_REGISTER_CAPABILITY)(lambda params: None)
    client.feature("auditex/status")(lambda params: client.statuses.append(params))
    await client.start_io(*SERVER, env=SERVER_ENV)
    try:
        await client.initialize_session(
            lsp.InitializeParams(
                capabilities=capabilities or vscode_capabilities(),
                root_uri=folder.as_uri(),
                workspace_folders=[lsp.WorkspaceFolder(uri=folder.as_uri(), name=folder.name)],
            )
        )
        yield client
        await client.shutdown_session()
    finally:
        if client._server is not None and client._server.returncode is None:
            client._server.kill()  # a failed test must not leave the server running
        await client.stop()


async def until(condition, timeout: float = 20.0, what: str = "condition"):
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = condition()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def codes(client, folder: Path, file: str) -> list[str] | None:
    diagnostics = client.diagnostics.get((folder / file).as_uri())
    return None if diagnostics is None else sorted(str(d.code) for d in diagnostics)


def shown(client, folder: Path) -> set[tuple]:
    """Every diagnostic the client holds, in a shape a cold check also gives."""
    result = set()
    for uri, diagnostics in client.diagnostics.items():
        file = Path(uri.removeprefix("file://")).relative_to(folder).as_posix()
        for d in diagnostics:
            result.add((file, str(d.code), d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.message))
    return result


def cold(folder: Path) -> set[tuple]:
    return {
        (f.file, f.code, f.range.start.line, f.range.start.character, f.range.end.line, f.range.end.character, f.message)
        for f in check_path(folder).findings
        if f.code.startswith(tuple(SELECTED))
    }


def open_file(client, folder: Path, file: str) -> str:
    uri = (folder / file).as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="latex", version=1, text=(folder / file).read_text())
        )
    )
    return uri


def change(client, uri: str, version: int, line: int, start: int, end: int, text: str) -> None:
    where = lsp.Range(start=lsp.Position(line=line, character=start), end=lsp.Position(line=line, character=end))
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangePartial(range=where, text=text)],
        )
    )


async def initial(client, folder: Path) -> None:
    await until(
        lambda: all(codes(client, folder, f) is not None for f in ("main.tex", "intro.tex", "results.tex", "refs.bib", "supplement.tex")),
        what="diagnostics of every project file",
    )


async def test_diagnostics_for_every_file_with_lsp_fields(paper: Path):
    async with session(paper) as client:
        await initial(client, paper)
        assert codes(client, paper, "main.tex") == [] and codes(client, paper, "intro.tex") == []
        assert codes(client, paper, "results.tex") == ["REF001", "REF003"]
        assert codes(client, paper, "supplement.tex") == ["REF001"]  # a second root in the same folder
        results = {d.code: d for d in client.diagnostics[(paper / "results.tex").as_uri()]}
        assert results["REF001"].source == "auditex" and results["REF001"].severity == lsp.DiagnosticSeverity.Error
        assert list(results["REF003"].tags) == [lsp.DiagnosticTag.Unnecessary]
        assert results["REF001"].range.start == lsp.Position(line=10, character=14)
        assert shown(client, paper) == cold(paper)


async def test_edit_in_one_file_changes_diagnostics_of_another(paper: Path):
    async with session(paper) as client:
        await initial(client, paper)
        uri = open_file(client, paper, "main.tex")
        change(client, uri, 2, 3, 0, len(r"\label{sec:intro}"), "")
        await until(lambda: codes(client, paper, "intro.tex") == ["REF001"], what="REF001 in intro.tex")
        message = client.diagnostics[(paper / "intro.tex").as_uri()][0].message
        assert "sec:intro" in message
        change(client, uri, 3, 3, 0, 0, r"\label{sec:intro}")
        await until(lambda: codes(client, paper, "intro.tex") == [], what="intro.tex clean again (empty list published)")


async def test_diagnostics_after_edits_equal_a_cold_check(paper: Path, tmp_path: Path):
    async with session(paper, debounce_ms=0) as client:
        await initial(client, paper)
        intro, results = open_file(client, paper, "intro.tex"), open_file(client, paper, "results.tex")
        typed = r"See \ref{sec:results} and \cite{lamport94} or \cite{nobody}."
        for version, character in enumerate(typed, start=2):  # typed one key at a time
            change(client, intro, version, 2, version - 2, version - 2, character)
        change(client, results, 2, 1, 7, 18, "sec:res")  # \label{sec:results} -> \label{sec:res}
        change(client, results, 3, 10, 14, 24, "tab:results")
        expected_intro = (FIXTURE / "intro.tex").read_text() + typed
        expected_results = (
            (FIXTURE / "results.tex")
            .read_text()
            .replace(r"\label{sec:results}", r"\label{sec:res}")
            .replace(r"\ref{tab:result}", r"\ref{tab:results}")
        )
        copy = tmp_path / "cold"
        shutil.copytree(paper, copy)
        (copy / "intro.tex").write_text(expected_intro)
        (copy / "results.tex").write_text(expected_results)
        expected = cold(copy)
        assert {code for _, code, *_ in expected} >= {"REF001", "CIT001"}
        await until(lambda: shown(client, paper) == expected, what="live diagnostics equal to a cold check")
        await asyncio.sleep(0.3)  # nothing stale may arrive later
        assert shown(client, paper) == expected


class History(dict):
    """client.diagnostics that also keeps every publish, in order: (uri, its diagnostics)."""

    def __init__(self) -> None:
        super().__init__()
        self.publishes: list[tuple[str, list[lsp.Diagnostic]]] = []

    def __setitem__(self, uri: str, diagnostics) -> None:
        self.publishes.append((uri, list(diagnostics)))
        super().__setitem__(uri, diagnostics)


def placed(diagnostics: list[lsp.Diagnostic]) -> set[tuple]:
    return {(str(d.code), d.range.start.line, d.range.start.character, d.range.end.character) for d in diagnostics}


async def test_a_typed_reference_is_flagged_before_the_slow_rules_and_nothing_else_moves_or_blinks(tmp_path: Path):
    # REF001 runs in the first stage; DRF001 (a placeholder) only in the full check, after it.
    folder = tmp_path / "paper"
    folder.mkdir()
    text = "\\documentclass{article}\n\\begin{document}\n\\section{Intro}\\label{sec:intro}\nSection~\\ref{sec:intro} gives the accuracy, TBD.\n\\end{document}\n"
    (folder / "main.tex").write_text(text)
    async with session(folder, debounce_ms=0, rules=["REF", "DRF001"]) as client:
        client.diagnostics = History()
        uri = open_file(client, folder, "main.tex")
        await until(lambda: codes(client, folder, "main.tex") == ["DRF001"], what="the placeholder flagged")
        await until(lambda: client.statuses and client.statuses[-1].state == "idle", what="the opened file checked")
        before = placed(client.diagnostics[uri])
        published = len(client.diagnostics.publishes)
        typed = "\\ref{sec:nowhere} (XXX) "  # on the line of the placeholder, before it
        change(client, uri, 2, 3, 0, 0, typed)
        copy = tmp_path / "cold"
        copy.mkdir()
        (copy / "main.tex").write_text(text.replace("Section~", typed + "Section~"))
        expected = {(f.code, f.range.start.line, f.range.start.character, f.range.end.character) for f in check_path(copy).findings}
        assert sorted(code for code, *_ in expected) == ["DRF001", "DRF001", "REF001"]  # the new placeholder, the old one moved
        await until(lambda: placed(client.diagnostics[uri]) == expected, what="the full check of the edit")
        after = [found for where, found in client.diagnostics.publishes[published:] if where == uri]
        assert len(after) == 2, "the edit's diagnostics came in two publishes"
        (first, second) = map(placed, after)
        old_placeholder = next(place for place in before if place[0] == "DRF001")
        moved = (old_placeholder[0], old_placeholder[1], old_placeholder[2] + len(typed), old_placeholder[3] + len(typed))
        assert moved in expected and first == {moved, *(place for place in expected if place[0] == "REF001")}
        assert second == expected
        await asyncio.sleep(0.3)  # nothing stale may arrive later
        assert placed(client.diagnostics[uri]) == expected


@pytest.mark.parametrize("watch_files", [True, False], ids=["didChangeWatchedFiles", "watchdog"])
async def test_bib_edited_on_disk(paper: Path, watch_files: bool):
    async with session(paper, vscode_capabilities(watch_files)) as client:
        await initial(client, paper)
        bib = paper / "refs.bib"
        bib.write_text(bib.read_text().replace("knuth84", "knuth1984"))
        if watch_files:
            client.workspace_did_change_watched_files(
                lsp.DidChangeWatchedFilesParams(changes=[lsp.FileEvent(uri=bib.as_uri(), type=lsp.FileChangeType.Changed)])
            )
        # Each file's diagnostics arrive in a notification of their own: wait for all of them.
        expected = cold(paper)
        await until(lambda: shown(client, paper) == expected, what="live diagnostics equal to a cold check after the .bib changed")
        assert codes(client, paper, "intro.tex") == ["CIT001"]


async def code_actions(client, folder: Path, file: str, code: str) -> dict[str, lsp.CodeAction]:
    uri = (folder / file).as_uri()
    diagnostic = next(d for d in client.diagnostics[uri] if d.code == code)
    result = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            range=diagnostic.range,
            context=lsp.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    return {action.title: action for action in result}


def apply_on_disk(edit: lsp.WorkspaceEdit) -> list[Path]:
    """Apply a WorkspaceEdit to files on disk, as an editor would; returns the touched paths."""
    edits: list[tuple[str, lsp.TextEdit]] = []
    for uri, text_edits in (edit.changes or {}).items():
        edits += [(uri, text_edit) for text_edit in text_edits]
    for item in edit.document_changes or []:
        if isinstance(item, lsp.CreateFile):
            Path(item.uri.removeprefix("file://")).touch()
        else:
            edits += [(item.text_document.uri, text_edit) for text_edit in item.edits]
    touched = []
    for uri, text_edit in reversed(edits):
        path = Path(uri.removeprefix("file://"))
        lines = path.read_text().split("\n")
        start, end = text_edit.range.start, text_edit.range.end
        before = "\n".join(lines[: start.line] + [lines[start.line][: start.character]]) if lines else ""
        after = "\n".join([lines[end.line][end.character :]] + lines[end.line + 1 :]) if end.line < len(lines) else ""
        path.write_text(before + text_edit.new_text + after)
        touched.append(path)
    return touched


def notify_disk(client, paths: list[Path]) -> None:
    client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams(changes=[lsp.FileEvent(uri=path.as_uri(), type=lsp.FileChangeType.Changed) for path in paths])
    )


async def test_quick_fix_and_suppressions_applied(paper: Path):
    async with session(paper) as client:
        await initial(client, paper)
        actions = await code_actions(client, paper, "results.tex", "REF001")
        assert {
            "Replace `tab:result` with `tab:results`",
            "Ignore REF001 on this line",
            "Disable REF001 in this project",
            "Dismiss this finding",
        } <= set(actions)
        notify_disk(client, apply_on_disk(actions["Replace `tab:result` with `tab:results`"].edit))
        await until(lambda: codes(client, paper, "results.tex") == ["REF003"], what="the quick fix to clear REF001")
        assert r"\ref{tab:results} shows" in (paper / "results.tex").read_text()

        actions = await code_actions(client, paper, "results.tex", "REF003")
        notify_disk(client, apply_on_disk(actions["Ignore REF003 on this line"].edit))
        await until(lambda: codes(client, paper, "results.tex") == [], what="the suppression comment to hide REF003")
        assert r"\label{sec:results} % auditex: ignore[REF003]" in (paper / "results.tex").read_text()

        actions = await code_actions(client, paper, "supplement.tex", "REF001")
        assert not (paper / ".auditex.toml").exists()
        notify_disk(client, apply_on_disk(actions["Disable REF001 in this project"].edit))
        await until(lambda: codes(client, paper, "supplement.tex") == [], what=".auditex.toml to disable REF001")
        assert 'ignore = ["REF001"]' in (paper / ".auditex.toml").read_text()
        assert shown(client, paper) == cold(paper)


async def test_dismissal_persists_across_restart(paper: Path):
    async with session(paper) as client:
        await initial(client, paper)
        action = (await code_actions(client, paper, "refs.bib", "CIT004"))["Dismiss this finding"]
        # lsprotocol's client-side decoding takes a CodeAction with a nested command
        # for a Command and stringifies the nested object; read it back.
        nested = ast.literal_eval(action.command) if isinstance(action, lsp.Command) else vars(action.command)
        assert nested["command"] == "auditex.dismiss"
        reply = await client.workspace_execute_command_async(
            lsp.ExecuteCommandParams(command=nested["command"], arguments=nested["arguments"])
        )
        assert "dismissed CIT004" in reply["message"]
        await until(lambda: codes(client, paper, "refs.bib") == [], what="the dismissed finding to disappear")
    assert "lamport94" in (paper / ".auditex" / "dismissed.json").read_text()
    async with session(paper) as client:
        await initial(client, paper)
        assert codes(client, paper, "refs.bib") == []
        assert codes(client, paper, "results.tex") == ["REF001", "REF003"]


async def test_hover_navigation_and_outline(paper: Path):
    async with session(paper) as client:
        await initial(client, paper)
        results, intro = (paper / "results.tex").as_uri(), (paper / "intro.tex").as_uri()
        hover = await client.text_document_hover_async(
            lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=results), position=lsp.Position(line=10, character=16))
        )
        assert "REF001" in hover.contents.value and "undefined-reference" in hover.contents.value
        # \ref{tab:results} in intro.tex -> the \label in results.tex
        definition = await client.text_document_definition_async(
            lsp.DefinitionParams(text_document=lsp.TextDocumentIdentifier(uri=intro), position=lsp.Position(line=0, character=75))
        )
        assert [(d.uri, d.range.start.line) for d in definition] == [(results, 4)]
        cite = await client.text_document_definition_async(
            lsp.DefinitionParams(text_document=lsp.TextDocumentIdentifier(uri=intro), position=lsp.Position(line=0, character=30))
        )
        assert [(d.uri, d.range.start.line) for d in cite] == [((paper / "refs.bib").as_uri(), 0)]
        references = await client.text_document_references_async(
            lsp.ReferenceParams(
                text_document=lsp.TextDocumentIdentifier(uri=(paper / "refs.bib").as_uri()),
                position=lsp.Position(line=0, character=8),
                context=lsp.ReferenceContext(include_declaration=False),
            )
        )
        assert [(r.uri, r.range.start.line) for r in references] == [(intro, 0)]
        outline = await client.text_document_document_symbol_async(
            lsp.DocumentSymbolParams(text_document=lsp.TextDocumentIdentifier(uri=results))
        )
        assert [symbol.name for symbol in outline] == ["Results"]


async def test_commands(paper: Path):
    async with session(paper) as client:
        await initial(client, paper)
        report = await client.workspace_execute_command_async(
            lsp.ExecuteCommandParams(command="auditex.showReport", arguments=[{"uri": (paper / "main.tex").as_uri()}])
        )
        assert "REF001" in report["markdown"] and "Found 4 findings" in report["markdown"]
        audit = await client.workspace_execute_command_async(
            lsp.ExecuteCommandParams(command="auditex.audit", arguments=[{"mode": "fast"}])
        )
        assert audit in (None, {})  # told once, as an error message, not in the reply too
        assert [message.type for message in client.messages if "OPENAI_API_KEY" in message.message] == [lsp.MessageType.Error]
        checked = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(command="auditex.checkProject", arguments=[{}]))
        assert "2 findings in 2 root files" in checked["message"]  # the report's other 2 are hints
        tokens = [token for token, reports in client.progress_reports.items() if reports]
        assert tokens and [type(value).__name__ for value in client.progress_reports[tokens[-1]]][
            0 :: len(client.progress_reports[tokens[-1]]) - 1
        ] == ["WorkDoneProgressBegin", "WorkDoneProgressEnd"]
        assert any(getattr(value, "percentage", None) == 100 for value in client.progress_reports[tokens[-1]])
        # Hints are no problems in VS Code's Problems panel: the count leaves them out, as Problems does.
        assert (client.statuses[-1].state, client.statuses[-1].findings) == ("idle", 2)
        client.set_configuration({"debounceMs": 20, "rules": {"enabled": SELECTED, "severity": {"REF001": "hint"}}}, section="auditex")
        client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
        await until(lambda: client.statuses[-1].state == "idle" and client.statuses[-1].findings == 0, what="a count without the hints")
        checked = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(command="auditex.checkProject", arguments=[{}]))
        assert "0 findings in 2 root files" in checked["message"]


def big_workspace(folder: Path, roots: int = 30) -> None:
    folder.mkdir()
    body = "\n".join(rf"\section{{Part {i}}}\label{{sec:{i}}} See Section~\ref{{sec:{i + 1}}} and \cite{{key{i}}}. " * 3 for i in range(40))
    for index in range(roots):
        (folder / f"paper{index:02}.tex").write_text(f"\\documentclass{{article}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n")


async def test_check_project_cancelled_by_request_and_by_progress(tmp_path: Path):
    folder = tmp_path / "many"
    big_workspace(folder)
    async with session(folder) as client:
        await until(lambda: len(client.diagnostics) >= 30, timeout=60, what="initial diagnostics of 30 papers")
        params = lsp.ExecuteCommandParams(command="auditex.checkProject", arguments=[{}])

        # $/cancelRequest while the check runs.
        started = len(client.progress_reports)
        request = asyncio.ensure_future(client.protocol.send_request_async(lsp.WORKSPACE_EXECUTE_COMMAND, params, msg_id="slow-check"))
        await until(
            lambda: (
                len(client.progress_reports) > started
                and any(type(v).__name__ == "WorkDoneProgressReport" for v in list(client.progress_reports.values())[-1])
            ),
            timeout=60,
            what="first progress report",
        )
        client.protocol.notify(lsp.CANCEL_REQUEST, lsp.CancelParams(id="slow-check"))
        with pytest.raises(JsonRpcException) as cancelled:
            await request
        assert cancelled.value.code == lsp.LSPErrorCodes.RequestCancelled

        # window/workDoneProgress/cancel of the progress the server created.
        started = len(client.progress_reports)
        request = asyncio.ensure_future(client.protocol.send_request_async(lsp.WORKSPACE_EXECUTE_COMMAND, params))
        await until(
            lambda: len(client.progress_reports) > started and list(client.progress_reports.values())[-1], timeout=60, what="progress begin"
        )
        client.window_work_done_progress_cancel(lsp.WorkDoneProgressCancelParams(token=list(client.progress_reports)[-1]))
        reply = await request
        assert reply["message"] == "auditex: check cancelled."
        assert type(list(client.progress_reports.values())[-1][-1]).__name__ == "WorkDoneProgressEnd"

        # Still serving.
        report = await client.workspace_execute_command_async(lsp.ExecuteCommandParams(command="auditex.showReport", arguments=[{}]))
        assert "auditex report" in report["markdown"]


class RawConnection:
    """JSON-RPC over the server's stdio without a typed client, to send what no client would."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.shown: list[str] = []  # window/showMessage texts, in order

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def response(self, request_id) -> dict:
        return await asyncio.wait_for(self._response(request_id), 30)

    async def _response(self, request_id) -> dict:
        while True:
            headers = await self.process.stdout.readuntil(b"\r\n\r\n")
            length = int(next(line for line in headers.split(b"\r\n") if line.lower().startswith(b"content-length")).split(b":")[1])
            message = json.loads(await self.process.stdout.readexactly(length))
            if message.get("id") == request_id and "method" not in message:
                return message
            if message.get("method") == lsp.WINDOW_SHOW_MESSAGE:
                self.shown.append(message["params"]["message"])
            if "method" in message and "id" in message:  # a server request: answer it plainly
                self.send({"id": message["id"], "result": None})


async def test_malformed_requests_get_errors_and_the_server_lives(paper: Path):
    process = await asyncio.create_subprocess_exec(
        *SERVER, env=SERVER_ENV, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
    )
    raw = RawConnection(process)
    try:
        raw.send({"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": paper.as_uri(), "capabilities": {}}})
        assert "capabilities" in (await raw.response(1))["result"]
        raw.send({"method": "initialized", "params": {}})
        raw.send({"id": 2, "method": "auditex/noSuchMethod", "params": {}})
        assert (await raw.response(2))["error"]["code"] == lsp.ErrorCodes.MethodNotFound
        raw.send({"id": 3, "method": "textDocument/hover", "params": {"textDocument": 5}})
        assert "error" in await raw.response(3)
        raw.send({"id": 4, "method": "workspace/executeCommand", "params": {"command": "auditex.noSuchCommand"}})
        assert "error" in await raw.response(4)
        raw.send({"method": "textDocument/didChange", "params": {"textDocument": {"uri": "file:///nowhere.tex"}, "contentChanges": "x"}})
        raw.send({"id": 5, "method": "workspace/executeCommand", "params": {"command": "auditex.audit", "arguments": ["not an object"]}})
        assert (await raw.response(5))["result"] == {}  # the missing key is told once, shown before the reply
        assert ["OPENAI_API_KEY" in shown for shown in raw.shown] == [True]
        raw.send({"id": 6, "method": "workspace/executeCommand", "params": {"command": "auditex.dismiss", "arguments": [{"uri": 3}]}})
        assert "nothing was dismissed" in (await raw.response(6))["result"]["message"]
        raw.send({"id": 7, "method": "workspace/executeCommand", "params": {"command": "auditex.showReport", "arguments": [{}]}})
        assert "REF001" in (await raw.response(7))["result"]["markdown"]
        raw.send({"id": 8, "method": "shutdown"})
        await raw.response(8)
        raw.send({"method": "exit"})
        assert await asyncio.wait_for(process.wait(), 20) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_hostile_files_never_crash_the_server(paper: Path):
    async with session(paper) as client:
        await initial(client, paper)
        (paper / "intro.tex").write_bytes(b"Caf\xe9 \\cite{knuth84} \\ref{nowhere}\n")
        (paper / "results.tex").unlink()
        notify_disk(client, [paper / "intro.tex", paper / "results.tex"])
        await until(lambda: "INC004" in (codes(client, paper, "intro.tex") or []), what="the non-UTF-8 file reported")
        await until(lambda: "INC001" in (codes(client, paper, "main.tex") or []), what="the deleted file reported as missing")
        assert codes(client, paper, "results.tex") == []  # no longer in the project: cleared
        assert shown(client, paper) == cold(paper)


def test_what_an_edit_leaves_alive_waits_for_the_collection_after_its_publish():
    import gc

    from auditex.server.server import settle_heap

    threshold = gc.get_threshold()
    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    try:
        settle_heap()
        gc.callbacks.append(count)
        kept = [[index] for index in range(10_000)]  # more than an edit of hott_book leaves alive
        gc.callbacks.remove(count)
        assert len(kept) == 10_000 and collections == []
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()
