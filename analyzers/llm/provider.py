"""One chat call over the wire: the request/response models and the two SDK adapters.

A provider does exactly one attempt and raises only `LLMError`s; retries, caching,
budget and concurrency live in `client.LLMClient`. The SDKs are imported when a
provider is built, never at import time, so `auditex serve` starts fast and offline.
SDK-level retries are off (`max_retries=0`) so that ours are the only ones.

Prompt caching: a request is laid out as the system prompt, then `shared` (the part of
the first user turn that the run's other calls repeat byte for byte, such as the paper
memory), then the per-call text. OpenAI caches such a repeated prefix by itself; for
Anthropic the system prompt and `shared` each end in a `cache_control` breakpoint (two
of the four the Messages API allows) when a later call reads them (`cache_prefix`: a cache
write costs more than plain input). Both report the cached tokens in `Usage`.
"""

from __future__ import annotations

import hashlib
import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .errors import BadRequest, BadResponse, display_url, from_sdk_error
from .pricing import Usage

if TYPE_CHECKING:
    from types import ModuleType

    from .settings import LLMSettings

T = TypeVar("T")
log = logging.getLogger(__name__)

# Reasoning models reject any temperature but their default.
_NO_TEMPERATURE_PREFIXES = ("o1", "o3", "o4", "gpt-5")
# Ends the shared part of the first user turn, so both wire layouts show the model the same text.
SHARED_END = "\n\n"
_CACHE_BREAKPOINT = {"type": "ephemeral"}


class Message(BaseModel):
    model_config = ConfigDict(frozen=True)

    role: Literal["user", "assistant"]
    content: str


class ChatRequest(BaseModel):
    model_config = ConfigDict(frozen=True)

    system: str = ""
    shared: str = Field(default="", description="the start of the first user turn, repeated verbatim by other calls")
    messages: list[Message] = Field(min_length=1)
    json_mode: bool = False
    output_schema: dict[str, Any] | None = Field(default=None, description="the answer's JSON Schema, enforced where the API can")
    schema_name: str = Field(default="answer", description="names the schema (OpenAI) or the answer tool (Anthropic)")
    max_output_tokens: int | None = Field(default=None, ge=1, description="None = settings.max_output_tokens")
    temperature: float | None = Field(default=None, ge=0, le=2, description="None = settings.temperature")
    cache_prefix: bool = Field(default=True, description="mark the prefix for the provider's cache: a later call reads it")
    purpose: str = Field(default="", description="shown in logs and progress, not part of the cache key")
    stage: str = Field(default="", description="the audit stage it is counted under (RunStats.stages), not part of the cache key")
    prompt_version: str = Field(default="", description="part of the cache key")

    @model_validator(mode="after")
    def _shared_opens_a_user_turn(self) -> ChatRequest:
        if self.shared and self.messages[0].role != "user":
            raise ValueError("a shared prefix must lead a user turn")
        return self

    def estimated_input_tokens(self) -> int:
        """About four characters per token: good enough to stop a budget early."""
        chars = len(self.system) + len(self.shared) + sum(len(m.content) for m in self.messages)
        return chars // 4 + 1

    def estimated_prefix_tokens(self) -> int:
        return (len(self.system) + len(self.shared)) // 4

    def prefix_digest(self) -> str:
        """Names the cacheable prefix (system prompt and shared part)."""
        return hashlib.sha256(f"{self.system}\x1f{self.shared}".encode()).hexdigest()[:32]

    def text_messages(self) -> list[dict[str, str]]:
        """The messages as plain text, the shared part leading the first one."""
        messages = [m.model_dump() for m in self.messages]
        if self.shared:
            messages[0]["content"] = self.shared + SHARED_END + messages[0]["content"]
        return messages


class ChatResponse(BaseModel):
    text: str
    usage: Usage = Field(default_factory=Usage)
    model: str
    cached: bool = False
    cost_usd: float = 0.0
    truncated: bool = Field(default=False, description="the answer hit max_output_tokens")


class Provider(Protocol):
    async def complete(self, req: ChatRequest) -> ChatResponse:
        """One attempt; `req` has max_output_tokens set. Raises only LLMError."""
        ...

    async def aclose(self) -> None: ...


