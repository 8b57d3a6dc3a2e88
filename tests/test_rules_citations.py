"""CIT: citations against the bibliography, read the way BibTeX, natbib, biblatex and apacite read them."""

from pathlib import Path

from helpers import document, rule_findings

from auditex.analyzers.finding import Severity

SERIOUS = (Severity.ERROR, Severity.WARNING)


def findings(tmp_path: Path, body: str, bib: str | None, prefix: str = "CIT", preamble: str = "") -> list:
    files = {"main.tex": document(body + ("\n\\bibliography{refs}" if bib is not None else ""), preamble)}
    if bib is not None:
        files["refs.bib"] = bib
    return rule_findings(tmp_path, files, prefix)


def serious(found: list, code: str) -> list:
    return [f for f in found if f.code == code and f.severity in SERIOUS]


# Shape 6: a repeated field is read; the entry exists and the finding says what and where.

REPEATED = """@article{smith2020,
  title = {Learning things},
  year = {2019},
  year = {2020},
  doi = {10.1/x},
  DOI = {10.1/x},
  keywords = {a},
  keywords = {b},
}
"""


def test_entry_with_repeated_fields_is_read_and_the_repetition_reported(tmp_path):
    found = findings(tmp_path, "As shown \\cite{smith2020}.", REPEATED)
    assert not [f for f in found if f.code in ("CIT001", "CIT003")]
    repeated = {f.message.split("`")[1]: f for f in found if f.code == "CIT006"}
    assert set(repeated) == {"year", "doi", "keywords"}
    year = repeated["year"]
    assert year.severity is Severity.WARNING and year.file == "refs.bib" and year.range.start.line == 0
    assert "field `year` appears twice in entry `smith2020`" in year.message and "`2019`" in year.message
    # Same value, or a field no style prints: nothing reaches the paper.
    assert repeated["doi"].severity is Severity.HINT and "same value" in repeated["doi"].message
    assert repeated["keywords"].severity is Severity.HINT


def test_repeated_field_of_an_uncited_entry_is_a_hint(tmp_path):
    found = findings(tmp_path, "No citation of it \\cite{other}.", REPEATED + "@misc{other, title={O}}\n")
    assert [f.severity for f in found if f.code == "CIT006"] and not serious(found, "CIT006")


def test_unparsable_entry_says_why_and_where_and_its_citations_resolve(tmp_path):
    bib = "@inproceedings{xu2018,\n  title={Fusion},\n  year={2018}\n\n\n@article{lee2019,\n  title={Big},\n  year={2019}\n}\n"
    found = findings(tmp_path, "See \\cite{xu2018} and \\cite{lee2019}.", bib)
    assert not [f for f in found if f.code == "CIT001"]  # BibTeX keeps what it read before the slip
    [broken] = serious(found, "CIT003")
    assert "`xu2018`" in broken.message and "line 6" in broken.message and "`,` or `}`" in broken.message
    assert broken.range.start.line == 0


def test_entry_whose_key_cannot_be_read_is_absent(tmp_path):
    found = findings(tmp_path, "See \\cite{lost}.", "@misc{lost title = {x}}\n@misc{kept, title={K}}\n")
    assert serious(found, "CIT003") and serious(found, "CIT001")


# Shape 7: citation commands with their optional arguments; a delimiter is never a key.

BIB = "".join(f"@misc{{{key}, title={{{key}}}}}\n" for key in ("a", "b", "c", "d", "e", "k1", "k2"))


def test_apacite_natbib_and_biblatex_arguments_are_not_keys(tmp_path):
    body = (
        "\\cite<e.g.>{k1,k2}, \\citeA<see>[p.~3]{a}, \\citeNP{b}, \\citeyearNP{c}, \\shortciteNP{d}, \\fullcite{e}. "
        "\\citep[see][p.~3]{a}, \\citealp*{b}, \\Citet*{c}. "
        "\\cites(Pre)(post)[pre][post]{a}[p.~2]{b} \\parencites[Ch.~5]{c}[6]{d}{e} \\textcites{a}{b} \\footcites{c}{d}."
    )
    found = findings(tmp_path, body, BIB)
    assert not [f for f in found if f.code == "CIT001"]
    assert not [f for f in found if f.code == "CIT004"]  # every key above was read


def test_misspelled_key_inside_those_commands_is_still_caught(tmp_path):
    body = "\\cite<e.g.>{k1,k3} and \\parencites[Ch.~5]{a}[6]{bb}{c}."
    keys = sorted(f.message.split("`")[1] for f in findings(tmp_path, body, BIB) if f.code == "CIT001")
    assert keys == ["bb", "k3"]


def test_text_group_after_a_multicitation_is_not_a_key(tmp_path):
    found = findings(tmp_path, "\\textcites{a}{b} {\\itshape argue} that.", BIB)
    assert not [f for f in found if f.code == "CIT001"]


