"""Source-level localisation: our own, stricter criterion than the papers' text matching.

A finding localises an injected error when its range in the .tex source overlaps
the range the injection edited. Ranges are half-open [start, end) in 0-based
(line, character) positions of one file. An empty edited range (a pure deletion
leaves nothing behind) is hit by any finding range that touches its position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from auditex.analyzers.finding import Finding


@dataclass(frozen=True, order=True)
class SourcePosition:
    line: int
    character: int


@dataclass(frozen=True)
class SourceRange:
    file: str
    start: SourcePosition
    end: SourcePosition

    @classmethod
    def of(cls, file: str, start_line: int, start_char: int, end_line: int, end_char: int) -> SourceRange:
        start, end = SourcePosition(start_line, start_char), SourcePosition(end_line, end_char)
        if end < start:
            raise ValueError(f"{file}: range ends ({end_line}:{end_char}) before it starts ({start_line}:{start_char})")
        return cls(file, start, end)

    @classmethod
    def from_finding(cls, finding: Finding) -> SourceRange:
        r = finding.range
        return cls.of(finding.file, r.start.line, r.start.character, r.end.line, r.end.character)

    @property
    def empty(self) -> bool:
        return self.start == self.end


def _same_file(a: str, b: str) -> bool:
    return PurePosixPath(a.replace("\\", "/")) == PurePosixPath(b.replace("\\", "/"))


def overlaps(a: SourceRange, b: SourceRange) -> bool:
    """Whether the two ranges share a character (or, for an empty range, a position)."""
    if not _same_file(a.file, b.file):
        return False
    if a.empty or b.empty:
        return a.start <= b.end and b.start <= a.end
    return a.start < b.end and b.start < a.end


@dataclass(frozen=True)
class LocalisationResult:
    located: int
    total: int

    @property
    def recall(self) -> float:
        return self.located / self.total if self.total else 0.0

    def __add__(self, other: LocalisationResult) -> LocalisationResult:
        return LocalisationResult(self.located + other.located, self.total + other.total)


def localisation_recall(edits: Sequence[SourceRange], findings: Sequence[SourceRange]) -> LocalisationResult:
    """How many edited ranges at least one finding overlaps; sum results to pool papers."""
    located = sum(any(overlaps(edit, finding) for finding in findings) for edit in edits)
    return LocalisationResult(located=located, total=len(edits))
