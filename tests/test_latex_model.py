"""The manuscript model: discovery, parsing, structure, tables, the index, incrementality."""

import pytest
from helpers import document, make_project, write_project

from auditex.latex.dead_text import dead_spans
from auditex.latex.discovery import find_roots, magic_root
from auditex.latex.model import BlockKind, SectionKind
from auditex.latex.sandbox import ProjectRoot
from auditex.latex.source import SourceText
from auditex.latex.tables import column_types, read_number


def test_positions_are_utf16_and_round_trip():
    source = SourceText("a😀b\nxé😀y\n")
    offset = source.text.index("y")
    assert source.position(offset) == (1, 4)  # x, é, 😀 (2 units)
    assert source.offset(1, 4) == offset
    assert source.position(source.text.index("b")) == (0, 3)


def test_root_discovery_prefers_main_and_reads_magic_comment(tmp_path):
    write_project(
        tmp_path,
        {
            "main.tex": document("x"),
            "z/other.tex": document("y"),
            "sections/a.tex": "%!TEX root = ../main.tex\n\\section{A}",
        },
    )
    assert find_roots(ProjectRoot(tmp_path))[0] == "main.tex"
    assert magic_root((tmp_path / "sections/a.tex").read_text()) == "../main.tex"


def test_include_graph_follows_every_include_form(tmp_path):
    project = make_project(
        tmp_path,
        {
            "main.tex": document("\\input{a}\n\\include{b}\n\\subfile{c.tex}\n\\import{sub/}{d}\n\\bibliography{refs,more}"),
            "a.tex": "\\section{A}\\label{sec:a}",
            "b.tex": "B text",
            "c.tex": "C text",
            "sub/d.tex": "\\subimport{deeper/}{e}",
            "sub/deeper/e.tex": "E text",
            "refs.bib": "@article{k1, title={T}}",
            "more.bib": "@book{k2, title={U}}",
        },
    )
    assert project.files == ["main.tex", "a.tex", "b.tex", "c.tex", "sub/d.tex", "sub/deeper/e.tex"]
    assert project.bibliography_files == ["refs.bib", "more.bib"]
    assert set(project.index.bib_entries) == {"k1", "k2"}
    assert not project.problems


def test_missing_cycle_and_outside_paths_become_problems_without_reading(tmp_path):
    outside = tmp_path / "secret.tex"
    outside.write_text("SECRET")
    folder = tmp_path / "paper"
    (folder).mkdir()
    (folder / "link.tex").symlink_to(outside)
    project = make_project(
        folder,
        {
            "main.tex": document("\\input{a}\\input{missing}\\input{/etc/passwd}\\input{../secret}\\input{link}\\bibliography{../../x}"),
            "a.tex": "\\input{main}",
        },
    )
    kinds = sorted(p.kind for p in project.problems)
    assert kinds == ["include_cycle", "missing_file", "outside_root", "outside_root", "outside_root", "outside_root"]
    assert all("SECRET" not in d.text for d in project.documents.values())
    assert "link.tex" not in project.documents


def test_bbl_is_used_when_no_bib_ships(tmp_path):
    project = make_project(
        tmp_path,
        {
            "main.tex": document("\\cite{a}\\bibliography{refs}"),
            "main.bbl": "\\begin{thebibliography}{1}\n\\bibitem{a} A. Author.\n\\end{thebibliography}",
        },
    )
    assert project.bibliography_files == ["main.bbl"]
    assert "a" in project.index.bib_entries
    assert not project.problems


@pytest.mark.parametrize(
    ("preamble", "body"),
    [
        # papaja, jss and many journal classes: the abstract as a command, in the preamble or the body
        ("\\abstract{We reach 93.4\\% accuracy.\n\nIt holds.}", ""),
        ("", "\\abstract{We reach 93.4\\% accuracy.}"),
        ("", "\\abstract[Summary]{We reach 93.4\\% accuracy.}"),  # Wiley's journals
        ("", "\\ABSTRACT{We reach 93.4\\% accuracy.}"),  # INFORMS
        # IEEEtran's compsoc: the environment in the argument of a macro the parser does not know
        ("", "\\IEEEtitleabstractindextext{%\n\\begin{abstract}We reach 93.4\\% accuracy.\\end{abstract}}\n\\maketitle"),
    ],
)
def test_the_abstract_is_read_wherever_the_class_puts_it(tmp_path, preamble, body):
    text = document(body + "\n\\section{Results}\nOur method reaches 93.4\\%.", preamble)
    sections = make_project(tmp_path, {"main.tex": text}).manuscript.sections
    [abstract] = [section for section in sections if section.kind is SectionKind.ABSTRACT]
    assert "We reach 93.4% accuracy." in [placed.block.plain.text for placed in abstract.blocks]
    assert [section.kind for section in sections if section.title == "Results"] == [SectionKind.RESULTS]


def test_a_heading_that_begins_with_abstract_is_a_section_of_the_body(tmp_path):
    body = "\\section{Abstract Conflict Analysis}\nWe learn 3 clauses.\n\\section{Abstract Domains}\nIntervals."
    sections = make_project(tmp_path, {"main.tex": document(body)}).manuscript.sections
    assert not [section for section in sections if section.kind is SectionKind.ABSTRACT]


