"""workspace/executeCommand handlers. Each takes one argument object `{uri?, mode?}`
(vscode-client/contract.json) and answers `{markdown?, message?}`.

Handlers leave `ls` (the AuditexServer) unannotated: pygls resolves the
annotations of command handlers at call time, and main.py imports this module.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from ..analyzers.report import to_markdown
from .actions import DISMISS_COMMAND

if TYPE_CHECKING:
    from .main import AuditexServer

CHECK_PROJECT = "auditex.checkProject"
AUDIT = "auditex.audit"
SHOW_REPORT = "auditex.showReport"
REVIEW = "auditex.review"
AUDIT_MODES = ("fast", "standard", "deep")


class WorkDone:
    """A server-initiated, cancellable $/progress with percentages."""

    def __init__(self, server: "AuditexServer", title: str) -> None:
        self.server, self.title = server, title
        self.token: str | None = None

    async def __aenter__(self) -> "WorkDone":
        if self.server.client_capabilities.window and self.server.client_capabilities.window.work_done_progress:
            token = f"auditex-{uuid.uuid4()}"
            try:
                await self.server.work_done_progress.create_async(token)
            except Exception:  # the client said no: work without a progress bar
                return self
            self.token = token
            self.server.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(title=self.title, cancellable=True, percentage=0))
        return self

    def report(self, done: int, total: int, message: str) -> None:
        if self.token is not None:
            percentage = 100 * done // total if total else 100
            self.server.work_done_progress.report(self.token, lsp.WorkDoneProgressReport(message=message, percentage=percentage, cancellable=True))

    @property
    def cancelled(self) -> bool:
        future = self.server.work_done_progress.tokens.get(self.token) if self.token else None
        return future is not None and future.cancelled()

    async def __aexit__(self, kind, error, traceback) -> None:
        if self.token is not None:
            message = "cancelled" if self.cancelled or kind is asyncio.CancelledError else "done"
            self.server.work_done_progress.end(self.token, lsp.WorkDoneProgressEnd(message=message))
            self.server.work_done_progress.tokens.pop(self.token, None)


def _argument(arguments: tuple[Any, ...]) -> dict[str, Any]:
    return arguments[0] if arguments and isinstance(arguments[0], dict) else {}


async def check_project(ls, *arguments: Any) -> dict[str, str]:
    """Cold re-check: configs and projects re-read from disk (open files keep the editor's text)."""
    await ls.ready.wait()
    ls.status("checking")
    folders = list(ls.workspace_state.folders.values())
    try:
        async with WorkDone(ls, "auditex: checking project") as progress:
            for folder in folders:
                await ls.run(folder.reload_config)
                await ls.run(folder.discover, ls.workspace_state.overlays(folder.folder))
            steps = [(folder, state) for folder in folders for state in folder.projects]
            for done, (folder, state) in enumerate(steps):
                if progress.cancelled:
                    return {"message": "auditex: check cancelled."}
                progress.report(done, len(steps), state.project.root_file)
                await ls.run(folder.check_one, state)
            progress.report(len(steps), len(steps), "publishing")
            ls.publish(await ls.run(ls.workspace_state.diagnostics))
    finally:
        ls.status("idle", findings=sum(len(findings) for findings in ls.published.values()))
    total = sum(len(findings) for findings in ls.published.values())
    return {"message": f"auditex: {total} finding{'s' if total != 1 else ''} in {len(steps)} root file{'s' if len(steps) != 1 else ''}."}


async def audit(ls, *arguments: Any) -> dict[str, str]:
    mode = _argument(arguments).get("mode", "standard")
    if mode not in AUDIT_MODES:
        return {"message": f"auditex: unknown audit mode '{mode}'; use one of {', '.join(AUDIT_MODES)}."}
    # The LLM pipeline plugs in here: when auditex.analyzers.llm.audit exposes
    # `async run_audit(...)`, run it per root under WorkDone (as check_project
    # does), merge its findings into the folder's and publish.
    return {"message": f"auditex: the LLM audit ({mode}) is not available yet in this version; "
                       "the deterministic checks are running live (auditex: Check project)."}


async def show_report(ls, *arguments: Any) -> dict[str, str]:
    await ls.ready.wait()
    uri = _argument(arguments).get("uri")
    folder = ls.folder_of_uri.get(uri) if isinstance(uri, str) else None
    findings = [finding for item, shown in ls.published.items() for finding in shown
                if folder is None or ls.folder_of_uri.get(item) == folder]
    title = f"auditex report: {folder.name}" if folder is not None else "auditex report"
    return {"markdown": to_markdown(findings, title)}


async def review(ls, *arguments: Any) -> dict[str, str]:
    return {"message": "auditex: the reviewer-style review is not available yet in this version; "
                       "use auditex: Show report for the current findings."}


async def dismiss(ls, *arguments: Any) -> dict[str, str]:
    argument = _argument(arguments)
    uri, fingerprint = argument.get("uri"), argument.get("fingerprint")
    finding = next((f for f in ls.published.get(uri, []) if f.fingerprint == fingerprint), None) if isinstance(uri, str) else None
    folder = ls.workspace_state.folders.get(ls.folder_of_uri.get(uri)) if finding is not None else None
    if finding is None or folder is None:
        return {"message": "auditex: that finding is no longer reported; nothing was dismissed."}

    def dismiss_and_recheck() -> None:
        folder.dismissals.dismiss(finding.fingerprint, finding.code, finding.file, finding.message)
        folder.invalidate()

    await ls.run(dismiss_and_recheck)
    await ls.check_now()
    return {"message": f"auditex: dismissed {finding.code} (undo by removing it from {folder.dismissals.path.relative_to(folder.folder)})."}


def register(server: "AuditexServer") -> None:
    for name, handler in ((CHECK_PROJECT, check_project), (AUDIT, audit), (SHOW_REPORT, show_report),
                          (REVIEW, review), (DISMISS_COMMAND, dismiss)):
        server.command(name)(handler)

