"""`LLMClient`: the one door from auditex to an LLM.

Per call, in order: cache lookup, the wait for the provider's prompt cache (below), a
slot of the concurrency bound, the budget check (before anything is sent), then attempts
with exponential backoff and jitter on retryable failures (429, 5xx, timeouts, connection
errors other than a refused connection), honouring Retry-After, all inside `overall_time_limit_s`. Usage and cost of
every answer go into `stats`. Errors are never cached. Cancellation propagates untouched.

A provider's prompt cache holds a prefix only once a call that sent it has been
answered; calls sent alongside it pay full price. So the first call with a given
cacheable prefix (system prompt and shared part) goes alone, and the others sharing that
prefix wait for its answer before they are sent.

An answer cut off at the output limit is never taken as complete: it is asked again once with
twice the budget (counted in `RunStats.cut_off_retries`), and a second cut-off fails the call.

`complete_json` adds parsing and validation with exactly one repair round-trip.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import re
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

from pydantic import BaseModel, Field, ValidationError

from ...latex.deferred_pattern import DeferredPattern
from .answer_cache import LLMCache
from .errors import BadResponse, BudgetExceeded, LLMError, Timeout
from .pricing import Usage, cost_of
from .provider import ChatRequest, ChatResponse, Message, Provider, make_provider
from .settings import LLMSettings

log = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

_BACKOFF_CAP_S = 60.0
# No provider caches a shorter prefix (OpenAI: 1024 tokens; Anthropic: 1024 to 4096 by model).
MIN_CACHEABLE_PREFIX_TOKENS = 1024
_FENCE = DeferredPattern(r"```(?:json|JSON)?\s*\n(.*?)(?:\n```|$)", re.DOTALL)
REPAIR_INSTRUCTION = (
    "Your previous answer could not be used: {problem}. "
    "Answer again with the complete JSON only: no prose, no code fences, nothing after the JSON."
)


class StageStats(BaseModel):
    """What one stage of an audit (memory, detect, plan, specialist, verify, merge) used."""

    calls: int = 0  # answers received from the server
    cache_hits: int = 0
    input_tokens: int = 0  # cached prompt tokens included
    cache_read_tokens: int = 0  # input tokens read from the provider's prompt cache
    cache_write_tokens: int = 0  # input tokens written to it
    output_tokens: int = 0  # reasoning tokens included
    cost_usd: float = 0.0
    unpriced_calls: int = 0  # answers of a model with no known price: counted as $0

    def add(self, usage: Usage, cost: float | None) -> None:
        """One answer's usage and cost (None: unpriced)."""
        self.calls += 1
        self.unpriced_calls += cost is None
        self.input_tokens += usage.input_tokens
        self.cache_read_tokens += usage.cache_read_tokens
        self.cache_write_tokens += usage.cache_write_tokens
        self.output_tokens += usage.output_tokens
        self.cost_usd += cost or 0.0

    @property
    def cost(self) -> str:
        """What the calls cost, or "unpriced" when no price is known for any of them."""
        if self.calls and self.unpriced_calls == self.calls:
            return "unpriced"
        return f"${self.cost_usd:.4f}" + (f" ({self.unpriced_calls} calls unpriced)" if self.unpriced_calls else "")

    def plus(self, other: StageStats) -> StageStats:
        return type(self).model_validate({name: getattr(self, name) + getattr(other, name) for name in StageStats.model_fields})