def test_text_that_runs_on_from_the_abstract_with_no_heading_is_the_papers_text(tmp_path):
    # APA leaves the introduction untitled (papaja), a letter has no headings at all (PRL); keywords are front matter.
    abstract = "\\begin{abstract}\nWe study drops.\n\\end{abstract}\n"
    letter = abstract + "\n\n".join(f"Paragraph {n} of the letter reports 1{n} drops." for n in range(5))
    keywords = abstract + "Keywords: drops, impact.\n\n\\section{Method}\nWe drop 12 drops."
    kinds = {
        name: [section.kind for section in make_project(tmp_path / name, {"main.tex": document(body)}).manuscript.sections]
        for name, body in (("letter", letter), ("keywords", keywords))
    }
    assert kinds == {
        "letter": [SectionKind.ABSTRACT, SectionKind.OTHER],
        "keywords": [SectionKind.ABSTRACT, SectionKind.FRONT, SectionKind.METHOD],
    }


def test_a_heading_or_appendix_in_a_preamble_patch_is_no_section(tmp_path):
    # papaja's template patches \section after \appendix: the preamble prints nothing there.
    preamble = (
        "\\usepackage{xpatch}\n\\xapptocmd\\appendix{\\xapptocmd\\section{\\addcontentsline{toc}{section}{\\appendixname: #1}}{}{}}{}{}\n"
    )
    body = "\\section{Method}\nWe ask 40 people.\n\\section{Results}\nThey answer.\n\\appendix\n\\section{Items}\nThe items."
    sections = make_project(tmp_path, {"main.tex": document(body, preamble)}).manuscript.sections
    titled = [(section.title, section.kind) for section in sections if section.title]
    assert titled == [("Method", SectionKind.METHOD), ("Results", SectionKind.RESULTS), ("Items", SectionKind.APPENDIX)]


def test_a_heading_reads_its_tex_not_its_bookmark_and_an_edit_reads_as_made(tmp_path):
    body = (
        "\\section{\\texorpdfstring{$\\pi_1(S^1)$}{pi1(S1)} results}\n"
        "We used b-values of \\replaced[id=R1]{0, 1000 and 2000}{0 and 1000} s/mm$^2$ for \\added{all} \\deleted{some of} the scans."
    )
    sections = make_project(tmp_path, {"main.tex": document(body, "\\usepackage{changes}")}).manuscript.sections
    [results] = [section for section in sections if section.title]
    assert results.title == "π_1(S^1) results"
    assert [placed.block.plain.text for placed in results.blocks] == ["We used b-values of 0, 1000 and 2000 s/mm^2 for all the scans."]


def test_a_list_typed_under_a_references_heading_ends_at_the_tables_set_after_it(tmp_path):
    # pandoc's output: the references as paragraphs, then the tables on pages of their own.
    body = (
        "\\section{Results}\nSee Table 1.\n\\section{References}\nAhn, J. (2013). A study. JNCI.\n\n"
        "Baxter, N. (2016). Another. Genome Med.\n\\newpage\n"
        "\\begin{longtable}{cc}\nStudy & n\\\\\nAhn & 148\\\\\nBaxter & 172\\\\\n\\end{longtable}\nFigure 1. The legend."
    )
    sections = make_project(tmp_path, {"main.tex": document(body)}).manuscript.sections
    [references] = [section for section in sections if section.kind is SectionKind.REFERENCES]
    assert [placed.kind for placed in references.blocks] == [BlockKind.PARAGRAPH, BlockKind.PARAGRAPH]
    after = sections[sections.index(references) + 1]
    assert after.kind is SectionKind.OTHER and [placed.kind for placed in after.blocks] == [BlockKind.TABLE, BlockKind.PARAGRAPH]


def test_sections_kinds_blocks_and_plain_text_map_back(tmp_path):
    body = r"""\begin{abstract}We reach 93.4\% accuracy.\end{abstract}
\section{Introduction}
Large Language Models (LLMs) are \textbf{large}.\footnote{A note.}
\section{Method}\label{sec:method}
\begin{equation} x = \alpha \label{eq:x}\end{equation}
\begin{theorem}\label{thm:main} All is well. \end{theorem}
\section{Experiments}
\begin{figure}\centering\caption{A figure.}\label{fig:a}\end{figure}
\begin{algorithm}Step one.\end{algorithm}
\appendix
\section{Proofs}
Proof text.
"""
    project = make_project(tmp_path, {"main.tex": document(body)})
    manuscript = project.manuscript
    kinds = [s.kind for s in manuscript.sections if s.title]
    assert kinds == [SectionKind.ABSTRACT, SectionKind.INTRODUCTION, SectionKind.METHOD, SectionKind.EXPERIMENTS, SectionKind.APPENDIX]
    block_kinds = {p.kind for p in manuscript.blocks}
    assert {
        BlockKind.PARAGRAPH,
        BlockKind.FOOTNOTE,
        BlockKind.MATH,
        BlockKind.THEOREM,
        BlockKind.FIGURE,
        BlockKind.CAPTION,
        BlockKind.ALGORITHM,
    } <= block_kinds
    labels = project.index.labels
    assert labels["sec:method"][0].kind == "section"
    assert labels["eq:x"][0].kind == "equation"
    assert labels["thm:main"][0].kind == "theorem"
    assert labels["fig:a"][0].kind == "figure"
    paragraph = next(p for p in manuscript.blocks if "Large Language" in p.block.plain.text)
    text = paragraph.block.plain.text
    assert "\\textbf" not in text and "large." in text
    start, end = paragraph.block.plain.source_span(text.index("large"), text.index("large") + 5)
    assert project.documents["main.tex"].text[start:end] == "large"
    assert any(a.short == "LLMs" and a.long == "Large Language Models" for _, a in project.index.inline_acronyms)


