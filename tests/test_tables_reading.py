"""How tables are read from their LaTeX: which rows head them, which rows are not the table's, and which cells
hold no value, in the idioms papers of every field write."""

from helpers import document, make_project

from auditex.analyzers.rules.tables.model import Grid
from auditex.latex.tables import read_number


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


def test_a_longtable_is_its_first_head_and_its_body_without_its_caption_repeated_head_or_feet(tmp_path):
    body = r"""\begin{longtable}{lr}
\caption{Shifts}\label{tab:shifts}\\
\hline
Spin & $\delta$ (ppm) \\
\hline
\endfirsthead
\hline
Spin & $\delta$ (ppm) \\
\hline
\endhead
\hline
\multicolumn{2}{r}{Continues on next page...}\\
\hline
\endfoot
\hline
\endlastfoot
A & 1.25 \\
B & 2.50 \\
\end{longtable}"""
    (table,) = _tables(tmp_path, body, "\\usepackage{longtable}")
    assert _texts(table) == [["Spin", "δ (ppm)"], ["A", "1.25"], ["B", "2.50"]]
    assert table.header_rows == 1 and table.rows[2][1].value == 2.5


def test_a_longtable_head_ends_at_endhead(tmp_path):
    body = r"""\begin{longtable}{lrr}
\toprule
Study & Control (n) & Cases (n)\tabularnewline
\midrule
\endhead
Ahn & 148 & 62\tabularnewline
Baxter & 172 & 120\tabularnewline
\bottomrule
\end{longtable}"""
    (table,) = _tables(tmp_path, body, "\\usepackage{longtable}")
    assert _texts(table) == [["Study", "Control (n)", "Cases (n)"], ["Ahn", "148", "62"], ["Baxter", "172", "120"]]
    assert table.header_rows == 1


def test_a_deluxetable_s_rows_are_its_data_without_its_caption_width_or_notes(tmp_path):
    body = r"""\begin{deluxetable}{lcc}
\tablewidth{0pt}
\tablecaption{Outflow catalog.\label{tab:outflows}}
\tablehead{\colhead{Source} & \colhead{$v$} & \colhead{Rank}}
\startdata
SMZ 11 & 7.5 & 9 \\
HOPS 383 & 9.6 & 2
\enddata
\tablenotetext{a}{HOPS sources are protostars from the catalog of 2016.}
\end{deluxetable}"""
    (table,) = _tables(tmp_path, body, "\\usepackage{aastex}")
    assert _texts(table) == [["Source", "v", "Rank"], ["SMZ 11", "7.5", "9"], ["HOPS 383", "9.6", "2"]]
    assert table.header_rows == 1 and table.rows[2][2].value == 2


def test_a_row_that_numbers_the_columns_heads_the_table_and_holds_no_value(tmp_path):
    body = r"""\begin{table}\begin{tabular}{lcccc}\toprule
 & \multicolumn{2}{c}{Time} & \multicolumn{2}{c}{Wage} \\ \cmidrule(lr){2-3}\cmidrule(lr){4-5}
 & (1) & (2) & (3) & (4) \\ \midrule
Cancellation & 7.540 & 10.161 & 0.632 & 0.434 \\
 & (0.206) & (0.409) & (0.010) & (0.020) \\ \midrule
\multicolumn{5}{l}{Panel B} \\
 & (5) & (6) & (7) & (8) \\ \midrule
No-show & 7.663 & 10.896 & 0.079 & 0.017 \\ \bottomrule
\end{tabular}\end{table}"""
    (table,) = _tables(tmp_path, body)
    assert table.header_rows == 2 and table.column_header(1) == "Time (1)" and table.row_header(2) == "Cancellation"
    assert [cell.value for cell in table.rows[1][1:]] == [None] * 4
    assert [cell.value for cell in table.rows[5][1:]] == [None] * 4  # panel B's numbers name its columns too
    assert table.rows[3][1].value == 0.206  # a standard error is a number


