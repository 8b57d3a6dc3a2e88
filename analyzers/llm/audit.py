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
range) are dropped and counted.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from pydantic import BaseModel

from ...latex.manuscript import Section
from ...latex.project import Project
from ..engine import Engine
from ..finding import Finding, Source
from ..policy import Policy, report_order
from .anchoring import Anchorer, AnchorStats, FindingMapper, SeverityPolicy
from .cache import LLMCache
from .client import LLMClient, RunStats
from .errors import BudgetExceeded, LLMError, MissingKey, Rejected, Unreachable
from .incremental import ReviewBasis
from .prompts import load
from .provider import ChatRequest, Message, Provider
from .schema import LLMFinding
from .settings import LLMSettings
from .units import Unit

log = logging.getLogger(__name__)

Mode = Literal["fast", "standard", "deep", "critical"]
MODES: tuple[Mode, ...] = ("fast", "standard", "deep", "critical")
M = TypeVar("M", bound=BaseModel)
A = TypeVar("A")
ProgressCallback = Callable[[int, int, str], None]  # (units done, units known, what just finished)
FindingsCallback = Callable[[list[Finding]], None]  # every LLM finding so far (replace, do not append)

# Errors that every unit would hit in turn: stop at the first instead.
_FATAL = (MissingKey, Rejected, Unreachable)


@dataclass
class UnitFailure:
    unit: str
    label: str
    message: str


@dataclass
class AuditResult:
    mode: Mode
    findings: list[Finding]  # deterministic + LLM through the findings policy, in report order
    llm_findings: list[Finding]  # as anchored, before the policy (the editor applies it as the text changes)
    stats: RunStats
    failed_units: list[UnitFailure] = field(default_factory=list)
    units: int = 0  # LLM units attempted (cached ones included)
    unanchored: int = 0  # LLM findings kept at section level
    unsupported: list[LLMFinding] = field(default_factory=list)  # dropped: their quotes are not in the paper
    repeated: int = 0  # dropped: a deterministic finding says the same
    anchoring: AnchorStats = field(default_factory=AnchorStats)
    cancelled: bool = False
    budget_stop: str | None = None  # the budget message, when the budget stopped units

    def summary(self) -> str:
        parts = [f"{self.mode} audit: {len(self.llm_findings)} LLM findings ({self.unanchored} unanchored)"]
        if self.unsupported:
            parts.append(f"{len(self.unsupported)} unsupported dropped (quote not in the paper)")
        if self.repeated:
            parts.append(f"{self.repeated} repeating deterministic findings dropped")
        if self.failed_units:
            parts.append(f"{len(self.failed_units)} of {self.units} units failed")
        if self.cancelled:
            parts.append("cancelled")
        return "; ".join(parts) + ". " + self.stats.summary() + "."