def test_an_authors_macro_keeps_the_space_after_it(tmp_path):
    """ "\\lang performs" reads as two words, never "\\langperforms": the name of a method stays a word."""
    body = "\\section{Results}\n\\lang performs worst, \\lang{} next and \\langR\\ last.\n"
    project = make_project(tmp_path, {"main.tex": document(body, "\\newcommand{\\lang}{Lang\\xspace}")})
    (placed,) = [placed for placed in project.manuscript.blocks if placed.kind is BlockKind.PARAGRAPH]
    assert placed.block.plain.text == "\\lang performs worst, \\lang next and \\langR last."


def test_tables_read_numbers_through_decoration(tmp_path):
    table = r"""\begin{table}\caption{Results}\label{tab:r}
\begin{tabular}{lccc}\toprule
Method & Acc $\uparrow$ & Err $\downarrow$ & X \\ \midrule
A & \textbf{93.4} & 1.2e-3 & -- \\
B & 93.4$\pm$0.2 & 12.5\% & \underline{7} \\
\multicolumn{2}{c}{Avg} & \multirow{1}{*}{4.0} & 3 \\
\bottomrule\end{tabular}\end{table}"""
    project = make_project(tmp_path, {"main.tex": document(table)})
    grid = project.index.tables[0].block.table
    assert grid.label == "tab:r" and grid.caption == "Results" and grid.header_rows == 1
    a, b, avg = grid.rows[1], grid.rows[2], grid.rows[3]
    assert (a[1].value, a[1].bold) == (93.4, True)
    assert a[2].value == pytest.approx(1.2e-3)
    assert a[3].value is None
    assert (b[1].value, b[1].spread) == (93.4, 0.2)
    assert b[2].percent and b[3].underline
    assert avg[0].column_span == 2 and avg[1].column == 2 and avg[1].value == 4.0
    assert grid.column_header(1) == "Acc ↑"
    source = project.documents["main.tex"].text
    assert source[a[1].start : a[1].end] == "\\textbf{93.4}"


def test_a_macro_named_for_the_second_best_marks_an_underline_not_a_bold(tmp_path):
    table = r"""\begin{table}\caption{Results}\label{tab:r}
\begin{tabular}{lc}\toprule
Method & Acc \\ \midrule
A & \tablefirst{93.4} \\
B & \secondbest{92.1} \\
\bottomrule\end{tabular}\end{table}"""
    project = make_project(tmp_path, {"main.tex": document(table)})
    first, second = (row[1] for row in project.index.tables[0].block.table.rows[1:])
    assert (first.bold, first.underline) == (True, False)
    assert (second.bold, second.underline) == (False, True)


def test_a_row_set_in_italics_is_set_apart_from_the_comparison(tmp_path):
    table = r"""\begin{table}\caption{Results; concurrent work in italics}\label{tab:r}
\begin{tabular}{lcc}\toprule
Method & A & B \\ \midrule
Prior & 80.1 & \textit{70.2} \\
{\itshape Concurrent} & {\itshape 81.0} & \emph{71.0} \\
Ours & \textbf{80.9} & \textbf{70.9} \\
\bottomrule\end{tabular}\end{table}"""
    grid = make_project(tmp_path, {"main.tex": document(table)}).index.tables[0].block.table
    assert [cell.italic for cell in grid.rows[1]] == [False, False, True]
    assert [grid.set_apart(row) for row in range(1, 4)] == [False, True, False]  # one italic cell sets no row apart


def test_a_coloured_cell_reads_its_number_not_its_colour(tmp_path):
    table = r"""\begin{table}\begin{tabular}{lrr}
 & A & B \\
FPS & \color{red} 416 & \color{blue}412 \\
\end{tabular}\end{table}"""
    grid = make_project(tmp_path, {"main.tex": document(table)}).index.tables[0].block.table
    assert [(cell.text, cell.value) for cell in grid.rows[1][1:]] == [("416", 416.0), ("412", 412.0)]


def _cells(table):
    return [[cell.text for cell in row] for row in table.rows]


def test_a_tabular_in_a_figure_is_a_table_with_the_figure_caption(tmp_path):
    body = r"""\begin{figure}\centering
\begin{tabular}{lcc}
Method & A & Mean \\ \hline
Ours & 2.40 & 2.45 \\
\end{tabular}
\caption{Scores}\label{fig:s}
\end{figure}
\begin{figure}\begin{tabular}{cc}\rotatebox{90}{Input} & \includegraphics{a} \\ (a) & (b)\end{tabular}\end{figure}"""
    project = make_project(tmp_path, {"main.tex": document(body)})
    (placed,) = project.index.tables  # the second tabular only lays out panels, one label a row
    table = placed.block.table
    assert (table.caption, table.label, _cells(table)) == ("Scores", "fig:s", [["Method", "A", "Mean"], ["Ours", "2.40", "2.45"]])
    assert placed.block.environment == "tabular" and placed.block.plain.text == ""
    cell = table.rows[1][2]
    assert project.documents["main.tex"].text[cell.start : cell.end] == "2.45"


def test_a_caption_describes_the_float_it_captions_whatever_its_label_follows(tmp_path):
    body = r"""\begin{table}\caption{E.g.\ 49.5\% of the trees.}\label{tab:trees}
\begin{tabular}{lc}
Model & Share \\ \hline
Tree & 49.5 \\
\end{tabular}\end{table}
A paragraph citing nothing."""
    project = make_project(tmp_path, {"main.tex": document(body)})
    described = {placed.kind: placed.block.describes for placed in project.manuscript.blocks}
    assert described[BlockKind.CAPTION] == ["tab:trees"] and described[BlockKind.PARAGRAPH] == []


