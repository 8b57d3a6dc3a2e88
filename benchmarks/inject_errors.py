"""Plant one error per copy of a corpus paper and measure what the rules catch.

For each paper and each kind of error, the injector makes one edit (the kinds
below), re-checks the paper in-process (incrementally, or from a copy on disk
with --cold), and compares with the clean paper:

- hit: a finding new to the injected copy whose range, or one of its related
  locations, is on an edited line;
- new: the number of new warning-or-above findings in the injected copy.

    python benchmarks/inject_errors.py [--corpus DIR] [--papers a,b] [--kinds k1,k2] [--cold] [--timing]

`--kinds slips` plants the slips shaped like an author's (SLIPS), reported together on an
"author slips" line as well as per kind.

Kinds whose detectors live in other modules (statistics, notation, hidden text)
are planted too, so the table measures every deterministic family. A kind is
skipped for a paper that offers nothing to break ("where the paper allows");
the kinds marked "inserted" add a short sentence instead of editing one.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from markup_slips import (
    plant_acronym_other_initials,
    plant_acronym_same_initials,
    plant_hidden_instruction,
    plant_label_in_optional,
    plant_macro_renewed,
    plant_symbol_range,
)
from number_slips import (
    plant_abstract_restated,
    plant_arithmetic,
    plant_best_claim,
    plant_best_marker,
    plant_cited_table_number,
    plant_count,
    plant_prose_vs_table,
    plant_same_quantity,
    plant_statistic,
    plant_table_aggregate,
    plant_table_quote,
)
from planting import Edit

from auditex.analyzers.finding import Finding, Severity
from auditex.analyzers.path_check import check_path
from auditex.analyzers.project_config import Config, RulesConfig
from auditex.analyzers.projects import open_projects
from auditex.analyzers.rules import default_registry
from auditex.analyzers.session import Session
from auditex.latex.project import Project

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
SERIOUS = (Severity.ERROR, Severity.WARNING)
# Modules of the issue-4 rule families: switched off together for the timing baseline.
ISSUE_MODULES = ("numbers", "tables", "counts", "statistics", "notation", "disclosures", "rhetoric", "hidden_text")


@dataclass
class Outcome:
    paper: str
    kind: str
    what: str
    hit: bool
    hit_serious: bool  # a hitting finding is a warning or an error, not information
    new_serious: int
    hitting: list[str] = field(default_factory=list)


PLANTERS: dict[str, Callable[[Project], Iterator[Edit]]] = {
    "prose_vs_table": plant_prose_vs_table,
    "table_quote": plant_table_quote,
    "cited_table_number": plant_cited_table_number,
    "same_quantity": plant_same_quantity,
    "abstract_restated": plant_abstract_restated,
    "table_aggregate": plant_table_aggregate,
    "best_marker": plant_best_marker,
    "best_claim": plant_best_claim,
    "arithmetic": plant_arithmetic,
    "count": plant_count,
    "statistic": plant_statistic,
    "acronym_same_initials": plant_acronym_same_initials,
    "acronym_other_initials": plant_acronym_other_initials,
    "macro_renewed": plant_macro_renewed,
    "label_in_optional": plant_label_in_optional,
    "symbol_range": plant_symbol_range,
    "hidden_instruction": plant_hidden_instruction,
}
# Slips shaped like an author's (issue 11): each planted where any paper offers the site.
SLIPS = (
    "cited_table_number",
    "abstract_restated",
    "table_aggregate",
    "acronym_same_initials",
    "acronym_other_initials",
    "macro_renewed",
    "label_in_optional",
)
# Names accepted by --kinds besides the kinds: a group, and the kinds' former names.
ALIASES = {"slips": SLIPS, "aggregate": ("table_aggregate",), "acronym": ("acronym_same_initials",)}


# ---------------------------------------------------------------- harness


def _key(finding: Finding) -> tuple[str, str, str]:
    return finding.code, finding.file, finding.message


def _on_lines(finding: Finding, file: str, lines: set[int]) -> bool:
    spots = [(finding.file, finding.range)] + [(related.file, related.range) for related in finding.related]
    return any(spot_file == file and any(r.start.line <= line <= r.end.line for line in lines) for spot_file, r in spots)


def sites(project: Project, kind: str, per_paper: int, seed: int, paper: str) -> list[Edit]:
    """Up to `per_paper` sites of one kind, drawn without replacement by a seeded generator
    (distinct lines only: two plants on one line would measure the same thing twice)."""
    distinct: dict[tuple[str, int], Edit] = {}
    for edit in PLANTERS[kind](project):
        text = project.source(edit.file).text
        if all(text[start:end] == new for start, end, new in edit.changes):
            continue  # the bump of an all-zero number ("0", "0.00") changes nothing: no slip
        distinct.setdefault((edit.file, min(edit.lines)), edit)
    candidates = list(distinct.values())
    random.Random(f"{seed}:{paper}:{kind}").shuffle(candidates)
    return candidates[:per_paper]


@contextmanager
def _checker(paper: Path, clean: Session, cold: bool) -> Iterator[Callable[[str, str], list[Finding]]]:
    """A function checking the paper with one file's text replaced, the paper restored after each call.
    By default the clean check's session takes the text as an editor's change and re-checks what
    changed, as the language server does; `cold` writes a copy and runs `check_path` on it."""
    if cold:
        with tempfile.TemporaryDirectory(prefix="auditex-inject-") as tmp:
            copy = Path(tmp) / paper.name
            shutil.copytree(paper, copy)

            def on_disk(file: str, text: str) -> list[Finding]:
                original = (copy / file).read_text(encoding="utf-8")
                (copy / file).write_text(text, encoding="utf-8")
                try:
                    return check_path(copy).findings
                finally:
                    (copy / file).write_text(original, encoding="utf-8")  # one error per copy

            yield on_disk
        return

    def in_memory(file: str, text: str) -> list[Finding]:
        clean.apply({file: text})
        try:
            clean.check()
            return clean.findings
        finally:
            clean.apply({file: None})  # back to the file on disk

    clean.check()  # the engines' caches hold the clean paper
    yield in_memory


def measure_paper(paper: Path, kinds: list[str], per_paper: int = 5, seed: int = 0, cold: bool = False) -> list[Outcome]:
    clean = check_path(paper)
    clean_keys = {_key(f) for f in clean.findings}
    _, projects = open_projects(paper)
    project = projects[0]
    outcomes = []
    with _checker(paper, clean, cold) as check:
        for kind in kinds:
            for edit in sites(project, kind, per_paper, seed, paper.name):
                injected = check(edit.file, edit.apply(project.source(edit.file).text))
                new = [f for f in injected if _key(f) not in clean_keys]
                hitting = [f for f in new if _on_lines(f, edit.file, edit.lines)]
                serious = [f for f in new if f.severity in SERIOUS]
                outcomes.append(
                    Outcome(
                        paper.name,
                        kind,
                        edit.what,
                        bool(hitting),
                        any(f.severity in SERIOUS for f in hitting),
                        len(serious),
                        [f"{f.code} {f.message[:90]}" for f in hitting],
                    )
                )
    return outcomes


def _family(module: str) -> str:
    """The rule family a check's module belongs to: `numbers` for a module, `tables` for a package's rule."""
    return module.removeprefix("auditex.analyzers.rules.").split(".")[0]


def timing(papers: list[Path]) -> tuple[float, float]:
    """Cold check time of the corpus with and without the issue-4 rule families."""
    mine = sorted({item.code for item in default_registry() if _family(item.check.__module__) in ISSUE_MODULES})
    without = Config(rules=RulesConfig(ignore=mine))
    totals = [0.0, 0.0]
    for paper in papers:
        for slot, config in enumerate((without, None)):
            start = time.perf_counter()
            check_path(paper, config=config)
            totals[slot] += time.perf_counter() - start
    return totals[0], totals[1]


def _summary_line(name: str, rows: list[Outcome]) -> None:
    """Plants, papers, hits (and those at warning or above), recall, new warning-or-above findings per copy."""
    if not rows:
        print(f"{name:22} {0:7} {0:6} {'-':>5} {'-':>5} {'-':>7} {'-':>15}")
        return
    hits = sum(o.hit for o in rows)
    print(
        f"{name:22} {len(rows):7} {len({o.paper for o in rows}):6} {hits:5} {sum(o.hit_serious for o in rows):5} "
        f"{hits / len(rows):7.0%} {sum(o.new_serious for o in rows) / len(rows):15.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--papers", default="", help="comma-separated folder names (default: all)")
    parser.add_argument("--kinds", default="", help=f"comma-separated, from {', '.join(PLANTERS)}; or {', '.join(ALIASES)}")
    parser.add_argument("--per-paper", type=int, default=5, help="sites per paper and kind, one copy each (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the site sample (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="papers measured in parallel processes")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="check each planted copy from disk with check_path (slower; the default re-checks in memory, incrementally)",
    )
    parser.add_argument("--timing", action="store_true", help="also time cold checks with and without the issue-4 rules")
    parser.add_argument("--verbose", "-v", action="store_true", help="print every planted edit and what hit it")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"corpus not found at {args.corpus}", file=sys.stderr)
        return 2
    names = [name for name in args.papers.split(",") if name]
    papers = sorted(p for p in args.corpus.iterdir() if p.is_dir() and (not names or p.name in names))
    asked = [kind for kind in args.kinds.split(",") if kind] or list(PLANTERS)
    kinds = list(dict.fromkeys(named for kind in asked for named in ALIASES.get(kind, (kind,))))
    unknown = set(kinds) - set(PLANTERS)
    if unknown:
        print(f"unknown kinds: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    outcomes: list[Outcome] = []
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        runs = [pool.submit(measure_paper, paper, kinds, args.per_paper, args.seed, args.cold) for paper in papers]
        for run in runs:
            results = run.result()
            outcomes += results
            if args.verbose:
                for o in results:
                    print(f"{'HIT ' if o.hit else 'miss'} {o.paper:28} {o.kind:22} new={o.new_serious} {o.what[:70]}")
                    for line in o.hitting:
                        print(f"       {line}")
    print(f"\n{'kind':22} {'planted':>7} {'papers':>6} {'hits':>5} {'warn+':>5} {'recall':>7} {'new warn+/copy':>15}")
    for kind in kinds:
        _summary_line(kind, [o for o in outcomes if o.kind == kind])
    slips = [o for o in outcomes if o.kind in SLIPS]
    if slips:
        _summary_line("author slips", slips)
    if len(slips) < len(outcomes):
        _summary_line("total", outcomes)
    if args.timing:
        without, with_rules = timing(papers)
        print(f"\ncold check, corpus: {without:.1f}s without the issue-4 rules, {with_rules:.1f}s with (+{(with_rules / without - 1):.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
