"""`run_batch`: a venue through a worker pool into a results folder, resumably.

The steps: list the submissions and hash their content; skip those whose record is
already saved under the same key; hand the rest to the worker pool (local or Ray),
saving each record as it arrives; with --llm-batch, audit the checked submissions
through the provider's batch API; then merge findings.jsonl, write summary.md and,
on request, the SARIF logs. Interrupting at any point loses only the work in flight.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .. import __version__
from .results import ResultStore, Throughput, record_key
from .task import Limits, TaskSpec
from .venue import Entry, content_hash, list_submissions

OnProgress = Callable[[int, int, dict[str, Any] | None], None]  # (done, total, the record just saved or None)


class WorkerPoolError(Exception):
    """The worker pool cannot run the batch (a cluster it cannot reach, no node that can read the input): one sentence for the user."""


class WorkerPool(Protocol):
    name: str
    workers: int

    def run(self, specs: list[TaskSpec], on_record: Callable[[TaskSpec, dict[str, Any]], None]) -> None: ...


@dataclass
class BatchOptions:
    online: bool = False
    mode: str | None = None
    llm: dict[str, Any] = field(default_factory=dict)
    llm_batch: bool = False
    limits: Limits = field(default_factory=Limits)
    sarif: bool = False
    retry_failed: bool = False

    def fingerprint(self) -> dict[str, Any]:
        """What changes a record: re-running with other options checks again."""
        llm = {k: self.llm.get(k) for k in ("provider", "model", "base_url")} if self.mode else None
        return {"auditex": __version__, "online": self.online, "mode": self.mode, "llm": llm}


@dataclass
class BatchOutcome:
    records: list[dict[str, Any]]
    throughput: Throughput


LLMPhase = Callable[[ResultStore, dict[str, tuple[TaskSpec, str]]], None]  # (store, id → (spec, record key))


def run_batch(
    source: Path,
    out: Path,
    pool: WorkerPool,
    options: BatchOptions,
    on_progress: OnProgress | None = None,
    llm_phase: LLMPhase | None = None,
) -> BatchOutcome:
    """Check every submission of `source` not yet done into `out`; returns every current record."""
    entries = list_submissions(source)
    store = ResultStore(out)
    started = time.monotonic()
    keys: dict[str, str] = {}
    specs: dict[str, tuple[TaskSpec, str]] = {}
    todo: list[TaskSpec] = []
    for entry in entries:
        spec = _spec(entry, options)
        keys[spec.id] = key = record_key(spec, options.fingerprint())
        specs[spec.id] = (spec, key)
        saved = store.load(key)
        if saved is None or (options.retry_failed and saved["status"] != "ok"):
            todo.append(spec)
    resumed = len(entries) - len(todo)
    done = resumed
    if on_progress is not None:
        on_progress(done, len(entries), None)

    def save(spec: TaskSpec, record: dict[str, Any]) -> None:
        nonlocal done
        store.save(keys[spec.id], record)
        done += 1
        if on_progress is not None:
            on_progress(done, len(entries), record)

    if todo:
        pool.run(todo, save)
    if llm_phase is not None:
        llm_phase(store, specs)
    records = store.merge(keys)
    throughput = Throughput(pool.name, pool.workers, len(todo), resumed, time.monotonic() - started)
    store.write_summary(records, throughput)
    if options.sarif:
        store.write_sarif(records)
    return BatchOutcome(records, throughput)


def _spec(entry: Entry, options: BatchOptions) -> TaskSpec:
    interactive_mode = options.mode if not options.llm_batch else None
    return TaskSpec(
        id=entry.id,
        path=str(entry.path.resolve()),
        content_hash=content_hash(entry.path),
        limits=options.limits,
        online=options.online,
        mode=interactive_mode,
        llm=options.llm if interactive_mode else {},
    )
