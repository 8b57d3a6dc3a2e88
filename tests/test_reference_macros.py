"""A sentence citing a table through the author's own macro cites it as `\\ref` would."""

from __future__ import annotations

import pytest

from auditex.analyzers.quantities import referenced_labels
from auditex.latex.manuscript import build_manuscript
from auditex.latex.project import Project

_PREAMBLE = (
    "\\documentclass{article}\n"
    "\\newcommand{\\tableref}[1]{Table~\\ref{tab:#1}}\n"
    "\\newcommand{\\mytab}[1]{\\hyperref[#1]{\\bfseries Table~\\ref*{#1}}}\n"
    "\\def\\tabref#1{Tab.~\\ref{#1}}\n"
    "\\newcommand{\\secref}[1]{Section~\\ref{sec:#1}}\n"
    "\\newcommand{\\pref}[1]{\\textbf{#1}}\n"
)


def _project(tmp_path, body: str, preamble: str = _PREAMBLE) -> Project:
    (tmp_path / "main.tex").write_text(
        f"{preamble}\\begin{{document}}\n\\section{{Results}}\n{body}\n\\end{{document}}\n", encoding="utf-8"
    )
    return Project(tmp_path, "main.tex")


def _cited(project: Project) -> frozenset[str]:
    (paragraph,) = [placed.block.plain.text for placed in project.manuscript.blocks if "scores" in placed.block.plain.text]
    return referenced_labels(paragraph)


@pytest.mark.parametrize(
    ("body", "labels"),
    [
        ("As \\tableref{res} shows, it scores 85.3\\%.", {"tab:res"}),
        ("As \\tableref {res} shows, it scores 85.3\\%.", {"tab:res"}),
        ("\\mytab{tab:res} scores 85.3\\%.", {"tab:res"}),
        ("\\tabref{tab:res} scores 85.3\\%.", {"tab:res"}),
        ("As \\hyperref[tab:res]{the results} show, it scores 85.3\\%.", {"tab:res"}),
        ("\\Cref{tab:a,tab:b} and \\vref{tab:c} show its scores.", {"tab:a", "tab:b", "tab:c"}),
        ("\\ref*{tab:res} scores 85.3\\%.", {"tab:res"}),
        # A class file's macro the project never defines, whose argument reads as a label.
        ("\\figureref{fig:curve} scores 85.3\\%.", {"fig:curve"}),
        ("\\secref{setup} scores 85.3\\%.", {"sec:setup"}),
    ],
)
def test_a_reference_macro_cites_its_label(tmp_path, body, labels):
    assert _cited(_project(tmp_path, body)) == labels


@pytest.mark.parametrize(
    "body",
    [
        "Our \\pref{tab:res} scores 85.3\\%.",  # a defined macro that does not refer
        "The \\myref{res} scores 85.3\\%.",  # undefined, and its argument is no label
        "The \\preflink{http://x.org} scores 85.3\\%.",  # a URL, not a label
    ],
)
def test_a_macro_that_cites_nothing_stays_silent(tmp_path, body):
    assert _cited(_project(tmp_path, body)) == frozenset()


def test_the_cited_label_maps_to_the_whole_use(tmp_path):
    project = _project(tmp_path, "As \\tableref{res} shows, it scores 85.3\\%.")
    (placed,) = [placed for placed in project.manuscript.blocks if "scores" in placed.block.plain.text]
    plain, text = placed.block.plain, project.documents["main.tex"].text
    for shown, source in (("\\ref{tab:res}", "\\tableref{res}"), ("85.3", "85.3"), ("shows", "shows")):
        start = plain.text.index(shown)
        assert text[slice(*plain.source_span(start, start + len(shown)))] == source


def test_a_changed_definition_reaches_the_blocks_using_it(tmp_path):
    """An edit of the preamble's wrapper re-reads every block citing through it, as a fresh walk does."""
    project = _project(tmp_path, "As \\tableref{res} shows, it scores 85.3\\%.")
    assert _cited(project) == {"tab:res"}
    text = project.documents["main.tex"].text
    for old, new in (("{tab:#1}", "{table:#1}"), ("shows,", "shows here,"), ("\\newcommand{\\tableref}", "\\newcommand{\\tablerefx}")):
        text = text.replace(old, new)
        project.update("main.tex", text)
        fresh = build_manuscript(project)
        assert [p.block.plain.text for p in project.manuscript.blocks] == [p.block.plain.text for p in fresh.blocks]
    assert _cited(project) == frozenset()  # \tableref{res} is now undefined, and `res` reads as no label
