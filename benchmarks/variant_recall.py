"""Variant recall: the caught real errors that stay caught when the paper is written in other authors' idioms.

Run: python benchmarks/variant_recall.py [--corpus DIR] [--papers a,b] [--rewrites r1,r2] [--jobs 1]
                                         [--json FILE.json] [--before FILE.json]

For each seen paper with problems the rules catch (tests/real_errors/, never the held-out fifth),
applies each meaning-preserving rewrite of auditex.evaluation.latex_rewrites alone (reference forms,
table rules, bold forms, a table in its own file, resized tabulars, numbers in math, siunitx, a
`\\newcommand` for a method name, ...), checks the rewritten copy and asks whether each caught
problem is still caught by the same rule family at information or above. Prints applicable /
survived / lost per rewrite and per family, and lists each lost problem as its paper is done; `--json` keeps the
table and `--before` prints a saved one beside it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path

from auditex.evaluation.variants import Outcome, losses, survival_table, variant_outcomes

ROOT = Path(__file__).resolve().parents[1]


def _row(counts: Mapping[str, int]) -> str:
    applicable, survived = counts["applicable"], counts["survived"]
    share = f"{survived / applicable:.0%}" if applicable else "-"
    return f"{applicable:>10} {survived:>8} {counts['lost']:>5} {share:>6}"


def print_table(table: Mapping[str, Mapping[str, Mapping[str, int]]], before: Mapping[str, Mapping[str, Mapping[str, int]]] | None) -> None:
    header = f"{'applicable':>10} {'survived':>8} {'lost':>5} {'':>6}"
    for axis in ("rewrite", "family"):
        print(f"{axis:22} {header}" + (f"   before: {header}" if before else ""))
        earlier = before.get(axis, {}) if before else {}
        for name, counts in sorted(table[axis].items()):
            print(f"{name:22} {_row(counts)}" + (f"           {_row(earlier[name])}" if name in earlier else ""))
        print()


def report(paper: str, outcomes: list[Outcome]) -> None:
    """Each paper's losses as soon as it is done (a long run is read while it runs)."""
    print(f"# {paper}: {len(losses(outcomes))} lost of {sum(outcome.applicable for outcome in outcomes)} applicable", file=sys.stderr)
    for outcome in losses(outcomes):
        problem = outcome.problem
        print(
            f"lost {outcome.rewrite:20} {problem.paper}/{problem.file}:{problem.line} [{problem.kind}, {outcome.family}]", file=sys.stderr
        )
    sys.stderr.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--ledger", type=Path, default=ROOT / "tests" / "real_errors")
    parser.add_argument("--papers", type=lambda text: set(text.split(",")), default=set())
    parser.add_argument("--rewrites", type=lambda text: text.split(","), default=[])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=Path, help="keep the survival table as JSON")
    parser.add_argument("--before", type=Path, help="a table saved by an earlier run, printed beside this one")
    arguments = parser.parse_args()
    if not arguments.corpus.is_dir():
        sys.exit(f"no corpus at {arguments.corpus}: pass --corpus DIR")
    outcomes = variant_outcomes(arguments.ledger, arguments.corpus, arguments.papers, arguments.rewrites, arguments.jobs, report)
    table = survival_table(outcomes)
    before = json.loads(arguments.before.read_text(encoding="utf-8")) if arguments.before else None
    print_table(table, before)
    if arguments.json:
        arguments.json.write_text(json.dumps(table, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
