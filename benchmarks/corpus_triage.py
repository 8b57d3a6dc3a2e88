"""The corpus ledger's numbers: findings per paper, and each rule's precision per evidence class.

Run: python benchmarks/corpus_triage.py [--corpus DIR] [--papers a,b] [--jobs 2] [--drafts FILE] [--save FILE.json] [--write]
Checks every paper of ../shared/corpus, joins the findings in the ledger's scope (tests/corpus_ledger.py:
warnings and errors, and science findings at information and above) with their verdicts in
tests/corpus_triage.toml, and prints:
- per paper: errors and warnings as reported, and how the ledger judged the in-scope findings;
- per rule and evidence class (`Finding.evidence_class`): findings, genuine, false, untriaged, precision,
  the 95% Wilson lower bound, whether the class may warn (analyzers/precision.py), and genuine findings
  per paper;
- the false warnings per paper against the ledger's bar, and the science yield: genuine science findings
  per paper at information or above and at warning or above, and the share of information-level ones
  that are genuine.
--write regenerates analyzers/measured_precision.py from the table (with the commit and corpus size);
--drafts writes a ledger entry to fill in for every untriaged finding; --save keeps the findings as JSON,
to compare two revisions of the rules; --reconcile [TRIAGED.toml …] rewrites the ledger for the findings
of this run: verdicts kept by fingerprint (and taken from the given files of newly triaged entries),
messages and severities brought up to date, entries no longer reported dropped and listed. A genuine
warning of the ledger that is now information keeps its old severity, so that the test still fails on it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scipy.stats import binomtest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the ledger's reader lives beside the test that enforces it

from corpus_ledger import FALSE_PER_PAPER, LEDGER, SCIENCE, SERIOUS, Entry, draft, in_scope, load_ledger  # noqa: E402

from auditex.analyzers.finding import Severity  # noqa: E402
from auditex.analyzers.path_check import check_path  # noqa: E402
from auditex.analyzers.precision import UNSURE, ClassPrecision, Measured, is_gated, is_unsure, tier_of  # noqa: E402
from auditex.evaluation.real_errors import load_ledger as load_real_errors  # noqa: E402

TABLE = ROOT / "analyzers" / "measured_precision.py"
REAL_ERRORS = ROOT / "tests" / "real_errors"


def paper_findings(folder: Path) -> list[dict[str, Any]]:
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


def per_paper(found: dict[str, list[dict[str, Any]]], ledger: dict[tuple[str, str], Entry]) -> int:
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


def science_yield(found: dict[str, list[dict[str, Any]]], ledger: dict[tuple[str, str], Entry]) -> None:
    """The issue's yield figures: genuine science findings per paper at information and at warning or above,
    and how many of the information-level ones are genuine; then the same yield on the real-errors ledger's
    seen papers and its held-out fifth apart. Rules fitted to the papers they were built from yield far more
    there than on the held-out fifth: the gap measures that without reading the fifth's ledger entries."""
    held_out = load_real_errors(REAL_ERRORS).held_out
    groups = {
        "all papers": found,
        "seen papers": {p: f for p, f in found.items() if p not in held_out},
        "held-out fifth": {p: f for p, f in found.items() if p in held_out},
    }
    for group, papers in groups.items():
        info_genuine = info_triaged = serious_genuine = 0
        for paper, findings in papers.items():
            for f in findings:
                entry = ledger.get((paper, f["fingerprint"]))
                if not f["code"].startswith(SCIENCE) or entry is None or f["severity"] == "hint":
                    continue
                genuine = entry.verdict == "genuine"
                if f["severity"] == "information":
                    info_genuine += genuine
                    info_triaged += 1
                else:
                    serious_genuine += genuine
        count = max(len(papers), 1)
        print(
            f"science findings, {group} ({len(papers)}): at information or above {(info_genuine + serious_genuine) / count:.2f} "
            f"genuine per paper, at warning or above {serious_genuine / count:.2f}; information-level {info_genuine} "
            f"genuine of {info_triaged} ({info_genuine / max(info_triaged, 1):.0%})"
        )


