"""workspace/executeCommand handlers. Each takes one argument object `{uri?, mode?}`
(vscode-client/contract.json) and answers `{markdown?, message?}`.

Handlers leave `ls` (the AuditexServer) unannotated: pygls resolves the
annotations of command handlers at call time, and main.py imports this module.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp
from pygls.uris import to_fs_path

from ..analyzers.reports.markdown import to_markdown
from . import llm
from .actions import DISMISS_COMMAND

if TYPE_CHECKING:
    from .main import AuditexServer

CHECK_PROJECT = "auditex.checkProject"
AUDIT = "auditex.audit"
SHOW_REPORT = "auditex.showReport"
REVIEW = "auditex.review"
log = logging.getLogger(__name__)
# The id of the request being handled (set by main._Protocol), to hear of its $/cancelRequest.
REQUEST_ID: contextvars.ContextVar[Any] = contextvars.ContextVar("auditex_request_id", default=None)


class WorkDone:
    """A server-initiated, cancellable $/progress with percentages."""

    def __init__(self, server: AuditexServer, title: str) -> None:
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

    async def __aexit__(self, kind, error, traceback) -> None:
        if self.token is not None:
            message = "cancelled" if self.cancelled or kind is asyncio.CancelledError else "done"
            self.server.work_done_progress.end(self.token, lsp.WorkDoneProgressEnd(message=message))
            self.server.work_done_progress.tokens.pop(self.token, None)


def _argument(arguments: tuple[Any, ...]) -> dict[str, Any]:
    return arguments[0] if arguments and isinstance(arguments[0], dict) else {}


def _uri_path(argument: dict[str, Any]) -> Path | None:
    uri = argument.get("uri")
    path = to_fs_path(uri) if isinstance(uri, str) else None
    return Path(path) if path else None


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
            ls.publish(await ls.run(ls.diagnostics))
    finally:
        ls.status("idle", findings=ls.shown_count())
    total = ls.shown_count()
    return {"message": f"auditex: {total} finding{'s' if total != 1 else ''} in {len(steps)} root file{'s' if len(steps) != 1 else ''}."}


async def _llm_target(ls, arguments: tuple, verb: str, modes) -> tuple[str, list] | dict[str, str]:
    """(mode, folders) an LLM command runs on, or the message explaining why it cannot run."""
    argument = _argument(arguments)
    mode = argument.get("mode") or "standard"
    if mode not in modes:
        return {"message": f"auditex: unknown {verb} mode '{mode}'; use one of {', '.join(modes)}."}
    await ls.ready.wait()
    folders = await ls.run(llm.folders_for, ls.workspace_state, _uri_path(argument))
    if not folders:
        return {"message": f"auditex: no LaTeX project to {verb} here."}
    return mode, folders


async def audit(ls, *arguments: Any) -> dict[str, str]:
    """The LLM audit of the folder holding `uri` (else of every folder), findings published as units finish."""
    target = await _llm_target(ls, arguments, "audit", llm.AUDIT_MODES)
    if isinstance(target, dict):
        return target
    mode, folders = target
    if any(state.folder in ls.llm.running for state, _ in folders):
        return {"message": "auditex: an audit of this folder is already running."}
    from ..analyzers.llm.answer_cache import LLMCache
    from ..analyzers.llm.audit import run_audit
    from ..analyzers.llm.config_section import severity_policy
    from ..analyzers.llm.errors import LLMError, MissingKey

    settings = None
    failed = False  # a failure is told once, as an error message, and not returned too
    results = []
    running = {state.folder for state, _ in folders}
    ls.llm.running |= running
    ls.status("auditing", message=f"{mode} audit", costUsd=0.0)
    cache = LLMCache()
    try:
        async with WorkDone(ls, f"auditex: {mode} audit") as progress:
            for state, relative in folders:
                settings = llm.llm_settings(state.config.llm)
                policy = severity_policy(state.config.llm)
                for snapshot in await ls.run(llm.snapshots, state, relative):
                    project = await llm.private_project(state, snapshot)
                    results.append(
                        await _audit_project(ls, state.folder, project, snapshot, mode, settings, policy, cache, progress, run_audit)
                    )
                    if progress.cancelled:
                        break
        message = llm.audit_message(results)
    except MissingKey:
        assert settings is not None  # the key is asked for by an audit, after its settings were read
        message, failed = llm.missing_key(f"the {mode} audit", settings), True
    except (LLMError, ValueError) as error:
        message, failed = f"auditex: the {mode} audit stopped: {error}", True
    except Exception as error:  # a bug must cost one audit, not the server
        log.exception("audit failed")
        message, failed = f"auditex: the {mode} audit failed: {error}", True
    finally:
        cache.close()
        ls.llm.running -= running
    ls.publish(await ls.run(ls.diagnostics))
    message = llm.redacted(message, settings)
    cost = sum(result.stats.cost_usd for result in results)
    ls.status("idle", findings=ls.shown_count(), message=message, costUsd=cost)
    if failed:
        llm.show_message(ls, message)
        return {}
    return {"message": message}


async def _audit_project(ls, folder, project, snapshot, mode, settings, policy, cache, progress: WorkDone, run_audit):
    """One root's audit; the folder's kept findings grow as units finish, and are replaced
    by this run's only when it completed (a cancelled or failing run keeps the earlier ones)."""
    previous = ls.llm.findings_of(folder, snapshot.root)

    def on_progress(done: int, total: int, label: str) -> None:
        progress.report(done, total, label or f"{mode} audit")
        ls.status("auditing", message=f"{mode} audit: {done}/{total} units")

    def on_findings(findings) -> None:
        ls.llm.keep(folder, snapshot.root, {**previous, **llm.anchored(project, findings)})
        _publish_soon(ls)

    result = await run_audit(
        project,
        settings,
        mode,
        cache=cache,
        on_progress=on_progress,
        on_findings=on_findings,
        cancel=progress.cancel,
        deterministic=snapshot.rule_findings,
        policy=policy,
    )
    complete = not result.cancelled and not result.failed_units
    ls.llm.keep(folder, snapshot.root, {**({} if complete else previous), **llm.anchored(project, result.llm_findings)})
    return result


