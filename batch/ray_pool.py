"""The Ray worker pool: the same `run_task` fanned out over a Ray cluster, with the same limits and retry.

- Connecting is bounded: the address must take a TCP connection, and `ray.init` must
  answer within `connect_timeout_s`; otherwise the run is a usage error that names the
  address and the reason.
- Before a node takes a task, it checks that it can read every submission (a zero-CPU
  probe pinned to it): a node that cannot is named and left out, and a run that no
  node can read is a usage error.
- Each task is pinned to a checked node with a free CPU, so the tasks in flight follow
  the cluster's live CPUs: the node list is re-read as the run goes, a node that joins
  is checked and used, a node that dies is dropped.
- A task is a Ray generator that reports its start before its record, so the time
  limit counts from the start on its node, never from a wait for a busy cluster's CPUs.
- Ray itself retries nothing (`max_retries=0`): a task whose worker or node dies is
  retried here once, like the local pool's, and a task whose node died before it
  started is requeued without spending an attempt.

`ray` is imported only here: it is the optional extra `auditex[ray]`.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .pool import MAX_ATTEMPTS, OnRecord
from .run import WorkerPoolError
from .task import TaskSpec, failed_record, placed, run_task

if TYPE_CHECKING:
    from ray import ObjectRef, ObjectRefGenerator

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 20.0
PROBE_TIMEOUT_S = 120.0  # a node that has not checked the input by then is left out
_TCP_TIMEOUT_S = 5.0
_POLL_S = 0.5
_NODES_EVERY_S = 2.0
_EXAMPLES = 3  # the unreadable paths a left-out node is named with

_QUIET: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING}

OnStart = Callable[[TaskSpec, str], None]  # the spec and the id of the node it started on


def _no_sigterm_notice(record: logging.LogRecord) -> bool:
    """Drop Ray's notice that a thread's ray.init leaves SIGTERM alone: that is why it runs in one."""
    return "SIGTERM handler is not set" not in record.getMessage()


@dataclass
class _Node:
    id: str
    address: str
    cpus: int
    busy: int = 0

    def __str__(self) -> str:
        return f"{self.id[:12]} at {self.address}"


@dataclass
class _Task:
    spec: TaskSpec
    attempt: int
    node: _Node
    started: float | None = None  # on the driver's clock, when the task reported its start


def checked_then_record(spec: TaskSpec) -> Iterator[str | dict[str, Any]]:
    """The Ray task: first the id of the node it started on, then the submission's record."""
    import ray

    yield ray.get_runtime_context().get_node_id()
    yield run_task(spec)


def unreadable(paths: list[str]) -> list[str]:
    """The paths this node cannot read (a folder must also be listable)."""
    return [path for path in paths if not os.access(path, os.R_OK | (os.X_OK if os.path.isdir(path) else 0))]