def measure(genuine: int, false: int, papers: set[str]) -> Measured:
    return Measured(genuine + false, genuine, false, round(wilson_lower_bound(genuine, genuine + false), 3), len(papers))


@dataclass
class Pool:
    """Classes pooled into one tier: their genuine and false findings, and the papers of the genuine ones."""

    genuine: int = 0
    false: int = 0
    papers: set[str] = field(default_factory=set)

    def measured(self) -> Measured:
        return measure(self.genuine, self.false, self.papers)


Pools = tuple[dict[str, Measured], dict[tuple[str, str], Measured]]  # per evidence tier, and per rule and tier


def precision_table(
    found: dict[str, list[dict[str, Any]]], ledger: dict[tuple[str, str], Entry]
) -> tuple[list[tuple[ClassPrecision, int]], Pools]:
    """Each (rule, evidence class) measured, with its untriaged findings; and the pools the gate borrows a bound from:
    each evidence tier pooled over the gated rules, and each gated rule's classes of one tier.

    A finding its rule is unsure of counts in its own class and in the class of its evidence's kind, which is
    measured over all the kind's findings, as the sure ones are judged by."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # genuine, false, untriaged
    right_on: dict[tuple[str, str], set[str]] = defaultdict(set)  # the papers of a class's genuine findings
    for paper, findings in found.items():
        for f in findings:
            entry = ledger.get((paper, f["fingerprint"]))
            slot = 2 if entry is None else 0 if entry.verdict == "genuine" else 1
            evidence = f["evidence"]
            for key in {(f["code"], evidence), (f["code"], evidence.removesuffix(UNSURE))}:
                counts[key][slot] += 1
                if slot == 0:
                    right_on[key].add(paper)
    tiers: dict[str, Pool] = defaultdict(Pool)
    rule_tiers: dict[tuple[str, str], Pool] = defaultdict(Pool)
    for (code, evidence), (genuine, false, _) in counts.items():
        if is_gated(code) and genuine + false and not is_unsure(evidence):
            for pool in (tiers[tier_of(evidence)], rule_tiers[(code, tier_of(evidence))]):
                pool.genuine += genuine
                pool.false += false
                pool.papers |= right_on[(code, evidence)]
    table = [
        (ClassPrecision(code, evidence, measure(genuine, false, right_on[(code, evidence)])), untriaged)
        for (code, evidence), (genuine, false, untriaged) in sorted(counts.items())
    ]
    return table, (
        {tier: pool.measured() for tier, pool in sorted(tiers.items())},
        {key: pool.measured() for key, pool in sorted(rule_tiers.items())},
    )


def print_precision(table: list[tuple[ClassPrecision, int]], pools: Pools, papers: int) -> None:
    print(
        f"\n{'rule':8} {'evidence class':48} {'found':>5} {'genuine':>7} {'false':>5} {'untriaged':>9} {'precision':>9} {'wilson lb':>9} {'papers':>6} {'warns':>5} {'genuine/paper':>13}"
    )
    for item, untriaged in table:
        m = item.measured
        warns = ("yes" if _warns(item, pools) else "no") if is_gated(item.code) else "-"
        print(
            f"{item.code:8} {item.evidence[:48]:48} {m.findings:5} {m.genuine:7} {m.false:5} {untriaged:9} "
            f"{m.precision:9.2f} {m.lower_bound:9.2f} {m.papers:6} {warns:>5} {m.genuine / papers:13.3f}"
        )
    tiers, rule_tiers = pools
    print(f"\n{'evidence tier (gated rules pooled)':44} {'found':>5} {'genuine':>7} {'false':>5} {'precision':>9} {'wilson lb':>9}")
    for name, m in [*tiers.items(), *((f"{code} {tier}", m) for (code, tier), m in rule_tiers.items())]:
        print(f"{name:44} {m.findings:5} {m.genuine:7} {m.false:5} {m.precision:9.2f} {m.lower_bound:9.2f}")


def _warns(item: ClassPrecision, pools: Pools) -> bool:
    """As analyzers/precision.py decides it, from this run's measurements rather than the table on disk."""
    tiers, rule_tiers = pools
    return item.warns_with(rule_tiers.get((item.code, item.tier)), tiers.get(item.tier))


