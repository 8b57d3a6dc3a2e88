"""The manuscript in reading order: sections of blocks across all files."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, NamedTuple, cast

from .cell_macros import CellMacros, cell_macros, with_cell_macros
from .dead_text import DeadText, Unread, dead_text, project_unread, without_labels
from .model import Block, BlockKind, Heading, IncludeSite, KeyUse, Marker, SectionKind
from .pulled_rows import with_pulled_rows
from .reference_macros import ReferenceMacros, reference_macros, with_macro_labels
from .source import content_hash, value_hash

if TYPE_CHECKING:
    from .files import ProjectFiles

_KIND_PATTERNS: list[tuple[SectionKind, re.Pattern[str]]] = [
    # The heading "Abstract" alone: "Abstract Domains" or "Abstract Conflict Analysis" is a section of the body.
    (SectionKind.ABSTRACT, re.compile(r"^\s*abstract\s*[.:]?\s*$", re.I)),
    (SectionKind.REFERENCES, re.compile(r"^\s*(references|bibliography)\s*$", re.I)),
    (SectionKind.LIMITATIONS, re.compile(r"limitation", re.I)),
    (SectionKind.ETHICS, re.compile(r"ethic|broader impact|societal impact|social impact|consent|responsible", re.I)),
    (SectionKind.INTRODUCTION, re.compile(r"^\s*(\d+\s*)?(introduction|intro|motivation|overview)\b", re.I)),
    (SectionKind.RELATED_WORK, re.compile(r"related work|prior work|previous work|literature|background|related research", re.I)),
    (SectionKind.CONCLUSION, re.compile(r"conclu|summary and|future work|outlook|final remarks", re.I)),
    (SectionKind.DISCUSSION, re.compile(r"discussion", re.I)),
    (SectionKind.RESULTS, re.compile(r"result|ablation|analys|comparison|performance|findings|case stud", re.I)),
    (SectionKind.EXPERIMENTS, re.compile(r"experiment|evaluation|empirical|benchmark|implementation|setup|dataset|training details", re.I)),
    (
        SectionKind.METHOD,
        re.compile(r"method|approach|model|framework|algorithm|proposed|preliminar|formulation|architecture|theory|design|problem", re.I),
    ),
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

    def stretches(self) -> list[SourceRun]:
        """The section's raw text as maximal stretches of one file: the runs an `\\input` split are
        joined again, so a scan reads the text around an include as the file has it."""
        stretches: dict[str, list[SourceRun]] = {}
        for run in self.runs:
            runs = stretches.setdefault(run.file, [])
            if runs and runs[-1].end == run.start:
                runs[-1] = SourceRun(run.file, runs[-1].start, run.end)
            else:
                runs.append(run)
        return [run for runs in stretches.values() for run in runs]


class FileLayout(NamedTuple):
    """What the walk saw in one file: the shape of its events (headings, markers, blocks,
    includes, without positions), their offsets, and the file's length."""

    shape: tuple[tuple[object, ...], ...]
    offsets: tuple[int, ...]
    length: int


@dataclass(slots=True)
class Manuscript:
    sections: list[Section]
    blocks: list[PlacedBlock]
    theorem_environments: dict[str, str]
    # The author's reference macros, whose uses a placed block shows as the `\ref` they stand for.
    references: ReferenceMacros
    # What the project never prints beyond `\\iffalse` (see dead_text).
    unread: Unread
    # The author's macros its tables' cells may be written through (see cell_macros).
    cell_macros: CellMacros
    # A digest of everything the manuscript is a function of: the files' texts and where includes led.
    basis: str = ""
    layouts: dict[str, FileLayout] = field(default_factory=dict)
    # File → the places of its blocks in `blocks`, taken when an edit first asks: the manuscripts an edit moves
    # hold their blocks in the same order, so they share it.
    block_places: dict[str, list[int]] = field(default_factory=dict)

    def places_of(self, file: str) -> list[int]:
        """The places in `blocks` of `file`'s blocks, in reading order."""
        places = self.block_places.get(file)
        if places is None:
            places = self.block_places[file] = [place for place, placed in enumerate(self.blocks) if placed.file == file]
        return places


