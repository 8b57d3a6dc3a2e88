"""`auditex batch --ray` on a real two-node Ray cluster on this machine, and its connection errors.

The cluster (tests/ray_cluster.py) is a head and a worker node of 1 CPU each, started with
`ray start`, with their own token and temporary folder. A folder hidden from the worker
node plays a shared file system that node does not see; a folder hidden from both plays
an input no node can read.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import write_project
from ray_cluster import RayCluster, can_hide_folders, free_port
from sample_paper import FILES
from test_batch import _spec, venue_kit

from auditex.batch.pool import LocalPool
from auditex.cli.main import main

pytest.importorskip("ray", reason='Ray is not installed (pip install "auditex[ray]")')

SHORT_PAPER = "\\documentclass{article}\n\\begin{document}\nSee Table~\\ref{tab:x}.\n\\end{document}\n"
_DRIVER = Path(__file__).with_name("ray_driver.py")
_WAIT_S = 300  # a driver still running by then has hung


@dataclass
class TwoNodes:
    cluster: RayCluster
    worker: subprocess.Popen
    hidden_everywhere: Path  # no node sees inside it
    hidden_on_worker: Path  # the worker node does not see inside it
    can_hide: bool

    @property
    def address(self) -> str:
        return self.cluster.address

    def needs_hiding(self) -> None:
        if not self.can_hide:
            pytest.skip("this machine lets no unprivileged user mount a folder in a namespace (unshare): no node can see other files")


def _default_sigint() -> None:
    """A child Ctrl-C reaches: the test runner may run with SIGINT ignored (an earlier test's worker setup), which a child inherits."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(scope="module")
def cluster():
    can_hide = can_hide_folders()
    with RayCluster() as running:
        everywhere, on_worker = running.root / "hidden-everywhere", running.root / "hidden-on-worker"
        everywhere.mkdir()
        on_worker.mkdir()
        running.start_node(head=True, hidden=(everywhere,) if can_hide else ())
        worker = running.start_node(hidden=(everywhere, on_worker) if can_hide else ())
        yield TwoNodes(running, worker, everywhere, on_worker, can_hide)


# A chapter long enough that checking a paper takes seconds even on a fast machine: a task killed as it starts
# is killed mid-task, never after it already sent its record.
_LONG_CHAPTER = "\\section{Long}\n" + "\n\n".join("The method reads each sentence of the chapter once more." for _ in range(10000))


def _small_venue(folder: Path, papers: int, slow: bool = False) -> Path:
    """`papers` variants of the sample paper and one short paper: distinct submissions (with `slow`, each with a
    long chapter, so that a check lasts seconds)."""
    folder.mkdir()
    for number in range(papers):
        main_tex = FILES["main.tex"].replace("81.2", f"8{number}.5")
        files = {**FILES, "main.tex": main_tex}
        if slow:
            files |= {
                "main.tex": main_tex.replace("\\input{sections/results}", "\\input{sections/results}\n\\input{long}"),
                "long.tex": _LONG_CHAPTER,
            }
        write_project(folder / f"paper-{number}", files)
    (folder / "short.tex").write_text(SHORT_PAPER)
    return folder


def _run(cluster: TwoNodes, *command: str) -> subprocess.CompletedProcess:
    """A driver of the cluster, as a process of its own (Ray reads its token settings once per process)."""
    try:
        return subprocess.run([sys.executable, *command], env=cluster.cluster.env, capture_output=True, text=True, timeout=_WAIT_S)
    except subprocess.TimeoutExpired as hung:
        pytest.fail(f"the driver did not end within {_WAIT_S} s: {hung.stderr!r:.3000}")


def _batch(cluster: TwoNodes, venue: Path, out: Path) -> subprocess.CompletedProcess:
    return _run(cluster, "-m", "auditex.cli.main", "batch", str(venue), "--out", str(out), "--ray", cluster.address)


def _driver(cluster: TwoNodes, *arguments: str) -> dict:
    done = _run(cluster, str(_DRIVER), *arguments)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_a_node_that_cannot_read_the_input_is_named_and_left_out(cluster, tmp_path):
    cluster.needs_hiding()
    venue = _small_venue(cluster.hidden_on_worker / "venue-a", papers=2)
    done = _batch(cluster, venue, tmp_path / "results")
    assert done.returncode == 0, done.stderr[-3000:]
    left_out = [line for line in done.stderr.splitlines() if "left out" in line]
    assert len(left_out) == 1 and "cannot read 3 of the 3 submissions" in left_out[0], done.stderr[-3000:]
    records = [json.loads(line) for line in (tmp_path / "results" / "findings.jsonl").read_text().splitlines()]
    assert [r["status"] for r in records] == ["ok"] * 3
    nodes = {r["node"] for r in records}
    assert len(nodes) == 1 and next(iter(nodes))[:12] not in left_out[0]  # all on the head, none on the node left out


def test_a_run_no_node_can_read_is_a_usage_error(cluster, tmp_path):
    cluster.needs_hiding()
    venue = _small_venue(cluster.hidden_everywhere / "venue-b", papers=1)
    done = _batch(cluster, venue, tmp_path / "results")
    assert done.returncode == 2, done.stderr[-3000:]
    error = done.stderr.splitlines()[-1]
    assert error.startswith("auditex: error: no node of the Ray cluster can read the submissions: node ")
    assert error.count("cannot read 2 of the 2 submissions") == 2  # both nodes, each named
    assert not (tmp_path / "results" / "findings.jsonl").exists()


def test_a_queued_task_is_timed_from_its_start_on_its_node(cluster):
    """The head's only CPU is busy for twice the time limit: the task waiting for it must still run, and pass."""
    cluster.needs_hiding()  # the worker node must not take the task
    venue = _small_venue(cluster.hidden_on_worker / "venue-c", papers=0)
    outcome = _driver(cluster, "queued", cluster.address, "4", str(venue / "short.tex"))
    assert "error" not in outcome, outcome
    assert outcome["waited_s"] > 4  # the premise: it waited for the CPU longer than the limit
    assert [(r["status"], r["node"], r["attempt"]) for r in outcome["records"]] == [("ok", outcome["head"], 1)], outcome


def test_killing_a_node_mid_run_loses_and_duplicates_nothing(cluster, tmp_path):
    """Run last of the cluster's tests: the worker node does not come back."""
    venue = _small_venue(tmp_path / "venue", papers=4, slow=True)
    submissions = sorted(venue.iterdir())
    expected: list[dict] = []
    LocalPool(2).run([_spec(path) for path in submissions], lambda spec, record: expected.append(record))
    outcome = _driver(cluster, "kill", cluster.address, str(cluster.worker.pid), *map(str, submissions))
    records, killed, head = outcome["records"], outcome["killed"], outcome["head"]
    assert killed, "no task started on the worker node"
    assert sorted(r["id"] for r in records) == sorted(path.name for path in submissions)  # nothing lost, nothing twice
    assert venue_kit.comparable(records) == venue_kit.comparable(expected)
    retried = {r["id"]: r for r in records if r["attempt"] == 2}
    assert list(retried) == killed, f"{killed} was killed mid-task and should be the one task retried: {records}"
    assert retried[killed[0]]["node"] == head and retried[killed[0]]["status"] == "ok"


def test_an_address_nothing_listens_on_is_a_usage_error_at_once(tmp_path, capsys):
    (tmp_path / "venue").mkdir()
    (tmp_path / "venue" / "short.tex").write_text(SHORT_PAPER)
    address = f"127.0.0.1:{free_port()}"
    assert main(["batch", str(tmp_path / "venue"), "--out", str(tmp_path / "out"), "--ray", address]) == 2
    assert f"auditex: error: cannot connect to the Ray cluster at {address}: Connection refused" in capsys.readouterr().err


def test_an_address_that_never_answers_as_ray_ends_within_the_connect_timeout(tmp_path):
    """A port that takes a TCP connection but where no Ray answers: ray.init would retry for minutes, deaf to signals."""
    script = (
        "import sys\n"
        "from auditex.batch.ray_pool import RayPool\n"
        "from auditex.batch.run import WorkerPoolError\n"
        "try:\n"
        "    RayPool(sys.argv[1], connect_timeout_s=3).run([], print)\n"
        "except WorkerPoolError as error:\n"
        "    print(error)\n"
    )
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        try:
            done = subprocess.run([sys.executable, "-c", script, address], capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail("connecting to a silent port did not end within 120 s")
    assert f"cannot connect to the Ray cluster at {address}: no answer within 3 s" in done.stdout, done.stderr[-2000:]


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_while_connecting_acts_at_once(tmp_path, signal_number):
    """ray.init is deaf to signals while it retries an address: the command must not be."""
    (tmp_path / "venue").mkdir()
    (tmp_path / "venue" / "short.tex").write_text(SHORT_PAPER)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        silent.settimeout(120)
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        command = [
            sys.executable,
            "-m",
            "auditex.cli.main",
            "batch",
            str(tmp_path / "venue"),
            "--out",
            str(tmp_path / "out"),
            "--ray",
            address,
        ]
        batch = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint)
        try:
            probe, _ = silent.accept()  # the reachability check: ray.init comes next
            time.sleep(5)  # well inside the 20 s connect limit, and past importing Ray on a loaded machine
            batch.send_signal(signal_number)
            _, err = batch.communicate(timeout=120)
        finally:
            batch.kill()
        probe.close()
    assert "no answer within" not in err  # it did not wait for the connect timeout
    if signal_number == signal.SIGINT:
        assert batch.returncode == 130 and "auditex: interrupted" in err, err[-2000:]
    else:
        assert batch.returncode in (-signal.SIGTERM, 128 + signal.SIGTERM), err[-2000:]
