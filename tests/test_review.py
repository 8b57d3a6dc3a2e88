"""`auditex review` end to end: the real SDKs talk to the loopback LLM server, related work
comes from a loopback server speaking Semantic Scholar's and OpenAlex's JSON."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import pytest
from llm_server import LoopbackLLMServer, Reply, verifier_answer
from review_fixtures import ScholarlyServer, write_project

from auditex.analyzers.path_check import check_path
from auditex.analyzers.review import run_review
from auditex.analyzers.scholarly.related import SemanticScholarSearch as SemanticScholar
from auditex.cli.main import main

MEMORY = "# Global Summary\nThe paper proposes sparse widgets; accuracy 91.2%.\n# Introduction\nWidgets matter."
BASELINE = """## Summary
The paper proposes sparse widgets (Abstract) and reports 91.2% accuracy (Table 1).
## Strengths
- **Simple method**: training for 10 epochs (Section 3).
## Weaknesses
- **Dangling reference**: the introduction points to a table that does not exist (Section 1).
  - The referenced table is missing (Section 1).
- **Vague claims**: it is faster.
## Suggestions for Improvement
- **Fix the reference**: point Section 1 at Table 1.
## Score
- Overall (10): 5 - limited evidence (Table 1)
- Novelty (10): 4 - incremental (Section 1)
- Technical Quality (10): 5 - short method (Section 3)
- Clarity (10): 6 - readable (Section 1)
- Confidence (5): 3 - short paper (Section 3)
"""
REFINED = BASELINE.replace("- Overall (10): 5", "- Overall (10): 4")
DETECTED = json.dumps(
    {
        "findings": [
            {
                "type": "Claim Distortion",
                "section_location": "Abstract",
                "error_location": "They are 2x faster.",
                "explanation": "The 2x speed-up is never measured anywhere in the paper.",
                "confidence": 0.9,
            }
        ]
    }
)
NOVELTY = "# Innovation & Motivation Report\n1. Authors' Claimed Contribution: sparse widgets (Introduction)."


def scripted_reviewer(body: dict) -> str:
    """Answers each stage by the role its system prompt sets."""
    prompt = json.dumps(body)
    if "meticulous scientific summarizer" in prompt:
        return MEMORY
    if "Senior Area Chair" in prompt:
        return NOVELTY
    if "REFINE an existing baseline review" in prompt:
        return REFINED
    if "experienced reviewer for top-tier" in prompt:
        return BASELINE
    return verifier_answer(body) or DETECTED  # every detection unit of the audit, and its verification


def prompts_sent(server: LoopbackLLMServer) -> list[str]:
    return [request.prompt_text for request in server.requests]


def llm_flags(server: LoopbackLLMServer, provider: str) -> list[str]:
    url = server.base_url_openai if provider == "openai" else server.base_url_anthropic
    return ["--provider", provider, "--base-url", url, "--model", "loopback-model", "--no-cache"]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_review_json_has_refined_scores_points_findings_and_related_work(
    llm_server: LoopbackLLMServer, tmp_path: Path, provider: str, capsys
) -> None:
    llm_server.responder = scripted_reviewer
    project = write_project(tmp_path / "paper")
    with ScholarlyServer() as scholarly:
        code = main(
            [
                "review",
                str(project),
                "--mode",
                "none",
                "--format",
                "json",
                "--related-work",
                "semantic-scholar",
                "--related-work-url",
                f"{scholarly.url}/graph/v1",
                *llm_flags(llm_server, provider),
            ]
        )
        [(path, query)] = scholarly.queries
    assert code == 0
    assert path == "/graph/v1/paper/search" and query["query"] == ["Sparse Widgets for Fast Inference"]
    review = json.loads(capsys.readouterr().out)
    assert review["scores"] == {"overall": 4.0, "novelty": 4.0, "technical_quality": 5.0, "clarity": 6.0, "confidence": 3.0}
    weaknesses = review["review"]["weaknesses"]
    assert [w["title"] for w in weaknesses] == ["Dangling reference", "Vague claims"]
    assert [w["anchored"] for w in weaknesses] == [True, False]
    assert review["unanchored_points"] == 1
    assert review["baseline"] == BASELINE.strip()
    assert [f["code"] for f in review["integrity"]["findings"]].count("REF001") == 1
    novelty = review["novelty"]
    assert novelty["related_work_evidence"] is True
    assert [(w["title"], w["cited_in_manuscript"]) for w in novelty["related_works"]] == [
        ("Dense Widgets", True),
        ("Pruned Gadgets for Efficient Inference", False),
    ]
    assert review["stopped"] is None and review["stats"]["calls"] == 4
    sent = prompts_sent(llm_server)
    # The refinement sees the integrity report and the retrieved work, the novelty stage the memory.
    assert "tab:missing" in sent[3] and "Pruned Gadgets for Efficient Inference" in sent[3]
    assert "sparse widgets; accuracy 91.2%" in sent[2]


def test_markdown_goes_to_the_output_file_and_says_when_there_is_no_related_work(
    llm_server: LoopbackLLMServer, tmp_path: Path, capsys
) -> None:
    llm_server.responder = scripted_reviewer
    project = write_project(tmp_path / "paper")
    out = tmp_path / "review.md"
    code = main(
        [
            "review",
            str(project / "main.tex"),
            "--mode",
            "none",
            "--related-work",
            "none",
            "--output",
            str(out),
            *llm_flags(llm_server, "openai"),
        ]
    )
    assert code == 0
    assert capsys.readouterr().out == ""
    markdown = out.read_text(encoding="utf-8")
    assert markdown.startswith("# Review: Sparse Widgets for Fast Inference")
    assert "- Overall (10): 4" in markdown and "## Weaknesses" in markdown
    assert "No related-work evidence: related-work search is disabled." in markdown
    assert "1 point(s) name no section" in markdown
    assert not any("Senior Area Chair" in p for p in prompts_sent(llm_server))  # nothing to weigh, no call
    assert llm_server.request_count == 3


def _closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


async def test_unreachable_scholarly_service_means_no_evidence_never_invented_work(llm_server: LoopbackLLMServer, tmp_path: Path) -> None:
    llm_server.responder = scripted_reviewer
    session = check_path(write_project(tmp_path / "paper"), use_cache=False)
    review = await run_review(session, llm_server.settings("anthropic"), "none", search=SemanticScholar(_closed_port_url(), timeout_s=2))
    assert review.novelty is not None and review.novelty.evidence is False
    assert review.novelty.related_works == []
    assert "Semantic Scholar is unreachable" in review.novelty.markdown
    assert review.stopped is None and review.structured.scores.overall == 4


def test_budget_stops_the_review_before_any_call(llm_server: LoopbackLLMServer, tmp_path: Path, capsys) -> None:
    project = write_project(tmp_path / "paper")
    flags = llm_flags(llm_server, "openai")
    flags[flags.index("loopback-model")] = "gpt-4.1-mini"  # a priced model, so the budget can bite
    code = main(["review", str(project), "--mode", "none", "--related-work", "none", "--budget", "0.000001", *flags])
    captured = capsys.readouterr()
    assert code == 2
    assert "budget" in captured.err and "Review incomplete" in captured.out
    assert llm_server.request_count == 0


async def test_cancelling_after_the_memory_keeps_the_memory_and_sends_nothing_more(llm_server: LoopbackLLMServer, tmp_path: Path) -> None:
    llm_server.responder = scripted_reviewer
    session = check_path(write_project(tmp_path / "paper"), use_cache=False)
    cancel = asyncio.Event()
    stages: list[str] = []

    def progress(stage: str, done: int, total: int) -> None:
        stages.append(stage)
        if stage == "baseline":
            cancel.set()

    review = await run_review(session, llm_server.settings("openai"), "none", on_progress=progress, cancel=cancel)
    assert review.stopped == "The review was cancelled."
    assert review.memory == MEMORY and review.baseline == "" and stages == ["memory", "baseline"]
    assert llm_server.request_count == 1
    assert "Review incomplete" in review.markdown


async def test_a_hanging_call_is_cancelled_mid_flight(llm_server: LoopbackLLMServer, tmp_path: Path) -> None:
    llm_server.script(Reply.hang())
    session = check_path(write_project(tmp_path / "paper"), use_cache=False)
    cancel = asyncio.Event()
    asyncio.get_running_loop().call_later(0.3, cancel.set)
    review = await asyncio.wait_for(run_review(session, llm_server.settings("openai"), "none", cancel=cancel), 10)
    assert review.stopped == "The review was cancelled." and review.memory == ""


def test_review_of_a_missing_path_is_a_clear_error(tmp_path: Path, capsys) -> None:
    assert main(["review", str(tmp_path / "nope"), "--related-work", "none"]) == 2
    assert "does not exist" in capsys.readouterr().err


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_standard_mode_puts_llm_findings_in_the_integrity_report(
    llm_server: LoopbackLLMServer, tmp_path: Path, provider: str, capsys
) -> None:
    llm_server.responder = scripted_reviewer
    project = write_project(tmp_path / "paper")
    code = main(["review", str(project), "--format", "json", "--related-work", "none", *llm_flags(llm_server, provider)])
    assert code == 0, capsys.readouterr().err
    review = json.loads(capsys.readouterr().out)
    llm_findings = [f for f in review["integrity"]["findings"] if f["source"] == "llm"]
    assert llm_findings and all(f["category"] == "claim_distortion" for f in llm_findings)
    assert "REF001" in {f["code"] for f in review["integrity"]["findings"]}
    refine_prompt = next(p for p in prompts_sent(llm_server) if "REFINE an existing baseline review" in p)
    assert "never measured" in refine_prompt
    assert review["stats"]["calls"] > 3  # the review's three calls plus the audit's


def test_unknown_mode_is_a_usage_error(tmp_path: Path, capsys) -> None:
    project = write_project(tmp_path / "paper")
    assert main(["review", str(project), "--mode", "thorough", "--related-work", "none"]) == 2
    assert "unknown mode 'thorough'" in capsys.readouterr().err
