"""Editing `.auditex.toml` for "Disable CODE in this project"."""

from __future__ import annotations

import tomllib

from auditex.server.actions import config_ignoring


def test_creates_the_rules_table_when_there_is_no_file():
    assert tomllib.loads(config_ignoring(None, "REF001")) == {"rules": {"ignore": ["REF001"]}}


def test_extends_an_existing_ignore_list_and_keeps_everything_else():
    current = '# project settings\n[rules]\nselect = ["REF"]\nignore = ["CIT004",\n  "REF003"]\n\n[llm]\nmodel = "m"\n'
    updated = tomllib.loads(config_ignoring(current, "REF001"))
    assert updated == {"rules": {"select": ["REF"], "ignore": ["CIT004", "REF003", "REF001"]}, "llm": {"model": "m"}}
    assert config_ignoring(current, "CIT004") is None  # already ignored: no action


def test_adds_a_rules_table_or_refuses_layouts_it_cannot_edit_safely():
    assert tomllib.loads(config_ignoring('[llm]\nmodel = "m"\n', "REF001")) == {"llm": {"model": "m"}, "rules": {"ignore": ["REF001"]}}
    assert config_ignoring('rules = { ignore = ["A"] }\n', "REF001") is None
    assert config_ignoring("[rules\n", "REF001") is None  # invalid TOML is left to the author