def build_manuscript(
    project: ProjectFiles, previous: Manuscript | None = None, edited: str | None = None, unchanged_before: int = 0
) -> Manuscript:
    """The manuscript of `project`. With the `previous` one and the file `edited` since, an edit
    that keeps that file's shape (typing in a paragraph) moves its blocks instead of re-walking
    every file; the result is the same. The edit left `edited`'s text before `unchanged_before` as it was."""
    theorem_environments = {name: title for path in project.files for name, title in project.documents[path].parsed.theorem_environments}
    macros = [macro for path in project.files for macro in project.documents[path].parsed.macros]
    references = reference_macros(macros)
    unread = project_unread(project, macros)
    in_cells = cell_macros(project, unread)
    manuscript = None
    if (
        previous is not None
        and edited is not None
        and (previous.theorem_environments, previous.references, previous.unread, previous.cell_macros)
        == (theorem_environments, references, unread, in_cells)
    ):
        manuscript = _moved(project, previous, edited, unchanged_before)
    if manuscript is None:
        builder = _Builder(theorem_environments, references, unread, in_cells)
        builder.walk(project, project.root_file, set())
        manuscript = builder.finish()
    manuscript.basis = value_hash(
        (
            [(path, project.documents[path].hash) for path in project.files],
            [(inclusion.file, inclusion.site.start, inclusion.target) for inclusion in project.inclusions],
        )
    )
    return manuscript


# Paragraphs after the abstract, before any heading, that make them the paper's text rather than its front matter
# (keywords, classifications and `\maketitle` notes hold a few).
_BODY_PARAGRAPHS = 5


