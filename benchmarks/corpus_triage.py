"""The corpus ledger's numbers: findings per paper, and each rule's precision per evidence class.

Run: python benchmarks/corpus_triage.py [--corpus DIR] [--papers a,b] [--jobs 2] [--drafts FILE] [--save FILE.json] [--write]
Checks every paper of ../shared/corpus, joins the findings in the ledger's scope (tests/corpus_ledger.py:
warnings and errors, and science findings at information and above) with their verdicts in
tests/corpus_triage.toml, and prints:
- per paper: errors and warnings as reported, and how the ledger judged the in-scope findings;
- per rule and evidence class (`Finding.evidence_class`): findings, genuine, false, untriaged, precision,
  the 95% Wilson lower bound, whether the class may warn (analyzers/precision.py), and genuine findings
  per paper;
- the false warnings per paper against the ledger's bar.
--write regenerates analyzers/measured_precision.py from the table (with the commit and corpus size);
--drafts writes a ledger entry to fill in for every untriaged finding; --save keeps the findings as JSON,
to compare two revisions of the rules.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from scipy.stats import binomtest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the ledger's reader lives beside the test that enforces it

from corpus_ledger import FALSE_PER_PAPER, SERIOUS, Entry, draft, in_scope, load_ledger  # noqa: E402

from auditex.analyzers.check import check_path  # noqa: E402
from auditex.analyzers.finding import Severity  # noqa: E402
from auditex.analyzers.precision import ClassPrecision, is_gated  # noqa: E402

TABLE = ROOT / "analyzers" / "measured_precision.py"


def paper_findings(folder: Path) -> list[dict]:
    return [
        {
            "code": f.code,
            "severity": f.severity.value,
            "evidence": f.evidence_class,
            "file": f.file,
            "line": f.range.start.line + 1,
            "message": f.message,
            "fingerprint": f.fingerprint,
            "confidence": f.confidence,
            "draft": draft(folder.name, f),
        }
        for f in in_scope(check_path(folder).findings)
    ]


def wilson_lower_bound(genuine: int, findings: int) -> float:
    return float(binomtest(genuine, findings).proportion_ci(confidence_level=0.95, method="wilson").low) if findings else 0.0


def per_paper(found: dict[str, list[dict]], ledger: dict[tuple[str, str], Entry]) -> int:
    """Prints the per-paper table; returns the false warnings."""
    print(f"{'paper':44} {'errors':>6} {'warnings':>8} {'genuine':>7} {'false':>5} {'untriaged':>9} {'false warn':>10}")
    totals = [0] * 6
    for paper, findings in found.items():
        verdicts = [ledger.get((paper, f["fingerprint"])) for f in findings]
        row = [
            sum(f["severity"] == "error" for f in findings),
            sum(f["severity"] == "warning" for f in findings),
            sum(v is not None and v.verdict == "genuine" for v in verdicts),
            sum(v is not None and v.verdict == "false" for v in verdicts),
            sum(v is None for v in verdicts),
            sum(v is not None and v.verdict == "false" and Severity(f["severity"]) in SERIOUS for f, v in zip(findings, verdicts)),
        ]
        totals = [a + b for a, b in zip(totals, row)]
        print(f"{paper:44} " + " ".join(f"{value:{width}}" for value, width in zip(row, (6, 8, 7, 5, 9, 10))))
    print(f"{'total':44} " + " ".join(f"{value:{width}}" for value, width in zip(totals, (6, 8, 7, 5, 9, 10))))
    return totals[5]


def precision_table(found: dict[str, list[dict]], ledger: dict[tuple[str, str], Entry]) -> list[tuple[ClassPrecision, int]]:
    """Each (rule, evidence class) measured: its precision and its untriaged findings."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # genuine, false, untriaged
    for paper, findings in found.items():
        for f in findings:
            entry = ledger.get((paper, f["fingerprint"]))
            slot = 2 if entry is None else 0 if entry.verdict == "genuine" else 1
            counts[(f["code"], f["evidence"])][slot] += 1
    table = []
    for (code, evidence), (genuine, false, untriaged) in sorted(counts.items()):
        judged = genuine + false
        table.append((ClassPrecision(code, evidence, judged, genuine, false, round(wilson_lower_bound(genuine, judged), 3)), untriaged))
    return table


