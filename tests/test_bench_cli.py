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
    assert report["judge"] == "loopback-model"
    assert report["llm"]["loopback-model"]["calls"] == 1 and "97.5%" in llm_server.requests[0].prompt_text


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
    assert (
        main(["bench", "paperaudit", str(tmp_path / "papers"), "--mode", "fast", *_llm_flags(llm_server, "anthropic"), "--format", "json"])
        == 0
    )
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    detection_prompt = llm_server.requests[0].prompt_text
    assert r"97.5\\%" in detection_prompt and "91.2" not in detection_prompt  # the mode saw the corrupted paper
    assert report["overall"]["error_coverage"] == 0.5 and report["overall"]["finding_precision"] == 1.0
    # On a compatible server the only model auditex knows is --model, so it detects and judges: said so.
    assert "warning: fast mode: loopback-model judges output of its own model" in captured.err


def test_paperaudit_leaves_failed_patches_out_of_the_ground_truth(llm_server: LoopbackLLMServer, tmp_path: Path, capsys) -> None:
    (tmp_path / "papers").mkdir()
    broken = {**PAPER, "edits": [*PAPER["edits"], {"target_find": "not in the paper", "replacement": "x", "corruption_type": "RB"}]}
    _write(tmp_path / "papers" / "p1.json", broken)
    predictions = _write(tmp_path / "predictions.json", {"p1": [{"quote": "97.5%", "type": "Evidence Manipulation (EM)"}]})
    llm_server.script(MATCHING.replace("[1]", "[0]"))
    report = _bench(capsys, "paperaudit", str(tmp_path / "papers"), "--predictions", str(predictions), *_llm_flags(llm_server, "openai"))
    # Two applied GT errors, one matched: EC 1/2, as without the patch that changed nothing (not 1/3).
    assert report["unapplied_patches"] == 1
    assert report["overall"]["error_coverage"] == 0.5
    assert "not in the paper" not in llm_server.requests[0].prompt_text


def test_bad_dataset_is_a_clear_error(tmp_path: Path, capsys) -> None:
    bad = _write(tmp_path / "flaws.json", [{"error_id": "a"}])
    assert main(["bench", "flaws", str(bad)]) == 2
    assert "ground_truth" in capsys.readouterr().err


CRITICAL = [
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
]


def test_critical_hit_rate_and_precision_at_k(llm_server: LoopbackLLMServer, tmp_path: Path, capsys) -> None:
    data = _write(tmp_path / "critical.json", CRITICAL)

    def judge(body: dict) -> str:
        prompt = json.dumps(body)
        if "critical problem in it" in prompt:  # true-positive judge: only the typo is not a real problem
            return "No, it is a false alarm" if "Typo" in prompt else "Based on the paper:\n\n**Yes, it is a true problem.**"
        return "Yes" if ("Lemma 2 does not hold" in prompt or "leaks" in prompt) else "No"

    llm_server.responder = judge
    at_1 = _bench(capsys, "critical", str(data), "-k", "1", *_llm_flags(llm_server, "openai"))
    # k=1: paper a's first problem is the typo (no hit, not a true positive); paper b hits.
    assert (at_1["hit_rate"], at_1["average_precision"]) == (0.5, 0.5)
    at_2 = _bench(capsys, "critical", str(data), "-k", "2", *_llm_flags(llm_server, "openai"))
    # k=2: both papers hit; precision a = 1/2, b = 1/1, mean 0.75.
    assert (at_2["hit_rate"], at_2["average_precision"]) == (1.0, 0.75)
    assert at_2["judges"] == ["loopback-model"] and at_2["replay"] is False


