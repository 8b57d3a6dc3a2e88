"""The label-setting definitions and the comment pattern that the keystroke path runs over whole files."""

from __future__ import annotations

from auditex.latex.option_labels import defined_in
from auditex.latex.source import COMMENT


def test_a_label_option_counts_only_as_a_whole_key():
    assert defined_in("\\newcommand{\\shown}[2]{\\begin{tcolorbox}[label=#2]#1\\end{tcolorbox}}") == (("shown", False, 2),)
    assert defined_in("\\newcommand{\\plot}[2]{\\begin{axis}[xlabel=#2, @label=#1]\\end{axis}}") == ()


def test_a_comment_starts_at_an_unescaped_percent():
    text = "50\\% of runs % the rest\n%whole line\nno comment"
    found = [(match.start(), match.group(1)) for match in COMMENT.finditer(text)]
    assert found == [(text.index("% the"), " the rest"), (text.index("%whole"), "whole line")]
