"""A plain-text view collapses white space and maps each of its characters back to the source."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from auditex.latex.parse import parse_chunk
from auditex.latex.plaintext import PlainBuilder


@given(st.lists(st.sampled_from(["word", "é", "2.5", " ", "  ", "\n", "\t", " \n "]), min_size=1, max_size=30).map("".join))
def test_prose_collapses_its_white_space_and_maps_each_character_back(text):
    builder = PlainBuilder()
    builder.add(text, 100, 100 + len(text))
    plain = builder.build()
    assert plain.text == " ".join(text.split())
    for index, character in enumerate(plain.text):
        start, end = plain.source_span(index, index + 1)
        if character == " ":
            assert text[start - 100 : end - 100].isspace()
        else:
            assert (start, end) == (100 + text.index(character, start - 100), start + 1) and text[start - 100] == character


def test_words_apart_by_single_line_breaks_read_as_one_run():
    builder = PlainBuilder()
    builder.add(" We win\nby far\t", 0, 15)
    builder.add("here.", 15, 20)
    plain = builder.build()
    assert plain.text == "We win by far here."
    assert plain.source_span(3, 13) == (4, 14)  # "win by far", its line break one character of the source


def test_a_tabularray_tables_notes_in_its_outer_options_read_as_its_text_and_map_back():
    source = (
        "\\begin{table}\\caption{Wages.}\\begin{talltblr}[entry=none,note{}={* p \\num{< 0.05}},remark{Note}={N = 146.}]"
        "{colspec={Q[]Q[]}}\na & 1 \\\\\n\\end{talltblr}\\end{table}"
    )
    (table,) = [block for block in parse_chunk(source).blocks if block.table is not None]
    assert table.plain.text.startswith("* p < 0.05 N = 146. a & 1")
    start, end = table.plain.source_span(0, len("* p < 0.05"))
    assert source[start:end] == "* p \\num{< 0.05"


def test_a_boxs_size_scale_angle_and_options_print_nothing_only_its_content_does():
    source = (
        "\\begin{figure}\\resizebox{0.8\\linewidth}{!}{Wide} \\scalebox{0.9}[1]{Scaled} \\adjustbox{max width=\\textwidth}{Boxed}"
        " \\rotatebox[origin=c]{90}{Turned} \\raisebox{-0.5ex}{Low}"
        " \\begin{adjustbox}{max width=\\textwidth}Inside\\end{adjustbox}\\caption{A figure.}\\end{figure}"
    )
    (figure,) = [block for block in parse_chunk(source).blocks if block.plain.text.startswith("Wide")]
    assert figure.plain.text == "Wide Scaled Boxed Turned Low Inside"


def test_a_tie_prints_as_a_space_and_textasciitilde_and_an_address_as_a_tilde():
    source = (
        "As Table~3 shows, 4~GPUs take \\textasciitilde 2 h (\\url{http://a.org/~me}).\n\n\\begin{tabular}{l} Rat~x \\\\ \\end{tabular}"
    )
    paragraph, table = parse_chunk(source).blocks
    assert paragraph.plain.text == "As Table 3 shows, 4 GPUs take ~ 2 h (http://a.org/~me)."
    assert paragraph.plain.source_span(9, 10) == (9, 10)  # the tie's space stands where the tie does
    assert table.plain.text == "Rat x"
