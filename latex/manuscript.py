"""The manuscript in reading order: sections of blocks across all files."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from .model import Block, BlockKind, Heading, SectionKind

if TYPE_CHECKING:
    from .project import Project

_KIND_PATTERNS: list[tuple[SectionKind, re.Pattern[str]]] = [
    (SectionKind.ABSTRACT, re.compile(r"^\s*abstract\b", re.I)),
    (SectionKind.REFERENCES, re.compile(r"^\s*(references|bibliography)\s*$", re.I)),
    (SectionKind.LIMITATIONS, re.compile(r"limitation", re.I)),
    (SectionKind.ETHICS, re.compile(r"ethic|broader impact|societal impact|social impact|consent|responsible", re.I)),
    (SectionKind.INTRODUCTION, re.compile(r"^\s*(\d+\s*)?(introduction|intro|motivation|overview)\b", re.I)),
    (SectionKind.RELATED_WORK, re.compile(r"related work|prior work|previous work|literature|background|related research", re.I)),
    (SectionKind.CONCLUSION, re.compile(r"conclu|summary and|future work|outlook|final remarks", re.I)),
    (SectionKind.DISCUSSION, re.compile(r"discussion", re.I)),
    (SectionKind.RESULTS, re.compile(r"result|ablation|analys|comparison|performance|findings|case stud", re.I)),
    (SectionKind.EXPERIMENTS, re.compile(r"experiment|evaluation|empirical|benchmark|implementation|setup|dataset|training details", re.I)),
    (SectionKind.METHOD, re.compile(r"method|approach|model|framework|algorithm|proposed|preliminar|formulation|architecture|theory|design|problem", re.I)),
]


def section_kind_for(title: str) -> SectionKind | None:
    for kind, pattern in _KIND_PATTERNS:
        if pattern.search(title):
            return kind
    return None


@dataclass(slots=True)
class PlacedBlock:
    """A block with where it sits: its file and its section."""

    file: str
    block: Block
    section: int  # index into Manuscript.sections
    index: int  # global reading-order index, what prompts call block_index
    kind: BlockKind  # the block's kind, with project-declared theorem environments applied


class SourceRun(NamedTuple):
    """A stretch of one file's raw text: [start, end)."""

    file: str
    start: int
    end: int


@dataclass(slots=True)
class Section:
    id: str  # stable across edits elsewhere: file, title and occurrence
    title: str
    level: int
    kind: SectionKind
    file: str
    start: int
    end: int
    blocks: list[PlacedBlock] = field(default_factory=list)
    hash: str = ""
    in_appendix: bool = False
    # The raw text that belongs to the section, comments and preamble included. The runs of all
    # sections tile every reached file, so a rule that reads raw text section by section misses nothing.
    runs: list[SourceRun] = field(default_factory=list)


@dataclass(slots=True)
class Manuscript:
    sections: list[Section]
    blocks: list[PlacedBlock]
    theorem_environments: dict[str, str]
    # A digest of everything the manuscript is a function of: the files' texts and where includes led.
    basis: str = ""


def build_manuscript(project: "Project") -> Manuscript:
    theorem_environments = {
        name: title for path in project.files for name, title in project.documents[path].parsed.theorem_environments
    }
    builder = _Builder(theorem_environments)
    builder.walk(project, project.root_file, set())
    manuscript = builder.finish()
    basis = hashlib.blake2b(digest_size=12)
    for path in project.files:
        basis.update(f"{path}\x1f{project.documents[path].hash}\x1e".encode("utf-8", "surrogatepass"))
    basis.update(repr([(inclusion.file, inclusion.site.start, inclusion.target) for inclusion in project.inclusions]).encode("utf-8", "surrogatepass"))
    manuscript.basis = basis.hexdigest()
    return manuscript


