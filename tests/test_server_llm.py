"""The LLM audit and review in the editor: real JSON-RPC over stdio to `auditex serve`,
whose LLM calls go to the loopback server (tests/llm_server.py). Nothing is mocked."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from pathlib import Path

import pytest
from llm_server import LoopbackLLMServer, Reply
from lsprotocol import types as lsp
from pytest_lsp import client_capabilities
from pytest_lsp.client import make_test_lsp_client
from test_llm_audit import CLAIM, HYPE, MAIN, MEMORY, PROTOCOL, answer, finding, hangs_verifying, role

SERVER = [sys.executable, "-m", "auditex.cli.main", "serve"]
SECRET = "sk-loopback-secret-4242"


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    folder = tmp_path / "paper"
    folder.mkdir()
    (folder / "main.tex").write_text(MAIN, encoding="utf-8")
    return folder


@pytest.fixture
def model(llm_server: LoopbackLLMServer) -> LoopbackLLMServer:
    llm_server.responder = answer
    return llm_server


@contextlib.asynccontextmanager
async def session(folder: Path, server: LoopbackLLMServer, **llm: object):
    client = make_test_lsp_client()
    client.set_configuration(
        {
            "debounceMs": 20,
            "rules": {"enabled": ["REF", "CIT"]},
            "llm": {
                "baseUrl": server.base_url_openai,
                "model": "loopback-model",
                # any LLMSettings field passes through the editor settings
                "timeout_s": 5.0,
                "max_retries": 1,
                "retry_base_s": 0.01,
                **llm,
            },
        },
        section="auditex",
    )
    client.statuses = []
    client.feature(lsp.CLIENT_REGISTER_CAPABILITY)(lambda params: None)
    client.feature("auditex/status")(lambda params: client.statuses.append(params))
    env = {**os.environ, "AUDITEX_API_KEY": SECRET, "XDG_CACHE_HOME": str(folder.parent / "cache")}
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        env.pop(name, None)
    await client.start_io(*SERVER, env=env)
    try:
        await client.initialize_session(
            lsp.InitializeParams(
                capabilities=client_capabilities("visual-studio-code"),
                root_uri=folder.as_uri(),
                workspace_folders=[lsp.WorkspaceFolder(uri=folder.as_uri(), name=folder.name)],
            )
        )
        await until(lambda: (folder / "main.tex").as_uri() in client.diagnostics, what="first diagnostics")
        yield client
        await client.shutdown_session()
    finally:
        if client._server is not None and client._server.returncode is None:
            client._server.kill()
        await client.stop()
    received = [client.statuses, client.messages, client.log_messages, client.diagnostics, client.progress_reports]
    assert SECRET not in repr(received)


async def until(condition, timeout: float = 30.0, what: str = "condition"):
    deadline = asyncio.get_running_loop().time() + timeout
    while not (value := condition()):
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)
    return value


def llm_diagnostics(client, folder: Path) -> dict[str, lsp.Diagnostic]:
    """The LLM findings shown on main.tex, by the text they cover."""
    uri = (folder / "main.tex").as_uri()
    lines = getattr(client, "text", MAIN).split("\n")
    result = {}
    for d in client.diagnostics.get(uri, []):
        if d.source == "auditex (LLM)":
            assert d.range.start.line == d.range.end.line
            result[lines[d.range.start.line][d.range.start.character : d.range.end.character]] = d
    return result


async def run(client, command: str, **argument: object):
    return await client.workspace_execute_command_async(lsp.ExecuteCommandParams(command=command, arguments=[argument]))


def open_main(client, folder: Path) -> str:
    uri = (folder / "main.tex").as_uri()
    client.text = MAIN
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=uri, language_id="latex", version=1, text=MAIN))
    )
    return uri


def replace(client, uri: str, version: int, old: str, new: str) -> None:
    """Edit the open main.tex: the first `old` becomes `new` (both on one line)."""
    before = client.text.split(old, 1)[0]
    line, character = before.count("\n"), len(before.rsplit("\n", 1)[-1])
    where = lsp.Range(start=lsp.Position(line=line, character=character), end=lsp.Position(line=line, character=character + len(old)))
    client.text = client.text.replace(old, new, 1)
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangePartial(range=where, text=new)],
        )
    )


async def test_audit_publishes_llm_diagnostics_kept_on_unchanged_sections(paper, model):
    async with session(paper, model) as client:
        uri = open_main(client, paper)
        reply = await run(client, "auditex.audit", mode="standard", uri=uri)
        assert "3 LLM findings" in reply["message"] and "calls" in reply["message"]
        shown = llm_diagnostics(client, paper)
        assert set(shown) == {CLAIM.replace("%", "\\%"), PROTOCOL, HYPE}
        protocol = shown[PROTOCOL]
        assert str(protocol.code).startswith("LLM-") and protocol.data["source"] == "llm"
        assert protocol.severity == lsp.DiagnosticSeverity.Warning  # the verifier said major
        assert shown[HYPE].severity == lsp.DiagnosticSeverity.Information  # rhetoric is capped by the policy
        # Progress with percentages, and the status bar: auditing, then idle with the cost.
        reports = [r for token in client.progress_reports for r in client.progress_reports[token]]
        assert any(getattr(r, "percentage", None) == 100 for r in reports)
        states = [s.state for s in client.statuses]
        # The folder's own rule check may report an idle of its own (without a cost) after the audit's.
        assert "auditing" in states and any(s.state == "idle" and getattr(s, "costUsd", -1) >= 0 for s in client.statuses)

        # An edit in the Method section: rule re-checks keep the LLM findings, moved with their lines.
        replace(client, uri, 2, "The loss is the cross entropy", "The loss is the\nweighted cross entropy")
        await until(lambda: client.statuses and client.statuses[-1].state == "idle" and len(client.statuses) > len(states), what="re-check")
        await asyncio.sleep(0.3)
        moved = llm_diagnostics(client, paper)
        assert set(moved) == set(shown)
        assert moved[PROTOCOL].range.start.line == protocol.range.start.line + 1

        # An edit in the Experiments section drops its finding; the others stay.
        replace(client, uri, 3, "We train every baseline", "We tune every baseline")
        await until(
            lambda: set(llm_diagnostics(client, paper)) == {CLAIM.replace("%", "\\%"), HYPE},
            what="the Experiments finding dropped, the others kept",
        )
        # Undo: the audited text is back, and so is its finding.
        replace(client, uri, 4, "We tune every baseline", "We train every baseline")
        await until(lambda: PROTOCOL in llm_diagnostics(client, paper), what="the finding back after undo")


@pytest.mark.parametrize("how", ["comment", "config"])
async def test_audit_in_the_editor_hides_llm_findings_the_user_suppressed(paper, model, how):
    if how == "comment":
        (paper / "main.tex").write_text(MAIN.replace(PROTOCOL, "% auditex: ignore[LLM-EP]\n" + PROTOCOL), encoding="utf-8")
    else:
        (paper / ".auditex.toml").write_text('[rules]\nignore = ["LLM-EP"]\n', encoding="utf-8")
    async with session(paper, model) as client:
        uri = (paper / "main.tex").as_uri()
        reply = await run(client, "auditex.audit", mode="standard", uri=uri)
        assert "3 LLM findings" in reply["message"]  # found, then hidden by the policy
        codes = await until(
            lambda: {str(d.code) for d in client.diagnostics.get(uri, []) if d.source == "auditex (LLM)"} or None, what="LLM diagnostics"
        )
        assert codes == {"LLM-CD", "LLM-RB"}


async def test_verbatim_fix_is_a_code_action_and_other_advice_is_in_the_hover(paper, model):
    better = "FastNet is an advance in image classification."
    model.responder = lambda body: (
        json.dumps(
            {
                "findings": [
                    finding("rhetoric_bias", HYPE, "Conclusion", fix=f'Replace "{HYPE}" with "{better}"'),
                    finding("experiment_protocol", PROTOCOL, "Experiments", fix="Train the baselines for 90 epochs as well."),
                ]
            }
        )
        if role(body) == "fast"
        else answer(body)
    )
    async with session(paper, model) as client:
        uri = open_main(client, paper)
        await run(client, "auditex.audit", mode="fast")
        shown = llm_diagnostics(client, paper)

        async def actions(d: lsp.Diagnostic) -> list[lsp.CodeAction]:
            return await client.text_document_code_action_async(
                lsp.CodeActionParams(
                    text_document=lsp.TextDocumentIdentifier(uri=uri), range=d.range, context=lsp.CodeActionContext(diagnostics=[d])
                )
            )

        fixes = [a for a in await actions(shown[HYPE]) if a.title.startswith("Apply proposed fix")]
        assert len(fixes) == 1
        [edit] = fixes[0].edit.changes[uri]
        assert edit.new_text == better and edit.range == shown[HYPE].range
        assert not [a for a in await actions(shown[PROTOCOL]) if a.title.startswith("Apply proposed fix")]
        hover = await client.text_document_hover_async(
            lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=shown[PROTOCOL].range.start)
        )
        assert "Proposed fix: Train the baselines for 90 epochs as well." in hover.contents.value
        assert "confidence 0.90" in hover.contents.value


async def test_cancel_from_the_progress_keeps_what_was_verified(paper, model):
    model.responder = hangs_verifying(HYPE)
    async with session(paper, model, **MEMORY) as client:  # the memory design verifies section by section
        open_main(client, paper)
        request = asyncio.ensure_future(run(client, "auditex.audit", mode="standard"))
        await until(lambda: sum(role(r.body) == "verify" for r in model.requests) == 3, what="the hanging unit started")
        await asyncio.sleep(1)  # the other verifications' answers reach the audit
        token = next(token for token in reversed(list(client.progress_reports)) if client.progress_reports[token])
        client.window_work_done_progress_cancel(lsp.WorkDoneProgressCancelParams(token=token))
        reply = await asyncio.wait_for(request, 20)
        assert "cancelled" in reply["message"]
        assert PROTOCOL in llm_diagnostics(client, paper) and HYPE not in llm_diagnostics(client, paper)


async def test_cancel_request_stops_the_audit(paper, model):
    model.responder = lambda body: Reply.hang() if role(body) == "fast" else answer(body)
    async with session(paper, model) as client:
        params = lsp.ExecuteCommandParams(command="auditex.audit", arguments=[{"mode": "fast"}])
        request = asyncio.ensure_future(client.protocol.send_request_async(lsp.WORKSPACE_EXECUTE_COMMAND, params, msg_id="audit-1"))
        await until(lambda: model.request_count, what="the LLM call")
        client.protocol.notify(lsp.CANCEL_REQUEST, lsp.CancelParams(id="audit-1"))
        with pytest.raises(Exception):  # noqa: B017 (the cancelled request fails with whatever error pygls raises)
            await asyncio.wait_for(request, 20)
        # The folder's first check may report its own "idle" (without a message) after the cancellation's.
        await until(
            lambda: any(s.state == "idle" and "cancelled" in (getattr(s, "message", None) or "") for s in client.statuses),
            what="the audit stopped",
        )


@pytest.mark.parametrize("fault", ["429", "garbage"])
async def test_server_faults_give_a_message_and_keep_earlier_findings(paper, model, fault):
    async with session(paper, model) as client:
        open_main(client, paper)
        await run(client, "auditex.audit", mode="standard")
        before = set(llm_diagnostics(client, paper))
        assert len(before) == 3
        model.responder = (lambda body: Reply.rate_limited("0")) if fault == "429" else (lambda body: Reply.broken_body())
        reply = await run(client, "auditex.audit", mode="fast", uri=(paper / "main.tex").as_uri())
        assert "failed" in reply["message"]
        assert not client.messages  # the units that failed are told once, in the audit's summary
        assert set(llm_diagnostics(client, paper)) == before
        report = await run(client, "auditex.showReport")
        assert "auditex report" in report["markdown"]  # still serving


async def test_unreachable_server_and_missing_key_are_one_message(paper, model):
    async with session(paper, model, baseUrl="http://127.0.0.1:9/v1") as client:
        assert await run(client, "auditex.audit", mode="fast") == {}
        (shown,) = await until(lambda: client.messages, what="window/showMessage")
        assert "audit stopped" in shown.message and "Traceback" not in shown.message
    for command in ("auditex.audit", "auditex.review"):
        async with session(paper, model, baseUrl="", provider="anthropic") as client:
            assert await run(client, command, mode="fast") == {}
            (shown,) = await until(lambda: client.messages, what="window/showMessage")
            # In the editor's words: the setting, not the command line's --base-url.
            assert "ANTHROPIC_API_KEY" in shown.message and "auditex.llm.baseUrl" in shown.message
            assert "--" not in shown.message and shown.type == lsp.MessageType.Error


async def test_review_returns_markdown(paper, model):
    async with session(paper, model) as client:
        reply = await run(client, "auditex.review", mode="fast")
        assert reply["markdown"].startswith("# Review")
        assert "no related-work evidence" in reply["markdown"].lower() or "related" in reply["markdown"].lower()
        assert all("semanticscholar" not in r.path for r in model.requests)
        reports = [r for token in client.progress_reports for r in client.progress_reports[token]]
        assert any(getattr(r, "percentage", None) == 100 for r in reports)
