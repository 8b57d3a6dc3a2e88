"""Cold `check` on every corpus paper, and a one-file incremental update; or where a cold check's CPU goes.

Run: python benchmarks/check_speed.py [--corpus ../shared/corpus] [--no-rules PREFIX ...]
Reports milliseconds and peak RSS; targets (2-core machine): a cold check of a
180 KB paper ≤ 1.5 s, an incremental update ≤ 10 % of the cold time, the
largest paper under 300 MB RSS. Each paper runs in a fresh process so RSS is its own.

Run: python benchmarks/check_speed.py --per-rule [--papers a,b] [--repeat 3]
Splits each paper's cold check (one process, no cache, no parse workers) into CPU milliseconds per
phase (import, parse, manuscript and index, facet digests, rules, text report) and per rule, the
median over `--repeat` fresh processes, so that a rule's cost is seen beside the others' after it
is merged. A per-section model that several rules share (sentences, quantities) is counted to the
first rule that reads it.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def measure_one(folder: Path, ignore: list[str]) -> dict[str, Any]:
    from auditex.analyzers.engine import RuleEngines
    from auditex.analyzers.project_config import Config, RulesConfig
    from auditex.analyzers.session import Session

    started = time.perf_counter()
    session = Session(folder, configure=lambda folder: Config(rules=RulesConfig(ignore=ignore)), rules=RuleEngines(), use_cache=False)
    session.check()
    findings = sum(len(state.findings) for state in session.opened())
    cold = time.perf_counter() - started
    project = max(session.projects, key=lambda p: len(p.files))
    size = sum(len(project.source(path).text) for path in project.files)
    # Incremental: type one character into the middle of the largest non-root file.
    candidates = [path for path in project.files if path != project.root_file] or [project.root_file]
    target = max(candidates, key=lambda path: len(project.source(path).text))
    text = project.source(target).text
    position = text.find("\n\n", len(text) // 2) if "\n\n" in text[len(text) // 2 :] else len(text) // 2
    timings = []
    for _ in range(5):
        text = text[:position] + "x" + text[position:]
        started = time.perf_counter()
        session.apply({target: text})
        session.check()
        timings.append(time.perf_counter() - started)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "paper": folder.name,
        "files": len(project.files),
        "kb": round(size / 1024),
        "findings": findings,
        "cold_ms": round(cold * 1000),
        "update_ms": round(sorted(timings)[len(timings) // 2] * 1000),
        "update_file": target,
        "peak_rss_mb": round(peak_mb),
    }


def phase_costs(folder: Path) -> dict[str, Any]:
    """One paper's cold check in this fresh process, as CPU milliseconds per phase and per rule."""
    started = time.process_time()
    from auditex.analyzers.engine import Engine, RuleEngines
    from auditex.analyzers.path_check import rare_full_collections
    from auditex.analyzers.reports.paths import Paths
    from auditex.analyzers.reports.text import text_report
    from auditex.analyzers.session import Session

    imported = time.process_time()
    with rare_full_collections():  # as `auditex check` runs
        session = Session(folder, rules=RuleEngines(), use_cache=False, parse_workers=1)
        session.open()
        parsed = time.process_time()
        for state in session.opened():
            state.project.index  # noqa: B018 (the manuscript and index that most rules read, built before any rule)
        modelled = time.process_time()
        session.check()
        checked = time.process_time()
    text_report(session.findings, session.roots, Paths(folder), hints=True, fragments=[], notes=[])
    reported = time.process_time()
    rules: dict[str, float] = {}
    facets = 0.0
    for state in session.opened():
        if isinstance(state.engine, Engine):
            facets += sum(state.engine.last_stats.facet_seconds.values())
            for code, seconds in state.engine.last_stats.rule_seconds.items():
                rules[code] = rules.get(code, 0.0) + seconds
    size = sum(len(state.project.source(path).text) for state in session.opened() for path in state.project.files)
    check = checked - modelled
    return {
        "paper": folder.name,
        "kb": size / 1024,
        "phases": {
            "import": 1000 * (imported - started),
            "parse": 1000 * (parsed - imported),
            "manuscript+index": 1000 * (modelled - parsed),
            "facets": 1000 * facets,
            "rules": 1000 * sum(rules.values()),
            "engine+policy": 1000 * (check - facets - sum(rules.values())),
            "report": 1000 * (reported - checked),
            "total": 1000 * (reported - started),
        },
        "rules": {code: 1000 * seconds for code, seconds in rules.items()},
    }


