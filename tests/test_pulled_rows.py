"""Rows a tabular reads from a file of bare rows join the table's grid."""

from __future__ import annotations

from helpers import make_project

from auditex.latex.model import Table

_ROWS = "A & 81.2 \\\\\nB & 79.4 \\\\\n"


def _paper(command: str, preamble: str = "") -> str:
    return (
        f"\\documentclass{{article}}\n{preamble}\\begin{{document}}\n\\section{{Results}}\nSee Table~\\ref{{tab:s}}.\n"
        "\\begin{table}\n\\caption{Scores}\\label{tab:s}\n\\begin{tabular}{lc}\n\\toprule\nModel & Acc \\\\\n\\midrule\n"
        f"{command}{{tables/rows}}\n\\bottomrule\n\\end{{tabular}}\n\\end{{table}}\n\\end{{document}}\n"
    )


def _tables(project) -> list[Table]:
    return [placed.block.table for placed in project.manuscript.blocks if placed.block.table is not None]


def test_input_rows_join_the_grid_where_the_command_stands(tmp_path):
    project = make_project(tmp_path, {"main.tex": _paper("\\input"), "tables/rows.tex": _ROWS})
    (table,) = _tables(project)
    assert [[cell.text for cell in row] for row in table.rows] == [["Model", "Acc"], ["A", "81.2"], ["B", "79.4"]]
    assert table.header_rows == 1 and [cell.row for row in table.rows for cell in row] == [0, 0, 1, 1, 2, 2]
    text = project.documents["main.tex"].text
    assert text[table.rows[1][1].start : table.rows[1][1].end] == "\\input{tables/rows}"
    assert (len(table.rows), "bottomrule") in table.rules


def test_a_paper_command_that_reads_a_file_is_followed(tmp_path):
    files = {
        "main.tex": _paper("\\PlainInput", "\\usepackage{main}\n"),
        "main.sty": "\\let\\PlainInput=\\@@input\n",
        "tables/rows.tex": _ROWS,
    }
    (table,) = _tables(make_project(tmp_path, files))
    assert [row[1].value for row in table.rows[1:]] == [81.2, 79.4]


def test_a_file_holding_the_header_too_gives_the_header(tmp_path):
    paper = _paper("\\input").replace("\\toprule\nModel & Acc \\\\\n\\midrule\n", "")
    rows = "\\multicolumn{2}{c}{Scores} \\\\\n\\cline{2-2}\nModel & Acc \\\\\n\\hline\n" + _ROWS
    (table,) = _tables(make_project(tmp_path, {"main.tex": paper, "tables/rows.tex": rows}))
    assert table.header_rows == 2 and table.rows[2][1].value == 81.2


def test_commands_that_do_something_else_and_files_outside_are_not_read(tmp_path):
    defined = _paper("\\note", "\\newcommand{\\note}[1]{\\textit{#1}}\n")
    (table,) = _tables(make_project(tmp_path / "a", {"main.tex": defined, "tables/rows.tex": _ROWS}))
    assert len(table.rows) == 1
    outside = _paper("\\input").replace("{tables/rows}", "{../rows}")
    (tmp_path / "rows.tex").write_text(_ROWS, encoding="utf-8")
    (table,) = _tables(make_project(tmp_path / "b", {"main.tex": outside}))
    assert len(table.rows) == 1


def test_typing_in_the_prose_keeps_the_pulled_rows(tmp_path):
    project = make_project(tmp_path, {"main.tex": _paper("\\input"), "tables/rows.tex": _ROWS})
    project.manuscript
    text = project.documents["main.tex"].text
    project.update("main.tex", text.replace("See Table", "As seen in Table"))
    (table,) = _tables(project)
    assert len(table.rows) == 3
    assert project.documents["main.tex"].text[table.rows[2][0].start :].startswith("\\input{tables/rows}")


def test_the_rows_are_the_tables_not_a_paragraph_of_their_own(tmp_path):
    """The prose rules would read `A & 81.2` as a sentence stating 81.2 beside the table that holds it."""
    project = make_project(tmp_path, {"main.tex": _paper("\\input"), "tables/rows.tex": _ROWS})
    assert [placed.file for placed in project.manuscript.blocks] == ["main.tex"] * 3
    (section,) = project.manuscript.sections
    assert "tables/rows.tex" in [run.file for run in section.runs]  # its text is still the section's


def test_typing_in_the_file_of_rows_reads_the_rows_again(tmp_path):
    project = make_project(tmp_path, {"main.tex": _paper("\\input"), "tables/rows.tex": _ROWS})
    project.manuscript
    change = project.update("tables/rows.tex", _ROWS.replace("81.2", "88.8"))
    assert [row[1].text for row in _tables(project)[0].rows] == ["Acc", "88.8", "79.4"]
    assert change.changed_sections == ["main.tex#Results"]
    project.update("tables/rows.tex", _ROWS + "C & 70.1 \\\\\n")
    assert [row[0].text for row in _tables(project)[0].rows] == ["Model", "A", "B", "C"]


def test_a_tabular_of_pictures_reads_no_rows_from_them(tmp_path):
    """`\\input{a.tikz} & \\input{b.tikz}` sets two drawings side by side: their code is no row of a table."""
    paper = _paper("\\input").replace("\\input{tables/rows}", "\\input{plots/a.tikz} & \\input{plots/b.tikz} \\\\")
    picture = "\\begin{tikzpicture}\n\\draw (0,0) -- (1,1);\n\\end{tikzpicture}\n"
    project = make_project(tmp_path, {"main.tex": paper, "plots/a.tikz": picture, "plots/b.tikz": picture})
    (table,) = _tables(project)
    assert not table.pulls and len(table.rows) == 2  # the header and the row of pictures
    assert "plots/a.tikz" in {placed.file for placed in project.manuscript.blocks}  # walked as the drawing it is


def test_a_tabular_input_into_a_float_takes_its_caption_through_edits(tmp_path):
    """A float whose tabular is a file of its own captions that tabular: a rule reads the caption's notes
    ("bold marks the second best", "standard errors in parentheses") beside the cells."""
    float_text = "\\begin{table}\n\\caption{Scores, higher is better}\\label{tab:s}\n\\input{scores}\n\\end{table}\n"
    files = {
        "main.tex": f"\\documentclass{{article}}\n\\begin{{document}}\n\\section{{Results}}\nSee Table~\\ref{{tab:s}}.\n{float_text}\\end{{document}}\n",
        "scores.tex": "\\begin{tabular}{lc}\nModel & Acc \\\\\nA & 81.2 \\\\\n\\end{tabular}\n",
    }
    project = make_project(tmp_path, files)
    assert [table.caption for table in _tables(project)] == ["Scores, higher is better"]
    project.update("main.tex", files["main.tex"].replace("higher", "lower"))
    assert [table.caption for table in _tables(project)] == ["Scores, lower is better"]
