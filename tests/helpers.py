"""Helpers to write LaTeX projects in tests and to run rules on them."""

from __future__ import annotations

import importlib.util
import io
import re
import sys
import tarfile
import types
from dataclasses import dataclass, field
from pathlib import Path

from auditex.analyzers.finding import Finding
from auditex.analyzers.path_check import check_path
from auditex.latex.project import Project


def benchmark(name: str) -> types.ModuleType:
    """The script benchmarks/<name>.py as a module, for a test of its functions."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parents[1] / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


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


def rule_findings(folder: Path, files: dict[str, str | bytes] | str, *codes: str) -> list[Finding]:
    """What `auditex check` reports, in report order, on a project written from `files` (a string
    is the whole main.tex), kept to the codes that start with one of `codes` (all when none)."""
    write_project(folder, {"main.tex": files} if isinstance(files, str) else files)
    return [finding for finding in check_path(folder).findings if finding.code.startswith(codes or ("",))]


# Rule fixtures (tests/rules/<CODE>/*.tex): the format is described in tests/rules/README.md.

FILE_MARKER = re.compile(r"^%% file: (?P<name>\S+)(?: \((?P<encoding>[\w-]+)\))?$")
LINK_MARKER = re.compile(r"^%% link: (?P<name>\S+) -> (?P<target>\S+)$")
ARCHIVE_MARKER = re.compile(r"^%% archive: (?P<name>\S+\.(?:tar|tar\.gz|tgz))$")
EXPECT_MARKER = re.compile(r"[ \t]*% expect: (?P<codes>[A-Z]+[0-9]+(?:, *[A-Z]+[0-9]+)*)[ \t]*$")


@dataclass
class RuleFixture:
    """One fixture file read: the project it writes and the findings it expects."""

    files: dict[str, str | bytes] = field(default_factory=dict)
    expected: list[tuple[str, int, str]] = field(default_factory=list)  # (file, 0-based line, code)
    links: dict[str, str] = field(default_factory=dict)  # archive member name → link target
    archive: str | None = None  # pack the files into this archive and check it, as a submission

    @classmethod
    def read(cls, path: Path) -> RuleFixture:
        fixture = cls()
        name, encoding, lines = "main.tex", "utf-8", []

        def close() -> None:
            if name == "main.tex" and not lines and "main.tex" not in fixture.files:
                return  # the fixture opens with a `%% file:` marker: no main.tex before it
            text = "".join(lines)
            fixture.files[name] = text if encoding == "utf-8" else text.encode(encoding)

        for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
            stripped = line.rstrip("\n")
            expect = EXPECT_MARKER.search(stripped)
            codes = [code.strip() for code in expect["codes"].split(",")] if expect else []
            if expect:
                stripped = stripped[: expect.start()]
            if match := FILE_MARKER.match(stripped):
                close()
                name, encoding, lines = match["name"], match["encoding"] or "utf-8", []
            elif match := LINK_MARKER.match(stripped):
                fixture.links[match["name"]] = match["target"]
                fixture.expected += [(match["name"], 0, code) for code in codes]  # a link has no lines
            elif match := ARCHIVE_MARKER.match(stripped):
                fixture.archive = match["name"]
            else:
                fixture.expected += [(name, len(lines), code) for code in codes]
                lines.append(stripped + line[len(line.rstrip("\n")) :])
        close()
        return fixture

    def write(self, folder: Path) -> Path:
        """The path to check: the project folder, or the archive packed from the files."""
        if self.archive is None:
            write_project(folder, self.files)
            return folder
        target = folder / self.archive
        folder.mkdir(parents=True, exist_ok=True)
        members = {name: content.encode("utf-8") if isinstance(content, str) else content for name, content in self.files.items()}
        with tarfile.open(target, "w" if target.suffix == ".tar" else "w:gz") as archive:
            for name, data in members.items():
                info = tarfile.TarInfo(name)
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
            for name, link in self.links.items():
                info = tarfile.TarInfo(name)
                info.type, info.linkname = tarfile.SYMTYPE, link
                archive.addfile(info)
        return target