def test_critical_panel_of_judges_on_two_providers_votes_per_paper(llm_server: LoopbackLLMServer, tmp_path: Path, capsys) -> None:
    data = _write(tmp_path / "critical.json", CRITICAL)

    def judge(body: dict) -> str:
        prompt, model = json.dumps(body), body["model"]
        if "critical problem in it" in prompt:
            return "Yes, it is a true problem" if model == "judge-a" or "Lemma" in prompt else "No, it is a false alarm"
        if model == "judge-a":  # A: the typo is the retracted problem (!), the leak too
            return "Yes" if ("Typo" in prompt or "leaks" in prompt) else "No"
        return "**Yes.**" if "Lemma 2 does not hold" in prompt else "No"  # B: the lemma only

    llm_server.responder = judge
    record = tmp_path / "verdicts.json"
    report = _bench(
        capsys,
        "critical",
        str(data),
        "--judge-model",
        f"openai:judge-a@{llm_server.base_url_openai}",
        "--judge-model",
        f"anthropic:judge-b@{llm_server.base_url_anthropic}",
        "--record",
        str(record),
        "--no-cache",
    )
    # Paper a: A votes hit (the typo), B votes hit (the lemma): both judges, different problems ->
    # a hit. Paper b: only A. HR@5 = 1/2 with both judges, A alone 1, B alone 1/2.
    assert report["hit_rate"] == 0.5
    assert report["by_judge"]["judge-a"]["hit_rate"] == 1.0 and report["by_judge"]["judge-b"]["hit_rate"] == 0.5
    # True positives: A says yes to all three; B to the lemma only. Both: a 1/2, b 0/1 -> 0.25.
    assert report["average_precision"] == 0.25
    assert set(report["llm"]) == {"judge-a", "judge-b"}
    models = {(r.model, "anthropic" if "/v1/messages" in r.path else "openai") for r in llm_server.requests}
    assert models == {("judge-a", "openai"), ("judge-b", "anthropic")}
    # A stops at its first Yes (the typo of paper a): it never saw the lemma.
    hits_a = [r for r in llm_server.requests if r.model == "judge-a" and "retraction comment" in r.prompt_text]
    assert len(hits_a) == 2
    # The recorded verdicts replay to the same numbers, with no LLM call.
    calls = llm_server.request_count
    replayed = _bench(capsys, "critical", str(record), "--replay")
    assert (replayed["hit_rate"], replayed["average_precision"]) == (0.5, 0.25)
    assert llm_server.request_count == calls
    # With a majority rule, one of two judges is not enough: only paper a has both.
    assert _bench(capsys, "critical", str(record), "--replay", "--rule", "majority")["hit_rate"] == 0.5


REPLAY_DATA = {
    "checker": "o3",
    "papers": [
        {"paper_id": "p1", "retraction_comment": "Lemma 2 is false.", "problems": [{"title": "Typo"}, {"title": "Lemma 2"}]},
        {"paper_id": "p2", "retraction_comment": "Data leak.", "problems": [{"title": "Leak"}]},
        {"paper_id": "p3", "retraction_comment": "Wrong sign.", "problems": []},
    ],
    "verdicts": [
        {"paper_id": "p1", "problem": 0, "judge": "o3", "question": "hit", "verdict": False},
        {"paper_id": "p1", "problem": 1, "judge": "o3", "question": "hit", "verdict": True},
        {"paper_id": "p2", "problem": 0, "judge": "o3", "question": "hit", "answer": "No. The Bayesian model is fine."},
        {"paper_id": "p1", "problem": 0, "judge": "o3", "question": "true_positive", "answer": "**No, it is a false alarm.**"},
        {"paper_id": "p1", "problem": 1, "judge": "o3", "question": "true_positive", "verdict": True},
        {"paper_id": "p2", "problem": 0, "judge": "o3", "question": "true_positive", "verdict": True, "answer": "Mayes et al. show it."},
    ],
}


