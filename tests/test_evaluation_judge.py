"""Judge plumbing: the papers' prompts load and render, answers parse conservatively."""

import pytest

from auditex.evaluation.judge import (
    judge_score,
    judge_yes_no,
    load_prompt,
    parse_json_object,
    parse_score,
    parse_yes_no,
    read_verdict,
)

PROMPTS = {
    "paperaudit_matching": {"error_types", "ground_truth", "predictions"},
    "flaws_identification": {"identified_errors", "actual_errors"},
    "critical_hit": {"problem", "location", "explanation", "retraction_comment"},
    "critical_true_positive": {"problem", "location", "explanation", "paper"},
    "perturbation_rating": {"why_wrong", "explanation"},
    "revision_verification": {"flaw_description", "original_paper", "revised_paper"},
}


@pytest.mark.parametrize("name", sorted(PROMPTS))
def test_every_prompt_renders_with_exactly_its_placeholders(name):
    values = {key: f"<{key}>" for key in PROMPTS[name]}
    system, user = load_prompt(name).render(**values)
    for key in PROMPTS[name]:
        assert f"<{key}>" in system + user
    assert "<!--" not in system + user
    missing = dict(values)
    missing.pop(sorted(PROMPTS[name])[0])
    with pytest.raises(ValueError, match="needs a value"):
        load_prompt(name).render(**missing)


def test_paperaudit_prompt_keeps_its_system_part_and_json_schema():
    system, user = load_prompt("paperaudit_matching").render(error_types="EM", ground_truth="[]", predictions="[]")
    assert system.startswith("You are a careful adjudicator")
    assert '"matched_pred_indices": [1, 4],' in user


def test_inserted_text_is_not_expanded_again():
    _, user = load_prompt("critical_hit").render(problem="{location}", location="Sec. 2", explanation="e", retraction_comment="r")
    assert "Problem: {location}" in user


@pytest.mark.parametrize(
    "answer, verdict",
    [
        ("Yes.", True),
        ("No, the colleague describes a different lemma.", False),
        ("**Yes** — same error.", True),
        ("The two differ in scope. Final answer: No", False),
        ("After checking the comment, yes", True),
        ("Yes, it is a true problem", True),
        ("It could be yes or no; unclear.", None),
        ("Nope", None),
        ("Not the same problem", None),
        ("", None),
        # never fooled by words that merely contain "yes"
        ("A full Bayesian treatment is claimed.", None),
        ("As Mayes and Tang show, the complex is exact.", None),
        ("The eyes of the reader glaze over. No.", False),
        ("The Bayesian model differs, so: No.", False),  # "Bayesian" is not a second answer
        ("_No_", False),
        ("# Yes", True),
        ("> **No**", False),
        ("It is a yes/no question.", None),
        ("Hmm.\n\n**Yes**\n", True),
        ("I first thought No.\n\nFinal answer: **Yes**", True),
    ],
)
def test_parse_yes_no(answer, verdict):
    assert parse_yes_no(answer) is verdict


@pytest.mark.parametrize(
    "answer, verdict",
    [
        # Zhang & Abernethy's mandated phrases, with or without a preamble, in markdown emphasis
        ("Yes, it is a true problem.", True),
        (
            "Based on an analysis of the specified section of the paper, the assessment is:\n\n**Yes, it is a true problem.**\n\n"
            'It is not a "false alarm".',
            True,
        ),
        ("Based on the text provided in the paper, this is a false alarm.\n\n**No, it is a false alarm.**", False),
        ("No, it is a false alarm.\n\nThe method is standard variational inference, a Bayesian approximation.", False),
        ("No, it is a false alarm. (The question is a yes/no one.)", False),
        # a judge that reconsiders: the last mandated phrase is the final answer the prompt asks for
        ("No, it is a false alarm.\n\n...\n\n**Correction:** I was wrong.\n\n**Final Answer:**\n\nYes, it is a true problem.", True),
        # the options repeated in quotes are a mention, not the answer
        ('You asked me to say "Yes, it is a true problem" or "No, it is a false alarm". No, it is a false alarm.', False),
        # looser wordings, when the mandated phrase is missing
        ("Based on a careful review, the issue raised is a **false alarm**.", False),
        ("This is not a false alarm; the proof is broken.", None),
        ("Hence the objection is unfounded: the expression is consistent.", None),
    ],
)
def test_read_verdict_of_the_true_positive_judge(answer, verdict):
    assert read_verdict(answer, "critical_true_positive") is verdict


@pytest.mark.parametrize(
    "answer, low, high, score",
    [
        ("4", 1, 5, 4),
        ("Score: 7/9. The revision adds the missing proof.", 1, 9, 7),
        ("I'd rate it 4 out of 5", 1, 5, 4),
        ("Rating: 12", 1, 5, None),  # a labelled score out of range is not replaced by a guess
        ("3.5", 1, 5, None),
        ("no idea", 1, 5, None),
        ("Score (1-9): 7", 1, 9, 7),  # the scale is not the score
        ("**Score (1–9):** **8**\n\nThe revision adds error bars.", 1, 9, 8),
        ("Revision score: 6/9", 1, 9, 6),
        ("On a scale of 1 to 9, I give it a 3.", 1, 9, 3),
        ("Score: 7.5", 1, 9, None),
    ],
)
def test_parse_score(answer, low, high, score):
    assert parse_score(answer, low, high) == score


def test_parse_json_object_tolerates_fences_and_chatter():
    assert parse_json_object('Sure!\n```json\n{"matches": []}\n```') == {"matches": []}
    assert parse_json_object('[1, 2] then {bad json} and {"a": 1}') == {"a": 1}
    assert parse_json_object("nothing here") is None


class Scripted:
    def __init__(self, reply):
        self.reply, self.calls = reply, []

    async def __call__(self, system, user):
        self.calls.append((system, user))
        return self.reply


async def test_garbage_answer_is_the_conservative_default_and_flagged():
    answer = await judge_yes_no(Scripted("¯\\_(ツ)_/¯"), "critical_hit", problem="p", location="l", explanation="e", retraction_comment="r")
    assert (answer.value, answer.parsed) == (False, False)
    score = await judge_score(Scripted("great"), "perturbation_rating", 1, 5, why_wrong="w", explanation="e")
    assert (score.value, score.parsed) == (None, False)


async def test_completer_errors_propagate():
    async def down(system, user):
        raise ConnectionError("provider down")

    with pytest.raises(ConnectionError):
        await judge_yes_no(down, "critical_hit", problem="p", location="l", explanation="e", retraction_comment="r")
