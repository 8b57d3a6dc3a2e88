"""REF001-REF003 and INC001: labels and references wherever the parser puts them, and missing inputs."""

from pathlib import Path

import pytest
from helpers import rule_findings

# Each position a reference can hide in; KEY marks the reference.
OPTIONAL_ARGUMENT_POSITIONS = {
    "proof name": "\\begin{proof}[Proof of \\Cref{KEY}]\nTrivial.\n\\end{proof}\n",
    "theorem name": "\\begin{theorem}[see \\cite{knuth} and \\ref{KEY}]\nTrue.\n\\end{theorem}\n",
    "short section title": "\\section[Short \\ref{KEY}]{A long title}\nText.\n",
    "short caption": "\\begin{figure}\\caption[Short \\ref{KEY}]{Long.}\\label{fig:f}\\end{figure}\n",
    "item label": "\\begin{description}\\item[\\ref{KEY}] Text.\\end{description}\n",
    "footnote mark": "Text\\footnote[3]{See \\ref{KEY}.}.\n",
    "citation note": "As shown \\citep[see \\ref{KEY}]{knuth}.\n",
}
LEMMA = "\\begin{lemma}\\label{lem:x}\nA lemma.\n\\end{lemma}\n"


def findings(tmp_path: Path, body: str, *codes: str) -> list:
    return rule_findings(
        tmp_path,
        "\\documentclass{article}\n\\usepackage{amsthm}\n\\newtheorem{lemma}{Lemma}\n\\newtheorem{theorem}{Theorem}\n"
        "\\begin{document}\n" + body + "\n\\end{document}\n",
        *codes,
    )


@pytest.mark.parametrize("position", OPTIONAL_ARGUMENT_POSITIONS)
def test_misspelled_reference_in_an_optional_argument_is_caught(tmp_path, position):
    found = findings(tmp_path, LEMMA + OPTIONAL_ARGUMENT_POSITIONS[position].replace("KEY", "lem:y"), "REF001")
    assert len(found) == 1 and found[0].message.endswith("{lem:y}` refers to a label that is not defined")
    assert [fix.title for fix in found[0].fixes] == ["Replace `lem:y` with `lem:x`"]


@pytest.mark.parametrize("position", OPTIONAL_ARGUMENT_POSITIONS)
def test_correct_reference_in_an_optional_argument_is_a_use(tmp_path, position):
    body = LEMMA + OPTIONAL_ARGUMENT_POSITIONS[position].replace("KEY", "lem:x")
    assert findings(tmp_path, body, "REF001") == []
    # The only reference to lem:x sits in the optional argument: the label is used.
    assert [f for f in findings(tmp_path, body, "REF003") if "'lem:x'" in f.message] == []


def test_label_in_an_optional_argument_is_a_definition(tmp_path):
    body = (
        "\\begin{lemma}[Bound \\label{lem:bound}]\nA lemma.\n\\end{lemma}\n"
        "\\section[Short\\label{sec:s}]{Long}\nBy Lemma~\\ref{lem:bound} and Section~\\ref{sec:s}.\n"
    )
    assert findings(tmp_path, body, "REF001") == []
    assert findings(tmp_path, body + "\\label{lem:bound}\n", "REF002") != []


def test_a_key_in_doubled_braces_is_said_as_such_and_not_blamed_on_a_missing_file(tmp_path):
    body = "\\input{version}\n\\section{A}\\label{sec:a}\nSee \\cref{{sec:a}}.\n"
    (found,) = findings(tmp_path, body, "REF001")
    assert "doubled braces" in found.message and "missing" not in found.message and found.severity.value == "error"
    assert [(fix.title, fix.safe, fix.edits[0].new_text) for fix in found.fixes] == [("Write `sec:a` in single braces", True, "sec:a")]


