"""Split a file into independently parseable chunks.

pylatexenc parses about 200 KB/s, too slow to re-parse a 190 KB chapter on
every keystroke. A chunk ends at a blank line (or before a sectioning
command) that is outside every group and environment, so a chunk parses the
same alone as in context. Chunks are cached by content hash: an edit
re-parses only the chunk it touches, and `resplit_chunks` re-scans only the
chunks around the edit.
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple

from .deferred_pattern import DeferredPattern

# Environments whose body is not LaTeX; braces inside them do not count.
VERBATIM_ENVIRONMENTS = frozenset({"verbatim", "verbatim*", "lstlisting", "minted", "comment", "Verbatim", "alltt"})
# Chunks never grow past this while they are balanced; an unbalanced file
# degrades to larger chunks, which is still correct, only slower. Small: an
# edit re-parses its chunk (on hott_book/basics.tex 2000 made that ~3.5 KB,
# 250 makes it ~0.4 KB) and a cold parse is no slower; below this, long
# environments bound the chunks anyway and more chunks only cost moving them.
TARGET_CHUNK_CHARS = 250

# No token reaches over a cut except through white space (a `\begin{` whose name runs
# into the text after a cut would have left its brace open, so there would be no cut):
# what decides a cut lies before it, in the white space after it, and in the few
# characters after that (_LOOKAHEAD). An environment's name is bounded for that reason:
# `\end \n\n{…}` becomes one token when an edit far down closes its brace.
_TOKEN = DeferredPattern(
    r"\\begin\s*\{([^{}]{0,48})\}|\\end\s*\{([^{}]{0,48})\}|\\verb\*?([^a-zA-Z\s]).*?\3|\\[{}%]|\\[A-Za-z@]+|\\.|[{}]|%[^\n]*|\n[ \t]*(?=\n|\\(?:part|chapter|section|subsection|subsubsection|paragraph)\b)",
)
_WHITE_SPACE = DeferredPattern(r"\s*")
# What a token reads past white space: `\subsubsection` and the character deciding its word
# boundary (15), or `{lstlisting}` after `\end` (12); after a `\begin` or `\end` left before the
# cut, its `{name}` (50 at most).
_LOOKAHEAD = 16
_NAME_LOOKAHEAD = 50


class Chunk(NamedTuple):
    start: int
    text: str


def split_chunks(text: str) -> list[Chunk]:
    return _scan(text, 0, {})[0]


class Resplit(NamedTuple):
    """The chunks of an edited text: `old[:kept] + scanned + old[resumed:]` moved by `delta`."""

    old: list[Chunk]
    kept: int
    scanned: list[Chunk]
    resumed: int
    delta: int

    @property
    def chunks(self) -> list[Chunk]:
        moved = [Chunk(chunk.start + self.delta, chunk.text) for chunk in self.old[self.resumed :]]
        return self.old[: self.kept] + self.scanned + moved


def resplit_chunks(old_text: str, old_chunks: list[Chunk], text: str) -> Resplit:
    """`split_chunks(text)` given the chunks of `old_text`, re-scanning only around the edit.

    A boundary is a point where the scanner state is clean, so the scan can
    start at any old boundary the edit cannot influence, and can stop at the
    first new boundary, past the edit, where an old one was: from there on
    the text and thus the chunks are the old ones, moved by the length change.
    """
    delta = len(text) - len(old_text)
    prefix = _common_prefix(old_chunks, text)
    suffix = min(_common_suffix(old_chunks, text, delta), min(len(old_text), len(text)) - prefix)
    # The last old boundary whose cut depends on unchanged text only (see _TOKEN).
    kept = bisect.bisect_right(old_chunks, prefix - _LOOKAHEAD, key=lambda chunk: chunk.start) - 1
    while kept > 0 and _reach(old_text, old_chunks[kept].start) > prefix:
        kept -= 1
    kept = max(kept, 0)
    first_unchanged = bisect.bisect_left(old_chunks, len(old_text) - suffix, key=lambda chunk: chunk.start)
    resume_at = {old_chunks[index].start + delta: index for index in range(first_unchanged, len(old_chunks))}
    scanned, resumed = _scan(text, old_chunks[kept].start if old_chunks else 0, resume_at)
    return Resplit(old_chunks, kept, scanned, len(old_chunks) if resumed is None else resumed, delta)


def _reach(text: str, cut: int) -> int:
    """How far past a cut the text decides it (see _TOKEN)."""
    after_white_space = _white_space_end(text, cut - 1)
    before_white_space = cut
    while before_white_space > 0 and text[before_white_space - 1].isspace():
        before_white_space -= 1
    dangling = text.endswith(("\\begin", "\\end"), 0, before_white_space)
    return after_white_space + (_NAME_LOOKAHEAD if dangling else _LOOKAHEAD)


def _scan(text: str, start: int, resume_at: dict[int, int]) -> tuple[list[Chunk], int | None]:
    """Chunks from `start`, a boundary, until a cut at a key of `resume_at` (then also its value)."""
    chunks: list[Chunk] = []
    chunk_start = start
    brace_depth = 0
    environments: list[str] = []
    verbatim_end: re.Pattern[str] | None = None
    position = start
    length = len(text)
    while position < length:
        if verbatim_end is not None:
            found = verbatim_end.search(text, position)
            if found is None:
                break
            position = found.end()
            verbatim_end = None
            continue
        match = _TOKEN.search(text, position)
        if match is None:
            break
        position = match.end()
        token = match.group(0)
        if match.group(1) is not None:
            name = match.group(1).strip()
            if name in VERBATIM_ENVIRONMENTS:
                verbatim_end = _verbatim_end(name)
            elif name != "document":
                environments.append(name)
        elif match.group(2) is not None:
            name = match.group(2).strip()
            if name in environments:
                # Close up to the matching begin; tolerate mismatched nesting.
                while environments and environments.pop() != name:
                    pass
        elif token == "{":
            brace_depth += 1
        elif token == "}":
            brace_depth = max(0, brace_depth - 1)
        elif token.startswith("\n") and brace_depth == 0 and not environments:
            boundary = match.start() + 1
            before_heading = text.startswith("\\", match.end())
            if (before_heading or boundary - chunk_start >= TARGET_CHUNK_CHARS) and boundary > chunk_start:
                chunks.append(Chunk(chunk_start, text[chunk_start:boundary]))
                chunk_start = boundary
                if boundary in resume_at:
                    return chunks, resume_at[boundary]
    if chunk_start < length or not chunks:
        chunks.append(Chunk(chunk_start, text[chunk_start:]))
    return chunks, None


def _white_space_end(text: str, position: int) -> int:
    """Where the white space from `position` ends (_WHITE_SPACE matches everywhere)."""
    match = _WHITE_SPACE.match(text, position)
    assert match is not None
    return match.end()


def brace_slips(text: str) -> list[tuple[int, str]]:
    """Where the braces of `text` do not pair up: the first `}` that closes no group, and the outermost
    `{` never closed (comments, `\\{`, `\\verb`, verbatim and `\\iffalse` blocks skipped: TeX does not
    count braces there). Each as (offset, what the author is told); empty when all pair."""
    opened: list[int] = []
    slips: list[tuple[int, str]] = []
    position = 0
    skipping = 0  # depth of \iffalse … \fi
    while (match := _TOKEN.search(text, position)) is not None:
        position = match.end()
        token, name = match.group(0), match.group(1)
        if skipping or token == "\\iffalse":
            skipping += 1 if token.startswith("\\if") else -1 if token == "\\fi" else 0
            continue
        if name is not None and name.strip() in VERBATIM_ENVIRONMENTS:
            end = _verbatim_end(name.strip()).search(text, position)
            if end is None:
                break
            position = end.end()
        elif token == "{":
            opened.append(match.start())
        elif token == "}" and opened:
            opened.pop()
        elif token == "}" and not slips:
            slips.append((match.start(), _EXTRA_CLOSE))
    if opened:
        slips.append((opened[0], _NEVER_CLOSED))
    return slips


# TeX itself stops at both: "\end occurred inside a group"; "Too many }'s", or in a formula "Extra }, or forgotten $".
_NEVER_CLOSED = "this `{` is never closed, so everything after it is read as one group"
_EXTRA_CLOSE = "this `}` closes no group, so TeX stops here and what surrounds it prints otherwise than written"


def _verbatim_end(name: str) -> re.Pattern[str]:
    return re.compile(r"\\end\s*\{" + re.escape(name) + r"\}")


def _common_prefix(old_chunks: list[Chunk], text: str) -> int:
    """Length of the text the old chunks and `text` start with; whole chunks compare without copies."""
    for chunk in old_chunks:
        if not text.startswith(chunk.text, chunk.start):
            return chunk.start + _common_prefix_length(chunk.text, text[chunk.start : chunk.start + len(chunk.text)])
    return sum(len(chunk.text) for chunk in old_chunks)


def _common_suffix(old_chunks: list[Chunk], text: str, delta: int) -> int:
    """Length of the text the old chunks and `text` end with."""
    end = len(text)
    for chunk in reversed(old_chunks):
        start = chunk.start + delta
        if start < 0 or not text.startswith(chunk.text, start):
            same = text[max(start, 0) : end]
            return len(text) - end + _common_prefix_length(chunk.text[::-1], same[::-1])
        end = start
    return len(text) - end


def _common_prefix_length(a: str, b: str) -> int:
    """By halving: slice comparisons are memcmp."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low
