"""TAB rules on small LaTeX projects: aggregates and best-value marks."""

from pathlib import Path

import pytest
from helpers import rule_findings

# The rules' logic, apart from the measured-precision gate (tests of the gate: test_precision.py).
pytestmark = pytest.mark.usefixtures("every_class_measured_precise")


def findings(tmp_path: Path, rows: str, code: str, header: str = r"Method & A & B & C & Avg", caption: str = "Accuracy.") -> list:
    table = (
        "\\begin{table}\\centering\n\\begin{tabular}{lcccc}\\toprule\n"
        + header
        + " \\\\ \\midrule\n"
        + rows
        + "\\bottomrule\n\\end{tabular}\n\\caption{"
        + caption
        + "}\\label{tab:t}\n\\end{table}\n"
    )
    return rule_findings(tmp_path, "\\documentclass{article}\n\\begin{document}\n" + table + "\\end{document}\n", code)


GOOD = (
    "Base & 70.0 & 80.0 & 90.0 & 80.0 \\\\\n"
    "Other & 71.2 & 80.4 & 89.9 & 80.5 \\\\\n"
    "Ours & \\textbf{75.0$\\pm$0.3} & \\textbf{85.0} & \\textbf{95.0} & \\textbf{85.0} \\\\\n"
)


def test_altered_average_is_flagged_with_the_recomputed_mean(tmp_path):
    found = findings(tmp_path, GOOD.replace("& 80.5", "& 83.5"), "TAB001")
    assert len(found) == 1
    assert "83.5" in found[0].message and "80.5" in found[0].message
    assert found[0].range.start.line == 6
    assert found[0].fixes[0].edits[0].new_text == "80.5"


def test_a_column_named_for_the_aggregate_of_a_measure_is_checked_but_a_row_so_named_is_a_variable(tmp_path):
    rows = "Status quo & 90.22 & 0 & 90.22 & 1 \\\\\nStructure & 0 & 9.78 & 9.78 & 2 \\\\\nNarrow & 4.38 & 5.21 & 7.59 & 3 \\\\\n"
    found = findings(tmp_path, rows, "TAB001", header="Rule & To control & To treatment & Overall Error Rate & Id")
    assert len(found) == 1 and "7.59" in found[0].message
    # An "Overall" column is often a pooled figure: its own name lowers the confidence, whatever its row is called.
    assert (
        found[0].confidence
        < findings(tmp_path, rows.replace("Narrow", "Overall"), "TAB001", header="Rule & A & B & Avg & Id")[0].confidence
    )
    # "Average time at home" names a regression's variable: its row is not checked against the rows above it
    # (three of its four cells happen to be the mean of the cells above).
    rows = "Income & 0.10 & 0.20 & 0.30 & 0.40 \\\\\nAge & 0.30 & 0.40 & 0.50 & 0.60 \\\\\nAverage time at home & 0.20 & 0.30 & 0.40 & 0.10 \\\\\n"
    assert findings(tmp_path, rows, "TAB001", header="Variable & (1) & (2) & (3) & (4)") == []


def test_averages_within_rounding_with_std_and_bold_are_fine(tmp_path):
    assert findings(tmp_path, GOOD, "TAB001") == []


def test_column_that_never_adds_up_is_not_an_average(tmp_path):
    rows = "Base & 70.0 & 80.0 & 90.0 & 60.0 \\\\\nOurs & 75.0 & 85.0 & 95.0 & 70.0 \\\\\n"
    assert findings(tmp_path, rows, "TAB001") == []


def test_average_row_checked_per_column(tmp_path):
    rows = "Base & 70.0 & 80.0 & 90.0 & 80.0 \\\\\nOurs & 74.0 & 84.0 & 94.0 & 84.0 \\\\\nAverage & 72.0 & 82.0 & 99.0 & 82.0 \\\\\n"
    found = [f for f in findings(tmp_path, rows, "TAB001") if "column C" in f.message]
    assert len(found) == 1 and "99.0" in found[0].message and "92.0" in found[0].message


def test_bold_on_a_worse_value_is_flagged(tmp_path):
    rows = GOOD.replace("\\textbf{85.0} & \\textbf{95.0}", "\\textbf{85.0} & 95.0").replace("& 89.9", "& \\textbf{89.9}")
    found = findings(tmp_path, rows, "TAB002", header=r"Method & A & B & C$\uparrow$ & Avg")
    assert len(found) == 1 and "89.9" in found[0].message and "95.0" in found[0].message


