"""Findings kept across edits: each range tied to its section (id and content hash).

A slow source (the LLM audit) reads one version of the text; the author keeps typing. When
the section that holds a finding is unchanged, the finding moves with it; when it changed,
the finding is dropped, and an undo brings it back. The session keeps the findings of every
source that `follows_edits` this way, in the editor and on the command line alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..latex.record import record
from .finding import Finding, Range

if TYPE_CHECKING:
    from ..latex.manuscript import Section
    from ..latex.project import Project
    from .policy import Policy


@record
class Anchor:
    """A range relative to the section (or, outside every section, the file) that holds it."""

    file: str
    section: str | None  # section id; None: the range is tied to the whole file
    digest: str  # that section's content hash (or the file's)
    start: int  # offsets from the section's origin in `file`
    end: int
    text: str  # the source text of the range when audited


@record
class KeptFinding:
    finding: Finding
    anchors: tuple[Anchor, ...]  # the range, then each related range, then each fix edit's


def anchored(project: Project, findings: list[Finding]) -> dict[str, KeptFinding]:
    """Findings of an audit of `project`, each with its ranges tied to their sections."""
    result = {}
    for finding in findings:
        anchors = [_anchor(project, file, range_) for file, range_ in finding.places]
        if all(anchor is not None for anchor in anchors):
            result[finding.fingerprint] = KeptFinding(finding, tuple(anchors))  # type: ignore[arg-type]
    return result


def _anchor(project: Project, file: str, range_: Range) -> Anchor | None:
    document = project.documents.get(file)
    if document is None:
        return None
    source = document.source
    start = source.offset(range_.start.line, range_.start.character)
    end = source.offset(range_.end.line, range_.end.character)
    section = _section_at(project, file, start)
    origin = _origin(section, file) if section is not None else None
    if section is None or origin is None:
        return Anchor(file, None, source.hash, start, end, source.text[start:end])
    return Anchor(file, section.id, section.hash, start - origin, end - origin, source.text[start:end])


def _section_at(project: Project, file: str, offset: int) -> Section | None:
    manuscript = project.manuscript
    for placed in manuscript.blocks:
        if placed.file == file and placed.block.start <= offset <= placed.block.end:
            return manuscript.sections[placed.section]
    before = [section for section in manuscript.sections if section.file == file and section.start <= offset]
    return before[-1] if before else None


def _origin(section: Section, file: str) -> int | None:
    """Where the section begins in `file`: its first block there, else its heading."""
    starts = [placed.block.start for placed in section.blocks if placed.file == file]
    if starts:
        return min(starts)
    return section.start if section.file == file else None


def current(project: Project, policy: Policy, kept: dict[str, KeptFinding]) -> list[Finding]:
    """The kept findings that still hold in `project`'s current text, moved with their sections,
    through the folder's policy (suppression comments, `[rules]`, dismissals) as rule findings are."""
    sections = {section.id: section for section in project.manuscript.sections}
    relocated = [finding for finding in (_relocated(project, sections, item) for item in kept.values()) if finding is not None]
    return policy.apply(project, relocated)


def _relocated(project: Project, sections: dict[str, Section], item: KeptFinding) -> Finding | None:
    ranges = []
    for anchor in item.anchors:
        range_ = _relocate(project, sections, anchor)
        if range_ is None:
            return None
        ranges.append(range_)
    return item.finding if ranges == [range_ for _, range_ in item.finding.places] else _moved(item.finding, ranges)


def _moved(finding: Finding, ranges: list[Range]) -> Finding:
    """`finding` at `ranges` (same order as `anchored`), fingerprint unchanged."""
    moved = iter(ranges)
    return finding.placed(lambda file, range_: next(moved))


def _relocate(project: Project, sections: dict[str, Section], anchor: Anchor) -> Range | None:
    document = project.documents.get(anchor.file)
    if document is None:
        return None
    source = document.source
    if anchor.section is None:
        origin = 0 if source.hash == anchor.digest else None
    else:
        section = sections.get(anchor.section)
        origin = _origin(section, anchor.file) if section is not None and section.hash == anchor.digest else None
    if origin is None:
        return None
    start, end = origin + anchor.start, origin + anchor.end
    if start < 0 or source.text[start:end] != anchor.text:  # e.g. a comment edited inside the section
        return None
    return Range.of(*source.position(start), *source.position(end))
