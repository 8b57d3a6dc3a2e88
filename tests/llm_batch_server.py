"""A loopback stand-in for the providers' batch APIs, driven through the real SDKs in tests.

OpenAI: `POST /v1/files` (multipart, purpose "batch"), `POST /v1/batches`,
`GET /v1/batches/{id}`, `GET /v1/files/{id}/content` (output and error files as JSONL).
Anthropic: `POST /v1/messages/batches`, `GET /v1/messages/batches/{id}`,
`GET /v1/messages/batches/{id}/results` (JSONL). Bodies have the real shapes; each line's
answer comes from `responder(request_body) -> str | Reply` (default `{"findings": []}`, and
verdicts confirming every candidate of a verification prompt),
whose `Reply.server_error()` and the like become per-request errors in the results.

A batch stays in progress while `held` is set and ends on the next poll after it is cleared.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable, Iterator
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest
from llm_server import LOOPBACK_KEY, RecordedRequest, Reply, TokenUsage, _AnthropicWire, _OpenAIWire, verifier_answer
from llm_server import _usage as _interactive_usage
from loopback import LoopbackServer

_ISO = "2026-01-01T00:00:00Z"


class LoopbackBatchServer(LoopbackServer):
    def __init__(self) -> None:
        self.responder: Callable[[dict[str, Any]], str | Reply] = lambda body: verifier_answer(body) or '{"findings": []}'
        self.held = threading.Event()
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}  # id → {"provider", "requests": [(custom_id, body)], "ended", "results"}
        self.answered: list[dict[str, Any]] = []  # every request body processed, in order
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._listen(_handler(self))

    def llm_options(self, provider: str, **overrides: Any) -> dict[str, Any]:
        """LLMSettings fields pointing here (the key comes from `env()`)."""
        return {
            "provider": provider,
            "model": "gpt-4.1-mini" if provider == "openai" else "claude-haiku-4-5",
            "base_url": f"{self.url}/v1" if provider == "openai" else self.url,
            "timeout_s": 5.0,
            "retry_base_s": 0.01,
            **overrides,
        }

    @staticmethod
    def env() -> dict[str, str]:
        return {"AUDITEX_API_KEY": LOOPBACK_KEY}

    def batch_ids(self, provider: str) -> list[str]:
        with self._lock:
            return [id_ for id_, batch in self.batches.items() if batch["provider"] == provider]

    # Called from handler threads.

    def new_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids):04d}"

    def add_batch(self, provider: str, requests: list[tuple[str, dict[str, Any]]]) -> str:
        batch_id = self.new_id("batch_" if provider == "openai" else "msgbatch_")
        with self._lock:
            self.batches[batch_id] = {"provider": provider, "requests": requests, "ended": False, "created": int(time.time())}
        return batch_id

    def poll(self, batch_id: str) -> dict[str, Any] | None:
        """The batch, ended (its requests answered) once no longer held."""
        with self._lock:
            batch = self.batches.get(batch_id)
        if batch is not None and not batch["ended"] and not self.held.is_set():
            batch["results"] = [(custom_id, body, self._reply(body)) for custom_id, body in batch["requests"]]
            batch["ended"] = True
        return batch

    def _reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.answered.append(body)
        answer = self.responder(body)
        return answer if isinstance(answer, Reply) else Reply(answer)


def _usage(body: dict[str, Any], reply: Reply) -> TokenUsage:
    """One token per four characters, as the interactive stand-in counts; no prompt caching in a batch here."""
    return _interactive_usage(RecordedRequest("", {}, body), reply, (0, 0))


def _openai_batch(server: LoopbackBatchServer, batch_id: str, batch: dict[str, Any]) -> dict[str, Any]:
    ended = batch["ended"]
    if ended and "output_file_id" not in batch:
        wire = _OpenAIWire()
        output, errors = [], []
        for number, (custom_id, body, reply) in enumerate(batch["results"]):
            line = {"id": f"batch_req_{number}", "custom_id": custom_id}
            if reply.http_status == 200:
                output.append(
                    {
                        **line,
                        "response": {
                            "status_code": 200,
                            "request_id": f"req_{number}",
                            "body": wire.plain(reply, body["model"], _usage(body, reply)),
                        },
                        "error": None,
                    }
                )
            else:
                errors.append(
                    {
                        **line,
                        "response": {"status_code": reply.http_status, "request_id": f"req_{number}", "body": wire.error(reply)},
                        "error": None,
                    }
                )
        for name, lines in (("output_file_id", output), ("error_file_id", errors)):
            batch[name] = None
            if lines:
                batch[name] = file_id = server.new_id("file-")
                server.files[file_id] = "".join(json.dumps(line) + "\n" for line in lines).encode()
    total = len(batch["requests"])
    return {
        "id": batch_id,
        "object": "batch",
        "endpoint": "/v1/chat/completions",
        "input_file_id": batch["input_file_id"],
        "completion_window": "24h",
        "status": "completed" if ended else "in_progress",
        "created_at": batch["created"],
        "output_file_id": batch.get("output_file_id"),
        "error_file_id": batch.get("error_file_id"),
        "request_counts": {"total": total, "completed": total if ended else 0, "failed": 0},
    }


def _anthropic_batch(server: LoopbackBatchServer, batch_id: str, batch: dict[str, Any]) -> dict[str, Any]:
    ended = batch["ended"]
    total = len(batch["requests"])
    return {
        "id": batch_id,
        "type": "message_batch",
        "processing_status": "ended" if ended else "in_progress",
        "request_counts": {
            "processing": 0 if ended else total,
            "succeeded": total if ended else 0,
            "errored": 0,
            "canceled": 0,
            "expired": 0,
        },
        "ended_at": _ISO if ended else None,
        "created_at": _ISO,
        "expires_at": _ISO,
        "cancel_initiated_at": None,
        "archived_at": None,
        "results_url": f"{server.url}/v1/messages/batches/{batch_id}/results" if ended else None,
    }


def _anthropic_results(batch: dict[str, Any]) -> Iterator[dict[str, Any]]:
    wire = _AnthropicWire()
    for custom_id, body, reply in batch["results"]:
        if reply.http_status == 200:
            yield {
                "custom_id": custom_id,
                "result": {"type": "succeeded", "message": wire.plain(reply, body["model"], _usage(body, reply))},
            }
        else:
            yield {"custom_id": custom_id, "result": {"type": "errored", "error": {"type": "error", **wire.error(reply)}}}


def _handler(server: LoopbackBatchServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            data = self.rfile.read(int(self.headers.get("content-length") or 0))
            path = self.path.split("?")[0]
            if path == "/v1/files":
                fields = _multipart(self.headers["content-type"], data)
                file_id = server.new_id("file-")
                server.files[file_id] = fields["file"]
                self._json(
                    {
                        "id": file_id,
                        "object": "file",
                        "bytes": len(fields["file"]),
                        "created_at": int(time.time()),
                        "filename": "auditex-batch.jsonl",
                        "purpose": fields["purpose"].decode(),
                        "status": "processed",
                    }
                )
            elif path == "/v1/batches":
                body = json.loads(data)
                lines = [json.loads(line) for line in server.files[body["input_file_id"]].decode().splitlines() if line.strip()]
                assert all(line["url"] == body["endpoint"] == "/v1/chat/completions" for line in lines)
                batch_id = server.add_batch("openai", [(line["custom_id"], line["body"]) for line in lines])
                server.batches[batch_id]["input_file_id"] = body["input_file_id"]
                self._json(_openai_batch(server, batch_id, server.batches[batch_id]))
            elif path == "/v1/messages/batches":
                requests = json.loads(data)["requests"]
                batch_id = server.add_batch("anthropic", [(r["custom_id"], r["params"]) for r in requests])
                self._json(_anthropic_batch(server, batch_id, server.batches[batch_id]))
            else:
                self._json({"error": {"message": f"no route {path}"}}, 404)

        def do_GET(self) -> None:
            parts = self.path.split("?")[0].strip("/").split("/")
            if parts[:2] == ["v1", "batches"] and len(parts) == 3 and (batch := server.poll(parts[2])):
                self._json(_openai_batch(server, parts[2], batch))
            elif parts[:2] == ["v1", "files"] and len(parts) == 4 and parts[3] == "content" and parts[2] in server.files:
                self._send(server.files[parts[2]], "application/octet-stream")
            elif parts[:3] == ["v1", "messages", "batches"] and len(parts) == 4 and (batch := server.poll(parts[3])):
                self._json(_anthropic_batch(server, parts[3], batch))
            elif parts[:3] == ["v1", "messages", "batches"] and parts[4:] == ["results"] and server.batches.get(parts[3], {}).get("ended"):
                lines = "".join(json.dumps(line) + "\n" for line in _anthropic_results(server.batches[parts[3]]))
                self._send(lines.encode(), "application/binary")
            else:
                self._json({"error": {"message": f"no route {self.path}"}}, 404)

        def _json(self, payload: dict[str, Any], status: int = 200) -> None:
            self._send(json.dumps(payload).encode(), "application/json", status)

        def _send(self, data: bytes, content_type: str, status: int = 200) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _multipart(content_type: str, data: bytes) -> dict[str, bytes]:
    message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + data)
    return {part.get_param("name", header="content-disposition"): part.get_payload(decode=True) for part in message.iter_parts()}


@pytest.fixture
def batch_server() -> Iterator[LoopbackBatchServer]:
    with LoopbackBatchServer() as server:
        yield server
