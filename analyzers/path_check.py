"""Checking a path once, as `auditex check` does: a session opened on it and checked.

The CLI, batch and the benchmarks start here; the server keeps sessions of its own
(analyzers/session.py) and feeds them the editor's changes.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..latex.project import ProjectProblem
from .engine import RuleEngines
from .project_config import Config, RuleOptions, load_config
from .projects import InputError, is_submission_archive, open_input, project_folder, refusal_problems
from .session import Session

if TYPE_CHECKING:
    from ..latex.submission import ExtractionLimits


def check_path(
    path: Path,
    folder: Path | None = None,
    config: Config | None = None,
    external_problems: list[ProjectProblem] | None = None,
    options: RuleOptions | None = None,
    use_cache: bool = True,
    progress: Callable[[str], None] | None = None,
    parse_workers: int | None = None,
) -> Session:
    """A session on `path`, checked once: what `auditex check` does.

    `config` (default: the folder's `.auditex.toml`, ConfigError when it is invalid) with the command
    line's `options` on top; `use_cache` reads and keeps results in the analysis cache (unless
    AUDITEX_NO_CACHE is set): a folder where nothing changed since its last check under the same
    settings is answered from that check's record. `parse_workers` processes parse large projects
    (None: every core; 1: this process only). A `folder` given is the project: nothing outside it
    is read, though it lies in a git work tree; a folder detected reads as read_boundary says."""
    named = folder is not None
    folder = project_folder(path, folder)

    def configure(folder: Path) -> Config:
        chosen = config or load_config(folder, strict=True)
        return chosen.with_options(options) if options is not None else chosen

    session = Session(
        folder,
        path=path,
        configure=configure,
        rules=RuleEngines(),
        use_cache=use_cache,
        parse_workers=parse_workers,
        progress=progress,
        external_problems=external_problems,
        boundary=folder if named else None,
    )
    with rare_full_collections():
        session.check()
    return session


@contextmanager
def rare_full_collections() -> Iterator[None]:
    """A check's heap (the parsed files, their index and blocks) lives until the check ends, so the collector's
    full passes re-scan all of it as it grows and free next to nothing: 13 passes, 1.1 s of hott_book's 11 s cold
    check, freed 7,500 of its 320,000 objects. Young objects are still collected; the thresholds are set back
    when the last of the checks running at once (a batch runs several in threads) ends."""
    with _COLLECTIONS.lock:
        if _COLLECTIONS.checks == 0:
            _COLLECTIONS.saved = gc.get_threshold()
            gc.set_threshold(_COLLECTIONS.saved[0], _COLLECTIONS.saved[1], _FULL_PASS_RARELY)
        _COLLECTIONS.checks += 1
    try:
        yield
    finally:
        with _COLLECTIONS.lock:
            _COLLECTIONS.checks -= 1
            if _COLLECTIONS.checks == 0:
                gc.set_threshold(*_COLLECTIONS.saved)


@dataclass
class _Collections:
    """The collector's thresholds as they were before the checks running now, and how many run."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    checks: int = 0
    saved: tuple[int, ...] = ()


_COLLECTIONS = _Collections()
_FULL_PASS_RARELY = 1000  # middle-generation passes per full pass (the default 10): a book's check makes about 180


@contextmanager
def checked_input(
    path: Path,
    project_root: Path | None = None,
    options: RuleOptions | None = None,
    limits: ExtractionLimits | None = None,
    use_cache: bool = True,
    progress: Callable[[str], None] | None = None,
    parse_workers: int | None = None,
) -> Iterator[Session]:
    """A checked session on a folder, a .tex file or a submitted archive; an archive stays extracted inside the block.

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
        # Every root, as a check of the extracted folder would: a supplement is checked beside the paper.
        yield check_path(
            submission.folder,
            submission.folder,
            external_problems=refusal_problems(submission),
            options=options,
            use_cache=False,
            progress=progress,
            parse_workers=parse_workers,
        )