def test_lower_is_better_from_the_metric_name(tmp_path):
    rows = "Base & 1.0 & 2.0 & 3.0 & 2.0 \\\\\nOurs & \\textbf{0.5} & 1.0 & 1.5 & 1.0 \\\\\nOther & 0.9 & \\textbf{2.5} & 3.1 & 2.2 \\\\\n"
    found = findings(tmp_path, rows, "TAB002", caption="Test error of each method.")
    assert len(found) == 1 and "2.5" in found[0].message and "lower" in found[0].message


def test_bold_marking_the_best_of_each_row_is_not_read_per_column(tmp_path):
    # Two methods compared on each row (a task per row), lower is better: bold picks each row's winner.
    rows = "Task 1 & \\textbf{12} & 15 & 20 & 16 \\\\\nTask 2 & 30 & \\textbf{9} & 11 & 17 \\\\\nTask 3 & 40 & 41 & \\textbf{8} & 30 \\\\\n"
    assert findings(tmp_path, rows, "TAB002", header="Task & A & B & C & D", caption="Epochs to converge.") == []
    # One game per row, bold the best of our variants; a Human column beyond them is a reference, not a competitor.
    rows = (
        "Alien & 378.3 & \\textbf{616.9} & 405.2 & 7128.0 \\\\\nAsterix & \\textbf{1853.0} & 1128.3 & 1089.5 & 8503.0 \\\\\n"
        "Atlantis & 14623.4 & \\textbf{20992.5} & 14481.6 & 29028.0 \\\\\nBankHeist & 13.8 & 15.1 & \\textbf{34.2} & 753.0 \\\\\n"
    )
    assert findings(tmp_path, rows, "TAB002", header="Game & Ours A & Ours B & Ours C & Human", caption="Scores ($\\uparrow$).") == []
    # The caption says so, even where one row's bold is not its extreme.
    rows = "Task 1 & \\textbf{92.0} & 85.0 & 80.0 & 81.0 \\\\\nTask 2 & 60.0 & \\textbf{61.0} & 70.0 & 50.0 \\\\\n"
    assert findings(tmp_path, rows, "TAB002", header="Task & A & B & C & D", caption="Accuracy; the best in each row is in bold.") == []
    # Without either, a bold that is not its column's best is still reported.
    assert findings(tmp_path, rows, "TAB002", header="Task & A & B & C & D", caption="Accuracy.")


def test_column_best_bold_that_happens_to_top_its_row_is_still_read_per_column(tmp_path):
    # Error rates (lower is better): the bold minimum of the first columns is its row's largest number.
    rows = (
        "MixMatch & 38.2 & 26.7 & 5.1 & 4.0 \\\\\nFreeMatch & \\textbf{21.4} & \\textbf{15.6} & 8.5 & 6.5 \\\\\n"
        "CoMatch & 35.1 & 25.4 & \\textbf{4.8} & 9.6 \\\\\nOurs & 22.1 & 17.4 & 6.1 & \\textbf{3.9} \\\\\nAdaMatch & 22.3 & 16.7 & 4.7 & 7.6 \\\\\n"
    )
    found = findings(tmp_path, rows, "TAB002", caption="Error rate of each method.")
    assert [f.message.split(" is marked")[0] for f in found] == ["4.8"]


def test_bold_that_marks_significance_is_not_a_best_claim(tmp_path):
    rows = "Base & 0.10 & 0.20 & 0.30 & 0.20 \\\\\nOurs & \\textbf{0.02} & 0.50 & \\textbf{0.01} & 0.30 \\\\\nOther & 0.03 & \\textbf{0.04} & 0.70 & 0.20 \\\\\n"
    caption = "Accuracy of each model; p-values below .05 are in bold (significant)."
    assert findings(tmp_path, rows, "TAB002", caption=caption) == []
    # A column of p-values is no metric, whatever the caption says of the others.
    rows = (
        "Reaction time & 512 & \\textbf{.05} & 3 & 4 \\\\\nAccuracy & 0.91 & .67 & 3 & 4 \\\\\nErrors & 12 & \\textbf{.015} & 3 & 4 \\\\\n"
    )
    assert findings(tmp_path, rows, "TAB002", header="Measure & Mean & $p$ & C & D", caption="Accuracy and timing.") == []


