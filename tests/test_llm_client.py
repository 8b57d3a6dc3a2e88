"""LLMClient end to end: the real openai/anthropic SDKs against the loopback server."""

from __future__ import annotations

import asyncio
import email.utils
import logging
import socket
import time

import pytest
from llm_server import LoopbackLLMServer, Reply
from pydantic import BaseModel

from auditex.analyzers.llm.answer_cache import LLMCache
from auditex.analyzers.llm.client import REPAIR_INSTRUCTION, LLMClient, cache_key, extract_json
from auditex.analyzers.llm.errors import (
    BadResponse,
    BudgetExceeded,
    MissingKey,
    RateLimited,
    Rejected,
    ServerFailed,
    Timeout,
    Unreachable,
    parse_retry_after,
)
from auditex.analyzers.llm.pricing import Price, Usage, cost_of, price_for
from auditex.analyzers.llm.provider import ChatRequest, Message
from auditex.analyzers.llm.settings import LLMSettings

SENTINEL = "sk-SENTINEL-123"


class Findings(BaseModel):
    findings: list[dict]


def ask(text: str = "Review this section. Answer in JSON.", **fields: object) -> ChatRequest:
    return ChatRequest(system="You are a careful reviewer.", messages=[Message(role="user", content=text)], **fields)


def one_sentence(message: str) -> bool:
    return message.endswith(".") and ". " not in message.rstrip(".") and "\n" not in message and "Traceback" not in message


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("stream", [False, True])
async def test_plain_and_streamed_answers_record_usage_and_cost(llm_server: LoopbackLLMServer, provider: str, stream: bool) -> None:
    llm_server.script(Reply('{"findings": []}', input_tokens=1000, output_tokens=500))
    settings = llm_server.settings(provider, stream=stream, model="gpt-4o-mini")
    async with LLMClient(settings) as llm:
        answer = await llm.complete(ask())

    assert answer.text == '{"findings": []}'
    assert answer.usage == Usage(input_tokens=1000, output_tokens=500)
    assert answer.cost_usd == pytest.approx((1000 * 0.15 + 500 * 0.60) / 1e6)
    assert not answer.cached and not answer.truncated
    stats = llm.stats
    assert (stats.calls, stats.input_tokens, stats.output_tokens) == (1, 1000, 500)
    assert stats.cost_usd == pytest.approx(answer.cost_usd)

    [sent] = llm_server.requests
    assert sent.streamed is stream
    if provider == "openai":
        assert sent.path == "/v1/chat/completions"
        assert sent.body["messages"][0] == {"role": "system", "content": "You are a careful reviewer."}
        assert sent.body["max_tokens"] == settings.max_output_tokens
        assert "response_format" not in sent.body  # compatible servers may not support it
        assert sent.headers["authorization"] == "Bearer loopback-key"
    else:
        assert sent.path == "/v1/messages"
        assert sent.body["system"] == [{"type": "text", "text": "You are a careful reviewer.", "cache_control": {"type": "ephemeral"}}]
        assert sent.body["messages"] == [{"role": "user", "content": "Review this section. Answer in JSON."}]
        # Older SDKs send x-api-key, newer ones a bearer token.
        assert "loopback-key" in (sent.headers.get("x-api-key"), sent.headers.get("authorization", "").removeprefix("Bearer "))
        assert "anthropic-version" in sent.headers


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("stream", [False, True])
async def test_a_cut_off_answer_is_asked_again_once_with_twice_the_budget(
    llm_server: LoopbackLLMServer, provider: str, stream: bool
) -> None:
    llm_server.script(Reply('{"findings": [', truncated=True), Reply('{"findings": []}'))
    async with LLMClient(llm_server.settings(provider, stream=stream, max_output_tokens=1000)) as llm:
        answer = await llm.complete(ask())
        assert answer.text == '{"findings": []}' and not answer.truncated
        assert llm.stats.cut_off_retries == 1 and "1 cut off and asked again" in llm.stats.summary()
    budgets = [r.body.get("max_tokens") or r.body.get("max_completion_tokens") for r in llm_server.requests]
    assert budgets == [1000, 2000]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_an_answer_cut_off_twice_is_never_taken_as_complete(llm_server: LoopbackLLMServer, provider: str) -> None:
    llm_server.script(Reply('{"findings": [', truncated=True), Reply('{"findings": [{"type', truncated=True))
    async with LLMClient(llm_server.settings(provider, max_output_tokens=500)) as llm:
        with pytest.raises(BadResponse, match="cut off at the output limit of 1,000 tokens"):
            await llm.complete(ask(purpose="section 2"))
    assert llm_server.request_count == 2


