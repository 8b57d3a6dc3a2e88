"""HR@k and AP@k with a panel of judges (Zhang & Abernethy §2.3, App. A), votes per paper."""

import pytest

from auditex.evaluation.critical import (
    UNREADABLE,
    CheckedPaper,
    Judge,
    JudgedPaper,
    Verdict,
    VerdictRecord,
    average_precision_at_k,
    evaluate_checker,
    hit_rate_at_k,
    judge_checker,
    judge_paper_vote,
    judged_papers,
    model_key,
    paper_hit,
    paper_precision,
    score_checker,
    self_judging,
    votes_pass,
)
from auditex.evaluation.predictions import Prediction

YES, NO = Verdict(True), Verdict(False)


@pytest.mark.parametrize(
    "votes, rule, passed",
    [
        ([True, True], "all", True),
        ([True, False], "all", False),
        ([True, None], "all", False),  # a judge that did not vote is not a Yes
        ([True, False], "majority", False),  # one of two is not a majority
        ([True, True, False], "majority", True),
        ([True, True, None], "majority", True),
        ([True, None, None], "majority", False),  # a majority of the panel, not of those who voted
        ([], "all", False),
    ],
)
def test_votes_pass(votes, rule, passed):
    assert votes_pass(votes, rule) is passed


def test_a_judge_votes_on_the_paper_not_on_a_problem():
    assert judge_paper_vote([NO, YES, None], 5) is True
    assert judge_paper_vote([NO, YES], 1) is False  # the Yes is beyond k
    assert judge_paper_vote([NO, UNREADABLE], 5) is False  # unreadable counts as No
    assert judge_paper_vote([None, None], 5) is None  # never judged: no vote
    assert judge_paper_vote([], 5) is None


def test_the_judges_need_not_pick_the_same_problem():
    # §2.3 as the authors compute it: judge A says Yes to problem 1, judge B to problem 2 (after
    # its No to problem 1); each votes that the checker hit the paper, so both judges agree.
    # The old per-problem panel (both Yes to the same problem) missed this paper.
    paper = JudgedPaper("p", 3, hit={"A": [YES, None, None], "B": [NO, YES, None]})
    assert paper_hit(paper, ["A", "B"], k=5, rule="all")
    assert not paper_hit(paper, ["A", "B"], k=1, rule="all")  # at k=1 B said No
    assert paper_hit(paper, ["A", "B", "C"], k=5, rule="majority")  # C never voted; 2 of 3
    assert not paper_hit(JudgedPaper("q", 0), ["A"], k=5)  # no problem reported: a miss


def test_hit_rate_and_average_precision_by_hand():
    papers = [
        # 1: A and B each find a hit; true positives: problem 0 by both, problem 1 by A only.
        JudgedPaper("1", 2, hit={"A": [YES, None], "B": [NO, YES]}, true_positive={"A": [YES, YES], "B": [YES, NO]}),
        # 2: only A finds a hit; B's tp verdict on problem 1 is missing: not judged, left out.
        JudgedPaper("2", 2, hit={"A": [YES, None], "B": [NO, NO]}, true_positive={"A": [NO, YES], "B": [NO, None]}),
        # 3: no problems: a miss for HR, skipped for AP.
        JudgedPaper("3", 0),
    ]
    assert hit_rate_at_k(papers, ["A", "B"], 5) == pytest.approx(1 / 3)
    assert hit_rate_at_k(papers, ["A"], 5) == pytest.approx(2 / 3)
    assert hit_rate_at_k([], ["A"], 5) == 0.0
    # Panel precision: paper 1 = 1/2 (problem 0 only), paper 2 = 0/1 (problem 1 undecided).
    assert paper_precision(papers[0], ["A", "B"], 5) == 0.5
    assert paper_precision(papers[1], ["A", "B"], 5) == 0.0
    assert paper_precision(papers[2], ["A", "B"], 5) is None
    assert average_precision_at_k(papers, ["A", "B"], 5) == pytest.approx(0.25)  # each paper's precision, averaged
    assert average_precision_at_k(papers, ["A"], 5) == pytest.approx((1 + 0.5) / 2)
    assert average_precision_at_k(papers, ["A"], 1) == pytest.approx((1 + 0) / 2)
    assert average_precision_at_k([JudgedPaper("x", 1)], ["A"], 5) is None


