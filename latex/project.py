"""A LaTeX project: the include graph from a root file, its documents and bibliographies.

Everything expensive is keyed by content hash: a document is re-parsed only
when its text changed, and then only in the chunks that changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

from .bibliography import Bibliography, kept_bibliography, parse_bibliography
from .chunk_parser import ChunkParser
from .document import Document, parse_document
from .index import Index, IndexCache, build_index
from .macro_signatures import BIB_COMMANDS, INCLUDE_COMMANDS
from .manuscript import Manuscript, build_manuscript
from .model import IncludeSite, Inclusion, RowPull
from .pulled_rows import reads_files
from .record import record
from .sandbox import ProjectRoot, ReadResult, Resolution, outside_folder
from .source import SOURCE_SUFFIXES, TEX_SUFFIXES, SourceText

# The files `\includegraphics{name}` may mean; each could be a link leading out.
_GRAPHICS_SUFFIXES = (".pdf", ".png", ".jpg", ".jpeg", ".eps")


@record(slots=True)
class ProjectProblem:
    kind: str  # missing_file, include_cycle, outside_root, outside_folder, unreadable, unparsable, unbalanced (a brace that does not pair), missing_bibliography
    file: str
    start: int
    end: int
    message: str
    target: str | None = None


@dataclass(slots=True)
class _IncludeWalk:
    """What one walk of the include graph gathers, in the order it meets it."""

    root_dir: str
    problems: list[ProjectProblem]
    files: list[str] = field(default_factory=list)
    bibliography_files: list[str] = field(default_factory=list)
    definitions: dict[str, str] = field(default_factory=dict)  # the project's own .sty and .cls files → their text
    inclusions: list[Inclusion] = field(default_factory=list)

    def add_bibliography(self, target: str | None) -> None:
        if target and target not in self.bibliography_files:
            self.bibliography_files.append(target)


@dataclass(slots=True)
class ProjectChange:
    changed_files: list[str] = field(default_factory=list)
    changed_sections: list[str] = field(default_factory=list)
    graph_changed: bool = False


class Project:
    """One root file and everything it reaches."""

    def __init__(
        self,
        folder: Path,
        root_file: str,
        overlays: Mapping[str, str] | None = None,
        reader: Callable[[str], ReadResult] | None = None,
        external_problems: list[ProjectProblem] | None = None,
        parser: ChunkParser | None = None,
        boundary: Path | None = None,
    ) -> None:
        self.root = ProjectRoot(folder, boundary)
        # Parses files: with the parses kept by earlier runs, in worker processes when that pays.
        self.parser = parser or ChunkParser(workers=1)
        # Problems found before the project existed (archive members refused on extraction).
        self.external_problems = list(external_problems or [])
        self.root_file = root_file
        self.overlays: dict[str, str] = dict(overlays or {})
        self._reader = reader or self.root.read
        self.documents: dict[str, Document] = {}
        self.bibliographies: dict[str, Bibliography] = {}
        self.files: list[str] = []  # .tex files in include order, root first
        self.bibliography_files: list[str] = []
        # The project's own class and package files that its files load, by path: their text, read
        # for the commands they define (not parsed as prose).
        self.definitions: dict[str, str] = {}
        self._packages: dict[str, Document] = {}  # the parsed package files whose bibliography commands the walk reads
        self.inclusions: list[Inclusion] = []
        self.problems: list[ProjectProblem] = []
        # Paths the walk looked for and did not find: only their appearance can change the graph.
        self._missing: set[str] = set()
        self._index_cache = IndexCache()  # derived facts and digests, kept between index builds
        # What the walk learnt from the disk (existence, resolved paths): typing re-walks the
        # include graph, and must not stat every include each time.
        # ("exists", path) → bool; ("resolve", name, base) → Resolution; ("definition", path) → a .cls/.sty text
        self._disk: dict[tuple[str, ...], Any] = {}
        # The manuscript before an edit that changed one source file's text only, and that file.
        self._edited_since: tuple[Manuscript, str, int] | None = None  # and the offset the edit kept the file's text before
        self._walk()

    # Reading

    def _read(self, relative: str) -> ReadResult:
        if relative in self.overlays:
            return ReadResult(self.overlays[relative])
        return self._reader(relative)

    def _document(self, relative: str) -> Document:
        current = self.documents.get(relative)
        if current is not None:
            return current
        result = self._read(relative)
        document = parse_document(relative, result.text, read_problem=result.problem, parser=self.parser)
        self.documents[relative] = document
        return document

    def _bibliography(self, relative: str) -> Bibliography:
        current = self.bibliographies.get(relative)
        if current is None:
            result = self._read(relative)
            # Like a file's chunk parses, its first parse may come from an earlier run.
            current = kept_bibliography(relative, result.text, result.problem, self.parser.store)
            self.bibliographies[relative] = current
        return current

    def _exists(self, relative: str) -> bool:
        if relative in self.overlays:
            return True
        found = self._disk.get(("exists", relative))
        if found is None:
            found = self._disk[("exists", relative)] = self.root.exists(relative)
        return found

    def _resolve(self, name: str, base: str) -> Resolution:
        """`ProjectRoot.resolve`, remembered until the disk may have changed (see update)."""
        resolution = self._disk.get(("resolve", name, base))
        if resolution is None:
            resolution = self._disk[("resolve", name, base)] = self.root.resolve(name, base)
        return resolution

    def _look_for(self, relative: str) -> bool:
        """Whether a file the walk wants exists; a missing one is remembered."""
        found = self._exists(relative)
        if not found:
            self._missing.add(relative)
        return found

    # The include graph

    def _walk(self) -> None:
        self._missing = set()
        root_dir = str(PurePosixPath(self.root_file).parent)
        walk = _IncludeWalk("" if root_dir == "." else root_dir, list(self.external_problems))
        self._visit(self.root_file, [self.root_file], walk)
        if not walk.bibliography_files:
            # arXiv sources often ship only the generated .bbl.
            fallback = str(PurePosixPath(self.root_file).with_suffix(".bbl"))
            if self._look_for(fallback):
                walk.bibliography_files.append(fallback)
        for bibliography in walk.bibliography_files:
            parsed = self._bibliography(bibliography)
            if parsed.read_problem:
                at = _replaced_at(parsed.source.text)
                walk.problems.append(
                    ProjectProblem("unreadable", bibliography, at, at + (at < len(parsed.source.text)), parsed.read_problem)
                )
        self.files = walk.files
        self.bibliography_files = walk.bibliography_files
        self.definitions = walk.definitions
        self.inclusions = walk.inclusions
        self.problems = walk.problems
        # Forget documents no longer reachable, and cached views of the old graph.
        self.documents = {path: self.documents[path] for path in walk.files}
        self.bibliographies = {path: self.bibliographies[path] for path in walk.bibliography_files}
        self.__dict__.pop("manuscript", None)
        self.__dict__.pop("index", None)

    def _visit(self, relative: str, stack: list[str], walk: _IncludeWalk) -> None:
        """Take in one file and, depth first, the files it includes; `stack` is the chain of includes that led here."""
        walk.files.append(relative)
        document = self._document(relative)
        if document.read_problem:
            at = _replaced_at(document.text)
            walk.problems.append(ProjectProblem("unreadable", relative, at, at + (at < len(document.text)), document.read_problem))
        for start, end, kind, message in document.parsed.problems:
            walk.problems.append(ProjectProblem(kind, relative, start, end, message))
        here = _folder(relative)
        root_dir, problems = walk.root_dir, walk.problems
        for site in document.parsed.includes:
            if site.kind in ("package", "class"):
                own = self._own_definition_file(site, root_dir)
                if own is not None and own not in walk.definitions:
                    walk.definitions[own] = self._definition_text(own)
            if site.kind == "class":
                continue
            if site.kind == "package":
                for package, bibliography_site in self._package_bibliographies(site, root_dir):
                    walk.add_bibliography(self._resolve_bibliography(bibliography_site, package, root_dir, problems))
                continue
            if site.kind == "file":
                self._hold_to_project(site, relative, root_dir, problems)
                continue
            if site.kind == "bib":
                target = self._resolve_bibliography(site, relative, root_dir, problems)
                walk.add_bibliography(target)
                walk.inclusions.append(Inclusion(relative, site, target))
                continue
            target = self._resolve_source(site, relative, here, root_dir, problems)
            if target is not None and target in stack:
                cycle = " → ".join(f"`{path}`" for path in [*stack[stack.index(target) :], target])
                message = f"including `{site.target}` creates a cycle: {cycle}"
                problems.append(ProjectProblem("include_cycle", relative, site.start, site.end, message, target))
                target = None
            walk.inclusions.append(Inclusion(relative, site, target))
            if target is not None and target not in walk.files:
                self._visit(target, [*stack, target], walk)

    def _resolve_source(self, site: IncludeSite, relative: str, here: str, root_dir: str, problems: list[ProjectProblem]) -> str | None:
        # \import{dir}{file}'s folder is part of the path, held to the project like the file's name.
        folder = f"{site.base_dir.rstrip('/')}/" if site.base_dir else ""
        if site.command in ("import", "inputfrom", "includefrom"):
            bases = [root_dir]
        elif site.command in ("subimport", "subinputfrom", "subincludefrom"):
            bases = [here]
        elif site.command == "subfile":
            bases = [here, root_dir]
        else:
            # LaTeX resolves \input against the directory it runs in (the
            # root's); many authors also rely on the including file's folder.
            bases = [root_dir, here, ""]
        name = site.target
        names = [name] if site.command != "include" and _suffix(name) in TEX_SUFFIXES else [f"{name}.tex", name]
        names = [folder + candidate for candidate in names]
        refusal = None
        tried: list[str] = []
        for base in dict.fromkeys(bases):
            for candidate in names:
                resolution = self._resolve(candidate, "" if base in ("", ".") else base)
                if resolution.relative is None:
                    refusal = refusal or resolution.refusal
                    continue
                tried.append(resolution.relative)
                if self._look_for(resolution.relative):
                    _note_outside_folder(site, relative, resolution.relative, problems)
                    return resolution.relative
        if refusal:
            problems.append(
                ProjectProblem(
                    "outside_root", relative, site.start, site.end, f"`\\{site.command}` refused: {refusal}; it was not read", site.target
                )
            )
        elif not any(_within(path, member) for path in tried for member in self._refused_members()):
            # (An archive member refused on extraction is not missing twice: its refusal, SUB001, says why.)
            problems.append(
                ProjectProblem(
                    "missing_file",
                    relative,
                    site.start,
                    site.end,
                    f"`\\{site.command}{{{site.target}}}`: no file `{tried[0] if tried else site.target}` in the project",
                    site.target,
                )
            )
        return None

    def _hold_to_project(self, site: IncludeSite, relative: str, root_dir: str, problems: list[ProjectProblem]) -> None:
        """A file shown as it is (a figure, a listing) must not be read from outside the project; whether it
        exists is the build's concern (graphics are found through \\graphicspath and by extension)."""
        name = site.target
        names = [name, *(f"{name}{suffix}" for suffix in _GRAPHICS_SUFFIXES)] if not _suffix(name) else [name]
        resolutions = [self._resolve(candidate, root_dir) for candidate in names]
        for resolution in resolutions:
            if resolution.refusal:
                message = f"`\\{site.command}` refused: {resolution.refusal}; it was not read"
                problems.append(ProjectProblem("outside_root", relative, site.start, site.end, message, site.target))
                return
        if resolutions[0].relative is not None:
            _note_outside_folder(site, relative, resolutions[0].relative, problems)

    def _definition_text(self, relative: str) -> str:
        """A class or package file's text, read once until the disk may have changed (see update)."""
        text = self._disk.get(("definition", relative))
        if text is None:
            text = self._disk[("definition", relative)] = self._read(relative).text
        return text

    def _refused_members(self) -> list[str]:
        return [problem.target for problem in self.external_problems if problem.kind == "archive_refusal" and problem.target]

    def _own_definition_file(self, site: IncludeSite, root_dir: str) -> str | None:
        """The class or package file a `\\documentclass` or `\\usepackage` loads, when the project ships it."""
        resolution = self._resolve(f"{site.target}.{'cls' if site.kind == 'class' else 'sty'}", root_dir)
        if resolution.relative is None or not self._exists(resolution.relative):
            return None  # one of the TeX distribution
        return resolution.relative

    def _package_bibliographies(self, site: IncludeSite, root_dir: str) -> list[tuple[str, IncludeSite]]:
        """The bibliography commands of a package the project ships (`\\usepackage{assets/main}`)."""
        own = self._own_definition_file(site, root_dir)
        if own is None:
            return []
        if own not in self.documents and not any(f"\\{name}" in self._definition_text(own) for name in BIB_COMMANDS):
            return []  # a package without a bibliography command (most): not parsed as prose for nothing
        package = self.documents.get(own) or self._package(own)
        return [(own, include) for include in package.parsed.includes if include.kind == "bib"]

    def _package(self, relative: str) -> Document:
        """A package file the project ships, parsed once per text. It is none of the project's documents (the
        files the walk reaches), which every walk rebuilds: kept with them, it was parsed again on every keystroke."""
        text = self._definition_text(relative)
        kept = self._packages.get(relative)
        if kept is None or kept.text != text:
            kept = self._packages[relative] = parse_document(relative, text, parser=self.parser)
        return kept

    def _resolve_bibliography(self, site: IncludeSite, relative: str, root_dir: str, problems: list[ProjectProblem]) -> str | None:
        # `\bibliography{\jobname}`: the .bib named after the root file, as TeX names the job.
        target = site.target.replace("\\jobname", PurePosixPath(self.root_file).stem)
        name = target if target.endswith(".bib") else f"{target}.bib"
        resolution = self._resolve(name, root_dir)
        if resolution.relative is None:
            problems.append(
                ProjectProblem(
                    "outside_root",
                    relative,
                    site.start,
                    site.end,
                    f"`\\{site.command}` refused: {resolution.refusal}; it was not read",
                    site.target,
                )
            )
            return None
        if self._look_for(resolution.relative):
            _note_outside_folder(site, relative, resolution.relative, problems)
            return resolution.relative
        fallback = str(PurePosixPath(self.root_file).with_suffix(".bbl"))
        if self._look_for(fallback):
            return fallback
        problems.append(
            ProjectProblem(
                "missing_bibliography",
                relative,
                site.start,
                site.end,
                f"`\\{site.command}{{{site.target}}}`: no file `{resolution.relative}` in the project",
                site.target,
            )
        )
        return None

    # Updates

    def update(self, relative: str, text: str | None = None) -> ProjectChange:
        """Take a new text for a file (None: re-read from disk, or it was deleted)."""
        previous_manuscript = self.manuscript
        old_sections = {section.id: section.hash for section in previous_manuscript.sections}
        change = ProjectChange()
        if text is None or not self.contains(relative):
            self._disk.clear()  # read from disk, or a file the project does not know yet
        if text is None:
            self.overlays.pop(relative, None)
        else:
            self.overlays[relative] = text
        exists = self._exists(relative)
        if relative in self.bibliographies:
            if not exists:
                change.graph_changed = True  # deleted: the walk reports it missing
            else:
                read = self._read(relative)
                if read.text != self.bibliographies[relative].source.text:
                    self.bibliographies[relative] = parse_bibliography(relative, read.text, read.problem)
                    change.changed_files.append(relative)
        previous = self.documents.get(relative)
        if previous is not None:
            result = self._read(relative) if exists else None
            if result is None:
                change.graph_changed = True  # deleted: the walk reports it missing
                change.changed_files.append(relative)
            elif result.text != previous.text or result.problem != previous.read_problem:
                self.documents[relative] = parse_document(relative, result.text, previous, result.problem, self.parser)
                change.changed_files.append(relative)
                # Problems (a read problem, a passage that no longer parses) are gathered by the walk.
                change.graph_changed = (
                    _include_signature(previous) != _include_signature(self.documents[relative])
                    or result.problem != previous.read_problem
                    or previous.parsed.problems != self.documents[relative].parsed.problems
                )
        elif relative in self.definitions:
            change.graph_changed = True  # a class or package of the project's own: the walk re-reads it
        elif relative.endswith(SOURCE_SUFFIXES):
            # A file the walk looked for and could not find may just have appeared.
            change.graph_changed = change.graph_changed or relative in self._missing
        # An edited source file moves its include sites and problems: the walk
        # (over cached parses, no re-parsing) puts them where they now are.
        if change.graph_changed or (relative in change.changed_files and relative in self.documents):
            self._walk()
            if not change.graph_changed and relative in self.documents and previous is not None:
                self._edited_since = (previous_manuscript, relative, self.documents[relative].unchanged_before(previous))
        elif change.changed_files:
            self.__dict__.pop("manuscript", None)
            self.__dict__.pop("index", None)
        if change.changed_files or change.graph_changed:
            new_sections = {section.id: section.hash for section in self.manuscript.sections}
            change.changed_sections = [sid for sid, digest in new_sections.items() if old_sections.get(sid) != digest]
            change.changed_sections += [sid for sid in old_sections if sid not in new_sections]
        return change

    def rows_text(self, file: str, pull: RowPull) -> str | None:
        """The text of the file of bare rows a tabular of `file` reads, when the project holds it and the
        command reads files: a paper's own command is followed only to a .tex file (the files whose change
        a kept check notices) and only when the paper does not define it to do something else."""
        own_command = pull.command not in INCLUDE_COMMANDS
        if own_command and not reads_files(pull.command, self._definition_texts()):
            return None
        here = str(PurePosixPath(file).parent)
        site = IncludeSite(pull.command if not own_command else "input", pull.target, pull.start, pull.end, "tex")
        root_dir = str(PurePosixPath(self.root_file).parent)
        target = self._resolve_source(site, file, "" if here == "." else here, "" if root_dir == "." else root_dir, [])
        if target is None or (own_command and not target.endswith(TEX_SUFFIXES)):
            return None
        if target in self.documents:
            return self.documents[target].text
        text = self._disk.get(("rows", target))
        if text is None:
            text = self._disk[("rows", target)] = self._read(target).text
        return str(text)

    def _definition_texts(self) -> list[str]:
        return [*self.definitions.values(), *(self.documents[path].text for path in self.files)]

    def contains(self, relative: str) -> bool:
        return relative in self.documents or relative in self.bibliographies

    def source(self, file: str) -> SourceText:
        """The text of one of the project's files (.tex or .bib); empty for a file it does not hold."""
        if file in self.documents:
            return self.documents[file].source
        if file in self.bibliographies:
            return self.bibliographies[file].source
        return SourceText("")

    @cached_property
    def manuscript(self) -> Manuscript:
        previous, edited, unchanged_before = self._edited_since or (None, None, 0)
        self._edited_since = None
        return build_manuscript(self, previous, edited, unchanged_before)

    @cached_property
    def index(self) -> Index:
        return build_index(self, self.manuscript, self._index_cache, self.parser.store)