async def test_repeat_is_served_from_cache_with_zero_calls(llm_server: LoopbackLLMServer, tmp_path) -> None:
    settings = llm_server.settings("openai")
    cache = LLMCache(tmp_path / "llm")
    async with LLMClient(settings, cache) as first_run:
        fresh = await first_run.complete(ask(prompt_version="v1"))
    async with LLMClient(settings, cache) as second_run:
        again = await second_run.complete(ask(prompt_version="v1", purpose="a different label"))
        assert llm_server.request_count == 1
        assert again.cached and again.text == fresh.text and again.cost_usd == 0
        assert (second_run.stats.calls, second_run.stats.cache_hits) == (0, 1)

        await second_run.complete(ask(prompt_version="v2"))  # a new prompt version is a new question
        assert llm_server.request_count == 2


async def test_errors_are_not_cached(llm_server: LoopbackLLMServer, tmp_path) -> None:
    cache = LLMCache(tmp_path / "llm")
    llm_server.script(Reply.server_error())
    async with LLMClient(llm_server.settings("openai", max_retries=0), cache) as llm:
        with pytest.raises(ServerFailed):
            await llm.complete(ask())
        assert len(cache) == 0
        answer = await llm.complete(ask())
    assert not answer.cached
    assert llm_server.request_count == 2
    assert llm.stats.failures == 1


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_429_is_retried_after_the_requested_delay(llm_server: LoopbackLLMServer, provider: str) -> None:
    llm_server.script(Reply.rate_limited(retry_after="1"), '{"findings": []}')
    async with LLMClient(llm_server.settings(provider)) as llm:
        started = time.monotonic()
        answer = await llm.complete(ask())
        waited = time.monotonic() - started
    assert answer.text == '{"findings": []}'
    assert waited >= 0.95  # the backoff alone would be ~0.01 s
    assert llm_server.request_count == 2
    assert llm.stats.retries == 1


async def test_429_asking_to_wait_past_the_time_limit_gives_up(llm_server: LoopbackLLMServer) -> None:
    llm_server.script(Reply.rate_limited(retry_after="30"))
    async with LLMClient(llm_server.settings("openai", overall_time_limit_s=2)) as llm:
        with pytest.raises(RateLimited) as caught:
            await llm.complete(ask())
    assert one_sentence(str(caught.value))
    assert llm_server.request_count == 1


async def test_5xx_is_retried_then_reported(llm_server: LoopbackLLMServer) -> None:
    llm_server.script(Reply.server_error(500), Reply.server_error(503), '{"findings": []}')
    async with LLMClient(llm_server.settings("anthropic", max_retries=2)) as llm:
        assert (await llm.complete(ask())).text == '{"findings": []}'
    assert llm_server.request_count == 3

    llm_server.script(Reply.server_error(), Reply.server_error())
    async with LLMClient(llm_server.settings("openai", max_retries=1)) as llm:
        with pytest.raises(ServerFailed) as caught:
            await llm.complete(ask())
    assert "HTTP 500" in str(caught.value) and one_sentence(str(caught.value))
    assert llm_server.request_count == 5


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_hang_times_out_after_retries(llm_server: LoopbackLLMServer, provider: str) -> None:
    llm_server.script(Reply.hang(), Reply.hang())
    async with LLMClient(llm_server.settings(provider, timeout_s=0.3, max_retries=1)) as llm:
        started = time.monotonic()
        with pytest.raises(Timeout) as caught:
            await llm.complete(ask())
    assert time.monotonic() - started < 3
    assert llm_server.request_count == 2
    assert one_sentence(str(caught.value))


async def test_overall_time_limit_bounds_a_call(llm_server: LoopbackLLMServer) -> None:
    llm_server.script(Reply.hang())
    async with LLMClient(llm_server.settings("openai", timeout_s=30, overall_time_limit_s=0.5, stream=True)) as llm:
        started = time.monotonic()
        with pytest.raises(Timeout) as caught:
            await llm.complete(ask(purpose="section 3"))
    assert time.monotonic() - started < 2
    assert "section 3" in str(caught.value) and "0.5 s" in str(caught.value)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_invalid_json_gets_exactly_one_repair(llm_server: LoopbackLLMServer, provider: str, tmp_path) -> None:
    llm_server.script("Sure! Here you go: {findings: none", '```json\n{"findings": [{"type": "numeric"}]}\n```')
    cache = LLMCache(tmp_path / "llm")
    async with LLMClient(llm_server.settings(provider), cache) as llm:
        parsed = await llm.complete_json(ask(), Findings)
    assert parsed == Findings(findings=[{"type": "numeric"}])
    _first, repair = llm_server.requests
    assert repair.body["messages"][-2] == {"role": "assistant", "content": "Sure! Here you go: {findings: none"}
    assert "not valid JSON" in repair.body["messages"][-1]["content"]
    assert REPAIR_INSTRUCTION.split(":")[0] in repair.body["messages"][-1]["content"]

    async with LLMClient(llm_server.settings(provider), cache) as rerun:  # both answers were kept
        assert await rerun.complete_json(ask(), Findings) == parsed
    assert llm_server.request_count == 2


