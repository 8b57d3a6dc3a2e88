"""Findings and settings are plain dataclasses that pydantic reads and writes only at the edges."""

import json

import pytest
from pydantic import ValidationError

from auditex.analyzers.finding import Category, Evidence, Finding, Range, Severity, Source, Statement
from auditex.analyzers.project_config import Config, InvalidSettings, OneTailed


def _finding(**changes):
    values = dict(
        code="NUM002",
        category=Category.EVIDENCE_MANIPULATION,
        severity=Severity.WARNING,
        message="92.2 here, 92.3 in Table 2",
        file="main.tex",
        range=Range.of(3, 0, 3, 4),
        evidence=Evidence(kind="same system and metric", statements=[Statement(file="t.tex", range=Range.of(1, 2, 1, 6), quote="92.3")]),
        identity="92.2|92.3",
    )
    return Finding(**{**values, **changes})


def test_a_finding_written_as_json_and_read_back_is_the_same_finding_without_its_identity():
    finding = _finding()
    written = json.loads(json.dumps(finding.model_dump(mode="json")))
    assert "identity" not in written
    assert written["severity"] == "warning" and written["evidence"]["statements"][0]["range"]["start"] == {"line": 1, "character": 2}
    read = Finding.model_validate(written)
    assert read.severity is Severity.WARNING and read.source is Source.RULE
    assert read == finding.model_copy(update={"identity": ""})


def test_a_finding_read_from_outside_is_validated():
    written = _finding().model_dump(mode="json")
    with pytest.raises(ValidationError, match="severity"):
        Finding.model_validate({**written, "severity": "grave"})
    with pytest.raises(ValidationError, match="confidence is between 0 and 1"):
        Finding.model_validate({**written, "confidence": 1.5})
    with pytest.raises(ValueError, match="confidence is between 0 and 1"):
        _finding(confidence=-0.1)


def test_the_contract_drops_empty_values_and_shows_verified_only_when_set():
    contract = _finding().contract()
    assert "explanation" not in contract and "verified" not in contract and "identity" not in contract
    assert _finding(verified=True).contract()["verified"] is True


def test_settings_read_with_hyphens_and_raw_tables_as_written():
    config = Config.of_settings(
        {
            "rules": {"min-severity": "warning", "work-limit": 5, "severity": {"LLM-CD": "hint"}},
            "statistics": {"one-tailed": "always", "p-equal-alpha-significant": False},
            "llm": {"base-url": "http://localhost:1"},
        }
    )
    assert config.rules.min_severity is Severity.WARNING and config.rules.work_limit == 5
    assert config.rules.severity == {"LLM-CD": Severity.HINT}  # a code's hyphen is the code's
    assert config.statistics.one_tailed is OneTailed.ALWAYS and config.statistics.p_equal_alpha_significant is False
    assert config.llm == {"base-url": "http://localhost:1"}
    assert Config.of_settings(config.model_dump()) == config


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"rules": {"min-severty": "hint"}}, "unknown key 'min-severty' in [rules] (did you mean 'min-severity'?)"),
        ({"rulez": {}}, "unknown table [rulez] (did you mean 'rules'?)"),
        ({"statistics": {"one-tailed": "sometimes"}}, "statistics.one-tailed: 'sometimes' is not a setting"),
        ({"rules": {"work-limit": 0}}, "work-limit is at least 1, not 0"),
        ({"statistics": {"alpha": 5}}, "alpha is between 0 and 1"),
    ],
)
def test_invalid_settings_name_the_key_as_the_user_wrote_it(settings, message):
    with pytest.raises(InvalidSettings) as raised:
        Config.of_settings(settings)
    assert message in str(raised.value)


def test_editor_settings_that_do_not_validate_keep_the_config_and_say_why():
    merged = Config().merged({"rules": {"select": 5}})
    assert merged.rules.select == []
    assert merged.problems == ["invalid auditex settings: rules.select: Input should be a valid list"]


def test_editor_settings_override_with_either_spelling_and_leave_raw_tables_as_written():
    merged = Config().merged({"rules": {"min-severity": "hint", "work_limit": 7}, "llm": {"base-url": "http://localhost:1"}})
    assert merged.rules.min_severity is Severity.HINT and merged.rules.work_limit == 7
    assert merged.llm == {"base-url": "http://localhost:1"}