class RunStats(StageStats):
    retries: int = 0
    cut_off_retries: int = 0  # answers cut off at the output limit, asked again with a larger budget
    failures: int = 0  # complete()/complete_json() calls that ended in an LLMError
    wall_s: float = 0.0  # from the first call's start to the last call's end
    stages: dict[str, StageStats] = Field(default_factory=dict)

    def summary(self) -> str:
        cached = ""
        if self.cache_read_tokens or self.cache_write_tokens:
            cached = f" ({self.cache_read_tokens:,} read from and {self.cache_write_tokens:,} written to the provider's prompt cache)"
        cut = f", {self.cut_off_retries} cut off and asked again with a larger budget" if self.cut_off_retries else ""
        return (
            f"{self.calls} calls, {self.cache_hits} cache hits, {self.failures} failed{cut}, "
            f"{self.input_tokens:,} input{cached} + {self.output_tokens:,} output tokens, "
            f"{self.cost}, {self.wall_s:.1f} s"
        )

    def stage_summary(self) -> str:
        return "; ".join(
            f"{name} {stage.calls} calls, {stage.input_tokens:,} in ({stage.cache_read_tokens:,} cached) + "
            f"{stage.output_tokens:,} out, {stage.cost}"
            for name, stage in self.stages.items()
        )

    def count(self, usage: Usage, cost: float | None, stage: str) -> None:
        self.add(usage, cost)
        self.stages.setdefault(stage or "other", StageStats()).add(usage, cost)

    def hit(self, stage: str) -> None:
        self.cache_hits += 1
        self.stages.setdefault(stage or "other", StageStats()).cache_hits += 1

    def plus(self, other: StageStats) -> RunStats:
        total = RunStats.model_validate(
            {name: getattr(self, name) + getattr(other, name) for name in StageStats.model_fields}
            | {"stages": {name: stage.model_copy() for name, stage in self.stages.items()}}
        )
        if isinstance(other, RunStats):
            total.retries, total.failures = self.retries + other.retries, self.failures + other.failures
            total.cut_off_retries = self.cut_off_retries + other.cut_off_retries
            total.wall_s = max(self.wall_s, other.wall_s)
            for name, stage in other.stages.items():
                total.stages[name] = total.stages[name].plus(stage) if name in total.stages else stage.model_copy()
        return total


