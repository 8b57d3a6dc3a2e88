"""A pgfplots figure's plotted numbers read as a table: rows the plotted x, columns the series."""

from __future__ import annotations

from auditex.latex.plot_data import plotted_tables


def _grid(source: str) -> list[list[list[str]]]:
    return [[[cell.text for cell in row] for row in table.rows] for table in plotted_tables(source, 0, len(source))]


def test_series_are_columns_named_by_the_legend_and_points_rows_named_by_their_coordinate():
    source = (
        "\\begin{axis}[ybar, symbolic x coords={Usefulness, Usability}]\n"
        "\\addplot[fill=black!15] coordinates {(Usefulness,85.42) (Usability,81.67)};\n"
        "\\addplot coordinates {(Usefulness,77.78) (Usability,75.21)};\n"
        "\\legend{Normal paper, Screen}\n\\end{axis}"
    )
    assert _grid(source) == [[["", "Normal paper", "Screen"], ["Usefulness", "85.42", "77.78"], ["Usability", "81.67", "75.21"]]]
    (table,) = plotted_tables(source, 0, len(source))
    assert source[table.rows[1][2].start : table.rows[1][2].end] == "77.78"


def test_tick_labels_name_numbered_points_and_series_without_a_legend_share_the_y_label():
    source = (
        "\\begin{axis}[\n  xtick={-2,0,1,3},\n  xticklabels={,Homogeneous\\ \\ ,\\ \\ Ours,},\n  ylabel={\\scriptsize Energy (J)},\n"
        "  % xtick={9},\n]\n\\addplot[fill=orange] coordinates {(0, 107.9)};\n\\addplot coordinates {(1, 32.4)};\n\\end{axis}"
    )
    assert _grid(source) == [[["", "Energy (J)"], ["Homogeneous", "107.9"], ["Ours", "32.4"]]]


def test_horizontal_bars_and_inline_tables_are_read_and_data_files_are_not():
    horizontal = "\\begin{axis}[xbar]\n\\addplot coordinates {(29,Consumer) (6,None)};\n\\end{axis}"
    assert _grid(horizontal) == [[["", "value"], ["Consumer", "29"], ["None", "6"]]]
    inline = "\\begin{axis}\n\\addplot table {\nx y\n1 3.5\n2 4.0\n};\n\\addlegendentry{Ours}\n\\end{axis}"
    assert _grid(inline) == [[["", "Ours"], ["1", "3.5"], ["2", "4.0"]]]
    assert _grid("\\begin{axis}\n\\addplot table {figures/loss.csv};\n\\addplot {x^2};\n\\end{axis}") == []


def test_a_figure_shows_its_plot_as_a_table_under_its_label(tmp_path):
    from helpers import make_project

    from auditex.latex.model import BlockKind

    figure = (
        "\\begin{figure}\n\\begin{tikzpicture}\n\\begin{axis}[symbolic x coords={A, B}]\n"
        "\\addplot coordinates {(A, 30.0) (B, 12.0)};\n\\end{axis}\n\\end{tikzpicture}\n\\caption{Time.}\\label{fig:t}\n\\end{figure}\n"
    )
    paper = f"\\documentclass{{article}}\n\\begin{{document}}\nSee Figure~\\ref{{fig:t}}.\n{figure}\\end{{document}}\n"
    project = make_project(tmp_path, {"main.tex": paper})
    (placed,) = [placed for placed in project.manuscript.blocks if placed.kind is BlockKind.TABLE]
    assert placed.block.labels == ["fig:t"] and placed.block.table is not None and placed.block.table.caption == "Time."
    assert [cell.value for row in placed.block.table.rows[1:] for cell in row[1:]] == [30.0, 12.0]


def test_a_figure_that_inputs_its_plot_gives_it_its_label_and_caption_through_edits(tmp_path):
    from helpers import make_project

    from auditex.latex.model import BlockKind

    plot = "\\begin{tikzpicture}\n\\begin{axis}[symbolic x coords={A, B}]\n\\addplot coordinates {(A, 30.0) (B, 12.0)};\n\\end{axis}\n\\end{tikzpicture}\n"
    paper = "\\documentclass{article}\n\\begin{document}\nSee Figure~\\ref{fig:t}.\n\\begin{figure}\n\\input{plot}\n\\caption{Time in s.}\\label{fig:t}\n\\end{figure}\n\\end{document}\n"
    project = make_project(tmp_path, {"main.tex": paper, "plot.tex": plot})

    def shown():
        return [(p.block.labels, p.block.table.caption) for p in project.manuscript.blocks if p.kind is BlockKind.TABLE and p.block.table]

    assert shown() == [(["fig:t"], "Time in s.")]
    project.update("main.tex", paper.replace("Time in s.", "Time in ms.").replace("fig:t", "fig:u"))
    assert shown() == [(["fig:u"], "Time in ms.")]
