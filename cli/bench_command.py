"""`auditex bench BENCHMARK DATA`: score detections with a published benchmark's metric."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from ..analyzers.config import load_config
from ..analyzers.llm.cache import LLMCache
from ..analyzers.llm.client import LLMClient
from ..analyzers.llm.errors import LLMError
from ..evaluation import runner
from ..evaluation.paperaudit import DatasetError
from .audit_command import add_llm_options, llm_settings

NEEDS_JUDGE = ("paperaudit", "critical")  # the others use a judge only with --judge


def register(subparsers, commands: dict[str, tuple[str, str]]) -> None:
    parser = subparsers.add_parser(
        "bench",
        help=commands["bench"][1],
        description="Run a seed benchmark's metric on a dataset (see auditex.evaluation.runner for the data formats).",
    )
    parser.add_argument("benchmark", choices=runner.BENCHMARKS)
    parser.add_argument("data", type=Path, help="the dataset: a JSON file, or a folder for paperaudit/localisation")
    parser.add_argument("--predictions", type=Path, help="paperaudit: findings per paper instead of running --mode")
    parser.add_argument("--mode", default="standard", help="paperaudit: detection mode to run (default: standard)")
    parser.add_argument("--judge", action="store_true", help="flaws/agentic: add the paper's LLM judge")
    parser.add_argument("-k", type=int, default=5, help="critical: HR@k and AP@k cut-off (default: 5)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    parser.add_argument("--output", "-o", type=Path, help="write the report to FILE instead of stdout")
    add_llm_options(parser)
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    try:
        needs_llm = arguments.benchmark in NEEDS_JUDGE or arguments.judge
        settings = llm_settings(arguments, load_config(Path.cwd()).llm) if needs_llm else None
        report = asyncio.run(_bench(arguments, settings))
    except (DatasetError, ValueError, LLMError) as error:
        print(f"auditex: error: {error}", file=sys.stderr)
        return 2
    text = json.dumps(report, indent=2, ensure_ascii=False) + "\n" if arguments.format == "json" else to_text(report)
    if arguments.output:
        arguments.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


async def _bench(arguments: argparse.Namespace, settings) -> dict:
    name, data = arguments.benchmark, arguments.data
    if settings is None:
        if name == "flaws":
            return await runner.bench_flaws(data)
        if name == "agentic":
            return await runner.bench_agentic(data)
        if name == "surgical":
            return await runner.bench_surgical(data)
        return await runner.bench_localisation(data)
    cache = None if arguments.no_cache else LLMCache()
    try:
        async with LLMClient(settings, cache) as llm:
            judge = runner.client_completer(llm)
            if name == "flaws":
                report = await runner.bench_flaws(data, judge)
            elif name == "agentic":
                report = await runner.bench_agentic(data, judge)
            elif name == "critical":
                report = await runner.bench_critical(data, judge, arguments.k)
            elif name == "paperaudit":
                report = await runner.bench_paperaudit(data, judge, arguments.predictions, settings, arguments.mode, cache)
            else:
                raise ValueError(f"{name} has no LLM judge; run it without --judge")
            return {**report, "llm": llm.stats.model_dump()}
    finally:
        if cache is not None:
            cache.close()


def to_text(report: dict, indent: str = "") -> str:
    """The report as indented `key: value` lines, numbers to four places."""
    lines = []
    for key, value in report.items():
        if isinstance(value, dict):
            lines.append(f"{indent}{key}:")
            lines.append(to_text(value, indent + "  ").rstrip("\n"))
        elif isinstance(value, float):
            lines.append(f"{indent}{key}: {value:.4f}")
        else:
            lines.append(f"{indent}{key}: {value}")
    return "\n".join(line for line in lines if line) + "\n"
