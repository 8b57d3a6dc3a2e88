"""The driver side of the two-node Ray tests, run as a process of its own.

Ray reads its token settings (RAY_AUTH_MODE, RAY_AUTH_TOKEN_PATH) when it is imported,
so a driver of the test cluster starts with them in its environment. Each command
prints one JSON line for the test to read:

    python tests/ray_driver.py kill ADDRESS WORKER_PGID SUBMISSION...
        runs the submissions and kills the worker node's process group when the first
        task starts there
    python tests/ray_driver.py queued ADDRESS HARD_LIMIT_S SUBMISSION
        holds the head's CPU for twice the hard time limit, then runs the submission
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from auditex.batch.ray_pool import RayPool
from auditex.batch.task import Limits, TaskSpec
from auditex.batch.venue import content_hash


def _spec(path: str) -> TaskSpec:
    return TaskSpec(id=Path(path).name, path=path, content_hash=content_hash(Path(path)))


def _connect(address: str) -> str:
    """Join the cluster; the node this driver joined (the head), by id."""
    ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
    return ray.get_runtime_context().get_node_id()


def _process_tree(root: int) -> list[int]:
    """`root` and every process descended from it, read from /proc."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    tree, frontier = [root], [root]
    while frontier:
        children = [pid for pid, parent in parents.items() if parent in frontier]
        tree += children
        frontier = children
    return tree


def kill(address: str, worker_pgid: str, *submissions: str) -> dict:
    head = _connect(address)
    records: list[dict] = []
    killed: list[str] = []

    def kill_the_worker_node(spec: TaskSpec, node: str) -> None:
        if node != head and not killed:  # its first task has just started: a cold worker takes a second or more
            killed.append(spec.id)
            # The whole node as when its machine dies: its process group, and the task processes its raylet
            # started in groups of their own, which would otherwise finish the task and report it.
            for pid in _process_tree(int(worker_pgid)):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            os.killpg(int(worker_pgid), signal.SIGKILL)

    RayPool(address).run([_spec(path) for path in submissions], lambda spec, record: records.append(record), kill_the_worker_node)
    return {"head": head, "killed": killed, "records": records}


def queued(address: str, hard_limit_s: str, submission: str) -> dict:
    limit = float(hard_limit_s)
    Limits.hard_time_s = property(lambda self: limit)  # the pool reads it on the driver only
    head = _connect(address)
    busy = Path(tempfile.mkdtemp()) / "busy"
    blocker = ray.remote(num_cpus=1)(subprocess.call).options(scheduling_strategy=NodeAffinitySchedulingStrategy(head, soft=False))
    blocker.remote(["sh", "-c", f"touch '{busy}' && sleep {2 * limit:g}"])
    deadline = time.monotonic() + 120
    while not busy.exists():
        if time.monotonic() > deadline:
            return {"error": "the task holding the head's CPU never started"}
        time.sleep(0.2)
    records: list[dict] = []
    started = time.monotonic()
    RayPool(address).run([_spec(submission)], lambda spec, record: records.append(record))
    return {"head": head, "waited_s": time.monotonic() - started, "records": records}


if __name__ == "__main__":
    command, *arguments = sys.argv[1:]
    try:
        outcome = {"kill": kill, "queued": queued}[command](*arguments)
    finally:
        ray.shutdown()
    print(json.dumps(outcome))