def per_rule(papers: list[Path], repeat: int) -> None:
    """Each paper's phases and rules, medians of `repeat` fresh processes, slowest rules first."""
    rows = []
    for folder in papers:
        runs = []
        for _ in range(repeat):
            out = subprocess.run([sys.executable, __file__, "--phases-of", str(folder)], capture_output=True, text=True, check=True)
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
        rows.append(
            {
                "paper": folder.name,
                "kb": runs[0]["kb"],
                "phases": {name: statistics.median(run["phases"][name] for run in runs) for name in runs[0]["phases"]},
                "rules": {code: statistics.median(run["rules"].get(code, 0.0) for run in runs) for code in runs[0]["rules"]},
            }
        )
    width = max(12, *(len(row["paper"]) for row in rows))
    print("CPU ms of a cold check, median of", repeat, "processes\n")
    print(f"{'phase':18}" + "".join(f"{row['paper'][:width]:>{width + 2}}" for row in rows))
    print(f"{'KB':18}" + "".join(f"{row['kb']:>{width + 2}.0f}" for row in rows))
    for name in rows[0]["phases"]:
        print(f"{name:18}" + "".join(f"{row['phases'][name]:>{width + 2}.0f}" for row in rows))
    print(f"{'parse per KB':18}" + "".join(f"{row['phases']['parse'] / max(row['kb'], 1):>{width + 2}.2f}" for row in rows))
    totals = {code: sum(row["rules"].get(code, 0.0) for row in rows) for row in rows for code in row["rules"]}
    print(f"\n{'rule':18}" + "".join(f"{row['paper'][:width]:>{width + 2}}" for row in rows) + f"{'share':>8}")
    whole = sum(totals.values()) or 1.0
    for code in sorted(totals, key=lambda code: -totals[code]):
        cells = "".join(f"{row['rules'].get(code, 0.0):>{width + 2}.1f}" for row in rows)
        print(f"{code:18}{cells}{totals[code] / whole:>8.1%}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--no-rules", nargs="*", default=[], help="rule code prefixes to disable (to measure their cost)")
    parser.add_argument("--per-rule", action="store_true", help="CPU per phase and per rule of a cold check of --papers")
    parser.add_argument("--papers", default="nips24_imprecise_labels", help="comma-separated corpus folders, for --per-rule")
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per paper, for --per-rule (the median is shown)")
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--phases-of", type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.one:
        print(json.dumps(measure_one(arguments.one, arguments.no_rules)))
        return
    if arguments.phases_of:
        print(json.dumps(phase_costs(arguments.phases_of)))
        return
    if not arguments.corpus.is_dir():
        sys.exit(f"no corpus at {arguments.corpus}")
    if arguments.per_rule:
        per_rule([arguments.corpus / name for name in arguments.papers.split(",") if name], arguments.repeat)
        return
    rows = []
    for folder in sorted(p for p in arguments.corpus.iterdir() if p.is_dir()):
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(folder), "--no-rules", *arguments.no_rules], capture_output=True, text=True, check=True
        )
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
    header = f"{'paper':26} {'files':>5} {'KB':>6} {'cold ms':>8} {'update ms':>9} {'upd/cold':>8} {'RSS MB':>7} {'findings':>8}"
    print(header)
    print("-" * len(header))
    for row in rows:
        ratio = row["update_ms"] / max(row["cold_ms"], 1)
        print(
            f"{row['paper']:26} {row['files']:5} {row['kb']:6} {row['cold_ms']:8} {row['update_ms']:9} {ratio:8.1%} {row['peak_rss_mb']:7} {row['findings']:8}"
        )


if __name__ == "__main__":
    main()
