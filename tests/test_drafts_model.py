"""The DRF family's model: what a placeholder is, and which stretches TeX never prints."""

import re
from unittest.mock import patch

import pytest
from helpers import document, make_project
from hypothesis import given, settings
from hypothesis import strategies as st

from auditex.analyzers.rules.drafts import model as drafts_model
from auditex.analyzers.rules.drafts.float_layout import float_layout
from auditex.analyzers.rules.drafts.float_numbers import float_captions
from auditex.analyzers.rules.drafts.model import (
    HAND_NUMBERED,
    SINGLE_NUMBERED,
    PlaceholderKind,
    deleted_spans,
    draft_page_marks,
    elsewhere,
    float_environments,
    float_type,
    hand_numbers,
    in_definition,
    in_math_naming_a_variable,
    mentioned,
    mentioned_kind,
    named_before,
    note_commands,
    note_uses,
    numbered_by_chapter,
    numbered_heading,
    numbered_in_order,
    placeholders,
    printed_files,
    publisher_slot,
    singular,
    unprinted,
)
from auditex.analyzers.rules.drafts.panels import caption_panels, cited_panels, label_words, names, sentence_words
from auditex.analyzers.rules.drafts.respectively import held_items, respective_lists
from auditex.analyzers.rules.drafts.units import content_words, numbered_units
from auditex.latex.dead_text import dead_spans, switch_values
from auditex.latex.model import MacroDef


@pytest.mark.parametrize(
    ("text", "found", "kind"),
    [
        ("log2FC = X.XX here", "X.XX", PlaceholderKind.NUMBER),
        ("rose by XX% overall", "XX%", PlaceholderKind.NUMBER),
        ("an AUC of 0.XX", "0.XX", PlaceholderKind.NUMBER),
        ("see Figure Xa", "Figure Xa", PlaceholderKind.REFERENCE),
        ("shown in Table (??)", "Table (??)", PlaceholderKind.REFERENCE),
        ("as shown before [ref].", "[ref]", PlaceholderKind.CITATION),
        ("TBD: the last run", "TBD", PlaceholderKind.MARKER),
        ("the ?? mode", "??", PlaceholderKind.QUESTION_MARKS),
        ("Age = XX here", "XX", PlaceholderKind.NUMBER),
        ("from NA individuals", "NA", PlaceholderKind.NUMBER),
        ("Weissella (OR= ( - ))", "( - )", PlaceholderKind.NUMBER),
        ("Table (?) shows", "Table (?)", PlaceholderKind.REFERENCE),
        ("in Table (A??) in the appendix", "Table (A??)", PlaceholderKind.REFERENCE),
        ("update this !!!", "!!!", PlaceholderKind.NOTE),
    ],
)
def test_placeholders_are_read_by_kind(text, found, kind):
    assert [(p.text, p.kind) for p in placeholders(text)] == [(found, kind)]


# Placeholders, their look-alikes and pieces of both, for texts made at random.
PLACEHOLDER_PARTS = [" ", "~", "(", ")", "[", "]", "= ", "±", "%", ".", "0", "X", "x", "?", "!!!", "-", "NA", "NaN", "TODO",
    "Table X", "Figure Xa", "Fig.~(X)", "Sec. ??", "Table (?)", "Tab. (A??)", "X.XX", "x.xx", "0.XX", ".XX", "XX %", "X%", "XXX",
    "Age = XX", "XX ± XX", "= NaN", "OR= ( - )", "NA individuals", "[cite]", "(CITE)", "[REF]", "[refs]", "[?]", "[citation needed]",
    "\\cjournalTBD", "LaTeX", "XGBoost", "TableX", "Python 3.x", "(ref)", "what?!", "a"]  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "Python 3.x",
        "Linux 5.X",
        "an effect (?) of",
        "a DOI 10.1073/pnas.XXXXXXXXXX",
        "TableX",
        "Male (ref) and female",
        "what?!",
        "TODOs",
        "XX chromosomes",
        "the XX century",
        "North America (NA) samples",
        "Table A.1",
    ],
)
def test_look_alikes_are_not_placeholders(text):
    assert placeholders(text) == ()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PLACEHOLDER_PARTS), max_size=12).map("".join))
