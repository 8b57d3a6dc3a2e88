"""Propose, then verify: the verifier's verdicts decide what is shown and how severely; rule
candidates with Evidence are verified too; deep mode reads every section; reasoning settings
reach the wire. Everything goes through the real SDKs to the loopback server."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from helpers import document, make_project
from llm_server import LoopbackLLMServer, Reply, verifier_answer
from test_llm_audit import (
    CLAIM,
    MAIN,
    MEMORY,
    PROTOCOL,
    answer,
    audit,
    candidates_of,
    finding,
    judged,
    project_of,
    role,
    user_text,
    write_paper,
)

from auditex.analyzers.finding import Category, Evidence, Finding, Range, Severity, Source, Statement
from auditex.analyzers.llm import modes
from auditex.analyzers.llm.anchoring import Anchorer
from auditex.analyzers.llm.answer_cache import LLMCache
from auditex.analyzers.llm.audit import run_audit
from auditex.analyzers.llm.settings import LLMSettings

METHOD = "FastNet stacks ten residual blocks and is trained with a learning rate of 0.1 for 90 epochs."
LOSS = "The loss is the cross entropy between predictions and labels."
RESULT = "On ImageNet, FastNet reaches 85.1% top-1 accuracy while the best baseline reaches 84.9%."


@pytest.fixture
def paper(tmp_path):
    return write_paper(tmp_path / "paper")


def test_false_alarms_are_dropped_and_counted(llm_server, paper):
    llm_server.responder = judged({"FastNet is the first": {"valid": False}, "We train": {"severity": "moderate"}})
    llm_server.script(
        json.dumps(
            {"findings": [finding("claim_distortion", CLAIM, "Introduction"), finding("experiment_protocol", PROTOCOL, "Experiments")]}
        )
    )
    result = audit(project_of(paper), llm_server, "fast")
    assert [(f.code, f.severity) for f in result.llm_findings] == [("LLM-EP", Severity.WARNING)]
    assert result.verification.rejected == 1 and "verifier rejected 1" in result.summary()
    [verify] = [r for r in llm_server.requests if role(r.body) == "verify"]
    assert result.stats.stages["verify"].calls == 1
    # The verifier reads the candidates and the whole paper (where a resolving passage may be), as data.
    candidates = user_text(verify.body).rsplit("<candidates>", 1)[1]
    assert CLAIM in candidates and LOSS in user_text(verify.body).split("</paper>", 1)[0]


def test_a_call_returns_what_the_report_can_keep_of_the_sections_it_reviews(llm_server, paper):
    """Three per section (PaperAudit), up to the report's `max_findings`: a fixed five for the whole paper lost
    most problems of a paper that has many."""
    quotes = {
        "Introduction": ["Image classification is a core task.", CLAIM],
        "Method": ["FastNet stacks ten residual blocks", "The loss is the cross entropy"],
        "Experiments": ["FastNet reaches 85.1", PROTOCOL],
        "Conclusion": ["FastNet is a revolutionary advance"],
    }
    found = [finding("method_logic", quote, section) for section, listed in quotes.items() for quote in listed]
    llm_server.responder = judged({quote: {"severity": "moderate"} for listed in quotes.values() for quote in listed})
    llm_server.script(json.dumps({"findings": found}))
    result = audit(project_of(paper), llm_server, "fast")
    assert len(result.llm_findings) == 7 and result.verification.over_cap == 0
    [fast] = [r for r in llm_server.requests if role(r.body) == "fast"]
    assert "Report at most 10 findings" in user_text(fast.body)  # five sections, the report's ten
    llm_server.script(json.dumps({"findings": found}))
    capped = audit(project_of(paper), llm_server, "fast", settings={"max_findings": 6})
    assert len(capped.llm_findings) == 6 and len(candidates_of(llm_server.requests[-1].body)) == 6


def test_at_most_three_findings_per_section_best_first_and_configurable(llm_server, paper):
    quotes = ["FastNet stacks ten residual blocks", "trained with a learning rate of 0.1", "for 90 epochs", "The loss is the cross entropy"]
    severities = ["minor", "major", "moderate", "major"]
    found = [finding("method_logic", q, "Method", confidence=0.5 + n / 10) for n, q in enumerate(quotes)]
    llm_server.responder = judged({q: {"severity": s} for q, s in zip(quotes, severities)})
    llm_server.script(json.dumps({"findings": found}))
    result = audit(project_of(paper), llm_server, "fast")
    assert [f.severity for f in result.llm_findings] == [Severity.WARNING] * 3  # major, major, moderate
    assert len(result.llm_findings) == 3 and result.verification.over_cap == 1
    assert "stacks ten residual blocks" not in " ".join(f.explanation or "" for f in result.llm_findings)  # the minor one went
    llm_server.script(json.dumps({"findings": found}))
    capped = audit(project_of(paper), llm_server, "fast", settings={"max_findings_per_section": 1})
    [best] = capped.llm_findings
    assert best.severity is Severity.WARNING and best.confidence == 0.8  # major, then the finder's confidence


def test_a_finding_without_an_anchoring_quote_informs_at_most(llm_server, paper):
    llm_server.responder = judged({"The Method": {}})
    llm_server.script(json.dumps({"findings": [finding("method_logic", "", "Method", evidence=[])]}))
    [kept] = audit(project_of(paper), llm_server, "fast").llm_findings
    assert kept.anchored is False and kept.severity is Severity.INFORMATION


def test_a_quote_longer_than_its_block_does_not_anchor_to_it(paper):
    anchorer = Anchorer(project_of(paper))
    invented = LOSS + " It was tuned on the test set for every one of the forty experiments we ran last year."
    assert anchorer.anchor(invented) is False
    assert anchorer.anchor(LOSS).method == "exact"


def test_critical_mode_keeps_the_models_order_with_the_verifiers_severity(llm_server, paper):
    problems = [(METHOD[:40], "minor"), (LOSS[:40], "major"), (RESULT[:30], "moderate"), ("We train every baseline", "major")]

    def model(body: dict[str, Any]) -> str:
        if role(body) == "critical":
            return json.dumps([{"Problem": f"Problem {n}", "Location": f'"{q}"', "Explanation": "e"} for n, (q, _) in enumerate(problems)])
        return judged({q: {"severity": s} for q, s in problems})(body)

    llm_server.responder = model
    result = audit(project_of(paper), llm_server, "critical", settings={"max_findings_per_section": 10})
    shown = sorted(result.llm_findings, key=lambda f: (f.range.start.line, f.range.start.character))
    assert [f.severity for f in shown] == [Severity.INFORMATION, Severity.WARNING, Severity.WARNING, Severity.WARNING]
    capped = audit(project_of(paper), llm_server, "critical", settings={"max_findings_per_section": 1})
    # Method, Experiments: in each section the first problem in the model's order, not the most severe.
    assert {f.message.split(": ", 1)[1][:9] for f in capped.llm_findings} == {"Problem 0", "Problem 2"}


def rule_candidate(project, quote: str, other: str, code: str = "NUM002") -> Finding:
    text = project.source("main.tex").text
    statements = []
    for words in (quote, other):
        start = text.index(words)
        statements.append(
            Statement(file="main.tex", range=span(project, start, start + len(words)), quote=words, subject="accuracy", role="result")
        )
    return Finding(
        code=code,
        category=Category.CONTEXT_MISALIGNMENT,
        severity=Severity.WARNING,
        message=f"'{quote}' disagrees with '{other}'.",
        file="main.tex",
        range=statements[0].range,
        evidence=Evidence(kind="unmeasured class", statements=statements, reason="both report the accuracy of FastNet"),
    ).with_fingerprint()


def span(project, start: int, end: int) -> Range:
    source = project.source("main.tex")
    return Range.of(*source.position(start), *source.position(end))


def test_rule_candidates_are_verified_confirmed_ones_at_the_verifiers_severity_rejected_ones_left_out(llm_server, paper):
    project = project_of(paper)
    confirmed = rule_candidate(project, "12.5", "85.1")
    rejected = rule_candidate(project, "90 epochs", "30 epochs")
    llm_server.responder = judged({"'12.5'": {}, "'90 epochs'": {"valid": False}})
    llm_server.script(json.dumps({"findings": []}))
    result = audit(project, llm_server, "fast", deterministic=[confirmed, rejected])
    verify = [r for r in llm_server.requests if role(r.body) == "verify"]
    statements = [c["statements"] for r in verify for c in candidates_of(r.body)]
    assert sorted([s["quote"] for s in pair] for pair in statements) == [["12.5", "85.1"], ["90 epochs", "30 epochs"]]
    shown = [f for f in result.findings if f.source is Source.RULE]
    assert [(f.code, f.severity, f.verified) for f in shown] == [("NUM002", Severity.WARNING, True)]
    assert "Confirmed by the LLM verifier (major)" in shown[0].explanation
    assert shown[0].evidence is not None and shown[0].evidence.reason.endswith("(verified by loopback-model)")
    assert result.rejected_rules == [rejected] and "1 confirmed, 1 rejected and left out" in result.summary()
    # Without the verifier's word, the same finding informs: its evidence class was never measured precise.
    assert confirmed.calibrated_severity() is Severity.INFORMATION


def test_a_confirmed_rule_finding_is_shown_at_the_verifiers_severity_or_its_own_when_higher(llm_server, paper):
    project = project_of(paper)
    warned = rule_candidate(project, "12.5", "85.1")
    hinted = rule_candidate(project, "90 epochs", "30 epochs").model_copy(update={"severity": Severity.HINT})
    llm_server.responder = judged({"'12.5'": {"severity": "minor"}, "'90 epochs'": {"severity": "minor"}})
    llm_server.script(json.dumps({"findings": []}))
    result = audit(project, llm_server, "fast", deterministic=[warned, hinted])
    shown = {f.message: f.severity for f in result.findings if f.source is Source.RULE}
    # A measured warning that the verifier calls minor stays a warning; a hint it confirms informs.
    assert shown == {warned.message: Severity.WARNING, hinted.message: Severity.INFORMATION}


def test_a_rule_finding_whose_quote_the_verifier_cannot_read_is_not_put_to_it(llm_server, paper):
    # A label is markup the model is not sent: asked, the verifier would reject the finding for want of its quote.
    project = project_of(paper)
    unseen = rule_candidate(project, "\\label{sec:method}", "FastNet stacks ten residual blocks", code="DRF002")
    seen = rule_candidate(project, "12.5", "85.1")
    llm_server.responder = judged({"'12.5'": {"valid": False}, "'\\label": {"valid": False}})
    llm_server.script(json.dumps({"findings": []}))
    result = audit(project, llm_server, "fast", deterministic=[unseen, seen])
    sent = [c["statements"][0]["quote"] for r in llm_server.requests if role(r.body) == "verify" for c in candidates_of(r.body)]
    assert sent == ["12.5"] and result.rejected_rules == [seen]
    shown = [(f.code, f.severity, f.verified) for f in result.findings if f.source is Source.RULE]
    assert shown == [("DRF002", unseen.calibrated_severity(), False)]  # as without an LLM


def test_the_verifier_may_be_another_vendors_model(llm_server, paper):
    llm_server.responder = answer
    settings = {"verifier_provider": "anthropic", "verifier_model": "loopback-judge", "verifier_base_url": llm_server.base_url_anthropic}
    result = audit(project_of(paper), llm_server, "fast", settings=settings)
    by_path = {(r.path, role(r.body), r.model) for r in llm_server.requests}
    assert by_path == {("/v1/chat/completions", "fast", "loopback-model"), ("/v1/messages", "verify", "loopback-judge")}
    assert {f.code for f in result.llm_findings} == {"LLM-CD", "LLM-EP"}
    assert result.stats.stages["detect"].calls == 1 and result.stats.stages["verify"].calls == 1
    assert all("verified by" not in f.explanation for f in result.llm_findings)  # the note names the model
    assert all("Verifier (loopback-judge): " in (f.explanation or "") for f in result.llm_findings)


def test_a_cross_section_finding_is_verified_again_when_the_memory_changed(llm_server, paper, tmp_path, monkeypatch):
    monkeypatch.setattr(modes, "MIN_PART_CHARS", 1)
    cross = finding("context_misalignment", PROTOCOL, "Experiments", evidence=[{"block_index": None, "quote": METHOD}])
    local = finding("claim_distortion", CLAIM, "Introduction")

    def model(body: dict[str, Any]) -> str:
        if role(body) == "section" and "Experiments" in user_text(body).split("TARGET SECTIONS", 1)[1][:40]:
            return json.dumps({"findings": [cross]})
        if role(body) == "section" and "Introduction" in user_text(body).split("TARGET SECTIONS", 1)[1][:40]:
            return json.dumps({"findings": [local]})
        if role(body) == "memory":
            return f"Memory of {json.dumps(body)[-200:-100]}"  # changes whenever the section's text does
        return verifier_answer(body) or json.dumps({"findings": []})

    llm_server.responder = model
    project = project_of(paper)
    cache = LLMCache(tmp_path / "llm-cache")
    audit(project, llm_server, "standard", cache, settings=MEMORY)
    sent = llm_server.request_count
    project.update("main.tex", MAIN.replace("Image classification is a core task.", "Image classification is a core task in vision."))
    audit(project, llm_server, "standard", cache, settings=MEMORY)
    new = llm_server.requests[sent:]
    assert sorted(role(r.body) for r in new if role(r.body) != "verify") == ["memory", "section"]
    # The Experiments review came from the cache (its basis), but its cross-section finding was verified again.
    assert any(PROTOCOL in user_text(r.body) and "<memory>\n{" in user_text(r.body) for r in new if role(r.body) == "verify")
    cache.close()


def test_deep_mode_reads_every_section_and_a_focus_matching_nothing_reads_none(llm_server, tmp_path):
    names = [f"Part {chr(65 + n)}" for n in range(13)]
    body = "\n".join(
        f"\\section{{{name}}}\nSentence {n} of the paper: the {name.lower()} measures {n + 1}.5 units." for n, name in enumerate(names)
    )

    def model(request: dict[str, Any]) -> str:
        if role(request) == "planner":
            tasks = [
                {"task_id": "T1", "focus_sections": ["Part C", "Part D"], "goal": "Compare the units"},
                {"task_id": "T2", "focus_sections": ["Appendix Z of another paper"], "goal": "Nothing to read"},
            ]
            return json.dumps({"tasks": tasks})
        return verifier_answer(request) or json.dumps({"findings": []})

    llm_server.responder = model
    project = make_project(tmp_path / "paper", {"main.tex": document(body)})
    asyncio.run(modes_run(project, llm_server))
    prompts = [r.prompt_text for r in llm_server.requests]
    assert all(any(f"Sentence {n} of the paper" in p for p in prompts) for n in range(13))
    specialists = [r for r in llm_server.requests if role(r.body) == "specialist"]
    assert len(specialists) == 1 and "Compare the units" in specialists[0].prompt_text
    assert "Sentence 2 of" in specialists[0].prompt_text and "Sentence 3 of" in specialists[0].prompt_text


async def modes_run(project, server: LoopbackLLMServer):
    return await run_audit(project, server.settings("openai"), "deep", deterministic=[])


def test_the_merge_goes_in_batches_an_answer_can_hold(llm_server, paper, monkeypatch):
    monkeypatch.setattr(modes, "MERGE_BATCH", 3)
    quotes = ["FastNet stacks", "ten residual blocks", "a learning rate of 0.1", "for 90 epochs", "The loss is", "between predictions"]

    def model(body: dict[str, Any]) -> str:
        if role(body) in ("section", "fast"):
            return json.dumps({"findings": [finding("method_logic", q, "Method") for q in quotes]})
        return answer(body)

    llm_server.responder = model
    result = audit(project_of(paper), llm_server, "deep")
    merges = [r for r in llm_server.requests if role(r.body) == "merge"]
    assert len(merges) >= 4 and all(len(candidates_of(r.body)) <= 3 for r in merges)
    assert result.stats.stages["merge"].calls == len(merges)


def test_per_mode_default_models_reason_in_deep_and_critical():
    openai = LLMSettings(provider="openai")
    assert (openai.for_mode("fast").model, openai.for_mode("fast").reasoning_effort) == ("gpt-4.1-mini", None)
    assert (openai.for_mode("standard").model, openai.for_mode("standard").reasoning_effort) == ("gpt-5", "medium")
    assert (openai.for_mode("deep").model, openai.for_mode("deep").reasoning_effort) == ("gpt-5", "medium")
    anthropic = LLMSettings(provider="anthropic").for_mode("critical")
    assert (anthropic.model, anthropic.thinking_budget) == ("claude-sonnet-4-6", 8000)
    chosen = LLMSettings(provider="openai", model="o3").for_mode("deep")
    assert (chosen.model, chosen.reasoning_effort) == ("o3", "medium")  # a chosen reasoning model gets a budget too
    assert LLMSettings(provider="openai", model="o3", reasoning_effort="low").for_mode("deep").reasoning_effort == "low"
    local = LLMSettings(provider="openai", model="llama-3.1-8b", base_url="http://127.0.0.1:9/v1").for_mode("deep")
    assert (
        local.reasoning_effort is None
        and LLMSettings(provider="anthropic", model="claude-3-5-haiku").for_mode("deep").thinking_budget is None
    )


def test_reasoning_settings_reach_the_wire_with_an_output_budget_that_counts_them(llm_server, paper):
    audit(project_of(paper), llm_server, "fast", settings={"reasoning_effort": "high", "max_output_tokens": 1000})
    sent = llm_server.requests[0].body
    assert sent["reasoning_effort"] == "high" and sent["max_tokens"] == 1000 + 32768 and "temperature" not in sent
    audit(project_of(paper), llm_server, "fast", provider="anthropic", settings={"thinking_budget": 2048, "max_output_tokens": 1000})
    sent = llm_server.requests[-1].body
    assert sent["thinking"] == {"type": "enabled", "budget_tokens": 2048} and sent["max_tokens"] == 3048


def test_reasoning_flags_on_the_command_line(llm_server, paper, monkeypatch, capsys):
    from test_llm_audit import cli

    monkeypatch.setenv("XDG_CACHE_HOME", str(paper.parent / "cache"))
    monkeypatch.setenv("AUDITEX_API_KEY", "loopback-key")
    llm_server.responder = answer
    code, _, err = cli(llm_server, paper, "--mode", "fast", "--reasoning-effort", "low", "--verifier-model", "judge", capsys=capsys)
    assert code == 0, err
    assert {(role(r.body), r.body.get("reasoning_effort"), r.model) for r in llm_server.requests} == {
        ("fast", "low", "loopback-model"),
        ("verify", "low", "judge"),
    }


def test_the_memory_design_costs_grow_linearly_with_the_paper(llm_server, tmp_path):
    """A diligent model (memories, a plan, findings in every review, all merged and confirmed) on papers of
    20 and 40 sections too long for the context window: characters sent per LaTeX character stay bounded
    (the memory and the related passages included), so cost grows linearly."""
    sentence = "The estimator {n} attains a rate of $O(n^{{-1/2}})$ under assumption A{n}, as Table~\\ref{{t{n}}} shows for every dataset."

    def model(body: dict[str, Any]) -> str:
        kind, text = role(body), user_text(body)
        if kind == "memory":
            return "The section states: " + " ".join(text.split()[-120:])
        if kind == "planner":
            names = [json.loads(line)["section"] for line in text.split("<outline>\n", 1)[1].split("\n</outline>", 1)[0].splitlines()]
            return json.dumps({"tasks": [{"focus_sections": names[n : n + 2], "goal": "check the rates"} for n in range(0, 24, 3)]})
        if kind in ("section", "fast", "specialist"):
            first = json.loads(text.split("<paper>\n", 1)[1].splitlines()[0])["latex"]
            return json.dumps({"findings": [finding("method_logic", first[:40], "")]})
        return answer(body)

    llm_server.responder = model
    ratios = {}
    for count in (20, 40):
        body = "\n".join(f"\\section{{Part {n}}}\n" + " ".join(sentence.format(n=n * 10 + k) for k in range(20)) for n in range(count))
        project = make_project(tmp_path / f"paper{count}", {"main.tex": document(body)})
        latex = len(project.source("main.tex").text)
        for mode in ("standard", "deep"):
            start = llm_server.request_count
            settings = llm_server.settings("openai", context_window=12_000)  # too small for either paper: the memory design
            result = asyncio.run(run_audit(project, settings, mode, deterministic=[]))
            assert result.fallback
            sent = sum(len(r.prompt_text) for r in llm_server.requests[start:])
            ratios[count, mode] = sent / latex
            stages = set(result.stats.stages)
            assert stages == ({"memory", "detect", "merge", "verify"} | ({"plan", "specialist"} if mode == "deep" else set()))
            assert sum(stage.calls for stage in result.stats.stages.values()) == result.stats.calls
    assert ratios[20, "standard"] <= 5 and ratios[40, "standard"] <= 5
    assert ratios[20, "deep"] <= 9 and ratios[40, "deep"] <= 9
    assert ratios[40, "standard"] <= 1.2 * ratios[20, "standard"]  # twice the paper, about twice the cost


# Per role: input tokens, of which read from / written to the provider's prompt cache, and output tokens.
USAGE = {
    "memory": (4_000, 1_000, 0, 300),
    "fast": (9_000, 0, 0, 700),
    "section": (5_000, 2_000, 0, 400),
    "planner": (3_000, 1_500, 0, 600),
    "specialist": (7_000, 2_500, 0, 900),
    "merge": (2_000, 0, 0, 250),
    "verify": (6_000, 3_000, 1_200, 150),
}
STAGE = {"memory": "memory", "fast": "detect", "section": "detect", "planner": "plan", "specialist": "specialist"}
# USD per million tokens: (input, cache read, cache write, output) of gpt-5 (OpenAI) and claude-sonnet-4-6 (Anthropic).
RATES = {"gpt-5": (1.25, 0.125, 1.25, 10.0), "claude-sonnet-4-6": (3.0, 0.3, 3.75, 15.0)}


def test_run_stats_count_calls_tokens_cached_tokens_and_cost_per_stage(llm_server, paper):
    """Deep mode with an OpenAI detector and an Anthropic verifier: every stage's calls, input,
    cached and output tokens and cost are the sums of what the server billed that stage's requests."""

    def model(body: dict[str, Any]) -> Reply:
        tokens, read, written, output = USAGE[role(body)]
        return Reply(answer(body), input_tokens=tokens, cache_read_tokens=read, cache_write_tokens=written, output_tokens=output)

    llm_server.responder = model
    settings = {
        "model": "gpt-5",
        "verifier_provider": "anthropic",
        "verifier_model": "claude-sonnet-4-6",
        "verifier_base_url": llm_server.base_url_anthropic,
    }
    result = audit(project_of(paper), llm_server, "deep", settings=settings)
    expected: dict[str, dict[str, float]] = {}
    for request in llm_server.requests:
        kind = role(request.body)
        tokens, read, written, output = USAGE[kind]
        written = written if request.path == "/v1/messages" else 0  # the Chat Completions wire reports no cache writes
        rate_in, rate_read, rate_write, rate_out = RATES[request.model]
        cost = ((tokens - read - written) * rate_in + read * rate_read + written * rate_write + output * rate_out) / 1e6
        stage = expected.setdefault(STAGE.get(kind, kind), {"calls": 0, "input": 0, "read": 0, "written": 0, "output": 0, "cost": 0.0})
        for name, value in (("calls", 1), ("input", tokens), ("read", read), ("written", written), ("output", output), ("cost", cost)):
            stage[name] += value
    assert set(expected) == {"detect", "plan", "specialist", "merge", "verify"}  # the whole paper in view: no memory
    counted = {
        name: {
            "calls": s.calls,
            "input": s.input_tokens,
            "read": s.cache_read_tokens,
            "written": s.cache_write_tokens,
            "output": s.output_tokens,
            "cost": pytest.approx(s.cost_usd),
        }
        for name, s in result.stats.stages.items()
    }
    assert counted == expected
    assert result.stats.calls == len(llm_server.requests)
    assert result.stats.cost_usd == pytest.approx(sum(stage["cost"] for stage in expected.values()))


