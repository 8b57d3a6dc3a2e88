"""One submission's work, run inside a worker process (local pool or Ray): `run_task(spec) -> record`.

The record is the submission's line in findings.jsonl: the JSON contract of
`auditex check --format json` (plus `references` with --online and `run` with an LLM
mode), the submission id, its content hash, `status` (ok, failed, timed_out), the
reason of a failure, timings, and where it ran, which the worker pool adds: the `node` (the
host name, or the Ray node id) and the `attempt` (1, or 2 for the retry after a worker or
node died). Whatever the submission does, `run_task` returns a record: a bad archive, a
parse that runs out of memory or time, or a bug in a rule costs this submission only.
The limits:
- extracted size: the sandbox's `ExtractionLimits`, scaled to `extracted_mb`;
- memory: `RLIMIT_DATA` of the worker, set to what it uses now plus `memory_mb`
  (private memory only, so a Ray worker's shared object store does not count);
- time: a timer signal after `time_s`; the worker pool kills a worker that does not
  answer shortly after (a tight loop in C never sees the signal).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import functools
import gc
import resource
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PositiveFloat, PositiveInt

from ..analyzers.llm.errors import LLMError
from ..analyzers.path_check import checked_input
from ..analyzers.projects import InputError
from ..analyzers.session import Session
from ..latex.submission import MIB, ExtractionLimits

if TYPE_CHECKING:
    from ..analyzers.llm.answer_cache import LLMCache
    from ..analyzers.llm.provider import Provider
    from ..analyzers.llm.settings import LLMSettings

Status = Literal["ok", "failed", "timed_out"]
PAGE_BYTES = resource.getpagesize()


class Limits(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    time_s: PositiveFloat = 300.0
    memory_mb: PositiveInt = 2048
    extracted_mb: PositiveInt = 200

    @property
    def hard_time_s(self) -> float:
        """When the worker pool stops waiting and kills the worker: the timer had its chance."""
        return self.time_s * 1.2 + 10.0

    def extraction(self) -> ExtractionLimits:
        total = self.extracted_mb * MIB
        return ExtractionLimits(max_total_bytes=total, max_file_bytes=min(total, ExtractionLimits().max_file_bytes))


class TaskSpec(BaseModel):
    """Everything a worker needs for one submission; plain data, so it crosses process and machine."""

    model_config = ConfigDict(frozen=True)

    id: str
    path: str
    content_hash: str
    limits: Limits = Field(default_factory=Limits)
    online: bool = False
    mode: str | None = None  # an LLM audit mode, run interactively in the worker
    llm: dict[str, Any] = Field(default_factory=dict)  # LLMSettings fields, never the key (read in the worker)


class SubmissionTimedOut(BaseException):
    """The time limit passed; a BaseException so no `except Exception` on the way swallows it."""


def failed_record(spec: TaskSpec, status: Status, reason: str, timings: dict[str, float] | None = None) -> dict[str, Any]:
    return {
        "id": spec.id,
        "content_hash": spec.content_hash,
        "status": status,
        "reason": reason,
        "version": None,
        "root": None,
        "findings": [],
        "timings": timings or {},
    }


def placed(record: dict[str, Any], node: str, attempt: int) -> dict[str, Any]:
    """The record with where it ran, added by the worker pool: the worker's answer, or a record the pool made for it."""
    return {**record, "node": node, "attempt": attempt}


def run_task(spec: TaskSpec) -> dict[str, Any]:
    """The submission's record; never raises for anything the submission does."""
    started = time.monotonic()
    timings: dict[str, float] = {}
    try:
        with memory_limit(spec.limits.memory_mb), time_limit(spec.limits.time_s):
            record = _check(spec, timings)
    except SubmissionTimedOut:
        record = failed_record(spec, "timed_out", f"the check took longer than the time limit of {spec.limits.time_s:g} s")
    except MemoryError:
        record = failed_record(spec, "failed", f"the check needed more than the memory limit of {spec.limits.memory_mb} MB")
    except InputError as error:
        record = failed_record(spec, "failed", str(error))
    except (ValueError, LLMError) as error:  # a bad setting or a run-ending LLM error
        record = failed_record(spec, "failed", str(error))
    except RecursionError:
        record = failed_record(spec, "failed", "the submission nests too deeply to be read")
    except Exception as error:  # a bug must cost this submission only, and say what it was
        record = failed_record(spec, "failed", f"internal error: {type(error).__name__}: {error}")
    release_memory()
    record["timings"] = {**timings, "total_s": round(time.monotonic() - started, 3), "rss_mb": resident_mb()}
    return record


