"""benchmarks/paired_speed.py: its arguments and the shape of its report (no timing is asserted)."""

from __future__ import annotations

import math

import pytest
from helpers import benchmark


@pytest.fixture(scope="module")
def bench():
    return benchmark("paired_speed")


def test_the_defaults_are_the_issues_baseline_and_papers(bench):
    options = bench.arguments([])
    assert options.baseline == "5da6867"
    assert options.candidate == "."
    assert options.keystroke == ["nips24_mllm_actions:sections/experiments.tex"]
    assert options.cold == ["nips24_imprecise_labels"]
    assert (options.rounds, options.edits, options.debounce_ms) == (3, 20, 200)


def test_papers_and_counts_are_read(bench):
    options = bench.arguments(["--baseline", "abc123", "--keystroke", "hott_book:basics.tex", "a", "--cold", "--rounds", "5"])
    assert options.baseline == "abc123"
    assert [bench.split_paper(spec) for spec in options.keystroke] == [("hott_book", "basics.tex"), ("a", None)]
    assert options.cold == []
    assert options.rounds == 5


@pytest.mark.parametrize("wrong", [["--rounds", "0"], ["--edits", "0"], ["--refs", "-1"]])
def test_counts_below_their_floor_are_refused(bench, wrong):
    with pytest.raises(SystemExit):
        bench.arguments(wrong)


def test_the_ratio_is_the_median_of_the_pairs_not_of_the_medians(bench):
    # Pairs 1/1, 4/2, 30/1: ratios 1, 2, 30 → 2; the ratio of the medians would be 4/1.
    assert bench.paired_ratio([1.0, 4.0, 30.0], [1.0, 2.0, 1.0]) == 2.0
    assert math.isnan(bench.paired_ratio([], []))


def test_the_report_prints_times_and_paired_ratios(bench):
    sides = [bench.Side("A", "working tree", "python"), bench.Side("B", "5da6867d18f3", "venv/bin/python")]
    rounds = [
        {
            "A": {"edits": [10.0, 20.0, 30.0], "settled": [30.0, 40.0, 50.0], "refs": [40.0]},
            "B": {"edits": [20.0, 40.0, 60.0], "settled": [20.0, 40.0, 60.0], "refs": [80.0]},
        },
        {
            "A": {"edits": [12.0, 22.0, 32.0], "settled": [32.0, 42.0, 52.0], "refs": [42.0]},
            "B": {"edits": [24.0, 44.0, 64.0], "settled": [24.0, 44.0, 64.0], "refs": [84.0]},
        },
    ]
    keystroke = bench.keystroke_row("paper", "sections/a.tex", 97, rounds)
    assert keystroke["ratio_p95"] == pytest.approx(0.5, abs=0.01)
    assert keystroke["ratio_ref"] == pytest.approx(0.5, abs=0.01)
    # A publishes its quick rules first (p95 30 of 60) and is idle after its full check (p95 50 of 60).
    assert keystroke["ratio_settled_p95"] == pytest.approx(50 / 60, abs=0.02)
    cold = bench.cold_row("paper", 176, [{"A": (1.0, 2.0), "B": (2.0, 3.0), "chktex": (0.01, 0.01)}] * 3)
    assert cold["ratio_cpu"] == 0.5
    assert cold["ratio_chktex"] == pytest.approx(100)
    text = bench.report(sides, [keystroke], [cold], (1.0, 1.0, 1.0))
    assert "| paper | sections/a.tex | 97 | 2 × 3 |" in text
    assert "p95 A/B" in text and "settled p95 A/B" in text and "CPU A/B" in text and "A/ChkTeX" in text
    assert "| paper | 176 | 3 | 1.00 | 2.00 | 0.50 |" in text


def test_without_chktex_the_report_says_how_to_install_it(bench):
    sides = [bench.Side("A", "working tree", "python"), bench.Side("B", "b", "python")]
    cold = bench.cold_row("paper", 176, [{"A": (1.0, 2.0), "B": (2.0, 3.0)}])
    assert "apt-get install -y chktex" in bench.report(sides, [], [cold], (0.0, 0.0, 0.0))


VALGRIND_OF_A_CHECK_WITH_A_CHILD = """==101== Cachegrind, a high-precision tracing profiler
==102== I   refs:      1,957,383,405
==101== Collected : 4669901634
==101== I   refs:      4,669,901,634
"""


def test_instructions_add_up_every_process_valgrind_followed(bench, monkeypatch):
    ran = []

    def run(command, **_):
        ran.append(command)
        return bench.subprocess.CompletedProcess(command, 0, stderr=VALGRIND_OF_A_CHECK_WITH_A_CHILD)

    monkeypatch.setattr(bench.subprocess, "run", run)
    assert bench.instructions(["auditex", "check", "paper"], {}) == 1_957_383_405 + 4_669_901_634
    assert (
        ran[0][:2] == ["valgrind", "--tool=cachegrind"]
        and "--trace-children=yes" in ran[0]
        and ran[0][-3:] == ["auditex", "check", "paper"]
    )


def test_a_run_valgrind_did_not_count_is_an_error_not_zero(bench, monkeypatch):
    monkeypatch.setattr(
        bench.subprocess, "run", lambda command, **_: bench.subprocess.CompletedProcess(command, 1, stderr="valgrind: not found")
    )
    with pytest.raises(RuntimeError, match="valgrind counted nothing"):
        bench.instructions(["auditex"], {})


def test_the_report_gives_the_instruction_ratio_of_the_papers_counted(bench):
    sides = [bench.Side("A", "working tree", "python"), bench.Side("B", "5da6867d18f3", "venv/bin/python")]
    counted = {
        **bench.cold_row("paper", 176, [{"A": (1.0, 2.0), "B": (2.0, 3.0)}]),
        "instructions": {"A": 8_056_000_000, "B": 8_850_000_000},
    }
    text = bench.report(sides, [], [counted, bench.cold_row("other", 10, [{"A": (1.0, 2.0), "B": (2.0, 3.0)}])], (0.0, 0.0, 0.0))
    assert "| paper | 8.056 | 8.850 | 0.910 |" in text
    assert "| other | " in text and text.count("| other |") == 1  # counted only where asked
