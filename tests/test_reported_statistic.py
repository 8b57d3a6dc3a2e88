"""NUM004 on small LaTeX projects: labelled statistics in the prose against the coefficient table row they report."""

from pathlib import Path

import pytest
from helpers import rule_findings

pytestmark = pytest.mark.usefixtures("every_class_measured_precise")

TABLE = r"""
\begin{table}\centering
\begin{tabular}{llllll}\toprule
Outcome & Contrast & $\beta$ & Std. Error & z & Pr(>|z|) \\ \midrule
Trust & Treated vs. Control & 0.42 & 0.10 & 4.20 & 0.001 \\
Trust & Placebo vs. Control & 0.05 & 0.11 & 0.45 & 0.650 \\
Turnout & Treated vs. Control & 0.12 & 0.06 & 2.00 & 0.046 \\ \bottomrule
\end{tabular}
\caption{Coefficients.}\label{tab:coef}
\end{table}
"""


def findings(tmp_path: Path, body: str):
    return rule_findings(tmp_path, "\\documentclass{article}\n\\begin{document}\n" + body + TABLE + "\\end{document}\n", "NUM004")


def test_statistic_differing_from_the_named_row(tmp_path):
    found = findings(
        tmp_path, "\\section{Trust}\nTreated participants trusted more than the control group (b = 0.42, SE = 0.10, p = .010).\n"
    )
    assert [f.message for f in found] == ["text reports p-value .010 for Trust, Treated vs. Control, Table tab:coef says 0.001"]
    assert found[0].evidence.kind == "strong: row named, another statistic agrees" and found[0].confidence == 0.9
    assert found[0].related and found[0].related[0].range.start.line > found[0].range.start.line


def test_row_named_by_the_words_before_each_report(tmp_path):
    body = "\\section{Trust}\nCompared with control, treated (p = .001) but not placebo participants (p = .065) trusted more.\n"
    found = findings(tmp_path, body)
    assert [f.message for f in found] == ["text reports p-value .065 for Trust, Placebo vs. Control, Table tab:coef says 0.650"]
    assert found[0].evidence.kind == "moderate: row named"


def test_rounded_values_agree(tmp_path):
    body = "\\section{Turnout}\nTreated citizens voted more often than the control group (b = 0.118, SE = 0.1, z = 2.0, p = .05).\n"
    assert findings(tmp_path, body) == []


def test_rows_named_alike_or_not_at_all_are_left_alone(tmp_path):
    body = (
        "\\section{Results}\nTreated participants differ from control ones in trust and turnout (p = .200).\n"
        "The model fit well (t = 9.10, p = .300).\n"
    )
    assert findings(tmp_path, body) == []


def test_a_bound_agrees_with_a_cell_within_it(tmp_path):
    within = "\\section{Trust}\nTreated participants trusted more than the control group (b = 0.42, p < .01).\n"
    assert findings(tmp_path / "within", within) == []
    beyond = "\\section{Trust}\nTreated participants trusted more than the control group (b = 0.42, p > .05).\n"
    found = findings(tmp_path / "beyond", beyond)
    assert [f.message for f in found] == ["text reports p-value > .05 for Trust, Treated vs. Control, Table tab:coef says 0.001"]
    assert found[0].evidence.kind == "strong: row named, another statistic agrees"


def test_row_named_after_the_statistic_in_a_paragraph_citing_the_table(tmp_path):
    body = "\\section{Results}\nIn Table~\\ref{tab:coef}, the difference (p-value = 0.46) is in turnout between treated and control citizens.\n"
    found = findings(tmp_path / "cited", body)
    assert [f.message for f in found] == ["text reports p-value 0.46 for Turnout, Treated vs. Control, Table tab:coef says 0.046"]
    assert found[0].evidence.kind == "weak: row named by a sentence whose paragraph cites the table" and found[0].confidence == 0.6
    uncited = "\\section{Results}\nIn the pilot, the difference (p-value = 0.46) is in turnout between treated and control citizens.\n"
    assert findings(tmp_path / "uncited", uncited) == []