def test_failures_are_lower_is_better(tmp_path):
    rows = "Base & 0 & 2.0 & 3.0 & 2.0 \\\\\nOurs & \\textbf{4} & 1.0 & 1.5 & 1.0 \\\\\nOther & 6 & 2.5 & 3.1 & 2.2 \\\\\n"
    found = findings(tmp_path, rows, "TAB002", header="Method & Failures & B & C & Avg", caption="Robustness.")
    assert len(found) == 1 and "lower is better" in found[0].message and "Base" in found[0].message


def test_bold_without_a_known_direction_or_per_group_is_left_alone(tmp_path):
    rows = "Base & \\textbf{1.0} & 2.0 & 3.0 & 2.0 \\\\\nOurs & 0.5 & 1.0 & 1.5 & 1.0 \\\\\n"
    assert findings(tmp_path, rows, "TAB002", header="Method & Params & B & C & Avg", caption="Sizes.") == []


BEST_TABLE = r"""
\begin{table}\centering
\begin{tabular}{lcc}\toprule
Method & CIFAR-10 & CIFAR-100 \\ \midrule
Baseline & 91.3 & 70.1 \\
Other & 88.0 & 71.5 \\
\method{} (ours) & 90.8 & 71.9 \\ \bottomrule
\end{tabular}
\caption{Accuracy.}\label{tab:main}
\end{table}
"""


def best_claims(tmp_path: Path, prose: str) -> list:
    return rule_findings(
        tmp_path,
        "\\documentclass{article}\n\\newcommand{\\method}{SparseProbe}\n\\begin{document}\n"
        + prose
        + "\n"
        + BEST_TABLE
        + "\\end{document}\n",
        "TAB003",
    )


def test_best_claim_contradicted_by_the_cited_table(tmp_path):
    found = best_claims(tmp_path, "\\method{} achieves the highest accuracy on CIFAR-10 (Table~\\ref{tab:main}).")
    assert len(found) == 1 and "91.3" in found[0].message and "Baseline" in found[0].message
    assert found[0].category.value == "claim_distortion" or "claim" in str(found[0].category).lower()
    assert found[0].range.start.line == 3 and found[0].related[0].range.start.line == 8  # the better cell


def test_best_claim_that_holds_or_is_scoped_is_left_alone(tmp_path):
    assert best_claims(tmp_path, "Our method obtains the best CIFAR-100 accuracy in Table~\\ref{tab:main}.") == []
    assert best_claims(tmp_path, "Other is the best of the baselines on CIFAR-100 (Table~\\ref{tab:main}).") == []
    assert best_claims(tmp_path, "\\method{} achieves the highest accuracy on CIFAR-10.") == []  # no table cited


def test_best_claim_checks_a_table_in_another_file_and_section(tmp_path):
    found = rule_findings(
        tmp_path,
        {
            "main.tex": "\\documentclass{article}\n\\newcommand{\\method}{Ours}\n\\begin{document}\n\\section{Introduction}\n"
            "\\method{} achieves the highest accuracy on CIFAR-10 (Table~\\ref{tab:main}).\n\\input{results}\n\\end{document}\n",
            "results.tex": "\\section{Results}\n" + BEST_TABLE,
        },
        "TAB003",
    )
    assert [(f.file, f.range.start.line) for f in found] == [("main.tex", 4)]
    assert found[0].related[0].file == "results.tex" and "91.3" in found[0].related[0].message


def table_findings(tmp_path: Path, body: str, code: str, preamble: str = "", prose: str = "") -> list:
    """Findings of `code` on a document holding one tabular `body` (with its header and rules)."""
    return rule_findings(
        tmp_path,
        "\\documentclass{article}\n"
        + preamble
        + "\\begin{document}\n"
        + prose
        + "\n\\begin{table}\\centering\n"
        + body
        + "\\caption{Results.}\\label{tab:g}\n\\end{table}\n\\end{document}\n",
        code,
    )


def warnings(found: list) -> list:
    return [f for f in found if f.severity.value in ("warning", "error")]


# Shape 4: bold marks the best of a group of rows; a row set apart by a rule or a ✓/✗ column is higher.
RULE_GROUPS = r"""\begin{tabular}{lc}\toprule
Method & Acc.~$\uparrow$ \\ \midrule
Large model & 90.0 \\ \midrule
Base & 70.0 \\
Other & 72.0 \\
Ours & \textbf{75.0} \\ \bottomrule
\end{tabular}
"""