class _SDKProvider(ABC):
    """What both adapters share: settings, the SDK module, and error translation."""

    _client: Any  # the SDK's async client, made by each adapter

    def __init__(self, settings: LLMSettings, sdk: ModuleType) -> None:
        self._settings = settings
        self._sdk = sdk

    async def complete(self, req: ChatRequest) -> ChatResponse:
        return await self.guarded(self._streamed(req) if self._settings.stream else self._plain(req))

    async def guarded(self, work: Awaitable[T]) -> T:
        """Await a call of the SDK client, its errors translated into LLMErrors (also for batch calls)."""
        try:
            return await work
        # ValueError: a body that is not JSON, or not the expected shape.
        except (self._sdk.APIError, ValueError) as exc:
            s = self._settings
            # `from None`: SDK messages may echo part of the key (OpenAI does on HTTP 401).
            raise from_sdk_error(exc, self._sdk, self._where, s.key_env, s.secret) from None

    @property
    def sdk_client(self) -> Any:
        return self._client

    def request_body(self, req: ChatRequest) -> dict[str, Any]:
        """The request's JSON body as this API takes it (also one line of a provider batch)."""
        return self._params(req)

    @abstractmethod
    def _params(self, req: ChatRequest) -> dict[str, Any]: ...

    @property
    def _where(self) -> str:
        return display_url(self._settings.endpoint)

    @abstractmethod
    async def _plain(self, req: ChatRequest) -> ChatResponse: ...

    @abstractmethod
    async def _streamed(self, req: ChatRequest) -> ChatResponse: ...


# Structured output, strongest first: a compatible server that refuses one is asked with the next.
_FORMATS = ("json_schema", "json_object", None)


class OpenAIProvider(_SDKProvider):
    """Chat Completions, for OpenAI itself and every OpenAI-compatible server.

    A JSON answer is enforced with a strict `json_schema` response format. vLLM, llama.cpp and Ollama
    accept one too; a server that refuses it (HTTP 400) is asked with `json_object`, then with no
    format at all (the client's lenient parse), and keeps the level it accepted.
    """

    def __init__(self, settings: LLMSettings) -> None:
        import openai

        super().__init__(settings, openai)
        self._client = openai.AsyncOpenAI(
            api_key=settings.key_for_sdk(), base_url=settings.endpoint, timeout=settings.timeout_s, max_retries=0
        )
        self._format: str | None = None if settings.json_response_format is False else _FORMATS[0]

    async def aclose(self) -> None:
        await self._client.close()

    async def complete(self, req: ChatRequest) -> ChatResponse:
        while True:
            level = self._format
            try:
                return await super().complete(req)
            except BadRequest:
                if not req.json_mode or level is None or self._settings.is_official:
                    raise
                if self._format == level:  # calls in flight may have stepped down already
                    self._format = _FORMATS[_FORMATS.index(level) + 1]
                    log.info("%s refused response_format %s; asking with %s.", self._where, level, self._format or "none")

    def _params(self, req: ChatRequest) -> dict[str, Any]:
        s = self._settings
        messages = [{"role": "system", "content": req.system}] if req.system else []
        messages += req.text_messages()
        params: dict[str, Any] = {"model": s.model, "messages": messages}
        if s.is_official:
            # Routes calls with one prefix to the same cache; compatible servers may reject it.
            params["prompt_cache_key"] = req.prefix_digest()
        # Official OpenAI and reasoning models want max_completion_tokens, which counts reasoning
        # (reasoning models reject max_tokens); other models of compatible servers know only max_tokens.
        params["max_completion_tokens" if s.is_official or s.reasons else "max_tokens"] = req.max_output_tokens
        if s.reasoning_effort is not None:
            params["reasoning_effort"] = s.reasoning_effort
        elif req.temperature is not None and not s.model.startswith(_NO_TEMPERATURE_PREFIXES):
            params["temperature"] = req.temperature
        if req.json_mode and self._format == "json_schema" and req.output_schema is not None:
            params["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": req.schema_name, "strict": True, "schema": req.output_schema},
            }
        elif req.json_mode and self._format is not None:
            params["response_format"] = {"type": "json_object"}
        return params

    async def _plain(self, req: ChatRequest) -> ChatResponse:
        return self.answer_of(await self._client.chat.completions.create(**self._params(req)))

    def answer_of(self, reply: Any) -> ChatResponse:
        """A ChatCompletion (from a call or a batch's output file) as a ChatResponse."""
        if not reply.choices:
            raise BadResponse(f"The LLM server at {self._where} sent an answer without choices.")
        choice = reply.choices[0]
        return ChatResponse(
            text=choice.message.content or "",
            usage=_openai_usage(reply.usage),
            model=reply.model or self._settings.model,
            truncated=choice.finish_reason == "length",
        )

    async def _streamed(self, req: ChatRequest) -> ChatResponse:
        parts: list[str] = []
        usage, model, finish = Usage(), self._settings.model, None
        stream = await self._client.chat.completions.create(**self._params(req), stream=True, stream_options={"include_usage": True})
        async with stream:
            async for chunk in stream:
                model = chunk.model or model
                if chunk.usage:  # the final chunk, thanks to include_usage
                    usage = _openai_usage(chunk.usage)
                for choice in chunk.choices:
                    if choice.delta and choice.delta.content:
                        parts.append(choice.delta.content)
                    finish = choice.finish_reason or finish
        return ChatResponse(text="".join(parts), usage=usage, model=model, truncated=finish == "length")


