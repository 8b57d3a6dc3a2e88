"""The Ray engine: the same `run_task` fanned out as Ray tasks, with the same limits and retry.

Ray retries a task once when its worker process dies (`max_retries=1`; exceptions are
not retried, and `run_task` raises none for anything a submission does); a second
death arrives as a RayError and becomes a failed record. A task still running past the
hard time limit is cancelled with force, which kills its worker. At most one task per
CPU of the cluster is in flight, so a task's clock starts about when it does.

`ray` is imported only here: it is the optional extra `auditex[ray]`.
"""

from __future__ import annotations

import logging
import time

from .pool import MAX_ATTEMPTS, OnRecord
from .task import TaskSpec, failed_record, run_task

_POLL_S = 0.5


class RayEngine:
    name = "ray"

    def __init__(self, address: str, workers: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise ValueError('--ray needs Ray: pip install "auditex[ray]"') from None
        self._ray = ray
        self.address = address
        self.workers = workers or 0

    def _connect(self) -> bool:
        """Join or start Ray; True when this call started it (and so shuts it down after)."""
        ray = self._ray
        if ray.is_initialized():
            return False
        if self.address == "local":
            ray.init(num_cpus=self.workers or None, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        else:
            ray.init(address=self.address, log_to_driver=False, logging_level=logging.WARNING)
        return True

    def run(self, specs: list[TaskSpec], on_record: OnRecord) -> None:
        ray = self._ray
        started = self._connect()
        try:
            self._run(specs, on_record)
        finally:
            if started:
                ray.shutdown()

    def _run(self, specs: list[TaskSpec], on_record: OnRecord) -> None:
        ray = self._ray
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(max_retries=MAX_ATTEMPTS - 1, retry_exceptions=False)(run_task)
        queue = list(reversed(specs))
        running: dict = {}  # object ref → (spec, submitted at)
        while queue or running:
            while queue and len(running) < self.workers:
                spec = queue.pop()
                running[remote.remote(spec)] = (spec, time.monotonic())
            ready, _ = ray.wait(list(running), num_returns=1, timeout=_POLL_S)
            for ref in ready:
                spec, _ = running.pop(ref)
                try:
                    record = ray.get(ref)
                except ray.exceptions.RayError as error:
                    record = failed_record(
                        spec, "failed", f"the Ray task failed on the first try and on the retry ({type(error).__name__})"
                    )
                on_record(spec, record)
            now = time.monotonic()
            for ref, (spec, submitted) in list(running.items()):
                if now - submitted > spec.limits.hard_time_s:
                    ray.cancel(ref, force=True)
                    del running[ref]
                    on_record(
                        spec,
                        failed_record(
                            spec, "timed_out", f"the Ray task did not answer within {spec.limits.hard_time_s:g} s and was stopped"
                        ),
                    )