def test_bold_best_of_its_rule_group_is_information_not_a_warning(tmp_path):
    found = table_findings(tmp_path, RULE_GROUPS, "TAB002")
    assert len(found) == 1 and found[0].confidence < 0.7 and warnings(found) == []
    assert "another group" in found[0].message


def test_bold_beaten_within_its_own_group_is_a_warning(tmp_path):
    found = table_findings(tmp_path, RULE_GROUPS.replace("Other & 72.0", "Other & 78.0"), "TAB002")
    assert len(warnings(found)) == 1 and "78.0" in found[0].message and found[0].confidence == 1.0


def test_lone_ours_row_below_better_baselines_is_still_a_warning(tmp_path):
    body = RULE_GROUPS.replace("Large model & 90.0 \\\\ \\midrule\n", "").replace(
        "Other & 72.0 \\\\\nOurs", "Other & 78.0 \\\\ \\midrule\nOurs"
    )
    found = table_findings(tmp_path, body, "TAB002")
    assert len(warnings(found)) == 1 and "78.0" in found[0].message


def test_an_oracle_row_set_apart_by_a_rule_and_a_check_mark_is_no_competitor(tmp_path):
    # Group DRO uses the group labels (✓ in "Group Info") and sits below its own rule: bold marks the best without them.
    body = (
        "\\begin{tabular}{lcc}\\toprule\nMethod & Group Info & Worst-group Acc.~$\\uparrow$ \\\\ \\midrule\n"
        "ERM & \\xmark & 70.0 \\\\\nJTT & \\xmark & 80.1 \\\\\nOurs & \\xmark & \\textbf{85.0} \\\\ \\midrule\n"
        "Group DRO & \\cmark & 88.0 \\\\ \\bottomrule\n\\end{tabular}\n"
    )
    assert warnings(table_findings(tmp_path, body, "TAB002")) == []


MARK_GROUPS = r"""\begin{tabular}{lcc}\toprule
Method & Extra data & Acc.~$\uparrow$ \\ \midrule
A (w/ pretraining) & \cmark & 88.0 \\
B & \xmark & 70.0 \\
C & \xmark & 72.0 \\
Ours & \xmark & \textbf{75.0} \\ \bottomrule
\end{tabular}
"""


def test_rows_set_apart_by_a_check_mark_column_are_another_group(tmp_path):
    found = table_findings(tmp_path, MARK_GROUPS, "TAB002", preamble="\\newcommand{\\cmark}{Y}\\newcommand{\\xmark}{N}\n")
    assert warnings(found) == [] and len(found) == 1


def test_bold_in_several_groups_is_judged_in_each(tmp_path):
    body = r"""\begin{tabular}{lc}\toprule
Method & Acc.~$\uparrow$ \\ \midrule
Small A & 60.0 \\
Small B & \textbf{65.0} \\ \midrule
Large A & \textbf{80.0} \\
Large B & 84.0 \\ \bottomrule
\end{tabular}
"""
    found = warnings(table_findings(tmp_path, body, "TAB002"))
    assert len(found) == 1 and "80.0" in found[0].message and "84.0" in found[0].message
    assert table_findings(tmp_path, body.replace("Large B & 84.0", "Large B & 74.0"), "TAB002") == []


def test_bold_is_compared_with_rows_of_its_own_dataset_in_a_method_by_dataset_table(tmp_path):
    body = r"""\begin{tabular}{llc}\toprule
Method & Dataset & Acc.~$\uparrow$ \\ \midrule
Baseline & CIFAR & 90.0 \\
Baseline & MNIST & 99.1 \\
Ours & CIFAR & \textbf{91.2} \\
Ours & MNIST & 98.0 \\ \bottomrule
\end{tabular}
"""
    assert table_findings(tmp_path, body, "TAB002") == []
    [found] = table_findings(tmp_path / "beaten", body.replace("CIFAR & 90.0", "CIFAR & 92.0"), "TAB002")
    assert "91.2" in found.message and "Baseline" in found.message and "92.0" in found.message


def test_a_row_without_a_name_is_no_rival(tmp_path):
    """A row with an empty name continues the one above it (another setting of the same method)."""
    body = r"""\begin{tabular}{lc}\toprule
Method & Acc.~$\uparrow$ \\ \midrule
Baseline & 80.0 \\
Ours & \textbf{85.0} \\
 & 86.0 \\ \bottomrule
\end{tabular}
"""
    assert table_findings(tmp_path, body, "TAB002") == []
    [found] = table_findings(tmp_path / "beaten", body.replace("Baseline & 80.0", "Baseline & 87.0"), "TAB002")
    assert "Baseline" in found.message and "87.0" in found.message