def test_report_counts_unreadable_apart_from_not_judged():
    papers = [
        JudgedPaper("1", 3, hit={"A": [NO, UNREADABLE, None]}, true_positive={"A": [YES, UNREADABLE, None]}),
        JudgedPaper("2", 2, hit={"A": [YES, None]}, true_positive={"A": [None, None]}),  # after a Yes: not needed
    ]
    report = score_checker(papers, ["A"], k=5)
    assert report.hit_rate == 0.5
    assert (report.hit_judging["A"].judged, report.hit_judging["A"].unreadable, report.hit_judging["A"].not_judged) == (2, 1, 1)
    assert (report.precision_judging["A"].judged, report.precision_judging["A"].unreadable, report.precision_judging["A"].not_judged) == (
        1,
        1,
        3,
    )
    assert report.average_precision == 0.5  # paper 1: Yes and unreadable (= No); paper 2 undecided
    assert report.by_judge["A"].true_positives == 1
    assert (report.problems.mean, report.problems.papers_without_problems) == (2.5, 0)


PAPER = CheckedPaper(
    paper_id="x",
    retraction_comment="Withdrawn: the proof of Lemma 2 divides by zero.",
    problems=[
        Prediction(title="Typo in the abstract", section="p.1", explanation="'teh'", rank=0),
        Prediction(title="Lemma 2 proof divides by zero", section="Sec. 3", explanation="n = 0 case", rank=1),
    ],
    paper_text="full text",
)


class Scripted:
    """Answers the hit and true-positive prompts by whether the problem mentions Lemma 2; records calls."""

    def __init__(self, hit, true_positive):
        self.hit, self.true_positive, self.calls = hit, true_positive, []

    async def __call__(self, system, user):
        self.calls.append(user)
        lemma = "Lemma 2" in user.split("Location:")[0]
        return self.hit(lemma) if "retraction comment" in user else self.true_positive(lemma)


def strict():
    return Judge("strict", Scripted(lambda lemma: "Yes" if lemma else "No", lambda lemma: "Yes, it is a true problem"))


def fussy():
    return Judge(
        "fussy",
        Scripted(
            lambda lemma: "Same issue. Final answer: Yes" if lemma else "Hmm, hard to say",  # unreadable -> No
            lambda lemma: "Based on the paper:\n\n**Yes, it is a true problem.**" if lemma else "No, it is a false alarm",
        ),
    )


async def test_panel_by_hand():
    # k=1: only the typo is judged; neither judge says Yes -> HR@1 = 0.
    one = await evaluate_checker([PAPER], [strict(), fussy()], k=1)
    assert one.hit_rate == 0.0
    # k=2: both judges say Yes to the lemma -> HR@2 = 1. True positives: the typo gets Yes and
    # No (fails "all"), the lemma Yes and Yes (the preamble and the bold do not hide it) -> 1/2.
    two = await evaluate_checker([PAPER], [strict(), fussy()], k=2)
    assert two.hit_rate == 1.0
    assert two.average_precision == 0.5
    assert two.by_judge["strict"].average_precision == 1.0
    assert two.hit_judging["fussy"].unreadable == 1  # "Hmm, hard to say" on the typo
    assert two.precision_judging["fussy"].unreadable == 0


