"""TAB rules on small LaTeX projects: aggregates and best-value marks."""

from pathlib import Path

from auditex.analyzers.check import check_path


def findings(tmp_path: Path, rows: str, code: str, header: str = r"Method & A & B & C & Avg", caption: str = "Accuracy.") -> list:
    table = ("\\begin{table}\\centering\n\\begin{tabular}{lcccc}\\toprule\n" + header + " \\\\ \\midrule\n" + rows
             + "\\bottomrule\n\\end{tabular}\n\\caption{" + caption + "}\\label{tab:t}\n\\end{table}\n")
    (tmp_path / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\n" + table + "\\end{document}\n")
    return [f for f in check_path(tmp_path).findings if f.code == code]


GOOD = ("Base & 70.0 & 80.0 & 90.0 & 80.0 \\\\\n"
        "Other & 71.2 & 80.4 & 89.9 & 80.5 \\\\\n"
        "Ours & \\textbf{75.0$\\pm$0.3} & \\textbf{85.0} & \\textbf{95.0} & \\textbf{85.0} \\\\\n")


def test_altered_average_is_flagged_with_the_recomputed_mean(tmp_path):
    found = findings(tmp_path, GOOD.replace("& 80.5", "& 83.5"), "TAB001")
    assert len(found) == 1
    assert "83.5" in found[0].message and "80.5" in found[0].message
    assert found[0].range.start.line == 6
    assert found[0].fixes[0].edits[0].new_text == "80.5"


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
    (tmp_path / "main.tex").write_text("\\documentclass{article}\n\\newcommand{\\method}{SparseProbe}\n\\begin{document}\n"
                                       + prose + "\n" + BEST_TABLE + "\\end{document}\n")
    return [f for f in check_path(tmp_path).findings if f.code == "TAB003"]


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
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\newcommand{\\method}{Ours}\n\\begin{document}\n\\section{Introduction}\n"
        "\\method{} achieves the highest accuracy on CIFAR-10 (Table~\\ref{tab:main}).\n\\input{results}\n\\end{document}\n")
    (tmp_path / "results.tex").write_text("\\section{Results}\n" + BEST_TABLE)
    found = [f for f in check_path(tmp_path).findings if f.code == "TAB003"]
    assert [(f.file, f.range.start.line) for f in found] == [("main.tex", 4)]
    assert found[0].related[0].file == "results.tex" and "91.3" in found[0].related[0].message
