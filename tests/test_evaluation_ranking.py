"""Pairwise and rank metrics for reviews: the agentic-review AUC (ties 0.5) and PaperAudit's App. B.3 alignment."""

import json
from pathlib import Path

import numpy as np
import pytest

from auditex.cli.main import main
from auditex.evaluation.ranking import (
    concordance,
    human_key,
    model_key,
    pairwise_accuracy,
    pairwise_auc,
    percentile_ranks,
    pooled_auc,
    ranking_alignment,
)


def test_pairwise_auc_counts_ties_as_half():
    # (5,3) (5,1) (3,1) (3,1) are wins, (3,3) twice is a tie: (4 + 2 * 0.5) / 6.
    assert pairwise_auc([5, 3, 3], [3, 1]) == pytest.approx(5 / 6)
    assert pairwise_auc([2, 2], [2]) == 0.5
    with pytest.raises(ValueError):
        pairwise_auc([], [1])


def test_proxies_pool_their_pairs():
    # A: U = 5 of 6 pairs; B: U = 0 of 1: pooled 5 / 7, not the mean of 5/6 and 0.
    assert pooled_auc({"A": ([5, 3, 3], [3, 1]), "B": ([1], [2])}) == pytest.approx(5 / 7)


def test_bootstrap_interval_is_seeded_and_brackets_the_estimate():
    groups = {"A": ([9, 8, 7, 3, 6, 5], [4, 5, 2, 6, 1, 3]), "B": ([4, 4, 3], [1, 4, 2])}
    first = pairwise_accuracy(groups, n_resamples=2000, seed=1)
    assert first == pairwise_accuracy(groups, n_resamples=2000, seed=1)
    assert first.ci_low <= first.accuracy <= first.ci_high
    assert first.pairs == 36 + 9
    assert first.mean_low == pytest.approx(np.mean([9, 8, 7, 3, 6, 5, 4, 4, 3]))
    constant = pairwise_accuracy({"A": ([2, 2], [2, 2])}, n_resamples=200)
    assert (constant.accuracy, constant.ci_low, constant.ci_high) == (0.5, 0.5, 0.5)


def test_ranking_keys():
    assert human_key([6, 8]) == (7.0, -2.0)  # mean, minus the sample variance
    assert human_key([7]) == (7.0, 0.0)
    assert human_key([7, 7]) > human_key([6, 8])  # same mean: the consensus ranks higher
    assert model_key({"overall": 6, "novelty": None}) < model_key({"overall": 6, "novelty": 1})  # missing never wins
    assert percentile_ranks([(1,), (3,), (3,), (2,)]).tolist() == pytest.approx([0, 2.5 / 3, 2.5 / 3, 1 / 3])


def test_alignment_by_hand():
    # Human keys: P1 (8, 0), P2 (7, -2), P3 (7, 0), P4 (4, -2) -> percentile ranks 1, 1/3, 2/3, 0.
    human = [human_key(s) for s in ([8, 8], [6, 8], [7, 7], [3, 5])]
    # Model keys: P2 = P4 < P1 < P3 -> ranks 1/6, 1/6, 2/3, 1 (ties share the average rank).
    model = [model_key(s) for s in ({"overall": 8, "novelty": 6}, {"overall": 6}, {"overall": 8, "novelty": 7}, {"overall": 6})]
    result = ranking_alignment(human, model)
    # Squared differences 1/9, 1/36, 1/9, 1/36: Rank-MSE = (10/36) / 4.
    assert result.rank_mse == pytest.approx(10 / 144)
    # Pairs: (1,2) C, (1,3) D, (1,4) C, (2,3) C, (2,4) tied in the model, (3,4) C.
    assert (result.concordant, result.discordant) == (4, 1)
    assert result.pairwise_accuracy == pytest.approx(4 / 5)
    # tau-b = (C - D) / sqrt((C + D + T_h)(C + D + T_m)) = 3 / sqrt(5 * 6).
    assert result.kendall_tau_b == pytest.approx(3 / 30**0.5)
    # rho = Pearson of the percentile ranks: 14 / sqrt(20 * 18) (sums of products over 36).
    assert result.spearman == pytest.approx(14 / 360**0.5)


def test_alignment_edge_cases():
    flat = ranking_alignment([(1,), (2,), (3,)], [(5,), (5,), (5,)])
    assert (flat.spearman, flat.kendall_tau_b, flat.pairwise_accuracy) == (None, None, None)
    assert concordance([1, 2, 3], [3, 2, 1]) == (0, 3)
    with pytest.raises(ValueError):
        ranking_alignment([(1,)], [(1,)])


def test_bench_review_reads_auditex_review_outputs(tmp_path: Path, capsys):
    reviews = tmp_path / "reviews"
    reviews.mkdir()
    for name, overall, weaknesses in (("a", 8, 1), ("b", 4, 5), ("c", 6, 3), ("d", 5, 3)):
        review = {"scores": {"overall": overall, "novelty": 5}, "review": {"weaknesses": [{"text": "w"}] * weaknesses}}
        (reviews / f"{name}.json").write_text(json.dumps(review))
    data = tmp_path / "review.json"
    papers = [
        {"paper_id": "a", "human_scores": [8, 7], "group": "high", "proxy": "conference", "review": "reviews/a.json"},
        {"paper_id": "b", "human_scores": [3, 4], "group": "low", "proxy": "conference", "review": "reviews/b.json"},
        {"paper_id": "c", "human_scores": [6], "group": "high", "proxy": "citations", "review": "reviews/c.json"},
        {"paper_id": "d", "human_scores": [5, 5], "group": "low", "proxy": "citations", "review": "reviews/d.json", "comments": 2},
        {"paper_id": "e", "human_scores": [5], "scores": {"overall": 5}},  # no group: alignment only
    ]
    data.write_text(json.dumps({"papers": papers}))
    assert main(["bench", "review", str(data), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    # Humans: a 7.5 > c 6 > d = e 5 > b 3.5; reviews: a 8 > c 6 > d 5 (novelty 5) > e 5 (none) > b 4.
    # No pair is ordered the other way (d and e tie for the humans).
    assert report["alignment"]["n_papers"] == 5
    assert report["alignment"]["discordant"] == 0
    # Comments: conference low b 5 > high a 1 (win); citations low d 2 (given) < high c 3 (loss): 1/2.
    assert report["pairwise_accuracy"]["overall"]["accuracy"] == 0.5
    assert report["pairwise_accuracy"]["by_proxy"]["conference"]["accuracy"] == 1.0
