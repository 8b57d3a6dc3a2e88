"""Re-parsing after an edit gives exactly what a parse from scratch gives."""

from __future__ import annotations

import random
from contextlib import contextmanager

import pytest
from helpers import document
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auditex.latex import chunks
from auditex.latex.chunks import Chunk, resplit_chunks, split_chunks
from auditex.latex.document import parse_document

FRAGMENTS = [
    "word ",
    "text.",
    "\n",
    "\n\n",
    "\n  \n",
    " \t",
    "{",
    "}",
    "\\{",
    "\\}",
    "\\begin{proof}",
    "\\end{proof}",
    "\\begin{itemize}",
    "\\end{itemize}",
    "\\begin{verbatim}",
    "\\end{verbatim}",
    "\\begin {lstlisting}",
    "\\end{lstlisting}",
    "\\begin{document}",
    "\\end{document}",
    "\\section{A}",
    "\\subsubsection*{B}",
    "\\paragraph{C}",
    "\\sectionx",
    "\\part",
    "%",
    "% c {\n",
    "\\%",
    "\\verb|{|",
    "\\verb+}+",
    "\\\\",
    "\\",
    "\\begin{",
    "\\end{",
    "x}",
    "é",
    "$",
    "\\begin\n{proof}",
    "\\end \n\n {proof}",
    # Pieces that make a cut depend on text just after it: a heading split by an edit, `\end` + `{lstlisting}`.
    "\\subsubsection",
    "\\subsubsectio",
    "\\end",
    "{lstlisting}",
    "   ",
]
INSERTS = st.one_of(st.sampled_from(FRAGMENTS), st.text(alphabet="{}\\\n %ab\t", max_size=6))
# (where, how many characters to remove, what to insert): insertions, deletions and replacements.
EDITS = st.tuples(st.integers(min_value=0), st.integers(min_value=0, max_value=12), INSERTS)


@contextmanager
def target_chunk_chars(value: int):
    saved = chunks.TARGET_CHUNK_CHARS
    chunks.TARGET_CHUNK_CHARS = value
    try:
        yield
    finally:
        chunks.TARGET_CHUNK_CHARS = saved


def apply(text: str, edit: tuple[int, int, str]) -> str:
    where, removed, inserted = edit
    where %= len(text) + 1
    return text[:where] + inserted + text[where + removed :]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(FRAGMENTS), max_size=80),
    st.lists(EDITS, min_size=1, max_size=6),
    st.sampled_from([0, 15, 60, 2000]),
)
def test_resplit_after_edits_equals_split_from_scratch(pieces, edits, target):
    text = "".join(pieces)
    with target_chunk_chars(target):
        current = split_chunks(text)
        for edit in edits:
            edited = apply(text, edit)
            current = resplit_chunks(text, current, edited).chunks
            assert current == split_chunks(edited)
            text = edited


@pytest.mark.parametrize(
    "text",
    [
        "Text.\n\n\\subsubsection{A}\n\nMore text here.\n",
        "A.\n \t\n  \\paragraph{B} c\n\n\\begin{proof}x\\end  \n {proof}\n\nD.\n\n\\begin{lstlisting}{\\end\n{lstlisting}\n\nE.",
        "A.\n" + " " * 20 + "\n\nB.\n\nx \\begin\n\n" + " " * 30 + "Q{proof} y\\end{proof}\n\nC.",
    ],
)
def test_every_edit_near_a_cut_resplits_exactly(text):
    # Whether a cut happens reads the characters after it: a heading name, a `\begin` over white space.
    with target_chunk_chars(0):
        old = split_chunks(text)
        for where in range(len(text) + 1):
            for removed, inserted in [(0, "x"), (1, ""), (1, "x"), (0, "\n"), (0, "{"), (0, "}"), (0, " ")]:
                edited = text[:where] + inserted + text[where + removed :]
                assert resplit_chunks(text, old, edited).chunks == split_chunks(edited), (where, inserted)


def test_an_edit_far_away_can_change_chunking_everywhere_after_it():
    text = "".join(f"Paragraph {index} text.\n\n" for index in range(40))
    with target_chunk_chars(0):
        old = split_chunks(text)
        opened = "{" + text
        resplit = resplit_chunks(text, old, opened)
        assert resplit.chunks == split_chunks(opened) == [chunks.Chunk(0, opened)]
        closed = opened + "}\n\nTail.\n"
        assert resplit_chunks(opened, resplit.chunks, closed).chunks == split_chunks(closed)


def test_an_edit_that_closes_an_environment_name_across_a_blank_line_rescans_it():
    """`\\end` before a blank line and a `{` after it: a `}` typed far down makes them one token."""
    text = "\\end \n\n {word éword \\endword itemize{proof}"
    with target_chunk_chars(0):
        old = split_chunks(text)
        edited = text.replace("itemize{", "itemize}")
        assert resplit_chunks(text, old, edited).chunks == split_chunks(edited) == [Chunk(0, edited)]


def test_a_one_character_edit_rescans_one_chunk_and_moves_the_rest():
    text = "".join(f"Paragraph {index} has a few words in it.\n\n" for index in range(40))
    with target_chunk_chars(0):
        old = split_chunks(text)
        middle = old[20].start + 20
        resplit = resplit_chunks(text, old, text[:middle] + "x" + text[middle:])
    assert (resplit.kept, len(resplit.scanned), resplit.resumed, resplit.delta) == (20, 1, 21, 1)