def test_a_listings_label_option_is_a_definition(tmp_path):
    body = (
        "See Listing~\\ref{lst:loop}, Listing~\\ref{lst:braced} and \\ref{lst:none}.\n"
        "\\begin{lstlisting}[language=Python, caption={A loop}, label=lst:loop]\nfor i in range(3): print(i)\n\\end{lstlisting}\n"
        "\\begin{lstlisting}[label={lst:braced}, caption=x]\nx = 1\n\\end{lstlisting}\n"
    )
    found = findings(tmp_path, body, "REF001", "REF003")
    assert [(f.code, f.message.split("}")[0].split("{")[-1]) for f in found] == [("REF001", "lst:none")]


def test_templates_in_definitions_are_not_uses(tmp_path):
    body = (
        "\\newcommand{\\seeproof}{\\ref{lem:nowhere}}\n\\def\\seealso{\\ref{lem:elsewhere}}\n"
        "\\begin{verbatim}\\ref{lem:code}\\end{verbatim}\nText.\n"
    )
    assert findings(tmp_path, body, "REF001") == []


def test_key_given_to_a_command_we_do_not_read_is_information(tmp_path):
    # \mylisting's class sets `label={#3}`; a listing's `label=` option; and a code line in a listing.
    body = (
        "\\mylisting{python}{code/mpm.py}{lst:mpm}\n"
        "\\begin{lstlisting}[label=lst:loop, caption=Loop]\nfor x in y: pass\n\\end{lstlisting}\n"
        "See \\cref{lst:mpm}, \\cref{lst:loop} and Lines~\\ref{ln:start}--\\ref{ln:end}.\n\n"
        "% \\label{fig:gone}\nFigure~\\ref{fig:gone} and \\hyperref[sec:typo]{there}, Section~\\ref{sec:typo}.\n"
    )
    found = {f.message.split("}")[0].split("{")[-1]: f for f in findings(tmp_path, body, "REF001")}
    assert sorted(found) == ["fig:gone", "ln:end", "ln:start", "lst:mpm", "sec:typo"]
    information = sorted(key for key, f in found.items() if f.severity.value == "information")
    assert information == ["ln:end", "ln:start", "lst:mpm"]
    assert "appears at `main.tex:6`" in found["lst:mpm"].message
    # A commented-out label, and a key that only other references use, stay errors.
    assert found["fig:gone"].severity.value == found["sec:typo"].severity.value == "error"


def test_text_of_an_excluded_venue_is_not_this_roots(tmp_path):
    # One root per venue: the comment package drops the other venue's text, labels and references.
    found = rule_findings(
        tmp_path,
        {
            "shared.tex": "\\begin{long}\n\\begin{equation}x\\label{eq:bound}\\end{equation}\nSee Appendix~\\ref{app:proof}.\n\\end{long}\n"
            "\\begin{short}\n\\begin{equation}y\\label{eq:bound}\\end{equation}\n\\end{short}\nBy \\eqref{eq:bound}.\n",
            "long.tex": "\\documentclass{article}\n\\usepackage{comment}\n\\includecomment{long}\\excludecomment{short}\n"
            "\\begin{document}\n\\input{shared}\n\\appendix\\section{Proof}\\label{app:proof}\n\\end{document}\n",
            "short.tex": "\\documentclass{article}\n\\usepackage{comment}\n\\includecomment{short}\\excludecomment{long}\n"
            "\\begin{document}\n\\input{shared}\nSee \\ref{app:typo}.\n\\end{document}\n",
        },
        "REF001",
        "REF002",
    )
    assert [(f.code, f.file, f.message.split("`")[1]) for f in found] == [("REF001", "short.tex", "\\ref{app:typo}")]


def test_macro_that_ends_in_a_bare_label_defines_the_key_that_follows(tmp_path):
    body = (
        "\\newcommand{\\alglinelabel}{%\n  \\refstepcounter{line}% count\n  \\label% the key follows\n}\n"
        "Step one \\alglinelabel{alg:step}.\n\nSee line~\\ref{alg:step} and line~\\ref{alg:stpe}.\n"
    )
    assert [f.message.split("`")[1] for f in findings(tmp_path, body, "REF001")] == ["\\ref{alg:stpe}"]