def _literal(text: str) -> str:
    """A string literal as ruff format writes it (double quotes), so the generated table is formatted."""
    return json.dumps(text, ensure_ascii=False)


def write_table(table: list[tuple[ClassPrecision, int]], pools: Pools, papers: int) -> None:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip() or "unknown"
    rows = "\n".join(
        f"    ({_literal(item.code)}, {_literal(item.evidence)}): ({m.findings}, {m.genuine}, {m.false}, {m.lower_bound}, {m.papers}),"
        for item, _ in table
        if (m := item.measured).findings
    )
    tiers, rule_tiers = pools
    tier_rows = "\n".join(
        f"    {_literal(tier)}: ({m.findings}, {m.genuine}, {m.false}, {m.lower_bound}, {m.papers})," for tier, m in tiers.items()
    )
    rule_tier_rows = "\n".join(
        f"    ({_literal(code)}, {_literal(tier)}): ({m.findings}, {m.genuine}, {m.false}, {m.lower_bound}, {m.papers}),"
        for (code, tier), m in rule_tiers.items()
    )
    TABLE.write_text(
        f'''"""Measured precision of each rule's evidence classes on the triaged corpus.

Generated by `python benchmarks/corpus_triage.py --write`; do not edit by hand.
CLASSES: (code, evidence class): (findings, genuine, false, 95% Wilson lower bound of the precision,\n    distinct papers with a genuine finding);
TIERS: the same per evidence tier, pooled over the gated rules (analyzers/precision.py);
RULE_TIERS: the same per gated rule and evidence tier.
"""

MEASURED_ON = {{"commit": {_literal(commit)}, "papers": {papers}, "date": {_literal(datetime.date.today().isoformat())}}}

CLASSES: dict[tuple[str, str], tuple[int, int, int, float, int]] = {{
{rows}
}}

TIERS: dict[str, tuple[int, int, int, float, int]] = {{
{tier_rows}
}}

RULE_TIERS: dict[tuple[str, str], tuple[int, int, int, float, int]] = {{
{rule_tier_rows}
}}
''',
        encoding="utf-8",
    )
    print(f"\nwrote {TABLE.relative_to(ROOT)} (commit {commit}, {papers} papers)")


LEDGER_HEADER = """# Every warning or error auditex reports on ../shared/corpus, and every science finding (NUM, TAB, CNT,
# STAT, NOT) at information and above, triaged by a reader who opened the source (tests/corpus_ledger.py).
# tests/test_corpus.py enforces it; benchmarks/corpus_triage.py counts it, measures each rule's
# precision per evidence class (which sets the science rules' severity), drafts new entries and
# (--reconcile) brings messages and severities up to date.
"""