def test_the_quick_gate_lets_every_placeholder_through(text):
    found = placeholders.__wrapped__(text)
    with patch.object(drafts_model, "_NEEDED", re.compile("")):  # no second gate: the whole scan
        assert found == placeholders.__wrapped__(text)


def test_a_number_placeholder_in_math_counts_after_an_equals_sign_only():
    latex = "Let $X.XX$ and $p = X.XX$."
    first, second = (latex.index("X.XX"), latex.rindex("X.XX"))
    number = placeholders("X.XX")[0]
    assert in_math_naming_a_variable(number, latex, first)
    assert not in_math_naming_a_variable(number, latex, second)


def test_switches_set_once_have_a_value():
    texts = ["\\newif\\ifdraft\n\\newif\\ifanon\\anontrue\n% \\anonfalse\n\\newif\\ifboth\\bothtrue\\bothfalse"]
    assert switch_values(texts) == {"ifdraft": False, "ifanon": True}


def test_deleted_text_of_the_changes_package():
    text = "\\replaced[comment={x}]{new}{see Appendix~??} and \\deleted{TODO}"
    assert [text[start:end] for start, end in deleted_spans(text)] == ["{see Appendix~??}", "{TODO}"]


def test_mentions_and_publisher_slots():
    text = "annotations (e.g., TODO, FIXME) and ``TBD'' but TODO here"
    assert mentioned(text, text.index("FIXME"), text.index("FIXME") + 5)
    assert mentioned(text, text.index("TBD"), text.index("TBD") + 3)
    assert not mentioned(text, text.rindex("TODO"), text.rindex("TODO") + 4)
    assert publisher_slot("\\cvol{2023;TBD}", len("\\cvol{2023;"))


def test_a_float_counts_its_numbered_captions_and_finds_labels_before_them():
    layout = float_layout(
        "\\begin{figure}\\label{fig:a}\\begin{subfigure}{1in}\\caption{s}\\end{subfigure}"
        "\\caption{A.}\\begin{minipage}{1in}\\caption{B.}\\label{fig:b}\\end{minipage}\\caption*{C.}\\end{figure}"
    )
    assert layout is not None and layout.environment == "figure" and layout.captions == 2
    assert [(label.key, label.subfloat) for label in layout.misplaced] == [("fig:a", False)]
    assert float_layout("\\begin{center}\\label{x}\\caption{y}\\end{center}") is None


def test_a_caption_set_after_a_floats_second_table_is_the_floats(tmp_path):
    body = r"""\begin{table}
\begin{tabular}{l} a \\ \end{tabular}\caption{Accuracies.}
\begin{tabular}{l} b \\ \end{tabular}\caption{Losses.}
\end{table}"""
    project = make_project(tmp_path, {"main.tex": document(body)})
    assert list(float_captions(project.manuscript).values()) == [["Accuracies.", "Losses."]]


def test_a_file_input_only_from_dead_text_is_wholly_unprinted(tmp_path):
    files = {
        "main.tex": document("\\iffalse\n\\input{old}\n\\fi\n\\input{new}"),
        "old.tex": "\\markboth{Draft}{DRAFT}\\drafttrue",
        "new.tex": "\\newif\\ifdraft\n\\ifdraft Draft only.\\fi Printed.",
    }
    project = make_project(tmp_path, files)
    assert project.files == ["main.tex", "old.tex", "new.tex"]
    assert printed_files(project) == ["main.tex", "new.tex"]
    hidden = unprinted(project, project.index.macros)
    assert hidden.covers("old.tex", 0) and hidden.covers("old.tex", len(files["old.tex"]) - 1)
    # The dead file's `\drafttrue` sets no switch of the paper: the `\ifdraft` branch stays unprinted.
    assert hidden.covers("new.tex", files["new.tex"].index("Draft only")) and not hidden.covers(
        "new.tex", files["new.tex"].index("Printed")
    )


