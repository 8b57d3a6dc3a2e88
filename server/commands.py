"""workspace/executeCommand handlers. Each takes one argument object `{uri?, mode?}`
(vscode-client/contract.json) and answers `{markdown?, message?}`.

pygls resolves the annotations of command handlers at call time (typing.get_type_hints):
a handler's annotations name only what this module imports at run time (AuditexServer, Any);
the rest is imported for the type checker alone.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp
from pygls.uris import to_fs_path

from ..analyzers.llm.audit_modes import MODES
from ..analyzers.reports.markdown import to_markdown
from . import llm
from .actions import DISMISS_COMMAND
from .progress import WorkDone
from .server import AuditexServer

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..analyzers.finding_source import Progress, Snapshot
    from ..analyzers.llm.audit import AuditResult
    from ..analyzers.llm.source import LLMAuditSource
    from ..analyzers.session import Session

CHECK_PROJECT = "auditex.checkProject"
AUDIT = "auditex.audit"
SHOW_REPORT = "auditex.showReport"
REVIEW = "auditex.review"
log = logging.getLogger(__name__)


def _argument(arguments: tuple[Any, ...]) -> dict[str, Any]:
    return arguments[0] if arguments and isinstance(arguments[0], dict) else {}


def _uri_path(argument: dict[str, Any]) -> Path | None:
    uri = argument.get("uri")
    path = to_fs_path(uri) if isinstance(uri, str) else None
    return Path(path) if path else None


async def check_project(ls: AuditexServer, *arguments: Any) -> dict[str, str]:
    """Cold re-check: configs and projects re-read from disk (open files keep the editor's text)."""
    await ls.ready.wait()
    ls.status("checking")
    workspace = ls.workspace_state
    sessions = list(workspace.folders.values())
    try:
        async with WorkDone(ls, "auditex: checking project") as progress:
            for session in sessions:
                await ls.run(session.reload_config)
                await ls.run(workspace.discover, session)
            steps = [(session, state) for session in sessions for state in session.opened()]
            for done, (session, state) in enumerate(steps):
                if progress.cancelled:
                    return {"message": "auditex: check cancelled."}
                progress.report(done, len(steps), state.project.root_file)
                await ls.run(session.check_one, state)
            progress.report(len(steps), len(steps), "publishing")
            ls.publish(await ls.run(ls.diagnostics))
    finally:
        ls.status("idle", findings=ls.published.count())
    total = ls.published.count()
    return {"message": f"auditex: {total} finding{'s' if total != 1 else ''} in {len(steps)} root file{'s' if len(steps) != 1 else ''}."}


async def _llm_target(
    ls: AuditexServer, arguments: tuple[Any, ...], verb: str, modes: Sequence[str]
) -> tuple[str, list[tuple[Session, str | None]]] | dict[str, str]:
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


async def audit(ls: AuditexServer, *arguments: Any) -> dict[str, str]:
    """The LLM audit of the folder holding `uri` (else of every folder), findings published as units finish."""
    target = await _llm_target(ls, arguments, "audit", MODES)
    if isinstance(target, dict):
        return target
    mode, folders = target
    if any(session.folder in ls.llm.running for session, _ in folders):
        return {"message": "auditex: an audit of this folder is already running."}
    from ..analyzers.llm.answer_cache import LLMCache
    from ..analyzers.llm.errors import LLMError, MissingKey
    from ..analyzers.llm.source import LLMAuditSource

    settings = None
    failed = False  # a failure is told once, as an error message, and not returned too
    results: list[AuditResult] = []
    running = {session.folder for session, _ in folders}
    ls.llm.running |= running
    ls.status("auditing", message=f"{mode} audit", costUsd=0.0)
    cache = LLMCache()
    try:
        async with WorkDone(ls, f"auditex: {mode} audit") as progress:
            for session, relative in folders:
                settings = llm.llm_settings(session.config.llm)
                source = LLMAuditSource(settings, mode, cache=cache)
                results += await _audit_folder(ls, session, await ls.run(session.snapshots, relative), source, progress)
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
    ls.status("idle", findings=ls.published.count(), message=message, costUsd=cost)
    if failed:
        llm.show_message(ls, message)
        return {}
    return {"message": message}


async def _audit_folder(
    ls: AuditexServer, session: Session, snapshots: list[Snapshot], source: LLMAuditSource, progress: WorkDone
) -> list[AuditResult]:
    """A folder's audit, each root read from a private copy of its snapshot. The session's slot grows as
    units finish, and is replaced by a root's run only when that run completed (a cancelled or failing
    run keeps the earlier findings)."""

    def on_progress(root: str) -> Progress:
        def report(done: int, total: int, label: str) -> None:
            progress.report(done, total, label or f"{source.mode} audit")
            ls.status("auditing", message=f"{source.mode} audit: {done}/{total} units")

        return report

    results: list[AuditResult] = []
    async for report in session.run(source, snapshots=snapshots, private=True, progress=on_progress, cancel=progress.cancel):
        if report.final:
            results.append(report.account)
        else:
            _publish_soon(ls)
    return results


def _publish_soon(ls: AuditexServer) -> None:
    """Publish partial results once the analysis thread is free; bursts of units make one publish."""
    if ls.llm.publishing is not None and not ls.llm.publishing.done():
        return

    async def publish() -> None:
        ls.publish(await ls.run(ls.diagnostics))

    ls.llm.publishing = asyncio.ensure_future(publish())


async def show_report(ls: AuditexServer, *arguments: Any) -> dict[str, str]:
    await ls.ready.wait()
    uri = _argument(arguments).get("uri")
    folder = ls.published.folder_of_uri.get(uri) if isinstance(uri, str) else None
    findings = ls.published.of_folder(folder)
    title = f"auditex report: {folder.name}" if folder is not None else "auditex report"
    return {"markdown": to_markdown(findings, title)}


async def review(ls: AuditexServer, *arguments: Any) -> dict[str, str]:
    """The error-aware review of the project holding `uri` (else the first), as Markdown."""
    target = await _llm_target(ls, arguments, "review", llm.REVIEW_MODES)
    if isinstance(target, dict):
        return target
    mode, folders = target
    session, relative = folders[0]
    snapshots = await ls.run(session.snapshots, relative)
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
        settings = llm.llm_settings(session.config.llm)
        settings.key_for_sdk()  # a missing key is told before the review starts, in the editor's words
        search = llm.related_work(session.config.llm, make_search)
        async with WorkDone(ls, "auditex: review") as progress:

            def on_progress(stage: str, done: int, total: int) -> None:
                progress.report(done, total, stage)
                ls.status("auditing", message=f"review: {stage}")

            result = await run_review(
                session,
                settings,
                mode,
                snapshot=snapshots[0],
                private=True,
                cache=cache,
                search=search,
                on_progress=on_progress,
                cancel=progress.cancel,
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
        ls.status("idle", findings=ls.published.count())
    markdown = llm.redacted(result.markdown, settings)
    if result.stopped:  # the review is shown, and its gap told once, as a warning
        llm.show_message(ls, llm.redacted(f"auditex: the review is incomplete: {result.stopped}", settings), lsp.MessageType.Warning)
        return {"markdown": markdown}
    return {"markdown": markdown, "message": llm.redacted(f"auditex: review of {snapshots[0].root}: {result.stats.summary()}.", settings)}


async def dismiss(ls: AuditexServer, *arguments: Any) -> dict[str, str]:
    argument = _argument(arguments)
    uri, fingerprint = argument.get("uri"), argument.get("fingerprint")
    finding = ls.published.with_fingerprint(uri, fingerprint) if isinstance(uri, str) else None
    folder = ls.published.folder_of_uri.get(uri) if isinstance(uri, str) else None
    session = ls.workspace_state.folders.get(folder) if finding is not None and folder is not None else None
    if finding is None or session is None:
        return {"message": "auditex: that finding is no longer reported; nothing was dismissed."}

    def dismiss_and_recheck() -> None:
        session.dismissals.dismiss(finding.fingerprint, finding.code, finding.file, finding.message)
        session.invalidate()

    await ls.run(dismiss_and_recheck)
    await ls.check_now()
    where = session.dismissals.path.relative_to(session.folder)
    return {"message": f"auditex: dismissed {finding.code} (undo by removing it from {where})."}


def register(server: AuditexServer) -> None:
    for name, handler in (
        (CHECK_PROJECT, check_project),
        (AUDIT, audit),
        (SHOW_REPORT, show_report),
        (REVIEW, review),
        (DISMISS_COMMAND, dismiss),
    ):
        server.command(name)(handler)
