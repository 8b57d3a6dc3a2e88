"""Checking a path: the one entry point the CLI and the server share."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..latex.discovery import find_roots, project_folder_for, root_for_file
from ..latex.project import Project
from ..latex.sandbox import ProjectRoot
from .config import Config, load_config
from .dismissals import Dismissals
from .engine import Engine
from .finding import Finding


class InputError(Exception):
    """The path given cannot be checked; the message is one sentence for the user."""


@dataclass
class CheckResult:
    folder: Path
    roots: list[str]
    findings: list[Finding]
    projects: list[Project] = field(default_factory=list)
    config: Config = field(default_factory=Config)


def open_projects(path: Path, folder: Path | None = None) -> tuple[Path, list[Project]]:
    """The project folder and one Project per independent root file under `path`."""
    if not path.exists():
        raise InputError(f"'{path}' does not exist")
    folder = (folder or project_folder_for(path)).resolve()
    root = ProjectRoot(folder)
    if path.is_file():
        relative = root.relative(path)
        if relative is None:
            raise InputError(f"'{path}' is outside the project folder '{folder}'")
        main = root_for_file(root, relative) or relative
        roots = [main]
    else:
        roots = find_roots(root)
        if not roots:
            raise InputError(f"no LaTeX root file (with \\documentclass and \\begin{{document}}) found in '{path}'")
    projects: list[Project] = []
    covered: set[str] = set()
    for candidate in roots:
        if candidate in covered:
            continue  # a second "root" that the main one includes (a subfile)
        project = Project(folder, candidate)
        covered.update(project.files)
        projects.append(project)
    return folder, projects


def check_path(path: Path, folder: Path | None = None, config: Config | None = None) -> CheckResult:
    folder, projects = open_projects(path, folder)
    config = config or load_config(folder)
    engine = Engine(config=config, dismissals=Dismissals(folder))
    findings: dict[str, Finding] = {}
    for project in projects:
        for finding in engine.check(project):
            # Files shared by two roots (a supplement) are reported once.
            findings.setdefault(finding.fingerprint, finding)
    ordered = sorted(findings.values(), key=lambda f: (f.file, f.range.start.line, f.range.start.character, f.code))
    return CheckResult(folder, [p.root_file for p in projects], ordered, projects, config)
