"""The LLM audit's calls through the providers' batch APIs, behind the ordinary `Provider` door.

Many audits run at once in one event loop, each through its own `LLMClient` (cache,
retries, budget, cost) whose provider is a `BatchProvider`: a call waits in the
`BatchCollector` instead of going out. When no new call has arrived for `settle_s`,
every waiting call goes out as one provider batch, through the real SDKs:
- OpenAI: the requests as a JSONL file (`POST /v1/files`, purpose "batch"), then
  `POST /v1/batches`; polled with `GET /v1/batches/{id}`; answers read from the
  output and error files (`GET /v1/files/{id}/content`);
- Anthropic: `POST /v1/messages/batches`, polled with `GET /v1/messages/batches/{id}`,
  answers read from its `results_url`.
A call's custom id is its cache key, so answers land in the same cache as interactive
ones and a call asked twice in a round is sent once. The calls an answer leads to (a
section review after the section memories, a repair after bad JSON) make the next round.

Every batch is written to a state file (`results/llm_batches.json`) with the ids it
holds before it is polled. After an interruption, the re-run replays the audits: the
rounds already answered come from the cache, and the calls of a round in flight are
found in the state file and collected from that batch rather than sent again.
"""

from __future__ import annotations

import asyncio
import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, cast

from ..analyzers.llm.client import cache_key
from ..analyzers.llm.errors import BadResponse, LLMError, ServerFailed
from ..analyzers.llm.provider import ChatRequest, ChatResponse
from ..analyzers.llm.settings import LLMSettings
from .results import write_atomically

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
    from openai import AsyncOpenAI

    from ..analyzers.llm.provider import AnthropicProvider, OpenAIProvider

log = logging.getLogger(__name__)

STATE_FILE = "llm_batches.json"
COMPLETION_WINDOW: Final = "24h"
_CHAT_PATH: Final = "/v1/chat/completions"
_OPENAI_ENDED = ("completed", "failed", "expired", "cancelled")

Answer = ChatResponse | LLMError
_Waiting = dict[str, tuple[ChatRequest, list[asyncio.Future[ChatResponse]]]]  # cache key → (the request, the calls waiting for it)


class BatchBackend(ABC):
    """One provider's batch API, through the SDK client of the interactive provider."""

    def __init__(self, provider: OpenAIProvider | AnthropicProvider) -> None:
        self.provider = provider
        self.client = provider.sdk_client
        self.call = provider.guarded

    @abstractmethod
    async def submit(self, requests: dict[str, ChatRequest]) -> str:
        """Send the requests (custom id → request) as one batch; returns its id."""

    @abstractmethod
    async def ended(self, batch_id: str) -> bool: ...

    @abstractmethod
    async def answers(self, batch_id: str) -> dict[str, Answer]:
        """The answer, or the error, of every request the ended batch reports on."""


class OpenAIBatches(BatchBackend):
    client: AsyncOpenAI

    async def submit(self, requests: dict[str, ChatRequest]) -> str:
        lines = "".join(
            json.dumps({"custom_id": key, "method": "POST", "url": _CHAT_PATH, "body": self.provider.request_body(request)}) + "\n"
            for key, request in requests.items()
        )
        upload = await self.call(self.client.files.create(file=("auditex-batch.jsonl", lines.encode()), purpose="batch"))
        batch = await self.call(
            self.client.batches.create(input_file_id=upload.id, endpoint=_CHAT_PATH, completion_window=COMPLETION_WINDOW)
        )
        return batch.id

    async def ended(self, batch_id: str) -> bool:
        return (await self.call(self.client.batches.retrieve(batch_id))).status in _OPENAI_ENDED

    async def answers(self, batch_id: str) -> dict[str, Answer]:
        from openai.types.chat import ChatCompletion

        batch = await self.call(self.client.batches.retrieve(batch_id))
        answers: dict[str, Answer] = {}
        for file_id in (batch.output_file_id, batch.error_file_id):
            if not file_id:
                continue
            content = await self.call(self.client.files.content(file_id))
            for line in content.text.splitlines():
                if not line.strip():
                    continue
                try:
                    entry = json.loads(line)
                    response = entry.get("response") or {}
                    if response.get("status_code") == 200:
                        answers[entry["custom_id"]] = self.provider.answer_of(ChatCompletion.model_validate(response["body"]))
                    else:
                        error = (entry.get("error") or {}).get("message") or (response.get("body") or {}).get("error", {}).get("message")
                        answers[entry["custom_id"]] = item_error(response.get("status_code"), error or "no answer")
                except (ValueError, KeyError, AttributeError) as problem:  # the request then counts as unanswered
                    log.warning("Skipping an unreadable line of batch %s: %s", batch_id, problem)
        return answers