async def test_a_judge_stops_at_its_first_yes():
    judge = strict()
    paper = CheckedPaper("y", "Lemma 2 is wrong.", [Prediction(title="Lemma 2 fails", rank=0), Prediction(title="Typo", rank=1)], "text")
    records = await judge_checker([paper], [judge], k=5, judge_precision=False)
    assert [(r.problem, r.verdict) for r in records] == [(0, True)]
    assert len(judge.complete.calls) == 1


async def test_problems_are_judged_in_rank_order():
    judge = strict()
    paper = CheckedPaper("y", "c", [Prediction(title="second", rank=1), Prediction(title="Lemma 2 first", rank=0)], "text")
    records = await judge_checker([paper], [judge], k=1)
    assert {r.problem for r in records} == {1}  # the list's second entry ranks first


async def test_paper_with_no_problems_misses_and_is_skipped_for_precision():
    empty = CheckedPaper("y", "Withdrawn.", [])
    report = await evaluate_checker([PAPER, empty], [strict()], k=5)
    assert report.hit_rate == 0.5  # 1 of 2 papers
    assert report.average_precision == 1.0  # only PAPER counts; the judge accepts both problems
    assert report.problems.papers_without_problems == 1
    skipped = await evaluate_checker([PAPER], [strict()], k=5, judge_precision=False)
    assert skipped.average_precision is None


async def test_bad_arguments_are_refused_clearly():
    with pytest.raises(ValueError, match="judge"):
        await evaluate_checker([PAPER], [])
    with pytest.raises(ValueError, match="k must"):
        await evaluate_checker([PAPER], [strict()], k=0)
    with pytest.raises(ValueError, match="own name"):
        await evaluate_checker([PAPER], [strict(), strict()])


def test_replayed_verdicts_and_answers():
    records = [
        VerdictRecord(paper_id="x", problem=1, judge="A", question="hit", verdict=True),
        VerdictRecord(paper_id="x", problem=0, judge="B", question="hit", answer="**No.** Different lemma."),
        VerdictRecord(paper_id="x", problem=1, judge="B", question="hit", answer="Bayesian reasoning aside, yes."),
        VerdictRecord(paper_id="x", problem=0, judge="A", question="true_positive", answer="Mayes et al. agree"),  # unreadable
        # a recorded verdict wins over its answer, unless the answers are re-read
        VerdictRecord(paper_id="x", problem=0, judge="B", question="true_positive", verdict=True, answer="No, it is a false alarm."),
    ]
    papers = judged_papers([PAPER], records)
    assert papers[0].hit == {"A": [None, YES], "B": [NO, YES]}
    assert papers[0].true_positive == {"A": [UNREADABLE, None], "B": [YES, None]}
    assert judged_papers([PAPER], records, reread=True)[0].true_positive["B"] == [NO, None]


def test_repeated_answers_of_one_judge_take_the_majority():
    records = [VerdictRecord(paper_id="x", problem=0, judge="A", question="hit", verdict=v) for v in (True, False, True)]
    assert judged_papers([PAPER], records)[0].hit["A"][0] == YES
    tie = [VerdictRecord(paper_id="x", problem=0, judge="A", question="hit", verdict=v) for v in (True, False)]
    assert judged_papers([PAPER], tie)[0].hit["A"][0] == UNREADABLE


def test_verdicts_that_do_not_belong_are_refused():
    with pytest.raises(ValueError, match="paper 'nope'"):
        judged_papers([PAPER], [VerdictRecord(paper_id="nope", problem=0, judge="A", question="hit", verdict=True)])
    with pytest.raises(ValueError, match="problem 7"):
        judged_papers([PAPER], [VerdictRecord(paper_id="x", problem=7, judge="A", question="hit", verdict=True)])


def test_self_judging_compares_model_names_loosely():
    assert model_key("openai:o4-mini") == model_key("o4mini")
    assert self_judging(["Gemini 2.5 Pro", "o3"], ["gemini-2.5-pro"]) == ["Gemini 2.5 Pro"]
    assert self_judging(["o3"], [None, "o4-mini"]) == []
