"""A whole check kept in the analysis cache: an unchanged folder is answered without parsing, any change misses."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from test_analysis_cache import PAPER, write

from auditex.analyzers import path_check as check_module
from auditex.analyzers import session as session_module
from auditex.analyzers.dismissals import Dismissals
from auditex.analyzers.engine import Engine
from auditex.analyzers.project_config import RuleOptions
from auditex.analyzers.projects import InputError
from auditex.server.diagnostics import by_uri


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("AUDITEX_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def dumped(result) -> list[dict]:
    return [finding.model_dump() for finding in result.findings]


def forbid_parsing(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("the check parsed the folder instead of using its record")

    monkeypatch.setattr(session_module, "open_projects", refuse)


def test_an_unchanged_folder_is_answered_from_its_record_and_opens_its_projects_on_demand(tmp_path, cache_dir, monkeypatch):
    folder = tmp_path / "paper"
    write(folder, PAPER)
    first = check_module.check_path(folder)
    assert first.findings, "the sample paper has findings"
    with monkeypatch.context() as patch:
        forbid_parsing(patch)
        again = check_module.check_path(folder)
    assert dumped(again) == dumped(first)
    assert again.roots == first.roots == ["main.tex"]
    # Whoever needs the model (--online, audit, review) gets it, parsed on first use.
    assert [project.root_file for project in again.projects] == ["main.tex"]
    assert sorted(again.projects[0].documents) == ["intro.tex", "main.tex", "results.tex"]


def edit_text(folder: Path) -> None:
    path = folder / "results.tex"
    path.write_text(path.read_text().replace("\\ref{tab:main} reports", "\\ref{tab:none} reports"), encoding="utf-8")


def add_missing_input(folder: Path) -> None:
    (folder / "main.tex").write_text(PAPER["main.tex"].replace("\\input{results}", "\\input{results}\\input{extra}"))
    (folder / "extra.tex").write_text("\\section{Extra}\\label{sec:intro}\n", encoding="utf-8")


def create_the_missing_file(folder: Path) -> None:
    (folder / "extra.tex").write_text("\\section{Extra}\\label{sec:intro}\n", encoding="utf-8")


def add_second_root(folder: Path) -> None:
    (folder / "poster.tex").write_text("\\documentclass{article}\n\\begin{document}\n\\ref{fig:none}\n\\end{document}\n")


def edit_bibliography(folder: Path) -> None:
    (folder / "refs.bib").write_text(PAPER["refs.bib"] + PAPER["refs.bib"].replace("title={A}", "title={B}"), encoding="utf-8")


def change_settings(folder: Path) -> None:
    (folder / ".auditex.toml").write_text('[rules]\nignore = ["REF"]\n', encoding="utf-8")


def invalid_utf8(folder: Path) -> None:
    (folder / "intro.tex").write_bytes(PAPER["intro.tex"].encode() + b"\xff caf\xe9\n")


def relink(folder: Path) -> None:
    (folder / "results.tex").rename(folder / "results-a.tex")
    (folder / "results-b.tex").write_text(
        PAPER["results.tex"].replace("\\ref{tab:main} reports", "\\ref{tab:none} reports"), encoding="utf-8"
    )
    os.symlink("results-a.tex", folder / "results.tex")
    check_module.check_path(folder)  # the record now holds the link to results-a.tex
    (folder / "results.tex").unlink()
    os.symlink("results-b.tex", folder / "results.tex")


def dismiss(folder: Path) -> None:
    first = check_module.check_path(folder, use_cache=False).findings[0]
    dismissals = Dismissals(folder)
    dismissals.dismiss(first.fingerprint, first.code, first.file, first.message)  # written at once


CHANGES: dict[str, Callable[[Path], None]] = {
    "one character of a table": edit_text,
    "an \\input added with its file": add_missing_input,
    "a file a missing \\input names appears": create_the_missing_file,
    "a second root file": add_second_root,
    "a .bib entry": edit_bibliography,
    "the settings file": change_settings,
    "bytes that are not UTF-8": invalid_utf8,
    "a link pointed elsewhere": relink,
    "a finding dismissed": dismiss,
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_every_change_to_what_a_check_reads_misses_the_record(tmp_path, cache_dir, change):
    folder = tmp_path / "paper"
    files = dict(PAPER)
    if change == "a file a missing \\input names appears":
        files["main.tex"] = PAPER["main.tex"].replace("\\input{results}", "\\input{results}\\input{extra}")
    write(folder, files)
    before = check_module.check_path(folder)
    CHANGES[change](folder)
    after = check_module.check_path(folder)
    cold = check_module.check_path(folder, use_cache=False)
    assert dumped(after) == dumped(cold)
    assert after.roots == cold.roots
    assert dumped(after) != dumped(before) or after.roots != before.roots, "each change alters what the check reports"


def test_other_settings_on_the_command_line_have_their_own_record(tmp_path, cache_dir):
    folder = tmp_path / "paper"
    write(folder, PAPER)
    everything = check_module.check_path(folder)
    only_references = check_module.check_path(folder, options=RuleOptions(select=["REF"]))
    assert {f.code[:3] for f in only_references.findings} == {"REF"}
    assert len(everything.findings) > len(only_references.findings)
    assert dumped(check_module.check_path(folder)) == dumped(everything)


def test_a_file_changed_while_it_is_checked_leaves_no_record_to_match(tmp_path, cache_dir, monkeypatch):
    folder = tmp_path / "paper"
    write(folder, PAPER)
    real_check = Engine.check

    def check_then_edit(self, project):
        findings = real_check(self, project)
        edit_text(folder)  # after the check read the old text
        return findings

    with monkeypatch.context() as patch:
        patch.setattr(Engine, "check", check_then_edit)
        check_module.check_path(folder)
    assert dumped(check_module.check_path(folder)) == dumped(check_module.check_path(folder, use_cache=False))


def test_archives_and_disabled_caches_keep_no_record(tmp_path, cache_dir, monkeypatch):
    import zipfile

    folder = tmp_path / "paper"
    write(folder, PAPER)
    archive = tmp_path / "submission.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        for name in PAPER:
            bundle.write(folder / name, name)
    calls = []
    real_open = session_module.open_projects

    def counting(*args, **kwargs):
        calls.append(args)
        return real_open(*args, **kwargs)

    monkeypatch.setattr(session_module, "open_projects", counting)
    for _ in range(2):  # a submitted archive is never cached: each check parses it
        with check_module.checked_input(archive) as result:
            assert result.roots == ["main.tex"]
    assert len(calls) == 2
    monkeypatch.setenv("AUDITEX_NO_CACHE", "1")
    check_module.check_path(folder)
    monkeypatch.delenv("AUDITEX_NO_CACHE")
    check_module.check_path(folder)
    assert len(calls) == 4, "no record was kept while the cache was off: the folder was parsed again"


def workspace():
    from auditex.analyzers.rules import default_registry
    from auditex.server.workspace import Workspace

    return Workspace(default_registry())


def checked_diagnostics(folder: Path, open_texts: dict[Path, str] | None = None) -> dict:
    """What the server publishes once a fresh workspace has parsed and checked `folder`."""
    world = workspace()
    world.open.update(open_texts or {})
    world.add_folder(folder)
    world.check()
    return {uri: [f.model_dump() for f in findings] for uri, (_, findings) in world.diagnostics().items()}


def shown_at_once(folder: Path) -> dict | None:
    """What a fresh server shows from the record before it parses anything (None: no record holds)."""
    world = workspace()
    session = world.open_folder(folder)
    if session.record is None:
        return None
    return {uri: [f.model_dump() for f in findings] for uri, (_, findings) in by_uri(session).items()}


def test_the_server_shows_a_recorded_check_at_once_and_it_equals_what_its_own_check_publishes(tmp_path, cache_dir):
    folder = (tmp_path / "paper").resolve()
    write(folder, PAPER)
    assert shown_at_once(folder) is None
    check_module.check_path(folder)  # `auditex check` keeps the record the editor then shows
    assert shown_at_once(folder) == checked_diagnostics(folder)
    edit_text(folder)
    assert shown_at_once(folder) is None, "an edit on disk makes the record stale"
    published = checked_diagnostics(folder)  # the server's own first check keeps a new record
    assert shown_at_once(folder) == published
    assert any("tab:none" in f["message"] for findings in published.values() for f in findings)


def test_a_first_check_that_read_an_editor_text_keeps_no_record(tmp_path, cache_dir):
    folder = (tmp_path / "paper").resolve()
    write(folder, PAPER)
    unsaved = PAPER["results.tex"].replace("\\ref{tab:main} reports", "\\ref{tab:unsaved} reports")
    checked_diagnostics(folder, {folder / "results.tex": unsaved})
    assert shown_at_once(folder) is None


def test_a_path_outside_the_folder_is_refused_even_when_the_folder_has_a_record(tmp_path, cache_dir):
    folder = tmp_path / "paper"
    write(folder, PAPER)
    check_module.check_path(folder)
    outside = tmp_path / "elsewhere.tex"
    outside.write_text(PAPER["main.tex"], encoding="utf-8")
    with pytest.raises(InputError, match="outside the project folder"):
        check_module.check_path(outside, folder)