class RayPool:
    name = "ray"

    def __init__(self, address: str, workers: int | None = None, connect_timeout_s: float = CONNECT_TIMEOUT_S) -> None:
        try:
            import ray
        except ImportError:
            raise ValueError('--ray needs Ray: pip install "auditex[ray]"') from None
        self._ray = ray
        self.address = address
        self.connect_timeout_s = connect_timeout_s
        self.local_cpus = workers
        self.workers = 0  # the most CPUs the run had in use at once

    def run(self, specs: list[TaskSpec], on_record: OnRecord, on_start: OnStart | None = None) -> None:
        started = self._connect()
        try:
            _RaySchedule(self, specs, on_record, on_start).loop()
        finally:
            if started:
                self._ray.shutdown()

    def _connect(self) -> bool:
        """Join or start Ray; True when this call did (and so disconnects after).

        Joining a cluster runs `ray.init` in a thread: when nothing answers at the address
        it blocks in C++ for minutes, deaf to signals, so the main thread waits for it a
        bounded time and Ctrl-C acts at once; and Ray sets its SIGTERM handler from the
        main thread only, so the CLI's handling stands. Starting Ray here stays in the main
        thread: the processes it starts die with the thread that started them.
        """
        ray = self._ray
        if ray.is_initialized():
            return False
        if self.address == "local":
            sigterm = signal.getsignal(signal.SIGTERM)
            try:
                ray.init(num_cpus=self.local_cpus, include_dashboard=False, **_QUIET)
            finally:
                if sigterm is not None and threading.current_thread() is threading.main_thread():
                    signal.signal(signal.SIGTERM, sigterm)  # ray.init sets its own; the CLI's handling stands
            return True
        self._check_reachable()
        logging.getLogger("ray._private.worker").addFilter(_no_sigterm_notice)
        outcome: list[BaseException | None] = []
        thread = threading.Thread(target=self._join, args=(outcome,), daemon=True, name="auditex-ray-connect")
        thread.start()
        thread.join(self.connect_timeout_s)
        if not outcome:  # still trying: the daemon thread is left behind, and the run ends here
            raise WorkerPoolError(
                f"cannot connect to the Ray cluster at {self.address}: no answer within {self.connect_timeout_s:g} s "
                "(is it the head's GCS port, and do RAY_AUTH_TOKEN or RAY_AUTH_TOKEN_PATH give the cluster's token?)"
            )
        if outcome[0] is not None:
            ray.shutdown()
            text = str(outcome[0]).strip()
            reason = text.splitlines()[0] if text else type(outcome[0]).__name__
            raise WorkerPoolError(f"cannot connect to the Ray cluster at {self.address}: {reason}")
        return True

    def _join(self, outcome: list[BaseException | None]) -> None:
        try:
            self._ray.init(address=self.address, **_QUIET)
        except Exception as error:  # Ray raises ConnectionError, RuntimeError or ValueError, with its reason
            outcome.append(error)
        else:
            outcome.append(None)

    def _check_reachable(self) -> None:
        """A host:port address must take a TCP connection: the quick and clear answer when nothing listens there."""
        if self.address == "auto" or "://" in self.address:
            return  # found by Ray itself (RAY_ADDRESS, the latest `ray start`), or a Ray Client URL
        host, _, port = self.address.rpartition(":")
        if not host or not port.isdigit():
            raise WorkerPoolError(f"'{self.address}' is not a Ray address: give HOST:PORT, 'auto' or 'local'")
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout=_TCP_TIMEOUT_S).close()
        except OSError as error:
            reason = error.strerror or str(error) or type(error).__name__
            raise WorkerPoolError(f"cannot connect to the Ray cluster at {self.address}: {reason}") from None


