"""The LLM audit as a source of findings: the one place an audit is built and run.

Every front end (the CLI's `audit`, the editor's `auditex.audit`, batch, the review, `auditex
bench`, the benchmarks) hands an `LLMAuditSource` to `Session.run`. It reads the rules' slot:
the spans the SEC rules flag are never sent, and rule candidates with `Evidence` are verified.
Its findings follow the author's edits (kept on their sections); its last report carries the
verifier's verdicts on rule findings (confirmed ones shown at the verifier's severity, rejected
ones refuted) and the run's `AuditResult` as its account.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from ..finding import Finding, Source
from ..finding_source import RULES_SLOT, FindingSource, SourceReport, SourceRun
from .answer_cache import LLMCache
from .audit import AuditResult, run_audit
from .audit_modes import MODES, Mode
from .config_section import severity_policy
from .provider import Provider
from .settings import LLMSettings

if TYPE_CHECKING:
    from ..session import Session

LLM_SLOT = "llm"


class LLMAuditSource(FindingSource):
    slot = LLM_SLOT
    reads = (RULES_SLOT,)
    follows_edits = True

    def __init__(
        self,
        settings: LLMSettings,
        mode: str,
        *,
        cache: LLMCache | None = None,
        provider: Provider | None = None,
        refresh: bool = False,
        critical_k: int = 5,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown audit mode {mode!r}; use one of {', '.join(MODES)}")
        self.settings = settings
        self.mode: Mode = mode
        self.cache = cache
        self.provider = provider
        self.refresh = refresh
        self.critical_k = critical_k

    async def run(self, run: SourceRun) -> AsyncIterator[SourceReport]:
        """Partial reports as units add findings, then the run's last report."""
        root = run.snapshot.root
        arrived: asyncio.Queue[list[Finding]] = asyncio.Queue()
        audit = asyncio.ensure_future(
            run_audit(
                run.project,
                self.settings,
                self.mode,
                cache=self.cache,
                on_progress=run.progress,
                on_findings=arrived.put_nowait,
                cancel=run.cancel,
                deterministic=run.read[RULES_SLOT],
                policy=severity_policy(run.config.llm),
                finding_policy=run.policy,
                refresh=self.refresh,
                critical_k=self.critical_k,
                provider=self.provider,
            )
        )
        try:
            while not audit.done():
                waiting = asyncio.ensure_future(arrived.get())
                await asyncio.wait([audit, waiting], return_when=asyncio.FIRST_COMPLETED)
                if waiting.done():
                    yield SourceReport(root, waiting.result(), final=False, complete=False)
                else:
                    waiting.cancel()
            result = audit.result()
        finally:
            if not audit.done():  # the caller stopped listening: the audit stops too
                audit.cancel()
        yield SourceReport(
            root,
            result.llm_findings,
            refuted={finding.with_fingerprint().fingerprint for finding in result.rejected_rules},
            shown=[finding for finding in result.findings if finding.source is not Source.LLM],
            complete=not result.cancelled and not result.failed_units,
            account=result,
        )


async def audit_results(session: Session, source: LLMAuditSource, **run_options: Any) -> AsyncIterator[AuditResult]:
    """Each project's audit result as it finishes (`Session.run` keeps the findings in the session);
    `run_options` as `Session.run`'s."""
    async for report in session.run(source, **run_options):
        if report.final:
            yield report.account


async def audit_result(session: Session, source: LLMAuditSource, **run_options: Any) -> AuditResult:
    """The audit result of the first project run (`snapshots` in `run_options` names it)."""
    return await anext(audit_results(session, source, **run_options))
