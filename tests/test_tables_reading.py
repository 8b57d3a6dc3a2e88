"""How tables are read from their LaTeX: which rows head them, which rows are not the table's, and which cells
hold no value, in the idioms papers of every field write."""

from helpers import document, make_project


def _tables(tmp_path, body: str, preamble: str = ""):
    return [placed.block.table for placed in make_project(tmp_path, {"main.tex": document(body, preamble)}).index.tables]


def _texts(table) -> list[list[str]]:
    return [[cell.text for cell in row] for row in table.rows]


def test_a_tabular_in_a_macro_definition_is_no_table(tmp_path):
    preamble = (
        "\\newcommand{\\specialcell}[2][c]{\\begin{tabular}[#1]{@{}c@{}}#2\\end{tabular}}\n"
        "\\newcommand{\\vecv}[2]{{\\left(\\begin{array}{@{}c@{}} #1 \\\\ #2\\end{array}\\right)}}\n"
    )
    body = "\\begin{table}\\begin{tabular}{lc}\nMethod & Acc \\\\ \\hline\nA & 93.4 \\\\\n\\end{tabular}\\end{table}"
    (table,) = _tables(tmp_path, body, preamble)
    assert _texts(table) == [["Method", "Acc"], ["A", "93.4"]]
