"""What a check reads: the projects under a path, or in a submitted archive (the session opens them)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..latex.chunk_parser import ChunkParser
from ..latex.discovery import find_roots, including_root, named_root, project_folder_for
from ..latex.project import Project, ProjectProblem
from ..latex.sandbox import ProjectRoot
from ..latex.source import SOURCE_SUFFIXES
from .project_config import CONFIG_FILE, Config, load_config

if TYPE_CHECKING:
    from ..latex.submission import ExtractionLimits, Submission


class InputError(Exception):
    """The path given cannot be checked; the message is one sentence for the user."""


def project_folder(path: Path, folder: Path | None = None) -> Path:
    """The folder auditex may read for `path`: `folder` when given, else detected."""
    if not path.exists():
        raise InputError(f"'{path}' does not exist")
    return (folder or project_folder_for(path)).resolve()


def open_projects(
    path: Path,
    folder: Path | None = None,
    external_problems: list[ProjectProblem] | None = None,
    parser: ChunkParser | None = None,
    config: Config | None = None,
    boundary: Path | None = None,
) -> tuple[Path, list[Project]]:
    """The project folder and one Project per independent root file under `path`.

    A file is checked under its root: its magic comment's, itself, or the root that includes it
    (among `[project] root`/`roots` when named, else the detected roots `[rules] exclude` leaves);
    a file nothing includes is checked alone, as a fragment. Reads stay within `boundary` (default:
    read_boundary's)."""
    folder = project_folder(path, folder)
    root = ProjectRoot(folder, boundary)
    config = config if config is not None else load_config(folder)
    named = config.project.named_roots()
    for name in named:
        if not root.exists(name):
            raise InputError(f"{CONFIG_FILE} names the root file '{name}' in [project], but there is no such file in '{folder}'")
    candidates = named or [candidate for candidate in find_roots(root) if not config.is_excluded(candidate)]
    including: Project | None = None
    if path.is_file():
        relative = root.relative(path)
        if relative is None:
            raise InputError(f"'{path}' is outside the project folder '{folder}'")
        main = named_root(root, relative)
        if main is None:
            including = including_root(root, relative, candidates, parser)
            main = including.root_file if including is not None else relative
        candidates = [main]
    elif not candidates:
        excluded = " (the [rules] exclude of .auditex.toml leaves none)" if find_roots(root) else ""
        raise InputError(
            f"no LaTeX root file (with \\documentclass and \\begin{{document}}) found in '{path}'{excluded}; pass the root "
            f'file itself, or name it in {CONFIG_FILE}: root = "main.tex" under [project]'
        )
    projects: list[Project] = []
    covered: set[str] = set()
    for candidate in candidates:
        if candidate in covered:
            continue  # a second "root" that the main one includes (a subfile)
        if including is not None and not external_problems:
            project = including  # the search already walked it
        else:
            project = Project(folder, candidate, external_problems=external_problems, parser=parser, boundary=root.boundary)
        covered.update(project.files)
        projects.append(project)
    return folder, projects


def is_submission_archive(path: Path) -> bool:
    return path.is_file() and path.suffix.lower() not in SOURCE_SUFFIXES


def open_input(path: Path, limits: ExtractionLimits | None = None) -> Submission:
    """A folder, a .tex file or a submitted archive, extracted safely to a private folder."""
    from ..latex.submission import open_submission  # archives only: its settings model loads pydantic's types

    try:
        return open_submission(path, limits)
    except FileNotFoundError:
        raise InputError(f"'{path}' does not exist") from None


def refusal_problems(submission: Submission) -> list[ProjectProblem]:
    return [
        ProjectProblem(
            "archive_refusal", refusal.member, 0, 0, f"{_as_clause(refusal.reason)} ({refusal.kind.replace('_', ' ')})", refusal.member
        )
        for refusal in submission.refusals
    ]


def _as_clause(sentence: str) -> str:
    """A refusal's sentence (the CLI prints it as one) in a finding's shape: a clause, lower case, without the closing period."""
    return sentence[:1].lower() + sentence[1:].removesuffix(".")