def test_a_float_reads_the_captions_set_in_its_columns_and_groups_but_not_its_subfigures(tmp_path):
    body = r"""\begin{table}\begin{multicols}{2}
\begin{tabular}{lr} a & 1 \\ \end{tabular}
\captionof{table}{XGB mean absolute SHAP values \label{tab:xgb}}
{\small\begin{tabular}{lr} b & 2 \\ \end{tabular}}
{\captionof{table}{CNN mean absolute SHAP values}\label{tab:cnn}}
\end{multicols}\end{table}
\begin{figure}\begin{subfigure}{1in}\caption{Left half}\end{subfigure}\caption{Both halves}\end{figure}"""
    project = make_project(tmp_path, {"main.tex": document(body)})
    captions = [placed.block.plain.text.strip() for placed in project.manuscript.blocks if placed.kind is BlockKind.CAPTION]
    assert captions == ["XGB mean absolute SHAP values", "CNN mean absolute SHAP values", "Both halves"]
    table = next(placed.block for placed in project.manuscript.blocks if placed.block.environment == "table")
    assert "SHAP" not in table.plain.text and sorted(table.labels) == ["tab:cnn", "tab:xgb"]  # once each


def test_a_float_whose_body_words_are_all_dead_still_prints(tmp_path):
    body = r"""\begin{figure}\centering{\iffalse \subfigure[An old panel]{\label{fig:old}} \fi
\includegraphics{wget}\caption{A multi-level explanation.}\label{fig:wget}}\end{figure}"""
    project = make_project(tmp_path, {"main.tex": document(body)})
    assert [placed.kind for placed in project.manuscript.blocks] == [BlockKind.FIGURE, BlockKind.CAPTION]


def test_a_float_is_not_labelled_by_a_label_in_its_dead_text(tmp_path):
    body = r"""\begin{figure}\iffalse\label{fig:old}\fi\caption{A panel.}\label{fig:new}\end{figure}
\begin{table}\iffalse\label{tab:old}\else\label{tab:kept}\fi\caption{Scores.}\label{tab:new}
\begin{tabular}{lc} A & 1 \\ \end{tabular}\end{table}"""
    project = make_project(tmp_path, {"main.tex": document(body)})
    figure, figure_caption, table, table_caption = project.manuscript.blocks
    assert (figure.block.labels, figure_caption.block.describes) == (["fig:new"], ["fig:new"])
    assert (table.block.labels, table_caption.block.describes) == (["tab:kept", "tab:new"], ["tab:kept", "tab:new"])
    assert table.block.table is not None and table.block.table.label == "tab:kept"


def test_a_caption_set_outside_a_float_is_a_caption_of_its_counter(tmp_path):
    body = r"""Before.
\begin{center}\captionof{table}{SRA accessions of 13 species\label{tab:sra}}
\begin{tabular}{lc} Rat & 14 \\ \end{tabular}\end{center}"""
    project = make_project(tmp_path, {"main.tex": document(body)})
    _, caption, _ = project.manuscript.blocks
    assert (caption.kind, caption.block.environment, caption.block.plain.text) == (
        BlockKind.CAPTION,
        "table",
        "SRA accessions of 13 species",
    )
    assert caption.block.describes == ["tab:sra"]


def test_a_float_is_labelled_by_the_authors_label_macro(tmp_path):
    preamble = "\\newcommand{\\figurelabel}[1]{\\label{fig:#1}}\n\\newcommand{\\tablelabel}[1]{\\label{tab:#1}}"
    preamble += "\n\\newcommand{\\linelabel}{\\refstepcounter{ALC@line}\\label}"  # labels a line of the algorithm, not it
    body = r"""\begin{figure}\caption{A panel.\figurelabel{sho}}\end{figure}
\begin{table}\caption{Scores.}\tablelabel{scores}
\begin{tabular}{lc} A & 1 \\ \end{tabular}\end{table}
\begin{algorithm}\caption{Steps.}\label{alg:steps}\STATE update \linelabel{alg:update}\end{algorithm}"""
    project = make_project(tmp_path, {"main.tex": document(body, preamble)})
    figure, figure_caption, table, _, algorithm, _ = project.manuscript.blocks
    assert (figure.block.labels, figure_caption.block.describes) == (["fig:sho"], ["fig:sho"])
    assert table.block.labels == ["tab:scores"] and table.block.table is not None and table.block.table.label == "tab:scores"
    assert algorithm.block.labels == ["alg:steps"]


def test_a_tabularray_table_reads_its_rows_past_its_outer_and_inner_keys(tmp_path):
    body = r"""\begin{table}\caption{Regressions}\label{tab:r}
\begin{talltblr}[entry=none, note{}={* p < 0.05}]{colspec={Q[]Q[]}, column{2}={halign=c,}}
\toprule
& (1) \\ \midrule
Rank & -0.133** \\
\end{talltblr}\end{table}"""
    project = make_project(tmp_path, {"main.tex": document(body)})
    (placed,) = project.index.tables
    assert _cells(placed.block.table) == [["", "(1)"], ["Rank", "-0.133**"]]


