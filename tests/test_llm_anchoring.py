"""Anchoring quotes to source ranges: exact, normalised, fuzzy, section level, absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditex.analyzers.llm.anchoring import Anchorer, normalise, strip_markup
from auditex.analyzers.projects import open_projects

MAIN = r"""\documentclass{article}
\begin{document}
\section{Results}
Our model reaches \textbf{85.1\%} accuracy on ImageNet, as shown in Table~\ref{tab:main}, while   the
baseline   reaches 84.9\%.
The method of \citet{smith2020} needs ``careful tuning'' of $\alpha$ and the learning rate.
\section{Discussion}
We believe the gains come from the deeper encoder and the longer training schedule.
\end{document}
"""


@pytest.fixture(scope="module")
def anchorer(tmp_path_factory) -> Anchorer:
    folder = tmp_path_factory.mktemp("paper")
    (folder / "main.tex").write_text(MAIN, encoding="utf-8")
    return Anchorer(open_projects(Path(folder))[1][0])


def source_of(anchorer: Anchorer, anchor) -> str:
    return anchorer.project.documents[anchor.file].text[anchor.start : anchor.end]


def test_exact_quote_of_the_plain_text(anchorer):
    anchor = anchorer.anchor("the deeper encoder and the longer training schedule")
    assert anchor.method == "exact" and anchor.verbatim
    assert source_of(anchorer, anchor) == "the deeper encoder and the longer training schedule"


def test_quote_of_the_latex_source(anchorer):
    anchor = anchorer.anchor(r"reaches \textbf{85.1\%} accuracy")
    assert anchor.method == "source" and anchor.verbatim
    assert source_of(anchorer, anchor) == r"reaches \textbf{85.1\%} accuracy"


def test_whitespace_and_line_breaks_are_normalised(anchorer):
    anchor = anchorer.anchor("while  the\n baseline reaches 84.9%")
    assert anchor.method == "normalised"
    assert source_of(anchorer, anchor).split() == ["while", "the", "baseline", "reaches", r"84.9\%"]


def test_markup_in_the_quote_is_stripped(anchorer):
    anchor = anchorer.anchor(r"reaches \textbf{85.1%} accuracy on ImageNet")
    assert anchor.method == "normalised"
    assert source_of(anchorer, anchor) == r"reaches \textbf{85.1\%} accuracy on ImageNet"


def test_small_paraphrase_is_aligned_fuzzily(anchorer):
    anchor = anchorer.anchor("We believe that the gains come from a deeper encoder and the longer training schedule")
    assert anchor.method == "fuzzy"
    assert "deeper encoder and the longer training schedule" in source_of(anchorer, anchor)


def test_block_hint_picks_the_right_occurrence(anchorer):
    blocks = [p for p in anchorer.project.manuscript.blocks if "gains" in p.block.plain.text]
    anchor = anchorer.anchor("the", block_hint=blocks[0].index)
    assert anchor.block.index == blocks[0].index


def test_block_range_anchors_whole_blocks(anchorer):
    first = anchorer.project.manuscript.blocks[0]
    anchor = anchorer.anchor(f"block {first.index}")
    assert anchor.method == "block" and (anchor.start, anchor.end) == (first.block.start, first.block.end)


def test_quote_absent_from_the_paper(anchorer):
    assert anchorer.anchor("Participants were recruited from 14 hospitals in rural Norway") is False
    assert anchorer.stats.absent >= 1


def test_loosely_related_quote_is_not_pinned(anchorer):
    assert anchorer.anchor("the deeper model reaches higher accuracy on ImageNet with tuning") is None


def test_normalise_maps_back_to_the_original():
    text = "A  “quoted”\n  word—here"
    folded, where = normalise(text)
    assert folded == 'a "quoted" word-here'
    assert [text[i] for i in where][:3] == ["A", " ", "“"]


def test_strip_markup():
    assert strip_markup(r"\textbf{85.1\%} in Table~\ref{tab:x} by \citet{a}") == "85.1% in Table~ by "