def test_teacher_row_named_in_any_text_column_is_a_reference(tmp_path):
    body = r"""\begin{tabular}{llc}\toprule
Model & Role & mAP~$\uparrow$ \\ \midrule
R101 & Teacher & 73.6 \\
R50 & KD student & \textbf{62.7} \\
R18 & KD student & 60.1 \\ \bottomrule
\end{tabular}
"""
    assert table_findings(tmp_path, body, "TAB002") == []


# The table model: the author's rule macros and the arguments of rules.
def test_average_in_a_table_ruled_with_author_macros_is_checked(tmp_path):
    preamble = (
        "\\newcommand{\\sep}{\\specialrule{.1em}{.05em}{.05em}}\n"
        "\\def\\thick{\\noalign{\\global\\arrayrulewidth1pt}\\hline\\noalign{\\global\\arrayrulewidth0.4pt}}\n"
    )
    body = r"""\begin{tabular}{lcccc}\thick
 & \multicolumn{4}{c}{Accuracy} \\
Method & A & B & C & Avg \\ \sep
Base & 70.0 & 80.0 & 90.0 & 80.0 \\
Other & 71.2 & 80.4 & 89.9 & 83.5 \\
Ours & 75.0 & 85.0 & 95.0 & 85.0 \\ \thick
\end{tabular}
"""
    found = warnings(table_findings(tmp_path, body, "TAB001", preamble=preamble))
    assert len(found) == 1 and "row Other" in found[0].message and "80.5" in found[0].message
    assert table_findings(tmp_path, body.replace("83.5", "80.5"), "TAB001", preamble=preamble) == []


def test_rule_arguments_do_not_leak_into_the_next_row(tmp_path):
    body = r"""\begin{tabular}{lccc}\toprule[1.5pt]
Method & A & B & C \\ \cmidrule(lr){2-4}
Base & 70.0 & 80.0 & 90.0 \\
Ours & 74.0 & 84.0 & 94.0 \\ \specialrule{1pt}{2pt}{2pt}
Average & 72.0 & 82.0 & 99.0 \\ \bottomrule
\end{tabular}
"""
    found = warnings(table_findings(tmp_path, body, "TAB001"))
    assert len(found) == 1 and "99.0" in found[0].message and "92.0" in found[0].message


# A derived column: "Imp. ×" is Ours / Baseline row by row, and so is its Average.
def test_average_of_a_ratio_column_may_be_the_ratio_of_the_averages(tmp_path):
    body = r"""\begin{tabular}{lccc}\toprule
Project & Ours & Baseline & Imp. \\ \midrule
A & 0.804 & 0.117 & 6.8$\times$ \\
B & 0.237 & 0.148 & 1.6$\times$ \\
C & 0.435 & 0.409 & 1.0$\times$ \\
D & 0.300 & 0.100 & 3.0$\times$ \\ \midrule
Average & 0.444 & 0.194 & 2.3$\times$ \\ \bottomrule
\end{tabular}
"""
    assert table_findings(tmp_path, body, "TAB001") == []
    found = warnings(table_findings(tmp_path, body.replace("& 2.3$", "& 2.9$"), "TAB001"))  # neither ratio nor mean
    assert len(found) == 1 and "2.9" in found[0].message


# Shape 5: comparisons that claim no win, and "state-of-the-art methods" naming the competitors.
def test_comparable_to_the_state_of_the_art_is_not_a_best_claim(tmp_path):
    for prose in (
        "\\method{} performs comparably to state-of-the-art methods on CIFAR-10 (Table~\\ref{tab:main}).",
        "\\method{} is competitive with the best method on CIFAR-10 (Table~\\ref{tab:main}).",
        "On CIFAR-10, \\method{} is on par with the best (Table~\\ref{tab:main}).",
        "We compare \\method{} with state-of-the-art methods such as Baseline on CIFAR-10 (Table~\\ref{tab:main}).",
        "To the best of our knowledge, \\method{} is the first to report CIFAR-10 (Table~\\ref{tab:main}).",
    ):
        assert best_claims(tmp_path, prose) == [], prose
    found = best_claims(tmp_path, "\\method{} achieves state-of-the-art accuracy on CIFAR-10 (Table~\\ref{tab:main}).")
    assert len(found) == 1 and "91.3" in found[0].message


