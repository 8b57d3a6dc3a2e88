"""Cold `check` on every corpus paper, and a one-file incremental update.

Run: python benchmarks/check_speed.py [--corpus ../shared/corpus] [--no-rules PREFIX ...]
Reports milliseconds and peak RSS; targets (2-core machine): a cold check of a
180 KB paper ≤ 1.5 s, an incremental update ≤ 10 % of the cold time, the
largest paper under 300 MB RSS. Each paper runs in a fresh process so RSS is its own.
"""

from __future__ import annotations

import argparse
import json
import resource
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--no-rules", nargs="*", default=[], help="rule code prefixes to disable (to measure their cost)")
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.one:
        print(json.dumps(measure_one(arguments.one, arguments.no_rules)))
        return
    if not arguments.corpus.is_dir():
        sys.exit(f"no corpus at {arguments.corpus}")
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
