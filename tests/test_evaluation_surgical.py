"""Revision sensitivity on flawed / genuine / superficial triplets (Hieu et al.)."""

import pytest
from scipy import stats

from auditex.evaluation.stats import paired_cohens_d
from auditex.evaluation.surgical import (
    ALL_CATEGORIES,
    RevisionTriplet,
    revision_sensitivity,
    score_revision,
)


def test_paired_cohens_d_by_hand():
    # Differences 2, 3, 0, 3: mean 2; squared deviations 0 + 1 + 4 + 1 = 6; sd = sqrt(6/3) = sqrt 2.
    # d = 2 / sqrt 2 = 1.41421. t(0.975, df 3) = 3.18245, half width = 3.18245 / sqrt 4 = 1.59122.
    effect = paired_cohens_d([7, 8, 6, 9], [5, 5, 6, 6])
    assert effect.n == 4
    assert effect.mean_difference == 2.0
    assert effect.sd_difference == pytest.approx(2**0.5)
    assert effect.d == pytest.approx(1.414214, abs=1e-6)
    assert effect.ci_low == pytest.approx(1.414214 - 1.591223, abs=1e-5)
    assert effect.ci_high == pytest.approx(1.414214 + 1.591223, abs=1e-5)
    # The CI crosses 0 exactly when the paired t-test is not significant; p = 0.066 here.
    assert effect.p_value == pytest.approx(stats.ttest_rel([7, 8, 6, 9], [5, 5, 6, 6]).pvalue)
    assert effect.p_value > 0.05 and effect.ci_low < 0


def test_effect_is_undefined_without_pairs_or_spread():
    assert paired_cohens_d([7], [5]) is None
    assert paired_cohens_d([7, 8], [5, 6]) is None  # both differences are 2: sd 0
    with pytest.raises(ValueError, match="equal lengths"):
        paired_cohens_d([1, 2], [1])


def triplet(tid, category, detected, after_genuine, after_superficial, scores=(None, None)):
    return RevisionTriplet(tid, category, detected, after_genuine, after_superficial, *scores)


def test_clear_and_persist_rates_per_category_by_hand():
    triplets = [
        triplet("t1", "math", True, False, True, (8, 3)),  # cleared by genuine, persists under sham
        triplet("t2", "math", True, True, True, (6, 4)),  # still flagged after the genuine fix
        triplet("t3", "math", False, False, False, (7, 7)),  # never detected: not in the rates
        triplet("t4", "novelty", False, False, False),
    ]
    report = revision_sensitivity(triplets)
    math = report["math"]
    # Detected: t1, t2. Cleared under genuine: t1 -> 1/2. Persisting under superficial: both -> 1.
    assert (math.n_triplets, math.n_detected) == (3, 2)
    assert (math.clear_rate_genuine, math.persist_rate_superficial) == (0.5, 1.0)
    # Score differences 5, 2, 0: mean 7/3; deviations 8/3, -1/3, -7/3 -> SS = 114/9, var = 19/3.
    assert math.effect.d == pytest.approx((7 / 3) / (19 / 3) ** 0.5)
    novelty = report["novelty"]
    assert (novelty.clear_rate_genuine, novelty.persist_rate_superficial, novelty.effect) == (None, None, None)
    pooled = report[ALL_CATEGORIES]
    assert (pooled.n_triplets, pooled.n_detected, pooled.clear_rate_genuine) == (4, 2, 0.5)


class Scripted:
    def __init__(self, reply):
        self.reply = reply

    async def __call__(self, system, user):
        assert "Identified Flaw: missing baseline" in user
        return self.reply


async def test_verifier_score_parses_and_fails_conservatively():
    good = await score_revision(Scripted("Score: 8\nThe revision adds the baseline."), "missing baseline", "old", "new")
    assert (good.value, good.parsed) == (8, True)
    # the App. F.3 prompt writes "Scoring (1-9)"; a verifier echoing it is read for its score, not the scale's 1
    echoed = await score_revision(Scripted("**Score (1-9): 7**\nThe baseline is added with error bars."), "missing baseline", "o", "n")
    assert (echoed.value, echoed.parsed) == (7, True)
    bad = await score_revision(Scripted("A solid revision overall."), "missing baseline", "old", "new")
    assert (bad.value, bad.parsed) == (None, False)
