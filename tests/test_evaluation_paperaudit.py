"""PaperAudit EC / FP / Macro-F1 (§5.1) with the Table 21 matcher, on hand-made papers."""

import json

import pytest

from auditex.evaluation.paperaudit import (
    DatasetError,
    EditPatch,
    MatchedPaper,
    Matching,
    PaperAuditPaper,
    evaluate_paperaudit,
    load_paperaudit_dir,
    load_paperaudit_paper,
    normalise_label,
    paper_score,
    parse_matching,
    score_matched,
)
from auditex.evaluation.predictions import Prediction


def patch(kind, location, find="x"):
    return EditPatch(target_find=find, replacement="y", corruption_type=kind, location=location)


# Paper A: two GT errors, three findings; the judge matches GT 0 with finding 0.
A_PATCHES = [patch("evidence_manipulation", "Experiments", "ACC_A"), patch("claim_distortion", "Abstract")]
A_FINDINGS = [
    Prediction(quote="q0", type="Evidence Manipulation", section="4 Experiments"),
    Prediction(quote="q1", type="Claim Distortion", section="Introduction"),
    Prediction(quote="q2", type="evidence-manipulation", section="Experiments"),
]
# Paper B: one GT error, one finding, matched.
B_PATCHES = [patch("claim_distortion", "Abstract", "ACC_B")]
B_FINDINGS = [Prediction(quote="q", type="claim_distortion", section="Abstract")]


def test_paper_f1_is_the_harmonic_mean():
    # EC = 1/2, FP = 1/3: F1 = 2 (1/2)(1/3) / (5/6) = 0.4.
    assert paper_score(2, 1, 3, 1).f1 == pytest.approx(0.4)
    # No findings: FP = 0, and with EC = 0 too, F1 = 0 rather than 0/0.
    assert paper_score(1, 0, 0, 0).f1 == 0.0
    with pytest.raises(ValueError):
        paper_score(0, 0, 1, 0)


def test_scores_by_hand():
    report = score_matched(
        [
            MatchedPaper(A_PATCHES, A_FINDINGS, Matching(frozenset({0}), frozenset({0}))),
            MatchedPaper(B_PATCHES, B_FINDINGS, Matching(frozenset({0}), frozenset({0}))),
        ]
    )
    # A: EC 1/2, FP 1/3, F1 0.4.  B: EC 1, FP 1, F1 1.
    # EC = 0.75, FP = 2/3, Macro-F1 = (0.4 + 1) / 2 = 0.7 (not F1 of the means, 0.7059).
    assert report.overall.error_coverage == pytest.approx(0.75)
    assert report.overall.finding_precision == pytest.approx(2 / 3)
    assert report.overall.macro_f1 == pytest.approx(0.7)
    # evidence_manipulation, only A: GT 0 matched -> EC 1; findings typed EM are 0 (matched)
    # and 2 (not) -> FP 1/2; F1 = 2/3.
    em = report.by_type["evidence_manipulation"]
    assert (em.n_papers, em.error_coverage, em.finding_precision) == (1, 1.0, 0.5)
    assert em.macro_f1 == pytest.approx(2 / 3)
    # claim_distortion: A has GT 1 unmatched and finding 1 unmatched -> 0, 0, 0; B -> 1, 1, 1.
    cd = report.by_type["claim_distortion"]
    assert (cd.n_papers, cd.error_coverage, cd.finding_precision, cd.macro_f1) == (2, 0.5, 0.5, 0.5)
    # Sections: "4 Experiments" groups with "Experiments"; A's abstract error has no finding
    # in the abstract (FP 0) -> abstract = mean of (0, 0, 0) and (1, 1, 1).
    assert report.by_section["experiments"].macro_f1 == pytest.approx(2 / 3)
    assert report.by_section["abstract"].macro_f1 == 0.5
    assert report.judge_failures == 0


def test_papers_without_ground_truth_are_skipped_and_counted():
    report = score_matched([MatchedPaper([], B_FINDINGS, Matching(frozenset(), frozenset()))])
    assert report.overall.n_papers == 0
    assert report.skipped_without_ground_truth == 1


def test_normalise_label():
    assert normalise_label("3.1 Method-Logic ") == normalise_label("method_logic") == "method_logic"
    assert normalise_label(None) == ""


def test_parse_matching_is_conservative():
    answer = json.dumps(
        {
            "matches": [
                {"gt_index": 0, "matched": True, "matched_pred_indices": [0, 9]},  # 9 is out of range
                {"gt_index": 1, "matched": True, "matched_pred_indices": []},  # no evidence: not a match
                {"gt_index": "2", "matched": True, "matched_pred_indices": [1]},  # not an int
                {"gt_index": 3, "matched": "yes", "matched_pred_indices": [2]},  # not a boolean true
            ]
        }
    )
    assert parse_matching(answer, n_errors=4, n_findings=3) == Matching(frozenset({0}), frozenset({0}))
    assert parse_matching("no JSON at all", 1, 1) is None
    assert parse_matching('{"result": []}', 1, 1) is None


class Matcher:
    """Answers Table 21 per paper, recognising it by a marker in its ground truth."""

    def __init__(self, answers):
        self.answers, self.calls = answers, []

    async def __call__(self, system, user):
        self.calls.append((system, user))
        return next(answer for marker, answer in self.answers.items() if marker in user)