def test_float_numbering_that_the_rule_can_establish():
    assert numbered_in_order(["\\documentclass{article}\\begin{figure}\\caption{a}\\end{figure}"], "figure")
    assert not numbered_in_order(["\\numberwithin{figure}{section}"], "figure")
    assert numbered_in_order(["\\numberwithin{figure}{section}"], "table")
    assert not numbered_in_order(["\\documentclass[11pt]{report}"], "table")
    assert float_environments(["\\begin{figure*}x\\end{figure*}% \\begin{figure}\n\\begin{table}"], "figure") == 1
    assert float_type("sidewaystable") == "table" and float_type("algorithm") is None


def test_hand_numbered_mentions():
    text = "Figs. 2–4, Table 3a, Table 2.1 and Sec. 3.2"
    mentions = [(mentioned_kind(m.group("name")), hand_numbers(m.group("numbers"))) for m in HAND_NUMBERED.finditer(text)]
    assert mentions == [("figure", [(2, None), (4, None)]), ("table", [(3, None)]), ("table", [(2, 1)]), ("section", [(3, 2)])]
    assert numbered_heading("\\section[Short]{Long}") == "section" and numbered_heading("\\section*{Notes}") is None
    assert elsewhere("see their Table 8") and elsewhere("Figure 3 of \\cite{smith}") and not elsewhere("Figure 3 shows it")


def test_note_commands_colour_their_argument_and_read_as_notes():
    macros = [
        MacroDef("newcommand", "\\YL", 1, "\\textcolor{blue}{YL: #1}", 0, 0),
        MacroDef("newcommand", "\\fixme", 1, "{\\color{red}#1}", 0, 0),
        MacroDef("newcommand", "\\new", 1, "\\textcolor{blue}{#1}", 0, 0),
        MacroDef("newcommand", "\\note", 1, "", 0, 0),
    ]
    texts = ["\\usepackage{todonotes}"]
    assert [(command.name, command.package) for command in note_commands(texts, macros)] == [
        ("YL", False),
        ("fixme", False),
        ("todo", True),
    ]
    assert note_commands(["\\usepackage[disable]{todonotes}"], macros[2:]) == ()
    (use,) = note_uses("a \\YL{x} % \\YL{y}\n\\YLDEL{z}", note_commands([], macros[:1]))
    assert use[:2] == (2, 5)


def test_the_float_a_reference_is_named_as():
    text = "similar to Figure~\\ref{tab:a} and in Tab. (\\ref{fig:b}) or \\ref{c}"
    assert named_before(text, text.index("\\ref{tab")) == "figure"
    assert named_before(text, text.index("\\ref{fig")) == "table"
    assert named_before(text, text.index("\\ref{c")) is None


def test_a_discarded_argument_is_unprinted_however_deep_it_nests():
    text = "a \\cut{x \\an{y \\cite{z} {deep {er}}}\n} b \\cut{\\{ } c"
    assert [text[start:end] for start, end in dead_spans(text, (), ("cut",))] == ["\\cut{x \\an{y \\cite{z} {deep {er}}}\n}", "\\cut{\\{ }"]


def test_a_note_command_in_a_definition_body_is_not_a_use():
    source = "\\newcommandx{\\Chris}[2][1=]{\\todo[color=red,#1]{#2}}\n\\newcommand{\\YL}[1]{x}\nText \\todo{a}."
    assert in_definition(source, source.index("\\todo"))
    assert not in_definition(source, source.rindex("\\todo"))
    assert in_definition("\\newcommand\\comment[1]{x}", len("\\newcommand"))


def test_floats_numbered_within_chapters():
    assert numbered_by_chapter(["\\documentclass{book}\n\\chapter{One}"], "table")
    assert not numbered_by_chapter(["\\chapter{One}\\counterwithout{table}{chapter}"], "table")
    assert not numbered_by_chapter(["\\section{One} % \\chapter{Old}"], "table")
    found = [match.group(0) for match in SINGLE_NUMBERED.finditer("Table I shows, Table 4.1 and Figure 2a do not; Table 3.")]
    assert found == ["Table I", "Table 3"]


def test_draft_page_marks_in_running_heads():
    latex = "\\markboth{Title}{DRAFT \\today}\n% \\lhead{DRAFT}\n\\rfoot{Drafting notes}\\cfoot{[Draft of \\today]}"
    assert [(command, latex[start:end]) for command, start, end in draft_page_marks(latex)] == [("markboth", "DRAFT"), ("cfoot", "Draft")]


