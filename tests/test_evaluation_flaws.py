"""FLAWS Accuracy@k on hand-made excerpts (Xi et al. §4, App. B)."""

import pytest

from auditex.evaluation.flaws import (
    FlawsCase,
    accuracy_at_k,
    cap_excerpt,
    contiguous_sentence_spans,
    edit_similarity,
    evaluate_flaws,
    levenshtein_hits,
    parse_identification,
    subspan_similarity,
)
from auditex.evaluation.predictions import Prediction


def ranked(*quotes):
    return [Prediction(quote=q, rank=i) for i, q in enumerate(quotes)]


def test_edit_similarity_is_word_level():
    # "a b c" -> "a c": one word deleted, 1 - 1/3.
    assert edit_similarity(["a", "b", "c"], ["a", "c"]) == pytest.approx(2 / 3)
    # Word order matters: "A beats B" vs "B beats A" is two substitutions of three words.
    assert edit_similarity("A beats B".split(), "B beats A".split()) == pytest.approx(1 / 3)
    assert edit_similarity([], []) == 0.0


def test_contiguous_sentence_spans_cover_every_run():
    # Sentences s1, s2, s3 -> runs s1, s1s2, s1s2s3, s2, s2s3, s3.
    spans = contiguous_sentence_spans("One a. Two b! Three c?")
    assert [" ".join(s) for s in spans] == [
        "One a.",
        "One a. Two b!",
        "One a. Two b! Three c?",
        "Two b!",
        "Two b! Three c?",
        "Three c?",
    ]


def test_subspan_similarity_takes_the_best_side():
    gt = "The model has ten layers. Training took two days."
    # The excerpt equals the second GT sentence: a sub-span of x matches y exactly.
    assert subspan_similarity(gt, "Training took two days.") == 1.0
    # The excerpt is a superset: a sub-span of y equals x.
    assert subspan_similarity("Training took two days.", gt) == 1.0


def test_threshold_is_strictly_above_one_half():
    # One sentence each; 2 of 4 words differ: S = 1 - 2/4 = 0.5, not > 0.5.
    miss = FlawsCase("e", ["w1 w2 w3 w4"], ranked("w1 w2 x3 x4"))
    # 1 of 4 differs: S = 0.75.
    hit = FlawsCase("e", ["w1 w2 w3 w4"], ranked("w1 w2 w3 x4"))
    assert levenshtein_hits(miss) == [False]
    assert levenshtein_hits(hit) == [True]


def test_excerpts_are_capped_at_the_longest_ground_truth_chunk():
    # GT chunks have 4 and 2 words, so excerpts keep their first 4 words. Uncapped, the
    # excerpt's second sentence equals the GT (S = 1); capped it is "zeta eta theta iota."
    # which shares no word with either chunk (S = 0).
    case = FlawsCase("e", ["alpha beta gamma delta.", "beta gamma."], ranked("zeta eta theta iota. alpha beta gamma delta."))
    assert cap_excerpt("a b  c\nd e", 3) == "a b c"
    assert case.excerpts() == ["zeta eta theta iota."]
    assert levenshtein_hits(case) == [False]


def test_accuracy_at_k_by_hand():
    hits = [
        [False, True, False],  # found at rank 2: misses @1, hits @3 @6 @10
        [],  # no predictions: scores 0 everywhere
        [True],  # hits everywhere; k beyond its list is fine
        [False] * 7 + [True],  # found at rank 8: only @10
    ]
    # @1: 1/4; @3: 2/4; @6: 2/4; @10: 3/4
    assert accuracy_at_k(hits) == {1: 0.25, 3: 0.5, 6: 0.5, 10: 0.75}
    assert accuracy_at_k([]) == {1: 0.0, 3: 0.0, 6: 0.0, 10: 0.0}
    with pytest.raises(ValueError):
        accuracy_at_k(hits, ks=(0,))


GT = "We train for 300 epochs on a single GPU."


async def test_only_the_first_ten_excerpts_count():
    # The only hit is the 11th excerpt, so it is cut: Accuracy@10 = 0.
    case = FlawsCase("e", [GT], ranked(*[f"unrelated text {i}." for i in range(10)], GT))
    report = await evaluate_flaws([case])
    assert report.accuracy[10] == 0.0
    assert len(report.hits[0]) == 10


async def test_ties_keep_input_order():
    # Both rank 0; the miss comes first in the input, so Accuracy@1 = 0 and @3 = 1.
    case = FlawsCase("e", [GT], [Prediction(quote="something else entirely."), Prediction(quote=GT)])
    report = await evaluate_flaws([case], ks=(1, 3))
    assert report.accuracy == {1: 0.0, 3: 1.0}


async def test_empty_prediction_list_scores_zero():
    report = await evaluate_flaws([FlawsCase("e", [GT], [])])
    assert report.accuracy == {1: 0.0, 3: 0.0, 6: 0.0, 10: 0.0}
    assert report.n_errors == 1


class Scripted:
    def __init__(self, reply):
        self.reply, self.calls = reply, []

    async def __call__(self, system, user):
        self.calls.append(user)
        return self.reply


async def test_llm_judge_is_or_ed_with_levenshtein():
    # Neither paraphrase passes Levenshtein; the judge says the second one is correct,
    # so the error is found at rank 2: @1 = 0, @3 = 1.
    case = FlawsCase("e", [GT], ranked("The budget is small.", "Training lasts 300 epochs using one GPU only."))
    judge = Scripted("1. The budget is small. INCORRECTLY IDENTIFIED\n2. Training lasts ... CORRECTLY IDENTIFIED")
    report = await evaluate_flaws([case], completer=judge, ks=(1, 3))
    assert report.accuracy == {1: 0.0, 3: 1.0}
    assert report.judge_failures == 0
    assert "1. The budget is small." in judge.calls[0] and GT in judge.calls[0]


async def test_garbage_judge_falls_back_to_levenshtein_and_is_counted():
    case = FlawsCase("e", [GT], ranked("The budget is small.", GT))
    report = await evaluate_flaws([case], completer=Scripted("I cannot tell."), ks=(1, 3))
    assert report.accuracy == {1: 0.0, 3: 1.0}  # the exact quote at rank 2 still hits lexically
    assert report.judge_failures == 1


def test_parse_identification_needs_one_label_per_excerpt():
    assert parse_identification("a CORRECTLY IDENTIFIED\nb incorrectly identified", 2) == [True, False]
    assert parse_identification("a CORRECTLY IDENTIFIED", 2) is None
