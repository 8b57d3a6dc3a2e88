"""Split a file into independently parseable chunks.

pylatexenc parses about 200 KB/s, too slow to re-parse a 190 KB chapter on
every keystroke. A chunk ends at a blank line (or before a sectioning
command) that is outside every group and environment, so a chunk parses the
same alone as in context. Chunks are cached by content hash: an edit
re-parses only the chunk it touches.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# Environments whose body is not LaTeX; braces inside them do not count.
VERBATIM_ENVIRONMENTS = frozenset({"verbatim", "verbatim*", "lstlisting", "minted", "comment", "Verbatim", "alltt"})
# Chunks never grow past this while they are balanced; an unbalanced file
# degrades to larger chunks, which is still correct, only slower.
TARGET_CHUNK_CHARS = 2000

_TOKEN = re.compile(
    r"\\begin\s*\{([^{}]*)\}|\\end\s*\{([^{}]*)\}|\\verb\*?([^a-zA-Z\s]).*?\3|\\[{}%]|\\[A-Za-z@]+|\\.|[{}]|%[^\n]*|\n[ \t]*(?=\n|\\(?:part|chapter|section|subsection|subsubsection|paragraph)\b)",
)


class Chunk(NamedTuple):
    start: int
    text: str


def split_chunks(text: str) -> list[Chunk]:
    chunks: list[Chunk] = []
    chunk_start = 0
    brace_depth = 0
    environments: list[str] = []
    verbatim_end: re.Pattern[str] | None = None
    position = 0
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
                verbatim_end = re.compile(r"\\end\s*\{" + re.escape(name) + r"\}")
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
            if before_heading or boundary - chunk_start >= TARGET_CHUNK_CHARS:
                if boundary > chunk_start:
                    chunks.append(Chunk(chunk_start, text[chunk_start:boundary]))
                    chunk_start = boundary
    if chunk_start < length or not chunks:
        chunks.append(Chunk(chunk_start, text[chunk_start:]))
    return chunks