class AnthropicBatches(BatchBackend):
    client: AsyncAnthropic

    async def submit(self, requests: dict[str, ChatRequest]) -> str:
        batch = await self.call(
            self.client.messages.batches.create(
                requests=[
                    {"custom_id": key, "params": cast("MessageCreateParamsNonStreaming", self.provider.request_body(request))}
                    for key, request in requests.items()
                ]
            )
        )
        return batch.id

    async def ended(self, batch_id: str) -> bool:
        return (await self.call(self.client.messages.batches.retrieve(batch_id))).processing_status == "ended"

    async def answers(self, batch_id: str) -> dict[str, Answer]:
        answers: dict[str, Answer] = {}
        results = await self.call(self.client.messages.batches.results(batch_id))
        async for entry in results:
            result = entry.result
            if result.type == "succeeded":
                answers[entry.custom_id] = self.provider.answer_of(result.message)
            elif result.type == "errored":
                error = result.error.error
                answers[entry.custom_id] = item_error(500 if error.type in ("api_error", "overloaded_error") else 400, error.message)
            else:  # canceled or expired: worth asking again
                answers[entry.custom_id] = ServerFailed(f"The batch request was {result.type}.")
        return answers


def item_error(status: int | None, message: str) -> LLMError:
    """A failed request in a batch: a server-side failure is retried (in the next round), a bad request is not."""
    if status is None or status == 429 or status >= 500:
        return ServerFailed(f"The batch request failed ({status or 'no status'}): {message}")
    return BadResponse(f"The batch request was refused ({status}): {message}")


def backend_for(provider: OpenAIProvider | AnthropicProvider, settings: LLMSettings) -> BatchBackend:
    return AnthropicBatches(provider) if settings.provider == "anthropic" else OpenAIBatches(provider)


class BatchState:
    """The batches sent, with the custom ids each holds, kept on disk across interruptions."""

    def __init__(self, path: Path, provider: str) -> None:
        self.path = path
        self.provider = provider
        self.fetched: set[str] = set()  # batches whose answers this process has read: never collected twice
        try:
            self.batches: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["batches"]
        except (OSError, ValueError, KeyError):
            self.batches = []

    def add(self, batch_id: str, keys: list[str]) -> None:
        self.batches.append({"id": batch_id, "provider": self.provider, "keys": keys})
        write_atomically(self.path, json.dumps({"batches": self.batches}, indent=1))

    def in_flight(self, keys: set[str]) -> dict[str, set[str]]:
        """Batches sent before (by an interrupted run) holding some of `keys`: batch id → the keys it holds."""
        found: dict[str, set[str]] = {}
        for batch in self.batches:
            if batch["provider"] != self.provider or batch["id"] in self.fetched:
                continue
            held = keys.intersection(batch["keys"]) - set().union(*found.values())
            if held:
                found[batch["id"]] = held
        return found


