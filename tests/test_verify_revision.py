"""`auditex verify-revision`: fixed findings are resolved, untouched ones persist, fresh ones are new."""

from __future__ import annotations

import json
from pathlib import Path

from review_fixtures import MAIN_TEX
from review_fixtures import write_project as write_fixture

from auditex.cli.main import main


def write_project(folder: Path, main: str = MAIN_TEX) -> Path:
    """The review fixture, with only the reference rules on: these tests are about matching."""
    write_fixture(folder, main)
    (folder / ".auditex.toml").write_text('[rules]\nselect = ["REF", "CIT"]\n', encoding="utf-8")
    return folder


def _versions(tmp_path: Path) -> tuple[Path, Path]:
    old = write_project(tmp_path / "old")
    # Fix the undefined ref, keep the unused-label hint on tab:main, add an undefined citation.
    revised = MAIN_TEX.replace(r"and Table~\ref{tab:missing}", r"and its results").replace(r"\cite{smith20}", r"\cite{smith20,nobody99}")
    new = write_project(tmp_path / "new", revised)
    return old, new


def test_json_groups_findings_by_fingerprint(tmp_path: Path, capsys) -> None:
    old, new = _versions(tmp_path)
    assert main(["verify-revision", str(old), str(new), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [f["code"] for f in report["resolved"]] == ["REF001"]
    assert "tab:missing" in report["resolved"][0]["message"]
    assert [f["code"] for f in report["new"]] and all("nobody99" in f["message"] for f in report["new"])
    assert {"fingerprint", "range", "severity", "file"} <= set(report["new"][0])
    [persisting] = report["persisting"]
    assert persisting["code"] == "REF003" and "tab:main" in persisting["message"]
    assert persisting["range"]["start"]["line"] == 18  # where it is in the new version


def test_untouched_revision_has_only_persisting_findings(tmp_path: Path, capsys) -> None:
    old = write_project(tmp_path / "old")
    same = write_project(tmp_path / "same")
    assert main(["verify-revision", str(old), str(same)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Resolved (0):") and "REF001" in text and text.rstrip().endswith("0 resolved, 2 persisting, 0 new.")


def test_markdown_and_bad_paths(tmp_path: Path, capsys) -> None:
    old, new = _versions(tmp_path)
    out = tmp_path / "report.md"
    main(["verify-revision", str(old), str(new), "--format", "markdown", "--output", str(out)])
    markdown = out.read_text(encoding="utf-8")
    assert markdown.startswith("# Revision check") and "## Resolved (1)" in markdown and "REF001" in markdown
    assert main(["verify-revision", str(tmp_path / "missing"), str(new)]) == 2
    assert "does not exist" in capsys.readouterr().err