def test_a_table_in_the_argument_of_an_authors_macro_is_a_table(tmp_path):
    preamble = r"\newcommand{\revised}[2]{{#1}}"
    body = r"""Before. \revised{Prose of the revision.
\begin{table}\caption{Shares}\label{tab:s}
\begin{tabular}{lc}
Project & Share \\ \hline
JRuby & 65.5 \\
\end{tabular}\end{table}
}{R2-3} After."""
    project = make_project(tmp_path, {"main.tex": document(body, preamble)})
    (placed,) = project.index.tables
    assert placed.block.table.label == "tab:s" and _cells(placed.block.table)[1] == ["JRuby", "65.5"]
    cell = placed.block.table.rows[1][1]
    assert project.documents["main.tex"].text[cell.start : cell.end] == "65.5"
    assert any("Prose of the revision." in block.block.plain.text for block in project.manuscript.blocks)


@pytest.mark.parametrize(
    "box",
    [r"\resizebox{\linewidth}{!}{%s}", r"\scalebox{0.8}{%s}", r"\adjustbox{max width=\linewidth}{%s}"],
)
def test_a_boxed_tabular_in_the_file_a_float_inputs_is_the_floats_table(tmp_path, box):
    rows = box % "\\begin{tabular}{lc}\nProject & Share \\\\ \\hline\nJRuby & 65.5 \\\\\n\\end{tabular}"
    body = r"\begin{table}\caption{Shares}\label{tab:s}\small{\input{rows}}\end{table}"
    project = make_project(tmp_path, {"main.tex": document(body), "rows.tex": rows + "\n"})
    (placed,) = project.index.tables
    assert _cells(placed.block.table)[1] == ["JRuby", "65.5"]


def test_each_tabular_of_a_float_is_a_table_with_its_own_caption(tmp_path):
    body = r"""\begin{table}\caption{Both datasets}\label{tab:both}
\begin{subtable}{.5\linewidth}\caption{Left}\label{tab:left}
\begin{tabular}{lc} A & 1.0 \\ B & 2.0 \\ \end{tabular}\end{subtable}
\begin{minipage}{.5\linewidth}
\begin{tabular}{lc} C & 3.0 \\ D & 4.0 \\ \end{tabular}\end{minipage}
\end{table}"""
    project = make_project(tmp_path, {"main.tex": document(body)})
    first, second = (placed.block.table for placed in project.index.tables)
    assert (first.caption, first.label, _cells(first)) == ("Left", "tab:left", [["A", "1.0"], ["B", "2.0"]])
    assert (second.caption, second.label, _cells(second)) == ("Both datasets", "tab:both", [["C", "3.0"], ["D", "4.0"]])
    source = project.documents["main.tex"].text
    assert source[second.rows[1][1].start : second.rows[1][1].end] == "4.0"


def test_a_hidden_column_is_not_read_and_the_columns_after_it_keep_their_place(tmp_path):
    # `H` (a column type typesetting nothing) keeps values in the source that a reader never sees.
    table = r"""\newcolumntype{H}{>{\setbox0=\hbox\bgroup}c<{\egroup}@{}}
\begin{table}\caption{Errors}\label{tab:e}
\begin{tabular*}{10cm}{@{\extracolsep{\fill} }lH*{2}{r}}\hline
Molecule & Old & TDDFT & OCDFT \\ \hline
CO & 9.9 & -11.3 & -0.8 \\
\multicolumn{2}{l}{MAE} & 11.3 & 0.8 \\
\hline\end{tabular*}\end{table}"""
    grid = make_project(tmp_path, {"main.tex": document(table)}).index.tables[0].block.table
    assert [(cell.column, cell.text) for cell in grid.rows[1]] == [(0, "CO"), (1, "-11.3"), (2, "-0.8")]
    assert (grid.rows[2][0].column_span, grid.rows[2][1].column) == (1, 1)
    assert column_types("l*{2}{c|}S[table-format=2.1]p{2cm}@{}H") == ["l", "c", "c", "S", "p", "H"]


def test_a_power_of_ten_written_with_a_dot_or_a_cross_scales_the_cell():
    # "3.4 · 10^-8" is 3.4e-8, not 3.4: read as 3.4 it is one digit from every 2.4 and 3.5 of the paper.
    for text in ("3.4· 10^-8", "3.4 \\cdot 10^{-8}", "3.4 × 10^-8", "3.4 \\times 10^{-8}"):
        value, decimals, _, _ = read_number(text)
        assert value == pytest.approx(3.4e-8) and decimals == 9, text


def test_a_spread_after_a_percent_sign_is_read():
    assert read_number("19.7% +/- 6.1%") == (19.7, 1, 6.1, True)


def test_a_version_cell_holds_no_value(tmp_path):
    table = r"""\begin{table}\begin{tabular}{lcc}\toprule
Project & Version & F1 \\ \midrule
Hibernate & 3.3.2 GA & 0.744 \\
JMeter & 2.10 & 0.731 \\ \bottomrule\end{tabular}\caption{Projects}\label{tab:p}\end{table}"""
    grid = make_project(tmp_path, {"main.tex": document(table)}).index.tables[0].block.table
    hibernate, jmeter = grid.rows[1], grid.rows[2]
    assert hibernate[1].value is None and hibernate[2].value == 0.744
    assert jmeter[1].value == 2.1  # a plain decimal may still be a version; one dot alone cannot tell


