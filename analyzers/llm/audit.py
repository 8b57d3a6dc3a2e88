"""`run_audit`: the LLM audit of one project, shared by `auditex audit` and the server.

A run: the deterministic findings (always included, and passed to every prompt as
"already known"), then the mode's units (see `modes`), each an LLM call through
one `LLMClient` (cache, concurrency bound, retries, budget). Answers become
anchored `Finding`s (`anchoring`). A unit that fails (bad JSON after the repair
attempt, a timeout, a 5xx after retries, the budget) is reported in
`failed_units` and the run goes on. Only errors no unit can survive (missing
key, rejected key, unreachable server) end the run, raised as `LLMError` whose
text is one sentence for the user.

LLM findings that repeat a deterministic one (same category and overlapping
range) are dropped and counted. Every candidate then goes through the verification stage
(`verification`); rule findings with `Evidence` go too, and the result's report shows a
confirmed one at the verifier's severity and leaves out a rejected one (`rejected_rules`).
When the SEC rules flagged hidden text or instructions to AI reviewers, that text was not
sent, and the summary says the input was manipulated.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass, field

from ...latex.project import Project
from ..finding import Finding, Source
from ..policy import Policy
from . import modes
from .anchoring import AnchorStats, SeverityPolicy
from .answer_cache import LLMCache
from .audit_modes import MODES, Mode
from .client import LLMClient, RunStats
from .incremental import ReviewBasis
from .provider import Provider
from .run import AuditRun, FindingsCallback, ProgressCallback, UnitFailure
from .schema import LLMFinding
from .settings import LLMSettings
from .units import MANIPULATION_CODES
from .verifier import Verification, settle


@dataclass
class AuditResult:
    mode: Mode
    findings: list[Finding]  # deterministic + LLM through the findings policy, in report order
    llm_findings: list[Finding]  # as anchored, before the policy (the editor applies it as the text changes)
    stats: RunStats
    by_model: dict[str, RunStats] = field(default_factory=dict)  # "provider/model" -> what that model's calls used
    failed_units: list[UnitFailure] = field(default_factory=list)
    units: int = 0  # LLM units attempted (cached ones included)
    unanchored: int = 0  # LLM findings kept at section level
    unsupported: list[LLMFinding] = field(default_factory=list)  # dropped: their quotes are not in the paper
    repeated: int = 0  # dropped: a deterministic finding says the same
    verification: Verification = field(default_factory=Verification)
    rejected_rules: list[Finding] = field(default_factory=list)  # rule candidates the verifier rejected: not in `findings`
    confirmed_rules: int = 0  # rule candidates shown at the verifier's severity
    manipulated: int = 0  # SEC findings: spans of hidden text or instructions to AI reviewers, never sent
    anchoring: AnchorStats = field(default_factory=AnchorStats)
    cancelled: bool = False
    budget_stop: str | None = None  # the budget message, when the budget stopped units
    fallback: str | None = None  # why the paper was not in every call (the memory design was used)

    def summary(self) -> str:
        parts = [f"{self.mode} audit: {len(self.llm_findings)} LLM findings ({self.unanchored} unanchored)"]
        if self.fallback:
            parts.append(self.fallback)
        if self.manipulated:
            parts.append(f"input manipulated: {self.manipulated} hidden or injected spans flagged by the SEC rules were not sent")
        checked = self.verification
        if checked.rejected or checked.over_cap or checked.unverified:
            parts.append(
                f"verifier rejected {checked.rejected}, {checked.over_cap} beyond the per-section and per-paper caps, "
                f"{checked.unverified} unverified (shown as hints)"
            )
        if self.confirmed_rules or self.rejected_rules:
            parts.append(f"rule candidates: {self.confirmed_rules} confirmed, {len(self.rejected_rules)} rejected and left out")
        if self.unsupported:
            parts.append(f"{len(self.unsupported)} unsupported dropped (quote not in the paper)")
        if self.repeated:
            parts.append(f"{self.repeated} repeating deterministic findings dropped")
        if self.failed_units:
            parts.append(f"{len(self.failed_units)} of {self.units} units failed")
        if self.cancelled:
            parts.append("cancelled")
        return "; ".join(parts) + ". " + self.stats.summary() + "."


async def run_audit(
    project: Project,
    settings: LLMSettings,
    mode: Mode,
    *,
    cache: LLMCache | None = None,
    on_progress: ProgressCallback | None = None,
    on_findings: FindingsCallback | None = None,
    cancel: asyncio.Event | None = None,
    deterministic: list[Finding],
    policy: SeverityPolicy | None = None,
    finding_policy: Policy | None = None,
    refresh: bool = False,
    critical_k: int = 5,
    provider: Provider | None = None,
) -> AuditResult:
    """Audit `project` with the LLM in `mode`; raises LLMError only for run-ending problems.

    `finding_policy`: what the result's findings go through (None: the project folder's config and dismissals).
    `deterministic`: the rule findings of `project` (the session's).
    `cancel`: set it to stop; the result then holds what finished, with `cancelled=True`.
    `on_findings` receives every LLM finding so far whenever a unit adds some.
    `provider`: where the calls go instead of the settings' SDK (a provider batch, say).
    """
    if mode not in MODES:
        raise ValueError(f"unknown audit mode {mode!r}; use one of {', '.join(MODES)}")
    finding_policy = finding_policy or Policy.of_folder(project.root.folder)
    deterministic = [f for f in deterministic if f.source is Source.RULE]
    basis = ReviewBasis(cache.directory if cache is not None else None)
    started = time.monotonic()
    detector_settings = settings.for_mode(mode)
    async with AsyncExitStack() as clients:
        client = await clients.enter_async_context(LLMClient(detector_settings, cache, provider))
        verifiers = [
            client if verifier == client.settings else await clients.enter_async_context(LLMClient(verifier, cache))
            for verifier in settings.verifiers(mode)
        ]
        run = AuditRun(project, client, verifiers, deterministic, basis, policy or SeverityPolicy(), refresh, on_progress, on_findings)
        work = asyncio.ensure_future(modes.run_mode(run, mode, critical_k=critical_k))
        try:
            cancelled = await _finished_or_cancelled(work, cancel)
        finally:
            basis.close()
        by_model = _stats_by_model([client, *verifiers])
    stats = RunStats()
    for counted in by_model.values():
        stats = stats.plus(counted)
    stats.wall_s = time.monotonic() - started
    verification = settle(run, finished_only=True) if cancelled else work.result()
    return _audit_result(project, run, mode, verification, finding_policy, stats, by_model, cancelled)


def _stats_by_model(clients: list[LLMClient]) -> dict[str, RunStats]:
    """What each "provider/model" used, a client shared by two roles counted once."""
    by_model: dict[str, RunStats] = {}
    for used in {id(client): client for client in clients}.values():
        name = f"{used.settings.provider}/{used.settings.model}"
        by_model[name] = by_model[name].plus(used.stats) if name in by_model else used.stats
    return by_model


async def _finished_or_cancelled(work: asyncio.Future[Verification], cancel: asyncio.Event | None) -> bool:
    """Wait for `work`, or for `cancel` to be set first; True when cancelled (the work is then cancelled too)."""
    cancelled = False
    waiter = asyncio.ensure_future(cancel.wait()) if cancel is not None else None
    try:
        await asyncio.wait([w for w in (work, waiter) if w is not None], return_when=asyncio.FIRST_COMPLETED)
        if not work.done():
            cancelled = True
            work.cancel()
        try:
            await work
        except asyncio.CancelledError:
            if not cancelled:
                raise
    finally:
        if waiter is not None:
            waiter.cancel()
        if not work.done():
            work.cancel()
    return cancelled


def _audit_result(
    project: Project,
    run: AuditRun,
    mode: Mode,
    verification: Verification,
    finding_policy: Policy,
    stats: RunStats,
    by_model: dict[str, RunStats],
    cancelled: bool,
) -> AuditResult:
    """What the audit reports once its run is over: the verified rule findings and the LLM's, through `finding_policy`."""
    run.publish(verification.shown)
    llm = run.llm_findings()
    deterministic = run.deterministic
    shown, rejected = _with_verdicts(deterministic, verification, run.mapper.policy)
    return AuditResult(
        mode=mode,
        findings=finding_policy.apply(project, shown + llm),
        llm_findings=llm,
        stats=stats,
        by_model=by_model,
        failed_units=run.failed,
        units=run.units,
        unanchored=sum(not f.anchored for f in llm),
        unsupported=run.unsupported,
        repeated=run.repeated,
        anchoring=run.mapper.anchorer.stats,
        cancelled=cancelled,
        budget_stop=run.budget_stop,
        fallback=run.fallback,
        verification=verification,
        rejected_rules=rejected,
        confirmed_rules=sum(f.verified for f in shown),
        manipulated=sum(f.code in MANIPULATION_CODES for f in deterministic),
    )


def _with_verdicts(deterministic: list[Finding], verification: Verification, policy: SeverityPolicy) -> tuple[list[Finding], list[Finding]]:
    """The rule findings as the audit reports them: (shown, rejected by the verifier)."""
    shown, rejected = [], []
    for finding in deterministic:
        verdict = verification.rules.get(finding.with_fingerprint().fingerprint)
        if verdict is None:
            shown.append(finding)
        elif not verdict.valid:
            rejected.append(finding)
        else:
            note = f"Confirmed by the LLM verifier ({verdict.severity.value}): {verdict.reason}".strip()
            # Confirmed is surer, never milder: a measured warning the verifier calls minor is still a warning.
            severity = max(policy.severity(finding.category, verdict, anchored=True), finding.severity, key=lambda s: s.rank)
            explanation = f"{finding.explanation or ''}\n\n{note}".strip()
            update: dict[str, object] = {"severity": severity, "verified": True, "explanation": explanation}
            if finding.evidence is not None:
                reason = f"{finding.evidence.reason} (verified by {verdict.judges})".strip() if verdict.judges else finding.evidence.reason
                update["evidence"] = finding.evidence.model_copy(update={"reason": reason})
            shown.append(finding.model_copy(update=update))
    return shown, rejected
