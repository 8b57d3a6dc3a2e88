"""Source text with offset ↔ LSP position conversion.

Offsets are Python string indices (code points). LSP positions are 0-based
lines and UTF-16 code units, which differ from code points for characters
outside the BMP (emoji, some math alphanumerics).
"""

from __future__ import annotations

import bisect
import hashlib
from functools import cached_property, lru_cache

from .deferred_pattern import DeferredPattern

# The files a project reads as text: LaTeX sources, and bibliographies (BibTeX, or a .bbl's \bibitems).
TEX_SUFFIXES = (".tex", ".ltx")
BIBLIOGRAPHY_SUFFIXES = (".bib", ".bbl")
SOURCE_SUFFIXES = TEX_SUFFIXES + BIBLIOGRAPHY_SUFFIXES

# An unescaped `%` and the rest of its line (group 1: what it comments). The look-behind stands after
# the `%`, so a search jumps from `%` to `%`: written before it, it is tried at every offset, 15 times
# slower over a file (each keystroke masks the edited file's comments).
COMMENT = DeferredPattern(r"%(?<!\\%)([^\n]*)")


@lru_cache(maxsize=256)  # kept by a file's text: whole files are asked on every edit, and only the edited one changed
def uncommented(text: str) -> str:
    """`text` without its comments."""
    return COMMENT.sub("", text)


def content_hash(text: str) -> str:
    """The one content digest of auditex: what caches are keyed by."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def value_hash(value: object) -> str:
    """The content digest of a value made of strings, numbers, tuples and lists (through its repr)."""
    return content_hash(repr(value))


class SourceText:
    """A file's text plus the line table needed to convert offsets."""

    __slots__ = ("__dict__", "text")

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def hash(self) -> str:
        return content_hash(self.text)

    @cached_property
    def line_starts(self) -> list[int]:
        starts = [0]
        find = self.text.find
        pos = find("\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        return starts

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset) - 1

    def position(self, offset: int) -> tuple[int, int]:
        """(line, UTF-16 character) of a code-point offset."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self.line_starts[line]
        if self._ascii_line(line):
            return line, offset - start  # no copy of the line: a file of one long line has many positions
        segment = self.text[start:offset]
        return line, len(segment.encode("utf-16-le", "surrogatepass")) // 2

    @cached_property
    def _ascii_lines(self) -> dict[int, bool]:
        return {}

    def _ascii_line(self, line: int) -> bool:
        """Whether a line is ASCII (a UTF-16 character is then a code point), read once per line."""
        known = self._ascii_lines.get(line)
        if known is None:
            end = self.line_starts[line + 1] if line + 1 < len(self.line_starts) else len(self.text)
            known = self._ascii_lines[line] = self.text[self.line_starts[line] : end].isascii()
        return known

    def offset(self, line: int, character: int) -> int:
        """Code-point offset of an LSP (line, UTF-16 character) position, clamped."""
        if line < 0:
            return 0
        if line >= len(self.line_starts):
            return len(self.text)
        start = self.line_starts[line]
        end = self.line_starts[line + 1] - 1 if line + 1 < len(self.line_starts) else len(self.text)
        units = 0
        for index in range(start, end):
            if units >= character:
                return index
            units += 2 if ord(self.text[index]) > 0xFFFF else 1
        return end

    def line_text(self, line: int) -> str:
        start = self.line_starts[line]
        end = self.line_starts[line + 1] if line + 1 < len(self.line_starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")