def test_index_records_macros_citations_numbers_and_claims(tmp_path):
    body = r"""\begin{abstract}Our method improves accuracy by 12.3\% over the best baseline.\end{abstract}
\section{Results} We train for 30 epochs with 5 seeds \citep[p.~3]{a,b} and \citet*{c}. See Table~\ref{tab:x}.
"""
    project = make_project(
        tmp_path, {"main.tex": document(body, "\\newcommand{\\ours}{Ours}\n\\DeclareMathOperator{\\argmax}{arg\\,max}\n\\def\\foo#1{[#1]}")}
    )
    index = project.index
    assert [m.name for _, m in index.macros] == ["\\ours", "\\argmax", "\\foo"]
    assert [c.key for _, c in index.cites] == ["a", "b", "c"]
    values = [n.mention.value for n in index.numbers]
    assert 12.3 in values and 30 in values and 5 in values
    assert any("12.3" in claim.text for claim in index.claims)


def test_update_reparses_only_the_changed_file_and_reports_changed_sections(tmp_path):
    project = make_project(
        tmp_path,
        {
            "main.tex": document("\\input{a}\n\\input{b}"),
            "a.tex": "\\section{A}\nFirst text.\n\n" + "Filler paragraph.\n\n" * 50,
            "b.tex": "\\section{B}\nSecond text.",
        },
    )
    untouched = project.documents["a.tex"]
    old_b = project.documents["b.tex"]
    change = project.update("b.tex", "\\section{B}\nSecond text changed.")
    assert change.changed_files == ["b.tex"]
    assert change.changed_sections == ["b.tex#B"]
    assert project.documents["a.tex"] is untouched
    reused = set(old_b.chunk_cache) & set(project.documents["b.tex"].chunk_cache)
    assert reused == set()  # one chunk, changed
    # Editing one paragraph of a long file re-parses only its chunk.
    text = project.documents["a.tex"].text.replace("First text.", "First text!")
    before = set(project.documents["a.tex"].chunk_cache)
    project.update("a.tex", text)
    after = set(project.documents["a.tex"].chunk_cache)
    assert len(after - before) == 1 and len(before & after) == len(before) - 1


def test_a_keystroke_keeps_the_bibliographies_entries_and_an_edit_of_a_bibliography_reads_them_again(tmp_path):
    project = make_project(
        tmp_path,
        {
            "main.tex": document("\\input{a}\\bibliography{refs,more}"),
            "a.tex": "A text.",
            "refs.bib": "@book{k, title={T}}",
            "more.bib": "",
        },
    )
    entries = project.index.bib_entries
    assert set(entries) == {"k"}
    project.update("a.tex", "A text, typed in.")
    assert project.index.bib_entries is entries  # a keystroke in a .tex file: the same entries, not gathered again
    project.update("more.bib", "@book{j, title={U}} @book{k, title={V}}")
    assert {key: [file for file, _ in places] for key, places in project.index.bib_entries.items()} == {
        "k": ["refs.bib", "more.bib"],
        "j": ["more.bib"],
    }
    project.update("refs.bib", "@book{m, title={T}} @book{m, title={T}}")
    assert {key: [file for file, _ in places] for key, places in project.index.bib_entries.items()} == {
        "m": ["refs.bib", "refs.bib"],
        "j": ["more.bib"],
        "k": ["more.bib"],
    }


def test_update_follows_new_includes_and_files_appearing(tmp_path):
    project = make_project(tmp_path, {"main.tex": document("\\input{later}")})
    assert project.problems[0].kind == "missing_file"
    (tmp_path / "later.tex").write_text("\\section{Later}\\label{sec:l}")
    change = project.update("later.tex")
    assert change.graph_changed and "later.tex" in project.files and not project.problems
    assert "sec:l" in project.index.labels


def test_comments_are_not_content(tmp_path):
    project = make_project(tmp_path, {"main.tex": document("Text % \\label{hidden} 42\n\\% not a comment 7")})
    assert "hidden" not in project.index.labels
    assert [n.mention.value for n in project.index.numbers] == [7]


def test_text_tex_never_prints_is_not_read(tmp_path):
    body = r"""\begin{abstract}We reach 93.4\% accuracy. \if 0 This leaves 12 programmers. \fi It helps.\end{abstract}
\section{Results}
Scores rise by 5\%. \iffalse Old claim: 17 runs. \fi Done.\note{fix 23 here} \iftrue Kept 8. \else Dropped 9. \fi
\ifcamera Camera-ready 66. \fi

\iffalse
\section{Old results}
A removed paragraph with 31 numbers.
\begin{table}\caption{Removed 44 table.}\begin{tabular}{ll} a & 1\\ b & 2\end{tabular}\end{table}
\fi
\begin{kdd}Venue text 55.\end{kdd}"""
    preamble = "\\usepackage{comment}\\excludecomment{kdd}\\newcommand{\\note}[1]{}\\newif\\ifcamera"
    manuscript = make_project(tmp_path, {"main.tex": document(body, preamble)}).manuscript
    texts = [placed.block.plain.text for placed in manuscript.blocks if placed.block.start > len(preamble)]
    assert texts == ["We reach 93.4% accuracy. It helps.", "Scores rise by 5%. Done. Kept 8. "]
    assert [section.title for section in manuscript.sections] == ["", "Abstract", "", "Results"]
    # What is left maps back to the source it was read from.
    paragraph = manuscript.blocks[-1].block.plain
    start, end = paragraph.source_span(texts[1].index("Done"), texts[1].index("Kept") + 4)
    text = document(body, preamble)
    assert text[start:end].startswith("Done.") and text[start:end].endswith("Kept")
    # A dead stretch holds the token that opens it: it prints nothing either.
    line = "a \\iffalse b \\fi c \\iftrue d \\else e \\fi f \\if 0 g \\fi h"
    assert [line[start:end] for start, end in dead_spans(line, (), ())] == ["\\iffalse b \\fi", "\\else e \\fi", "\\if 0 g \\fi"]


