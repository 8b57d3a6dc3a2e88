"""Table cells written through the author's own macros are read as TeX prints them (latex.cell_macros)."""

from __future__ import annotations

from helpers import write_project

from auditex.latex.manuscript import build_manuscript
from auditex.latex.model import Cell
from auditex.latex.project import Project

_PREAMBLE = r"""\documentclass{article}
\newcommand{\B}[1]{\textbf{#1}}
\newcommand{\snd}[1]{\underline{#1}}
\newcommand{\res}[2]{#1{\scriptsize$\pm$#2}}
\newcommand{\pair}[2]{$#1$ {\color{gray}\footnotesize $\pm#2$}}
\iffalse
\newcommand{\off}[1]{\textbf{#1}}
\fi
"""

_BODY = r"""\begin{document}
\section{Results}
Ours is best on A (Table~\ref{t}).
\begin{table}
\begin{tabular}{lccc}
M & A & B & C \\
X & \B{85.3} & \res{84.1}{0.3} & \pair{4.5\cdot10^{-3}}{1.5\cdot10^{-3}} \\
Y & \snd{86.1} & \off{80.0} & 0.88 \\
\end{tabular}
\caption{Results.}\label{t}
\end{table}
\end{document}
"""


def _cells(project: Project) -> dict[str, Cell]:
    (table,) = [placed.block.table for placed in project.manuscript.blocks if placed.block.table is not None]
    return {f"{cell.row},{cell.column}": cell for row in table.rows for cell in row}


def test_a_cell_written_through_an_author_macro_reads_as_printed(tmp_path):
    write_project(tmp_path, {"main.tex": _PREAMBLE + _BODY})
    project = Project(tmp_path, "main.tex")
    cells = _cells(project)
    text = (tmp_path / "main.tex").read_text()
    bold = cells["1,1"]
    assert (bold.value, bold.bold, bold.underline) == (85.3, True, False)
    assert text[bold.start : bold.end] == r"\B{85.3}"  # the finding sits on the source as written
    assert (cells["1,2"].value, cells["1,2"].spread) == (84.1, 0.3)
    assert (cells["1,3"].value, cells["1,3"].spread) == (4.5e-3, 1.5e-3)
    assert (cells["2,1"].underline, cells["2,1"].bold) == (True, False)


def test_a_definition_tex_never_reads_marks_nothing(tmp_path):
    write_project(tmp_path, {"main.tex": _PREAMBLE + _BODY})
    cell = _cells(Project(tmp_path, "main.tex"))["2,2"]
    assert (cell.value, cell.bold) == (80.0, False)


def test_typing_in_the_prose_reads_the_table_as_a_fresh_walk_does(tmp_path):
    write_project(tmp_path, {"main.tex": _PREAMBLE + _BODY})
    project = Project(tmp_path, "main.tex")
    before = [placed.block for placed in project.manuscript.blocks if placed.block.table is not None]
    text = (tmp_path / "main.tex").read_text()
    project.update("main.tex", text.replace("is best on A", "is the best on A"))
    after = [placed.block for placed in project.manuscript.blocks if placed.block.table is not None]
    fresh = [placed.block.table for placed in build_manuscript(project).blocks if placed.block.table is not None]
    assert [block.table for block in after] == fresh
    assert after[0].table is not None and before[0].table is not None
    assert [cell.bold for row in after[0].table.rows for cell in row] == [cell.bold for row in before[0].table.rows for cell in row]
    assert after[0].table.rows[1][1].bold


def test_editing_a_definition_reads_the_cells_again(tmp_path):
    write_project(tmp_path, {"main.tex": _PREAMBLE + _BODY})
    project = Project(tmp_path, "main.tex")
    assert _cells(project)["1,1"].bold
    text = (tmp_path / "main.tex").read_text()
    project.update("main.tex", text.replace(r"\newcommand{\B}[1]{\textbf{#1}}", r"\newcommand{\B}[1]{\emph{#1}}"))
    assert not _cells(project)["1,1"].bold


def test_a_macro_that_sets_several_cells_leaves_the_cell_as_parsed(tmp_path):
    body = _BODY.replace(r"\pair{4.5\cdot10^{-3}}{1.5\cdot10^{-3}}", r"\two{1.0}{2.0}")
    write_project(tmp_path, {"main.tex": _PREAMBLE.replace(r"\iffalse", "\\newcommand{\\two}[2]{#1 & #2}\n\\iffalse") + body})
    cell = _cells(Project(tmp_path, "main.tex"))["1,3"]
    assert cell.value is None  # TeX sets "1.0" and "2.0" in two cells: neither is this cell's number