def print_precision(table: list[tuple[ClassPrecision, int]], papers: int) -> None:
    print(
        f"\n{'rule':8} {'evidence class':34} {'found':>5} {'genuine':>7} {'false':>5} {'untriaged':>9} {'precision':>9} {'wilson lb':>9} {'warns':>5} {'genuine/paper':>13}"
    )
    for item, untriaged in table:
        warns = ("yes" if item.warns else "no") if is_gated(item.code) else "-"
        print(
            f"{item.code:8} {item.evidence[:34]:34} {item.findings:5} {item.genuine:7} {item.false:5} {untriaged:9} "
            f"{item.precision:9.2f} {item.lower_bound:9.2f} {warns:>5} {item.genuine / papers:13.3f}"
        )


def write_table(table: list[tuple[ClassPrecision, int]], papers: int) -> None:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip() or "unknown"
    rows = "\n".join(
        f"    ({item.code!r}, {item.evidence!r}): ({item.findings}, {item.genuine}, {item.false}, {item.lower_bound}),"
        for item, _ in table
        if item.findings
    )
    TABLE.write_text(
        f'''"""Measured precision of each rule's evidence classes on the triaged corpus.

Generated by `python benchmarks/corpus_triage.py --write`; do not edit by hand.
(code, evidence class): (findings, genuine, false, 95% Wilson lower bound of the precision).
"""

MEASURED_ON = {{"commit": {commit!r}, "papers": {papers}, "date": {datetime.date.today().isoformat()!r}}}

CLASSES: dict[tuple[str, str], tuple[int, int, int, float]] = {{
{rows}
}}
''',
        encoding="utf-8",
    )
    print(f"\nwrote {TABLE.relative_to(ROOT)} (commit {commit}, {papers} papers)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--papers", default="", help="comma-separated folder names (default: all)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--drafts", type=Path, help="write ledger entries for untriaged findings here")
    parser.add_argument("--save", type=Path, help="save the in-scope findings as JSON")
    parser.add_argument("--write", action="store_true", help="regenerate analyzers/measured_precision.py (whole corpus only)")
    arguments = parser.parse_args()
    if not arguments.corpus.is_dir():
        sys.exit(f"corpus not found at {arguments.corpus}")
    names = {name for name in arguments.papers.split(",") if name}
    if arguments.write and names:
        sys.exit("--write measures the whole corpus: leave out --papers")
    papers = sorted(p for p in arguments.corpus.iterdir() if p.is_dir() and (not names or p.name in names))
    ledger = load_ledger()
    with ProcessPoolExecutor(arguments.jobs) as pool:
        found = dict(zip((p.name for p in papers), pool.map(paper_findings, papers)))

    false_warnings = per_paper(found, ledger)
    table = precision_table(found, ledger)
    print_precision(table, len(found))
    untriaged = sum(count for _, count in table)
    print(f"\nfalse warnings per paper: {false_warnings / max(len(found), 1):.2f} (bar {FALSE_PER_PAPER}); untriaged: {untriaged}")
    if arguments.write:
        write_table(table, len(found))
    if arguments.drafts:
        drafts = [f["draft"] for paper, findings in found.items() for f in findings if (paper, f["fingerprint"]) not in ledger]
        arguments.drafts.write_text("\n".join(drafts), encoding="utf-8")
    if arguments.save:
        arguments.save.write_text(
            json.dumps(
                {paper: [{k: v for k, v in f.items() if k != "draft"} for f in findings] for paper, findings in found.items()},
                indent=1,
                ensure_ascii=False,
            ),
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