class AnthropicProvider(_SDKProvider):
    """The Messages API. It takes no temperature in SDK 2.x, so none is sent."""

    def __init__(self, settings: LLMSettings) -> None:
        import anthropic

        super().__init__(settings, anthropic)
        # The SDK appends /v1/messages itself; accept a base URL given with /v1 too.
        base_url = settings.endpoint.removesuffix("/v1")
        self._client = anthropic.AsyncAnthropic(
            api_key=settings.key_for_sdk(), base_url=base_url, timeout=settings.timeout_s, max_retries=0
        )

    async def aclose(self) -> None:
        await self._client.close()

    def _params(self, req: ChatRequest) -> dict[str, Any]:
        """The prefix's blocks end in cache breakpoints (at most two, the API allows four) when a later call
        reads them: a write costs more than plain input."""
        messages: list[dict[str, Any]] = [m.model_dump() for m in req.messages]
        if req.shared:
            first = {"type": "text", "text": messages[0]["content"]}
            messages[0]["content"] = [_text(req.shared + SHARED_END, req.cache_prefix), first]
        params: dict[str, Any] = {"model": self._settings.model, "max_tokens": req.max_output_tokens, "messages": messages}
        thinking = self._settings.thinking_budget
        if thinking is not None:
            params["thinking"] = {"type": "enabled", "budget_tokens": thinking}
        if req.system:
            params["system"] = [_text(req.system, req.cache_prefix)]
        if req.json_mode and req.output_schema is not None:
            # The answer as the input of the one tool; extended thinking allows only tool_choice "auto".
            params["tools"] = [{"name": req.schema_name, "description": "Give your answer.", "input_schema": req.output_schema}]
            params["tool_choice"] = {"type": "auto"} if thinking is not None else {"type": "tool", "name": req.schema_name}
        return params

    async def _plain(self, req: ChatRequest) -> ChatResponse:
        return self.answer_of(await self._client.messages.create(**self._params(req)))

    def answer_of(self, reply: Any) -> ChatResponse:
        """A Message (from a call or a batch's results) as a ChatResponse."""
        tool = next((block for block in reply.content if block.type == "tool_use"), None)
        return ChatResponse(
            text=json.dumps(tool.input) if tool is not None else "".join(block.text for block in reply.content if block.type == "text"),
            usage=_anthropic_usage(reply.usage.model_dump()),
            model=reply.model or self._settings.model,
            truncated=reply.stop_reason == "max_tokens",
        )

    async def _streamed(self, req: ChatRequest) -> ChatResponse:
        parts: list[str] = []
        tool_input: list[str] = []  # the answer tool's input, as JSON pieces
        counts: dict[str, Any] = {}
        model, stop_reason = self._settings.model, None
        stream = await self._client.messages.create(**self._params(req), stream=True)
        async with stream:
            async for event in stream:
                if event.type == "message_start":
                    model = event.message.model or model
                    counts = event.message.usage.model_dump()
                elif event.type == "content_block_delta" and event.delta.type == "text_delta":
                    parts.append(event.delta.text)
                elif event.type == "content_block_delta" and event.delta.type == "input_json_delta":
                    tool_input.append(event.delta.partial_json)
                elif event.type == "message_delta":
                    # message_delta carries cumulative counts, the input ones only sometimes.
                    counts.update({key: value for key, value in event.usage.model_dump().items() if value is not None})
                    stop_reason = event.delta.stop_reason or stop_reason
        return ChatResponse(
            text="".join(tool_input) if tool_input else "".join(parts),
            usage=_anthropic_usage(counts),
            model=model,
            truncated=stop_reason == "max_tokens",
        )


def _text(text: str, cached: bool) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "text", "text": text}
    return {**block, "cache_control": _CACHE_BREAKPOINT} if cached else block


def _openai_usage(usage: Any) -> Usage:
    """Chat Completions counts cached tokens inside prompt_tokens."""
    if usage is None:
        return Usage()
    details = usage.prompt_tokens_details
    cached = (details.cached_tokens or 0) if details is not None else 0
    return Usage(input_tokens=usage.prompt_tokens, output_tokens=usage.completion_tokens, cache_read_tokens=cached)


def _anthropic_usage(counts: dict[str, Any]) -> Usage:
    """The Messages API counts cache reads and writes apart from input_tokens."""
    read = counts.get("cache_read_input_tokens") or 0
    written = counts.get("cache_creation_input_tokens") or 0
    return Usage(
        input_tokens=(counts.get("input_tokens") or 0) + read + written,
        output_tokens=counts.get("output_tokens") or 0,
        cache_read_tokens=read,
        cache_write_tokens=written,
    )


def make_provider(settings: LLMSettings) -> AnthropicProvider | OpenAIProvider:
    """Raises MissingKey when the vendor needs a key and the environment has none."""
    return AnthropicProvider(settings) if settings.provider == "anthropic" else OpenAIProvider(settings)
