"""A table named by its printed number binds to the one labelled table float that prints it."""

from __future__ import annotations

from typing import NamedTuple

import pytest
from helpers import document, make_project, write_project

from auditex.analyzers.context import RuleContext
from auditex.analyzers.engine import Engine
from auditex.analyzers.finding import Category, Evidence, Finding, Position, Range, Severity
from auditex.analyzers.project_config import Config
from auditex.analyzers.quantities import Pointing
from auditex.analyzers.rules.printed_tables import (
    BY_NUMBER,
    bound_pointing,
    judged_by_number,
    literal_refs,
    printed_tables,
    sentence_pointing,
    sentence_tables,
    with_printed,
)
from auditex.analyzers.rules.statistics.table_significance import none_significant_contradicts_table
from auditex.latex.model import Block, BlockKind, PlainText
from auditex.latex.project import Project


def _table(label: str | None, caption: str = "A table.") -> str:
    labelled = f"\\label{{{label}}}" if label else ""
    return f"\\begin{{table}}\\caption{{{caption}}}{labelled}\\begin{{tabular}}{{lc}}a & 1 \\\\\\end{{tabular}}\\end{{table}}\n"


def _printed(tmp_path, body: str, preamble: str = "", documentclass: str = "article") -> dict[str, str]:
    text = document(body, preamble).replace("{article}", f"{{{documentclass}}}")
    project = make_project(tmp_path, {"main.tex": text})
    return printed_tables(RuleContext(project, none_significant_contradicts_table, Config()))


def test_each_printed_number_names_its_labelled_table(tmp_path):
    body = "\\section{A}" + _table("tab:a") + _table("tab:b") + "\\setcounter{table}{6}" + _table("tab:g")
    assert _printed(tmp_path, body) == {"1": "tab:a", "2": "tab:b", "7": "tab:g"}


def test_a_supplement_prefix_is_part_of_the_number(tmp_path):
    body = _table("tab:a") + "\\renewcommand{\\thetable}{S\\arabic{table}}\\setcounter{table}{0}" + _table("tab:s")
    assert _printed(tmp_path, body) == {"1": "tab:a", "S1": "tab:s"}


@pytest.mark.parametrize(
    ("printed", "supplement"),
    [
        ("\\renewcommand\\thetable{OA-\\arabic{table}}", "OA-1"),  # an online appendix's "Table OA-1"
        ("\\renewcommand{\\thetable}{S.\\arabic{table}}", "S.1"),
        ("\\makeatletter\\renewcommand \\thetable{S\\@arabic\\c@table}\\makeatother", "S1"),  # the kernel's own form
    ],
)
def test_a_supplement_prefix_with_a_mark_still_numbers_the_tables_before_it(tmp_path, printed, supplement):
    body = _table("tab:a") + _table("tab:b") + printed + "\\setcounter{table}{0}" + _table("tab:s")
    assert _printed(tmp_path, body) == {"1": "tab:a", "2": "tab:b", supplement: "tab:s"}


def test_a_note_below_the_caption_leaves_the_number(tmp_path):
    noted = (
        "\\begin{table}\\caption{Main.}\\label{tab:a}\\begin{tabular}{lc}a & 1 \\\\\\end{tabular}\\caption*{Notes: a note.}\\end{table}\n"
    )
    assert _printed(tmp_path, noted + _table("tab:b")) == {"1": "tab:a", "2": "tab:b"}


def test_an_unlabelled_table_binds_nothing_but_still_counts(tmp_path):
    assert _printed(tmp_path, _table(None) + _table("tab:b")) == {"2": "tab:b"}


@pytest.mark.parametrize(
    ("body", "preamble", "documentclass"),
    [
        ("\\chapter{One}" + _table("tab:a"), "", "report"),  # "Table 1.1"
        (_table("tab:a"), "\\renewcommand{\\thetable}{\\Roman{table}}", "article"),  # "Table I"
        (_table("tab:a"), "\\numberwithin{table}{section}", "article"),
        (_table("tab:a") + "\\addtocounter{table}{2}" + _table("tab:b"), "", "article"),
    ],
)
def test_numbering_that_cannot_be_followed_binds_nothing(tmp_path, body, preamble, documentclass):
    assert _printed(tmp_path, body, preamble, documentclass) == {}


@pytest.mark.parametrize(
    ("sentence", "keys"),
    [
        ("As Table 3 shows, the loss falls.", {"3"}),
        ("The results (Tab.~2) hold.", {"2"}),
        ("Tables 2 and 4 list them.", {"2", "4"}),
        ("Table 2.1 lists them.", set()),  # a second level: numbered otherwise
        ("As in Table 1 of [12], the loss falls.", set()),
        ("Table 2 in Smith et al. lists them.", set()),
        ("Supplementary Table 3 lists them.", set()),
        ("The table lists them.", set()),
    ],
)
def test_the_tables_a_sentence_names_by_number(sentence, keys):
    assert literal_refs(sentence) == keys


def test_a_sentence_s_own_ref_comes_before_its_numbers_and_the_numbers_before_the_paragraph():
    assert sentence_tables("Table~\\ref{tab:a} and Table 2 agree.", {"tab:p"}) == ("tab:a",)
    assert sentence_tables("Table 2 agrees.", {"tab:p"}) == ("2", "tab:p")  # the number may bind to no table
    assert sentence_tables("It agrees.", {"tab:p"}) == ("tab:p",)


