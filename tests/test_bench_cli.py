"""`auditex bench` on tiny hand-made datasets whose numbers were worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llm_server import LoopbackLLMServer, verifier_answer
from review_fixtures import write_project

from auditex.cli.main import main


def _bench(capsys, *args: str) -> dict:
    assert main(["bench", *args, "--format", "json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_flaws_accuracy_at_k(tmp_path: Path, capsys) -> None:
    data = _write(
        tmp_path / "flaws.json",
        [
            {
                "error_id": "a",
                "ground_truth": ["The model reaches 91 percent accuracy on the test set."],
                "predictions": [{"quote": "The model reaches 91 percent accuracy on the test set."}],
            },
            {
                "error_id": "b",
                "ground_truth": ["We train for ten epochs."],
                "predictions": [{"quote": "Something else entirely here.", "rank": 0}, {"quote": "We train for ten epochs.", "rank": 1}],
            },
            {"error_id": "c", "ground_truth": ["Nobody found this."], "predictions": []},
        ],
    )
    report = _bench(capsys, "flaws", str(data))
    # a hits at rank 1, b at rank 2, c never: 1/3 at k=1, 2/3 from k=3 on.
    assert report["accuracy"] == pytest.approx({"1": 1 / 3, "3": 2 / 3, "6": 2 / 3, "10": 2 / 3})
    assert report["n_errors"] == 3


def test_agentic_recall(tmp_path: Path, capsys) -> None:
    data = _write(
        tmp_path / "agentic.json",
        {
            "perturbations": [
                {
                    "paper_id": "p1",
                    "perturbation_id": "1",
                    "error_type": "numeric",
                    "perturbed_text": "accuracy of $93.5$",
                    "why_wrong": "changed",
                },
                {
                    "paper_id": "p1",
                    "perturbation_id": "2",
                    "error_type": "logic",
                    "perturbed_text": "therefore it always converges",
                    "why_wrong": "overclaim",
                },
                {
                    "paper_id": "p2",
                    "perturbation_id": "1",
                    "error_type": "numeric",
                    "perturbed_text": "trained for 100 epochs",
                    "why_wrong": "changed",
                },
            ],
            "comments": {"p1": [{"quote": "Accuracy of \\(93.5\\)", "explanation": "mismatch"}]},
        },
    )
    report = _bench(capsys, "agentic", str(data))
    assert (report["overall"]["detected"], report["overall"]["injected"]) == (1, 3)
    assert report["overall"]["recall"] == pytest.approx(1 / 3)
    assert report["by_type"]["numeric"]["recall"] == pytest.approx(0.5) and report["by_type"]["logic"]["recall"] == 0


def test_surgical_rates_and_effect(tmp_path: Path, capsys) -> None:
    data = _write(
        tmp_path / "surgical.json",
        [
            {
                "triplet_id": "1",
                "category": "A",
                "detected_in_flawed": True,
                "flagged_after_genuine": False,
                "flagged_after_superficial": True,
                "genuine_score": 7,
                "superficial_score": 5,
            },
            {
                "triplet_id": "2",
                "category": "A",
                "detected_in_flawed": True,
                "flagged_after_genuine": True,
                "flagged_after_superficial": True,
                "genuine_score": 8,
                "superficial_score": 5,
            },
            {
                "triplet_id": "3",
                "category": "B",
                "detected_in_flawed": False,
                "flagged_after_genuine": False,
                "flagged_after_superficial": False,
                "genuine_score": 9,
                "superficial_score": 6,
            },
        ],
    )
    categories = _bench(capsys, "surgical", str(data))["categories"]
    assert categories["A"]["clear_rate_genuine"] == 0.5 and categories["A"]["persist_rate_superficial"] == 1.0
    assert categories["B"]["clear_rate_genuine"] is None
    # Differences 2, 3, 3: mean 8/3, sd sqrt(1/3), d = (8/3) / 0.57735 = 4.6188.
    assert categories["(all)"]["effect"]["d"] == pytest.approx(4.6188, abs=1e-4)


def test_localisation_of_injected_errors_by_the_deterministic_rules(tmp_path: Path, capsys) -> None:
    project = write_project(tmp_path / "paper")
    patches = _write(
        tmp_path / "patches.json",
        [
            {
                "target_find": r"Section~\ref{sec:method}",
                "replacement": r"Section~\ref{sec:methods}",
                "corruption_type": "Context Misalignment (CM)",
            },
            {
                "target_find": "learning rate of 0.01",
                "replacement": "learning rate of 0.1",
                "corruption_type": "Experiment Protocol Flaws (EP)",
            },
        ],
    )
    injected = tmp_path / "injected"
    assert main(["inject", str(project), "--patches", str(patches), "--out", str(injected / "paper1")]) == 0
    capsys.readouterr()
    report = _bench(capsys, "localisation", str(injected))
    # The dangling \ref lies inside the first edit; no rule sees the changed learning rate.
    assert (report["located"], report["total"], report["recall"]) == (1, 2, 0.5)


PAPER = {
    "paper_id": "p1",
    "content": [
        {"index": 0, "section": "Introduction", "type": "text", "text": "We study widgets."},
        {"index": 1, "section": "Results", "type": "text", "text": "Our method reaches 91.2% accuracy, beating all baselines."},
    ],
    "edits": [
        {
            "target_find": "91.2%",
            "replacement": "97.5%",
            "corruption_type": "Evidence Manipulation (EM)",
            "location": "Results",
            "error_explanation": "inflated",
        },
        {
            "target_find": "widgets",
            "replacement": "gadgets",
            "corruption_type": "Context Misalignment (CM)",
            "location": "Introduction",
            "error_explanation": "topic swap",
        },
    ],
}
MATCHING = json.dumps(
    {
        "matches": [
            {"gt_index": 0, "matched": True, "matched_pred_indices": [1], "rationale": "same"},
            {"gt_index": 1, "matched": False, "matched_pred_indices": [], "rationale": "no"},
        ]
    }
)


def _llm_flags(server: LoopbackLLMServer, provider: str) -> list[str]:
    url = server.base_url_openai if provider == "openai" else server.base_url_anthropic
    return ["--provider", provider, "--base-url", url, "--model", "loopback-model", "--no-cache"]


def test_paperaudit_with_given_predictions_and_the_matching_judge(llm_server: LoopbackLLMServer, tmp_path: Path, capsys) -> None:
    (tmp_path / "papers").mkdir()
    _write(tmp_path / "papers" / "p1.json", PAPER)
    predictions = _write(
        tmp_path / "predictions.json",
        {
            "p1": [
                {"quote": "We study", "type": "rhetoric_bias", "section": "Introduction"},
                {"quote": "97.5%", "type": "Evidence Manipulation (EM)", "section": "Results"},
            ]
        },
    )
    llm_server.script(MATCHING)
    report = _bench(capsys, "paperaudit", str(tmp_path / "papers"), "--predictions", str(predictions), *_llm_flags(llm_server, "openai"))
    # One of two GT errors matched (EC 0.5), one of two findings matched (FP 0.5): F1 0.5.
    assert report["overall"] == {"n_papers": 1, "error_coverage": 0.5, "finding_precision": 0.5, "macro_f1": 0.5}
    assert report["by_type"]["evidence_manipulation_em"]["error_coverage"] == 1.0
    assert report["by_section"]["introduction"]["error_coverage"] == 0.0
    assert report["llm"]["calls"] == 1 and "97.5%" in llm_server.requests[0].prompt_text


def test_paperaudit_runs_a_mode_on_the_corrupted_paper(llm_server: LoopbackLLMServer, tmp_path: Path, capsys) -> None:
    (tmp_path / "papers").mkdir()
    _write(tmp_path / "papers" / "p1.json", PAPER)
    detected = json.dumps(
        {
            "findings": [
                {
                    "type": "Evidence Manipulation",
                    "section_location": "Results",
                    "error_location": "reaches 97.5% accuracy",
                    "explanation": "too good",
                    "confidence": 0.9,
                }
            ]
        }
    )

    def answer(body: dict) -> str:
        prompt = json.dumps(body)
        return MATCHING.replace("[1]", "[0]") if "careful adjudicator" in prompt else verifier_answer(body) or detected

    llm_server.responder = answer
    report = _bench(capsys, "paperaudit", str(tmp_path / "papers"), "--mode", "fast", *_llm_flags(llm_server, "anthropic"))
    detection_prompt = llm_server.requests[0].prompt_text
    assert r"97.5\\%" in detection_prompt and "91.2" not in detection_prompt  # the mode saw the corrupted paper
    assert report["overall"]["error_coverage"] == 0.5 and report["overall"]["finding_precision"] == 1.0


def test_bad_dataset_is_a_clear_error(tmp_path: Path, capsys) -> None:
    bad = _write(tmp_path / "flaws.json", [{"error_id": "a"}])
    assert main(["bench", "flaws", str(bad)]) == 2
    assert "ground_truth" in capsys.readouterr().err


def test_critical_hit_rate_and_precision_at_k(llm_server: LoopbackLLMServer, tmp_path: Path, capsys) -> None:
    data = _write(
        tmp_path / "critical.json",
        [
            {
                "paper_id": "a",
                "retraction_comment": "Lemma 2 is false.",
                "paper_text": "paper a",
                "problems": [{"title": "Typo in Table 1"}, {"title": "Lemma 2 does not hold"}],
            },
            {
                "paper_id": "b",
                "retraction_comment": "Data leak.",
                "paper_text": "paper b",
                "problems": [{"title": "Test data leaks into training"}],
            },
        ],
    )

    def judge(body: dict) -> str:
        prompt = json.dumps(body)
        if "critical problem in it" in prompt:  # true-positive judge: only the typo is not a real problem
            return "No" if "Typo" in prompt else "Yes"
        return "Yes" if ("Lemma 2 does not hold" in prompt or "leaks" in prompt) else "No"

    llm_server.responder = judge
    at_1 = _bench(capsys, "critical", str(data), "-k", "1", *_llm_flags(llm_server, "openai"))
    # k=1: paper a's first problem is the typo (no hit, not a true positive); paper b hits.
    assert (at_1["hit_rate"], at_1["average_precision"]) == (0.5, 0.5)
    at_2 = _bench(capsys, "critical", str(data), "-k", "2", *_llm_flags(llm_server, "openai"))
    # k=2: both papers hit; precision a = 1/2, b = 1/1, mean 0.75.
    assert (at_2["hit_rate"], at_2["average_precision"]) == (1.0, 0.75)
