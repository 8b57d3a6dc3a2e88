"""The parser's walker reads the nodes pylatexenc's own walker reads, only faster."""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pylatexenc import latexwalker

from auditex.latex.macro_signatures import PARSE_CONTEXT
from auditex.latex.walker import RunWalker

FRAGMENTS = [
    "word",
    " ",
    " \t",
    "\n",
    "\n\n",
    "\n \n",
    "\u00a0",
    "{",
    "}",
    "[",
    "]",
    "$",
    "$$",
    "&",
    "%",
    "% note\n",
    "\\",
    "\\\\",
    "\\%",
    "\\{",
    "\\[",
    "\\]",
    "\\(",
    "\\)",
    "\\emph",
    "\\textbf",
    "\\cite",
    "\\ref",
    "\\frac",
    "\\section*",
    "\\item",
    "\\label",
    "\\x½",
    "\\é",
    "\\½",
    "\\begin{itemize}",
    "\\end{itemize}",
    "\\begin{tabular}{lc}",
    "\\end{tabular}",
    "\\begin",
    "\\end {x}",
    "\\verb|a{|",
    "^",
    "_",
    "12",
    "~",
    "``",
    "''",
    "--",
]


def _shape(value: Any) -> Any:
    """A node tree as plain values: every field but the parsing state, which each walker makes anew."""
    if isinstance(value, list | tuple):
        return [_shape(item) for item in value]
    if isinstance(value, latexwalker.LatexNode):
        return (type(value).__name__, *(_shape(getattr(value, name)) for name in value._fields))
    if hasattr(value, "argnlist"):
        return ("arguments", value.argspec, _shape(value.argnlist))
    if hasattr(value, "specials_chars"):
        return ("specials", value.specials_chars)
    return value


def _nodes(walker_class: type, text: str) -> Any:
    try:
        nodes, _, _ = walker_class(text, latex_context=PARSE_CONTEXT, tolerant_parsing=True).get_latex_nodes()
    except Exception as error:  # pylatexenc raises some errors even when tolerant; both walkers must raise the same
        return type(error).__name__
    return _shape(nodes)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join))
def test_the_walker_reads_the_nodes_pylatexenc_reads(text):
    # Before a lone backslash ending the text, pylatexenc drops the white space, and a run keeps it.
    assume((len(text) - len(text.rstrip("\\"))) % 2 == 0)
    assert _nodes(RunWalker, text) == _nodes(latexwalker.LatexWalker, text)


def test_the_walker_reads_a_paragraph_of_prose_as_one_text_node():
    text = "Our method, \\emph{which} is new,\nwins by 2.5\\% on $x^2$ & more.\n\n\\section{Next} A {b} c."
    assert _nodes(RunWalker, text) == _nodes(latexwalker.LatexWalker, text)
    assert _nodes(RunWalker, "plain words here")[0][:3] == ("LatexCharsNode", 0, 16)
