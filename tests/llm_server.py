"""A loopback LLM server that the real `openai` and `anthropic` SDKs talk to in tests.

It speaks OpenAI `POST /v1/chat/completions` and Anthropic `POST /v1/messages`, plain
and streamed (SSE), on 127.0.0.1 with a free port, and records every request.

What it answers, in order: the scripted `Reply`s queued with `script(...)`, then
`responder(request_body) -> str | Reply` (default: `{"findings": []}`, and verdicts that
confirm every candidate of a verification prompt, `verifier_answer`). Faults are
replies too: `Reply.rate_limited(retry_after="1")`, `Reply.server_error()`,
`Reply.hang()`, `Reply.status(401, "...")`, `Reply.broken_body()`, and invalid or
truncated JSON as plain text (`Reply('{"findings": [', truncated=True)`).

Use the `llm_server` fixture, then `llm_server.settings("openai" | "anthropic", **overrides)`;
benchmarks use `with LoopbackLLMServer(latency_s=0.2) as server: ...` directly.

Usage counts one token per four characters of the prompt text, and reports prompt
caching the way each provider does (`OpenAIPromptCache`, `AnthropicPromptCache`). A
prompt is looked up when its request arrives and is cached once its answer begins, as
with the real services, so calls sent together do not hit each other's prefix.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import MappingProxyType
from typing import Any, ClassVar

import pytest

from auditex.analyzers.llm.settings import LLMSettings

LOOPBACK_KEY = "loopback-key"


@dataclass(frozen=True)
class Reply:
    text: str = ""
    http_status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    error_message: str = ""
    hangs: bool = False  # never answer, until the server stops
    raw_body: str | None = None  # sent verbatim with HTTP 200, for broken wire data
    truncated: bool = False  # report finish_reason "length" / stop_reason "max_tokens"
    input_tokens: int | None = None  # default: about chars / 4 of the request
    output_tokens: int | None = None  # default: about chars / 4 of the text
    # Of input_tokens; with input_tokens given they default to 0, else to what the prompt cache holds.
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None

    @classmethod
    def rate_limited(cls, retry_after: str | None = None) -> Reply:
        headers = {"Retry-After": retry_after} if retry_after is not None else {}
        return cls(http_status=429, headers=headers, error_message="Rate limit reached, slow down.")

    @classmethod
    def server_error(cls, code: int = 500) -> Reply:
        return cls(http_status=code, error_message="The server had an error while processing your request.")

    @classmethod
    def status(cls, code: int, message: str) -> Reply:
        return cls(http_status=code, error_message=message)

    @classmethod
    def hang(cls) -> Reply:
        return cls(hangs=True)

    @classmethod
    def broken_body(cls) -> Reply:
        return cls(raw_body="<html>this is not JSON")


@dataclass(frozen=True)
class RecordedRequest:
    path: str
    headers: dict[str, str]  # lower-case names
    body: dict[str, Any]

    @property
    def streamed(self) -> bool:
        return bool(self.body.get("stream"))

    @property
    def prompt_text(self) -> str:
        """System prompt and every message, joined: what the model was shown."""
        return "\n".join(self.prompt_parts)

    @property
    def prompt_parts(self) -> list[str]:
        """The system prompt, then each message's text."""
        return [_content_text(content) for content in _contents(self.body)]

    @property
    def model(self) -> str:
        return self.body.get("model", "loopback-model")


Responder = Callable[[dict[str, Any]], "str | Reply"]


class _BurstServer(ThreadingHTTPServer):
    # The default listen backlog of 5 makes a burst of 8 concurrent calls wait
    # for SYN retries, which would distort concurrency benchmarks.
    request_queue_size = 64
    daemon_threads = True


@dataclass(frozen=True)
class TokenUsage:
    input: int  # the whole prompt, cached parts included
    output: int
    cache_read: int = 0
    cache_write: int = 0


def _prefix_tokens(chars: int) -> int:
    return chars // 4


class PromptCache(ABC):
    """A provider's prompt cache: what a prompt reads from it and writes to it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    @abstractmethod
    def lookup(self, request: RecordedRequest) -> tuple[int, int]:
        """(tokens read, tokens written) for this prompt, as the provider would count them."""

    @abstractmethod
    def remember(self, request: RecordedRequest) -> None:
        """The prompt's answer has begun: its prefixes are cached from now on."""

    @abstractmethod
    def clear(self) -> None: ...