# Shape 8: a duplicate key matters when the paper cites it and the entries differ.

DUPLICATES = """@article{same, title = {Same}, year = {2020}}
@article{same,
  Title = {Same},
  year  = "2020"}
@article{diff, title={Old title}, year={2019}}
@inproceedings{diff, title={New title}, year={2019}}
@article{unused, title={One}}
@article{unused, title={Two}}
"""


def test_cited_duplicate_with_different_content_is_a_warning(tmp_path):
    found = findings(tmp_path, "\\cite{same} and \\cite{diff}.", DUPLICATES)
    [warning] = serious(found, "CIT002")
    assert "`diff`" in warning.message and "entry type" in warning.message and "`title`" in warning.message
    assert warning.related and warning.related[0].range.start.line == 4
    hints = {f.message.split("`")[1] for f in found if f.code == "CIT002" and f.severity is Severity.HINT}
    assert hints == {"same", "unused"}  # an identical copy, an uncited key


def test_duplicate_across_files_compares_content_too(tmp_path):
    found = rule_findings(
        tmp_path,
        {
            "main.tex": document("\\cite{k} \\cite{j}\n\\bibliography{a,b}"),
            "a.bib": "@misc{k, title={K}}\n@misc{j, title={J}}\n",
            "b.bib": "@misc{k, title = {K}}\n@misc{j, title={J2}}\n",
        },
        "CIT002",
    )
    assert [(f.file, f.message.split("`")[1]) for f in found if f.severity is Severity.WARNING] == [("b.bib", "j")]
    assert [f.message.split("`")[1] for f in found if f.severity is Severity.HINT] == ["k"]


def test_a_bbl_read_for_a_missing_bib_repeats_the_other_bibs_without_duplicating_them(tmp_path):
    """The .bbl stands in for the missing one of several .bib files: BibTeX wrote it from all of them."""
    found = rule_findings(
        tmp_path,
        {
            "main.tex": document("\\cite{k} \\cite{j}\n\\bibliography{gone,refs}"),
            "refs.bib": "@article{k, title={K}, journal={J}}\n",
            "main.bbl": "\\begin{thebibliography}{2}\n\\bibitem{k} \\btitle{K}.\n\\bibitem{j} J.\n\\bibitem{j} J again.\n\\end{thebibliography}\n",
        },
        "CIT002",
    )
    assert [f.message.split("`")[1] for f in found] == ["j"]  # k is refs.bib's entry again; j is in the .bbl twice


def test_nocite_star_cites_every_duplicate(tmp_path):
    found = findings(tmp_path, "\\nocite{*}", DUPLICATES)
    assert {f.message.split("`")[1] for f in serious(found, "CIT002")} == {"diff", "unused"}


# CIT001 and CIT005: what is genuinely undefined, and when there is no bibliography at all.


def test_case_mismatch_is_an_error_that_says_so(tmp_path):
    found = findings(tmp_path, "\\cite{Smith2020}", "@misc{smith2020, title={S}}\n")
    [error] = serious(found, "CIT001")
    assert error.severity is Severity.ERROR and "differs only in letter case" in error.message
    assert error.fixes[0].edits[0].new_text == "smith2020"


def test_a_macro_parameter_is_no_cite_key(tmp_path):
    preamble = "\\NewDocumentCommand\\citeproc{mm}{#2~\\cite{#1}}\n\\newcommand{\\mycite}[1]{\\citep{#1}}"
    found = findings(tmp_path, "\\citeproc{a}{see} \\mycite{a} \\cite{nope}", "@misc{a, title={A}}\n", preamble=preamble)
    assert [f.message.split("`")[1] for f in serious(found, "CIT001")] == ["nope"]


# What pandoc writes for R Markdown and Quarto: `\citeproc` defined with xparse, a CSLReferences list.
PANDOC_PREAMBLE = """\\NewDocumentCommand\\citeproctext{}{}
\\NewDocumentCommand\\citeproc{mm}{%
  \\begingroup\\def\\citeproctext{#2}\\cite{#1}\\endgroup}
\\newenvironment{CSLReferences}[2] % #1 hanging-indent, #2 entry-spacing
 {\\begin{list}{}{\\setlength{\\itemindent}{0pt}}}
 {\\end{list}}"""


def test_a_pandoc_paper_cites_with_citeproc_from_its_csl_references(tmp_path):
    body = """Flattery works \\citeproc{ref-smith2020}{(Smith 2020)}, as before \\citeproc{ref-lee2019,ref-gone}{(Lee 2019)}.
\\phantomsection\\label{refs}
\\begin{CSLReferences}{1}{0}
\\bibitem[\\citeproctext]{ref-smith2020}
Smith, J. 2020. \\emph{Flattery}. Press.

\\bibitem[\\citeproctext]{ref-lee2019}
Lee, K. 2019. Advice. \\emph{Journal} 3: 1--2.
\\end{CSLReferences}"""
    found = findings(tmp_path, body, None, preamble=PANDOC_PREAMBLE)
    assert [(f.code, f.message) for f in serious(found, "CIT001") + serious(found, "CIT005")] == [
        ("CIT001", "citation key `ref-gone` is not in the bibliography")
    ]