class _Builder:
    def __init__(self, theorem_environments: dict[str, str], references: ReferenceMacros, unread: Unread, in_cells: CellMacros) -> None:
        self.theorem_environments = theorem_environments
        self.references = references
        self.unread = unread
        self.cell_macros = in_cells
        self.sections: list[Section] = [Section("front", "", 0, SectionKind.FRONT, "", 0, 0)]
        self.blocks: list[PlacedBlock] = []
        self.seen_titles: dict[tuple[str, str], int] = {}
        self.in_appendix = False
        self.parent_kinds: dict[int, SectionKind] = {}
        self.run: tuple[str, int] = ("", 0)  # the file being walked and where its open run began
        self.layouts: dict[str, FileLayout] = {}
        # The labels and caption of the table float whose body `\input`s the file being walked: its tabular is
        # cited by those labels, and captioned by that caption.
        self.around_float: tuple[list[str], str | None] = ([], None)

    def walk(self, project: ProjectFiles, path: str, visited: set[str]) -> None:
        visited.add(path)
        self.run = (path, 0)
        targets = _targets(project, path)
        pulled = _pulled_spans(project.documents[path].parsed.blocks)
        events = _events(project, path, self.unread, self.cell_macros)
        self.layouts[path] = _layout(events, targets, len(project.documents[path].text))
        for _, order, item in events:
            if order == 0:
                self.heading(path, cast(Heading, item))
            elif order == 1:
                self.marker(path, cast(Marker, item))
            elif order == 2:
                self.block(path, with_macro_labels(cast(Block, item), project.documents[path].text, self.references))
            else:
                site = cast(IncludeSite, item)
                target = targets.get((site.start, "tex"))
                if target is not None and target not in visited and target in project.documents:
                    self.close_run(site.end)
                    if any(start <= site.start < end for start, end in pulled):
                        self.pulled_rows(project, path, target, visited, site.end)
                        continue
                    outer = self.around_float
                    self.around_float = self.float_around(project, path, site.start) or outer
                    self.walk(project, target, visited)
                    self.around_float = outer
                    self.run = (path, site.end)
        length = len(project.documents[path].text)
        self.close_run(length)
        current = self.sections[-1]
        if current.file == path:
            current.end = max(current.end, length)

    def pulled_rows(self, project: ProjectFiles, path: str, target: str, visited: set[str], resume: int) -> None:
        """A file of bare rows a tabular reads: its cells are the table's (`with_pulled_rows`), not paragraphs of
        their own. Its text stays in the section, which an edit there changes; it keeps no layout, so that edit
        walks again and the table reads the rows anew."""
        visited.add(target)
        self.run = (target, 0)
        self.close_run(len(project.documents[target].text))
        self.run = (path, resume)

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
        kind: SectionKind
        if own_kind is SectionKind.ABSTRACT or own_kind is SectionKind.REFERENCES:
            kind = own_kind
        elif self.in_appendix and heading.level <= 2 and own_kind not in (SectionKind.LIMITATIONS, SectionKind.ETHICS):
            kind = SectionKind.APPENDIX
        else:
            kind = own_kind or parent_kind or SectionKind.OTHER
        self.parent_kinds = {level: k for level, k in self.parent_kinds.items() if level < heading.level}
        self.parent_kinds[heading.level] = kind
        section_id = self.section_id(path, heading.title)
        self.open_section(
            Section(section_id, heading.title, heading.level, kind, path, heading.start, heading.end, in_appendix=self.in_appendix)
        )

    def section_id(self, path: str, title: str) -> str:
        """`path#title`, numbered from the second section of that title in the file."""
        occurrence = self.seen_titles.get((path, title), 0)
        self.seen_titles[(path, title)] = occurrence + 1
        return f"{path}#{title}" + (f"#{occurrence + 1}" if occurrence else "")

    def marker(self, path: str, marker: Marker) -> None:
        if marker.kind == "appendix":
            self.in_appendix = True
        elif marker.kind in ("bibliography", "thebibliography"):
            self.heading(path, Heading(2, "References", True, marker.offset, marker.offset))
            if marker.kind == "bibliography":  # the list BibTeX writes takes no text of the source
                self.after_references(path, marker.offset)
        elif marker.kind == "end_thebibliography" and self.sections[-1].kind is SectionKind.REFERENCES:
            self.after_references(path, marker.offset)
        elif marker.kind == "end_abstract" and self.sections[-1].kind is SectionKind.ABSTRACT:
            self.open_section(Section(f"{path}#after-abstract", "", 2, SectionKind.FRONT, path, marker.offset, marker.offset))

    def after_references(self, path: str, offset: int) -> None:
        """What follows a reference list before the next heading (floats and pages of supplement set after
        `\\bibliography`) is no reference: a section of its own, and the parent of the headings under it."""
        self.parent_kinds = {level: kind for level, kind in self.parent_kinds.items() if level < 2}
        self.parent_kinds[2] = SectionKind.OTHER
        section_id = self.section_id(path, "after-references")
        self.open_section(Section(section_id, "", 2, SectionKind.OTHER, path, offset, offset, in_appendix=self.in_appendix))

    def float_around(self, project: ProjectFiles, path: str, offset: int) -> tuple[list[str], str | None] | None:
        """The labels and caption of the float of `path` around `offset` (a table float holding no tabular of its
        own, or a figure): the tables of the file it reads there are its own."""
        for placed in reversed(self.blocks):  # back to the file's last table: its captions come after it
            if placed.file != path:
                break
            if placed.kind in (BlockKind.TABLE, BlockKind.FIGURE):
                float_block = placed.block
                if not float_block.start <= offset < float_block.end or float_block.table is not None or not float_block.labels:
                    return None
                captions = [
                    block.plain.text
                    for block in project.documents[path].parsed.blocks
                    if block.kind is BlockKind.CAPTION and float_block.start <= block.start < float_block.end
                ]
                return float_block.labels, captions[0] if captions else None
        return None

    def block(self, path: str, block: Block) -> None:
        kind = block.kind
        labels, caption = self.around_float
        if kind is BlockKind.TABLE and block.table is not None and not block.labels and labels:
            table = block.table if block.table.caption else replace(block.table, caption=caption)
            block = replace(block, labels=list(labels), table=table)
        if kind is BlockKind.PARAGRAPH and block.environment in self.theorem_environments:
            kind = BlockKind.THEOREM
        if kind in (BlockKind.TABLE, BlockKind.FIGURE) and self.sections[-1].kind is SectionKind.REFERENCES:
            # A float is no reference: a list typed under a "References" heading ends at the tables set after it.
            self.after_references(path, block.start)
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
            if section.kind is SectionKind.FRONT and section.id.endswith("#after-abstract") and _paragraphs(section) >= _BODY_PARAGRAPHS:
                # What runs on from the abstract with no heading is the paper's text: an introduction APA style leaves
                # untitled (papaja), a letter's whole body (PRL). Counted in blocks, which an edit's shape holds.
                section.kind = SectionKind.OTHER
            section.hash = _section_hash(section)
        return Manuscript(
            sections, self.blocks, self.theorem_environments, self.references, self.unread, self.cell_macros, layouts=self.layouts
        )