def test_a_file_input_in_dead_text_is_not_read_as_the_papers(tmp_path):
    files = {"main.tex": document("Kept 1.\n\\iffalse\n\\input{old}\n\\fi\n\\input{new}"), "old.tex": "Old 2.", "new.tex": "New 3."}
    manuscript = make_project(tmp_path, files).manuscript
    assert [placed.block.plain.text.strip() for placed in manuscript.blocks] == ["Kept 1.", "New 3."]


def test_the_index_reads_no_key_of_a_file_input_only_from_dead_text(tmp_path):
    files = {
        "main.tex": document("\\label{kept}\\cite{a}\n\\iffalse\n\\input{old}\n\\fi\n\\input{new}"),
        "old.tex": "\\label{kept}\\ref{gone}\\cite{b}",
        "new.tex": "\\label{new}\\ref{kept}",
    }
    project = make_project(tmp_path, files)
    index = project.index
    assert {key: [entry.file for entry in entries] for key, entries in index.labels.items()} == {"kept": ["main.tex"], "new": ["new.tex"]}
    assert [use.key for _, use in index.refs] == ["kept"]
    assert [use.key for _, use in index.cites] == ["a"]
    project.update("main.tex", files["main.tex"].replace("\\iffalse", "\\iftrue"))
    assert sorted(use.key for _, use in project.index.cites) == ["a", "b"]


def test_the_index_reads_no_number_of_dead_text_and_an_edit_that_ends_a_branch_rereads_it(tmp_path):
    # Paragraphs long enough to be parsed apart (chunks.TARGET_CHUNK_CHARS).
    text = document(
        "Before 3 runs. \\iffalse Hidden 17 runs. \\fi After 4 runs." + " More words." * 25 + "\n\n" + "A later paragraph of 6 words. " * 10
    )
    project = make_project(tmp_path, {"main.tex": text})
    assert [number.mention.value for number in project.index.numbers] == [3, 4, *[6] * 10]
    first = project.manuscript.blocks[0].block
    project.update("main.tex", text.replace("later", "latter", 1))
    assert project.manuscript.blocks[0].block is first  # a keystroke after it does not read it again
    project.update("main.tex", text.replace("\\iffalse", "\\iftrue"))
    assert [number.mention.value for number in project.index.numbers] == [3, 17, 4, *[6] * 10]


def test_invalid_utf8_and_nul_bytes_are_read_with_a_problem(tmp_path):
    project = make_project(tmp_path, {"main.tex": document("\\input{latin}"), "latin.tex": b"caf\xe9 \x00ok"})
    assert "caf\ufffd" in project.documents["latin.tex"].text
    assert any(p.kind == "unreadable" for p in project.problems)


def test_chunks_are_lossless_and_ignore_braces_in_verbatim():
    from auditex.latex.chunks import split_chunks

    filler = "Some words here.\n\n" * 200
    text = "\\verb|{| text\n\n" + filler + "\\begin{verbatim}\n{{{\n\n\\end{verbatim}\n\n" + filler + "\\section{S}\nEnd."
    chunks = split_chunks(text)
    assert "".join(chunk.text for chunk in chunks) == text
    assert len(chunks) >= 3  # unbalanced braces in \verb and verbatim did not glue the rest together
    assert any(chunk.text.startswith("\\section{S}") for chunk in chunks)


def test_update_reports_deleted_and_undecodable_files(tmp_path):
    project = make_project(
        tmp_path, {"main.tex": document("\\input{a}\\bibliography{refs}"), "a.tex": "A text.", "refs.bib": "@book{k, title={T}}"}
    )
    assert not project.problems
    (tmp_path / "a.tex").write_bytes(b"caf\xe9")
    project.update("a.tex")
    assert [p.kind for p in project.problems] == ["unreadable"]
    (tmp_path / "a.tex").unlink()
    project.update("a.tex")
    assert [p.kind for p in project.problems] == ["missing_file"] and "a.tex" not in project.documents
    (tmp_path / "refs.bib").unlink()
    project.update("refs.bib")
    assert sorted(p.kind for p in project.problems) == ["missing_bibliography", "missing_file"]


def test_an_edit_above_an_include_keeps_its_blocks_and_moves_its_problems(tmp_path):
    project = make_project(
        tmp_path,
        {
            "main.tex": document("\\section{A}\nText.\n\n\\input{part}\n\n\\input{gone}"),
            "part.tex": "\\begin{table}\\begin{tabular}{cc} 1 & 2 \\\\ \\end{tabular}\\end{table}",
        },
    )
    before = [p.file for p in project.manuscript.blocks]
    text = project.documents["main.tex"].text.replace("Text.", "Text that grew by a sentence.")
    project.update("main.tex", text)
    assert [p.file for p in project.manuscript.blocks] == before and "part.tex" in before
    problem = next(p for p in project.problems if p.kind == "missing_file")
    assert text[problem.start : problem.end] == "gone"