def test_an_older_pandoc_papers_csl_references_are_named_by_their_anchors(tmp_path):
    body = """Flattery works (\\protect\\hyperlink{ref-smith2020}{Smith 2020}) \\citeproc{ref-smith2020}{(Smith 2020)}.
\\hypertarget{refs}{}
\\begin{CSLReferences}{1}{0}
\\leavevmode\\vadjust pre{\\hypertarget{ref-smith2020}{}}%
Smith, J. 2020. \\emph{Flattery}. Press.
\\end{CSLReferences}"""
    assert not [f for f in findings(tmp_path, body, None, preamble=PANDOC_PREAMBLE) if f.severity in SERIOUS]


def test_key_maybe_in_a_missing_bib_file_is_information(tmp_path):
    found = rule_findings(
        tmp_path,
        {"main.tex": document("\\cite{mine} \\cite{theirs}\n\\bibliography{anthology,custom}"), "custom.bib": "@misc{mine, title={M}}\n"},
        "CIT001",
    )
    assert len(found) == 1 and found[0].severity is Severity.INFORMATION and "anthology.bib" in found[0].message


def test_citations_without_any_bibliography(tmp_path):
    found = findings(tmp_path, "\\cite{a} and \\citep{b} and \\cite{a}.", None)
    [missing] = serious(found, "CIT005")
    assert "cites 2 keys" in missing.message and "no bibliography" in missing.message
    assert not [f for f in found if f.code == "CIT001"]


def test_thebibliography_or_a_bbl_is_a_bibliography(tmp_path):
    body = "\\cite{a}\n\\begin{thebibliography}{1}\n\\bibitem{a} A.\n\\end{thebibliography}"
    assert findings(tmp_path, body, None) == []
    found = rule_findings(
        tmp_path / "bbl",
        {
            "main.tex": document("\\cite{a}\n\\bibliography{gone}"),
            "main.bbl": "\\begin{thebibliography}{1}\n\\bibitem{a} A.\n\\end{thebibliography}\n",
        },
        "CIT",
    )
    assert not serious(found, "CIT005")


def test_bibliography_loaded_by_a_package_of_the_project(tmp_path):
    found = rule_findings(
        tmp_path,
        {
            "main.tex": document("\\cite{a} and \\cite{b}", "\\usepackage{amsmath,assets/main}"),
            "assets/main.sty": "\\NeedsTeXFormat{LaTeX2e}\n\\RequirePackage[style=vancouver]{biblatex}\n\\addbibresource{assets/ref.bib}\n",
            "assets/ref.bib": "@misc{a, title={A}}\n",
        },
        "CIT",
    )
    assert not serious(found, "CIT005")
    assert [f.message.split("`")[1] for f in serious(found, "CIT001")] == ["b"]


def test_bibliography_input_without_braces(tmp_path):
    found = rule_findings(
        tmp_path,
        {
            "main.tex": document("\\cite{a} and \\cite{b}\n\\input bib.tex% the list\n"),
            "bib.tex": "\\begin{thebibliography}{9}\n\\bibitem{a} A.\n\\end{thebibliography}\n",
        },
        "CIT",
    )
    assert not serious(found, "CIT005")
    assert [f.message.split("`")[1] for f in serious(found, "CIT001")] == ["b"]


def test_a_bibliography_named_after_the_job_is_the_roots_bib(tmp_path):
    for command in ("\\bibliography{\\jobname}", "\\addbibresource{\\jobname.bib}"):
        found = rule_findings(
            tmp_path / command[1:4],
            {"paper.tex": document(f"\\cite{{a}} and \\cite{{b}}\n{command}"), "paper.bib": "@misc{a, title={A}}\n"},
            "CIT",
            "INC",
        )
        assert [(f.code, f.message.split("`")[1]) for f in found if f.severity in SERIOUS] == [("CIT001", "b")]


def test_bibliography_named_inside_a_macro(tmp_path):
    found = rule_findings(
        tmp_path,
        {
            "main.tex": document(
                "\\cite{a} and \\cite{b}\n\\refs",
                "\\newcommand{\\refs}{\\bibliographystyle{plain}\\bibliography{refs}}\n\\newcommand{\\bib}[1]{\\bibliography{#1}}",
            ),
            "refs.bib": "@misc{a, title={A}}\n",
        },
        "CIT",
        "INC",
    )
    assert not serious(found, "CIT005") and not serious(found, "INC001")  # `#1` is no file name
    assert [f.message.split("`")[1] for f in serious(found, "CIT001")] == ["b"]
