"""Every registered rule code against its fixtures in tests/rules/<CODE>/ (format: README.md there).

A positive fixture must raise its code exactly on the lines it marks, and its JSON
report (`auditex check --format json`), written as text a reviewer reads (snapshot_text.py),
must equal the snapshot stored beside it; a negative fixture must not raise its code. Refresh the snapshots with
`AUDITEX_UPDATE_SNAPSHOTS=1 pytest tests/rules`.

Online codes (BIB) run `auditex check --online` against the loopback scholarly
stand-ins. LLM codes (LLM-EP, LLM-CRIT, …) are not registered rules: their findings
are a model's answers, tested against the loopback LLM server in test_llm_audit.py.
"""

from __future__ import annotations

import difflib
import json
import os
from contextlib import ExitStack
from pathlib import Path

import pytest
from helpers import RuleFixture
from scholarly_standins import LIBRARY, StandIns
from snapshot_text import render

from auditex.analyzers.registry import Scope
from auditex.analyzers.rules import default_registry
from auditex.cli.main import main

FIXTURES = Path(__file__).parent
REGISTRY = default_registry()
UPDATE_SNAPSHOTS = os.environ.get("AUDITEX_UPDATE_SNAPSHOTS") == "1"
REFRESH = "AUDITEX_UPDATE_SNAPSHOTS=1 pytest tests/rules"


def fixtures(kind: str) -> list[Path]:
    return sorted(FIXTURES.glob(f"*/{kind}*.tex"))


def fixture_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("code", [rule.code for rule in REGISTRY])
def test_every_code_has_a_positive_and_a_negative_fixture(code: str) -> None:
    folder = FIXTURES / code
    assert list(folder.glob("positive*.tex")), f"{code} has no positive fixture in {folder}"
    assert list(folder.glob("negative*.tex")), f"{code} has no negative fixture in {folder}"


def test_every_fixture_folder_names_a_registered_code_and_every_snapshot_a_positive_fixture() -> None:
    folders = {path.name for path in FIXTURES.iterdir() if path.is_dir() and not path.name.startswith(("_", "."))}
    assert folders - {rule.code for rule in REGISTRY} == set()
    assert [
        snapshot
        for snapshot in FIXTURES.glob("*/*.snap")
        if not snapshot.with_suffix(".tex").is_file() or not snapshot.name.startswith("positive")
    ] == []


def check(fixture: RuleFixture, code: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """The JSON report of `auditex check` on the fixture, with `--online` for an online code.

    Only the fixture's code and the codes it marks run (ruff's snapshots hold one rule's
    findings too), selected the way a user would, unless the fixture brings its own config.
    """
    for name in [name for name in os.environ if name.startswith("AUDITEX_")]:
        monkeypatch.delenv(name)  # the user's settings and cache are not the fixture's
    monkeypatch.setenv("AUDITEX_CACHE_DIR", str(folder / "cache"))
    codes = sorted({code} | {expected for _, _, expected in fixture.expected})
    fixture.files.setdefault(".auditex.toml", f"[rules]\nselect = {json.dumps(codes)}\n")
    target = fixture.write(folder / "paper")
    report = folder / "report.json"
    arguments = ["check", str(target), "--format", "json", "--fail-on", "never", "--output", str(report)]
    with ExitStack() as stack:
        if REGISTRY.get(code).scope is Scope.ONLINE:
            stand_ins = stack.enter_context(StandIns(LIBRARY))
            for name, value in stand_ins.environment().items():
                monkeypatch.setenv(name, value)
            arguments.append("--online")
        assert main(arguments) == 0
    return json.loads(report.read_text(encoding="utf-8"))


def reported(report: dict, codes: set[str]) -> list[tuple[str, int, str]]:
    return sorted((f["file"], f["range"]["start"]["line"], f["code"]) for f in report["findings"] if f["code"] in codes)


@pytest.mark.parametrize("path", fixtures("positive"), ids=fixture_id)
def test_positive_fixture_raises_its_code_on_the_marked_lines(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = path.parent.name
    fixture = RuleFixture.read(path)
    assert any(expected == code for _, _, expected in fixture.expected), f"{path} marks no line with '% expect: {code}'"
    report = check(fixture, code, tmp_path, monkeypatch)
    assert reported(report, {code} | {expected for _, _, expected in fixture.expected}) == sorted(fixture.expected)
    snapshot, text = path.with_suffix(".snap"), render(report, fixture.files)
    if UPDATE_SNAPSHOTS:
        snapshot.write_text(text, encoding="utf-8")
    assert snapshot.exists(), f"no snapshot {snapshot.name}: run {REFRESH}"
    stored = snapshot.read_text(encoding="utf-8")
    if text != stored:
        diff = "".join(difflib.unified_diff(stored.splitlines(keepends=True), text.splitlines(keepends=True), "stored", "now"))
        pytest.fail(f"the report of {fixture_id(path)} changed (if intended, run {REFRESH}):\n{diff}")


@pytest.mark.parametrize("path", fixtures("negative"), ids=fixture_id)
def test_negative_fixture_does_not_raise_its_code(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = path.parent.name
    fixture = RuleFixture.read(path)
    assert fixture.expected == [], f"{path} is negative: it marks no expected finding"
    assert reported(check(fixture, code, tmp_path, monkeypatch), {code}) == []
