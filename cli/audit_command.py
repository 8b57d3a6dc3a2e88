"""`auditex audit PATH --mode fast|standard|deep|critical`: the LLM audit.

Deterministic findings are always part of the report. Provider, model and server
come from the flags, else `[llm]` in `.auditex.toml`, else the defaults; the API key
comes from the environment only. Progress goes to stderr, and so does the closing
account of calls, cache hits, tokens, cost and wall time. When the LLM part fails as a
whole, the deterministic findings are still reported, and the exit code is 3.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..analyzers.llm.answer_cache import LLMCache
from ..analyzers.llm.audit import AuditResult
from ..analyzers.llm.audit_modes import MODES
from ..analyzers.llm.client import RunStats
from ..analyzers.llm.config_section import settings_from_config
from ..analyzers.llm.errors import LLMError, MissingKey
from ..analyzers.llm.run import ProgressCallback
from ..analyzers.llm.settings import LLMSettings
from ..analyzers.llm.source import LLMAuditSource, audit_results
from ..analyzers.reports.json_contract import run_summary
from ..analyzers.session import Session
from .check_command import add_output_options, emit_report, exit_code, run_on_input

EXIT_LLM_FAILED = 3  # the LLM part failed (unreachable server, bad key, budget): the report holds the offline findings


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], commands: dict[str, tuple[str, str]]) -> None:
    parser = subparsers.add_parser(
        "audit", help=commands["audit"][1], description="Run the deterministic rules and an LLM audit of a LaTeX project."
    )
    parser.add_argument("path", type=Path, help="a .tex file, a project folder, or a submission archive")
    parser.add_argument("--mode", choices=MODES, default="standard", help="detection depth (default: standard)")
    add_llm_options(parser)
    parser.add_argument("--refresh", action="store_true", help="review every section against the current paper memory")
    parser.add_argument("--top-k", type=int, default=5, help="critical mode: how many problems to ask for (default: 5)")
    add_output_options(parser)
    parser.set_defaults(run=run)


def add_llm_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--provider", choices=["openai", "anthropic"], help="LLM API (default: openai)")
    parser.add_argument(
        "--model", help="model name (default per mode: a small model for fast and standard, a reasoning model for deep and critical)"
    )
    parser.add_argument(
        "--reasoning-effort", choices=["minimal", "low", "medium", "high"], help="OpenAI reasoning models: how hard to think"
    )
    parser.add_argument("--thinking-budget", type=int, metavar="TOKENS", help="Anthropic: extended thinking's token budget (>= 1024)")
    parser.add_argument(
        "--verifier-provider", help="the verification stage's LLM API, or several comma-separated for a panel (default: --provider)"
    )
    parser.add_argument("--verifier-model", help="the verification stage's model, or several comma-separated for a panel")
    parser.add_argument("--verifier-base-url", help="the verification stage's server (default: --base-url for the same provider)")
    parser.add_argument("--max-findings-per-section", type=int, metavar="N", help="verified LLM findings shown per section (default: 3)")
    parser.add_argument("--base-url", help="an OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio)")
    parser.add_argument("--budget", type=float, metavar="USD", help="stop before the run would cost more than this")
    parser.add_argument("--concurrency", type=int, help="LLM calls in flight at once (default: 8)")
    parser.add_argument("--stream", action="store_true", default=None, help="stream answers")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the answer cache or the analysis cache")


def llm_settings(arguments: argparse.Namespace, config_llm: dict[str, Any]) -> LLMSettings:
    """Flags over `[llm]` config over defaults; raises ValueError with a readable message."""
    return settings_from_config(
        config_llm,
        provider=arguments.provider,
        model=arguments.model,
        reasoning_effort=arguments.reasoning_effort,
        thinking_budget=arguments.thinking_budget,
        verifier_provider=arguments.verifier_provider,
        verifier_model=arguments.verifier_model,
        verifier_base_url=arguments.verifier_base_url,
        max_findings_per_section=arguments.max_findings_per_section,
        base_url=arguments.base_url,
        budget_usd=arguments.budget,
        concurrency=arguments.concurrency,
        stream=arguments.stream,
    )


def run(arguments: argparse.Namespace) -> int:
    return run_on_input(arguments, _audit)


def _audit(arguments: argparse.Namespace, checked: Session) -> int:
    settings = llm_settings(arguments, checked.config.llm)
    cache = None if arguments.no_cache else LLMCache()
    results: list[AuditResult] = []
    failure = None
    try:
        asyncio.run(_audit_all(checked, settings, cache, arguments, results))
    except MissingKey:
        raise  # a setup error, before any work: exit 2
    except LLMError as error:  # the offline findings stand; the report says what is missing
        failure = str(error)
    finally:
        if cache is not None:
            cache.close()
    _report_run(results)
    findings = checked.findings
    title = f"auditex {arguments.mode} audit"
    if failure is not None:
        print(f"auditex: error: the LLM audit failed ({failure}); the report holds the deterministic findings only", file=sys.stderr)
        title += " (LLM part failed: deterministic findings only)"
    emit_report(arguments, checked, findings, title=title, extra={"run": run_summary(results, failure)})
    return EXIT_LLM_FAILED if failure is not None else exit_code(findings, arguments.fail_on)


async def _audit_all(
    checked: Session, settings: LLMSettings, cache: LLMCache | None, arguments: argparse.Namespace, results: list[AuditResult]
) -> None:
    """Audit each root with a progress bar on a terminal; `results` holds each finished one, so a
    failure keeps the earlier roots' findings (the session keeps them too)."""
    console = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as progress:

        def bar(root: str) -> ProgressCallback:
            task = progress.add_task(f"{arguments.mode} audit of {root}", total=None)

            def advance(done: int, total: int, label: str) -> None:
                progress.update(task, completed=done, total=total, description=label or f"{arguments.mode} audit")

            return advance

        source = LLMAuditSource(settings, arguments.mode, cache=cache, refresh=arguments.refresh, critical_k=arguments.top_k)
        async for result in audit_results(checked, source, progress=bar):
            results.append(result)


def _report_run(results: list[AuditResult]) -> None:
    for result in results:
        for failure in result.failed_units:
            print(f"auditex: warning: {failure.label} failed: {failure.message}", file=sys.stderr)
        if result.budget_stop:
            print(f"auditex: warning: {result.budget_stop}", file=sys.stderr)
        print(f"auditex: {result.summary()}", file=sys.stderr)
        if result.stats.stages:
            print(f"auditex: by stage: {result.stats.stage_summary()}.", file=sys.stderr)
    if len(results) > 1:
        total = RunStats()
        for result in results:
            total = total.plus(result.stats)
        print(f"auditex: total: {total.summary()}.", file=sys.stderr)
