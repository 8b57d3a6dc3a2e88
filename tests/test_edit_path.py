"""What an edit re-reads: the whole-project readings the index and the facets ask on every build answer
from what they read before for the texts and sections an edit did not touch (issue 34)."""

from __future__ import annotations

from helpers import document, write_project

from auditex.latex import one_tailed
from auditex.latex.chunk_parser import ChunkParser
from auditex.latex.option_labels import label_setting_commands
from auditex.latex.parsed_chunk import ParsedChunk
from auditex.latex.project import Project

DEFINITION = "\\newtcbinputlisting{\\mylisting}[5]{listing file={#4}, label={#5}}\n"


def test_label_setting_definitions_are_read_once_per_text():
    live: dict[object, object] = {}
    assert label_setting_commands([DEFINITION, "plain text"], {}, live) == (("mylisting", False, 5),)
    # The next build finds each text's definitions kept: a kept text is not searched again.
    kept = {**live, ("label-setting", DEFINITION): (("kept", True, 2),)}
    assert label_setting_commands([DEFINITION, "plain text"], kept, {}) == (("kept", True, 2),)
    assert label_setting_commands([DEFINITION]) == (("mylisting", False, 5),)  # without a cache, read as ever


def test_one_tailed_announcement_rereads_only_the_edited_files_sections(tmp_path, monkeypatch):
    write_project(
        tmp_path,
        {
            "main.tex": "\\documentclass{article}\n\\begin{document}\n\\section{A}\nWe test.\n\n\\input{b}\n\\end{document}\n",
            "b.tex": "\\section{B}\nWe use one-tailed tests.\n",
        },
    )
    project = Project(tmp_path, "main.tex")
    assert one_tailed.announces_one_tailed(project.manuscript)
    read: list[str] = []
    monkeypatch.setattr(one_tailed, "_announces", lambda text: read.append(text) or "one-tailed" in text)
    project.update("b.tex", "\\section{B}\nWe use one-tailed tests, edited.\n")
    assert one_tailed.announces_one_tailed(project.manuscript)
    assert read == ["We use one-tailed tests, edited."]  # section A, handed on unchanged, was not read again


class _RecordingParser(ChunkParser):
    """A parser that notes each file whose chunks it parses."""

    def __init__(self) -> None:
        super().__init__(workers=1)
        self.parsed: list[str] = []

    def parse(self, texts: dict[str, str], path: str) -> dict[str, ParsedChunk]:
        if texts:
            self.parsed.append(path)
        return super().parse(texts, path)


def test_a_shipped_package_is_parsed_once_per_text_not_on_every_edit(tmp_path):
    # The walk reads a shipped package's bibliography commands; every keystroke re-walks the include graph.
    package = "\\NeedsTeXFormat{LaTeX2e}\n\\RequirePackage{biblatex}\n\\addbibresource{assets/ref.bib}\n"
    main = document("\\cite{a}", "\\usepackage{assets/main}")
    write_project(
        tmp_path, {"main.tex": main, "assets/main.sty": package, "assets/ref.bib": "@misc{a, title={A}}\n", "assets/other.bib": ""}
    )
    parser = _RecordingParser()
    project = Project(tmp_path, "main.tex", parser=parser)
    assert project.bibliography_files == ["assets/ref.bib"]
    parser.parsed.clear()
    project.update("main.tex", main.replace("\\cite{a}", "\\cite{a} typed"))
    assert parser.parsed == ["main.tex"]
    project.update("assets/main.sty", package.replace("ref.bib", "other.bib"))
    assert parser.parsed[1:] == ["assets/main.sty"] and project.bibliography_files == ["assets/other.bib"]


def test_a_shipped_package_without_a_bibliography_command_is_not_parsed(tmp_path):
    package = "\\NeedsTeXFormat{LaTeX2e}\n\\newcommand{\\method}{Ours}\n"
    main = document("\\cite{a}", "\\usepackage{assets/main}")
    write_project(tmp_path, {"main.tex": main, "assets/main.sty": package, "assets/ref.bib": "@misc{a, title={A}}\n"})
    parser = _RecordingParser()
    project = Project(tmp_path, "main.tex", parser=parser)
    assert parser.parsed == ["main.tex"] and project.bibliography_files == []
    # Once it names a bibliography, it is read for it.
    project.update("assets/main.sty", package + "\\addbibresource{assets/ref.bib}\n")
    assert parser.parsed[1:] == ["assets/main.sty"] and project.bibliography_files == ["assets/ref.bib"]
