"""The local worker pool: N long-lived worker processes, supervised one task at a time.

A worker takes one TaskSpec, answers one record, and takes the next. The supervisor
watches each worker's pipe and process: a worker that dies mid-task (killed by the
OOM killer, `kill -9`, a crash in C) is replaced and its submission retried once on a
fresh worker, then recorded as failed; a worker that outlives the hard time limit is
killed and its submission recorded as timed out. So one submission never costs the run.
Workers are spawned, not forked: the supervisor has threads (the progress bar), and a
fork with threads may inherit a held lock.
"""

from __future__ import annotations

import multiprocessing
import signal
import socket
import time
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from multiprocessing.context import SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any

from .task import TaskSpec, failed_record, placed, run_task

MAX_ATTEMPTS = 2  # the first try and one retry
_POLL_S = 0.5

OnRecord = Callable[[TaskSpec, dict[str, Any]], None]
OnStart = Callable[[TaskSpec, int], None]  # the spec and the pid of the worker that took it


def _serve(connection: Connection) -> None:
    """A worker's loop: specs in, records out, until told to stop or the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the supervisor's to handle
    while True:
        try:
            spec = connection.recv()
        except EOFError:
            return
        if spec is None:
            return
        record = run_task(spec)
        try:
            connection.send(record)
        except OSError:  # the supervisor is gone (killed): there is no one to answer
            return


class _Worker:
    def __init__(self, context: SpawnContext) -> None:
        self.connection, child = context.Pipe()
        self.process: BaseProcess = context.Process(target=_serve, args=(child,), daemon=True, name="auditex-batch-worker")
        self.process.start()
        child.close()
        self.spec: TaskSpec | None = None
        self.attempt = 0
        self.started = 0.0

    def give(self, spec: TaskSpec, attempt: int) -> None:
        self.spec, self.attempt, self.started = spec, attempt, time.monotonic()
        self.connection.send(spec)

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.connection.close()

    def stop(self) -> None:
        try:
            self.connection.send(None)
        except OSError:
            pass
        self.process.join(5)
        self.kill()


def death_reason(process: BaseProcess) -> str:
    code = process.exitcode
    if code is not None and code < 0:
        try:
            return f"the worker was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"the worker was killed by signal {-code}"
    return f"the worker exited with code {code}"


class LocalPool:
    name = "local"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._context = multiprocessing.get_context("spawn")

    def run(self, specs: list[TaskSpec], on_record: OnRecord, on_start: OnStart | None = None) -> None:
        queue: deque[tuple[TaskSpec, int]] = deque((spec, 1) for spec in specs)
        pool = [_Worker(self._context) for _ in range(min(self.workers, len(specs)))]
        try:
            while queue or any(w.spec is not None for w in pool):
                for index, worker in enumerate(pool):
                    if worker.spec is None and queue:
                        if not worker.process.is_alive():  # it died after its last answer: no task's fault
                            worker.kill()
                            pool[index] = worker = _Worker(self._context)
                        spec, attempt = queue.popleft()
                        try:
                            worker.give(spec, attempt)
                        except OSError:  # it died just now, before taking the task: keep the task
                            queue.appendleft((spec, attempt))
                            worker.kill()
                            pool[index] = _Worker(self._context)
                            continue
                        if on_start is not None:
                            assert worker.process.pid is not None  # the worker is running
                            on_start(spec, worker.process.pid)
                busy = [w for w in pool if w.spec is not None]
                wait([w.connection for w in busy] + [w.process.sentinel for w in busy], _POLL_S)
                for index, worker in enumerate(pool):
                    if worker.spec is not None and self._settle(worker, queue, on_record):
                        pool[index] = _Worker(self._context)
        finally:
            for worker in pool:
                worker.stop()

    def _settle(self, worker: _Worker, queue: deque[tuple[TaskSpec, int]], on_record: OnRecord) -> bool:
        """Collect the worker's answer if it has one; True when the worker is gone and needs replacing."""
        spec = worker.spec
        assert spec is not None

        def answer(record: dict[str, Any]) -> None:
            on_record(spec, placed(record, socket.gethostname(), worker.attempt))

        if worker.connection.poll():
            try:
                record = worker.connection.recv()
            except (EOFError, OSError):
                record = None  # it died while answering
            if record is not None:
                worker.spec = None
                answer(record)
                return False
        if not worker.process.is_alive() or worker.connection.closed:
            reason = death_reason(worker.process)
            worker.kill()
            if worker.attempt < MAX_ATTEMPTS:
                queue.appendleft((spec, worker.attempt + 1))
            else:
                answer(failed_record(spec, "failed", f"{reason}, on the first try and on the retry"))
            return True
        if time.monotonic() - worker.started > spec.limits.hard_time_s:
            worker.kill()
            answer(failed_record(spec, "timed_out", f"the worker did not answer within {spec.limits.hard_time_s:g} s and was stopped"))
            return True
        return False
