"""`auditex bench real-errors`: findings matched to a careful reader's ledger, recall per kind, clear errors."""

import json
from pathlib import Path

from auditex.cli.main import main
from auditex.evaluation.real_errors import load_ledger, seen_misses

PAPER = r"""\documentclass{article}
\begin{document}
\section{Results}
Overall, 9\% of searches (33 out of 868) failed.

Of the 200 participants, 120 completed the task and the remaining 80 did not.
\end{document}
"""

LEDGER = """paper = "diary"
read = true
reader_notes = "all read"

[[problem]]
file = "main.tex"
line = 4
kind = "derived-value"
evidence = "33/868 = 3.8%, not 9%"
decidable = true

[[problem]]
file = "main.tex"
line = 6
kind = "claim-contradiction"
evidence = "a claim only a reader can judge"
decidable = false
"""


def _layout(tmp_path: Path, ledger: str = LEDGER) -> tuple[Path, Path]:
    corpus, ledger_folder = tmp_path / "corpus", tmp_path / "ledger"
    (corpus / "diary").mkdir(parents=True)
    (corpus / "diary" / "main.tex").write_text(PAPER, encoding="utf-8")
    ledger_folder.mkdir()
    (ledger_folder / "diary.toml").write_text(ledger, encoding="utf-8")
    (ledger_folder / "held_out.txt").write_text("# none held out here\n", encoding="utf-8")
    return corpus, ledger_folder


def test_a_rule_finding_within_two_lines_of_a_problem_of_its_kind_catches_it(tmp_path, capsys):
    corpus, ledger = _layout(tmp_path)
    assert main(["bench", "real-errors", str(ledger), "--corpus", str(corpus), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["problems"] == 2
    assert report["overall"]["all"]["informed"] == 1  # the share; the contradiction is an audit's to find
    assert report["overall"]["decidable"]["information_or_above"] == 1.0
    assert report["per_kind"]["claim-contradiction"]["informed"] == 0
    assert report["overall"]["held_out"]["problems"] == 0


def test_a_ledger_with_an_unknown_kind_is_a_clear_error(tmp_path, capsys):
    corpus, ledger = _layout(tmp_path, LEDGER.replace('"derived-value"', '"arithmetic"'))
    assert main(["bench", "real-errors", str(ledger), "--corpus", str(corpus)]) == 2
    error = capsys.readouterr().err
    assert "diary.toml, problem 1: kind 'arithmetic' is not one of the ledger's kinds" in error


def test_the_corpus_must_be_named(tmp_path, capsys):
    _, ledger = _layout(tmp_path)
    assert main(["bench", "real-errors", str(ledger)]) == 2
    assert "needs --corpus DIR" in capsys.readouterr().err


def test_the_misses_listed_for_rule_work_leave_out_the_held_out_papers(tmp_path):
    _, folder = _layout(tmp_path)
    ledger = load_ledger(folder)
    no_findings = {"diary": []}
    assert [problem.kind for problem in seen_misses(ledger, no_findings, [])] == ["derived-value", "claim-contradiction"]
    assert [problem.line for problem in seen_misses(ledger, no_findings, ["claim-contradiction"])] == [6]
    (folder / "held_out.txt").write_text("diary\n", encoding="utf-8")
    assert seen_misses(load_ledger(folder), no_findings, []) == []


def test_a_second_readings_problems_are_counted_apart_and_never_listed_for_rule_work(tmp_path, capsys):
    second = '\n[[problem]]\nfile = "main.tex"\nline = 6\nkind = "parts-vs-total"\nevidence = "120 + 80 = 200"\ndecidable = true\nafter_rules = true\n'
    corpus, folder = _layout(tmp_path, LEDGER + second)
    assert main(["bench", "real-errors", str(folder), "--corpus", str(corpus), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["overall"]["all"]["problems"] == 2  # the first reading's alone, comparable with earlier runs
    assert report["overall"]["second_reading"]["problems"] == 1
    assert "parts-vs-total" not in report["per_kind"]
    ledger = load_ledger(folder)
    assert [problem.line for problem in seen_misses(ledger, {"diary": []}, [])] == [4, 6]
    assert [problem.after_rules for problem in ledger.problems] == [False, False, True]
