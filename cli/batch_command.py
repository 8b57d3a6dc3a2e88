"""`auditex batch INPUT --out results/`: a whole venue, resumable, on local workers or a Ray cluster."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from ..analyzers.llm.audit_modes import MODES
from ..analyzers.llm.errors import LLMError
from ..analyzers.wording import counted
from ..batch.results import FINDINGS, SUMMARY
from ..batch.run import BatchOptions, WorkerPool, WorkerPoolError, run_batch
from ..batch.task import Limits
from ..batch.venue import VenueError
from .audit_command import add_llm_options

if TYPE_CHECKING:
    from ..batch.llm_phase import LLMBatchPhase


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], commands: dict[str, tuple[str, str]]) -> None:
    parser = subparsers.add_parser(
        "batch",
        help=commands["batch"][1],
        description="Check every submission of a venue in reviewer mode: INPUT is a folder of submissions "
        "(archives or folders) or a text file listing them, one per line. A re-run skips what is done.",
    )
    parser.add_argument("input", type=Path, help="a folder of submissions, or a file listing their paths")
    parser.add_argument("--out", type=Path, required=True, help="the results folder (findings.jsonl, summary.md)")
    parser.add_argument(
        "--workers", type=int, default=None, help="worker processes (default: the CPU count); with --ray local, the CPUs of the local Ray"
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="run on a Ray cluster: its address, 'auto' for the one this machine belongs to, "
        "or 'local' to start one here (needs `pip install \"auditex[ray]\"`)",
    )
    parser.add_argument("--online", action="store_true", help="also verify every cited reference online")
    parser.add_argument("--mode", choices=MODES, help="also run the LLM audit in this mode")
    parser.add_argument(
        "--llm-batch", action="store_true", help="send the LLM audit through the provider's batch API (half price, answers within 24 h)"
    )
    add_llm_options(parser)
    parser.add_argument("--sarif", action="store_true", help="also write results/sarif/<submission>.sarif")
    parser.add_argument(
        "--time-limit", type=float, default=Limits().time_s, metavar="S", help=f"seconds per submission (default: {Limits().time_s:g})"
    )
    parser.add_argument(
        "--memory-limit", type=int, default=Limits().memory_mb, metavar="MB", help=f"memory per submission (default: {Limits().memory_mb})"
    )
    parser.add_argument(
        "--extract-limit",
        type=int,
        default=Limits().extracted_mb,
        metavar="MB",
        help=f"how much one archive may unpack to (default: {Limits().extracted_mb})",
    )
    parser.add_argument("--retry-failed", action="store_true", help="check again the submissions that failed or timed out")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    try:
        options = _options(arguments)
        pool = _pool(arguments)
        llm_phase = _llm_phase(arguments, options) if arguments.llm_batch else None
    except (ValueError, LLMError) as error:
        print(f"auditex: error: {error}", file=sys.stderr)
        return 2
    console = Console(stderr=True)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    try:
        with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress:
            bar = progress.add_task("checking", total=None)

            def advance(done: int, total: int, record: dict[str, Any] | None) -> None:
                label = f"checked {record['id']}" if record else "checking"
                progress.update(bar, completed=done, total=total, description=label[:40])

            outcome = run_batch(arguments.input, arguments.out, pool, options, advance, llm_phase)
    except (VenueError, WorkerPoolError) as error:
        print(f"auditex: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: main says which and exits 130 or 143; how to go on is the batch's to say
        print(f"auditex: the records written are kept in {arguments.out}; running the same command again resumes", file=sys.stderr)
        raise
    failed = sum(r["status"] != "ok" for r in outcome.records)
    print(
        f"auditex: {counted(len(outcome.records), 'submission')}, {failed} failed or timed out; {outcome.throughput.line()}.",
        file=sys.stderr,
    )
    print(f"auditex: wrote {arguments.out / FINDINGS} and {arguments.out / SUMMARY}", file=sys.stderr)
    return 0


def _options(arguments: argparse.Namespace) -> BatchOptions:
    if arguments.llm_batch and arguments.mode is None:
        raise ValueError("--llm-batch needs --mode: it sends that audit's calls through the batch API")
    if arguments.workers is not None and arguments.workers < 1:
        raise ValueError("--workers must be at least 1")
    limits = Limits(time_s=arguments.time_limit, memory_mb=arguments.memory_limit, extracted_mb=arguments.extract_limit)
    llm = {}
    if arguments.mode is not None:
        from .audit_command import llm_settings

        llm = llm_settings(arguments, {}).model_dump(exclude={"api_key"})
    return BatchOptions(
        online=arguments.online,
        mode=arguments.mode,
        llm=llm,
        llm_batch=arguments.llm_batch,
        limits=limits,
        sarif=arguments.sarif,
        retry_failed=arguments.retry_failed,
    )


def _pool(arguments: argparse.Namespace) -> WorkerPool:
    import os

    if arguments.ray is not None:
        from ..batch.ray_pool import RayPool

        return RayPool(arguments.ray, arguments.workers)
    from ..batch.pool import LocalPool

    return LocalPool(arguments.workers or os.cpu_count() or 1)


def _llm_phase(arguments: argparse.Namespace, options: BatchOptions) -> LLMBatchPhase:
    from ..batch.llm_phase import LLMBatchPhase

    assert options.mode is not None  # --llm-batch needs --mode (checked above)
    return LLMBatchPhase(options.mode, options.llm, no_cache=arguments.no_cache)
