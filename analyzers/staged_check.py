"""A check in two stages, for the editor: the quick markup rules first, every rule after.

An undefined `\\ref` costs REF001 a fraction of a millisecond, but a full check of an edit
runs every rule (the number, table and draft rules most of its time). The first stage runs
the quick rules alone and shows their fresh findings beside the other rules' findings of the
last check, each moved through the edits since (the text before an edit stays where it was,
the text after it moves by what was typed), so no finding blinks out while the rest runs.
The second stage is the full check, whose findings are those of a cold check.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..latex.project import Project
from ..latex.source import SourceText
from .finding import Finding, Range

# Rule families whose findings an author wants as they type and that cost little on an edit:
# references, citations, includes, and the hidden instructions and unsafe members that head every report.
QUICK_PREFIXES = ("REF", "CIT", "INC", "SEC", "SUB")


def is_quick(code: str) -> bool:
    return code.startswith(QUICK_PREFIXES)


def texts_of(project: Project) -> dict[str, SourceText]:
    """The project's texts, as a check's findings place themselves in them."""
    texts = {file: document.source for file, document in project.documents.items()}
    return texts | {file: bibliography.source for file, bibliography in project.bibliographies.items()}


def moved_through_edits(findings: list[Finding], before: Mapping[str, SourceText], project: Project) -> list[Finding]:
    """`findings`, placed in the texts `before`, placed in `project`'s texts now; those in a file it no longer reads are dropped."""
    now = texts_of(project)
    edits: dict[str, _Edit | None] = {}
    moved = []
    for finding in findings:
        places = finding.places
        files = [file for file, _ in places]
        if any(file in before and file not in now for file in files):
            continue
        for file in files:
            if file not in edits:
                edits[file] = _Edit.between(before[file], now[file]) if file in before and file in now else None
        if not all(_before(edits[file], range_) for file, range_ in places):
            if any(_erases(edits[file], range_) for file, range_ in places):
                continue  # its text is gone: the full check says whether what replaced it has a finding
            finding = finding.placed(lambda file, range_: _placed(edits[file], range_))
        moved.append(finding)
    return moved


class _Edit:
    """The one span where two texts differ, and how an offset of the first maps into the second."""

    def __init__(self, old: SourceText, new: SourceText, start: int, old_end: int, new_end: int) -> None:
        self.old, self.new = old, new
        self.start, self.old_end, self.new_end = start, old_end, new_end

    @classmethod
    def between(cls, old: SourceText, new: SourceText) -> _Edit | None:
        if old.text == new.text:
            return None
        start = _common_length(old.text, new.text, prefix=True)
        room = min(len(old.text), len(new.text)) - start
        suffix = _common_length(old.text[len(old.text) - room :], new.text[len(new.text) - room :], prefix=False)
        return cls(old, new, start, len(old.text) - suffix, len(new.text) - suffix)

    def before(self, range_: Range) -> bool:
        """Whether the range ends before the edit: the text up to it is the same, so it stays where it was."""
        return self.old.offset(range_.end.line, range_.end.character) < self.start

    def erases(self, range_: Range) -> bool:
        """Whether the edit replaced all of the range's text."""
        start = self.old.offset(range_.start.line, range_.start.character)
        end = self.old.offset(range_.end.line, range_.end.character)
        return self.start <= start and end <= self.old_end and self.start < self.old_end

    def range(self, range_: Range) -> Range:
        start = self._offset(self.old.offset(range_.start.line, range_.start.character), end=False)
        end = self._offset(self.old.offset(range_.end.line, range_.end.character), end=True)
        return Range.of(*self.new.position(start), *self.new.position(max(start, end)))

    def _offset(self, offset: int, end: bool) -> int:
        """Before the edit it stays; after it, it moves by what was typed; inside it, a start goes to the
        edit's start and an end to its new end (the range covers what replaced its text)."""
        if offset < self.start or (offset == self.start and not end):
            return offset
        if offset >= self.old_end:
            return offset + self.new_end - self.old_end
        return self.new_end if end else self.start


def _common_length(a: str, b: str, prefix: bool) -> int:
    """How many characters `a` and `b` share at their start (or end): a binary search over slice
    comparisons, which run in C, where a loop over characters would not."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        same = a[:middle] == b[:middle] if prefix else a[len(a) - middle :] == b[len(b) - middle :]
        if same:
            low = middle
        else:
            high = middle - 1
    return low


def _before(edit: _Edit | None, range_: Range) -> bool:
    return edit is None or edit.before(range_)


def _erases(edit: _Edit | None, range_: Range) -> bool:
    return edit is not None and edit.erases(range_)


def _placed(edit: _Edit | None, range_: Range) -> Range:
    return edit.range(range_) if edit is not None else range_
