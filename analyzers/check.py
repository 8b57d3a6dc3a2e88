"""Checking a path: the one entry point the CLI and the server share."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ..latex.chunk_parser import ChunkParser
from ..latex.discovery import find_roots, including_root, is_fragment, named_root, project_folder_for
from ..latex.project import Project, ProjectProblem
from ..latex.sandbox import ProjectRoot
from ..latex.source import SOURCE_SUFFIXES
from ..latex.submission import ExtractionLimits, Submission, open_submission
from .analysis_cache import AnalysisCache, cache_disabled
from .check_record import KeptCheck
from .dismissals import Dismissals
from .engine import Engine
from .finding import Finding
from .policy import distinct
from .project_config import CONFIG_FILE, Config, RuleOptions, load_config


class InputError(Exception):
    """The path given cannot be checked; the message is one sentence for the user."""


@dataclass
class CheckResult:
    folder: Path
    roots: list[str]
    findings: list[Finding]
    # The checked projects; a check served whole from the analysis cache opens them on first use.
    opened: Callable[[], list[Project]] = field(repr=False)
    config: Config = field(default_factory=Config)

    @cached_property
    def projects(self) -> list[Project]:
        return self.opened()

    @cached_property
    def fragments(self) -> list[str]:
        """The checked files that are no root file: nothing includes them, each was checked alone."""
        return [file for file in self.roots if is_fragment(ProjectRoot(self.folder), file)]


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
) -> tuple[Path, list[Project]]:
    """The project folder and one Project per independent root file under `path`.

    A file is checked under its root: its magic comment's, itself, or the root that includes it
    (among `[project] root`/`roots` when named, else the detected roots `[rules] exclude` leaves);
    a file nothing includes is checked alone, as a fragment."""
    folder = project_folder(path, folder)
    root = ProjectRoot(folder)
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
        raise InputError(f"no LaTeX root file (with \\documentclass and \\begin{{document}}) found in '{path}'{excluded}")
    projects: list[Project] = []
    covered: set[str] = set()
    for candidate in candidates:
        if candidate in covered:
            continue  # a second "root" that the main one includes (a subfile)
        if including is not None and not external_problems:
            project = including  # the search already walked it
        else:
            project = Project(folder, candidate, external_problems=external_problems, parser=parser)
        covered.update(project.files)
        projects.append(project)
    return folder, projects


def is_submission_archive(path: Path) -> bool:
    return path.is_file() and path.suffix.lower() not in SOURCE_SUFFIXES


def open_input(path: Path, limits: ExtractionLimits | None = None) -> Submission:
    """A folder, a .tex file or a submitted archive, extracted safely to a private folder."""
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


@contextmanager
def checked_input(
    path: Path,
    project_root: Path | None = None,
    options: RuleOptions | None = None,
    limits: ExtractionLimits | None = None,
    use_cache: bool = True,
    progress: Callable[[str], None] | None = None,
    parse_workers: int | None = None,
) -> Iterator[CheckResult]:
    """Check a folder, a .tex file or a submitted archive; an archive stays extracted inside the block.

    An archive is checked as a reviewer would: extracted safely to a private
    folder (removed afterwards), its refused members reported, and nothing of it
    kept in the analysis cache. `parse_workers` as in check_path.
    """
    if not is_submission_archive(path):
        yield check_path(path, project_root, options=options, use_cache=use_cache, progress=progress, parse_workers=parse_workers)
        return
    with open_input(path, limits) as submission:
        if submission.root_file is None:
            # What stopped the extraction, or what was refused, is the cause: it comes first.
            causes = " ".join(refusal.reason for refusal in submission.refusals[:3])
            missing = "no LaTeX root file (with \\documentclass and \\begin{document}) was found"
            raise InputError(f"'{path}': {causes} So {missing} in it." if causes else f"{missing} in '{path}'")
        yield check_path(
            submission.root_file,
            submission.folder,
            external_problems=refusal_problems(submission),
            options=options,
            use_cache=False,
            progress=progress,
            parse_workers=parse_workers,
        )


def check_path(
    path: Path,
    folder: Path | None = None,
    config: Config | None = None,
    external_problems: list[ProjectProblem] | None = None,
    options: RuleOptions | None = None,
    use_cache: bool = True,
    progress: Callable[[str], None] | None = None,
    parse_workers: int | None = None,
) -> CheckResult:
    """Check every project under `path` under `config` (default: the folder's `.auditex.toml`, ConfigError
    when it is invalid) with the command line's `options` on top; `use_cache` reads and keeps results in
    the analysis cache (unless AUDITEX_NO_CACHE is set): a folder where nothing changed since its last
    check under the same settings is answered from that check's record. `progress` hears what is being done, and
    `parse_workers` processes parse large projects (None: every core; 1: this process only)."""
    folder = project_folder(path, folder)
    cache = AnalysisCache(folder) if use_cache and not cache_disabled() else None
    config = config or load_config(folder, strict=True)
    if options is not None:
        config = config.with_options(options)
    root, relative = ProjectRoot(folder), ProjectRoot(folder).relative(path)
    # A path outside the folder has no record: open_projects says what is wrong with it.
    kept = KeptCheck(cache, root, relative, config) if cache is not None and relative is not None and not external_problems else None
    record = kept.reuse() if kept is not None else None
    if record is not None:
        return CheckResult(
            folder,
            record.roots,
            record.findings,
            lambda: open_projects(path, folder, parser=ChunkParser(cache, workers=1), config=config)[1],
            config,
        )
    if kept is not None:
        kept.before()
    # Files are parsed in worker processes where that pays; they stop when the check is done.
    with ChunkParser(cache, workers=parse_workers, progress=progress) as parser:
        folder, projects = open_projects(path, folder, external_problems, parser, config)
        engine = Engine(config=config, dismissals=Dismissals(folder), cache=cache)
        checked: list[Finding] = []
        for number, project in enumerate(projects, 1):
            if progress:
                progress(f"checking {project.root_file}" + (f" ({number}/{len(projects)})" if len(projects) > 1 else ""))
            checked += engine.check(project)
            engine.save()
    result = CheckResult(folder, [p.root_file for p in projects], distinct(checked), lambda: projects, engine.config)
    if kept is not None:
        kept.keep(projects, result.roots, result.findings)
    return result