class OpenAIPromptCache(PromptCache):
    """Automatic caching: the longest prefix shared with an earlier prompt to the same model,
    counted from 1024 tokens on, in steps of 128 tokens; no writes are billed. The structured
    output schema (and any tools) is the start of that prefix, as OpenAI documents: prompts
    with two schemas share nothing."""

    MIN_TOKENS = 1024
    STEP = 128

    def __init__(self) -> None:
        super().__init__()
        self._prompts: dict[str, list[str]] = {}  # model -> earlier prompts, sorted

    @staticmethod
    def ahead(body: dict[str, Any]) -> str:
        """What the cached prefix holds before the system message."""
        schema = {key: body[key] for key in ("response_format", "tools") if key in body}
        return json.dumps(schema, sort_keys=True) + "\x1f"

    def lookup(self, request: RecordedRequest) -> tuple[int, int]:
        ahead = self.ahead(request.body)
        prompt = ahead + request.prompt_text
        with self._lock:
            seen = self._prompts.get(request.model, [])
            at = bisect.bisect_left(seen, prompt)
            # The longest common prefix with any sorted string is with a neighbour.
            shared = max((_common_prefix(prompt, seen[i]) for i in (at - 1, at) if 0 <= i < len(seen)), default=0)
        tokens = _prefix_tokens(shared - len(ahead)) if shared > len(ahead) else 0
        return (tokens // self.STEP * self.STEP if tokens >= self.MIN_TOKENS else 0), 0

    def remember(self, request: RecordedRequest) -> None:
        with self._lock:
            bisect.insort(self._prompts.setdefault(request.model, []), self.ahead(request.body) + request.prompt_text)

    def clear(self) -> None:
        with self._lock:
            self._prompts.clear()


class AnthropicPromptCache(PromptCache):
    """Caching at `cache_control` breakpoints only (system blocks, then message blocks, in order).

    The longest breakpoint prefix already cached is read; the prefixes up to the later
    breakpoints are written. A prefix shorter than the model's minimum (`MIN_TOKENS`, else
    1024; `min_tokens` sets one for every model) is neither read nor written. More than four
    breakpoints is a request error. As Anthropic documents, the prefix runs tools, system, messages:
    other tools read nothing, and another `tool_choice` or thinking setting reads no breakpoint
    inside the messages.
    """

    MAX_BREAKPOINTS = 4
    # Anthropic's minimum cacheable prefix where it is not 1024 tokens (its prompt caching docs).
    MIN_TOKENS: ClassVar[Mapping[str, int]] = MappingProxyType({"claude-haiku-4-5": 4096, "claude-opus-4-5": 4096, "claude-opus-4-6": 4096})

    def __init__(self, min_tokens: int | None = None) -> None:
        super().__init__()
        self.min_tokens = min_tokens
        self._prefixes: set[str] = set()

    @staticmethod
    def breakpoints(body: dict[str, Any]) -> list[int]:
        """Where each marked block ends, as offsets into `RecordedRequest.prompt_text`."""
        ends: list[int] = []
        position = 0
        for number, content in enumerate(_contents(body)):
            position += number > 0  # the newline joining the parts
            for block in content if isinstance(content, list) else [{"text": content or ""}]:
                position += len(block.get("text", ""))
                if block.get("cache_control"):
                    ends.append(position)
        return ends

    def _keys(self, request: RecordedRequest) -> list[tuple[int, str]]:
        prompt, body = request.prompt_text, request.body
        least = self.min_tokens or self.MIN_TOKENS.get(request.model, 1024)
        system_end = len(_content_text(body["system"])) if body.get("system") is not None else 0
        tools = json.dumps(body.get("tools"), sort_keys=True)
        settings = json.dumps([body.get("tool_choice"), body.get("thinking")], sort_keys=True)
        return [
            (_prefix_tokens(end), hashlib.sha256(f"{request.model}\x1f{tools}\x1f{in_messages}\x1f{prompt[:end]}".encode()).hexdigest())
            for end in self.breakpoints(body)
            if _prefix_tokens(end) >= least
            for in_messages in [settings if end > system_end else ""]
        ]

    def lookup(self, request: RecordedRequest) -> tuple[int, int]:
        keys = self._keys(request)
        with self._lock:
            read = next((tokens for tokens, key in reversed(keys) if key in self._prefixes), 0)
        written = keys[-1][0] - read if keys else 0
        return read, written

    def remember(self, request: RecordedRequest) -> None:
        keys = self._keys(request)
        with self._lock:
            self._prefixes.update(key for _, key in keys)

    def clear(self) -> None:
        with self._lock:
            self._prefixes.clear()


def _common_prefix(a: str, b: str) -> int:
    low, high = 0, min(len(a), len(b))
    while low < high:  # the longest length where the prefixes agree, by halving
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


class LoopbackLLMServer:
    def __init__(self, latency_s: float = 0.0, anthropic_min_cache_tokens: int | None = None) -> None:
        self.latency_s = latency_s
        self.prompt_caches: dict[str, PromptCache] = {
            "/v1/chat/completions": OpenAIPromptCache(),
            "/v1/messages": AnthropicPromptCache(anthropic_min_cache_tokens),
        }
        self.responder: Responder = lambda body: verifier_answer(body) or '{"findings": []}'
        self._script: deque[Reply] = deque()
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._in_flight = 0
        self.max_in_flight = 0
        self._stopping = threading.Event()
        self._httpd = _BurstServer(("127.0.0.1", 0), _make_handler(self))
        self._httpd.daemon_threads = True
        # A short poll interval keeps stop() (and so every fixture teardown) fast.
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, name="loopback-llm", daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def base_url_openai(self) -> str:
        return f"{self.base_url}/v1"

    @property
    def base_url_anthropic(self) -> str:
        return self.base_url

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def request_count(self) -> int:
        with self._lock:
            return len(self._requests)

    def clear_prompt_caches(self) -> None:
        for cache in self.prompt_caches.values():
            cache.clear()

    def script(self, *replies: str | Reply) -> None:
        """Queue answers for the next requests, in order; plain strings are answer texts."""
        with self._lock:
            self._script.extend(r if isinstance(r, Reply) else Reply(r) for r in replies)

    def settings(self, provider: str = "openai", **overrides: Any) -> LLMSettings:
        """Settings that point at this server, with test-sized timeouts and backoff."""
        fields: dict[str, Any] = {
            "provider": provider,
            "model": "loopback-model",
            "base_url": self.base_url_openai if provider == "openai" else self.base_url_anthropic,
            "timeout_s": 5.0,
            "max_retries": 2,
            "retry_base_s": 0.01,
            "overall_time_limit_s": 20.0,
        }
        env = {"AUDITEX_API_KEY": overrides.pop("api_key", LOOPBACK_KEY)}
        return LLMSettings.from_env(env=env, **{**fields, **overrides})

    def start(self) -> LoopbackLLMServer:
        self._thread.start()
        return self

    def __enter__(self) -> LoopbackLLMServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def stop(self) -> None:
        self._stopping.set()  # releases hanging handlers
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    # Called from handler threads.

    def _next_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            self._requests.append(request)
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
            scripted = self._script.popleft() if self._script else None
        if scripted is not None:
            return scripted
        answer = self.responder(request.body)
        return answer if isinstance(answer, Reply) else Reply(answer)

    def _done(self) -> None:
        with self._lock:
            self._in_flight -= 1


def verifier_answer(body: dict[str, Any], valid: bool = True, severity: str = "major") -> str | None:
    """For a verification prompt, verdicts on every candidate it lists; None for any other prompt."""
    parts = [_content_text(content) for content in _contents(body)]
    # The task is the system prompt, or (the whole paper in view) the text after the paper.
    task = parts[0] + "\n".join(parts[1:]).rsplit("</paper>", 1)[-1]
    if "true problem or a false alarm" not in task:
        return None
    listing = "\n".join(parts[1:]).rsplit("<candidates>\n", 1)[1].split("\n</candidates>", 1)[0]
    numbers = [json.loads(line)["number"] for line in listing.splitlines() if line.strip()]
    return json.dumps({"verdicts": [{"number": n, "valid": valid, "severity": severity, "settled_by_manuscript": True} for n in numbers]})


def _contents(body: dict[str, Any]) -> list[Any]:
    """The prompt's parts in order: Anthropic's system field, then the messages (OpenAI's system is one)."""
    system = [body["system"]] if body.get("system") is not None else []
    return system + [m.get("content") for m in body.get("messages", [])]


def _content_text(content: Any) -> str:
    if isinstance(content, list):  # content blocks
        return "".join(block.get("text", "") for block in content if isinstance(block, dict))
    return content or ""


def _tokens(text: str) -> int:
    return len(text) // 4 + 1


def _usage(request: RecordedRequest, reply: Reply, cached: tuple[int, int]) -> TokenUsage:
    output = reply.output_tokens if reply.output_tokens is not None else _tokens(reply.text)
    if reply.input_tokens is not None:  # scripted counts
        return TokenUsage(reply.input_tokens, output, reply.cache_read_tokens or 0, reply.cache_write_tokens or 0)
    read, written = cached
    return TokenUsage(
        _tokens(request.prompt_text),
        output,
        read if reply.cache_read_tokens is None else reply.cache_read_tokens,
        written if reply.cache_write_tokens is None else reply.cache_write_tokens,
    )


def _make_handler(server: LoopbackLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except json.JSONDecodeError:
                body = {}
            path = self.path.split("?")[0]
            request = RecordedRequest(path, {k.lower(): v for k, v in self.headers.items()}, body)
            wire = _WIRES.get(path)
            if wire is None:
                self._send_json(404, {"error": {"message": f"no route {path}", "type": "not_found"}})
                return
            reply = server._next_reply(request)
            try:
                self._answer(wire, request, reply)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout or cancellation): fine
            finally:
                server._done()

        def _answer(self, wire: _Wire, request: RecordedRequest, reply: Reply) -> None:
            if reply.hangs:
                server._stopping.wait()
                return
            invalid = wire.invalid(request)
            if invalid:
                self._send_json(400, wire.error(Reply.status(400, invalid)))
                return
            prompt_cache = server.prompt_caches[request.path]
            cached = prompt_cache.lookup(request)  # on arrival: a prefix answered meanwhile is not read
            if server.latency_s:
                time.sleep(server.latency_s)
            if reply.raw_body is not None:
                self._send(200, reply.raw_body.encode(), "application/json")
                return
            if reply.http_status != 200:
                self._send_json(reply.http_status, wire.error(reply), reply.headers)
                return
            usage = _usage(request, reply, cached)
            prompt_cache.remember(request)
            model = request.model
            if not request.streamed:
                self._send_json(200, wire.plain(reply, model, usage, request.body))
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            for event in wire.events(reply, model, usage, request.body):
                self.wfile.write(event.encode())
                self.wfile.flush()
            self.close_connection = True

        def _send_json(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
            self._send(status, json.dumps(payload).encode(), "application/json", headers)

        def _send(self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _chunks(text: str, size: int = 7) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


class _Wire(ABC):
    """One wire protocol: plain body, SSE events and error body for a reply."""

    def invalid(self, request: RecordedRequest) -> str:
        """Why the service would refuse the request with HTTP 400; empty when it would not."""
        return ""

    @abstractmethod
    def plain(self, reply: Reply, model: str, usage: TokenUsage, body: dict[str, Any] | None = None) -> dict[str, Any]: ...

    @abstractmethod
    def events(self, reply: Reply, model: str, usage: TokenUsage, body: dict[str, Any]) -> Iterator[str]: ...

    @abstractmethod
    def error(self, reply: Reply) -> dict[str, Any]: ...


class _OpenAIWire(_Wire):
    def plain(self, reply: Reply, model: str, usage: TokenUsage, body: dict[str, Any] | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-loopback",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.text},
                    "finish_reason": "length" if reply.truncated else "stop",
                }
            ],
            "usage": {
                "prompt_tokens": usage.input,
                "completion_tokens": usage.output,
                "total_tokens": usage.input + usage.output,
                "prompt_tokens_details": {"cached_tokens": usage.cache_read, "audio_tokens": 0},
            },
        }

    def events(self, reply: Reply, model: str, usage: TokenUsage, body: dict[str, Any]) -> Iterator[str]:
        base = {"id": "chatcmpl-loopback", "object": "chat.completion.chunk", "created": int(time.time()), "model": model}

        def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
            return f"data: {json.dumps({**base, 'choices': [{'index': 0, 'delta': delta, 'finish_reason': finish}]})}\n\n"

        yield chunk({"role": "assistant", "content": ""})
        for piece in _chunks(reply.text):
            yield chunk({"content": piece})
        yield chunk({}, "length" if reply.truncated else "stop")
        if (body.get("stream_options") or {}).get("include_usage"):
            final = {**base, "choices": [], "usage": self.plain(reply, model, usage)["usage"]}
            yield f"data: {json.dumps(final)}\n\n"
        yield "data: [DONE]\n\n"

    def error(self, reply: Reply) -> dict[str, Any]:
        kind = "rate_limit_exceeded" if reply.http_status == 429 else "server_error"
        return {"error": {"message": reply.error_message, "type": kind, "param": None, "code": kind}}


class _AnthropicWire(_Wire):
    def invalid(self, request: RecordedRequest) -> str:
        marked = len(AnthropicPromptCache.breakpoints(request.body))
        if marked > AnthropicPromptCache.MAX_BREAKPOINTS:
            return f"A maximum of {AnthropicPromptCache.MAX_BREAKPOINTS} blocks with cache_control may be provided. Found {marked}."
        return ""

    @staticmethod
    def _usage(usage: TokenUsage, output: int) -> dict[str, int]:
        """The Messages API counts cache reads and writes apart from input_tokens."""
        return {
            "input_tokens": usage.input - usage.cache_read - usage.cache_write,
            "cache_creation_input_tokens": usage.cache_write,
            "cache_read_input_tokens": usage.cache_read,
            "output_tokens": output,
        }

    @staticmethod
    def tool_input(reply: Reply, body: dict[str, Any] | None) -> tuple[str, dict[str, Any]] | None:
        """(tool name, input) when the request offers an answer tool and the reply is its JSON: a list goes
        into the schema's one array property, as a model filling the schema would put it."""
        tools = (body or {}).get("tools")
        if not tools or reply.truncated:
            return None
        try:
            value = json.loads(reply.text)
        except json.JSONDecodeError:
            return None
        if isinstance(value, list):
            properties = tools[0]["input_schema"].get("properties", {})
            arrays = [name for name, spec in properties.items() if "array" in spec.get("type", ())]
            # Of several lists, the one whose items have the keys the list's first item has.
            keys = set(value[0]) if value and isinstance(value[0], dict) else set()
            arrays = (
                [name for name in arrays if keys <= set(properties[name]["items"].get("properties", {}))] if len(arrays) > 1 else arrays
            )
            value = {arrays[0]: value} if len(arrays) == 1 else None
        return (tools[0]["name"], value) if isinstance(value, dict) else None

    def plain(self, reply: Reply, model: str, usage: TokenUsage, body: dict[str, Any] | None = None) -> dict[str, Any]:
        tool = self.tool_input(reply, body)
        content = (
            [{"type": "tool_use", "id": "toolu_loopback", "name": tool[0], "input": tool[1]}]
            if tool
            else [{"type": "text", "text": reply.text}]
        )
        return {
            "id": "msg_loopback",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": "max_tokens" if reply.truncated else "tool_use" if tool else "end_turn",
            "stop_sequence": None,
            "usage": self._usage(usage, usage.output),
        }

    def events(self, reply: Reply, model: str, usage: TokenUsage, body: dict[str, Any]) -> Iterator[str]:
        def event(kind: str, data: dict[str, Any]) -> str:
            return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n"

        start = {**self.plain(reply, model, usage), "content": [], "stop_reason": None}
        start["usage"] = self._usage(usage, 1)
        yield event("message_start", {"message": start})
        tool = self.tool_input(reply, body)
        if tool is None:
            yield event("content_block_start", {"index": 0, "content_block": {"type": "text", "text": ""}})
            deltas = [{"type": "text_delta", "text": piece} for piece in _chunks(reply.text)]
        else:
            block = {"type": "tool_use", "id": "toolu_loopback", "name": tool[0], "input": {}}
            yield event("content_block_start", {"index": 0, "content_block": block})
            deltas = [{"type": "input_json_delta", "partial_json": piece} for piece in _chunks(json.dumps(tool[1]))]
        yield event("ping", {})
        for delta in deltas:
            yield event("content_block_delta", {"index": 0, "delta": delta})
        yield event("content_block_stop", {"index": 0})
        stop = "max_tokens" if reply.truncated else "tool_use" if tool else "end_turn"
        yield event("message_delta", {"delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": usage.output}})
        yield event("message_stop", {})

    def error(self, reply: Reply) -> dict[str, Any]:
        kind = {400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error", 429: "rate_limit_error"}.get(
            reply.http_status, "api_error"
        )
        return {"type": "error", "error": {"type": kind, "message": reply.error_message}}


_WIRES: dict[str, _Wire] = {"/v1/chat/completions": _OpenAIWire(), "/v1/messages": _AnthropicWire()}


@pytest.fixture
def llm_server() -> Iterator[LoopbackLLMServer]:
    with LoopbackLLMServer() as server:
        yield server
