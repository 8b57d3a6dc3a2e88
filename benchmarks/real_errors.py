"""Recall on the real errors careful readers found in the corpus (tests/real_errors/).

Run: python benchmarks/real_errors.py [--corpus DIR] [--papers a,b] [--jobs 2] [--save FILE.json] [--before FILE.json]
                                     [--write-caught] [--misses KIND,...] [--audit MODE --provider P --model M ...]

Checks every paper the ledger has read and matches the findings to its problems
(auditex.evaluation.real_errors: same file, within two lines, a code the problem's kind maps to).
Prints recall per kind at information-or-above and at warning-or-above, overall, for the problems a
deterministic check could decide, and for the seen papers and the held-out fifth apart. Rules alone by
default; `--audit MODE` adds an LLM audit of each paper (the same flags as `auditex audit`).
`--save` keeps the table as JSON and `--before` prints a saved table beside this run's.
`--misses KIND,...` (or `--misses all`) lists the problems of those kinds that nothing catches, on the
seen papers only: rule work never reads the held-out fifth's entries.
`--write-caught` rewrites tests/real_errors_caught.toml: the problems the rules catch, which
tests/test_corpus.py keeps caught.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from auditex.analyzers.finding import Finding
from auditex.analyzers.llm.source import LLMAuditSource, audit_results
from auditex.analyzers.path_check import check_path
from auditex.cli.audit_command import add_llm_options, llm_settings
from auditex.evaluation.real_errors import Ledger, Problem, caught_problems, load_ledger, recall_table, seen_misses

ROOT = Path(__file__).resolve().parents[1]
LEDGER = ROOT / "tests" / "real_errors"
CAUGHT = ROOT / "tests" / "real_errors_caught.toml"


def rule_findings(folder: Path) -> list[dict[str, Any]]:
    return [finding.model_dump(mode="json") for finding in check_path(folder).findings]


async def audited_findings(folder: Path, arguments: argparse.Namespace) -> list[Finding]:
    session = check_path(folder)
    settings = llm_settings(arguments, session.config.llm)
    async for _ in audit_results(session, LLMAuditSource(settings, arguments.audit)):
        pass
    return session.findings


def findings_of(ledger: Ledger, arguments: argparse.Namespace) -> dict[str, list[Finding]]:
    papers = [paper for paper in ledger.papers if not arguments.papers or paper in arguments.papers]
    folders = {paper: arguments.corpus / paper for paper in papers if (arguments.corpus / paper).is_dir()}
    if arguments.audit:
        return {paper: asyncio.run(audited_findings(folder, arguments)) for paper, folder in folders.items()}
    with ProcessPoolExecutor(arguments.jobs) as pool:
        dumped = dict(zip(folders, pool.map(rule_findings, folders.values())))
    return {paper: [Finding.model_validate(raw) for raw in raw_findings] for paper, raw_findings in dumped.items()}


def _percent(value: object) -> str:
    return f"{value:.0%}" if isinstance(value, float) else "-"


def _cells(row: Mapping[str, object]) -> str:
    return (
        f"{row['problems']:>8} {row['informed']:>6} {_percent(row['information_or_above']):>6}"
        f" {row['warned']:>6} {_percent(row['warning_or_above']):>6}"
    )


def print_table(table: Mapping[str, object], before: Mapping[str, object] | None) -> None:
    header = f"{'problems':>8} {'info+':>6} {'':>6} {'warn+':>6} {'':>6}"
    print(f"{table['papers']} papers, {table['problems']} problems\n")
    print(f"{'':26} {header}" + (f"   before: {header}" if before else ""))
    for section in ("overall", "per_kind"):
        rows: Mapping[str, Mapping[str, object]] = table[section]  # type: ignore[assignment]
        earlier: Mapping[str, Mapping[str, object]] = before.get(section, {}) if before else {}  # type: ignore[assignment]
        for name, row in rows.items():
            print(f"{name:26} {_cells(row)}" + (f"           {_cells(earlier[name])}" if name in earlier else ""))
        print()


def print_misses(problems: list[Problem]) -> None:
    print(f"{len(problems)} uncaught problems on the seen papers:\n")
    for problem in problems:
        other = f" (other side {problem.other})" if problem.other else ""
        decidable = "decidable" if problem.decidable else "not decidable"
        print(f"{problem.paper}/{problem.file}:{problem.line}{other} [{problem.kind}, {decidable}]")
        print(f"    {problem.evidence}\n")


def write_caught(ledger: Ledger, findings: Mapping[str, list[Finding]]) -> None:
    lines = [
        "# The real-errors ledger's problems that the rules catch (benchmarks/real_errors.py --write-caught).",
        "# tests/test_corpus.py fails when one of them is no longer caught at information or above.",
        "",
    ]
    for problem, finding in caught_problems(ledger, findings):
        lines += [
            "[[caught]]",
            f"paper = {json.dumps(problem.paper)}",
            f"file = {json.dumps(problem.file)}",
            f"line = {problem.line}",
            f"kind = {json.dumps(problem.kind)}",
            f"code = {json.dumps(finding.code)}",
            "",
        ]
    CAUGHT.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {CAUGHT.relative_to(ROOT)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--ledger", type=Path, default=LEDGER)
    parser.add_argument("--papers", type=lambda text: set(text.split(",")), default=set())
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--save", type=Path, help="keep this run's table as JSON")
    parser.add_argument("--before", type=Path, help="a table saved by an earlier run, printed beside this one")
    parser.add_argument("--write-caught", action="store_true", help="rewrite tests/real_errors_caught.toml")
    parser.add_argument(
        "--misses",
        type=lambda text: set() if text == "all" else set(text.split(",")),
        help="list the uncaught problems of these kinds (comma-separated, or all) on the seen papers",
    )
    parser.add_argument("--audit", metavar="MODE", help="add an LLM audit in this mode (fast, standard, deep)")
    add_llm_options(parser)
    arguments = parser.parse_args()
    if not arguments.corpus.is_dir():
        sys.exit(f"no corpus at {arguments.corpus}: pass --corpus DIR")
    ledger = load_ledger(arguments.ledger)
    findings = findings_of(ledger, arguments)
    table = recall_table(ledger, findings)
    before = json.loads(arguments.before.read_text(encoding="utf-8")) if arguments.before else None
    print_table(table, before)
    if arguments.save:
        arguments.save.write_text(json.dumps(table, indent=2) + "\n", encoding="utf-8")
    if arguments.write_caught:
        write_caught(ledger, findings)
    if arguments.misses is not None:
        print_misses(seen_misses(ledger, findings, arguments.misses))


if __name__ == "__main__":
    main()
