"""Finding a project's folder and its root file(s), as LaTeX tools do.

A file names its root with a `% !TEX root = …` magic comment; a root file has
`\\documentclass` and `\\begin{document}`; any other file belongs to the root
that includes it, looked for upward from the file. A file that no root includes
is a fragment and is checked on its own, never replaced by another paper.
"""

from __future__ import annotations

import re
from pathlib import Path

from .chunk_parser import ChunkParser
from .deferred_pattern import DeferredPattern
from .project import Project
from .sandbox import ProjectRoot

_MAGIC_ROOT = DeferredPattern(r"^\s*%\s*!\s*T[eE]X\s+root\s*=\s*(\S.*?)\s*$", re.MULTILINE)
_DOCUMENTCLASS = DeferredPattern(r"^[^%\n]*\\documentclass", re.MULTILINE)
_BEGIN_DOCUMENT = DeferredPattern(r"^[^%\n]*\\begin\s*\{document\}", re.MULTILINE)
_PREFERRED_NAMES = ("main.tex", "ms.tex", "paper.tex", "manuscript.tex", "article.tex", "thesis.tex")
_PROJECT_MARKERS = (".auditex.toml", ".git", ".latexmkrc", "latexmkrc")
_HEAD_BYTES = 200_000  # magic comments and \documentclass sit at the top
# How far above a file its root, or its project's marker, is looked for.
_LEVELS_UP = 4


def project_folder_for(path: Path) -> Path:
    """The folder auditex may read from, for a file or folder the user named: the folder of the
    file's root (or of the file), widened to a project marker (`.git`, `.auditex.toml`) just above."""
    path = path.resolve()
    if path.is_dir():
        return path
    root_file = _governing_root_on_disk(path)
    folder = path.parent
    if root_file is not None and root_file.parent not in (folder, *folder.parents):
        folder = Path(*_common_parts(folder, root_file.parent))  # a magic comment naming a sibling folder's root
    elif root_file is not None:
        folder = root_file.parent
    for ancestor in [folder, *folder.parents][:_LEVELS_UP]:
        if _has_marker(ancestor):
            return ancestor
    return folder


def _has_marker(folder: Path) -> bool:
    return any((folder / marker).exists() for marker in _PROJECT_MARKERS)


def _common_parts(a: Path, b: Path) -> list[str]:
    common: list[str] = []
    for left, right in zip(a.parts, b.parts, strict=False):
        if left != right:
            break
        common.append(left)
    return common


def _governing_root_on_disk(path: Path) -> Path | None:
    """The root of a file named on the command line, before its project folder is known: its magic
    comment's, itself, or a root file in a folder above it (up to a project marker) that includes it."""
    ancestors = [path.parent, *path.parent.parents][:_LEVELS_UP]
    for level, folder in enumerate(ancestors):
        root = ProjectRoot(folder)
        relative = root.relative(path)
        if relative is None:
            continue
        text = root.read(relative).text[:_HEAD_BYTES]
        magic = magic_root(text)
        if level == 0 and magic:
            named = (path.parent / magic).resolve()
            return named if named.is_file() else None
        if level == 0 and is_root_text(text):
            return path
        found = including_root(root, relative, _roots_in(root))
        if found is not None:
            return folder / found.root_file
        if _has_marker(folder):
            break  # a repository's root is as far up as a project goes
    return None


def _roots_in(root: ProjectRoot) -> list[str]:
    """The root files directly in a folder (not in its subfolders: a folder above holds other papers)."""
    candidates = [path.name for path in sorted(root.folder.glob("*.tex")) if is_root_text(root.read(path.name).text[:_HEAD_BYTES])]
    return sorted(candidates, key=_root_preference)


def is_root_text(text: str) -> bool:
    return bool(_DOCUMENTCLASS.search(text) and _BEGIN_DOCUMENT.search(text))


def magic_root(text: str) -> str | None:
    head = "\n".join(text.splitlines()[:20])
    match = _MAGIC_ROOT.search(head)
    return match.group(1) if match else None


def find_roots(root: ProjectRoot, limit: int = 2000) -> list[str]:
    """Root files in a folder, the most likely main file first."""
    candidates: list[str] = []
    for count, path in enumerate(sorted(root.folder.rglob("*.tex"))):
        if count >= limit:
            break
        relative = root.relative(path)
        if relative is None or any(part.startswith(".") for part in Path(relative).parts):
            continue
        text = root.read(relative).text[:_HEAD_BYTES]
        if is_root_text(text):
            candidates.append(relative)
    return sorted(candidates, key=_root_preference)


def _root_preference(relative: str) -> tuple[int, int, str]:
    name = Path(relative).name
    preferred = _PREFERRED_NAMES.index(name) if name in _PREFERRED_NAMES else len(_PREFERRED_NAMES)
    return relative.count("/"), preferred, relative


def including_root(root: ProjectRoot, relative: str, candidates: list[str], parser: ChunkParser | None = None) -> Project | None:
    """The project of the first candidate root whose include graph reaches `relative`."""
    for candidate in candidates:
        if candidate == relative:
            continue
        project = Project(root.folder, candidate, parser=parser, boundary=root.boundary)
        if relative in project.files:
            return project
    return None


def unfound_magic_root(root: ProjectRoot, relative: str) -> str | None:
    """The root a file's `% !TEX root = …` magic comment names, when no such file exists (the comment is then ignored)."""
    magic = magic_root(root.read(relative).text[:_HEAD_BYTES])
    return magic if magic and named_root(root, relative) in (None, relative) else None


def named_root(root: ProjectRoot, relative: str) -> str | None:
    """The root a file names itself: its magic comment's, or itself when it is a root file."""
    text = root.read(relative).text[:_HEAD_BYTES]
    magic = magic_root(text)
    if magic:
        base = str(Path(relative).parent) if "/" in relative else ""
        resolution = root.resolve(magic, "" if base == "." else base)
        if resolution.relative and root.exists(resolution.relative):
            return resolution.relative
    return relative if is_root_text(text) else None


def root_for_file(root: ProjectRoot, relative: str, candidates: list[str] | None = None) -> str | None:
    """The root file that governs `relative`: itself, its magic comment's, or the first of `candidates`
    (default: the folder's roots) that includes it; None for a fragment that nothing includes."""
    named = named_root(root, relative)
    if named is not None:
        return named
    found = including_root(root, relative, find_roots(root) if candidates is None else candidates)
    return found.root_file if found is not None else None


def is_fragment(root: ProjectRoot, relative: str) -> bool:
    """A checked file that is no root file: nothing in its project includes it."""
    return not is_root_text(root.read(relative).text[:_HEAD_BYTES])
