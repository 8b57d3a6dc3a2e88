"""Record every file the process opens during a block, to prove nothing leaks out of a root.

    with record_opens() as opened:
        open_submission(archive)
    assert opened.outside(folder, archive) == []
    assert opened.written_outside(folder) == []

Built on the "open" audit event, which builtins.open, io.open, io.open_code,
os.open and FileIO all raise, and on "os.mkdir" for folders created. Audit
hooks cannot be removed, so one hook is installed lazily per process and
forwards to the recorders currently active (test tooling, so a module-level
registry is fine).
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
import sysconfig
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC

# Opens that say nothing about a manuscript leaking: the interpreter's own
# libraries, code being imported (and its bytecode cache), and kernel files.
_IGNORED_FOLDERS = tuple(
    Path(folder).resolve() for folder in {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
)
_IGNORED_SUFFIXES = (*importlib.machinery.all_suffixes(), ".pyc", ".pth")
_IGNORED_SYSTEM = (Path("/proc"), Path("/sys"), Path("/dev/null"), Path("/dev/urandom"))


@dataclass(frozen=True)
class OpenEvent:
    path: Path
    writes: bool


@dataclass
class OpenedFiles:
    """The files opened (and folders created) while the recorder was active, in order."""

    events: list[OpenEvent] = field(default_factory=list)

    @property
    def paths(self) -> list[Path]:
        return list(dict.fromkeys(event.path for event in self.events))

    @property
    def written(self) -> list[Path]:
        return list(dict.fromkeys(event.path for event in self.events if event.writes))

    def outside(self, *roots: Path) -> list[Path]:
        """Opened paths that are under none of `roots` (files or folders), ignored ones aside."""
        return _outside(self.paths, roots)

    def written_outside(self, *roots: Path) -> list[Path]:
        return _outside(self.written, roots)


def _outside(paths: list[Path], roots: tuple[Path, ...]) -> list[Path]:
    allowed = tuple(Path(root).resolve() for root in roots)
    return [path for path in paths if not _is_under(path, allowed) and not _ignored(path)]


def _is_under(path: Path, roots: tuple[Path, ...]) -> bool:
    return any(path == root or path.is_relative_to(root) for root in roots)


def _ignored(path: Path) -> bool:
    return path.name.endswith(_IGNORED_SUFFIXES) or _is_under(path, _IGNORED_FOLDERS) or _is_under(path, _IGNORED_SYSTEM)


_active: list[OpenedFiles] = []
_hook_installed = False


def _hook(event: str, args: tuple) -> None:
    if not _active or event not in ("open", "os.mkdir"):
        return
    target = args[0]
    if isinstance(target, int):  # wrapping an already-open descriptor opens nothing new
        return
    if event == "open":
        mode, flags = args[1], args[2]
        writes = bool(flags & _WRITE_FLAGS) or (isinstance(mode, str) and any(m in mode for m in "wax+"))
    else:
        writes = True
    name = os.fsdecode(target)
    if not os.path.isabs(name) and ".." not in Path(name).parts:
        # Relative names come from dir_fd-based walks (shutil.rmtree of our own
        # temp folder); the event does not carry the dir_fd, so they cannot be
        # resolved, and a name without ".." cannot climb out of its directory.
        return
    # realpath only stats, so it raises no "open" event and cannot recurse into this hook.
    recorded = OpenEvent(Path(os.path.realpath(name)), writes)
    for opened in _active:
        opened.events.append(recorded)


@contextmanager
def record_opens() -> Iterator[OpenedFiles]:
    global _hook_installed
    if not _hook_installed:
        sys.addaudithook(_hook)
        _hook_installed = True
    opened = OpenedFiles()
    _active.append(opened)
    try:
        yield opened
    finally:
        _active.remove(opened)


@pytest.fixture
def open_recorder() -> Callable[[], AbstractContextManager[OpenedFiles]]:
    """The `record_opens` context manager: `with open_recorder() as opened: ...`."""
    return record_opens
