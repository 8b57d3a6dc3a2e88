"""`auditex bench BENCHMARK DATA`: score detections with a published benchmark's metric.

Judges: `--judge-model [PROVIDER:]MODEL[@BASE_URL]`, repeatable, each on its own provider and
client; by default one judge that is not the detector's model (`runner.judge_settings`).
`--replay` (critical) recomputes HR@k and AP@k from recorded verdicts or raw judge answers, with
no LLM call; the WithdrarXiv-Check release folder replays every configuration of its tables.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from ..analyzers.llm.answer_cache import LLMCache
from ..analyzers.llm.client import LLMClient
from ..analyzers.llm.errors import LLMError
from ..analyzers.llm.settings import LLMSettings
from ..analyzers.llm.source import LLMAuditSource
from ..analyzers.project_config import load_config
from ..evaluation import runner
from ..evaluation.critical import Judge
from ..evaluation.paperaudit import DatasetError
from ..evaluation.real_errors import LedgerError, bench_real_errors
from .audit_command import add_llm_options, llm_settings

NEEDS_JUDGE = ("paperaudit", "critical")  # flaws and agentic use a judge only with --judge or --judge-model
NO_JUDGE = ("surgical", "localisation", "review", "real-errors")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], commands: dict[str, tuple[str, str]]) -> None:
    parser = subparsers.add_parser(
        "bench",
        help=commands["bench"][1],
        description="Run a seed benchmark's metric on a dataset (see auditex.evaluation.runner for the data formats).",
    )
    parser.add_argument("benchmark", choices=runner.BENCHMARKS)
    parser.add_argument(
        "data", type=Path, help="the dataset: a JSON file, or a folder (paperaudit, localisation, the WithdrarXiv-Check release)"
    )
    parser.add_argument("--predictions", type=Path, help="paperaudit: findings per paper instead of running --mode")
    parser.add_argument(
        "--mode",
        help="paperaudit: detection mode to run (default: standard); real-errors: add an LLM audit in this mode to the rules",
    )
    parser.add_argument("--corpus", type=Path, help="real-errors: the folder holding the papers the ledger names")
    parser.add_argument("--judge", action="store_true", help="flaws/agentic: add the paper's LLM judge")
    parser.add_argument(
        "--judge-model",
        action="append",
        default=[],
        metavar="[PROVIDER:]MODEL[@URL]",
        help="a judge (repeatable: a panel); PROVIDER openai or anthropic, URL a compatible server. "
        "Default: a model of --provider other than the detector's --model. With --replay: which recorded judges to count",
    )
    parser.add_argument("-k", type=int, default=5, help="critical: HR@k and AP@k cut-off (default: 5)")
    parser.add_argument(
        "--rule", choices=("all", "majority"), default="all", help="critical: votes a panel needs, all judges or a majority (default: all)"
    )
    parser.add_argument("--replay", action="store_true", help="critical: recompute from recorded verdicts, no LLM call")
    parser.add_argument(
        "--verdicts",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="critical --replay: a file of recorded verdicts (repeatable)",
    )
    parser.add_argument(
        "--reread",
        action="store_true",
        help="critical --replay: read the judges' raw answers with auditex's reader, not their recorded verdicts",
    )
    parser.add_argument("--export", type=Path, metavar="DIR", help="critical --replay: also write each configuration as a replay file")
    parser.add_argument("--record", type=Path, metavar="FILE", help="critical: write every verdict and answer, to --replay later")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    parser.add_argument("--output", "-o", type=Path, help="write the report to FILE instead of stdout")
    add_llm_options(parser)
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    try:
        _check_options(arguments)
        if arguments.replay:
            report = runner.replay_critical(
                arguments.data,
                arguments.verdicts,
                arguments.k,
                arguments.rule,
                arguments.reread,
                arguments.judge_model,
                arguments.export,
            )
        else:
            report = asyncio.run(_bench(arguments))
    except (DatasetError, LedgerError, ValueError, LLMError) as error:
        print(f"auditex: error: {error}", file=sys.stderr)
        return 2
    text = json.dumps(report, indent=2, ensure_ascii=False) + "\n" if arguments.format == "json" else to_text(report)
    if arguments.output:
        arguments.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    for warning in report.get("warnings", ()):
        print(f"auditex: warning: {warning}", file=sys.stderr)
    return 0


def _check_options(arguments: argparse.Namespace) -> None:
    name = arguments.benchmark
    if arguments.k < 1:
        raise ValueError(f"-k must be at least 1, got {arguments.k}")
    replay_only = [
        flag
        for flag, given in (("--verdicts", arguments.verdicts), ("--reread", arguments.reread), ("--export", arguments.export))
        if given
    ]
    if arguments.replay and name != "critical":
        raise ValueError(f"--replay reads recorded critical-problem verdicts; {name} takes no recorded verdicts")
    if replay_only and not arguments.replay:
        raise ValueError(f"{', '.join(replay_only)} go(es) with --replay")
    if arguments.record and (arguments.replay or name != "critical"):
        raise ValueError("--record keeps the verdicts of live critical judges")
    if name in NO_JUDGE and (arguments.judge or arguments.judge_model):
        raise ValueError(f"{name} has no LLM judge; run it without --judge and --judge-model")


def _needs_llm(arguments: argparse.Namespace) -> bool:
    return arguments.benchmark in NEEDS_JUDGE or arguments.judge or bool(arguments.judge_model)


async def _bench(arguments: argparse.Namespace) -> dict[str, Any]:
    name, data = arguments.benchmark, arguments.data
    if not _needs_llm(arguments):
        if name == "flaws":
            return await runner.bench_flaws(data)
        if name == "agentic":
            return await runner.bench_agentic(data)
        if name == "surgical":
            return await runner.bench_surgical(data)
        if name == "review":
            return runner.bench_review(data)
        if name == "real-errors":
            return await _real_errors(arguments)
        return await runner.bench_localisation(data)
    detector: LLMSettings = llm_settings(arguments, load_config(Path.cwd()).llm)
    panel = runner.judge_settings(arguments.judge_model, detector)
    cache = None if arguments.no_cache else LLMCache()
    try:
        async with AsyncExitStack() as stack:
            clients = {judge: await stack.enter_async_context(LLMClient(settings, cache)) for judge, settings in panel}
            judges = [Judge(judge, runner.client_completer(client)) for judge, client in clients.items()]
            if name == "flaws":
                report = await runner.bench_flaws(data, judges)
            elif name == "agentic":
                report = await runner.bench_agentic(data, judges)
            elif name == "critical":
                report = await runner.bench_critical(data, judges, arguments.k, arguments.rule, arguments.record)
            else:
                report = await runner.bench_paperaudit(data, judges, arguments.predictions, detector, arguments.mode or "standard", cache)
            return {**report, "llm": {judge: client.stats.model_dump() for judge, client in clients.items()}}
    finally:
        if cache is not None:
            cache.close()


async def _real_errors(arguments: argparse.Namespace) -> dict[str, Any]:
    """Recall on the real-errors ledger: the rules alone, or with `--mode` an LLM audit of each paper too."""
    corpus = arguments.corpus
    if corpus is None:
        raise ValueError("real-errors needs --corpus DIR, the folder holding the papers the ledger names")
    if arguments.mode is None:
        return await bench_real_errors(arguments.data, corpus)
    cache = None if arguments.no_cache else LLMCache()
    try:
        return await bench_real_errors(
            arguments.data, corpus, lambda session: LLMAuditSource(llm_settings(arguments, session.config.llm), arguments.mode, cache=cache)
        )
    finally:
        if cache is not None:
            cache.close()


def to_text(report: dict[str, Any], indent: str = "") -> str:
    """The report as text: the critical benchmark as a table, the others as indented `key: value` lines."""
    if not indent and report.get("benchmark") == "critical":
        return critical_table(report)
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


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def critical_table(report: dict[str, Any]) -> str:
    """HR@k and AP@k in %, one row per configuration: the panel's, then each judge's (Tables 2 and 3)."""
    configurations = report.get("configurations") or {"": report}
    first = next(iter(configurations.values()))
    k, rule = first["k"], first["rule"]
    judges = list(dict.fromkeys(judge for entry in configurations.values() for judge in entry["judges"]))
    panel = "all judges" if rule == "all" else "majority"
    columns = ["checker", "input", "problems (Q1, Q3)", f"HR@{k} {panel}", *(f"HR@{k} {j}" for j in judges)]
    columns += [f"AP@{k} {panel}", *(f"AP@{k} {j}" for j in judges)]
    rows = []
    for name, entry in configurations.items():
        problems = entry["problems"]
        by_judge = entry["by_judge"]
        rows.append(
            [
                entry.get("checker") or name or "-",
                entry.get("input") or "-",
                f"{problems['mean']:.1f} ({problems['q1']:g}, {problems['q3']:g})",
                _percent(entry["hit_rate"]),
                *(_percent(by_judge[j]["hit_rate"]) if j in by_judge else "–" for j in judges),
                _percent(entry["average_precision"]),
                *(_percent(by_judge[j]["average_precision"]) if j in by_judge else "–" for j in judges),
            ]
        )
    widths = [max(len(column), *(len(row[i]) for row in rows)) for i, column in enumerate(columns)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            cell.ljust(width) if i < 3 else cell.rjust(width) for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    source = "replayed from recorded verdicts" if report.get("replay") else "live judges"
    if report.get("reread"):
        source = "replayed from the judges' raw answers, read by auditex"
    papers = sorted({entry["n_papers"] for entry in configurations.values()})
    out = [
        f"critical problems: HR@{k} and AP@{k} (%), {source}; {'/'.join(map(str, papers))} papers",
        line(columns),
        line(["-" * w for w in widths]),
    ]
    out += [line(row) for row in rows]
    for name, entry in configurations.items():
        label = " ".join(part for part in (entry.get("checker") or name, entry.get("input")) if part)
        for question, counts in (("hit", entry["hit_judging"]), ("precision", entry["precision_judging"])):
            silent = [judge for judge, count in counts.items() if count["judged"] + count["unreadable"] == 0 and count["not_judged"]]
            if silent:
                who = "" if len(silent) == len(counts) else f" by {', '.join(silent)}"
                out.append(f"{label}: no {question} verdicts{who} ({counts[silent[0]]['not_judged']} problems not judged)")
            for judge, count in counts.items():
                if judge not in silent and (count["unreadable"] or count["not_judged"]):
                    out.append(
                        f"{label}: {judge}, {question}: {count['unreadable']} unreadable answer(s) (counted No), "
                        f"{count['not_judged']} problem(s) not judged"
                    )
    out += [f"note: {note}" for note in report.get("notes", ())]
    if "llm" in report:
        for judge, stats in report["llm"].items():
            out.append(f"{judge}: {stats.get('calls', 0)} call(s), ${stats.get('cost_usd', 0.0):.4f}")
    return "\n".join(out) + "\n"