def paperaudit(paper_id, patches, text=None):
    """A one-block paper holding every patch's target text (so that every patch applies), or `text`."""
    text = " ".join(p.target_find for p in patches) if text is None else text
    return PaperAuditPaper(paper_id=paper_id, content=[{"index": 0, "section": "Abstract", "text": text}], patches=patches)


async def test_end_to_end_through_the_judge():
    judge = Matcher(
        {
            "ACC_A": '```json\n{"matches": [{"gt_index": 0, "matched": true, "matched_pred_indices": [0]},'
            ' {"gt_index": 1, "matched": false, "matched_pred_indices": []}]}\n```',
            "ACC_B": 'Here you go: {"matches": [{"gt_index": 0, "matched": true, "matched_pred_indices": [0]}]}',
        }
    )
    papers = [paperaudit("A", A_PATCHES), paperaudit("B", B_PATCHES)]
    report = await evaluate_paperaudit(papers, {"A": A_FINDINGS, "B": B_FINDINGS}, judge)
    assert report.overall.macro_f1 == pytest.approx(0.7)
    system, user = judge.calls[0]
    assert system.startswith("You are a careful adjudicator")
    assert '"error_location": "q0"' in user and '"target_find": "ACC_A"' in user


async def test_garbage_judge_matches_nothing_and_is_counted():
    papers = [paperaudit("A", A_PATCHES), paperaudit("B", B_PATCHES)]
    report = await evaluate_paperaudit(papers, {"A": A_FINDINGS, "B": B_FINDINGS}, Matcher({"": "All good!"}))
    assert (report.overall.error_coverage, report.overall.macro_f1) == (0.0, 0.0)
    assert report.judge_failures == 2


async def test_failed_patches_are_not_ground_truth():
    # Paper A's second patch targets text the paper does not hold: it injected no error, so the
    # judge sees one GT error and EC is 1/1, not 1/2 (FP stays 1/3: F1 = 2 (1)(1/3) / (4/3) = 0.5).
    judge = Matcher({"ACC_A": '{"matches": [{"gt_index": 0, "matched": true, "matched_pred_indices": [0]}]}'})
    paper = paperaudit("A", A_PATCHES, text="ACC_A only")
    assert [p.target_find for p in paper.applied_patches()] == ["ACC_A"]
    report = await evaluate_paperaudit([paper], {"A": A_FINDINGS}, judge)
    assert '"target_find": "x"' not in judge.calls[0][1]
    assert (report.overall.error_coverage, report.overall.macro_f1) == (1.0, pytest.approx(0.5))
    # A paper none of whose patches applied has no ground truth: skipped, not scored 0.
    nothing = await evaluate_paperaudit([paperaudit("B", B_PATCHES, text="unrelated")], {"B": B_FINDINGS}, judge)
    assert (nothing.overall.n_papers, nothing.skipped_without_ground_truth) == (0, 1)


async def test_paper_without_findings_needs_no_judge_call():
    judge = Matcher({})
    report = await evaluate_paperaudit([paperaudit("B", B_PATCHES)], {}, judge)
    assert judge.calls == []
    assert report.overall.error_coverage == 0.0


def test_loader_and_patch_application(tmp_path):
    paper = {
        "paper_id": "p1",
        "content": [
            {"type": "text", "text": "We use 5 seeds. We use 5 seeds.", "index": 1, "section": "Experiments"},
            {"type": "image_url", "image_url": "data:...", "index": 2, "section": "Experiments"},
        ],
        "edits": [
            {
                "id": 1,
                "corruption_type": "evidence_manipulation",
                "location": "Experiments",
                "error_explanation": "seed count",
                "target_find": "5 seeds",
                "replacement": "50 seeds",
                "difficulty": "easy",
            },
            {"corruption_type": "claim_distortion", "target_find": "not in the paper", "replacement": "z"},
        ],
    }
    path = tmp_path / "p1.json"
    path.write_text(json.dumps(paper))
    loaded = load_paperaudit_paper(path)
    assert [p.corruption_type for p in loaded.patches] == ["evidence_manipulation", "claim_distortion"]
    blocks, unapplied = loaded.corrupted_content()
    assert blocks[0].text == "We use 50 seeds. We use 5 seeds."  # first occurrence only
    assert [p.target_find for p in unapplied] == ["not in the paper"]
    assert loaded.content[0].text == "We use 5 seeds. We use 5 seeds."  # the original is untouched
    assert [p.paper_id for p in load_paperaudit_dir(tmp_path)] == ["p1"]


def test_loader_reads_patches_from_a_separate_file(tmp_path):
    (tmp_path / "paper.json").write_text(json.dumps({"content": []}))
    (tmp_path / "gt.json").write_text(json.dumps([{"target_find": "a", "replacement": "b", "corruption_type": "RB"}]))
    loaded = load_paperaudit_paper(tmp_path / "paper.json", tmp_path / "gt.json")
    assert (loaded.paper_id, len(loaded.patches)) == ("paper", 1)


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "not valid JSON"),
        ('{"edits": []}', "'content' list"),
        ('{"content": [{"section": "A"}]}', "invalid field"),
    ],
)
def test_loader_errors_name_the_file(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(DatasetError, match=message) as error:
        load_paperaudit_paper(path)
    assert "bad.json" in str(error.value)
    with pytest.raises(DatasetError, match="cannot read"):
        load_paperaudit_paper(tmp_path / "missing.json")
