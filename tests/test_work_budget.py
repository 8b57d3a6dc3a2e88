"""The work budget (analyzers/work_budget.py): a runaway input skips the rules past it, says so as LIM001,
and the skip is a result like any other, the same on every run and cached."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import benchmark

from auditex.cli.main import main


@pytest.fixture(scope="module")
def runaway():
    return benchmark("runaway_input")


def _codes(folder: Path, capsys, *extra: str) -> list[tuple[str, str]]:
    main(["check", str(folder), "--format", "json", "--fail-on", "never", "--select", "NUM,LIM", *extra])
    return sorted((finding["code"], finding["message"]) for finding in json.loads(capsys.readouterr().out)["findings"])


def test_a_runaway_input_skips_the_rules_past_the_budget_and_says_which(tmp_path, capsys, runaway):
    # One line dense with numbers: NUM002 considers each number against those written alike, a count that grows
    # with the square of the input. Under a small budget it stops, and says so; the file is then not "clean".
    folder = tmp_path / "runaway"
    folder.mkdir()
    (folder / "main.tex").write_text(runaway.runaway_text(20_000), encoding="utf-8")
    (folder / ".auditex.toml").write_text("[rules]\nwork-limit = 2000\n", encoding="utf-8")
    skipped = _codes(folder, capsys, "--no-cache")
    assert skipped == [("LIM001", "too large to analyse fully; 1 rule skipped (NUM002)")]
    # The budget counts work, not seconds: the same input skips the same rules, and the skip comes back from the cache.
    assert _codes(folder, capsys) == _codes(folder, capsys) == skipped
    (folder / ".auditex.toml").write_text("[rules]\nwork-limit = 2000000\n", encoding="utf-8")
    assert _codes(folder, capsys) == []  # under a budget it fits, every rule ran (and found nothing)
