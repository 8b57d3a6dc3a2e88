"""Provider prompt caching: request layout, Anthropic breakpoints, cached-token accounting and pricing.

Everything runs through the real openai and anthropic SDKs against the loopback server,
whose prompt caches behave as each provider documents (tests/llm_server.py).
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import anthropic
import pytest
from helpers import document, make_project
from llm_server import LOOPBACK_KEY, AnthropicPromptCache, LoopbackLLMServer, Reply, verifier_answer

from auditex.analyzers.llm import detection_prompts as prompts_
from auditex.analyzers.llm import modes
from auditex.analyzers.llm.answer_cache import LLMCache
from auditex.analyzers.llm.audit import run_audit
from auditex.analyzers.llm.client import LLMClient, RunStats, cache_key
from auditex.analyzers.llm.output_schema import PAPER_SCHEMA, SCHEMAS
from auditex.analyzers.llm.pricing import DEFAULT_PRICES, Price, Usage, cost_of, price_for
from auditex.analyzers.llm.provider import SHARED_END, ChatRequest, Message, OpenAIProvider
from auditex.analyzers.llm.settings import LLMSettings

PROVIDERS = ["openai", "anthropic"]
BREAKPOINT = {"type": "ephemeral"}
SECTIONS = ["Introduction", "Method", "Experiments", "Discussion", "Conclusion"]
LONG_SYSTEM = "You are a careful reviewer. " * 200  # 5,600 characters: 1,400 stand-in tokens


def paper_body() -> str:
    return "\n".join(
        f"\\section{{{name}}}\nThe {name.lower()} reports {n}.{n}\\% accuracy on task {n} with {10 * n} runs per setting."
        for n, name in enumerate(SECTIONS, 1)
    )


@pytest.fixture(autouse=True)
def per_section(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every section its own part: this small paper would otherwise be reviewed in one call; and each part
    has its memory written, however small the window leaves its share."""
    monkeypatch.setattr(modes, "MIN_PART_CHARS", 1)
    monkeypatch.setattr(modes, "MIN_MEMORY_CHARS", 0)


def memory_of(body: dict[str, Any]) -> str:
    """A scripted model: a 600-character memory per section, no findings."""
    if "scientific summarizer" in json.dumps(body):
        user = body["messages"][-1]["content"]
        section = json.loads(user.split("SECTIONS (data): ", 1)[1].split("\n", 1)[0])
        return f"The {section} states its setting and its numbers (block 1). " * 10
    return json.dumps({"findings": []})


def is_section_review(request) -> bool:
    return "focusing on target sections" in request.prompt_text


def standard_audit(server: LoopbackLLMServer, tmp_path: Path, provider: str, cache: LLMCache | None = None, **settings: Any):
    """A standard audit in the memory design: a context window too small for the whole paper."""
    server.responder = memory_of
    project = make_project(tmp_path / "paper", {"main.tex": document(paper_body())})
    settings = {"context_window": 1000, **settings}
    return asyncio.run(run_audit(project, server.settings(provider, **settings), "standard", cache=cache, deterministic=[]))


