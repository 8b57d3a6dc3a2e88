"""How a sentence's words name a table's row: plurals, cut header words, short forms of sized names, and the
author's macros as printed; a name shared by two rows binds to neither."""

import pytest
from helpers import document, rule_findings

from auditex.analyzers.quantities import name_words
from auditex.analyzers.row_names import names_header


def _names(sentence: str, header: str) -> bool:
    return names_header(name_words(sentence), name_words(header))


@pytest.mark.parametrize(
    ("sentence", "header"),
    [
        ("Martyrdom narratives appear most often", "Martyrdom Narrative"),
        ("those who received information from an online forum", "Received Info, Online Forum"),
        ("respondents with an Associate's degree or above", "Associate's Deg or above"),
        ("LLaMA-2 reaches 45.3", "LLaMA-2-7B-chat"),
        ("Muse reaches a CLIP score of 0.32", "Muse-3B"),
        ("the studies we ran", "Study"),
    ],
)
def test_a_sentence_names_a_header_written_in_another_form(sentence, header):
    assert _names(sentence, header)


@pytest.mark.parametrize(
    ("sentence", "header"),
    [
        ("the model reaches 45.3", "Mode"),  # a word two letters short of another is no cut form of it
        ("GPT-4 reaches 45.3", "GPT-4o"),
        ("we make a scene", "Make-A-Scene"),  # a word's first part names no hyphenated name
        ("the network ran", "Net-B"),  # a cut word names no part of a hyphenated name
        ("LLaMA reaches 45.3", "LLaMA-2-7B-chat Alpaca"),  # every word of the header
    ],
)
def test_look_alikes_name_no_header(sentence, header):
    assert not _names(sentence, header)


def _table(rows: str, sentence: str, preamble: str = "") -> str:
    table = (
        "\\begin{table}\\centering\\begin{tabular}{lcc}\\toprule Model & GSM8K & MATH \\\\ \\midrule\n"
        f"{rows}\\bottomrule\\end{{tabular}}\\caption{{Results.}}\\label{{tab:main}}\\end{{table}}\n"
    )
    return document(f"\\section{{Results}}\n{table}\n{sentence}\n", preamble)


def test_a_sized_name_is_named_by_its_family_when_one_row_has_it(tmp_path):
    rows = "LLaMA-2-7B-chat & 41.2 & 12.0 \\\\\nMistral-7B & 52.4 & 13.1 \\\\\n"
    found = rule_findings(tmp_path, _table(rows, "As Table~\\ref{tab:main} shows, LLaMA-2 reaches 47.9 on GSM8K."), "NUM014")
    assert [finding.code for finding in found] == ["NUM014"]


def test_a_family_name_shared_by_two_rows_names_neither(tmp_path):
    rows = "LLaMA-2-7B-chat & 41.2 & 12.0 \\\\\nLLaMA-2-13B-chat & 45.0 & 13.1 \\\\\n"
    found = rule_findings(tmp_path, _table(rows, "As Table~\\ref{tab:main} shows, LLaMA-2 reaches 47.9 on GSM8K."), "NUM014")
    assert not found


def test_a_row_written_through_a_macro_is_named_by_its_printed_name(tmp_path):
    rows = "\\model & 41.2 & 12.0 \\\\\nMistral-7B & 52.4 & 13.1 \\\\\n"
    text = _table(
        rows, "As Table~\\ref{tab:main} shows, SparseProbe reaches 47.9 on GSM8K.", "\\newcommand{\\model}{\\textsc{SparseProbe}}"
    )
    assert [finding.code for finding in rule_findings(tmp_path, text, "NUM014")] == ["NUM014"]


def test_a_macro_that_prints_no_name_stays_a_name_of_its_own(tmp_path):
    rows = "\\zp{} (light) & 41.2 & 12.0 \\\\\n\\zp{} (heavy) & 52.4 & 13.1 \\\\\n"
    text = _table(rows, "As Table~\\ref{tab:main} shows, the light model reaches 47.9 on GSM8K.", "\\newcommand{\\zp}{$Z'$}")
    assert not rule_findings(tmp_path, text, "NUM014")


def _grouped(sentence: str) -> str:
    table = (
        "\\begin{table}\\centering\\begin{tabular}{llcc}\\toprule Setting & Model & GSM8K & MATH \\\\ \\midrule\n"
        "\\multirow{2}{*}{Zero-shot} & CoT-Large & 41.2 & 12.0 \\\\\n & PoT-Large & 52.4 & 13.1 \\\\\n"
        "\\bottomrule\\end{tabular}\\caption{Results.}\\label{tab:main}\\end{table}\n"
    )
    return document(f"\\section{{Results}}\n{table}\n{sentence}\n")


def test_a_row_under_a_multirow_is_named_by_its_own_label(tmp_path):
    found = rule_findings(tmp_path, _grouped("As Table~\\ref{tab:main} shows, PoT-Large reaches 47.9 on GSM8K."), "NUM014")
    assert [finding.code for finding in found] == ["NUM014"]
