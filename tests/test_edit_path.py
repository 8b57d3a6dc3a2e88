"""What an edit re-reads: the whole-project readings the index and the facets ask on every build answer
from what they read before for the texts and sections an edit did not touch (issue 34)."""

from __future__ import annotations

from helpers import write_project

from auditex.latex import one_tailed
from auditex.latex.option_labels import label_setting_commands
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
