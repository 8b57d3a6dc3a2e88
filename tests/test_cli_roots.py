"""Which root a checked file is checked under: magic comment, the root above that includes it,
`[project]` in .auditex.toml, and a fragment checked on its own (the real command, real files)."""

import json
import tarfile

import pytest
from helpers import document, write_project

from auditex.cli.main import main


def check_json(capsys, *arguments: str) -> dict:
    code = main(["check", *arguments, "--format", "json", "--no-cache", "--fail-on", "never"])
    assert code == 0
    return json.loads(capsys.readouterr().out)


def codes(report: dict) -> list[str]:
    return sorted(finding["code"] for finding in report["findings"])


PAPER = {
    "main.tex": document("\\input{sections/results}\n\\cite{k}\n\\bibliography{refs}"),
    "sections/results.tex": "\\section{Results}\\label{sec:r}\n\\input{tables/t}\nSee Table~\\ref{tab:t}.\n",
    "tables/t.tex": "\\begin{table}\\caption{T}\\label{tab:t}\\end{table}\n",
    "refs.bib": "@article{k, title={A title}, author={A. Author}, journal={J}, year={2020}}\n",
}


def test_a_magic_comment_names_the_root_above_the_file(tmp_path, capsys):
    folder = write_project(
        tmp_path / "paper", {**PAPER, "sections/results.tex": "% !TEX root = ../main.tex\n" + PAPER["sections/results.tex"]}
    )
    report = check_json(capsys, str(folder / "sections/results.tex"))
    assert report["roots"] == ["main.tex"] and "fragments" not in report
    assert "INC001" not in codes(report) and "CIT005" not in codes(report)


def test_a_file_without_magic_comment_is_checked_under_the_root_above_that_includes_it(tmp_path, capsys):
    folder = write_project(tmp_path / "paper", {**PAPER, "unrelated.tex": document("Another paper.")})
    report = check_json(capsys, str(folder / "sections/results.tex"))
    assert report["roots"] == ["main.tex"]
    assert "INC001" not in codes(report) and "REF001" not in codes(report)


def test_a_fragment_nothing_includes_is_checked_alone_and_says_so(tmp_path, capsys, monkeypatch):
    folder = write_project(
        tmp_path / "t1",
        {"frag.tex": "See Section~\\ref{sec:nowhere}.\n", "other/main.tex": document("Unrelated \\ref{sec:other}.")},
    )
    report = check_json(capsys, str(folder / "frag.tex"))
    assert report["roots"] == ["frag.tex"] and report["fragments"] == ["frag.tex"]
    assert next(f["message"] for f in report["findings"] if f["code"] == "REF001").startswith("`\\ref{sec:nowhere}`")
    monkeypatch.chdir(folder)
    main(["check", "frag.tex", "--no-cache"])
    out = capsys.readouterr().out
    assert "Checked frag.tex (a fragment no root file includes, checked on its own)." in out
    assert "other/main.tex" not in out


ALTERNATES = {
    **PAPER,
    "aoas.tex": document("\\input{generated/build}\\ref{x}"),
}


def test_a_magic_comment_naming_no_file_is_said_not_silently_ignored(tmp_path, capsys, monkeypatch):
    folder = write_project(tmp_path / "t1", {"frag.tex": "% !TEX root = main.tex\nSee Section~\\ref{sec:nowhere}.\n"})
    report = check_json(capsys, str(folder / "frag.tex"))
    assert report["fragments"] == ["frag.tex"]
    assert report["notes"] == [
        "frag.tex's magic comment `% !TEX root = main.tex` names no file in the project; it was checked as a fragment, on its own."
    ]
    monkeypatch.chdir(folder)
    main(["check", "frag.tex", "--no-cache"])
    assert "`% !TEX root = main.tex` names no file in the project" in capsys.readouterr().out
    (folder / "main.tex").write_text(document("\\input{frag}"), encoding="utf-8")
    assert "notes" not in check_json(capsys, str(folder / "frag.tex"))


def test_an_archive_is_checked_under_every_root_as_its_folder_is(tmp_path, capsys):
    files = {"paper.tex": document("See \\ref{sec:gone}."), "supp.tex": document("See \\ref{sec:lost}.")}
    folder = write_project(tmp_path / "submission", files)
    archive = tmp_path / "submission.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for name in files:
            tar.add(folder / name, arcname=name)
    from_folder, from_archive = check_json(capsys, str(folder)), check_json(capsys, str(archive))
    assert from_archive["roots"] == from_folder["roots"] == ["paper.tex", "supp.tex"]
    assert codes(from_archive) == codes(from_folder) == ["REF001", "REF001"]


def test_an_empty_file_says_it_is_empty(tmp_path, capsys):
    folder = write_project(tmp_path / "t1", {"empty.tex": "\n"})
    main(["check", str(folder / "empty.tex"), "--no-cache"])
    out = capsys.readouterr().out
    assert "empty.tex is empty: there was nothing to check." in out and "No findings" in out


def test_project_root_in_the_config_names_the_root_and_exclude_drops_alternate_roots(tmp_path, capsys):
    folder = write_project(tmp_path / "paper", ALTERNATES)
    assert check_json(capsys, str(folder))["roots"] == ["main.tex", "aoas.tex"]
    (folder / ".auditex.toml").write_text('[project]\nroot = "main.tex"\n')
    report = check_json(capsys, str(folder))
    assert report["roots"] == ["main.tex"] and "INC001" not in codes(report)
    (folder / ".auditex.toml").write_text('[rules]\nexclude = ["aoas.tex"]\n')
    assert check_json(capsys, str(folder))["roots"] == ["main.tex"]
    (folder / ".auditex.toml").write_text('[project]\nroots = ["main.tex", "missing.tex"]\n')
    assert main(["check", str(folder), "--no-cache"]) == 2
    assert "names the root file 'missing.tex' in [project]" in capsys.readouterr().err


def test_a_section_of_a_corpus_paper_is_checked_under_its_root(corpus_dir, capsys):
    paper = corpus_dir / "iccv21_dd3d_pseudolidar"
    if not paper.is_dir():
        pytest.skip("the corpus is not available")
    report = check_json(capsys, str(paper / "sections/results.tex"))
    assert report["roots"] == ["main.tex"]
    assert not {"INC001", "CIT005"} & set(codes(report))