def test_a_row_of_whole_numbers_under_group_names_names_the_groups_columns(tmp_path):
    body = r"""\begin{table}\begin{tabular}{lcccccc}\hline
Rec. & \multicolumn{3}{c}{Face Detector} & \multicolumn{3}{c}{Manual} \\ \hline
Session & 2 & 3 & 4 & 2 & 3 & 4 \\ \hline
NS & 30.8\% & 29.4\% & 24.6\% & 77.6\% & 74.3\% & 73.4\% \\ \hline
\end{tabular}\end{table}"""
    (table,) = _tables(tmp_path, body)
    assert table.header_rows == 2 and table.column_header(4) == "Manual 2" and table.row_header(2) == "NS"
    # A number names the column only with the group's words above it.
    assert Grid.of(table).own_header(4) == "Manual 2" and Grid.of(table).own_header(0) == "Session"


def test_whole_numbers_under_group_names_above_whole_numbers_are_the_body(tmp_path):
    body = r"""\begin{table}\begin{tabular}{lccc}\hline
 & \multicolumn{3}{c}{Errors per run} \\ \hline
A & 3 & 5 & 7 \\
B & 2 & 4 & 1 \\ \hline
\end{tabular}\end{table}"""
    (table,) = _tables(tmp_path, body)
    assert table.header_rows == 1 and table.rows[1][1].value == 3


def test_the_units_package_s_value_is_read_and_a_siunitx_option_is_not(tmp_path):
    body = r"""\begin{table}\begin{tabular}{lr}
Parameter & Value \\ \hline
Scattering length & \unit[9.46]{nm} \\
Trap frequency & $\unit[1020]{Hz}$ \\
Speed & \unit[per-mode=symbol]{\metre\per\second} \\
\end{tabular}\end{table}"""
    (table,) = _tables(tmp_path, body, "\\usepackage{units}")
    assert [row[1].text for row in table.rows[1:]] == ["9.46 nm", "1020 Hz", "m/s"]
    assert [row[1].value for row in table.rows[1:]] == [9.46, 1020, None]


def test_a_spread_in_parentheses_is_read_where_the_table_says_parentheses_hold_spreads(tmp_path):
    body = r"""\begin{table}\caption{Speedup. We report means (and standard deviations) over 10 folds.}
\begin{tabular}{lcc}\hline
Variant & Evaluations & Insertions \\ \hline
CORELS & 7 (1) & 2.0 (.2) \\
No bound & $>$ 390 (40) & 9.4 [0.7] \\ \hline
\end{tabular}\end{table}"""
    (table,) = _tables(tmp_path, body)
    assert [(cell.value, cell.spread) for cell in table.rows[1][1:]] == [(7, 1), (2.0, 0.2)]
    assert [(cell.value, cell.spread) for cell in table.rows[2][1:]] == [(390, 40), (9.4, 0.7)]


def test_a_row_or_column_named_mean_sd_holds_spreads_in_parentheses_and_counts_with_shares_do_not(tmp_path):
    body = r"""\begin{table}\caption{Sample. Numbers in parentheses are genes filtered out in the other analysis.}
\begin{tabular}{lcc}\hline
 & Treated & Mean (SD) \\ \hline
Age, mean (SD) & 37.2 (10.1) & 36.0 (9.0) \\
Women, n (\%) & 418 (44.1) & 3281 (54) \\ \hline
\end{tabular}\end{table}"""
    (table,) = _tables(tmp_path, body)
    assert [cell.spread for cell in table.rows[1][1:]] == [10.1, 9.0]
    assert [(cell.value, cell.spread) for cell in table.rows[2][1:]] == [(418, None), (3281, None)]  # a row of counts and shares says so


def test_an_operand_of_a_formula_is_not_the_cell_s_value():
    assert read_number("β=σ_0/2, γ: score variance") is None
    assert read_number("x_t∈R^9276, i=1,...,I") is None
    assert read_number("ω_r = 2π × 1020 Hz") is None
    assert read_number("κ=31.62") == (31.62, 2, None, False)
    assert read_number("N = 2× 10^6") == (2e6, 0, None, False)
    assert read_number("^ 5×10^-6") == (5e-6, 6, None, False)  # an empty superscript that aligns the column


def test_a_power_of_ten_alone_is_its_value_and_another_power_or_an_angle_is_none_but_a_raised_mark_leaves_it():
    assert read_number("10^-3") == (0.001, 3, None, False)
    assert read_number("10^34 m^2 kg/s") == (1e34, 0, None, False)
    assert read_number("2^10") is None
    assert read_number("0.300^‡") == (0.3, 3, None, False) and read_number("12^a") == (12, 0, None, False)
    assert read_number("5^h35^m23.30^s") is None and read_number("-5^∘07^'10.00^''") is None
    assert read_number("1.5×10^3") == (1500.0, 0, None, False)


