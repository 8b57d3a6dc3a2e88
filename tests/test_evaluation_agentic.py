"""Perturbation recall (Nguyen et al. §6, App. C.6-C.7) on hand-made reviews."""

import pytest

from auditex.evaluation.agentic import (
    Perturbation,
    coverage,
    detect,
    evaluate_perturbations,
    fuzzy_coverage,
    normalise_for_match,
    recall_with_ci,
)
from auditex.evaluation.predictions import Prediction
from auditex.evaluation.stats import cluster_bootstrap_ratio_ci


def test_normalisation_drops_case_whitespace_and_math_delimiters():
    assert normalise_for_match("The  value $x=2$\n\\(y\\) HOLDS") == "the value x=2 y holds"
    assert normalise_for_match("\\begin{equation*}a+b\\end{equation*}") == "a+b"


def test_coverage_counts_matching_blocks_over_the_first_text_only():
    # "ab" and "cd" both occur in order in the second text: 4 of 4 characters.
    assert coverage("abcd", "xxabyycd") == 1.0
    # Only "ab" occurs: 2 of 4.
    assert coverage("abcd", "abxx") == 0.5
    assert coverage("", "abc") == 0.0


def test_fuzzy_coverage_is_symmetric_and_normalised():
    perturbed = "we report an accuracy of 95%"
    quote = "In Table 2 we report an accuracy of 95% on ImageNet"
    # The perturbed text is wholly inside the quote: coverage(perturbed, quote) = 1.
    assert fuzzy_coverage(perturbed, quote) == 1.0
    assert fuzzy_coverage(quote, perturbed) == 1.0
    assert fuzzy_coverage("$\\alpha = 0.5$", "\\(\\alpha  =  0.5\\)") == 1.0
    assert fuzzy_coverage("text", "") == 0.0


class Rating:
    """A judge that answers by the reviewer's explanation."""

    def __init__(self, replies):
        self.replies, self.calls = replies, 0

    async def __call__(self, system, user):
        self.calls += 1
        return next(reply for key, reply in self.replies.items() if key in user)


P = Perturbation("paper", "p1", "claim", "the bound holds for all n", "the bound only holds for n > 2")


async def test_judge_only_sees_comments_that_pass_the_fuzzy_stage():
    comments = [
        Prediction(quote="unrelated sentence about datasets", explanation="wrong dataset"),
        Prediction(quote="The bound holds for all n.", explanation="only for n>2"),
    ]
    judge = Rating({"only for n>2": "4"})
    assert (await detect(P, comments, judge)).detected
    assert judge.calls == 1
    # Without a judge the fuzzy stage decides alone.
    assert (await detect(P, comments)).detected


@pytest.mark.parametrize("reply, detected, failures", [("3", True, 0), ("2", False, 0), ("looks fine", False, 1)])
async def test_rating_cutoff_is_three_and_garbage_is_a_miss(reply, detected, failures):
    result = await detect(P, [Prediction(quote="the bound holds for all n", explanation="x")], Rating({"x": reply}))
    assert (result.detected, result.judge_failures) == (detected, failures)


async def test_recall_per_type_with_cluster_bootstrap_by_hand():
    perturbations = [
        Perturbation("P1", "a", "claim", "the gain is 12 points", "w"),
        Perturbation("P1", "b", "surface", "x_{t+1} = x_t - g", "w"),
        Perturbation("P2", "a", "claim", "we use five seeds", "w"),  # same id in another paper
        Perturbation("P2", "d", "claim", "the test is two-sided", "w"),
    ]
    reviews = {
        "P1": [Prediction(quote="The gain is 12 points.")],
        "P2": [Prediction(quote="We use five seeds")],
    }
    report = await evaluate_perturbations(perturbations, reviews, seed=7)
    assert report.detected_ids == {("P1", "a"), ("P2", "a")}
    # Overall: P1 1/2, P2 1/2 -> recall 2/4; every resample of two such papers is 0.5 too.
    assert (report.overall.recall, report.overall.ci_low, report.overall.ci_high) == (0.5, 0.5, 0.5)
    # Claim: P1 1/1, P2 1/2 -> pooled 2/3. Resamples: {P1,P1} = 1 (p 1/4), {P2,P2} = 1/2 (p 1/4),
    # mixed = 2/3 (p 1/2); the 2.5th and 97.5th percentiles are 1/2 and 1.
    claim = report.by_type["claim"]
    assert claim.recall == pytest.approx(2 / 3)
    assert (claim.ci_low, claim.ci_high) == (0.5, 1.0)
    assert (claim.detected, claim.injected, claim.n_papers) == (2, 3, 2)
    # Surface: only P1, 0/1.
    assert report.by_type["surface"].recall == 0.0


async def test_paper_without_review_counts_as_misses():
    report = await evaluate_perturbations([P], {})
    assert report.overall.recall == 0.0


def test_bootstrap_is_seeded_and_rejects_empty_clusters():
    detected, injected = [1, 0, 3, 2, 5], [2, 4, 3, 5, 6]
    assert cluster_bootstrap_ratio_ci(detected, injected, seed=3) == cluster_bootstrap_ratio_ci(detected, injected, seed=3)
    low, high = cluster_bootstrap_ratio_ci(detected, injected, seed=3)
    assert low < sum(detected) / sum(injected) < high
    with pytest.raises(ValueError, match="positive denominator"):
        cluster_bootstrap_ratio_ci([1], [0])
    with pytest.raises(ValueError, match="no paper"):
        recall_with_ci({})