class AuditRun:
    """The state of one run, handed to the mode functions."""

    def __init__(self, project: Project, client: LLMClient, deterministic: list[Finding], basis: ReviewBasis,
                 policy: SeverityPolicy, refresh: bool, on_progress: ProgressCallback | None,
                 on_findings: FindingsCallback | None) -> None:
        self.project = project
        self.client = client
        self.deterministic = deterministic
        self.basis = basis
        self.refresh = refresh
        self.mapper = FindingMapper(project, policy, Anchorer(project))
        self.failed: list[UnitFailure] = []
        self.findings: dict[str, Finding] = {}
        self.unsupported: list[LLMFinding] = []
        self.repeated = 0
        self.units = 0
        self.done = 0
        self.budget_stop: str | None = None
        self._on_progress = on_progress
        self._on_findings = on_findings

    @property
    def settings(self) -> LLMSettings:
        return self.client.settings

    def request(self, unit: Unit, **values: str) -> ChatRequest:
        """The unit's call: system prompt, then what the mode's calls share, then the unit's own text."""
        prompt = load(unit.kind)
        system, shared, user = prompt.render(**values)
        return ChatRequest(system=system, shared=shared, messages=[Message(role="user", content=user)], purpose=unit.label,
                           prompt_version=prompt.version)

    def plan(self, count: int) -> None:
        """Announce `count` more units (for progress totals)."""
        self.units += count
        self._progress("")

    async def ask_json(self, unit: Unit, request: ChatRequest, model_cls: type[M]) -> M | None:
        return await self._ask(unit, self.client.complete_json(request, model_cls))

    async def ask_text(self, unit: Unit, request: ChatRequest) -> str | None:
        response = await self._ask(unit, self.client.complete(request))
        return None if response is None else response.text.strip()

    async def _ask(self, unit: Unit, call: Awaitable[A]) -> A | None:
        """The answer, or None after recording the unit as failed. Fatal errors propagate."""
        try:
            return await call
        except _FATAL:
            raise
        except BudgetExceeded as err:
            self.budget_stop = self.budget_stop or str(err)
            self.failed.append(UnitFailure(unit.id, unit.label, str(err)))
        except LLMError as err:
            log.warning("%s failed: %s", unit.label, err)
            self.failed.append(UnitFailure(unit.id, unit.label, str(err)))
        finally:
            self.done += 1
            self._progress(unit.label)
        return None

    async def publish(self, answers: list[LLMFinding], fallback: Section | None, code: str | None = None) -> list[Finding]:
        """Anchor, de-duplicate and keep the answers; tell the listener. Returns what was kept.

        Anchoring a long paper's quotes takes a while: it runs in a worker thread so calls in
        flight are not starved (and timed out) meanwhile.
        """
        kept = []
        located_all = await asyncio.to_thread(lambda: [self.mapper.locate(answer, fallback, code) for answer in answers])
        for answer, located in zip(answers, located_all):
            if located.finding is None:
                self.unsupported.append(answer)
                continue
            finding = located.finding
            if any(_repeats(finding, known) for known in self.deterministic):
                self.repeated += 1
                continue
            previous = self.findings.get(finding.fingerprint)
            if previous is None or previous.confidence < finding.confidence:
                self.findings[finding.fingerprint] = finding
            kept.append(finding)
        if self._on_findings is not None:
            self._on_findings(self.llm_findings())
        return kept

    def retract(self, findings: list[Finding]) -> None:
        """Forget findings that a later stage (adjudication) replaced."""
        for finding in findings:
            self.findings.pop(finding.fingerprint, None)

    def llm_findings(self) -> list[Finding]:
        return sorted(self.findings.values(), key=report_order)

    def _progress(self, label: str) -> None:
        if self._on_progress is not None:
            self._on_progress(self.done, self.units, label)


def _repeats(finding: Finding, known: Finding) -> bool:
    if known.file != finding.file or known.category is not finding.category:
        return False
    a, b = finding.range, known.range
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (b.start.line, b.start.character) <= (a.end.line, a.end.character)


async def run_audit(
    project: Project,
    settings: LLMSettings,
    mode: Mode,
    *,
    cache: LLMCache | None = None,
    on_progress: ProgressCallback | None = None,
    on_findings: FindingsCallback | None = None,
    cancel: asyncio.Event | None = None,
    deterministic: list[Finding] | None = None,
    policy: SeverityPolicy | None = None,
    finding_policy: Policy | None = None,
    refresh: bool = False,
    critical_k: int = 5,
    provider: Provider | None = None,
) -> AuditResult:
    """Audit `project` with the LLM in `mode`; raises LLMError only for run-ending problems.

    `finding_policy`: what the result's findings go through (None: the project folder's config and dismissals).
    `deterministic`: the rule findings (None: run the Engine under that policy).
    `cancel`: set it to stop; the result then holds what finished, with `cancelled=True`.
    `on_findings` receives every LLM finding so far whenever a unit adds some.
    `provider`: where the calls go instead of the settings' SDK (a provider batch, say).
    """
    from . import modes  # modes needs AuditRun from here

    if mode not in MODES:
        raise ValueError(f"unknown audit mode {mode!r}; use one of {', '.join(MODES)}")
    finding_policy = finding_policy or Policy.of_folder(project.root.folder)
    if deterministic is None:
        deterministic = Engine(config=finding_policy.config, dismissals=finding_policy.dismissals).check(project)
    deterministic = [f for f in deterministic if f.source is Source.RULE]
    basis = ReviewBasis(cache.directory if cache is not None else None)
    started = time.monotonic()
    cancelled = False
    async with LLMClient(settings, cache, provider) as client:
        run = AuditRun(project, client, deterministic, basis, policy or SeverityPolicy(), refresh, on_progress, on_findings)
        work = asyncio.ensure_future(modes.run_mode(run, mode, critical_k=critical_k))
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
            basis.close()
        stats = client.stats
    stats.wall_s = time.monotonic() - started
    llm = run.llm_findings()
    return AuditResult(
        mode=mode,
        findings=finding_policy.apply(project, deterministic + llm),
        llm_findings=llm,
        stats=stats,
        failed_units=run.failed,
        units=run.units,
        unanchored=sum(not f.anchored for f in llm),
        unsupported=run.unsupported,
        repeated=run.repeated,
        anchoring=run.mapper.anchorer.stats,
        cancelled=cancelled,
        budget_stop=run.budget_stop,
    )
