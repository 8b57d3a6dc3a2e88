"""Finding a project's folder and its root file(s)."""

from __future__ import annotations

import re
from pathlib import Path

from .sandbox import ProjectRoot

_MAGIC_ROOT = re.compile(r"^\s*%\s*!\s*T[eE]X\s+root\s*=\s*(\S.*?)\s*$", re.MULTILINE)
_DOCUMENTCLASS = re.compile(r"^[^%\n]*\\documentclass", re.MULTILINE)
_BEGIN_DOCUMENT = re.compile(r"^[^%\n]*\\begin\s*\{document\}", re.MULTILINE)
_PREFERRED_NAMES = ("main.tex", "ms.tex", "paper.tex", "manuscript.tex", "article.tex", "thesis.tex")
_PROJECT_MARKERS = (".auditex.toml", ".git", ".latexmkrc", "latexmkrc")
_HEAD_BYTES = 200_000  # magic comments and \documentclass sit at the top


def project_folder_for(path: Path) -> Path:
    """The folder auditex may read from, for a file or folder the user named."""
    path = path.resolve()
    if path.is_dir():
        return path
    for ancestor in [path.parent, *path.parent.parents][:4]:
        if any((ancestor / marker).exists() for marker in _PROJECT_MARKERS):
            return ancestor
    return path.parent


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


def root_for_file(root: ProjectRoot, relative: str) -> str | None:
    """The root file that governs `relative`: itself, its magic comment, or a root in the folder."""
    text = root.read(relative).text[:_HEAD_BYTES]
    magic = magic_root(text)
    if magic:
        base = str(Path(relative).parent) if "/" in relative else ""
        resolution = root.resolve(magic, "" if base == "." else base)
        if resolution.relative and root.exists(resolution.relative):
            return resolution.relative
    if is_root_text(text):
        return relative
    roots = find_roots(root)
    return roots[0] if roots else None