def test_label_of_a_loaded_package(tmp_path):
    assert (
        rule_findings(
            tmp_path,
            "\\documentclass{article}\n\\usepackage{fancyhdr,lastpage}\n\\rfoot{\\thepage/\\pageref{LastPage}}\n"
            "\\begin{document}\nText.\n\\end{document}\n",
            "REF001",
        )
        == []
    )
    found = rule_findings(
        tmp_path, "\\documentclass{article}\n\\rfoot{\\thepage/\\pageref{LastPage}}\n\\begin{document}\nText.\n\\end{document}\n", "REF001"
    )
    assert [f.code for f in found] == ["REF001"]


def test_labels_and_references_in_iffalse_are_not_read(tmp_path):
    body = (
        "\\section{Fault tolerance}\\label{sec:failure}\nSee Section~\\ref{sec:failure}.\n"
        "\\iffalse\n\\subsection{Old draft}\\label{sec:failure}\nSee \\ref{sec:gone}.\n\\fi\n"
        "\\iftrue\nKept.\\label{sec:kept}\n\\else\n\\label{sec:kept}\n\\fi\nSee \\ref{sec:kept} and \\ref{sec:typo}.\n"
    )
    found = [(f.code, f.message.split("`")[1]) for f in findings(tmp_path, body, "REF001", "REF002")]
    assert found == [("REF001", "\\ref{sec:typo}")]


def test_a_label_with_a_comma_is_one_key(tmp_path):
    body = (
        "\\begin{lemma}\\label{lem:S(h,G/r)size}A.\\end{lemma}\n\\begin{lemma}\\label{lem:S(h,K)size}B.\\end{lemma}\n"
        "By Lemmas~\\ref{lem:S(h,G/r)size} and \\ref{lem:S(h,K)size}; see \\cref{lem:S(h,K)size,lem:none}.\n"
    )
    # cleveref splits its list at every comma, so there the label is cut as LaTeX cuts it.
    found = [f.message.split("`")[1] for f in findings(tmp_path, body, "REF001", "REF002")]
    assert found == ["\\cref{lem:S(h}", "\\cref{K)size}", "\\cref{lem:none}"]


def test_if_zero_is_read_as_iffalse(tmp_path):
    body = "\\section{Intro}\\label{sec:intro}\n\\if0\nSee \\ref{sec:dataset} and \\ref{sec:gone}.\n\\fi\n\\if 0 Old \\ref{sec:old}.\\fi\nSee \\ref{sec:typo}.\n"
    found = [f.message.split("`")[1] for f in findings(tmp_path, body, "REF001")]
    assert found == ["\\ref{sec:typo}"]


def test_references_in_notes_switched_off_are_not_read(tmp_path):
    body = (
        "\\newcommand{\\note}[1]{}\n\\newcommand{\\amit}[1]{ {\\note{\\color{purple} Amit: #1}} }\n"
        "\\newcommand{\\shown}[1]{\\textit{#1}}\n"
        "Text.\\amit{We can keep Figure~\\ref{fig:old} and \\cite{gone}.} \\note{See \\ref{fig:older}.}\n"
        "\\shown{See \\ref{fig:typo}.}\n"
    )
    assert [f.message.split("`")[1] for f in findings(tmp_path, body, "REF001")] == ["\\ref{fig:typo}"]


def test_label_in_a_file_another_root_includes(tmp_path):
    found = sorted(
        f.message
        for f in rule_findings(
            tmp_path,
            {
                "body.tex": "See Appendix~\\ref{app:proof} and \\ref{app:typo}.\n",
                "appendix.tex": "\\section{Proof}\\label{app:proof}\n",
                "long.tex": "\\documentclass{article}\n\\begin{document}\n\\input{body}\n\\appendix\n\\input{appendix}\n\\end{document}\n",
                "short.tex": "\\documentclass{article}\n\\begin{document}\n\\input{body}\n\\end{document}\n",
            },
            "REF001",
        )
    )
    assert len(found) == 2 and found[0].startswith(
        "`\\ref{app:proof}` refers to a label that is not defined in the build of `short.tex` (`appendix.tex` defines it"
    )
    assert found[1].startswith("`\\ref{app:typo}` refers to a label that is not defined")
    # With xr, the short paper reads the long one's labels.
    short = "\\documentclass{article}\n\\usepackage{xr}\n\\externaldocument{long}\n\\begin{document}\n\\input{body}\n\\end{document}\n"
    assert [f.message.split("`")[1] for f in rule_findings(tmp_path, {"short.tex": short}, "REF001")] == ["\\ref{app:typo}"]


