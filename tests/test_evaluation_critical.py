"""HR@k and AP@k with a panel of judges (Zhang & Abernethy §2.3, App. A)."""

import pytest

from auditex.evaluation.critical import (
    CheckedPaper,
    average_precision_at_k,
    evaluate_checker,
    hit_rate_at_k,
    votes_pass,
)
from auditex.evaluation.predictions import Prediction


@pytest.mark.parametrize(
    "votes, rule, passed",
    [
        ([True, True], "all", True),
        ([True, False], "all", False),
        ([True, False], "majority", False),  # one of two is not a majority
        ([True, True, False], "majority", True),
        ([], "all", False),
    ],
)
def test_votes_pass(votes, rule, passed):
    assert votes_pass(votes, rule) is passed


def test_hit_rate_by_hand():
    hits = [[False, True], [False, False], []]
    # @1: no paper hits at rank 1 -> 0/3; @2: the first paper -> 1/3; k beyond the list is fine.
    assert hit_rate_at_k(hits, 1) == 0.0
    assert hit_rate_at_k(hits, 2) == pytest.approx(1 / 3)
    assert hit_rate_at_k(hits, 10) == pytest.approx(1 / 3)
    assert hit_rate_at_k([], 5) == 0.0


def test_average_precision_skips_papers_without_problems():
    tps = [[True, False], [True, True, False, False, False], []]
    # @5: (1/2 + 2/5) / 2 = 0.45, the empty paper skipped; @1: (1 + 1) / 2.
    assert average_precision_at_k(tps, 5) == pytest.approx(0.45)
    assert average_precision_at_k(tps, 1) == 1.0
    assert average_precision_at_k([[]], 5) is None


class Judge:
    """Answers the hit and true-positive prompts by what the problem mentions."""

    def __init__(self, hit, true_positive):
        self.hit, self.true_positive = hit, true_positive

    async def __call__(self, system, user):
        lemma = "Lemma 2" in user.split("Location:")[0]
        if "retraction comment" in user:
            return self.hit(lemma)
        return self.true_positive(lemma)


PAPER = CheckedPaper(
    paper_id="x",
    retraction_comment="Withdrawn: the proof of Lemma 2 divides by zero.",
    problems=[
        Prediction(title="Typo in the abstract", section="p.1", explanation="'teh'", rank=0),
        Prediction(title="Lemma 2 proof divides by zero", section="Sec. 3", explanation="n = 0 case", rank=1),
    ],
    paper_text="full text",
)
STRICT = Judge(lambda lemma: "Yes" if lemma else "No", lambda lemma: "Yes, it is a true problem")
FUSSY = Judge(
    lambda lemma: "Same issue. Final answer: Yes" if lemma else "Hmm, hard to say",  # garbage -> No
    lambda lemma: "Yes, it is a true problem" if lemma else "No, it is a false alarm",
)


async def test_panel_by_hand():
    # k=1: only the typo is judged; neither judge says Yes -> HR@1 = 0.
    one = await evaluate_checker([PAPER], [STRICT, FUSSY], k=1)
    assert one.hit_rate == 0.0
    # k=2: both judges say Yes to the lemma -> HR@2 = 1. True positives: the typo gets
    # Yes and No (fails "all"), the lemma Yes and Yes -> precision 1/2.
    two = await evaluate_checker([PAPER], [STRICT, FUSSY], k=2)
    assert two.hits == [[False, True]]
    assert two.hit_rate == 1.0
    assert two.true_positives == [[False, True]]
    assert two.average_precision == 0.5
    assert two.judge_failures == 1  # FUSSY's "Hmm, hard to say" on the typo


async def test_paper_with_no_problems_misses_and_is_skipped_for_precision():
    empty = CheckedPaper("y", "Withdrawn.", [])
    report = await evaluate_checker([PAPER, empty], [STRICT], k=5)
    assert report.hit_rate == 0.5  # 1 of 2 papers
    assert report.average_precision == 1.0  # only PAPER counts; STRICT accepts both problems
    skipped = await evaluate_checker([PAPER], [STRICT], k=5, judge_precision=False)
    assert skipped.average_precision is None


async def test_bad_arguments_are_refused_clearly():
    with pytest.raises(ValueError, match="judge"):
        await evaluate_checker([PAPER], [])
    with pytest.raises(ValueError, match="k must"):
        await evaluate_checker([PAPER], [STRICT], k=0)