class _RaySchedule:
    """One run's scheduling state: the checked nodes, the node checks and the tasks in flight."""

    def __init__(self, pool: RayPool, specs: list[TaskSpec], on_record: OnRecord, on_start: OnStart | None) -> None:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        ray = pool._ray
        self.pool, self.ray, self.on_record, self.on_start = pool, ray, on_record, on_start
        self.pinned = NodeAffinitySchedulingStrategy
        self.task = ray.remote(max_retries=0, retry_exceptions=False)(checked_then_record)
        self.probe = ray.remote(num_cpus=0, max_retries=0)(unreadable)
        self.paths = sorted({spec.path for spec in specs})
        self.shared_paths = ray.put(self.paths)
        self.queue: deque[tuple[TaskSpec, int]] = deque((spec, 1) for spec in specs)
        self.nodes: dict[str, _Node] = {}  # checked and alive
        self.probing: dict[ObjectRef[list[str]], tuple[_Node, float]] = {}  # probe ref → (node, sent at)
        self.seen: set[str] = set()  # every node checked or being checked; a node id never comes back
        self.running: dict[ObjectRefGenerator, _Task] = {}  # generator → _Task
        self.left_out: list[str] = []  # each node left out, and why
        self.refreshed = float("-inf")

    def loop(self) -> None:
        ray = self.ray
        self.check_nodes()
        while self.queue or self.running:
            if time.monotonic() - self.refreshed >= _NODES_EVERY_S:
                self.refresh_nodes()
            self.settle_probes()
            if not self.nodes and not self.probing and not self.running:
                raise WorkerPoolError(
                    f"every node that could read the submissions left the Ray cluster; {len(self.queue)} not checked "
                    "(run the same command again to resume)"
                )
            self.submit()
            waiting = list(self.running) + list(self.probing)
            ready, _ = ray.wait(waiting, num_returns=1, timeout=_POLL_S) if waiting else ([], [])
            for generator in ready:
                if generator in self.running:
                    self.advance(generator)
            self.expire()

    def check_nodes(self) -> None:
        """Before the run, every live node checks that it can read the input; the run needs one that can."""
        self.refresh_nodes()
        while self.probing:
            self.ray.wait(list(self.probing), num_returns=len(self.probing), timeout=_POLL_S)
            self.settle_probes()
        if not self.nodes and not self.left_out:
            raise WorkerPoolError("the Ray cluster has no node with a CPU")
        if not self.nodes:
            raise WorkerPoolError("no node of the Ray cluster can read the submissions: " + "; ".join(self.left_out))

    def refresh_nodes(self) -> None:
        """Check the nodes that joined; drop the ones that died (their tasks fail and come back)."""
        self.refreshed = time.monotonic()
        alive = {node["NodeID"]: node for node in self.ray.nodes() if node["Alive"]}
        for node_id in list(self.nodes):
            if node_id not in alive:
                log.warning("node %s left the cluster; its submissions go to the other nodes", self.nodes.pop(node_id))
        for node_id, info in alive.items():
            cpus = int(info["Resources"].get("CPU", 0))
            if node_id in self.seen or cpus < 1:
                continue
            self.seen.add(node_id)
            node = _Node(node_id, info.get("NodeManagerAddress", "?"), cpus)
            probe = self.probe.options(scheduling_strategy=self.pinned(node_id, soft=False)).remote(self.shared_paths)
            self.probing[probe] = (node, time.monotonic())

    def settle_probes(self) -> None:
        ray = self.ray
        ready, _ = ray.wait(list(self.probing), num_returns=len(self.probing), timeout=0) if self.probing else ([], [])
        for probe in ready:
            node, _ = self.probing.pop(probe)
            try:
                missing = ray.get(probe)
            except ray.exceptions.RayError as error:  # auditex missing on the node, say: the cause names it
                cause = getattr(error, "cause", None) or error
                self.leave_out(node, f"cannot run the input check ({type(cause).__name__}: {cause})")
                continue
            if missing:
                examples = ", ".join(missing[:_EXAMPLES]) + (", …" if len(missing) > _EXAMPLES else "")
                self.leave_out(node, f"cannot read {len(missing)} of the {len(self.paths)} submissions ({examples})")
            else:
                self.nodes[node.id] = node
        now = time.monotonic()
        for probe, (node, sent) in list(self.probing.items()):
            if now - sent > PROBE_TIMEOUT_S:
                ray.cancel(probe, force=True)
                del self.probing[probe]
                self.leave_out(node, f"did not check the input within {PROBE_TIMEOUT_S:g} s")

    def leave_out(self, node: _Node, reason: str) -> None:
        log.warning("node %s %s; it is left out of this run", node, reason)
        self.left_out.append(f"node {node} {reason}")

    def submit(self) -> None:
        while self.queue:
            node = max(self.nodes.values(), key=lambda n: n.cpus - n.busy, default=None)
            if node is None or node.busy >= node.cpus:
                return
            spec, attempt = self.queue.popleft()
            generator = self.task.options(scheduling_strategy=self.pinned(node.id, soft=False)).remote(spec)
            node.busy += 1
            self.running[generator] = _Task(spec, attempt, node)
            self.pool.workers = max(self.pool.workers, sum(n.busy for n in self.nodes.values()))

    def advance(self, generator: ObjectRefGenerator) -> None:
        """The task's next report: its start, then its record; or the error that ended it."""
        ray, task = self.ray, self.running[generator]
        try:
            value = ray.get(next(generator))
        except ray.exceptions.RayError as error:
            self.lost(generator, error)
            return
        if task.started is None:
            task.started = time.monotonic()
            if self.on_start is not None:
                self.on_start(task.spec, value)
            return
        self.finish(generator, value)

    def release(self, generator: ObjectRefGenerator) -> _Task:
        task = self.running.pop(generator)
        task.node.busy -= 1
        return task

    def finish(self, generator: ObjectRefGenerator, record: dict[str, Any]) -> None:
        task = self.release(generator)
        self.on_record(task.spec, placed(record, task.node.id, task.attempt))

    def lost(self, generator: ObjectRefGenerator, error: Exception) -> None:
        """The task's worker or node died: a node that died is dropped; the task goes again, or fails on its second loss."""
        ray, task = self.ray, self.running[generator]
        node_gone = isinstance(error, ray.exceptions.NodeDiedError | ray.exceptions.TaskUnschedulableError)
        if node_gone and self.nodes.pop(task.node.id, None) is not None:
            log.warning("node %s died; its submissions go to the other nodes", task.node)
        never_ran = task.started is None and node_gone
        if never_ran or task.attempt < MAX_ATTEMPTS:
            self.release(generator)
            self.queue.appendleft((task.spec, task.attempt if never_ran else task.attempt + 1))
        else:
            reason = f"the Ray task failed on the first try and on the retry ({type(error).__name__})"
            self.finish(generator, failed_record(task.spec, "failed", reason))

    def expire(self) -> None:
        """Stop the tasks that outlived the hard time limit since their start (the timer in the task had its chance)."""
        now = time.monotonic()
        for generator, task in list(self.running.items()):
            limit = task.spec.limits.hard_time_s
            if task.started is not None and now - task.started > limit:
                self.ray.cancel(generator, force=True)
                reason = f"the Ray task did not answer within {limit:g} s of its start and was stopped"
                self.finish(generator, failed_record(task.spec, "timed_out", reason))
