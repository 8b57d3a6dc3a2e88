"""`auditex.online` in the editor: real JSON-RPC to `auditex serve`, whose reference checks go to
the loopback stand-ins (tests/scholarly_standins.py). Nothing reaches the internet."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from lsprotocol import types as lsp
from pytest_lsp import client_capabilities
from pytest_lsp.client import make_test_lsp_client
from scholarly_standins import StandIns
from test_reference_verification import LIBRARY
from test_server_llm import until

SERVER = [sys.executable, "-m", "auditex.cli.main", "serve"]
MAIN = (
    "\\documentclass{article}\n\\begin{document}\nAttention \\cite{vaswani2017}, widgets \\cite{fake2021}, deep \\cite{deep}.\n"
    "\\bibliography{refs}\n\\end{document}\n"
)
REFS = (
    "@inproceedings{vaswani2017,\n  title = {Attention Is All You Need},\n  author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki},\n  year = {2017}\n}\n"
    "@article{fake2021,\n  title = {Quantum Gradient Widgets for Sparse Hyperbolic Attention},\n  author = {Smith, John},\n  year = {2021}\n}\n"
    "@article{deep,\n  title = {Deep learning},\n  author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},\n  journal = {Nature},\n  year = {2009}\n}\n"
)


@contextlib.asynccontextmanager
async def session(folder: Path, stand_ins: StandIns, online: bool):
    client = make_test_lsp_client()
    client.set_configuration({"debounceMs": 20, "online": online}, section="auditex")
    client.feature(lsp.CLIENT_REGISTER_CAPABILITY)(lambda params: None)
    client.feature("auditex/status")(lambda params: None)
    env = {key: value for key, value in os.environ.items() if not key.startswith("AUDITEX_")}
    env.update(stand_ins.environment())
    env["AUDITEX_CACHE_DIR"] = str(folder.parent / "cache")
    await client.start_io(*SERVER, env=env)
    try:
        await client.initialize_session(
            lsp.InitializeParams(
                capabilities=client_capabilities("visual-studio-code"),
                root_uri=folder.as_uri(),
                workspace_folders=[lsp.WorkspaceFolder(uri=folder.as_uri(), name=folder.name)],
            )
        )
        yield client
        await client.shutdown_session()
    finally:
        if client._server is not None and client._server.returncode is None:
            client._server.kill()
        await client.stop()


def paper(tmp_path: Path) -> Path:
    folder = tmp_path / "paper"
    folder.mkdir()
    (folder / "main.tex").write_text(MAIN)
    (folder / "refs.bib").write_text(REFS)
    return folder


def codes(client, uri: str) -> list[str]:
    return sorted(str(d.code) for d in client.diagnostics.get(uri, []) if str(d.code).startswith("BIB"))


async def test_online_findings_arrive_in_the_background_on_the_entry_and_each_cite(tmp_path: Path) -> None:
    folder = paper(tmp_path)
    main, refs = (folder / "main.tex").as_uri(), (folder / "refs.bib").as_uri()
    with StandIns(LIBRARY, latency_s=0.3) as stand_ins:
        async with session(folder, stand_ins, online=True) as client:
            await until(lambda: refs in client.diagnostics, what="first diagnostics")
            # The offline diagnostics did not wait for the indexes.
            assert codes(client, refs) == []
            await until(lambda: codes(client, refs) == ["BIB001", "BIB002"], timeout=60, what="BIB findings on the .bib")
            await until(lambda: codes(client, main) == ["BIB001", "BIB002"], what="BIB findings on the cites")
            assert client.progress_reports  # a progress was shown
            cite = next(d for d in client.diagnostics[main] if d.code == "BIB001")
            assert cite.range.start.line == 2 and "fake2021" in cite.message
            year = next(d for d in client.diagnostics[refs] if d.code == "BIB002")
            assert year.severity == lsp.DiagnosticSeverity.Information and 'cited "2009", found "2015"' in year.message
            actions = await client.text_document_code_action_async(
                lsp.CodeActionParams(
                    text_document=lsp.TextDocumentIdentifier(uri=refs), range=year.range, context=lsp.CodeActionContext(diagnostics=[year])
                )
            )
            replace = next(a for a in actions if a.title.startswith("Replace with verified metadata"))
            assert "year: 2015" in replace.title and not replace.is_preferred
            [_edit] = [e for e in replace.edit.changes[refs] if e.new_text == "2015"]
            asked = stand_ins.count()
            assert asked > 0
            # Editing main.tex asks nothing more: the verdicts stand.
            (folder / "main.tex").write_text(MAIN.replace("deep \\cite", "deep, again, \\cite"))
            client.workspace_did_change_watched_files(
                lsp.DidChangeWatchedFilesParams(changes=[lsp.FileEvent(uri=main, type=lsp.FileChangeType.Changed)])
            )
            await until(lambda: any(d.code == "BIB001" and d.range.start.line == 2 for d in client.diagnostics.get(main, [])))
            assert stand_ins.count() == asked


async def test_online_is_off_by_default(tmp_path: Path) -> None:
    folder = paper(tmp_path)
    refs = (folder / "refs.bib").as_uri()
    with StandIns(LIBRARY) as stand_ins:
        async with session(folder, stand_ins, online=False) as client:
            await until(lambda: refs in client.diagnostics, what="first diagnostics")
            await client.workspace_execute_command_async(lsp.ExecuteCommandParams(command="auditex.checkProject", arguments=[{}]))
            assert codes(client, refs) == []
        assert stand_ins.count() == 0