def test_a_second_header_row_under_partial_rules_belongs_to_the_header(tmp_path):
    table = r"""\begin{table}\begin{tabular}{lcccc}\toprule
& \multicolumn{2}{c}{Design} & \multicolumn{2}{c}{Requirement} \\ \cmidrule{2-3} \cmidrule{4-5}
Project & \thead{Ours} & \thead{Patterns} & Ours & Patterns \\ \midrule
Ant & 0.517 & 0.237 & 0.154 & 0.000 \\ \bottomrule\end{tabular}\caption{F1}\label{tab:f1}\end{table}"""
    grid = make_project(tmp_path, {"main.tex": document(table)}).index.tables[0].block.table
    assert grid.header_rows == 2 and grid.column_header(1) == "Design Ours" and grid.row_header(2) == "Ant"
    # Numbers right under the partial rule: the header is the first row.
    numbers_follow = table.replace("Project & \\thead{Ours} & \\thead{Patterns} & Ours & Patterns \\\\ \\midrule\n", "")
    grid = make_project(tmp_path, {"main.tex": document(numbers_follow)}).index.tables[0].block.table
    assert grid.header_rows == 1 and grid.row_header(1) == "Ant"


def test_a_header_row_under_a_full_rule_below_group_names_belongs_to_the_header(tmp_path):
    table = r"""\begin{table}\begin{tabular}{lcc}
& \multicolumn{2}{c}{Results} \\ \hline
Method & ACC & ECE \\ \hline
Base & 0.54 & 0.07 \\ \hline\end{tabular}\caption{F1}\label{tab:f1}\end{table}"""
    grid = make_project(tmp_path, {"main.tex": document(table)}).index.tables[0].block.table
    assert grid.header_rows == 2 and grid.column_header(1) == "Results ACC" and grid.row_header(2) == "Base"
    # A first row that names its columns ends the header at its rule.
    named = table.replace("& \\multicolumn{2}{c}{Results}", "Setting & Results & More")
    grid = make_project(tmp_path, {"main.tex": document(named)}).index.tables[0].block.table
    assert grid.header_rows == 1


def test_a_tabular_input_into_a_float_is_cited_by_the_float_label(tmp_path):
    body = "\\begin{table}\\caption{Effects}\\label{tab:effects}\n\\scriptsize{\\input{tables/effects.tex}}\n\\end{table}"
    tabular = "\\begin{tabular}{lc}\nOutcome & (1) \\\\\nForced & 0.067 \\\\\n\\end{tabular}\n"
    project = make_project(tmp_path, {"main.tex": document(body), "tables/effects.tex": tabular})
    (placed,) = [placed for placed in project.index.tables if placed.block.table is not None]
    assert placed.file == "tables/effects.tex" and placed.block.labels == ["tab:effects"]


def test_a_tabular_input_outside_a_float_takes_no_label(tmp_path):
    body = "\\begin{table}\\caption{Other}\\label{tab:other}\\end{table}\n\n\\input{tables/effects.tex}"
    tabular = "\\begin{tabular}{lc}\nOutcome & (1) \\\\\nForced & 0.067 \\\\\n\\end{tabular}\n"
    project = make_project(tmp_path, {"main.tex": document(body), "tables/effects.tex": tabular})
    (placed,) = [placed for placed in project.index.tables if placed.block.table is not None]
    assert placed.block.labels == []


def test_brace_slips_are_the_first_extra_close_and_the_outermost_unclosed_open():
    from auditex.latex.chunks import brace_slips

    formula = r"$\frac{N_{p}-N_{q}}N_{p}+N_{q}}$"
    assert [offset for offset, _ in brace_slips(formula)] == [len(formula) - 2]
    assert "closes no group" in brace_slips(formula)[0][1]
    twice = "a} b} {c {d}"
    assert [(offset, "never closed" in message) for offset, message in brace_slips(twice)] == [(1, False), (6, True)]
    # TeX does not count these braces, and neither do we.
    assert brace_slips(r"\{ \verb|}| % }" + "\n" + r"\iffalse } \fi {ok}") == []


def test_a_heading_inside_a_hypertarget_is_a_heading():
    from auditex.latex.parse import parse_chunk

    # pandoc (papaja, R Markdown) wraps every heading in hyperref's target.
    parsed = parse_chunk("\\hypertarget{study-1}{%\n\\section{Study 1}\\label{study-1}}\n\nWe ran 20 people.\n")
    assert [heading.title for heading in parsed.headings] == ["Study 1"]
    assert [block.plain.text for block in parsed.blocks] == ["We ran 20 people."]
    assert [(label.key, label.kind) for label in parsed.labels] == [("study-1", "section")]


def test_what_follows_a_reference_list_is_no_reference(tmp_path):
    body = r"""\section{Results}
Text.
\bibliography{refs}
\begin{table}\begin{tabular}{lc} A & 1.0 \\ B & 2.0 \\ \end{tabular}\caption{Late table.}\end{table}
\subsection{Supplement}
More text.
\section{Another list}
\begin{thebibliography}{9}\bibitem{k} A. Author. Title.\end{thebibliography}
A paragraph set after the typed list.
"""
    sections = make_project(tmp_path, {"main.tex": document(body)}).manuscript.sections
    kinds = [(section.title, section.kind.value, [placed.kind.value for placed in section.blocks]) for section in sections]
    assert kinds[1:] == [
        ("References", "references", []),
        ("", "other", ["table", "caption"]),  # a float set after \bibliography
        ("Supplement", "other", ["paragraph"]),  # its subsection is no reference either
        ("Another list", "other", []),
        ("References", "references", []),
        ("", "other", ["paragraph"]),
    ]