def cache_key(settings: LLMSettings, req: ChatRequest) -> str:
    """What determines the answer, and nothing else: never the API key, nor `purpose` or `stage`."""
    material: dict[str, Any] = {
        "provider": settings.provider,
        "model": settings.model,
        "endpoint": None if settings.is_official else settings.endpoint,
        "prompt_version": req.prompt_version,
        "system": req.system,
        "messages": [m.model_dump() for m in req.messages],
        "json_mode": req.json_mode,
        "output_schema": req.output_schema,
        "temperature": req.temperature,
        "max_output_tokens": req.max_output_tokens,
    }
    if req.shared:  # only then: requests without one keep the keys they always had
        material["shared"] = req.shared
    if settings.reasoning_effort or settings.thinking_budget:
        material["reasoning"] = [settings.reasoning_effort, settings.thinking_budget]
    return hashlib.sha256(json.dumps(material, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def extract_json(text: str) -> Any:
    """The JSON value in an answer, tolerating ```json fences and prose around it.

    Raises ValueError naming what is wrong, in words fit to send back to the model.
    """
    stripped = text.strip()
    if not stripped:
        raise ValueError("the answer was empty")
    candidates = [stripped, *(m.group(1).strip() for m in _FENCE.finditer(text))]
    first_error: json.JSONDecodeError | None = None
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except json.JSONDecodeError as err:
            first_error = first_error or err
    start = min((i for i in (stripped.find("{"), stripped.find("[")) if i >= 0), default=-1)
    if start >= 0:
        try:
            return json.JSONDecoder().raw_decode(stripped[start:])[0]
        except json.JSONDecodeError as err:
            first_error = err
    assert first_error is not None  # the stripped text was tried first
    raise ValueError(f"the answer is not valid JSON ({first_error.msg} at line {first_error.lineno} column {first_error.colno})")


class LLMClient:
    """Use as `async with LLMClient(settings, cache) as llm: await llm.complete(req)`."""

    def __init__(self, settings: LLMSettings, cache: LLMCache | None = None, provider: Provider | None = None) -> None:
        """`provider`: the wire to use instead of the settings' SDK (`auditex batch --llm-batch` passes one)."""
        self.settings = settings if settings.model else settings.for_mode("standard")
        self._cache = cache
        self._provider: Provider | None = provider
        self._slots = asyncio.Semaphore(settings.concurrency)
        self._stats = RunStats()
        self._reserved_usd = 0.0  # worst-case cost of calls in flight
        self._prefix_sent: dict[str, asyncio.Event] = {}  # prefix digest -> set once its first call is answered
        self._first_start: float | None = None
        if settings.budget_usd is not None and self.settings.price() is None:
            log.warning("No price known for model %s: its calls count as $0 and --budget cannot stop them.", self.settings.model)

    @property
    def stats(self) -> RunStats:
        """A snapshot; counters keep running in the client."""
        return self._stats.model_copy(deep=True)

    async def __aenter__(self) -> LLMClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._provider is not None:
            await self._provider.aclose()
            self._provider = None

    async def complete(self, req: ChatRequest) -> ChatResponse:
        response, key = await self._tracked(self._whole_answer(req))
        self._store(key, response)
        return response

    async def complete_json(self, req: ChatRequest, model_cls: type[M]) -> M:
        """The answer parsed into `model_cls`, after at most one repair round-trip.

        Raises BadResponse when the repaired answer is still unusable; callers report
        the unit as failed. Answers are cached only once they validated, so a failed
        unit is asked afresh on the next run.
        """
        return await self._tracked(self._json_answer(req.model_copy(update={"json_mode": True}), model_cls))

    async def _whole_answer(self, req: ChatRequest) -> tuple[ChatResponse, str]:
        """The answer; one cut off at the output limit is asked again once with twice the budget."""
        response, key = await self._answer(req)
        if not response.truncated:
            return response, key
        budget = 2 * (req.max_output_tokens or self.settings.output_budget)
        log.warning("%s was cut off at the output limit: asking again with %d tokens.", req.purpose or "An LLM answer", budget)
        self._stats.cut_off_retries += 1
        larger = req.model_copy(update={"max_output_tokens": budget})
        response, key = await self._answer(larger)
        if response.truncated:
            raise BadResponse(self._cut_off(larger))
        return response, key

    async def _json_answer(self, req: ChatRequest, model_cls: type[M]) -> M:
        first, first_key = await self._whole_answer(req)
        try:
            value = _parse(first, model_cls)
        except ValueError as problem:
            log.info("Asking again for valid JSON (%s): %s", req.purpose or "LLM call", problem)
            repair = req.model_copy(
                update={
                    "messages": [
                        *req.messages,
                        Message(role="assistant", content=first.text or "(empty answer)"),
                        Message(role="user", content=REPAIR_INSTRUCTION.format(problem=problem)),
                    ]
                }
            )
            second, second_key = await self._whole_answer(repair)
            try:
                value = _parse(second, model_cls)
            except ValueError as still:
                what = f" for {req.purpose}" if req.purpose else ""
                raise BadResponse(f"The LLM answer{what} was unusable even after one repair attempt: {still}.") from None
            self._store(second_key, second)
        self._store(first_key, first)
        return value

    async def _tracked(self, work: Awaitable[T]) -> T:
        """Run one logical call, keeping wall time and counting failures."""
        now = time.monotonic()
        self._first_start = self._first_start or now
        try:
            return await work
        except LLMError:
            self._stats.failures += 1
            raise
        finally:
            self._stats.wall_s = time.monotonic() - self._first_start

    def _store(self, key: str, response: ChatResponse) -> None:
        if self._cache is not None and not response.cached:
            self._cache.put(key, response)

    async def _answer(self, req: ChatRequest) -> tuple[ChatResponse, str]:
        """The answer from the cache or the server (not yet stored), and its cache key."""
        s = self.settings
        req = req.model_copy(
            update={
                "max_output_tokens": req.max_output_tokens or s.output_budget,
                "temperature": s.temperature if req.temperature is None else req.temperature,
            }
        )
        key = cache_key(s, req)
        cached = self._cache.get(key) if self._cache is not None else None
        if cached is not None:
            self._stats.hit(req.stage)
            return cached.model_copy(update={"cached": True, "cost_usd": 0.0}), key
        first_of_prefix = await self._await_cached_prefix(req)
        try:
            async with self._slots:
                # Worst case: no part of the prompt comes from the provider's cache.
                assert req.max_output_tokens is not None  # the copy above sets it
                estimate = cost_of(
                    Usage(input_tokens=req.estimated_input_tokens(), output_tokens=req.max_output_tokens), s.model, s.prices, s.list_prices
                )
                self._reserve(estimate)
                try:
                    response = await self._with_retries(req)
                finally:
                    self._reserved_usd -= estimate
        finally:
            if first_of_prefix is not None:
                first_of_prefix.set()
        if response.cached:  # a provider batch answered an identical call of another audit: paid there
            self._stats.hit(req.stage)
            return response.model_copy(update={"cost_usd": 0.0}), key
        price = s.price()
        cost = None if price is None else price.input_cost(response.usage) + price.output_cost(response.usage)
        self._stats.count(response.usage, cost, req.stage)
        log.debug(
            "%s: %d input (%d cached) + %d output tokens, $%.5f",
            req.purpose or "LLM call",
            response.usage.input_tokens,
            response.usage.cache_read_tokens,
            response.usage.output_tokens,
            cost or 0.0,
        )
        return response.model_copy(update={"cost_usd": cost or 0.0}), key

    async def _await_cached_prefix(self, req: ChatRequest) -> asyncio.Event | None:
        """Wait while another call sends this prefix first; the first call gets the event to set."""
        # A provider batch sends all waiting calls at once: holding some back would cost them a whole round.
        if (
            not req.cache_prefix
            or req.estimated_prefix_tokens() < MIN_CACHEABLE_PREFIX_TOKENS
            or getattr(self._provider, "sends_together", False)
        ):
            return None
        digest = req.prefix_digest()
        sent = self._prefix_sent.get(digest)
        if sent is None:
            self._prefix_sent[digest] = asyncio.Event()
            return self._prefix_sent[digest]
        await sent.wait()
        return None

    def _reserve(self, estimate: float) -> None:
        budget = self.settings.budget_usd
        committed = self._stats.cost_usd + self._reserved_usd
        if budget is not None and committed + estimate > budget:
            raise BudgetExceeded(
                f"Stopped before exceeding the budget of ${budget:.2f}: ${committed:.4f} is spent or committed "
                f"and the next call could cost up to ${estimate:.4f}."
            )
        self._reserved_usd += estimate

    async def _with_retries(self, req: ChatRequest) -> ChatResponse:
        s = self.settings
        loop = asyncio.get_running_loop()
        deadline = loop.time() + s.overall_time_limit_s
        attempt = 0
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    return await self._get_provider().complete(req)
            except TimeoutError:
                raise Timeout(self._out_of_time(req)) from None
            except LLMError as err:
                delay = max(_backoff(s.retry_base_s, attempt), err.retry_after_s or 0.0)
                if not err.retryable or attempt >= s.max_retries or loop.time() + delay >= deadline:
                    raise
                log.warning("%s Retrying %s in %.1f s.", err, req.purpose or "the LLM call", delay)
                self._stats.retries += 1
                attempt += 1
                await asyncio.sleep(delay)

    def _cut_off(self, req: ChatRequest) -> str:
        s = self.settings
        what = f" for {req.purpose}" if req.purpose else ""
        return (
            f"The LLM answer{what} was cut off at the output limit of {req.max_output_tokens or s.output_budget:,} tokens "
            f"(reasoning included); raise max_output_tokens or lower reasoning_effort / thinking_budget."
        )

    def _out_of_time(self, req: ChatRequest) -> str:
        what = req.purpose or "the LLM call"
        return f"Gave up on {what} after the overall time limit of {self.settings.overall_time_limit_s:g} s."

    def _get_provider(self) -> Provider:
        # Built on first need, so a fully cached run works without a key or a server.
        if self._provider is None:
            self._provider = make_provider(self.settings)
        return self._provider


def _backoff(base_s: float, attempt: int) -> float:
    """Exponential with full jitter in [50%, 100%]: spreads retries of parallel calls."""
    return min(_BACKOFF_CAP_S, base_s * 2.0**attempt) * random.uniform(0.5, 1.0)


def _parse(response: ChatResponse, model_cls: type[M]) -> M:
    """Raises ValueError saying what is wrong with the answer."""
    data = extract_json(response.text)
    try:
        return model_cls.model_validate(data)
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'top level'}: {e['msg']}" for e in err.errors()[:5])
        raise ValueError(f"the JSON does not match the expected schema ({problems})") from None
