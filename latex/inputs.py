"""What checking a folder reads from the disk, as digests: enough to tell later that none of it changed.

A check's outcome depends on which paths exist under its folder (an include
resolves or is missing, a second root file appears), on the text of every .tex
file (root files are sought among them, and rules read the other roots), and on
the text of every file its projects read (any suffix: `\\input{notes.txt}`).
`scan_tree` lists the first two; `read_digest` is how a file's text, as the
project reads it, is compared.
"""

from __future__ import annotations

import os
from pathlib import Path

from .record import record
from .sandbox import ProjectRoot, ReadResult
from .source import TEX_SUFFIXES, content_hash, value_hash

# Past this many paths, listing the folder is no longer cheap next to checking it.
MAX_TREE_ENTRIES = 20_000


@record
class Tree:
    digest: str  # every path under the folder, its kind and, for a link, where it points
    tex_files: list[str]  # project-relative .tex paths, sorted


def scan_tree(folder: Path, limit: int = MAX_TREE_ENTRIES) -> Tree | None:
    """The folder's paths as one digest, and its .tex files; None past `limit` paths."""
    entries: list[tuple[str, str]] = []
    tex_files: list[str] = []
    for directory, folders, files in os.walk(folder):  # links are listed, never followed
        folders.sort()
        base = Path(directory).relative_to(folder)
        for name, plain_kind in [*((name, "folder") for name in folders), *((name, "file") for name in files)]:
            path = Path(directory, name)
            relative = (base / name).as_posix()
            kind = "link:" + os.readlink(path) if path.is_symlink() else plain_kind
            entries.append((relative, kind))
            if kind != "folder" and relative.endswith(TEX_SUFFIXES):
                tex_files.append(relative)
        if len(entries) > limit:
            return None
    return Tree(value_hash(sorted(entries)), sorted(tex_files))


def read_digest(read: ReadResult) -> str:
    """A file's text as the project reads it, with what the read reported (invalid UTF-8, too large)."""
    return text_digest(content_hash(read.text), read.problem)


def text_digest(text_hash: str, problem: str | None) -> str:
    return value_hash((text_hash, problem))


def file_digests(root: ProjectRoot, files: list[str]) -> dict[str, str]:
    return {relative: read_digest(root.read(relative)) for relative in files}