def test_a_caption_gives_each_panel_the_words_only_its_description_holds():
    caption = (
        "Performance in the complex simulation (A, E), the free light chain (FLC) study (B, F) and the prostate cancer "
        "study (C, G). The first row shows the IPA over follow-up time."
    )
    assert [(sorted(panel.letters), sorted(panel.words), sorted(panel.names)) for panel in caption_panels(caption)] == [
        (["A", "E"], ["complex", "simulation"], []),
        (["B", "F"], ["chain", "flc", "free", "light"], ["flc"]),
        (["C", "G"], ["cancer", "prostate"], []),
    ]


@pytest.mark.parametrize(
    ("plural", "single"),
    [
        ("rewards", "reward"),
        ("accuracies", "accuracy"),
        ("suffixes", "suffix"),
        ("patches", "patch"),
        ("meshes", "mesh"),
        ("classes", "class"),
        ("class", "class"),
        ("corpus", "corpus"),
        ("analysis", "analysis"),
        ("series", "series"),
        ("images", "image"),
        ("ties", "tie"),
        ("gas", "gas"),
    ],
)
def test_a_word_is_made_singular_by_its_ending(plural, single):
    assert singular(plural) == single


def test_a_panel_is_named_by_the_singular_or_plural_of_its_words():
    (_, accuracy) = caption_panels("(a) Training losses of the encoders. (b) Validation accuracies of the suffix classifiers.")
    assert accuracy.named_by(sentence_words("the validation accuracy of each classifier"))
    assert accuracy.named_by(sentence_words("the suffixes the classifier reads"))


def test_panel_marks_before_their_descriptions_are_read_to_the_next_mark():
    panels = caption_panels("Loss curves. (a) Training on CIFAR, 10 runs; (b) validation on ImageNet. Shaded: one SD.")
    assert [sorted(panel.words) for panel in panels] == [["cifar", "training"], ["imagenet", "validation"]]


def test_a_subject_is_named_by_two_of_its_words_or_one_of_its_names():
    (simulation, prostate) = caption_panels("The complex simulation (A) and the prostate cancer (Prostate) study (B).")
    assert simulation.named_by({"complex", "simulation"}) and not simulation.named_by({"simulation"})
    assert prostate.named_by({"prostate"})


@pytest.mark.parametrize(
    "caption",
    [
        "Loss curves. (a) Training on CIFAR, then on ImageNet (b).",  # the marks mix both styles
        "The simulation (A) and the myeloma study (A).",  # a letter given twice
        "Only one panel (A) is described.",
    ],
)
def test_a_caption_whose_panels_cannot_be_told_apart_gives_none(caption):
    assert caption_panels(caption) == ()


def test_the_panels_a_reference_cites_are_the_letters_right_after_it():
    sentence = (
        "See Fig.~\\ref{a}(c) and (d), \\ref{b}B, F and \\ref{c} C, G and \\ref{d}B--D, \\ref{e} A clear gap, \\ref{f}and \\ref{g} (b)."
    )
    assert [(key, sorted(letters)) for key, letters, _, _ in cited_panels(sentence)] == [
        ("a", ["C", "D"]),
        ("b", ["B", "F"]),
        ("c", ["C", "G"]),
        ("g", ["B"]),
    ]


def test_units_are_numbered_as_latex_numbers_sections_and_as_titles_number_studies(tmp_path):
    body = r"""\chapter*{Preface}
\chapter{Background}
\section{Editing}
\section*{Aside}
\section{Playback}
\subsection{Time compression}
\chapter{Studies}
\section{Study 1: Ranking}
\section{Study 2}
\subsection{Methods}
\appendix
\chapter{Proofs}
"""
    project = make_project(tmp_path, {"main.tex": document(body).replace("article", "report")})
    texts = {path: project.source(path).text for path in project.files}
    units = numbered_units(project.manuscript, texts)
    assert [(unit.kind, unit.number) for unit in units] == [
        ("section", "1"),
        ("section", "1.1"),
        ("section", "1.2"),
        ("section", "1.2.1"),
        ("section", "2"),
        ("section", "2.1"),
        ("section", "2.2"),
        ("section", "2.2.1"),
        ("section", "A"),
        ("study", "1"),
        ("study", "2"),
    ]
    assert len(units[-1].sections) == 2  # Study 2 spans its Methods


