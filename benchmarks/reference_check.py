"""Reference verification (`check --online`) against loopback stand-ins: false warnings, recall, speed.

Run: python benchmarks/reference_check.py [--corpus ../shared/corpus] [--speed-entries 200] [--latency-ms 50]

1. Precision: every cited entry of every corpus paper (.bib, .bbl, \\bibitem), with the
   stand-ins (tests/scholarly_standins.py, the services' real JSON and Atom shapes) answering
   from the entries themselves, rendered the services' way (titles as plain text in another
   case, "Given Family" names, DBLP's trailing period, a DOI for every work). Every BIB finding
   at warning or above is a false warning (target 0).
2. Recall: corpus entries copied into one bibliography, each with one planted error: fabricated
   (the indexes do not know it), mis-dated (year off by 3 to 6), mis-attributed (another first
   author), wrong DOI (another work's), retracted (the indexes say so). Recall is the share
   whose expected code (BIB001, BIB002, BIB002, BIB003, BIB004) is reported (target ≥ 90 %).
3. Speed: N entries against stand-ins with a fixed latency per request, with the polite
   default rate limits (arXiv 1 / 3 s, Semantic Scholar 1 / s, ...), a fresh cache (target
   ≤ 20 s), then a second run from the disk cache (target ≤ 1 s).
4. Kinds: every corpus entry that is software, a web page, a dataset, a report or only a URL,
   against indexes that hold none of them: none may be reported as likely fabricated (BIB001).

Nothing here reaches the internet: every base URL points at 127.0.0.1, and entries' own URLs
are not asked (`check_urls=False`).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from scholarly_standins import SERVICES, StandIns, StandInWork  # noqa: E402

from auditex.analyzers.finding import Finding  # noqa: E402
from auditex.analyzers.online_verification import OnlineChecker, Summary  # noqa: E402
from auditex.analyzers.policy import Policy  # noqa: E402
from auditex.analyzers.projects import open_projects  # noqa: E402
from auditex.analyzers.rules import default_registry  # noqa: E402
from auditex.analyzers.scholarly.cited_references import Cited, cited_references  # noqa: E402
from auditex.analyzers.scholarly.http import HostPolicy  # noqa: E402
from auditex.analyzers.scholarly.index_cache import AnswerCache  # noqa: E402
from auditex.analyzers.scholarly.work import Reference  # noqa: E402
from auditex.latex.project import Project  # noqa: E402

WORDS = (
    "quantum hyperbolic widget sparse gradient lattice manifold spectral adaptive federated causal neural "
    "stochastic ensemble topological bayesian latent recurrent symbolic kernel"
).split()


def corpus_references(corpus: Path) -> list[tuple[str, Project, list[Cited]]]:
    papers = []
    for folder in sorted(p for p in corpus.iterdir() if p.is_dir()):
        try:
            _, projects = open_projects(folder)
        except Exception:  # a corpus folder without a root file
            continue
        for project in projects:
            cited = [c for c in cited_references(project) if c.reference.title]
            papers.append((folder.name, project, cited))
    return papers


def as_indexed(reference: Reference, index: int, rng: random.Random) -> StandInWork:
    """The work as an index would hold it: the entry's metadata, rendered the index's way."""
    title = reference.title
    title = title.upper() if index % 3 == 0 else title.lower() if index % 3 == 1 else title  # case is not a mismatch
    return StandInWork(
        title=title,
        authors=list(reference.authors) or ["Anonymous Author"],
        year=reference.year or 2020,
        venue=reference.venue if not reference.is_preprint else "",
        doi=reference.doi or f"10.5555/standin.{index}",
        arxiv=reference.arxiv,
        preprint=reference.is_preprint,
        pmid=reference.pmid,
    )


def fast_policies(stand_ins: StandIns) -> dict[str, HostPolicy]:
    return {f"{stand_ins.url}/{name}/": HostPolicy(0.0, 16) for name in SERVICES} | {f"{stand_ins.url}/s2/graph/v1/": HostPolicy(0.0, 16)}


async def check_projects(checker: OnlineChecker, projects: list[tuple[Project, list[Cited]]]) -> list[tuple[list[Finding], Summary]]:
    results = []
    for project, cited in projects:
        results.append(await checker.check(project, Policy(), cited=cited))
    return results


def _identity(reference: Reference) -> tuple[str, str]:
    from auditex.analyzers.scholarly.matching import normal, surname

    return normal(reference.title).replace(" ", ""), surname(reference.authors[0]) if reference.authors else ""


def index_from_entries(references: list[Reference], rng: random.Random) -> tuple[list[StandInWork], set[str]]:
    """One index record per work (entries grouped by title and first author; the most complete entry is
    the record) and per identifier; and the works whose corpus entries disagree with one another."""
    groups: dict[tuple[str, str], list[Reference]] = {}
    for reference in references:
        groups.setdefault(_identity(reference), []).append(reference)
    works: list[StandInWork] = []
    conflicting: set[str] = set()
    claimed: dict[str, tuple[str, str]] = {}
    for identity, group in groups.items():
        record = max(group, key=lambda r: (len(r.authors), bool(r.doi), bool(r.venue), bool(r.year)))
        variants = {(tuple(r.authors), r.year, r.doi, r.arxiv) for r in group}
        if len(variants) > 1:
            conflicting.add(identity[0])
        for identifier in (record.doi, record.arxiv):
            if identifier and identifier in claimed and claimed[identifier] != identity:
                conflicting.add(identity[0])  # two corpus works claim one DOI / arXiv id
                conflicting.add(claimed[identifier][0])
                record = record.model_copy(
                    update={
                        "doi": "" if identifier == record.doi else record.doi,
                        "arxiv": "" if identifier == record.arxiv else record.arxiv,
                    }
                )
            elif identifier:
                claimed[identifier] = identity
        works.append(as_indexed(record, len(works), rng))
    return works, conflicting


def precision(corpus: Path) -> None:
    papers = corpus_references(corpus)
    rng = random.Random(7)
    unique = {item.digest: item.reference for _, _, cited in papers for item in cited}
    works, conflicting = index_from_entries(list(unique.values()), rng)
    with tempfile.TemporaryDirectory() as cache_dir, StandIns(works) as stand_ins:
        cache = AnswerCache(Path(cache_dir))
        checker = OnlineChecker(
            default_registry(), cache=cache, env=stand_ins.environment(), policies=fast_policies(stand_ins), check_urls=False
        )
        started = time.perf_counter()
        results = asyncio.run(check_projects(checker, [(project, cited) for _, project, cited in papers]))
        seconds = time.perf_counter() - started
        cache.close()
    print("## Precision: corpus bibliographies, stand-ins answering from the entries\n")
    print(f"{'paper':34} {'entries':>7} {'verified':>8} {'unchecked':>9} {'false warn+':>11} {'conflict warn+':>14} {'info/hint':>9}")
    rows: dict[str, list[int]] = {}
    false, conflicts = [], []
    for (name, _, cited), (findings, summary) in zip(papers, results):
        by_key = {c.reference.key: c.reference for c in cited}
        warnings = [f for f in findings if f.severity.rank >= 2]
        disagree = [f for f in warnings if _identity(by_key[f.identity.rsplit(":", 1)[0]])[0] in conflicting]
        wrong = [f for f in warnings if f not in disagree]
        false += [(name, f) for f in wrong]
        conflicts += [(name, f) for f in disagree]
        row = rows.setdefault(name, [0] * 6)
        for index, value in enumerate(
            (len(cited), summary.verified, summary.unchecked, len(wrong), len(disagree), len(findings) - len(warnings))
        ):
            row[index] += value
    for name, row in rows.items():
        if row[0]:
            print(f"{name:34} {row[0]:7} {row[1]:8} {row[2]:9} {row[3]:11} {row[4]:14} {row[5]:9}")
    total = [sum(row[i] for row in rows.values()) for i in range(6)]
    print(f"{'TOTAL':34} {total[0]:7} {total[1]:8} {total[2]:9} {total[3]:11} {total[4]:14} {total[5]:9}")
    print(
        f"\nfalse BIB warnings: {total[3]} over {total[0]} cited entries ({len(unique)} distinct) of {len(rows)} papers (target 0); "
        f"{seconds:.1f} s without politeness pauses"
    )
    for name, finding in false[:20]:
        print(f"  {name}: {finding.code} {finding.message}")
    print(f"warnings on works whose corpus entries disagree with one another (the index holds the most complete one): {total[4]}")
    for name, finding in conflicts[:12]:
        print(f"  {name}: {finding.code} {finding.message[:200]}")


def planted(corpus: Path, per_kind: int) -> None:
    rng = random.Random(11)
    pool: list[Reference] = []
    seen = set()
    for _, _, cited in corpus_references(corpus):
        for item in cited:
            reference = item.reference
            if reference.authors and reference.year and len(reference.title) > 20 and reference.title.lower() not in seen:
                seen.add(reference.title.lower())
                pool.append(reference)
    rng.shuffle(pool)
    kinds = ("fabricated", "mis-dated", "mis-attributed", "wrong-doi", "retracted")
    expected = {"fabricated": "BIB001", "mis-dated": "BIB002", "mis-attributed": "BIB002", "wrong-doi": "BIB003", "retracted": "BIB004"}
    works: list[StandInWork] = []
    entries: list[tuple[str, str, Reference]] = []  # (key, kind, cited reference)
    clean = pool[len(kinds) * per_kind : len(kinds) * per_kind + 100]
    for index, reference in enumerate(clean):  # correct entries around the planted ones, and other works' DOIs
        works.append(as_indexed(reference, len(works), rng))
        entries.append((f"clean{index}", "clean", reference))
    for k, kind in enumerate(kinds):
        for i in range(per_kind):
            reference = pool[k * per_kind + i].model_copy()
            key = f"{kind}{i}"
            indexed = as_indexed(reference, len(works), rng)
            if kind == "fabricated":
                title = " ".join(rng.sample(WORDS, 6)).capitalize() + f" for {rng.choice(WORDS)} {rng.choice(WORDS)} systems"
                reference = reference.model_copy(update={"title": title, "doi": "", "arxiv": ""})
            else:
                works.append(indexed)
            if kind == "mis-dated":
                reference = reference.model_copy(update={"year": (reference.year or 2020) - rng.randint(3, 6)})
            elif kind == "mis-attributed":
                reference = reference.model_copy(update={"authors": ["Jonathan Quackenbush", *reference.authors[1:]]})
            elif kind == "wrong-doi":
                reference = reference.model_copy(update={"doi": works[rng.randrange(len(clean))].doi})
            elif kind == "retracted":
                indexed.retracted = True
            entries.append((key, kind, reference))
    findings = _checked_bibliography(entries, works)
    codes: dict[str, set[str]] = {}
    for finding in findings:
        codes.setdefault(finding.identity.rsplit(":", 1)[0], set()).add(finding.code)
    print(f"\n## Recall: {per_kind} planted errors of each kind among {len(clean)} correct entries\n")
    print(f"{'kind':16} {'planted':>7} {'found':>6} {'recall':>7}")
    found_all = planted_all = 0
    for kind in kinds:
        keys = [key for key, k, _ in entries if k == kind]
        found = sum(1 for key in keys if expected[kind] in codes.get(key, set()))
        found_all += found
        planted_all += len(keys)
        print(f"{kind:16} {len(keys):7} {found:6} {found / len(keys):7.0%}")
    false = sum(1 for key, kind, _ in entries if kind == "clean" and any(c != "BIB005" for c in codes.get(key, set())))
    print(
        f"{'all':16} {planted_all:7} {found_all:6} {found_all / planted_all:7.0%}   (target ≥ 90 %); "
        f"correct entries flagged: {false} of {len(clean)}"
    )


def _checked_bibliography(entries: list[tuple[str, str, Reference]], works: list[StandInWork]) -> list[Finding]:
    """The online check's findings on a paper citing `entries` (key, kind, reference), against stand-ins indexing `works`."""
    with tempfile.TemporaryDirectory() as folder:
        bib = "".join(_bibtex(key, reference) for key, _, reference in entries)
        Path(folder, "refs.bib").write_text(bib, encoding="utf-8")
        Path(folder, "main.tex").write_text(
            "\\documentclass{article}\n\\begin{document}\n\\nocite{*}\n\\bibliography{refs}\n\\end{document}\n"
        )
        project = Project(Path(folder), "main.tex")
        with StandIns(works) as stand_ins:
            cache = AnswerCache(Path(folder) / "cache")
            checker = OnlineChecker(
                default_registry(), cache=cache, env=stand_ins.environment(), policies=fast_policies(stand_ins), check_urls=False
            )
            [(findings, _summary)] = asyncio.run(check_projects(checker, [(project, cited_references(project))]))
            cache.close()
    return findings