def release_memory() -> None:
    """Give back what the submission left behind, so a worker's memory stays that of the largest paper
    in flight and does not creep with the run."""
    for cache in _text_caches():
        cache.cache_clear()  # one large paper's text facts would otherwise stay resident for the rest of the run
    gc.collect()  # what the submission left behind goes now, not during the next one
    trim = _malloc_trim()
    if trim is not None:
        trim(0)  # freed heap pages go back to the system instead of staying in the worker's RSS


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, or None where the C library has none (musl, macOS)."""
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None


@functools.cache
def _text_caches() -> tuple[Any, ...]:
    """auditex's module-level lru caches (text → parses, numbers, sentences), found once after the first
    submission has imported them all. Across submissions they only ever hit on identical text."""
    return tuple(
        found
        for found in gc.get_objects()
        if isinstance(found, functools._lru_cache_wrapper)
        and getattr(found, "__module__", "").startswith("auditex.")
        and found is not _text_caches
    )


def opened_submission(spec: TaskSpec) -> AbstractContextManager[Session]:
    """The submission checked as a reviewer sees it, in one process (a worker is one core: no parse pool)
    and out of the analysis cache (it is checked once). It is its own project: a folder or a file reads
    nothing beside it, though the venue lies in a git work tree (another submission), as an archive
    reads only itself."""
    path = Path(spec.path)
    project = path if path.is_dir() else path.parent
    return checked_input(path, project, limits=spec.limits.extraction(), use_cache=False, parse_workers=1)


def _check(spec: TaskSpec, timings: dict[str, float]) -> dict[str, Any]:
    from ..analyzers.reports.json_contract import json_contract

    clock = time.monotonic()
    with opened_submission(spec) as session:
        extra: dict[str, Any] = {}
        timings["check_s"] = _lap(clock)
        if spec.online:
            from ..analyzers.online_verification import verify_references

            clock = time.monotonic()
            extra["references"] = asyncio.run(verify_references(session)).as_dict()
            timings["online_s"] = _lap(clock)
        if spec.mode is not None:
            clock = time.monotonic()
            extra["run"] = asyncio.run(_audit(spec, session))
            timings["audit_s"] = _lap(clock)
        contract = json_contract(session.findings, session.roots[0] if session.roots else "", extra)
    return {"id": spec.id, "content_hash": spec.content_hash, "status": "ok", "reason": None, **contract}


async def _audit(spec: TaskSpec, session: Session) -> dict[str, Any]:
    """The interactive LLM audit, with the shared answer cache."""
    from ..analyzers.llm.answer_cache import LLMCache
    from ..analyzers.llm.settings import LLMSettings

    cache = LLMCache()
    try:
        assert spec.mode is not None  # _check audits only with a mode
        return await audit_session(session, LLMSettings.from_env(**spec.llm), spec.mode, cache)
    finally:
        cache.close()


async def audit_session(
    session: Session, settings: LLMSettings, mode: str, cache: LLMCache | None, provider: Provider | None = None
) -> dict[str, Any]:
    """Every project's LLM audit, kept in the session; the run's account for the record."""
    from ..analyzers.llm.source import LLMAuditSource, audit_results
    from ..analyzers.reports.json_contract import run_summary

    audits = [result async for result in audit_results(session, LLMAuditSource(settings, mode, cache=cache, provider=provider))]
    return run_summary(audits, None)


def _lap(since: float) -> float:
    return round(time.monotonic() - since, 3)


def resident_mb() -> float:
    """The worker's resident memory now (not its peak), in MB."""
    try:
        with open("/proc/self/statm") as statm:
            return round(int(statm.read().split()[1]) * PAGE_BYTES / MIB, 1)
    except OSError:
        return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _data_bytes() -> int:
    """The private data the process holds now (VmData), the figure RLIMIT_DATA is charged against."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@contextmanager
def memory_limit(megabytes: int) -> Iterator[None]:
    """Let the submission allocate `megabytes` more private memory; past that, MemoryError."""
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    wanted = _data_bytes() + megabytes * MIB
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (wanted, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise SubmissionTimedOut after `seconds`; only the main thread can take signals, elsewhere the pool's kill stands."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise SubmissionTimedOut()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