# The walk runs on every keystroke (it places the edited file's include sites): what it asks of a path is kept.
@lru_cache(maxsize=4096)
def _suffix(name: str) -> str:
    return PurePosixPath(name).suffix


@lru_cache(maxsize=4096)
def _folder(relative: str) -> str:
    """A file's folder in the project, "" for the project's own."""
    here = str(PurePosixPath(relative).parent)
    return "" if here == "." else here


def _include_signature(document: Document) -> tuple[tuple[str, str, str, str], ...]:
    return tuple((site.command, site.target, site.base_dir, site.kind) for site in document.parsed.includes)


def _within(path: str, member: str) -> bool:
    """Whether `path` is the archive member `member` or lies in it (a refused link to a folder)."""
    member = member.rstrip("/")
    return path == member or path.startswith(member + "/")


def _note_outside_folder(site: IncludeSite, relative: str, target: str, problems: list[ProjectProblem]) -> None:
    """A file read from beyond the checked folder (inside its repository) builds, but an archive of the folder lacks it."""
    if outside_folder(target):
        message = f"`\\{site.command}{{{site.target}}}` reads `{target}`, outside the checked folder: a submission archive of the folder would not contain it"
        problems.append(ProjectProblem("outside_folder", relative, site.start, site.end, message, site.target))


def _replaced_at(text: str) -> int:
    """Where a file's first undecodable byte was replaced (U+FFFD); 0 when none was."""
    return max(text.find("\ufffd"), 0)