def test_a_number_bound_to_no_table_leaves_the_section_s_table_of_p_values(tmp_path):
    body = "\\chapter{Results}\n" + _p_table("tab:a", "0.030") + "As Table~1 shows, none of the effects was significant.\n"
    text = document(body).replace("{article}", "{report}")  # tables numbered by chapter: "Table 1" binds nothing
    write_project(tmp_path, {"main.tex": text})
    found = [finding for finding in Engine().check(Project(tmp_path, "main.tex")) if finding.code == "STAT012"]
    assert [finding.evidence.kind for finding in found if finding.evidence] == ["weak: the section's one table of p-values"]


def _p_table(label: str, p: str) -> str:
    return f"\\begin{{table}}\\caption{{Effects.}}\\label{{{label}}}\\begin{{tabular}}{{lcc}}Term & Effect & $p$ \\\\ Treatment & 0.28 & {p} \\\\\\end{{tabular}}\\end{{table}}\n"


@pytest.mark.parametrize(
    ("edit", "found"),
    [
        (
            lambda text: text.replace("\\section{Results}\n", "\\section{Results}\n" + _p_table("tab:new", "0.400")),
            0,
        ),  # Table 2 is now tab:a
        (lambda text: text.replace("Filler.", "Filler.\\setcounter{table}{5}"), 0),  # tab:b prints 7
        (lambda text: text.replace("Filler.", "Filler. More filler."), 1),
    ],
)
def test_an_edit_elsewhere_that_renumbers_the_tables_rebinds_a_literal_number(tmp_path, edit, found):
    body = (
        "\\section{Methods}\nFiller.\n\n\\section{Results}\n"
        + _p_table("tab:a", "0.300")
        + _p_table("tab:b", "0.030")
        + "\\section{Discussion}\nAs Table~2 shows, none of the effects was significant.\n"
    )
    write_project(tmp_path, {"main.tex": document(body)})
    project = Project(tmp_path, "main.tex")
    engine = Engine()
    assert len([finding for finding in engine.check(project) if finding.code == "STAT012"]) == 1
    text = edit(project.documents["main.tex"].text)
    project.update("main.tex", text)
    incremental = engine.check(project)
    assert len([finding for finding in incremental if finding.code == "STAT012"]) == found
    (tmp_path / "main.tex").write_text(text)
    cold = Engine().check(Project(tmp_path, "main.tex"))
    assert [finding.model_dump(mode="json") for finding in incremental] == [finding.model_dump(mode="json") for finding in cold]


def test_a_number_typed_for_another_table_binds_nowhere(tmp_path):
    """DRF008's number: the sentence describes the ablation table's caption, not the table its number names."""
    body = (
        "\\section{A}Table 1 lists the ablation of the pruning schedule.\n"
        + _table("tab:a", "Datasets and their sizes.")
        + _table("tab:b", "Ablation of the pruning schedule.")
    )
    assert _printed(tmp_path, body) == {"2": "tab:b"}


def test_a_pointing_reads_its_numbers_as_the_labels_of_their_tables(tmp_path):
    project = make_project(tmp_path, {"main.tex": document(_table("tab:a") + _table("tab:b"))})
    ctx = RuleContext(project, none_significant_contradicts_table, Config())
    pointing = Pointing(frozenset(), frozenset({"2"}), frozenset({"2", "7", "tab:a"}))
    bound = bound_pointing(pointing, frozenset({"tab:a", "tab:b"}), ctx)
    assert (bound.refs, bound.paragraph_refs, bound.by_number) == ({"tab:b"}, {"tab:a", "tab:b"}, {"tab:b"})
    cited_both_ways = Pointing(frozenset(), frozenset({"1"}), frozenset({"tab:a"}))
    assert bound_pointing(cited_both_ways, frozenset({"tab:a", "tab:b"}), ctx).by_number == frozenset()


def test_a_sentence_s_pointing_keeps_its_numbers_until_the_paper_s_numbering_binds_them():
    block = Block(kind=BlockKind.PARAGRAPH, start=0, end=0, plain=PlainText("Table 2 agrees. See Table~\\ref{tab:a}.", []))
    pointing = sentence_pointing("Table 2 agrees.", block, frozenset())
    assert (pointing.refs, pointing.paragraph_refs) == ({"2"}, {"2", "tab:a"})


def test_a_finding_only_a_number_s_table_gives_is_marked_by_number(tmp_path):
    project = make_project(tmp_path, {"main.tex": document(_table("tab:a") + _table("tab:b"))})
    ctx = RuleContext(project, none_significant_contradicts_table, Config())
    tables = with_printed({"tab:a": "first", "tab:b": "second"}, ctx)

    class Stated(NamedTuple):
        labels: tuple[str, ...]

    def judge(stated: Stated, by_label) -> list[Finding]:
        return [_finding(by_label[label]) for label in stated.labels if label in by_label]

    kinds = [finding.evidence.kind for finding in judged_by_number(judge)(Stated(("tab:a", "2")), tables)]
    assert kinds == ["first", "second" + BY_NUMBER]


def _finding(kind: str) -> Finding:
    return Finding(
        code="NUM007",
        message=kind,
        severity=Severity.INFORMATION,
        category=Category.EVIDENCE_MANIPULATION,
        file="main.tex",
        range=Range(start=Position(line=0, character=0), end=Position(line=0, character=1)),
        identity=kind,
        evidence=Evidence(kind=kind),
    )


def test_a_label_two_tables_bear_binds_no_number(tmp_path):
    assert _printed(tmp_path, _table("tab:a") + _table("tab:b") + _table("tab:b")) == {"1": "tab:a"}
