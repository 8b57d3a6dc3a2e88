"""`auditex check --fix`, `--unsafe-fixes` and `--watch` (the real command, real files)."""

import io
import queue
import signal
import subprocess
import sys
import tarfile
import threading
import time

import pytest
from helpers import document, write_project

from auditex.analyzers.finding import Category, Finding, Fix, Position, Range, Severity, TextEdit
from auditex.analyzers.fixes import apply_fixes
from auditex.cli.main import main

BIB = "@book{knuth1984, title={The TeXbook}, author={Knuth, Donald}, year={1984}, publisher={AW}}\n"
BODY = "\\begin{table}\\caption{R}\\label{tab:results}\\end{table}\nSee Table~\\ref{tab:result} and \\cite{knuth84}.\n\\bibliography{refs}"


def _default_sigint() -> None:
    """A child Ctrl-C reaches: the test runner may run with SIGINT ignored (an earlier test's worker setup), which a child inherits."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def paper(tmp_path):
    return write_project(tmp_path / "paper", {"main.tex": document(BODY), "refs.bib": BIB})


def test_fix_applies_the_safe_fix_only_and_reports_what_is_left(tmp_path, capsys):
    folder = paper(tmp_path)
    assert main(["check", str(folder), "--fix", "--select", "REF,CIT", "--no-cache"]) == 1
    captured = capsys.readouterr()
    assert "auditex: fixed 1 finding in 1 file; 1 more finding has unsafe fixes (--unsafe-fixes applies them):" in captured.err
    assert "  main.tex:5: REF001 `tab:result` -> `tab:results`\n" in captured.err  # each edit: where, before and after
    assert "rewrote" not in captured.err
    text = (folder / "main.tex").read_text()
    assert "\\ref{tab:results}" in text and "\\cite{knuth84}" in text
    assert "REF001" not in captured.out and "CIT001" in captured.out  # the report is of the fixed files


def test_unsafe_fixes_apply_the_rest(tmp_path, capsys):
    folder = paper(tmp_path)
    assert main(["check", str(folder), "--unsafe-fixes", "--select", "REF,CIT", "--no-cache"]) == 0
    said = capsys.readouterr().err.splitlines()
    assert said[0] == "auditex: fixed 2 findings in 1 file:" and said[1] == "  main.tex:5: REF001 `tab:result` -> `tab:results`"
    # The fix that needed the author's judgment is said apart, with what it did.
    assert said[2].startswith("auditex: --unsafe-fixes rewrote what the text says here")
    assert said[3].startswith("  main.tex:5: CIT001 `knuth84` -> `knuth1984` (")
    assert "\\ref{tab:results} and \\cite{knuth1984}" in (folder / "main.tex").read_text()


def test_fix_never_edits_a_submitted_archive(tmp_path, capsys):
    archive = tmp_path / "submission.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for name, text in (("main.tex", document(BODY)), ("refs.bib", BIB)):
            info = tarfile.TarInfo(name)
            info.size = len(text.encode())
            tar.addfile(info, io.BytesIO(text.encode()))
    before = archive.read_bytes()
    assert main(["check", str(archive), "--fix"]) == 2
    assert "a submitted archive is read-only" in capsys.readouterr().err
    assert archive.read_bytes() == before


def test_fixes_are_never_written_outside_the_project(tmp_path):
    folder = write_project(tmp_path / "paper", {"main.tex": "x\n"})
    (tmp_path / "outside.tex").write_text("secret\n")
    (folder / "link.tex").symlink_to(tmp_path / "outside.tex")
    here = Range(start=Position(line=0, character=0), end=Position(line=0, character=1))
    findings = [
        Finding(
            code="REF001",
            category=Category.LATEX,
            severity=Severity.ERROR,
            message="m",
            file=file,
            range=here,
            fixes=[Fix(title="t", edits=[TextEdit(file=file, range=here, new_text="y")], safe=True)],
        )
        for file in ("../outside.tex", "link.tex", "main.tex")
    ]
    outcome = apply_fixes(folder, findings)
    assert outcome.files == ["main.tex"] and outcome.applied == 1
    assert (tmp_path / "outside.tex").read_text() == "secret\n" and (folder / "main.tex").read_text() == "y\n"
    assert len(outcome.refused) == 2


@pytest.mark.parametrize(("stop", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_watch_checks_again_after_a_change_and_stops_on_ctrl_c_or_sigterm(tmp_path, stop, code):
    folder = write_project(tmp_path / "paper", {"main.tex": document("Clean text.")})
    command = [sys.executable, "-m", "auditex.cli.main", "check", str(folder), "--watch", "--no-cache", "--select", "REF"]
    watcher = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint)
    lines: queue.SimpleQueue[str] = queue.SimpleQueue()
    for stream in (watcher.stdout, watcher.stderr):
        threading.Thread(target=lambda stream=stream: [lines.put(line) for line in stream], daemon=True).start()

    seen: list[str] = []

    def wait_for(*texts: str) -> None:
        """Until every text has appeared in some line since the last wait: stdout and stderr are read by two
        threads, so a report and the watch line after it may arrive in either order."""
        start, deadline = len(seen), time.monotonic() + 60
        while not all(any(text in line for line in seen[start:]) for text in texts):
            if time.monotonic() > deadline:
                raise AssertionError(f"never saw all of {texts!r}: {seen[start:]}")
            try:
                seen.append(lines.get(timeout=1))
            except queue.Empty:
                continue

    try:
        wait_for("No findings.", "watching for changes")
        (folder / "main.tex").write_text(document("See \\ref{sec:nowhere}."))
        wait_for("main.tex changed; checking again", "REF001", "watching for changes")
    finally:
        watcher.send_signal(stop)
        watcher.wait(timeout=30)
    assert watcher.returncode == code  # the README's exit codes, whatever the last check found