async def test_json_still_broken_after_repair_is_a_bad_response(llm_server: LoopbackLLMServer, tmp_path) -> None:
    llm_server.script('{"findings": [{"type": "num', '{"verdict": "fine"}')
    cache = LLMCache(tmp_path / "llm")
    async with LLMClient(llm_server.settings("openai"), cache) as llm:
        with pytest.raises(BadResponse) as caught:
            await llm.complete_json(ask(purpose="section 2"), Findings)
    assert llm_server.request_count == 2  # exactly one repair
    assert "could not be used" in llm_server.requests[1].body["messages"][-1]["content"]
    assert "section 2" in str(caught.value) and "findings" in str(caught.value)
    assert llm.stats.failures == 1
    assert len(cache) == 0  # a failed unit is asked afresh next run


async def test_a_json_answer_cut_off_twice_fails_the_unit_naming_the_budget(llm_server: LoopbackLLMServer) -> None:
    llm_server.script(Reply('{"findings": [{"type": "num', truncated=True), Reply('{"findings": [{"type": "num', truncated=True))
    settings = llm_server.settings("openai", max_output_tokens=500, reasoning_effort="low")
    async with LLMClient(settings) as llm:
        with pytest.raises(BadResponse, match="cut off at the output limit of 9,192 tokens") as caught:
            await llm.complete_json(ask(purpose="section 2"), Findings)
    assert llm_server.request_count == 2 and "reasoning_effort" in str(caught.value)


def test_extract_json_tolerates_fences_and_prose() -> None:
    assert extract_json('{"a": 1}') == {"a": 1}
    assert extract_json('Here is the review:\n```json\n{"a": [1, 2]}\n```\nHope it helps.') == {"a": [1, 2]}
    assert extract_json('Findings follow. {"a": {"b": "}"}} That is all.') == {"a": {"b": "}"}}
    assert extract_json("```\n[1, 2]\n```") == [1, 2]
    with pytest.raises(ValueError, match="not valid JSON"):
        extract_json('{"a": [1, 2')
    with pytest.raises(ValueError, match="empty"):
        extract_json("  ")


async def test_budget_stops_before_sending(llm_server: LoopbackLLMServer) -> None:
    settings = llm_server.settings("openai", model="gpt-4o", budget_usd=0.01)  # 4096 output tokens may cost $0.04
    async with LLMClient(settings) as llm:
        with pytest.raises(BudgetExceeded) as caught:
            await llm.complete(ask())
    assert llm_server.request_count == 0
    assert "$0.01" in str(caught.value) and one_sentence(str(caught.value))


async def test_budget_counts_spent_usage(llm_server: LoopbackLLMServer) -> None:
    llm_server.script(Reply('{"findings": []}', input_tokens=10_000, output_tokens=0))  # costs $0.025
    settings = llm_server.settings("openai", model="gpt-4o", budget_usd=0.026, max_output_tokens=100)
    async with LLMClient(settings) as llm:
        await llm.complete(ask("first"))
        with pytest.raises(BudgetExceeded):
            await llm.complete(ask("second"))
    assert llm_server.request_count == 1
    assert llm.stats.cost_usd == pytest.approx(0.025)


@pytest.mark.parametrize(("provider", "variable"), [("openai", "OPENAI_API_KEY"), ("anthropic", "ANTHROPIC_API_KEY")])
async def test_missing_key_is_one_clear_sentence(provider: str, variable: str) -> None:
    settings = LLMSettings.from_env(env={}, provider=provider)
    async with LLMClient(settings) as llm:
        with pytest.raises(MissingKey) as caught:
            await llm.complete(ask())
    assert str(caught.value).startswith(f"Set {variable} in the environment")
    assert one_sentence(str(caught.value))


