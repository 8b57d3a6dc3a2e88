"""What each provider is sent, as the loopback server receives it through the real SDKs: reasoning
budgets, the completion budget's name, and the enforced answer schema (OpenAI `response_format`,
Anthropic tool use), with the step-down of a compatible server that refuses a format."""

from __future__ import annotations

import json

import pytest
from llm_server import LoopbackLLMServer, Reply

from auditex.analyzers.llm.client import LLMClient
from auditex.analyzers.llm.errors import Rejected
from auditex.analyzers.llm.output_schema import SCHEMAS
from auditex.analyzers.llm.provider import ChatRequest, Message
from auditex.analyzers.llm.schema import CriticalAnswer, FindingsAnswer
from auditex.analyzers.llm.settings import DEFAULT_EFFORT, DEFAULT_THINKING_BUDGET, REASONING_ALLOWANCE, LLMSettings

FINDING = {
    "type": "claim_distortion",
    "section_location": "Introduction",
    "error_location": "the first method ever",
    "evidence": [{"block_index": 3, "quote": "the first method ever"}],
    "explanation": "Unsupported.",
    "severity": "major",
    "confidence": 0.8,
    "proposed_fix": "",
}


def findings_request(kind: str = "section") -> ChatRequest:
    name, schema = SCHEMAS[kind]
    return ChatRequest(
        system="You review papers.",
        messages=[Message(role="user", content="Review. Answer in JSON.")],
        json_mode=True,
        output_schema=schema,
        schema_name=name,
    )


async def ask(server: LoopbackLLMServer, settings: LLMSettings, kind: str = "section", model: type = FindingsAnswer):
    async with LLMClient(settings) as llm:
        return await llm.complete_json(findings_request(kind), model)


@pytest.mark.parametrize(
    "model, reasoning, sent_as, effort",
    [
        ("gpt-5", None, "max_completion_tokens", DEFAULT_EFFORT),
        ("o3", None, "max_completion_tokens", DEFAULT_EFFORT),
        ("qwen3-32b", True, "max_completion_tokens", DEFAULT_EFFORT),
        ("llama-3.1-8b", None, "max_tokens", None),
    ],
)
async def test_openai_reasoning_models_get_an_effort_and_a_completion_budget_that_counts_it(llm_server, model, reasoning, sent_as, effort):
    llm_server.script(json.dumps({"findings": [FINDING]}))
    settings = llm_server.settings("openai", model=model, reasoning=reasoning).for_mode("standard")
    answer = await ask(llm_server, settings)
    assert answer.findings[0].severity.value == "major"
    [sent] = llm_server.requests
    budget = settings.max_output_tokens + (REASONING_ALLOWANCE[effort] if effort else 0)
    assert sent.body[sent_as] == budget and ({"max_tokens", "max_completion_tokens"} - {sent_as}).isdisjoint(sent.body)
    assert sent.body.get("reasoning_effort") == effort
    assert ("temperature" in sent.body) is (effort is None)


async def test_openai_json_is_enforced_with_a_strict_schema(llm_server):
    llm_server.script(json.dumps({"findings": [FINDING]}))
    await ask(llm_server, llm_server.settings("openai"))
    format_ = llm_server.requests[0].body["response_format"]
    assert format_["type"] == "json_schema" and format_["json_schema"]["strict"] is True
    schema = format_["json_schema"]["schema"]
    finding = schema["properties"]["findings"]["items"]
    assert finding["additionalProperties"] is False and set(finding["required"]) == set(finding["properties"])
    assert finding["properties"]["severity"]["enum"] == ["major", "moderate", "minor"]


async def test_a_server_that_refuses_a_format_is_asked_with_the_next_and_keeps_it(llm_server):
    refused = Reply.status(400, "response_format json_schema is not supported")
    llm_server.script(refused, Reply.status(400, "response_format is not supported"), json.dumps({"findings": []}), '{"findings": []}')
    settings = llm_server.settings("openai")
    async with LLMClient(settings) as llm:
        await llm.complete_json(findings_request(), FindingsAnswer)
        await llm.complete_json(findings_request(), FindingsAnswer)
    formats = [r.body.get("response_format", {}).get("type") for r in llm_server.requests]
    assert formats == ["json_schema", "json_object", None, None]


async def test_a_refused_request_without_json_is_still_an_error(llm_server):
    llm_server.script(Reply.status(400, "bad request"))
    async with LLMClient(llm_server.settings("openai")) as llm:
        with pytest.raises(Rejected, match="HTTP 400"):
            await llm.complete(ChatRequest(messages=[Message(role="user", content="hi")]))
    assert llm_server.request_count == 1


@pytest.mark.parametrize("stream", [False, True])
async def test_anthropic_answers_through_a_tool_whose_input_schema_is_the_answer_schema(llm_server, stream):
    llm_server.script(json.dumps({"findings": [FINDING]}))
    answer = await ask(llm_server, llm_server.settings("anthropic", model="claude-3-5-haiku", stream=stream))
    assert answer.findings[0].error_location == "the first method ever"
    [sent] = llm_server.requests
    [tool] = sent.body["tools"]
    assert tool["name"] == "findings" and tool["input_schema"] == SCHEMAS["section"][1]
    assert sent.body["tool_choice"] == {"type": "tool", "name": "findings"} and "thinking" not in sent.body


async def test_anthropic_thinking_models_think_by_default_and_choose_the_tool_themselves(llm_server):
    llm_server.script(json.dumps([{"Problem": "p", "Location": '"q"', "Explanation": "e"}]))
    settings = llm_server.settings("anthropic", model="claude-opus-4-1").for_mode("critical")
    answer = await ask(llm_server, settings, "critical", CriticalAnswer)
    assert answer.root[0].problem == "p"  # the list arrived as the tool's {"problems": [...]}
    [sent] = llm_server.requests
    assert sent.body["thinking"] == {"type": "enabled", "budget_tokens": DEFAULT_THINKING_BUDGET}
    assert sent.body["max_tokens"] == settings.max_output_tokens + DEFAULT_THINKING_BUDGET
    assert sent.body["tool_choice"] == {"type": "auto"}  # extended thinking allows no forced tool


def test_the_default_verifier_within_one_provider_is_a_reasoning_model_never_the_small_fast_one():
    for provider in ("openai", "anthropic"):
        settings = LLMSettings(provider=provider)
        [verifier] = settings.verifiers("fast")
        assert verifier.reasons and verifier.provider == provider
        assert verifier.model != settings.for_mode("fast").model
        assert verifier.reasoning_effort or verifier.thinking_budget
        assert settings.verifiers("standard")[0] == settings.for_mode("standard")  # one model: one prompt cache


def test_a_panel_is_named_model_by_model_and_the_paper_goes_to_another_provider_only_when_named():
    settings = LLMSettings(provider="openai", verifier_model="gpt-5, o3")
    assert [(v.provider, v.model) for v in settings.verifiers("deep")] == [("openai", "gpt-5"), ("openai", "o3")]
    panel = LLMSettings(provider="openai", verifier_provider="openai,anthropic", verifier_model="gpt-5").verifiers("deep")
    assert [(v.provider, v.model) for v in panel] == [("openai", "gpt-5"), ("anthropic", "claude-sonnet-4-6")]
    assert all(v.provider == "openai" for v in LLMSettings(provider="openai").verifiers("deep"))
    with pytest.raises(ValueError, match="unknown verifier provider 'gemini'"):
        LLMSettings(verifier_provider="openai, gemini")