def test_random_single_character_edits_of_corpus_files(corpus_dir):
    files = [corpus_dir / "hott_book" / "basics.tex", corpus_dir / "hott_book" / "preliminaries.tex"]
    files += sorted(corpus_dir.glob("*/main.tex"))[:2]
    rng = random.Random(7)
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        current = split_chunks(text)
        for _ in range(300 // len(files)):
            where = rng.randrange(len(text) + 1)
            removed = rng.choice([0, 1])
            edited = text[:where] + rng.choice(["", "a", "{", "}", "\n", "\\", "%", " "]) + text[where + removed :]
            current = resplit_chunks(text, current, edited).chunks
            assert current == split_chunks(edited), (path.name, where)
            text = edited


BODY = r"""\section{Introduction}\label{sec:intro}
We study Large Language Models (LLMs) as in \cite{smith2020,doe2021} and Section~\ref{sec:method}.
\newcommand{\ours}{OurMethod}
\newacronym{gpu}{GPU}{graphics processing unit}

Second paragraph with a footnote\footnote{A note citing \cite{note}.} and {\color{white} hidden words}.

\begin{theorem}\label{thm:main}
Every type is a set.
\end{theorem}

\begin{table}[t]
\centering
\caption{Results.}\label{tab:results}
\begin{tabular}{lc}
\toprule
Model & Accuracy \\
\midrule
Ours & 93.4 \\
Base & 88.1 \\
\bottomrule
\end{tabular}
\end{table}

\begin{equation}
E = mc^2 \label{eq:energy}
\end{equation}

\subsection{Method}\label{sec:method}
Text with \textcolor{white}{invisible} styling and \verb|{| in it.

\begin{verbatim}
{ unbalanced \begin{proof}
\end{verbatim}

\appendix
\section{Extra}
More text.
""" + "".join(f"\nFiller paragraph {index} refers to Table~\\ref{{tab:results}}.\n" for index in range(30))

EDITS_OF_A_SESSION = [
    ("Second paragraph", "Second  paragraph"),  # a character in prose
    ("More text.", "More text.\n\n"),  # a blank line added
    ("Every type is a set.", "Every type is a set.\n\nAnd more."),  # a blank line inside an environment
    ("Filler paragraph 3 ", "Filler paragraph 3 {"),  # an opened brace swallows the chunks after it
    ("Filler paragraph 9 ", "Filler paragraph 9 }"),  # and a closed one releases them
    ("\\begin{theorem}", "\\begin{theorem"),  # a broken \begin
    ("\\begin{theorem", "\\begin{theorem}"),
    ("\\subsection{Method}", "\\subsection{Methods}"),  # a heading
    ("\nMore text.", "\n\\section{New}\nMore text."),  # a heading added
    ("\\begin{equation}", "\\begin{proof}\n\n\\begin{equation}"),  # an environment opened far above its end
    ("Filler paragraph 29", "\\end{proof}\nFiller paragraph 29"),
    ("\\newcommand{\\ours}{OurMethod}\n", ""),  # a macro removed
    ("\\begin{verbatim}", "\\begin{verbatim}\n\n}"),  # inside verbatim
    ("Ours & 93.4", "Ours & 94.4"),  # a table cell
    ("\\cite{note}", "\\cite{note,more}"),
    ("\\end{verbatim}\n", ""),  # verbatim left open to the end
]


@pytest.mark.parametrize("target", [40, chunks.TARGET_CHUNK_CHARS])
def test_parse_after_each_edit_equals_parse_from_scratch(target):
    text = document(BODY + "\\begin{quote}" * 61 + "deep" + "\\end{quote}" * 61 + "\n\nEnd.\n")
    with target_chunk_chars(target):
        current = parse_document("main.tex", text)
        assert current.parsed.problems and current.parsed.styled and current.parsed.acronyms
        for old, new in EDITS_OF_A_SESSION:
            assert old in text
            text = text.replace(old, new, 1)
            current = parse_document("main.tex", text, current)
            scratch = parse_document("main.tex", text)
            assert current.parsed == scratch.parsed, (old, new)
            assert current.chunks == scratch.chunks
            assert current.chunk_cache.keys() == scratch.chunk_cache.keys()
            assert (current.text, current.hash) == (scratch.text, scratch.hash)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(EDITS, min_size=1, max_size=4))
def test_parse_after_random_edits_equals_parse_from_scratch(edits):
    text = document(BODY)
    with target_chunk_chars(60):
        current = parse_document("main.tex", text)
        for edit in edits:
            text = apply(text, edit)
            current = parse_document("main.tex", text, current)
            assert current.parsed == parse_document("main.tex", text).parsed


def test_moved_parses_keep_absolute_offsets():
    text = document(BODY)
    where = text.index("Filler paragraph 0")
    edited = text[:where] + "Inserted sentence.\n\n" + text[where:]
    current = parse_document("main.tex", edited, parse_document("main.tex", text))
    block = next(block for block in current.parsed.blocks if block.plain.text.startswith("Filler paragraph 7"))
    start, end = block.plain.source_span(0, len("Filler paragraph 7"))
    assert edited[start:end] == "Filler paragraph 7"
    ref = next(ref for ref in current.parsed.refs if ref.start > block.start)
    assert edited[ref.start : ref.end] == "tab:results"
