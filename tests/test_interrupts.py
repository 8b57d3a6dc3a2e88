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
