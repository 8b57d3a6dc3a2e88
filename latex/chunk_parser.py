"""Parsing the chunks a document has no parse of: from earlier runs, or in worker processes.

A chunk's parse is a pure function of its text, so parses kept by an earlier
run (in a `Store`, keyed by the chunk's content hash) stand as they are.
What is left is parsed here; a large remainder is spread over worker
processes when the machine has several cores, since pylatexenc parses about
0.5 MB/s on one.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from .parse import parse_chunk
from .parsed_chunk import ParsedChunk

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

# Below this much text to parse, sending chunks to workers and their parses back costs more than it saves.
# Measured on 2 cores (issue 34, benchmarks/README.md): an 80 KB file parsed by two workers took 16% more CPU
# for a wall-clock gain within the noise (7%); a 360-400 KB file gained 10-34% wall for 13% more CPU.
PARALLEL_MIN_CHARS = 200_000
# Chunks per task: enough to amortise a round trip, few enough to keep the workers evenly busy.
_BATCH_CHARS = 20_000
# How often a worker looks whether its parent is still alive.
_PARENT_CHECK_S = 0.5
# What a terminal and a batch send to the whole process group; the parent alone answers them.
_STOPPING = {signal.SIGINT, signal.SIGTERM}


class Store(Protocol):
    """What a file's text yields, kept between runs: for a kind ("parses": chunk content hash →
    parse; "block_facts": block text → facts; "bibliography": text hash → the parsed .bib), a
    mapping from content to a pure function of it."""

    def load(self, kind: str, path: str, value_type: type) -> dict[str, Any]: ...

    def save(self, kind: str, path: str, values: dict[str, Any]) -> None: ...


class ChunkParser:
    """Parses chunks, reusing a store's parses and spreading large batches over `workers` processes.

    `workers=None` uses every core; 1 parses in this process only. `progress` hears which file
    is being parsed. Close it (or use it as a context manager) to stop the workers.
    """

    def __init__(self, store: Store | None = None, workers: int | None = None, progress: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.workers = max(1, workers if workers is not None else len(os.sched_getaffinity(0)))
        self.progress = progress
        self._pool: ProcessPoolExecutor | None = None

    def known(self, path: str) -> dict[str, ParsedChunk]:
        return self.store.load("parses", path, ParsedChunk) if self.store is not None else {}

    def keep(self, path: str, parses: dict[str, ParsedChunk]) -> None:
        if self.store is not None:
            self.store.save("parses", path, parses)

    def parse(self, texts: dict[str, str], path: str) -> dict[str, ParsedChunk]:
        """Content hash → parse, for each chunk text (of the file `path`)."""
        if self.progress is not None and texts:
            self.progress(f"parsing {path}")
        if self.workers == 1 or sum(map(len, texts.values())) < PARALLEL_MIN_CHARS:
            return {key: parse_chunk(text) for key, text in texts.items()}
        keys, batches = _batches(texts)
        parsed: dict[str, ParsedChunk] = {}
        # The first submission forks the workers: a Ctrl-C to the process group then must wait until each
        # worker ignores it (_start_worker), or a worker just forked prints a traceback of its own.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)
        try:
            results = self._workers().map(_parse_batch, batches)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        try:
            for batch_keys, batch in zip(keys, results):
                parsed.update(zip(batch_keys, batch))
        except BaseException:
            # A Ctrl-C or SIGTERM: the workers stop here, joined, and not in the interpreter's exit hook, where
            # waking the pool races the pool's own thread closing it ("Bad file descriptor" on the way out).
            self.close()
            raise
        return parsed

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            import multiprocessing  # loaded only by a project large enough for workers
            from concurrent.futures import ProcessPoolExecutor

            # fork: a worker starts with the parser already imported.
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("fork"), initializer=_start_worker, initargs=(os.getpid(),)
            )
        return self._pool

    def close(self) -> None:
        """Stop the workers; later parses run in this process."""
        self.workers = 1
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __enter__(self) -> ChunkParser:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def _batches(texts: dict[str, str]) -> tuple[list[list[str]], list[list[str]]]:
    keys: list[list[str]] = [[]]
    batches: list[list[str]] = [[]]
    size = 0
    for key, text in texts.items():
        if size >= _BATCH_CHARS:
            keys.append([])
            batches.append([])
            size = 0
        keys[-1].append(key)
        batches[-1].append(text)
        size += len(text)
    return keys, batches


def _start_worker(parent: int) -> None:
    """A parse worker. Ctrl-C and SIGTERM reach the whole process group, and the parent alone answers them
    (it stops its workers and says so): a worker ignores both, so it prints no traceback and breaks no pool
    under the parent. A parent killed outright (a timeout's SIGKILL) cannot stop it, so it watches its
    parent and exits when the parent is gone, rather than staying behind as an orphan. The parent forked
    it with both signals blocked; they are ignored before they are let through again."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPPING)

    def exit_with_parent() -> None:
        while os.getppid() == parent:
            time.sleep(_PARENT_CHECK_S)
        os._exit(1)

    threading.Thread(target=exit_with_parent, name="exit-with-parent", daemon=True).start()


def _parse_batch(texts: list[str]) -> list[ParsedChunk]:
    return [parse_chunk(text) for text in texts]