def test_the_global_memory_stays_within_its_bound_however_many_subsections_a_part_names(llm_server, tmp_path, monkeypatch):
    """A long paper whose parts hold many long-titled subsections, and memories full of characters
    that escaping lengthens: every review still reads at most GLOBAL_MEMORY_CHARS of memory, with a
    line for every part."""
    monkeypatch.setattr(modes, "MIN_PART_CHARS", 1)
    monkeypatch.setattr(modes, "MIN_MEMORY_CHARS", 0)  # written however small each part's share
    title = "A subsection whose title says at length what its proof of Lemma {n} establishes in {k}"
    body = "\n".join(
        f"\\section{{Part {n}}}\nThe part {n} opens.\n"
        + "\n".join(f"\\subsection{{{title.format(n=n, k=k)}}}\nIt shows $x_{{{k}}} < {n}$ for all k." for k in range(6))
        for n in range(40)
    )

    def model(request: dict[str, Any]) -> str:
        if role(request) == "memory":
            return 'The part proves <b> \\bound{x} < y, "quoted". ' * 40
        return verifier_answer(request) or json.dumps({"findings": []})

    llm_server.responder = model
    project = make_project(tmp_path / "paper", {"main.tex": document(body)})
    asyncio.run(run_audit(project, llm_server.settings("openai", context_window=15_000), "standard", deterministic=[]))
    reviews = [user_text(r.body) for r in llm_server.requests if role(r.body) == "section"]
    memories = [text.split("<memory>\n", 1)[1].split("\n</memory>", 1)[0] for text in reviews]
    assert len(reviews) >= 30 and all(len(memory) <= modes.GLOBAL_MEMORY_CHARS for memory in memories)
    lines = [json.loads(line) for line in memories[0].splitlines()]
    assert sum("memory" in line for line in lines) == len(reviews)  # one memory line per part
    assert all(line["memory"].startswith("The part proves <b>") for line in lines if "memory" in line)  # the names left it room


