"""Hostile and random LaTeX never raises and always ends in bounded time."""

import time

from helpers import document, write_project
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auditex.analyzers.engine import Engine
from auditex.latex.document import parse_document
from auditex.latex.project import Project

FRAGMENTS = [
    "\\section{",
    "}",
    "{",
    "\\begin{table}",
    "\\end{tabular}",
    "\\begin{itemize}",
    "&",
    "\\\\",
    "$",
    "$$",
    "\\[",
    "\\label{a}",
    "\\ref{",
    "\\cite{x,",
    "\\input{",
    "%",
    "\\newcommand{\\x}[1]{#1",
    "\\def\\y{",
    "\\footnote{",
    "93.4\\%",
    "\\textbf{1",
    "\\multicolumn{2}{c}{",
    "\\verb|",
    "\\begin{verbatim}",
    "\n\n",
    "\\end{document}",
    "\\color{white}",
    "\\textcolor{",
    "é😀",
    "\x00",
    "\\\\\\",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=20)), max_size=60))
def test_random_fragments_never_raise(pieces):
    text = "".join(pieces)
    parsed = parse_document("main.tex", text).parsed
    assert all(0 <= block.start <= block.end <= len(text) for block in parsed.blocks)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=400))
def test_binary_bytes_give_findings_not_exceptions(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("bin")
    write_project(folder, {"main.tex": document("\\input{blob}"), "blob.tex": data})
    Engine().check(Project(folder, "main.tex"))


def test_ten_thousand_nested_braces_and_unclosed_environments(tmp_path):
    write_project(tmp_path, {"main.tex": document("{" * 10_000 + "x" + "}" * 10_000 + "\\begin{table}\\begin{tabular}{c} 1 &")})
    started = time.perf_counter()
    findings = Engine().check(Project(tmp_path, "main.tex"))
    assert time.perf_counter() - started < 30
    assert any(f.code == "INC004" for f in findings)  # the deep passage is reported, read as plain text


def test_five_megabyte_file_is_checked_in_bounded_time(tmp_path):
    paragraph = "We measure 93.4\\% accuracy with $x_i$ and \\cite{a}. " * 20 + "\n\n"
    body = "\\section{Big}\n" + paragraph * (5_000_000 // len(paragraph))
    write_project(tmp_path, {"main.tex": document(body)})
    started = time.perf_counter()
    project = Project(tmp_path, "main.tex")
    Engine().check(project)
    assert len(project.documents["main.tex"].text) > 4_900_000
    assert time.perf_counter() - started < 240


def test_a_pipe_in_the_project_is_reported_not_waited_on(tmp_path):
    import os
    import subprocess
    import sys

    write_project(tmp_path, {"main.tex": document("\\input{notes}\nText.")})
    os.mkfifo(tmp_path / "notes.tex")  # no writer ever comes: opening it for reading would block
    checked = subprocess.run(
        [sys.executable, "-m", "auditex.cli.main", "check", str(tmp_path), "--no-cache", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    # Discovery reads every .tex file for a \\documentclass: the pipe is skipped, and \\input finds no file to read.
    assert checked.returncode == 1 and "no file `notes.tex`" in checked.stdout