def test_references_a_missing_generated_labels_file_would_define_are_one_finding_at_its_include(tmp_path):
    body = "\\input{main.labels}\nSee \\ref{sec:a}, \\ref{sec:b} and again \\ref{sec:a}.\n"
    findings = rule_findings(tmp_path, "\\documentclass{book}\n\\begin{document}\n" + body + "\\end{document}\n", "REF001")
    [grouped] = findings
    assert grouped.severity.value == "information"
    assert grouped.message == "3 references to 2 undefined labels (`sec:a`, `sec:b`) may be defined in the missing `main.labels`"
    assert grouped.range.start.line == 2  # at the \input of main.labels
    assert [(related.range.start.line, related.message) for related in grouped.related] == [
        (3, "`\\ref{sec:a}` refers to a label that is not defined"),
        (3, "`\\ref{sec:b}` refers to a label that is not defined"),
        (3, "`\\ref{sec:a}` refers to a label that is not defined"),
    ]


TCB_CLASS = """\\NeedsTeXFormat{LaTeX2e}
\\ProvidesClass{thesis}
\\LoadClass{book}
\\RequirePackage{tcolorbox}
\\newtcbinputlisting[
    auto counter,
]{\\mylisting}[5]{%
    listing only,
    listing file={#2},
    title={{\\small\\textbf{Listing \\thetcbcounter:} #4}},
    label={#5},
}
"""


def test_labels_set_by_a_class_commands_key_value_option_are_defined(tmp_path):
    main = (
        "\\documentclass{thesis}\n"
        "\\newtcolorbox{notebox}[2]{title=#1, label=#2}\n"
        "\\begin{document}\n"
        "\\mylisting{python}{code/a.py}{A listing}{The {\\em imports}}{lst:imports}\n"
        "\\begin{notebox}{A note}{box:note}Text.\\end{notebox}\n"
        "See \\cref{lst:imports}, \\ref{box:note} and \\ref{lst:nowhere}.\n"
        "\\end{document}\n"
    )
    findings = rule_findings(tmp_path, {"main.tex": main, "thesis.cls": TCB_CLASS, "code/a.py": "import os\n"}, "REF001")
    assert [finding.message.split("`")[1] for finding in findings] == ["\\ref{lst:nowhere}"]


def test_a_label_another_roots_file_drops_is_seen_on_the_next_edit(tmp_path):
    """The other roots' files are read again when their size or time changes, not on every edit."""
    from helpers import write_project

    from auditex.analyzers.engine import Engine
    from auditex.latex.project import Project

    body = "See Appendix~\\ref{app:proof}.\n"
    write_project(
        tmp_path,
        {
            "body.tex": body,
            "appendix.tex": "\\section{Proof}\\label{app:proof}\n",
            "long.tex": "\\documentclass{article}\n\\begin{document}\n\\input{body}\n\\appendix\n\\input{appendix}\n\\end{document}\n",
            "short.tex": "\\documentclass{article}\n\\begin{document}\n\\input{body}\n\\end{document}\n",
        },
    )
    project = Project(tmp_path, "short.tex")
    engine = Engine()
    [before] = [f.message for f in engine.check(project) if f.code == "REF001"]
    assert "`appendix.tex` defines it" in before
    (tmp_path / "appendix.tex").write_text("\\section{Proof}\\label{app:proved}\n")
    project.update("body.tex", body + "More.\n")
    [after] = [f.message for f in engine.check(project) if f.code == "REF001"]
    assert "appendix.tex" not in after