def test_a_book_of_many_parts_is_not_read_for_memories_it_would_keep_a_sentence_of(llm_server, tmp_path, monkeypatch):
    """Each of 40 parts would keep under MIN_MEMORY_CHARS of its memory: no memory call, and the global
    memory names every part with its index facts."""
    monkeypatch.setattr(modes, "MIN_PART_CHARS", 1)
    filler = "It describes the setting of this part at length, without a number. " * 14
    body = "\n".join(f"\\section{{Part {n}}}\n{filler}\nThe part {n} reaches an accuracy of {n}.5 percent on task {n}." for n in range(40))
    llm_server.responder = lambda request: verifier_answer(request) or json.dumps({"findings": []})
    project = make_project(tmp_path / "paper", {"main.tex": document(body)})
    result = asyncio.run(run_audit(project, llm_server.settings("openai", context_window=14_000), "standard", deterministic=[]))
    roles = [role(r.body) for r in llm_server.requests]
    assert result.fallback is not None
    assert "memory" not in roles and roles.count("section") >= 15
    memory = user_text(next(r.body for r in llm_server.requests if role(r.body) == "section")).split("<memory>\n", 1)[1]
    lines = [json.loads(line) for line in memory.split("\n</memory>", 1)[0].splitlines()]
    named = [line["section"] for line in lines if "fact" not in line]  # one line per part, by its sections' names
    assert len(named) == roles.count("section") and not any("memory" in line for line in lines)
    assert any("accuracy of 6.5 percent" in line.get("fact", "") for line in lines)


def test_a_panel_confirms_only_what_every_model_confirms(llm_server, paper):
    """Zhang & Abernethy's rule: a finding is a warning only when every judge agrees."""
    lenient, strict = (
        judged({"FastNet is the first": {}, "We train": {}}),
        judged({"FastNet is the first": {"valid": False}, "We train": {}}),
    )
    llm_server.responder = lambda body: strict(body) if body["model"] == "judge-b" else lenient(body)
    result = audit(project_of(paper), llm_server, "fast", settings={"verifier_model": "judge-a, judge-b"})
    verifying = sorted(r.model for r in llm_server.requests if role(r.body) == "verify")
    assert verifying == ["judge-a", "judge-b"] and result.stats.stages["verify"].calls == 2
    shown = {f.code: f for f in result.llm_findings}
    assert shown["LLM-EP"].severity is Severity.WARNING and "Verifier (judge-a, judge-b): major" in shown["LLM-EP"].explanation
    assert shown["LLM-CD"].severity is Severity.INFORMATION and "not confirmed by every model of the panel" in shown["LLM-CD"].explanation