def _paragraphs(section: Section) -> int:
    return sum(placed.kind is BlockKind.PARAGRAPH for placed in section.blocks)


def _section_hash(section: Section) -> str:
    return content_hash("\x1f".join([section.title, *(_printed(placed.block) for placed in section.blocks)]))


def _printed(block: Block) -> str:
    """A block's text; a table's cells too, which it may read from elsewhere (a file of rows, the author's macros)."""
    if block.table is None:
        return block.plain.text
    return "\x1e".join([block.plain.text, *(cell.text for row in block.table.rows for cell in row)])


def _pulled_spans(blocks: list[Block]) -> list[tuple[int, int]]:
    """Where the tabulars of a file read rows from another (the span of each `\\input` among their rows)."""
    return [(pull.start, pull.end) for block in blocks if block.table is not None for pull in block.table.pulls]


def _targets(project: ProjectFiles, path: str) -> dict[tuple[int, str], str | None]:
    return {(inclusion.site.start, inclusion.site.kind): inclusion.target for inclusion in project.inclusions if inclusion.file == path}


# (offset, order, item): order 0 is a Heading, 1 a Marker, 2 a Block, 3 an IncludeSite.
_Event = tuple[int, int, Heading | Marker | Block | IncludeSite]


def _events(project: ProjectFiles, path: str, unread: Unread, in_cells: CellMacros) -> list[_Event]:
    """A file's headings, markers, blocks (their tables' cells read through the author's macros, with the rows
    they read from files) and source includes in reading order, without what TeX never prints."""
    document = project.documents[path]
    parsed = document.parsed
    dead = dead_text(document.text, unread)
    # A sectioning command or `\appendix` in the preamble is the text of a definition (`\patchcmd`, `\xapptocmd\section{…}`):
    # nothing is printed there. An abstract that a class typesets from the preamble is.
    body = next((marker.offset for marker in parsed.markers if marker.kind == "begin_document"), 0)
    events: list[_Event] = []
    events += [
        (heading.start, 0, heading)
        for heading in parsed.headings
        if not dead.covers(heading.start) and (heading.start >= body or section_kind_for(heading.title) is SectionKind.ABSTRACT)
    ]
    events += [
        (marker.offset, 1, marker)
        for marker in parsed.markers
        if not dead.covers(marker.offset) and (marker.offset >= body or marker.kind != "appendix")
    ]
    events += [
        (block.start, 2, _with_pulled_rows(project, path, with_cell_macros(block, document.text, in_cells)))
        for block in _printed_blocks(parsed.blocks, parsed.labels, dead)
    ]
    events += [(site.start, 3, site) for site in parsed.includes if site.kind == "tex" and not dead.covers(site.start)]
    events.sort(key=lambda event: (event[0], event[1]))
    return events


def _printed_blocks(blocks: list[Block], labels: list[KeyUse], dead: DeadText) -> list[Block]:
    if not dead:
        return blocks
    unprinted = dead.unprinted_labels(labels)
    return [without_labels(printed, unprinted) for printed in map(dead.printed, blocks) if printed is not None]


def _with_pulled_rows(project: ProjectFiles, path: str, block: Block) -> Block:
    table = block.table
    if table is None or not table.pulls:
        return block
    return replace(block, table=with_pulled_rows(table, [project.rows_text(path, pull) for pull in table.pulls]))


def _layout(events: list[_Event], targets: dict[tuple[int, str], str | None], length: int) -> FileLayout:
    shape: list[tuple[object, ...]] = []
    offsets: list[int] = []
    includes = [cast(IncludeSite, item).start for _, order, item in events if order == 3]
    bare_float_end = -1  # the end of the last float whose tables are in a file it reads
    for _, order, item in events:
        if order == 0:
            heading = cast(Heading, item)
            shape.append((0, heading.level, heading.title))
            offsets += (heading.start, heading.end)
        elif order == 1:
            marker = cast(Marker, item)
            shape.append((1, marker.kind))
            offsets.append(marker.offset)
        elif order == 2:
            block = cast(Block, item)
            # A float's labels and caption reach the tables of the file it `\input`s, so editing them re-walks.
            labels: tuple[str, ...] = tuple(block.labels) if block.kind is BlockKind.TABLE else ()
            if (
                block.kind in (BlockKind.TABLE, BlockKind.FIGURE)
                and block.table is None
                and any(block.start <= at < block.end for at in includes)
            ):
                labels, bare_float_end = tuple(block.labels), block.end
            elif block.kind is BlockKind.CAPTION and block.start < bare_float_end:
                labels = (block.plain.text,)
            shape.append((2, block.kind, block.environment, labels))
            offsets += (block.start, block.end)
        else:
            site = cast(IncludeSite, item)
            shape.append((3, targets.get((site.start, "tex"))))
            offsets += (site.start, site.end)
    return FileLayout(tuple(shape), tuple(offsets), length)


