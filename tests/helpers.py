"""Small helpers to write LaTeX projects in tests."""

from __future__ import annotations

from pathlib import Path

from auditex.latex.project import Project


def write_project(folder: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


def make_project(folder: Path, files: dict[str, str | bytes], root: str = "main.tex") -> Project:
    write_project(folder, files)
    return Project(folder, root)


def document(body: str, preamble: str = "") -> str:
    return f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n{body}\n\\end{{document}}\n"
