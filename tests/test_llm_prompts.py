"""Detection prompt templates, the answer schema, and the paper as delimited data."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest
from pydantic import ValidationError

from auditex.analyzers.finding import Category
from auditex.analyzers.llm import detection_prompts as prompts
from auditex.analyzers.llm.schema import CriticalAnswer, FindingsAnswer, Importance, MergeAnswer, PlanAnswer, VerifyAnswer

TEMPLATES = ["fast", "memory", "section", "planner", "specialist", "merge", "critical", "verify"]


@pytest.mark.parametrize("name", TEMPLATES)
def test_every_template_loads_with_a_version_and_only_unit_placeholders_left(name):
    prompt = prompts.load(name)
    assert re.fullmatch(rf"{name}/\d+/[0-9a-f]{{12}}", prompt.version)
    left = set(re.findall(r"\{\{(\w+)\}\}", prompt.system + prompt.user))
    assert left and left <= {"paper", "known", "memory", "section", "outline", "task", "highlights", "candidates", "k", "related"}
    assert "<paper>" in prompt.user or "<candidates>" in prompt.user or "<outline>" in prompt.user


@pytest.mark.parametrize("kind", ["fast", "section", "planner", "specialist", "merge", "critical", "verify"])
def test_whole_paper_tasks_follow_one_prefix_of_instructions_then_the_paper(kind):
    prefix = prompts.load("paper")
    assert "{{paper}}" in prefix.shared and "<paper>" in prefix.shared and not prefix.user
    assert "{{" not in prefix.system  # the same bytes for every call of every run
    for lever in ("would resolve it", "lenient with overview sections", "No nitpicks", "beyond the paper's own scope"):
        assert lever in prefix.system
    task = prompts.load(f"paper_{kind}")
    assert not task.system and not task.shared
    left = set(re.findall(r"\{\{(\w+)\}\}", task.user))
    assert "paper" not in left and left <= {"focus", "known", "k", "task", "outline", "candidates"}


@pytest.mark.parametrize("name", ["fast", "section", "specialist"])
def test_detection_templates_carry_the_paperaudit_rules(name):
    system = prompts.load(name).system
    for phrase in (
        "Evidence-first",
        "Do not force findings",
        "JSON-only",
        "Do NOT flag",
        "forward references",
        "standard conventions",
        "trivial nitpicks",
        "formatting",
    ):
        assert phrase in system
    for error_type in prompts.error_types():
        assert f"- {error_type.category.value}: {error_type.definition}" in system


def test_the_eight_error_types_are_the_paperaudit_categories():
    assert {t.category for t in prompts.error_types()} == set(Category) - {Category.LATEX}
    assert [t.abbreviation for t in prompts.error_types()] == ["EM", "ML", "EP", "CD", "CM", "RF", "EO", "RB"]


def test_render_fills_once_and_never_expands_the_paper():
    _system, _shared, user = prompts.load("fast").render(paper='{"text": "{{known}} and {braces}"}', known="(none)", related="")
    assert '{"text": "{{known}} and {braces}"}' in user
    with pytest.raises(KeyError):
        prompts.load("fast").render(paper="x")


@pytest.mark.parametrize(
    "schema, model",
    [
        ("schema_findings.json", FindingsAnswer),
        ("schema_tasks.json", PlanAnswer),
        ("schema_verdicts.json", VerifyAnswer),
        ("schema_merge.json", MergeAnswer),
        ("schema_critical.json", CriticalAnswer),
    ],
)
def test_schema_examples_shown_to_the_model_validate(schema, model):
    example = json.loads(resources.files("auditex.prompts").joinpath(schema).read_text())
    text = json.dumps(example).replace("one of the allowed types", "claim_distortion").replace("major | moderate | minor", "major")
    assert model.model_validate(json.loads(text))


def test_findings_schema_is_lenient_where_meaning_is_clear():
    answer = FindingsAnswer.model_validate(
        {
            "findings": [
                {"type": "Claim Distortion", "confidence": "85%", "error_location": "x", "evidence": [{"block_index": "12", "quote": "q"}]},
                {"type": "EP", "confidence": None},
                {"type": "Method Logic Errors", "confidence": 3},
            ]
        }
    )
    assert [f.type for f in answer.findings] == [Category.CLAIM_DISTORTION, Category.EXPERIMENT_PROTOCOL, Category.METHOD_LOGIC]
    assert [f.confidence for f in answer.findings] == [0.85, 0.5, 0.03]
    assert answer.findings[0].evidence[0].block_index == 12


def test_unknown_error_type_is_a_schema_error():
    with pytest.raises(ValidationError, match="unknown error type"):
        FindingsAnswer.model_validate({"findings": [{"type": "typo"}]})


def test_critical_answer_accepts_the_list_or_an_object_around_it():
    entry = {"Problem": "p", "Location": "Sec. 2", "Explanation": "e"}
    assert CriticalAnswer.model_validate([entry]).root[0].problem == "p"
    assert CriticalAnswer.model_validate({"problems": [entry]}).root[0].location == "Sec. 2"


def test_verdicts_read_the_usual_drift():
    answer = VerifyAnswer.model_validate(
        {
            "verdicts": [
                {"number": "1", "valid": "No, it is a false alarm", "severity": "High"},
                {"number": 2, "valid": "yes", "severity": "low"},
            ]
        }
    )
    assert [(v.number, v.valid, v.severity) for v in answer.verdicts] == [(1, False, Importance.MAJOR), (2, True, Importance.MINOR)]