def test_confidence_follows_the_evidence(tmp_path):
    claim = best_claims(tmp_path, "\\method{} achieves the highest accuracy on CIFAR-10 (Table~\\ref{tab:main}).")
    assert claim[0].confidence == 0.85  # the direction from the caption ("Accuracy."), the row named by its macro
    rows = "Base & 1.0$\\pm$0.4 & 2.0 & 3.0 & 2.0 \\\\\nOurs & \\textbf{1.2$\\pm$0.3} & 1.0 & 1.5 & 1.0 \\\\\n"
    bold = findings(tmp_path, rows, "TAB002", caption="Test error of each method.")
    assert len(bold) == 1 and bold[0].confidence == round(0.85 * 0.85, 3)  # caption direction, gap within ±


def test_aggregate_header_with_a_unit_or_scope_in_parentheses(tmp_path):
    body = r"""\begin{tabular}{lccc}\toprule
Energy & ggF & VBF & Total~(pb) \\ \midrule
13 & 48.6 & 3.78 & 52.38 \\ \addlinespace[0.3em]
14 & 54.7 & 4.28 & 68.98 \\
15 & 60.1 & 4.90 & 65.00 \\ \bottomrule
\end{tabular}
"""
    found = warnings(table_findings(tmp_path, body, "TAB001"))
    assert len(found) == 1 and "68.98" in found[0].message and "58.98" in found[0].message


def test_messages_name_a_row_by_what_its_macro_prints(tmp_path):
    table = (
        "Table~\\ref{tab:t} shows it: \\method{} reaches 83.2\\% on A.\n"
        "\\begin{table}\\centering\n\\begin{tabular}{lccc}\\toprule\nMethod & A & B & Avg \\\\ \\midrule\n"
        "Base & 70.0 & 80.0 & 75.0 \\\\\n\\method{} & 81.2 & 90.0 & 88.0 \\\\\n"
        "\\bottomrule\n\\end{tabular}\n\\caption{Accuracy.}\\label{tab:t}\n\\end{table}\n"
    )
    main = "\\documentclass{article}\n{}\\begin{document}\n\\input{results}\n\\end{document}\n"
    definition = "\\newcommand{\\method}{\\textsc{Sparse}\\xspace}\n\\newcommand{\\bigmethod}{\\method-L}\n"
    files = {"main.tex": main.replace("{}", definition), "results.tex": table.replace("\\method{}", "\\bigmethod{}")}
    found = {finding.code: finding for finding in rule_findings(tmp_path / "defined", files, "TAB001", "NUM001")}
    assert "Table tab:t (row Sparse-L)" in found["TAB001"].message
    assert "Table tab:t (row Sparse-L, column A)" in found["NUM001"].message
    # Without the definition the row keeps the macro as written, and each finding keeps its fingerprint.
    raw = {finding.code: finding for finding in rule_findings(tmp_path / "undefined", {**files, "main.tex": main.replace("{}", "")})}
    assert "(row \\bigmethod)" in raw["TAB001"].message
    assert {code: raw[code].fingerprint for code in found} == {code: finding.fingerprint for code, finding in found.items()}


def test_aggregate_row_closing_a_group_summarises_the_rows_since_the_last_one(tmp_path):
    # Two conditions, each closed by its own Overall row: the second Overall covers Video and Audio of the second.
    rows = (
        "Video & 0.88 & 0.90 & 0.86 & 0.88 \\\\\nAudio & 0.90 & 0.92 & 0.88 & 0.90 \\\\\nOverall & 0.89 & 0.91 & 0.87 & 0.89 \\\\\n"
        "Video & 0.82 & 0.89 & 0.76 & 0.82 \\\\\nAudio & 0.80 & 0.87 & 0.74 & 0.80 \\\\\nOverall & 0.81 & 0.88 & 0.75 & 0.81 \\\\\n"
    )
    header = "Condition & P & Q & R & S"
    assert findings(tmp_path, rows, "TAB001", header) == []
    found = findings(tmp_path, rows.replace("Overall & 0.81 & 0.88", "Overall & 0.81 & 0.68"), "TAB001", header)
    assert len(found) == 1 and "0.68" in found[0].message and "0.88" in found[0].message