def test_content_words_leave_out_function_words_and_plurals():
    assert content_words(r"Like in Section 1, the \textbf{High Performers} were defined") == ("high", "performer", "defined")
    # An address tells where material lies, not what a unit is about.
    assert content_words("The form is at https://osf.io/v97bp and www.example.org/x, or mail a.b@uni.edu.") == ("form", "mail")


def test_levels_below_secnumdepth_are_not_numbered(tmp_path):
    body = "\\section{Method}\n\\subsection{Data}\n\\section{Results}\n"
    project = make_project(tmp_path, {"main.tex": document(body, preamble="\\setcounter{secnumdepth}{1}")})
    texts = {path: project.source(path).text for path in project.files}
    assert [unit.number for unit in numbered_units(project.manuscript, texts)] == ["1", "2"]


@pytest.mark.parametrize(
    "text",
    [
        "\\usepackage[disable]{todonotes}\n\\chapter{One}",
        "\\documentclass[11pt]{book}\n\\counterwithout{figure}{chapter}",
        "\\renewcommand{\\thetable}{S\\arabic{table}} and \\newcommand\\thefigure{x}",
        "\\numberwithin{section}{part}\n\\captionof{table}{A}\\ContinuedFloat\\setcounter{figure}{2}",
        "% \\chapter{commented}\n\\usepackage{todonotes} \\counterwithin*{table}{section}",
        "plain prose without a command",
    ],
)
def test_the_project_wide_searches_find_what_a_search_of_the_whole_file_finds(text):
    from auditex.analyzers.rules.drafts.model import _SEARCHES, _holds
    from auditex.latex.source import uncommented

    masked = uncommented(text)
    assert _holds(text) == {name for name, pattern in _SEARCHES.items() if re.search(pattern, masked)}


def test_a_respective_list_is_what_follows_the_references_from_its_last_preposition() -> None:
    text = r"We fit the model. Figures~\ref{fig:a} and \ref{fig:b} show the AUC for verbs and nouns, respectively."
    assert [(keys, items) for _, keys, items, _, _ in respective_lists(text)] == [(("fig:a", "fig:b"), ("verbs", "nouns"))]
    assert respective_lists(r"Figures~\ref{fig:a} and \ref{fig:b} show verbs, nouns and adjectives, respectively.") == ()
    assert respective_lists(r"Figure~\ref{fig:a} shows verbs and nouns, respectively.") == ()
    first = r"BLEU scores for German and French are reported respectively in Figures~\ref{fig:de} and \ref{fig:fr}."
    assert [(keys, items) for _, keys, items, _, _ in respective_lists(first)] == [(("fig:de", "fig:fr"), ("German", "French"))]


def test_each_float_holds_the_item_only_its_caption_names() -> None:
    nouns, verbs = {"auc", "histogram", "noun", "suffix"}, {"auc", "histogram", "verb", "affix"}
    assert held_items(("verbs", "nouns"), [nouns, verbs]) == (1, 0)
    assert held_items(("nouns", "verbs"), [nouns, verbs]) == (0, 1)
    assert held_items(("real orders", "reversed orders"), [nouns, verbs]) is None  # no caption names either
    assert held_items(("verbs", "nouns"), [nouns | {"verb"}, verbs]) is None  # the first caption holds both items


def test_names_are_words_with_a_digit_or_an_inner_capital() -> None:
    assert names(r"The models O10 and CA184-024 beat ResNet-50 and CheckMate (Figure~\ref{fig:o20}).") == {
        "o10",
        "ca184-024",
        "resnet-50",
        "checkmate",
    }
    assert names("A plain sentence of Words, 2024 and 3.5 percent.") == set()


def test_a_label_names_its_float_by_the_words_after_its_kind() -> None:
    assert label_words("fig:auc_nouns") == {"auc", "noun"}
    assert label_words("tab-speed") == {"speed"}