def test_critical_replay_of_recorded_verdicts_and_answers(tmp_path: Path, capsys) -> None:
    data = _write(tmp_path / "replay.json", {**REPLAY_DATA, "verdicts": REPLAY_DATA["verdicts"][:3]})
    # The true-positive verdicts in their own file, as JSON Lines.
    tp = tmp_path / "tp.jsonl"
    tp.write_text("\n".join(json.dumps(v) for v in REPLAY_DATA["verdicts"][3:]) + "\n", encoding="utf-8")
    assert main(["bench", "critical", str(data), "--replay", "--verdicts", str(tp), "--format", "json"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    # HR: p1 hit (problem 1), p2 "No" (the answer, read: "Bayesian" is no Yes), p3 no problems: 1/3.
    assert report["hit_rate"] == pytest.approx(1 / 3)
    # AP: p1 1/2, p2 1 (its recorded verdict): 0.75; re-reading p2's answer finds nothing: unreadable, No.
    assert report["average_precision"] == 0.75
    assert report["problems"]["papers_without_problems"] == 1
    assert "o3 judges output of its own model" in captured.err
    reread = _bench(capsys, "critical", str(data), "--replay", "--verdicts", str(tp), "--reread")
    assert reread["average_precision"] == 0.25
    assert reread["precision_judging"]["o3"]["unreadable"] == 1
    # The text report is a table with the panel's and each judge's columns.
    assert main(["bench", "critical", str(data), "--replay", "--verdicts", str(tp)]) == 0
    table = capsys.readouterr().out
    assert "HR@5 all judges" in table and "AP@5 o3" in table and "33.3" in table and "75.0" in table


def test_critical_replay_refuses_what_it_cannot_replay(tmp_path: Path, capsys) -> None:
    bare = _write(tmp_path / "bare.json", REPLAY_DATA["papers"])
    assert main(["bench", "critical", str(bare), "--replay"]) == 2
    assert "no recorded verdicts" in capsys.readouterr().err
    assert main(["bench", "flaws", str(bare), "--replay"]) == 2
    assert "takes no recorded verdicts" in capsys.readouterr().err
    assert main(["bench", "critical", str(bare), "--verdicts", str(bare)]) == 2
    assert "--replay" in capsys.readouterr().err
    stray = _write(tmp_path / "stray.json", [{"paper_id": "p9", "problem": 0, "judge": "j", "question": "hit", "verdict": True}])
    assert main(["bench", "critical", str(bare), "--replay", "--verdicts", str(stray)]) == 2
    assert "p9" in capsys.readouterr().err
    data = _write(tmp_path / "replay.json", REPLAY_DATA)
    assert main(["bench", "critical", str(data), "--replay", "--judge-model", "gpt-5"]) == 2
    assert "no recorded judge 'gpt-5'" in capsys.readouterr().err


def _release(root: Path) -> Path:
    """A two-paper copy of the WithdrarXiv-Check layout, with its files' own field names."""
    outputs = root / "LLM_outputs"
    for folder in ("checker_problems", "eval_hit", "eval_tp"):
        (outputs / folder).mkdir(parents=True)
    entries = [
        {
            "entry_id": 0,
            "paper_id": "2101.00001v1",
            "retraction_comment": "Lemma 2 is false.",
            "checker_model": "o4-mini",
            "problems": [
                {"Problem": "Typo", "Location": "p. 1", "Explanation": "e"},
                {"Problem": "Lemma 2", "Location": "Sec. 3", "Explanation": "e"},
            ],
        },
        {"entry_id": 1, "paper_id": "2101.00002v2", "retraction_comment": "Leak.", "checker_model": "o4-mini", "problems": []},
    ]
    _write(outputs / "checker_problems" / "checker_problems_o4mini.json", entries)

    def judged(judge: str, problem: int | None, key: str, value: bool, response: str | None, entry: int = 0) -> dict:
        return {
            "entry_id": entry,
            "paper_id": entries[entry]["paper_id"],
            "problem_id": problem,
            "judge_model": judge,
            "judge_response": response,
            key: value,
        }

    _write(
        outputs / "eval_hit" / "eval_hit_o4mini_o3.json",
        [
            judged("o3", 0, "hit", False, "No."),
            judged("o3", 1, "hit", True, "Yes."),
            judged("o3", None, "hit", False, None, entry=1),
        ],
    )
    _write(
        outputs / "eval_hit" / "eval_hit_o4mini_Gemini.json",
        [
            judged("Gemini 2.5 Pro", 0, "hit", True, "Yes"),
            judged("Gemini 2.5 Pro", None, "hit", False, None, entry=1),
        ],
    )
    _write(
        outputs / "eval_tp" / "eval_tp_o4mini_o3.json",
        [
            judged("o3", 0, "true_positive", True, "No, it is a false alarm (a full Bayesian treatment is not needed)."),
            judged("o3", 1, "true_positive", True, "Yes, it is a true problem."),
        ],
    )
    return root


def test_critical_replay_reads_the_withdrarxiv_release_as_it_is(tmp_path: Path, capsys) -> None:
    root = _release(tmp_path / "release")
    report = _bench(capsys, "critical", str(root), "--replay")
    entry = report["configurations"]["o4mini"]
    assert (entry["checker"], entry["input"], entry["n_papers"]) == ("o4-mini", "PDF", 2)
    # Both judges vote a hit on paper 1 (o3 on the lemma, Gemini on the typo): HR 1/2.
    assert entry["hit_rate"] == 0.5
    # Only o3 judged precision: the panel's AP is undecided, o3's is 1 as recorded, 1/2 re-read.
    assert entry["average_precision"] is None and entry["by_judge"]["o3"]["average_precision"] == 1.0
    assert entry["precision_judging"]["Gemini 2.5 Pro"]["not_judged"] == 2
    assert (
        _bench(capsys, "critical", str(root), "--replay", "--reread")["configurations"]["o4mini"]["by_judge"]["o3"]["average_precision"]
        == 0.5
    )
    # One checker file with its judges' files, given one by one, is the same configuration.
    files = root / "LLM_outputs"
    single = _bench(
        capsys,
        "critical",
        str(files / "checker_problems" / "checker_problems_o4mini.json"),
        "--replay",
        *("--verdicts", str(files / "eval_hit" / "eval_hit_o4mini_o3.json")),
        *("--verdicts", str(files / "eval_hit" / "eval_hit_o4mini_Gemini.json")),
        "--judge-model",
        "o3",
    )
    assert (single["judges"], single["hit_rate"]) == (["o3"], 0.5)
    # --export writes the documented replay format, which replays to the same numbers.
    exported = tmp_path / "exported"
    _bench(capsys, "critical", str(root), "--replay", "--export", str(exported))
    again = _bench(capsys, "critical", str(exported / "o4mini.json"), "--replay")
    assert (again["hit_rate"], again["by_judge"]["o3"]["average_precision"]) == (0.5, 1.0)


def test_judge_specs_and_the_default_judge() -> None:
    from auditex.analyzers.llm.settings import LLMSettings
    from auditex.evaluation.runner import judge_settings, parse_judge_spec

    assert parse_judge_spec("anthropic:claude-sonnet-4-6") == ("anthropic", "claude-sonnet-4-6", None)
    assert parse_judge_spec("openai:qwen3@http://127.0.0.1:8000/v1") == ("openai", "qwen3", "http://127.0.0.1:8000/v1")
    assert parse_judge_spec("llama3:8b") == (None, "llama3:8b", None)  # an Ollama tag, not a provider
    with pytest.raises(ValueError):
        parse_judge_spec("openai:")
    official = LLMSettings(provider="openai", model="gpt-4.1-mini")
    # The default judge is not the detector's model.
    assert [name for name, _ in judge_settings([], official)] == ["gpt-4.1"]
    assert [name for name, _ in judge_settings([], official.model_copy(update={"model": "gpt-4.1"}))] == ["gpt-5"]
    assert [s.model for _, s in judge_settings([], LLMSettings(provider="anthropic", model="claude-sonnet-4-6"))] == ["claude-opus-4-6"]
    local = LLMSettings(provider="openai", model="qwen3", base_url="http://127.0.0.1:11434/v1")
    assert [name for name, _ in judge_settings([], local)] == ["qwen3"]
    # Each judge on its own provider; the detector's server only for the detector's provider.
    panel = dict(judge_settings(["anthropic:claude-sonnet-4-6", "llama3:8b"], local))
    assert (panel["claude-sonnet-4-6"].provider, panel["claude-sonnet-4-6"].base_url) == ("anthropic", None)
    assert (panel["llama3:8b"].provider, panel["llama3:8b"].base_url) == ("openai", "http://127.0.0.1:11434/v1")
    with pytest.raises(ValueError, match="same judge twice"):
        judge_settings(["o3", "o3"], official)