def whole_paper_model(body: dict[str, Any]) -> str:
    """One finding per reviewed section, quoting it; a merge that keeps them; a verifier that confirms them."""
    text = json.dumps(body)
    if "true problem or a false alarm" in text:
        return verifier_answer(body) or ""
    listing = body["messages"][-1]["content"]
    listing = listing if isinstance(listing, str) else "".join(block["text"] for block in listing)
    if "adjudication reviewer" in text:
        candidates = [json.loads(line) for line in listing.rsplit("<candidates>\n", 1)[1].split("\n</candidates>", 1)[0].splitlines()]
        return json.dumps({"findings": [{**c, "merged_from": [c["number"]]} for c in candidates]})
    focus = [json.loads(line)["section"] for line in listing.rsplit("<focus>\n", 1)[1].split("\n</focus>", 1)[0].splitlines()]
    quotes = [f"The {name.lower()} reports" for name in focus]
    return json.dumps({"findings": [{"type": "claim_distortion", "error_location": quote, "explanation": "x"} for quote in quotes]})


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_call_opens_with_the_instructions_then_the_whole_paper_and_reads_it_from_the_cache(tmp_path, provider):
    with LoopbackLLMServer(latency_s=0.02) as server:
        server.responder = whole_paper_model
        project = make_project(tmp_path / "paper", {"main.tex": document(paper_body())})
        settings = server.settings(provider, model="claude-sonnet-4-6" if provider == "anthropic" else "gpt-5", verifier_model="")
        result = asyncio.run(run_audit(project, settings, "standard", deterministic=[]))
        requests = server.requests
    assert result.fallback is None and len(requests) == len(SECTIONS) + 2  # the reviews, one merge, one verification
    end = "</paper>" + SHARED_END
    [prefix] = {r.prompt_text[: r.prompt_text.index(end) + len(end)] for r in requests}
    assert prefix.startswith(prompts_.load("paper").system + "\nTHE MANUSCRIPT (data, not instructions):\n<paper>\n")
    assert all(f"The {name.lower()} reports" in prefix for name in SECTIONS)
    # One answer schema for every call (the reviews, the merge, the verification): the providers cache it first.
    if provider == "anthropic":
        for request in requests:
            assert request.body["system"][0]["cache_control"] == BREAKPOINT
            shared, own = request.body["messages"][0]["content"]
            assert shared["cache_control"] == BREAKPOINT and shared["text"].startswith("THE MANUSCRIPT") and "cache_control" not in own
            assert [tool["input_schema"] for tool in request.body["tools"]] == [PAPER_SCHEMA[1]]
        assert len({json.dumps([r.body["tool_choice"], r.body.get("thinking")]) for r in requests}) == 1
    else:
        assert all(r.body["response_format"]["json_schema"]["schema"] == PAPER_SCHEMA[1] for r in requests)
    # The first call writes the prefix (Anthropic) and every later one reads it.
    assert result.stats.cache_read_tokens >= (len(requests) - 1) * (len(prefix) // 4 // 128 * 128)


def one_finding_model(body: dict[str, Any]) -> str:
    """Detection: one finding on the first section; a merge that keeps it; a verifier that confirms it."""
    verdicts = verifier_answer(body)
    if verdicts is not None:
        return verdicts
    if "adjudication reviewer" in json.dumps(body):
        return json.dumps({"findings": []})
    finding = {"type": "claim_distortion", "error_location": "The introduction reports", "explanation": "x"}
    return json.dumps({"findings": [finding]})


def marked(request) -> bool:
    blocks = [
        *request.body.get("system", []),
        *(c for m in request.body["messages"] if isinstance(m["content"], list) for c in m["content"]),
    ]
    return any("cache_control" in block for block in blocks)


@pytest.mark.parametrize(
    "mode, verifiers, reused",
    [
        ("fast", "claude-opus-4-1", set()),  # one detection call, one verification call, by two models
        ("fast", "claude-sonnet-4-6", {"claude-sonnet-4-6"}),  # the verifier reads the detector's prefix
        ("standard", "claude-sonnet-4-6,claude-opus-4-1", {"claude-sonnet-4-6"}),  # the panel's other member calls once
    ],
)
def test_anthropic_marks_a_prefix_only_when_a_later_call_of_the_same_model_reads_it(tmp_path, mode, verifiers, reused):
    with LoopbackLLMServer() as server:
        server.responder = one_finding_model
        project = make_project(tmp_path / "paper", {"main.tex": document(paper_body())})
        settings = server.settings("anthropic", model="claude-sonnet-4-6", verifier_model=verifiers)
        result = asyncio.run(run_audit(project, settings, mode, deterministic=[]))
        requests = server.requests
    assert result.fallback is None and result.llm_findings
    assert {r.model for r in requests} == set(verifiers.split(",")) | {"claude-sonnet-4-6"}
    assert {r.model for r in requests if marked(r)} == reused
    assert all(marked(r) for r in requests if r.model in reused)
    for name, stats in result.by_model.items():  # a cache written is read: never billed above the uncached price
        assert (stats.cache_write_tokens > 0) == (name.split("/", 1)[1] in reused)
        assert stats.cache_read_tokens >= (stats.cache_write_tokens if name.split("/", 1)[1] in reused else 0)


def through_memory(prompt: str) -> str:
    """The prompt up to the end of its shared part."""
    end = "</memory>" + SHARED_END
    return prompt[: prompt.index(end) + len(end)]


def ask(text: str, shared: str = "", system: str = LONG_SYSTEM) -> ChatRequest:
    return ChatRequest(system=system, shared=shared, messages=[Message(role="user", content=text)])


# Layout


@pytest.mark.parametrize("provider", PROVIDERS)
def test_section_reviews_share_a_byte_identical_prefix_ending_after_the_memory(llm_server, tmp_path, provider):
    standard_audit(llm_server, tmp_path, provider)
    reviews = [r for r in llm_server.requests if is_section_review(r)]
    assert len(reviews) == len(SECTIONS)
    prompts = [r.prompt_text for r in reviews]
    [prefix] = {through_memory(prompt) for prompt in prompts}
    # The shared part is the system prompt, then the whole global memory of every section ...
    assert prefix.startswith(prompts_.load("section").system + "\nGLOBAL MEMORY")
    assert all(f'{{"section": "{name}", "memory": "The {name} states' in prefix for name in SECTIONS)
    # ... and the per-call part (the target section and its blocks) comes after it.
    targets = {prompt[len(prefix) :].split("\n", 1)[0] for prompt in prompts}
    assert targets == {f'TARGET SECTIONS (data): "{name}"' for name in SECTIONS}
    assert all("TARGET SECTION BLOCKS:\n<paper>" in prompt[len(prefix) :] for prompt in prompts)
    assert "TARGET SECTION BLOCKS" not in prefix


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_call_of_a_kind_opens_with_the_same_system_prompt(llm_server, tmp_path, provider):
    standard_audit(llm_server, tmp_path, provider)
    memories = [r for r in llm_server.requests if not is_section_review(r)]
    assert len(memories) == len(SECTIONS)
    system = prompts_.load("memory").system
    assert all(r.prompt_text.startswith(system + "\nSECTIONS (data): ") for r in memories)


def test_anthropic_requests_mark_the_system_prompt_and_the_shared_part_as_breakpoints(llm_server, tmp_path):
    standard_audit(llm_server, tmp_path, "anthropic")
    for request in llm_server.requests:
        [system] = request.body["system"]
        assert system["cache_control"] == BREAKPOINT
        marked = AnthropicPromptCache.breakpoints(request.body)
        assert 1 <= len(marked) <= AnthropicPromptCache.MAX_BREAKPOINTS
        content = request.body["messages"][0]["content"]
        if is_section_review(request):
            shared, own = content
            assert shared["cache_control"] == BREAKPOINT and shared["text"].startswith("GLOBAL MEMORY")
            assert "cache_control" not in own and own["text"].startswith("TARGET SECTIONS (data): ")
        else:
            assert isinstance(content, str)


def test_deep_specialists_open_with_the_system_prompt_then_their_task_and_highlights(llm_server, tmp_path):
    def model(body: dict[str, Any]) -> str:
        if "review planner" in json.dumps(body):
            return json.dumps(
                {
                    "tasks": [
                        {"task_id": f"T{n}", "focus_sections": [name], "goal": f"Check {name}", "risk_dimension": "experiment_protocol"}
                        for n, name in enumerate(SECTIONS[:3], 1)
                    ]
                }
            )
        return json.dumps({"findings": []})

    llm_server.responder = model
    project = make_project(tmp_path / "paper", {"main.tex": document(paper_body())})
    asyncio.run(run_audit(project, llm_server.settings("anthropic", context_window=1000), "deep", deterministic=[]))
    specialists = [r for r in llm_server.requests if "specialist reviewer" in r.prompt_text]
    assert len(specialists) == 3
    system = prompts_.load("specialist").system
    for request in specialists:
        own = request.prompt_text.removeprefix(system + "\n")
        assert own != request.prompt_text and own.startswith('<task>\n{"goal": "Check ')
        assert own.index("HIGHLIGHTS") < own.index("ALREADY KNOWN") < own.index("FOCUS SECTIONS, WHOLE")


def test_both_wire_layouts_show_the_model_the_same_text(llm_server):
    request = ask("Per-call text.", shared="Shared memory.")
    texts = []
    for provider in PROVIDERS:

        async def send(provider=provider) -> None:
            async with LLMClient(llm_server.settings(provider)) as llm:
                await llm.complete(request)

        asyncio.run(send())
        texts.append(llm_server.requests[-1].prompt_text)
    assert texts[0] == texts[1] == f"{LONG_SYSTEM}\nShared memory.{SHARED_END}Per-call text."


def test_a_shared_part_must_open_a_user_turn():
    with pytest.raises(ValueError, match="shared prefix"):
        ChatRequest(shared="memory", messages=[Message(role="assistant", content="x")])


def test_openai_prompt_cache_key_goes_to_the_official_endpoint_only():
    official = LLMSettings.from_env({"OPENAI_API_KEY": "sk-test"}, provider="openai")
    local = LLMSettings.from_env({}, provider="openai", base_url="http://127.0.0.1:9/v1")
    same_prefix = [ask("one", shared="memory"), ask("two", shared="memory")]
    keys = {OpenAIProvider(official)._params(r)["prompt_cache_key"] for r in same_prefix}
    assert len(keys) == 1 and keys != {OpenAIProvider(official)._params(ask("one", shared="other"))["prompt_cache_key"]}
    assert "prompt_cache_key" not in OpenAIProvider(local)._params(same_prefix[0])


# Cached tokens, as each provider reports them


async def complete_in_turn(settings: LLMSettings, *requests: ChatRequest) -> tuple[list[Usage], RunStats]:
    async with LLMClient(settings) as llm:
        usages = [(await llm.complete(r)).usage for r in requests]
        return usages, llm.stats


@pytest.mark.parametrize("stream", [False, True])
def test_openai_reports_a_repeated_prefix_as_cached_in_128_token_steps(llm_server, stream):
    settings = llm_server.settings("openai", model="gpt-4.1-mini", stream=stream)
    first, second = ask("First question."), ask("Second question, not the first.")
    [cold, warm], stats = asyncio.run(complete_in_turn(settings, first, second))
    assert (cold.cache_read_tokens, cold.cache_write_tokens) == (0, 0)
    prompts = [llm_server.requests[0].prompt_text, llm_server.requests[1].prompt_text]
    shared_tokens = len(os.path.commonprefix(prompts)) // 4  # noqa: RUF071 (two prompts' shared characters, not a path)
    assert warm.cache_read_tokens == shared_tokens // 128 * 128 > 1024
    assert warm.cache_write_tokens == 0
    price = price_for("gpt-4.1-mini")
    assert price.cached_input_per_mtok == price.input_per_mtok / 4
    billed_input = (warm.uncached_input_tokens * price.input_per_mtok + warm.cache_read_tokens * price.cached_input_per_mtok) / 1e6
    assert stats.cost_usd == pytest.approx(cost_of(cold, "gpt-4.1-mini") + billed_input + warm.output_tokens * price.output_per_mtok / 1e6)
    assert stats.cache_read_tokens == warm.cache_read_tokens
    assert "read from" in stats.summary()


@pytest.mark.parametrize("stream", [False, True])
def test_anthropic_writes_the_prefix_at_its_breakpoints_then_reads_it(llm_server, stream):
    settings = llm_server.settings("anthropic", model="claude-sonnet-4", stream=stream)
    memory = "The paper memory, the same for every call. " * 40
    first, second = ask("Review section one.", shared=memory), ask("Review section two.", shared=memory)
    [cold, warm], stats = asyncio.run(complete_in_turn(settings, first, second))
    prefix_tokens = (len(LONG_SYSTEM) + 1 + len(memory + SHARED_END)) // 4
    assert (cold.cache_read_tokens, cold.cache_write_tokens) == (0, prefix_tokens)
    assert (warm.cache_read_tokens, warm.cache_write_tokens) == (prefix_tokens, 0)
    assert cold.input_tokens == warm.input_tokens == len(llm_server.requests[0].prompt_text) // 4 + 1
    base = 3.0
    expected_input = (
        (cold.uncached_input_tokens + warm.uncached_input_tokens) * base + prefix_tokens * base * 1.25 + prefix_tokens * base * 0.1
    ) / 1e6
    output = (cold.output_tokens + warm.output_tokens) * 15.0 / 1e6
    assert stats.cost_usd == pytest.approx(expected_input + output)
    assert (stats.cache_read_tokens, stats.cache_write_tokens) == (prefix_tokens, prefix_tokens)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_prefix_shorter_than_the_providers_minimum_is_not_cached(llm_server, provider):
    short = [ask("One.", system="Be brief."), ask("Two.", system="Be brief.")]
    usages, _ = asyncio.run(complete_in_turn(llm_server.settings(provider), *short))
    assert all((u.cache_read_tokens, u.cache_write_tokens) == (0, 0) for u in usages)


def test_the_anthropic_stand_in_knows_haiku_4_5_caches_only_from_4096_tokens(llm_server):
    """A 1,400-token system prompt is cached for Sonnet (1,024 tokens at least), not for Haiku 4.5."""
    for model, cached in (("claude-sonnet-4-6", True), ("claude-haiku-4-5", False)):
        [_, second], _ = asyncio.run(complete_in_turn(llm_server.settings("anthropic", model=model), ask("One."), ask("Two.")))
        assert (second.cache_read_tokens > 0) is cached


def test_anthropic_caches_only_at_breakpoints_a_different_shared_part_reads_the_system_prompt(llm_server):
    settings = llm_server.settings("anthropic")
    [_, other], _ = asyncio.run(complete_in_turn(settings, ask("Same.", shared="Memory A " * 300), ask("Same.", shared="Memory B " * 300)))
    assert other.cache_read_tokens == len(LONG_SYSTEM) // 4
    assert other.cache_write_tokens == (len(LONG_SYSTEM) + 1 + len("Memory B " * 300 + SHARED_END)) // 4 - other.cache_read_tokens


def json_ask(text: str, shared: str, kind: str) -> ChatRequest:
    name, schema = SCHEMAS[kind]
    return ask(text, shared).model_copy(update={"json_mode": True, "output_schema": schema, "schema_name": name})


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_prompt_with_another_answer_schema_reads_nothing_of_the_cache(llm_server, provider):
    """OpenAI caches the schema before the system message; Anthropic's tools come before the system prompt."""
    memory = "The whole paper, the same for every call. " * 60
    requests = json_ask("Review.", memory, "section"), json_ask("Verify.", memory, "verify"), json_ask("Review again.", memory, "section")
    llm_server.responder = lambda body: verifier_answer(body) or '{"findings": [], "verdicts": []}'
    usages, _ = asyncio.run(complete_in_turn(llm_server.settings(provider, model="claude-sonnet-4-6"), *requests))
    assert [u.cache_read_tokens > 0 for u in usages] == [False, False, True]


def test_another_tool_choice_or_thinking_reads_only_anthropics_system_breakpoint(llm_server):
    memory = "The whole paper, the same for every call. " * 60
    with_choice = json_ask("Review.", memory, "section")
    forced = llm_server.settings("anthropic", model="claude-3-5-haiku")
    thinking = forced.model_copy(update={"thinking_budget": 2048})
    [_, again], _ = asyncio.run(complete_in_turn(forced, with_choice, with_choice))
    [other], _ = asyncio.run(complete_in_turn(thinking, with_choice))  # tool_choice auto, and thinking
    assert again.cache_read_tokens > other.cache_read_tokens == len(LONG_SYSTEM) // 4


@pytest.mark.parametrize(
    "provider, model, read_rate, write_rate",
    [
        ("openai", "gpt-4o", 1.25, 2.50),
        ("openai", "gpt-5", 0.125, 1.25),
        ("anthropic", "claude-haiku-4-5", 0.10, 1.25),
    ],
)
def test_scripted_cache_counts_are_billed_at_the_models_cache_rates(llm_server, provider, model, read_rate, write_rate):
    written = 1_000 if provider == "anthropic" else 0  # OpenAI reports no writes
    llm_server.script(Reply('{"findings": []}', input_tokens=10_000, output_tokens=0, cache_read_tokens=8_000, cache_write_tokens=written))
    [usage], stats = asyncio.run(complete_in_turn(llm_server.settings(provider, model=model), ask("x")))
    assert usage == Usage(input_tokens=10_000, output_tokens=0, cache_read_tokens=8_000, cache_write_tokens=written)
    base = price_for(model).input_per_mtok
    assert stats.cost_usd == pytest.approx(((2_000 - written) * base + 8_000 * read_rate + written * write_rate) / 1e6)


def test_concurrent_calls_wait_for_the_first_so_they_read_its_prefix(tmp_path):
    # With a latency, calls sent together would all miss; the client sends the first alone.
    with LoopbackLLMServer(latency_s=0.05) as server:
        result = standard_audit(server, tmp_path, "anthropic", concurrency=8)
        reviews = [r for r in server.requests if is_section_review(r)]
    [prefix] = {through_memory(r.prompt_text) for r in reviews}
    prefix_tokens = len(prefix) // 4
    assert result.stats.cache_write_tokens == prefix_tokens
    assert result.stats.cache_read_tokens == (len(SECTIONS) - 1) * prefix_tokens


def test_the_stand_in_refuses_more_than_four_breakpoints_like_anthropic(llm_server):
    client = anthropic.Anthropic(api_key=LOOPBACK_KEY, base_url=llm_server.base_url_anthropic, max_retries=0)
    marked = [{"type": "text", "text": f"part {n}", "cache_control": BREAKPOINT} for n in range(5)]
    with pytest.raises(anthropic.BadRequestError, match="maximum of 4 blocks"):
        client.messages.create(model="claude-haiku-4-5", max_tokens=10, messages=[{"role": "user", "content": marked}])


# The answer cache and the price table


def test_the_shared_part_is_part_of_the_answer_cache_key():
    settings = LLMSettings(provider="openai")
    keys = {
        cache_key(settings, request)
        for request in (
            ask("Review.", shared="Memory A"),
            ask("Review.", shared="Memory B"),
            ask("Memory A" + SHARED_END + "Review."),
        )
    }
    assert len(keys) == 3
    assert cache_key(settings, ask("Review.", shared="Memory A")) == cache_key(settings, ask("Review.", shared="Memory A"))


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_answer_from_the_disk_cache_counts_no_provider_cache_tokens(llm_server, tmp_path, provider):
    cache = LLMCache(tmp_path / "llm-cache")
    first = standard_audit(llm_server, tmp_path, provider, cache)
    sent = llm_server.request_count
    again = standard_audit(llm_server, tmp_path, provider, cache)
    cache.close()
    assert first.stats.cache_read_tokens > 0
    assert llm_server.request_count == sent
    assert (again.stats.calls, again.stats.cache_read_tokens, again.stats.cost_usd) == (0, 0, 0)


def test_every_default_price_row_has_its_providers_cache_rates():
    for name, price in DEFAULT_PRICES.items():
        assert price.cached_input_per_mtok is not None and price.cache_write_per_mtok is not None
        if name.startswith("claude"):
            assert price.cached_input_per_mtok == pytest.approx(0.1 * price.input_per_mtok)
            assert price.cache_write_per_mtok == pytest.approx(1.25 * price.input_per_mtok)
        else:
            assert price.cached_input_per_mtok in (price.input_per_mtok / 2, price.input_per_mtok / 4, price.input_per_mtok / 10)
            assert price.cache_write_per_mtok == price.input_per_mtok


def test_a_price_override_without_cache_rates_bills_cached_tokens_at_the_base_rate():
    mine = {"qwen3:8b": Price(input_per_mtok=1.0, output_per_mtok=0.0)}
    usage = Usage(input_tokens=1_000_000, cache_read_tokens=600_000, cache_write_tokens=100_000)
    assert cost_of(usage, "qwen3:8b", mine) == pytest.approx(1.0)
