"""`--llm-batch`: after the checks, the LLM audit of every checked submission through a provider batch.

The workers check the submissions (deterministic, and online with --online); this phase
then reopens each checked submission not yet audited, in the main process, and runs
its audit with calls that go out as provider batches (`llm_batch`). Only submissions
whose check ended within the limits get here, and their reopening is held to the same
limits: the extraction limits, and the time limit (past it, the audit is given up and
the record says so). At most `open_submissions` are open at once, so memory stays
bounded by that many of the papers the workers checked within their memory limit. Each
audited record is saved at once: an interruption loses only the audits in flight, and
their batches are collected, not sent again, on the re-run.

Costs are priced at the batch rate: half the interactive price of the model.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from ..analyzers.finding import Finding
from ..analyzers.llm.answer_cache import LLMCache
from ..analyzers.llm.errors import LLMError
from ..analyzers.llm.pricing import Price
from ..analyzers.llm.provider import make_provider
from ..analyzers.llm.settings import LLMSettings
from ..analyzers.online_verification import ONLINE_SLOT
from ..analyzers.projects import InputError
from .llm_batch import STATE_FILE, BatchCollector, BatchProvider, BatchState, backend_for
from .results import ResultStore
from .task import TaskSpec, audit_session, opened_submission

if TYPE_CHECKING:
    from ..analyzers.session import Session

BATCH_PRICE_FACTOR = 0.5
# A batch may take its whole 24 h window; a call waits that long, and then some, before giving up.
BATCH_CALL_LIMIT_S = 26 * 3600.0
# Calls waiting for one round at once: every audit in flight may have all its units waiting.
BATCH_CONCURRENCY = 100_000


def batch_settings(settings: LLMSettings) -> LLMSettings:
    """The settings for batched calls: batch prices, no streaming, room to wait for the batch."""
    prices = dict(settings.prices)
    price = settings.price()
    if price is not None:
        prices[settings.model] = Price.model_validate(
            {name: None if rate is None else rate * BATCH_PRICE_FACTOR for name, rate in price.model_dump().items()}
        )
    return settings.model_copy(
        update={"prices": prices, "stream": False, "concurrency": BATCH_CONCURRENCY, "overall_time_limit_s": BATCH_CALL_LIMIT_S}
    )


class LLMBatchPhase:
    def __init__(
        self,
        mode: str,
        llm: dict[str, Any],
        *,
        no_cache: bool = False,
        poll_s: float = 30.0,
        settle_s: float = 2.0,
        open_submissions: int = 32,
        env: dict[str, str] | None = None,
    ) -> None:
        """Raises LLMError (a missing key) or ValueError (a bad setting) before any work starts."""
        self.mode = mode
        self.settings = batch_settings(LLMSettings.from_env(env, **llm).for_mode(mode))
        self.settings.key_for_sdk()
        self.no_cache = no_cache
        self.poll_s = poll_s
        self.settle_s = settle_s
        self.open_submissions = open_submissions
        self.collector: BatchCollector | None = None

    def __call__(self, store: ResultStore, specs: dict[str, tuple[TaskSpec, str]]) -> None:
        asyncio.run(self.audit(store, specs))

    async def audit(self, store: ResultStore, specs: dict[str, tuple[TaskSpec, str]]) -> None:
        todo = [
            (spec, key, record)
            for spec, key in specs.values()
            if (record := store.load(key)) is not None and record["status"] == "ok" and "run" not in record
        ]
        if not todo:
            return
        provider = make_provider(self.settings)
        self.collector = collector = BatchCollector(
            backend_for(provider, self.settings),
            BatchState(store.out / STATE_FILE, self.settings.provider),
            poll_s=self.poll_s,
            settle_s=self.settle_s,
        )
        batched = BatchProvider(collector, self.settings)
        cache = None if self.no_cache else LLMCache()
        slots = asyncio.Semaphore(self.open_submissions)
        sender = asyncio.create_task(collector.serve())

        async def one(spec: TaskSpec, key: str, record: dict[str, Any]) -> None:
            async with slots:
                store.save(key, await self._audited(spec, record, batched, cache))

        try:
            await asyncio.gather(*(one(*item) for item in todo))
        finally:
            sender.cancel()
            await provider.aclose()
            if cache is not None:
                cache.close()

    async def _audited(self, spec: TaskSpec, record: dict[str, Any], provider: BatchProvider, cache: LLMCache | None) -> dict[str, Any]:
        """The record with the audit's findings and account, or failed with the reason."""
        from ..analyzers.reports.json_contract import json_contract

        started = time.monotonic()
        opened = opened_submission(spec)
        # Parsing a paper takes a while: off the loop, so the collector keeps polling meanwhile.
        opening = asyncio.ensure_future(asyncio.to_thread(opened.__enter__))
        try:
            # The worker checked it within the limit; a reopening past it is abandoned (a thread cannot be
            # stopped), and its extracted copy removed once it ends.
            session = await asyncio.wait_for(asyncio.shield(opening), spec.limits.time_s)
            try:
                # The record's findings that the rules do not report again are its online verification's.
                checked = {finding.fingerprint for finding in session.findings}
                recorded = [Finding.model_validate(raw) for raw in record["findings"]]
                session.keep_findings(ONLINE_SLOT, [finding for finding in recorded if finding.fingerprint not in checked])
                run = await audit_session(session, self.settings, self.mode, cache, provider)
                findings = session.findings  # while the submission is still extracted
            finally:
                await asyncio.to_thread(opened.__exit__, None, None, None)
        except TimeoutError:

            def close_when_opened(done: asyncio.Future[Session]) -> None:
                if not done.cancelled() and done.exception() is None:
                    opened.__exit__(None, None, None)

            opening.add_done_callback(close_when_opened)
            reason = f"LLM audit: reopening the submission took longer than the time limit of {spec.limits.time_s:g} s"
            updated = {**record, "status": "timed_out", "reason": reason}  # the check's findings stay
        except (InputError, LLMError, ValueError) as error:
            updated = {**record, "status": "failed", "reason": f"LLM audit: {error}"}
        else:
            extra = {name: record[name] for name in ("references",) if name in record}
            updated = {**record, **json_contract(findings, record["root"], {**extra, "run": run})}
        updated["timings"] = {**record["timings"], "audit_s": round(time.monotonic() - started, 3)}
        return updated