def _bibtex(key: str, reference: Reference) -> str:
    fields = {
        "title": reference.title,
        "author": " and ".join(reference.authors),
        "year": str(reference.year or ""),
        "journal": reference.venue,
        "doi": reference.doi,
        "eprint": reference.arxiv,
    }
    body = ",\n".join(f"  {name} = {{{_escape(value)}}}" for name, value in fields.items() if value)
    return f"@article{{{key},\n{body}\n}}\n"


def _escape(value: str) -> str:
    return value.replace("{", "").replace("}", "").replace("&", "\\&").replace("%", "\\%").replace("#", "\\#").replace("_", "\\_")


def speed(corpus: Path, count: int, latency_ms: float) -> None:
    references: list[Reference] = []
    seen = set()
    for _, _, cited in corpus_references(corpus):
        for item in cited:
            if item.reference.title.lower() not in seen:
                seen.add(item.reference.title.lower())
                references.append(item.reference.model_copy(update={"key": f"r{len(references)}"}))
    references = references[:count]
    rng = random.Random(3)
    works = [as_indexed(reference, index, rng) for index, reference in enumerate(references)]
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "refs.bib").write_text("".join(_bibtex(r.key, r) for r in references), encoding="utf-8")
        Path(folder, "main.tex").write_text(
            "\\documentclass{article}\n\\begin{document}\n\\nocite{*}\n\\bibliography{refs}\n\\end{document}\n"
        )
        project = Project(Path(folder), "main.tex")
        cited = cited_references(project)
        with StandIns(works, latency_s=latency_ms / 1000) as stand_ins:
            timings = []
            for _ in range(2):  # a fresh checker each time: the second run has only the disk cache
                cache = AnswerCache(Path(folder) / "cache")
                checker = OnlineChecker(
                    default_registry(), cache=cache, env=stand_ins.environment(), check_urls=False
                )  # the polite default rate limits
                before = stand_ins.count()
                started = time.perf_counter()
                [(_findings, summary)] = asyncio.run(check_projects(checker, [(project, cited)]))
                timings.append((time.perf_counter() - started, stand_ins.count() - before, summary))
                cache.close()
            by_service = {name: stand_ins.count(name) for name in SERVICES}
    print(f"\n## Speed: {len(cited)} entries, {latency_ms:.0f} ms per request, default rate limits\n")
    (first, first_requests, first_summary), (second, second_requests, _) = timings
    print(
        f"first run:  {first:6.2f} s, {first_requests} requests {by_service}, "
        f"{first_summary.verified} verified, {first_summary.unchecked} unchecked (target ≤ 20 s)"
    )
    print(f"second run: {second:6.2f} s, {second_requests} requests (target ≤ 1 s)")


