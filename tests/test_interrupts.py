"""A cold check parses a large paper in worker processes: Ctrl-C or SIGTERM to the whole process group (what a
terminal and a batch send) ends it without a traceback from any worker, and a check killed outright leaves
no worker behind (the real command, real processes)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import document, write_project


def _word(index: int) -> str:
    """A word of its own for each sentence (letters only: no number for the rules to read), so that no two chunks
    are alike and none is parsed once for all."""
    letters = ""
    while True:
        index, rest = divmod(index, 26)
        letters += chr(ord("a") + rest)
        if not index:
            return letters


# Enough distinct text that the parse runs in workers (latex/chunk_parser.py) for several seconds.
TEXT = "".join(
    ("\\section{Part}\n" if index % 400 == 0 else "") + f"The method reads the {_word(index)} paragraph once and keeps it. "
    for index in range(40_000)
)


def _children(pid: int) -> list[int]:
    children = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if entry.name.isdigit() and int(fields[1]) == pid:
            children.append(int(entry.name))
    return children


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _started_check(tmp_path: Path) -> tuple[subprocess.Popen[str], list[int]]:
    """`auditex check` on a large paper, in a process group of its own, once its parse workers run."""
    folder = write_project(tmp_path / "paper", {"main.tex": document(TEXT)})
    command = [sys.executable, "-m", "auditex.cli.main", "check", str(folder), "--no-cache"]
    check = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True, preexec_fn=_default_signals
    )
    deadline = time.monotonic() + 120
    # Every worker started (the pool forks them one by one), and past its set-up.
    while len(workers := _children(check.pid)) < len(os.sched_getaffinity(0)):
        if check.poll() is not None or time.monotonic() > deadline:
            check.kill()
            raise AssertionError(f"the check never started its parse workers: {check.communicate()[1]}")
        time.sleep(0.05)
    time.sleep(0.5)
    return check, workers


def _default_signals() -> None:
    """The test runner may ignore SIGINT (an earlier test's worker setup), which a child inherits."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(("stop", "code", "said"), [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")])
def test_a_signal_to_the_process_group_stops_the_check_without_a_traceback(tmp_path, stop, code, said):
    check, workers = _started_check(tmp_path)
    os.killpg(check.pid, stop)
    _, stderr = check.communicate(timeout=60)
    assert check.returncode == code
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr and "Terminated" not in stderr, stderr
    assert stderr.strip().endswith(f"auditex: {said}")
    assert not [worker for worker in workers if _alive(worker)]


def test_workers_exit_when_their_check_is_killed(tmp_path):
    check, workers = _started_check(tmp_path)
    check.kill()  # SIGKILL to the check alone, as a timeout does: it cannot stop its workers
    check.wait(timeout=30)
    deadline = time.monotonic() + 30
    while [worker for worker in workers if _alive(worker)] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [worker for worker in workers if _alive(worker)], "parse workers outlived their parent"


def test_a_worker_is_forked_with_both_signals_held_until_it_ignores_them(tmp_path, monkeypatch):
    # A Ctrl-C that reaches a worker between its fork and its set-up printed "Exception ignored in _after_fork ...
    # KeyboardInterrupt": the worker must take neither signal before it ignores them.
    from auditex.latex import chunk_parser

    start_worker = chunk_parser._start_worker

    def recording_start(parent: int) -> None:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        (tmp_path / str(os.getpid())).write_text(" ".join(sorted(signal.Signals(number).name for number in held)))
        start_worker(parent)

    monkeypatch.setattr(chunk_parser, "_start_worker", recording_start)
    texts = {str(index): f"The {_word(index)} paragraph.\n\n" * 400 for index in range(40)}
    with chunk_parser.ChunkParser(workers=2) as parser:
        assert len(parser.parse(texts, "main.tex")) == len(texts)
    held_by_workers = [path.read_text().split() for path in tmp_path.iterdir()]
    assert held_by_workers and all({"SIGINT", "SIGTERM"} <= set(held) for held in held_by_workers)
    assert not {signal.SIGINT, signal.SIGTERM} & signal.pthread_sigmask(signal.SIG_BLOCK, [])  # the parent's mask is back


def test_a_ctrl_c_while_the_command_loads_is_one_line(monkeypatch, capsys):
    from auditex.cli import main as entry

    def interrupted(name: str, package: str | None = None) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(entry.importlib, "import_module", interrupted)
    assert entry.main(["check", "."]) == 130
    assert capsys.readouterr().err == "auditex: interrupted\n"