def _publish_soon(ls) -> None:
    """Publish partial results once the analysis thread is free; bursts of units make one publish."""
    if ls.llm.publishing is not None and not ls.llm.publishing.done():
        return

    async def publish() -> None:
        ls.publish(await ls.run(ls.diagnostics))

    ls.llm.publishing = asyncio.ensure_future(publish())


async def show_report(ls, *arguments: Any) -> dict[str, str]:
    await ls.ready.wait()
    uri = _argument(arguments).get("uri")
    folder = ls.folder_of_uri.get(uri) if isinstance(uri, str) else None
    findings = [
        finding for item, shown in ls.published.items() for finding in shown if folder is None or ls.folder_of_uri.get(item) == folder
    ]
    title = f"auditex report: {folder.name}" if folder is not None else "auditex report"
    return {"markdown": to_markdown(findings, title)}


async def review(ls, *arguments: Any) -> dict[str, str]:
    """The error-aware review of the project holding `uri` (else the first), as Markdown."""
    target = await _llm_target(ls, arguments, "review", llm.REVIEW_MODES)
    if isinstance(target, dict):
        return target
    mode, folders = target
    state, relative = folders[0]
    snapshots = await ls.run(llm.snapshots, state, relative)
    if not snapshots:
        return {"message": "auditex: no root file (\\documentclass) found to review."}
    from ..analyzers.llm.answer_cache import LLMCache
    from ..analyzers.llm.errors import MissingKey
    from ..analyzers.review import run_review
    from ..analyzers.scholarly.related import make_search

    settings = None
    cache = LLMCache()
    ls.status("auditing", message="review")
    try:
        settings = llm.llm_settings(state.config.llm)
        settings.key_for_sdk()  # a missing key is told before the review starts, in the editor's words
        search = llm.related_work(state.config.llm, make_search)
        project = await llm.private_project(state, snapshots[0])
        async with WorkDone(ls, "auditex: review") as progress:

            def on_progress(stage: str, done: int, total: int) -> None:
                progress.report(done, total, stage)
                ls.status("auditing", message=f"review: {stage}")

            result = await run_review(
                project, settings, mode, cache=cache, search=search, config=state.config, on_progress=on_progress, cancel=progress.cancel
            )
    except MissingKey:
        assert settings is not None  # the key is asked for by the review, after its settings were read
        llm.show_message(ls, llm.missing_key("the review", settings))
        return {}
    except ValueError as error:
        llm.show_message(ls, llm.redacted(f"auditex: the review cannot start: {error}", settings))
        return {}
    except Exception as error:  # a bug must cost one review, not the server
        log.exception("review failed")
        llm.show_message(ls, llm.redacted(f"auditex: the review failed: {error}", settings))
        return {}
    finally:
        cache.close()
        ls.status("idle", findings=ls.shown_count())
    markdown = llm.redacted(result.markdown, settings)
    if result.stopped:  # the review is shown, and its gap told once, as a warning
        llm.show_message(ls, llm.redacted(f"auditex: the review is incomplete: {result.stopped}", settings), lsp.MessageType.Warning)
        return {"markdown": markdown}
    return {"markdown": markdown, "message": llm.redacted(f"auditex: review of {project.root_file}: {result.stats.summary()}.", settings)}


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


def register(server: AuditexServer) -> None:
    for name, handler in (
        (CHECK_PROJECT, check_project),
        (AUDIT, audit),
        (SHOW_REPORT, show_report),
        (REVIEW, review),
        (DISMISS_COMMAND, dismiss),
    ):
        server.command(name)(handler)