def kinds(corpus: Path) -> None:
    papers = corpus_references(corpus)
    chosen = [(name, project, [c for c in cited if c.reference.kind != "work"]) for name, project, cited in papers]
    chosen = [item for item in chosen if item[2]]
    by_kind: dict[str, int] = {}
    for _, _, cited in chosen:
        for item in cited:
            by_kind[item.reference.kind] = by_kind.get(item.reference.kind, 0) + 1
    with tempfile.TemporaryDirectory() as cache_dir, StandIns([]) as stand_ins:
        cache = AnswerCache(Path(cache_dir))
        checker = OnlineChecker(
            default_registry(), cache=cache, env=stand_ins.environment(), policies=fast_policies(stand_ins), check_urls=False
        )
        results = asyncio.run(check_projects(checker, [(project, cited) for _, project, cited in chosen]))
        cache.close()
    fabricated = [(name, f) for (name, _, _), (findings, _) in zip(chosen, results) for f in findings if f.code == "BIB001"]
    unchecked = sum(summary.unchecked for _, summary in results)
    total = sum(by_kind.values())
    print("\n## Kinds: software, web, dataset, report and URL-only entries of the corpus, indexes holding none\n")
    print(f"entries: {total} ({', '.join(f'{kind} {count}' for kind, count in sorted(by_kind.items()))}) in {len(chosen)} papers")
    print(f"reported as likely fabricated (BIB001): {len(fabricated)} (target 0); unchecked: {unchecked}")
    for name, finding in fabricated[:10]:
        print(f"  {name}: {finding.message}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--per-kind", type=int, default=40, help="planted errors of each kind (default 40)")
    parser.add_argument("--speed-entries", type=int, default=200)
    parser.add_argument("--latency-ms", type=float, default=50.0)
    parser.add_argument("--only", choices=("precision", "recall", "speed", "kinds"))
    arguments = parser.parse_args()
    if not arguments.corpus.is_dir():
        print(f"no corpus at {arguments.corpus}", file=sys.stderr)
        return 2
    if arguments.only in (None, "precision"):
        precision(arguments.corpus)
    if arguments.only in (None, "recall"):
        planted(arguments.corpus, arguments.per_kind)
    if arguments.only in (None, "speed"):
        speed(arguments.corpus, arguments.speed_entries, arguments.latency_ms)
    if arguments.only in (None, "kinds"):
        kinds(arguments.corpus)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