class BatchCollector:
    """Gathers waiting calls into rounds; one provider batch per round (plus those resumed)."""

    def __init__(self, backend: BatchBackend, state: BatchState, *, poll_s: float, settle_s: float) -> None:
        self.backend = backend
        self.state = state
        self.poll_s = poll_s
        self.settle_s = settle_s
        self.submitted: list[str] = []
        self.resumed: list[str] = []
        self._waiting: dict[str, tuple[ChatRequest, list[asyncio.Future[ChatResponse]]]] = {}
        self._arrived = asyncio.Event()

    async def complete(self, request: ChatRequest, key: str) -> ChatResponse:
        future: asyncio.Future[ChatResponse] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, (request, []))[1].append(future)
        self._arrived.set()
        return await future

    async def serve(self) -> None:
        """Send rounds until cancelled."""
        while True:
            await self._arrived.wait()
            while True:  # the audits are still adding calls: wait until they have all asked
                self._arrived.clear()
                try:
                    await asyncio.wait_for(self._arrived.wait(), self.settle_s)
                except TimeoutError:
                    break
            waiting, self._waiting = self._waiting, {}
            try:
                await self._round(waiting)
            except Exception as error:  # a bug or an unreadable answer must fail these calls, not strand them
                log.exception("A batch round failed")
                _settle(waiting, waiting, {}, BadResponse(f"The batch could not be sent or read ({type(error).__name__}: {error})."))

    async def _round(self, waiting: _Waiting) -> None:
        keys = set(waiting)
        resumed = self.state.in_flight(keys)
        fresh = sorted(keys - set().union(*resumed.values()))
        self.resumed += resumed
        jobs = [self._collect(batch_id, held, waiting) for batch_id, held in resumed.items()]
        if fresh:
            jobs.append(self._send(fresh, waiting))
        await asyncio.gather(*jobs)

    async def _send(self, keys: list[str], waiting: _Waiting) -> None:
        try:
            batch_id = await self.backend.submit({key: waiting[key][0] for key in keys})
        except LLMError as error:
            _settle(keys, waiting, {}, error)
            return
        self.state.add(batch_id, keys)
        self.submitted.append(batch_id)
        log.info("Sent %d LLM calls as batch %s.", len(keys), batch_id)
        await self._collect(batch_id, set(keys), waiting)

    async def _collect(self, batch_id: str, keys: set[str], waiting: _Waiting) -> None:
        try:
            while not await self._ended(batch_id):
                await asyncio.sleep(self.poll_s)
            answers = await self.backend.answers(batch_id)
        except LLMError as error:
            _settle(keys, waiting, {}, error)
            return
        self.state.fetched.add(batch_id)
        _settle(keys, waiting, answers, ServerFailed(f"Batch {batch_id} ended without an answer to this request."))

    async def _ended(self, batch_id: str) -> bool:
        """Whether the batch has ended; a poll that fails for a passing reason counts as not yet."""
        try:
            return await self.backend.ended(batch_id)
        except LLMError as error:
            if not error.retryable:
                raise
            log.warning("Polling batch %s failed (%s); trying again.", batch_id, error)
            return False


def _settle(keys: Iterable[str], waiting: _Waiting, answers: dict[str, Answer], missing: LLMError) -> None:
    """Hand each waiting call its answer; identical calls after the first get it as a cache hit (paid once)."""
    for key in keys:
        answer = answers.get(key, missing)
        for number, future in enumerate(waiting[key][1]):
            if future.done():
                continue
            if isinstance(answer, LLMError):
                future.set_exception(answer)
            else:
                future.set_result(answer if number == 0 else answer.model_copy(update={"cached": True}))


class BatchProvider:
    """A `Provider` whose calls wait for the collector's next batch."""

    sends_together = True  # LLMClient then sends calls sharing a prompt prefix at once, not the first alone

    def __init__(self, collector: BatchCollector, settings: LLMSettings) -> None:
        self.collector = collector
        self.settings = settings

    async def complete(self, req: ChatRequest) -> ChatResponse:
        return await self.collector.complete(req, cache_key(self.settings, req))

    async def aclose(self) -> None:
        """The SDK client belongs to the phase, which closes it once every audit is done."""