class _Builder:
    def __init__(self, theorem_environments: dict[str, str]) -> None:
        self.theorem_environments = theorem_environments
        self.sections: list[Section] = [Section("front", "", 0, SectionKind.FRONT, "", 0, 0)]
        self.blocks: list[PlacedBlock] = []
        self.seen_titles: dict[tuple[str, str], int] = {}
        self.in_appendix = False
        self.parent_kinds: dict[int, SectionKind] = {}
        self.run: tuple[str, int] = ("", 0)  # the file being walked and where its open run began

    def walk(self, project: "Project", path: str, visited: set[str]) -> None:
        visited.add(path)
        self.run = (path, 0)
        parsed = project.documents[path].parsed
        targets = {(inclusion.site.start, inclusion.site.kind): inclusion.target for inclusion in project.inclusions if inclusion.file == path}
        events: list[tuple[int, int, object]] = []
        events += [(heading.start, 0, heading) for heading in parsed.headings]
        events += [(marker.offset, 1, marker) for marker in parsed.markers]
        events += [(block.start, 2, block) for block in parsed.blocks]
        events += [(site.start, 3, site) for site in parsed.includes if site.kind == "tex"]
        events.sort(key=lambda event: (event[0], event[1]))
        for _, order, item in events:
            if order == 0:
                self.heading(path, item)
            elif order == 1:
                self.marker(path, item)
            elif order == 2:
                self.block(path, item)
            else:
                target = targets.get((item.start, "tex"))
                if target is not None and target not in visited and target in project.documents:
                    self.close_run(item.end)
                    self.walk(project, target, visited)
                    self.run = (path, item.end)
        length = len(project.documents[path].text)
        self.close_run(length)
        current = self.sections[-1]
        if current.file == path:
            current.end = max(current.end, length)

    def close_run(self, end: int) -> None:
        """Give the current section the walked file's text up to `end`."""
        path, start = self.run
        if end > start:
            self.sections[-1].runs.append(SourceRun(path, start, end))
        self.run = (path, max(start, end))

    def open_section(self, section: Section) -> None:
        self.close_run(section.start)
        self.sections.append(section)

    def heading(self, path: str, heading: Heading) -> None:
        own_kind = section_kind_for(heading.title)
        parent_kind = next((self.parent_kinds[level] for level in sorted(self.parent_kinds, reverse=True) if level < heading.level), None)
        if own_kind is SectionKind.ABSTRACT or own_kind is SectionKind.REFERENCES:
            kind = own_kind
        elif self.in_appendix and heading.level <= 2 and own_kind not in (SectionKind.LIMITATIONS, SectionKind.ETHICS):
            kind = SectionKind.APPENDIX
        else:
            kind = own_kind or parent_kind or SectionKind.OTHER
        self.parent_kinds = {level: k for level, k in self.parent_kinds.items() if level < heading.level}
        self.parent_kinds[heading.level] = kind
        occurrence = self.seen_titles.get((path, heading.title), 0)
        self.seen_titles[(path, heading.title)] = occurrence + 1
        section_id = f"{path}#{heading.title}" + (f"#{occurrence + 1}" if occurrence else "")
        self.open_section(Section(section_id, heading.title, heading.level, kind, path, heading.start, heading.end, in_appendix=self.in_appendix))

    def marker(self, path: str, marker) -> None:
        if marker.kind == "appendix":
            self.in_appendix = True
        elif marker.kind in ("bibliography", "thebibliography"):
            self.heading(path, Heading(2, "References", True, marker.offset, marker.offset))
        elif marker.kind == "end_abstract" and self.sections[-1].kind is SectionKind.ABSTRACT:
            self.open_section(Section(f"{path}#after-abstract", "", 2, SectionKind.FRONT, path, marker.offset, marker.offset))

    def block(self, path: str, block: Block) -> None:
        kind = block.kind
        if kind is BlockKind.PARAGRAPH and block.environment in self.theorem_environments:
            kind = BlockKind.THEOREM
        section_index = len(self.sections) - 1
        placed = PlacedBlock(path, block, section_index, len(self.blocks), kind)
        self.blocks.append(placed)
        section = self.sections[section_index]
        section.blocks.append(placed)
        if section.file == path or not section.file:
            section.end = max(section.end, block.end)

    def finish(self) -> Manuscript:
        sections = self.sections
        if not sections[0].blocks and len(sections) > 1:
            # Drop the empty front matter (its text, the preamble, goes to the first section),
            # re-pointing block section indices.
            sections = sections[1:]
            sections[0].runs[:0] = self.sections[0].runs
            for placed in self.blocks:
                placed.section -= 1
        for section in sections:
            digest = hashlib.blake2b(digest_size=12)
            digest.update(section.title.encode("utf-8", "replace"))
            for placed in section.blocks:
                digest.update(b"\x1f")
                digest.update(placed.block.plain.text.encode("utf-8", "replace"))
            section.hash = digest.hexdigest()
        return Manuscript(sections, self.blocks, self.theorem_environments)
