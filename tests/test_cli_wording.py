"""The wording of what the CLI says when something is off (the real command, real files)."""

import io
import json
import tarfile

from helpers import document, write_project

from auditex.cli.main import main


def _tar(path, members: dict[str, bytes], links: dict[str, str] | None = None):
    with tarfile.open(path, "w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        for name, target in (links or {}).items():
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, target
            archive.addfile(info)
    return path


def test_a_corrupt_archive_leads_with_the_damage(tmp_path, capsys):
    archive = tmp_path / "paper.tar.gz"
    whole = _tar(tmp_path / "whole.tar.gz", {"main.tex": document("Text.").encode() * 50}).read_bytes()
    archive.write_bytes(whole[: len(whole) // 2])
    assert main(["check", str(archive)]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith(f"auditex: error: '{archive}': The archive is damaged or truncated (")
    assert error.endswith("So no LaTeX root file (with \\documentclass and \\begin{document}) was found in it.")


def test_an_output_under_a_file_names_that_file(tmp_path, capsys):
    folder = write_project(tmp_path / "paper", {"main.tex": document("Text.")})
    (tmp_path / "notes").write_text("a file")
    assert main(["check", str(folder), "-o", str(tmp_path / "notes/deeper/x.txt")]) == 2
    assert capsys.readouterr().err.strip() == (
        f"auditex: error: cannot write the report to '{tmp_path / 'notes/deeper/x.txt'}': '{tmp_path / 'notes'}' is a file, not a folder"
    )


def test_an_archive_report_names_the_archive_and_a_refused_member_is_not_also_missing(tmp_path, capsys):
    main_tex = document("\\input{etc/passwd}\n\\cite{k}\nSee \\ref{sec:x}.")
    archive = _tar(tmp_path / "submission.tar.gz", {"paper/main.tex": main_tex.encode()}, {"paper/etc": "/etc"})
    main(["check", str(archive), "--fail-on", "never"])
    out = capsys.readouterr().out
    assert f"Checked paper/main.tex in {archive}." in out
    main(["check", str(archive), "--format", "json"])
    codes = [finding["code"] for finding in json.loads(capsys.readouterr().out)["findings"]]
    assert "SUB001" in codes and "INC001" not in codes


def test_one_key_is_one_key(tmp_path, capsys):
    folder = write_project(tmp_path / "paper", {"main.tex": document("As shown \\cite{k}.")})
    main(["check", str(folder), "--format", "json", "--select", "CIT"])
    messages = [finding["message"] for finding in json.loads(capsys.readouterr().out)["findings"]]
    assert any(message.startswith("the manuscript cites 1 key but") for message in messages), messages


def test_ref001s_page_says_what_check_fix_does_with_its_fix(tmp_path, capsys):
    assert main(["rule", "REF001"]) == 0
    page = " ".join(capsys.readouterr().out.split())
    assert "`check --fix` applies it" in page and "never applied automatically" not in page
    folder = write_project(tmp_path / "paper", {"main.tex": document("\\section{R}\\label{sec:results}See \\ref{sec:resluts}.")})
    main(["check", str(folder), "--fix", "--no-cache", "--select", "REF001"])
    capsys.readouterr()
    assert "\\ref{sec:results}" in (folder / "main.tex").read_text()


def test_an_llm_codes_page_says_the_verifier_sets_its_severity(capsys):
    assert main(["rule", "LLM-CD"]) == 0
    page = " ".join(capsys.readouterr().out.split())
    assert "From the verifier's verdict" in page and "model's confidence" not in page


def test_no_root_file_says_how_to_name_one(tmp_path, capsys):
    folder = write_project(tmp_path / "notes", {"chapter.tex": "Just a chapter.\n"})
    assert main(["check", str(folder)]) == 2
    error = capsys.readouterr().err
    assert "no LaTeX root file" in error and 'root = "main.tex" under [project]' in error and "pass the root file itself" in error


def test_progress_off_a_terminal_is_a_plain_line_now_and_then():
    """A log or a pipe sees a long check alive: what is being done, and for how long."""
    import time

    from auditex.cli.progress import ProgressLine

    log = io.StringIO()
    with ProgressLine(log, log_every=0.05) as progress:
        progress("parsing main.tex")
        deadline = time.monotonic() + 10
        while "parsing main.tex" not in log.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    written = log.getvalue()
    assert written.startswith("auditex: parsing main.tex (") and written.endswith(" s)\n")
    assert "\x1b" not in written  # plain text, no terminal codes
    time.sleep(0.2)
    assert log.getvalue() == written  # closed: nothing more


def test_a_table_declared_twice_names_both_lines(tmp_path, capsys):
    folder = write_project(tmp_path / "paper", {"main.tex": document("Text.")})
    (folder / ".auditex.toml").write_text('[rules]\nselect = ["REF"]\n\n[rules]\nignore = ["CIT"]\n', encoding="utf-8")
    assert main(["check", str(folder)]) == 2
    error = capsys.readouterr().err
    assert "line 4 `[rules]`: the table [rules] is declared a second time (first on line 1)" in error
    assert "Cannot declare" not in error