def reconcile(found: dict[str, list[dict[str, Any]]], ledger: dict[tuple[str, str], Entry], triaged: list[Path]) -> None:
    """Rewrites the ledger for this run's findings; prints what it dropped, kept back, or could not judge."""
    pool = dict(ledger)
    for path in triaged:
        for key, entry in load_ledger(path).items():
            pool.setdefault(key, entry)
    entries, untriaged, kept_back = [], 0, []
    for paper, findings in found.items():
        for f in findings:
            known = pool.get((paper, f["fingerprint"]))
            if known is None:
                untriaged += 1
                continue
            severity = f["severity"]
            previous = ledger.get((paper, f["fingerprint"]))
            if previous is not None and previous.kept_warning and Severity(severity) not in SERIOUS:
                kept_back.append(f"{paper} {f['code']} {f['file']}:{f['line']} {f['message']}")
                severity = previous.severity
            entries.append((paper, f, severity, known))
    reported = {(paper, f["fingerprint"]) for paper, f, _, _ in entries}
    gone = [entry for key, entry in ledger.items() if key not in reported and entry.paper in found]
    blocks = [LEDGER_HEADER]
    for paper, f, severity, known in sorted(entries, key=lambda item: (item[0], item[1]["file"], item[1]["line"], item[1]["code"])):
        blocks.append(
            "\n".join(
                (
                    "[[finding]]",
                    f"paper = {json.dumps(paper)}",
                    f"code = {json.dumps(f['code'])}",
                    f"severity = {json.dumps(severity)}",
                    f"file = {json.dumps(f['file'])}  # line {f['line']}",
                    f"fingerprint = {json.dumps(f['fingerprint'])}",
                    f"message = {json.dumps(f['message'], ensure_ascii=False)}",
                    f"verdict = {json.dumps(known.verdict)}",
                    f"reason = {json.dumps(known.reason, ensure_ascii=False)}",
                    "",
                )
            )
        )
    LEDGER.write_text("\n".join(blocks), encoding="utf-8")
    print(f"\nledger: {len(entries)} entries written; {untriaged} findings untriaged (see --drafts)")
    for entry in gone:
        print(
            f"  dropped ({entry.verdict}{', A REGRESSION' if entry.verdict == 'genuine' else ''}): {entry.paper} {entry.code} {entry.file}: {entry.message}"
        )
    for line in kept_back:
        print(f"  genuine warning now information, kept at its old severity so the test fails: {line}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--papers", default="", help="comma-separated folder names (default: all)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--drafts", type=Path, help="write ledger entries for untriaged findings here")
    parser.add_argument("--save", type=Path, help="save the in-scope findings as JSON")
    parser.add_argument("--write", action="store_true", help="regenerate analyzers/measured_precision.py (whole corpus only)")
    parser.add_argument("--reconcile", nargs="*", type=Path, help="rewrite the ledger for this run, adding verdicts from these files")
    parser.add_argument("--load", type=Path, help="take the findings from a --save file instead of checking the corpus")
    arguments = parser.parse_args()
    if not arguments.corpus.is_dir():
        sys.exit(f"corpus not found at {arguments.corpus}")
    names = {name for name in arguments.papers.split(",") if name}
    if (arguments.write or arguments.reconcile is not None) and names:
        sys.exit("--write and --reconcile take the whole corpus: leave out --papers")
    papers = sorted(p for p in arguments.corpus.iterdir() if p.is_dir() and (not names or p.name in names))
    ledger = load_ledger()
    if arguments.load:
        found = json.loads(arguments.load.read_text(encoding="utf-8"))
    else:
        with ProcessPoolExecutor(arguments.jobs) as pool:
            found = dict(zip((p.name for p in papers), pool.map(paper_findings, papers)))

    false_warnings = per_paper(found, ledger)
    table, pools = precision_table(found, ledger)
    print_precision(table, pools, len(found))
    untriaged = sum(count for _, count in table)
    print(f"\nfalse warnings per paper: {false_warnings / max(len(found), 1):.2f} (bar {FALSE_PER_PAPER}); untriaged: {untriaged}")
    science_yield(found, ledger)
    if arguments.reconcile is not None:
        reconcile(found, ledger, arguments.reconcile)
    if arguments.write:
        write_table(table, pools, len(found))
    if arguments.drafts:
        drafts = [f["draft"] for paper, findings in found.items() for f in findings if (paper, f["fingerprint"]) not in ledger]
        arguments.drafts.write_text("\n".join(drafts), encoding="utf-8")
    if arguments.save:
        arguments.save.write_text(
            json.dumps(
                {paper: [dict(f) for f in findings] for paper, findings in found.items()},
                indent=1,
                ensure_ascii=False,
            ),
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