def test_keys_come_from_the_right_variable() -> None:
    env = {"OPENAI_API_KEY": "official", "AUDITEX_API_KEY": "local"}
    assert LLMSettings.from_env(env=env).key_for_sdk() == "official"
    assert LLMSettings.from_env(env=env, base_url="https://api.openai.com/v1/").key_for_sdk() == "official"
    # The official key is never sent to a third-party server; a keyless local server is fine.
    assert LLMSettings.from_env(env=env, base_url="http://localhost:11434/v1").key_for_sdk() == "local"
    assert LLMSettings.from_env(env={"OPENAI_API_KEY": "official"}, base_url="http://localhost:11434/v1").key_for_sdk() == "not-needed"
    with pytest.raises(ValueError, match="environment only"):
        LLMSettings.from_env(env=env, api_key="from-a-config-file")
    with pytest.raises(ValueError, match="base_url must look like"):
        LLMSettings(base_url="localhost:11434")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_unreachable_server(provider: str) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    settings = LLMSettings.from_env(env={}, provider=provider, base_url=url, retry_base_s=0.01)  # the default retries
    async with LLMClient(settings) as llm:
        with pytest.raises(Unreachable) as caught:
            await llm.complete(ask())
    assert str(caught.value).startswith(f"Could not reach {url}")
    assert one_sentence(str(caught.value))
    # A refused connection is not transient: nothing listens there, and asking again only makes the user wait.
    assert llm.stats.retries == 0 and not caught.value.retryable


async def test_unreadable_body_is_a_bad_response(llm_server: LoopbackLLMServer) -> None:
    llm_server.script(Reply.broken_body())
    async with LLMClient(llm_server.settings("anthropic")) as llm:
        with pytest.raises(BadResponse):
            await llm.complete(ask())
    assert llm_server.request_count == 1  # not worth a retry


async def test_api_key_never_leaks(llm_server: LoopbackLLMServer, tmp_path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    settings = llm_server.settings("openai", api_key=SENTINEL, max_retries=1, timeout_s=0.3)
    llm_server.script(
        Reply.status(401, f"Incorrect API key provided: {SENTINEL}."),
        Reply.status(400, f"Bad request from key {SENTINEL}"),
        Reply.server_error(),
        Reply.hang(),
    )
    messages = []
    async with LLMClient(settings, LLMCache(tmp_path / "llm")) as llm:
        for expected in (Rejected, Rejected, Timeout):
            with pytest.raises(expected) as caught:
                await llm.complete(ask())
            messages.append(str(caught.value))
        messages.append(repr(caught.value))
    assert llm_server.requests[0].headers["authorization"] == f"Bearer {SENTINEL}"  # it was really used
    assert "[redacted]" in messages[1]
    assert "OPENAI" not in messages[0] and "AUDITEX_API_KEY" in messages[0]
    for text in (*messages, caplog.text, repr(settings), str(settings), settings.model_dump_json(), cache_key(settings, ask())):
        assert SENTINEL not in text


async def test_concurrency_bound_is_respected(tmp_path) -> None:
    with LoopbackLLMServer(latency_s=0.1) as server:
        async with LLMClient(server.settings("openai", concurrency=3)) as llm:
            await asyncio.gather(*(llm.complete(ask(f"section {i}")) for i in range(9)))
    assert server.request_count == 9
    assert server.max_in_flight == 3


async def test_cancellation_propagates_and_frees_the_slot(llm_server: LoopbackLLMServer) -> None:
    llm_server.script(Reply.hang())
    settings = llm_server.settings("openai", concurrency=1, model="gpt-4o", max_output_tokens=1000, budget_usd=0.015)
    async with LLMClient(settings) as llm:
        call = asyncio.create_task(llm.complete(ask()))
        while llm_server.request_count == 0:
            await asyncio.sleep(0.01)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        # The only slot and the reserved budget (~$0.01 of 0.015) are free again.
        answer = await asyncio.wait_for(llm.complete(ask()), timeout=5)
    assert answer.text == '{"findings": []}'
    assert llm.stats.failures == 0


async def test_corrupt_cache_entries_are_ignored(tmp_path, caplog: pytest.LogCaptureFixture) -> None:
    cache = LLMCache(tmp_path / "llm")
    cache._store.set("k", "{not a response")
    assert cache.get("k") is None
    assert "corrupt LLM cache entry" in caplog.text
    assert cache.get("k") is None and len(cache) == 0


def test_retry_after_accepts_seconds_and_http_dates() -> None:
    now = time.time()
    assert parse_retry_after({"retry-after": "3"}) == 3
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    in_two_seconds = email.utils.formatdate(now + 2, usegmt=True)
    assert 1 <= parse_retry_after({"retry-after": in_two_seconds}, now=now) <= 2
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


def test_prices_match_snapshots_and_can_be_overridden() -> None:
    usage = Usage(input_tokens=2_000_000, output_tokens=1_000_000)
    assert cost_of(usage, "gpt-4o-mini-2024-07-18") == pytest.approx(0.30 + 0.60)
    assert price_for("gpt-4o-2024-08-06") == price_for("gpt-4o") != price_for("gpt-4o-mini")
    assert cost_of(usage, "qwen3:8b") == 0
    mine = {"qwen3:8b": Price(input_per_mtok=1, output_per_mtok=2)}
    assert cost_of(usage, "qwen3:8b", mine) == pytest.approx(4.0)
