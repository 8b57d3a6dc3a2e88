"""The meaning-preserving rewrites of evaluation/latex_rewrites.py and the tally of evaluation/variants.py."""

from __future__ import annotations

import pytest

from auditex.evaluation.latex_rewrites import REWRITES, TABLE_FOLDER
from auditex.evaluation.real_errors import Problem
from auditex.evaluation.variants import Outcome, family, survival_table

PAPER = r"""\documentclass{article}
\begin{document}
Ours reaches 91.3\% in Table~\ref{tab:main}, above Base (Tab.~\ref{tab:main}); $0.52$ overall.
\begin{table}[t]
\caption{Accuracy.}\label{tab:main}
\begin{tabular}{lccc}
\hline
Method & Acc & F1 & N \\
\hline
% a comment & with & cells \\
Base & 88.1\% & 0.50 $\pm$ 0.02 & 120 \\
Ours & \textbf{91.3}\% & \textbf{0.52} $\pm$ 0.01 & 120 \\
\hline
\end{tabular}
\end{table}
\end{document}
"""


def rewritten(name: str) -> str:
    return REWRITES[name]({"main.tex": PAPER}).files["main.tex"]


@pytest.mark.parametrize("name", [name for name in REWRITES if name != "table-in-own-file"])
def test_each_rewrite_changes_the_paper_and_keeps_its_lines(name: str) -> None:
    text = rewritten(name)
    assert text != PAPER
    assert text.count("\n") == PAPER.count("\n")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("ref-abbreviated", r"in Tab.~\ref{tab:main}"),
        ("ref-cref", r"in \cref{tab:main}, above Base (\cref{tab:main})"),
        ("ref-autoref", r"in \autoref{tab:main}"),
        ("ref-spaced", r"in Table \ref{tab:main}"),
        ("ref-spelled-out", r"(Table~\ref{tab:main})"),
        ("tilde-to-space", r"in Table \ref{tab:main}"),
        ("rules-swapped", "\\toprule\nMethod & Acc & F1 & N \\\\\n\\midrule"),
        ("bold-declared", r"{\bf 91.3}\%"),
        ("bold-math", r"& $\mathbf{0.52}$ $\pm$"),
        ("sized-and-centred", r"\begin{table}[t]\small\centering"),
        ("resized", r"\resizebox{\linewidth}{!}{\begin{tabular}{lccc}"),
        ("adjustboxed", r"\end{tabular}\end{adjustbox}"),
        ("tabular-star", r"\begin{tabular*}{\linewidth}{@{\extracolsep{\fill}}lccc}"),
        ("tabularx", r"\begin{tabularx}{\linewidth}{lccc}"),
        ("caption-moved", "%\\label{tab:main}"),
        ("numbers-in-math", r"Base & 88.1\% & 0.50 $\pm$ 0.02 & $120$"),
        ("math-numbers-as-text", "; 0.52 overall"),
        ("pm-tight", r"0.50$\pm$0.02"),
        ("pm-in-math", r"$0.50 \pm 0.02$"),
        ("percent-in-header", "Method & Acc (\\%) & F1 & N \\\\\n"),
        ("header-group", r"& \multicolumn{3}{c}{Results} \\ \cmidrule{2-4} Method"),
        ("siunitx-s-columns", r"\begin{tabular}{lSSS}"),
        ("method-shorthand", r"\variantname{} & \textbf{91.3}"),
    ],
)
def test_a_rewrite_spells_the_same_content_another_way(name: str, expected: str) -> None:
    assert expected in rewritten(name)


def test_a_cell_rewrite_reads_cells_not_comments_nor_prose() -> None:
    text = rewritten("siunitx-num")
    assert "% a comment & with & cells" in text and "; $0.52$ overall" in text
    assert r"& \num{0.50} $\pm$" not in text  # a cell holding more than a number is left as it is
    assert rewritten("percent-in-header").count("(\\%)") == 1  # only the column whose cells had a percent sign


def test_a_moved_caption_leaves_its_comments_behind() -> None:
    paper = PAPER.replace(r"\caption{Accuracy.}", "\\caption{Accuracy. % said twice\nOf all.}")
    text = REWRITES["caption-moved"]({"main.tex": paper}).files["main.tex"]
    assert r"\end{tabular}\caption{Accuracy. Of all.}" in text and text.count("\n") == paper.count("\n")


def test_a_table_moved_to_its_own_file_is_input_where_it_stood() -> None:
    result = REWRITES["table-in-own-file"]({"main.tex": PAPER})
    moved = f"{TABLE_FOLDER}/main_1.tex"
    assert result.files["main.tex"].count("\n") == PAPER.count("\n")
    assert f"\\input{{{moved.removesuffix('.tex')}}}" in result.files["main.tex"]
    assert result.files[moved].startswith("\\begin{table}[t]")
    assert result.place("main.tex", 12) == (moved, 9) and result.place("main.tex", 3) == ("main.tex", 3)


def test_the_survival_table_counts_per_rewrite_and_family() -> None:
    problem = Problem("p", "main.tex", 12, "bold-not-best", "", True)
    outcomes = [
        Outcome("resized", problem, family("TAB002"), True, True),
        Outcome("ref-cref", problem, family("TAB002"), True, False),
        Outcome("pm-tight", problem, family("TAB002"), False, False),
    ]
    table = survival_table(outcomes)
    assert table["rewrite"]["ref-cref"] == {"applicable": 1, "survived": 0, "lost": 1, "not_applicable": 0}
    assert table["family"]["TAB"] == {"applicable": 2, "survived": 1, "lost": 1, "not_applicable": 1}
