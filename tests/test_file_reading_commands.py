"""Every command that reads a file is held to the project: a reviewer who compiles the paper must
not leak /etc/passwd through a listing, a figure or an imported folder (the real command, real files)."""

import json
import subprocess

import pytest
from helpers import document, write_project

from auditex.cli.main import main
from auditex.latex.sandbox import SUBMISSION_FOLDER_PREFIX, read_boundary

OUTSIDE_READS = {
    "lstinputlisting": "\\lstinputlisting[language=C]{/etc/shadow}",
    "verbatiminput": "\\verbatiminput{/etc/passwd}",
    "VerbatimInput": "\\VerbatimInput[numbers=left]{../secret.txt}",
    "includegraphics": "\\includegraphics[width=\\linewidth]{/etc/passwd}",
    "inputminted": "\\inputminted[linenos]{python}{/etc/passwd}",
    "import": "\\import{/etc/}{passwd}",
    "subimport": "\\subimport{../../}{secret}",
    "includepdf": "\\includepdf[pages=-]{/etc/passwd}",
}


def outside_findings(tmp_path, capsys, body: str, extra: dict | None = None) -> list[dict]:
    folder = write_project(tmp_path / "paper", {"main.tex": document(body), **(extra or {})})
    assert main(["check", str(folder), "--format", "json", "--no-cache", "--select", "INC"]) in (0, 1)
    return [f for f in json.loads(capsys.readouterr().out)["findings"] if f["code"] == "INC003"]


@pytest.mark.parametrize("command", OUTSIDE_READS)
def test_a_command_reading_outside_the_project_is_refused_like_input(tmp_path, capsys, open_recorder, command):
    with open_recorder() as opened:
        [finding] = outside_findings(tmp_path, capsys, OUTSIDE_READS[command])
    assert finding["message"].startswith(f"`\\{command}` refused: ") and finding["message"].endswith("; it was not read")
    assert finding["severity"] == "error"
    assert not [path for path in opened.outside(tmp_path) if "passwd" in str(path) or "shadow" in str(path) or "secret" in str(path)]


def test_a_figure_linked_outside_is_refused_and_a_missing_figure_is_left_to_the_build(tmp_path, capsys):
    (tmp_path / "secret.png").write_bytes(b"\x89PNG")
    (tmp_path / "paper/figures").mkdir(parents=True)
    (tmp_path / "paper/figures/plot.png").symlink_to(tmp_path / "secret.png")
    findings = outside_findings(tmp_path, capsys, "\\includegraphics{figures/plot}\\includegraphics{figures/not_yet_made}")
    assert [f["message"] for f in findings] == [
        "`\\includegraphics` refused: `figures/plot.png` is a link that leads outside the project; it was not read"
    ]


def test_files_inside_the_project_and_names_behind_a_macro_pass(tmp_path, capsys):
    body = (
        "\\lstinputlisting{code/a.py}\\inputminted{python}{code/a.py}\\includegraphics{figs/p}\\import{sec/}{intro}"
        "\\newcommand{\\halftorus}{figs/torus}\\includegraphics[width=3cm]{\\halftorus}"
    )
    assert outside_findings(tmp_path, capsys, body, {"code/a.py": "print(1)\n", "sec/intro.tex": "Intro.\n"}) == []


def _repository(folder, files: dict[str, str]):
    """A repository of its own (its own `git init`), so that auditex's work tree does not change what is inside."""
    write_project(folder, files)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


def test_a_folder_in_a_repository_reads_the_repository_and_warns_what_an_archive_would_lack(tmp_path, capsys):
    body = "\\input{../shared/macros}\\includegraphics{../figures/fig1}\\input{../../beyond}\\includegraphics{/etc/passwd}\\cite{a}"
    repository = _repository(
        tmp_path / "repo",
        {"paper/main.tex": document(body), "shared/macros.tex": "Shared text.\n", "figures/fig1.pdf": "%PDF"},
    )
    (tmp_path / "beyond.tex").write_text("Not the repository's.\n", encoding="utf-8")
    assert main(["check", str(repository / "paper"), "--format", "json", "--no-cache", "--select", "INC"]) == 1
    found = sorted((f["severity"], f["message"]) for f in json.loads(capsys.readouterr().out)["findings"] if f["code"] == "INC003")
    assert found == [
        ("error", "`\\includegraphics` refused: `/etc/passwd` is an absolute path outside the project; it was not read"),
        ("error", "`\\input` refused: `../../beyond.tex` points outside the project root; it was not read"),
        (
            "warning",
            "`\\includegraphics{../figures/fig1}` reads `../figures/fig1`, outside the checked folder: "
            "a submission archive of the folder would not contain it",
        ),
        (
            "warning",
            "`\\input{../shared/macros}` reads `../shared/macros.tex`, outside the checked folder: "
            "a submission archive of the folder would not contain it",
        ),
    ]


def test_roots_are_still_found_in_the_folder_given_not_in_the_repository(tmp_path, capsys):
    repository = _repository(tmp_path / "repo", {"paper/main.tex": document("Paper."), "slides/talk.tex": document("Talk.")})
    assert main(["check", str(repository / "paper"), "--format", "json", "--no-cache"]) == 0
    assert json.loads(capsys.readouterr().out)["roots"] == ["main.tex"]


def test_an_extracted_archive_keeps_its_own_boundary_even_inside_a_repository(tmp_path):
    repository = _repository(tmp_path / "repo", {"paper/main.tex": document("Paper.")})
    extracted = repository / f"{SUBMISSION_FOLDER_PREFIX}x"
    extracted.mkdir()
    assert read_boundary(repository / "paper") == repository
    assert read_boundary(extracted) == extracted
    assert read_boundary(tmp_path) == tmp_path


def test_a_named_project_root_is_the_boundary_though_it_lies_in_a_repository(tmp_path, capsys):
    body = "\\includegraphics{../figures/fig1}\\input{sections/intro}"
    files = {"paper/main.tex": document(body), "paper/sections/intro.tex": "Intro.\n", "figures/fig1.pdf": "%PDF"}
    paper = _repository(tmp_path / "repo", files) / "paper"
    inc003 = ["check", str(paper), "--format", "json", "--select", "INC003", "--fail-on", "never"]
    # Detected, the folder reads the work tree (a warning); named, it is the project (a refusal). The cached
    # record of the first check must not answer the second.
    for extra, severity, says in ((), "warning", "outside the checked folder"), (("--project-root", str(paper)), "error", "refused"):
        assert main([*inc003, *extra]) == 0
        [finding] = json.loads(capsys.readouterr().out)["findings"]
        assert (finding["severity"], says in finding["message"]) == (severity, True)
    # Naming the work tree reads all of it: nothing is beyond it.
    assert main([*inc003, "--project-root", str(paper.parent)]) == 0
    assert json.loads(capsys.readouterr().out)["findings"] == []