def test_an_uncertainty_in_the_last_digits_is_the_spread():
    assert read_number("2.977(77)") == (2.977, 3, 0.077, False)
    assert read_number("1.2345(6)") == (1.2345, 4, 0.0006, False)
    assert read_number("2.977 (77)")[2] is None and read_number("12(3)")[2] is None  # apart, or no digits to count in


def test_a_tabular_s_position_is_no_cell(tmp_path):
    body = r"""\begin{table}\begin{tabular}[t]{lrr}\toprule
Method & Time & Memory \\ \midrule
Ours & 1.5 & 20 \\ \bottomrule
\end{tabular}\quad\begin{tabularx}{\linewidth}[b]{lX}
Method & Note \\ \hline
Ours & fast \\
\end{tabularx}\end{table}"""
    first, second = _tables(tmp_path, body, "\\usepackage{tabularx}")
    assert _texts(first) == [["Method", "Time", "Memory"], ["Ours", "1.5", "20"]]
    assert _texts(second) == [["Method", "Note"], ["Ours", "fast"]]


def test_a_row_of_words_under_group_names_beside_a_row_name_names_the_groups_columns(tmp_path):
    body = r"""\begin{table}\begin{tabular}{lcccc}\toprule
Sequence Length & \multicolumn{2}{c}{1,024} & \multicolumn{2}{c}{8,192} \\ \midrule
 & CuDNN & GILR & CuDNN & GILR \\ \midrule
Iterations & 1.0 $\pm$ 0.4 & 0.55 $\pm$ 0.04 & 0.44 $\pm$ 0.05 & 0.56 $\pm$ 0.16 \\ \bottomrule
\end{tabular}\end{table}"""
    (table,) = _tables(tmp_path, body)
    assert table.header_rows == 2 and table.column_header(3) == "8,192 CuDNN" and table.row_header(2) == "Iterations"


def test_thousands_are_read_whole_grouped_by_commas_with_decimals_or_by_thin_spaces(tmp_path):
    assert read_number("$13,433.67") == (13433.67, 2, None, False)
    assert read_number("2 076") == (2, 0, None, False)  # a space the source did not set as a thin one parts numbers
    body = r"""\begin{table}\begin{tabular}{lrr}
 & GMAP & SpAln \\ \hline
Aligned reads & 103\,669 & 2\,076.5 \\
Hidden sizes & 64 128 & 1{,}024 \\
\end{tabular}\end{table}"""
    (table,) = _tables(tmp_path, body)
    assert [cell.value for cell in table.rows[1][1:]] == [103669, 2076.5]
    assert [cell.value for cell in table.rows[2][1:]] == [64, 1024]


def test_a_spread_written_as_a_subscript_or_siunitx_s_plus_minus_is_read_and_a_unit_marks_nothing(tmp_path):
    body = r"""\begin{table}\begin{tabular}{lccc}
Method & Acc & F1 & Time \\ \hline
Ours & $93.4_{\pm 0.3}$ & \num{71.2 +- 0.4} & \SI{1.5}{\milli\second} \\
\end{tabular}\end{table}"""
    (table,) = _tables(tmp_path, body, "\\usepackage{siunitx}")
    acc, f1, time = table.rows[1][1:]
    assert (acc.value, acc.spread, f1.value, f1.spread) == (93.4, 0.3, 71.2, 0.4)
    assert (time.value, time.underline, time.bold) == (1.5, False, False)


def test_textcomp_signs_and_a_math_style_switch_read_through(tmp_path):
    body = r"""\begin{table}\begin{tabular}{lccc}
Method & A & B & C \\ \hline
X & \textminus 3.2 & 93.4 $\scriptstyle\pm 0.3$ & $93.4^{\pm 0.3}$ \\
Y & 1.0 & 93.4 \textpm 0.3 & 2.0 \\
\end{tabular}\end{table}"""
    (table,) = _tables(tmp_path, body)
    assert [(cell.value, cell.spread) for cell in table.rows[1][1:]] == [(-3.2, None), (93.4, 0.3), (93.4, 0.3)]
    assert (table.rows[2][2].value, table.rows[2][2].spread) == (93.4, 0.3)