def _moved(project: ProjectFiles, previous: Manuscript, edited: str, unchanged_before: int) -> Manuscript | None:
    """`previous` with the blocks of `edited` replaced by their new versions, when the edit kept
    the file's shape: then every section, block index and section membership is unchanged and
    only offsets in that file moved. None when the shape changed (a full walk is needed).
    The blocks and sections that lie before the edit stay the same objects, so what is kept by
    them (the index's contributions, the rules' walks per section) is not read again."""
    old = previous.layouts.get(edited)
    document = project.documents.get(edited)
    if old is None or document is None:
        return None
    events = _events(project, edited, previous.unread, previous.cell_macros)
    new = _layout(events, _targets(project, edited), len(document.text))
    if new.shape != old.shape:
        return None
    moved = {0: 0, old.length: new.length}
    for before, after in zip(old.offsets, new.offsets):
        if moved.setdefault(before, after) != after:
            return None  # two places that coincided no longer do
    new_blocks = [with_macro_labels(cast(Block, item), document.text, previous.references) for _, order, item in events if order == 2]
    replaced: dict[int, PlacedBlock] = {}
    blocks = list(previous.blocks)
    for place, block in zip(previous.places_of(edited), new_blocks):
        placed = blocks[place]
        if block is not placed.block:  # a parse the edit re-read, or moved past it
            blocks[place] = replaced[id(placed)] = PlacedBlock(edited, block, placed.section, placed.index, placed.kind)
    holding_blocks = {placed.section for placed in replaced.values()}
    sections = []
    for index, section in enumerate(previous.sections):
        touched = index in holding_blocks or not _before(section, edited, unchanged_before)
        copy = _moved_section(section, edited, moved, replaced) if touched else section
        if copy is None:
            return None
        sections.append(copy)
    layouts = {**previous.layouts, edited: new}
    return Manuscript(
        sections,
        blocks,
        previous.theorem_environments,
        previous.references,
        previous.unread,
        previous.cell_macros,
        layouts=layouts,
        block_places=previous.block_places,
    )


def _before(section: Section, edited: str, offset: int) -> bool:
    """Whether all of `section` that lies in `edited` lies before `offset`."""
    ends = [run.end for run in section.runs if run.file == edited]
    if section.file == edited:
        ends.append(section.end)
    return all(end <= offset for end in ends)


def _moved_section(section: Section, edited: str, moved: dict[int, int], replaced: dict[int, PlacedBlock]) -> Section | None:
    """A section the edit of `edited` touched, with its offsets there `moved` and its `replaced` blocks;
    None when one of its ends no longer falls on an offset the edit kept."""
    start, end = section.start, section.end
    if section.file == edited:
        if start not in moved or end not in moved:
            return None
        start, end = moved[start], moved[end]
    section_blocks = [replaced.get(id(placed), placed) for placed in section.blocks]
    if not section.file:  # the front matter ends where its last block does
        end = max([0, *(placed.block.end for placed in section_blocks)])
    runs = []
    for run in section.runs:
        if run.file == edited:
            if run.start not in moved or run.end not in moved:
                return None
            run = SourceRun(edited, moved[run.start], moved[run.end])
        runs.append(run)
    copy = Section(
        section.id,
        section.title,
        section.level,
        section.kind,
        section.file,
        start,
        end,
        section_blocks,
        section.hash,
        section.in_appendix,
        runs,
    )
    # Blocks an edit only moved keep their text, and the section the digest of its texts.
    if any(placed is not kept and _printed(placed.block) != _printed(kept.block) for placed, kept in zip(section_blocks, section.blocks)):
        copy.hash = _section_hash(copy)
    return copy
