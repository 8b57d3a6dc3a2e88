"""Warning-or-above findings per corpus paper, against the triage ledger (tests/corpus_triage.toml).

Run: python benchmarks/corpus_triage.py [--corpus DIR] [--papers a,b] [--jobs 2] [--drafts FILE] [--save FILE.json]
Prints, per paper, the errors and warnings auditex reports and how the ledger judged them
(genuine, false, not yet triaged), then the false warnings per paper against the 0.2 bar.
--drafts writes a ledger entry to fill in for every untriaged finding; --save keeps the findings
(code, file, line, message) as JSON, to compare two revisions of the rules.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the ledger's reader lives beside the test that enforces it

from corpus_ledger import FALSE_PER_PAPER, draft, load_ledger, serious  # noqa: E402

from auditex.analyzers.check import check_path  # noqa: E402


def paper_findings(folder: Path) -> list[dict]:
    return [
        {
            "code": f.code,
            "severity": f.severity.value,
            "file": f.file,
            "line": f.range.start.line + 1,
            "message": f.message,
            "fingerprint": f.fingerprint,
            "confidence": f.confidence,
            "draft": draft(folder.name, f),
        }
        for f in serious(check_path(folder).findings)
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--papers", default="", help="comma-separated folder names (default: all)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--drafts", type=Path, help="write ledger entries for untriaged findings here")
    parser.add_argument("--save", type=Path, help="save the serious findings as JSON")
    arguments = parser.parse_args()
    if not arguments.corpus.is_dir():
        sys.exit(f"corpus not found at {arguments.corpus}")
    names = {name for name in arguments.papers.split(",") if name}
    papers = sorted(p for p in arguments.corpus.iterdir() if p.is_dir() and (not names or p.name in names))
    ledger = load_ledger()
    with ProcessPoolExecutor(arguments.jobs) as pool:
        found = dict(zip((p.name for p in papers), pool.map(paper_findings, papers)))

    print(f"{'paper':34} {'errors':>6} {'warnings':>8} {'genuine':>7} {'false':>5} {'untriaged':>9}")
    totals = [0, 0, 0, 0, 0]
    drafts: list[str] = []
    for paper, findings in found.items():
        verdicts = [ledger.get((paper, f["fingerprint"])) for f in findings]
        row = [
            sum(f["severity"] == "error" for f in findings),
            sum(f["severity"] == "warning" for f in findings),
            sum(v is not None and v.verdict == "genuine" for v in verdicts),
            sum(v is not None and v.verdict == "false" for v in verdicts),
            sum(v is None for v in verdicts),
        ]
        drafts += [f["draft"] for f, v in zip(findings, verdicts) if v is None]
        totals = [a + b for a, b in zip(totals, row)]
        print(f"{paper:34} {row[0]:6} {row[1]:8} {row[2]:7} {row[3]:5} {row[4]:9}")
    print(f"{'total':34} {totals[0]:6} {totals[1]:8} {totals[2]:7} {totals[3]:5} {totals[4]:9}")
    rate = totals[3] / max(len(found), 1)
    print(f"\nfalse warnings per paper: {rate:.2f} (bar {FALSE_PER_PAPER}); untriaged: {totals[4]}")
    if arguments.drafts:
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
