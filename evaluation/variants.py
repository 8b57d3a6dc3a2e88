"""Variant recall: do the ledger problems the rules catch stay caught when the paper says the same thing
in another author's LaTeX?

For each seen paper with caught problems (evaluation/real_errors.py), every rewrite of
evaluation/latex_rewrites.py is applied alone to a copy of the paper, the copy is checked as
`auditex check` checks it, and each problem caught in the original is looked for again: caught by a
finding of the same rule family at information or above, at its place (moved with the text when the
rewrite moved it). A rewrite that leaves a paper unchanged does not apply to it and counts neither
way. One check per (paper, rewrite), so the cost is bounded by the papers with caught problems.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from ..analyzers.finding import Finding, Severity
from ..analyzers.path_check import check_path
from .latex_rewrites import REWRITES, Rewritten
from .real_errors import Problem, catching, load_ledger


@dataclass(frozen=True)
class Outcome:
    rewrite: str
    problem: Problem
    family: str  # the family of the code that catches it in the original paper
    applicable: bool
    survived: bool


def family(code: str) -> str:
    """A code's family: its letters (TAB003 → TAB, LLM-x → LLM)."""
    match = re.match(r"[A-Z]+", code)
    return match.group(0) if match else code


def read_sources(folder: Path) -> dict[str, str]:
    """Every .tex file under `folder`, by its path relative to it (bytes kept through surrogate escapes)."""
    return {
        path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8", errors="surrogateescape")
        for path in sorted(folder.rglob("*.tex"))
    }


def _findings(folder: Path) -> list[Finding]:
    return check_path(folder, use_cache=False, parse_workers=1).findings


def _moved(problem: Problem, rewritten: Rewritten) -> Problem:
    file, line = rewritten.place(problem.file, problem.line)
    other_file, _, other_line = problem.other.rpartition(":")
    other = problem.other
    if other_file and other_line.isdigit():
        other = "{}:{}".format(*rewritten.place(other_file, int(other_line)))
    return replace(problem, file=file, line=line, other=other)


def still_caught(problem: Problem, code_family: str, findings: Iterable[Finding]) -> bool:
    floor = Severity.INFORMATION.rank
    return any(
        finding.severity.rank >= floor and family(finding.code) == code_family and problem.caught_by(finding) for finding in findings
    )


def _keeps_lines(before: dict[str, str], rewritten: Rewritten) -> bool:
    """Whether every line of the paper is where it was, or where `moved` says it went."""
    return all(rewritten.files[name].count("\n") == text.count("\n") for name, text in before.items() if (name, 1) not in rewritten.moved)


def rewrite_outcomes(folder: Path, rewrite: str, caught: Sequence[tuple[Problem, str]]) -> list[Outcome]:
    """The outcome of one rewrite on one paper for each of its caught (problem, family) pairs."""
    before = read_sources(folder)
    rewritten = REWRITES[rewrite](before)
    if rewritten.files == before:
        return [Outcome(rewrite, problem, code_family, False, False) for problem, code_family in caught]
    if not _keeps_lines(before, rewritten):
        raise ValueError(f"rewrite {rewrite} moved lines of {folder.name} without saying where")
    with tempfile.TemporaryDirectory() as temporary:
        copy = Path(temporary) / folder.name
        shutil.copytree(folder, copy)
        for name, text in rewritten.files.items():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            (copy / name).write_text(text, encoding="utf-8", errors="surrogateescape")
        findings = _findings(copy)
    return [
        Outcome(rewrite, problem, code_family, True, still_caught(_moved(problem, rewritten), code_family, findings))
        for problem, code_family in caught
    ]


def caught_in(folder: Path, problems: list[Problem]) -> list[tuple[Problem, str]]:
    """The problems of one paper that its check catches, each with the family of the code that catches it."""
    findings = _findings(folder)
    catches = ((problem, catching(problem, findings, Severity.INFORMATION)) for problem in problems)
    return [(problem, family(finding.code)) for problem, finding in catches if finding is not None]


def _paper_outcomes(task: tuple[Path, list[Problem], tuple[str, ...]]) -> list[Outcome]:
    folder, problems, rewrites = task
    caught = caught_in(folder, problems)
    return [outcome for rewrite in rewrites for outcome in rewrite_outcomes(folder, rewrite, caught)] if caught else []


def variant_outcomes(
    ledger_folder: Path,
    corpus: Path,
    papers: set[str] | None = None,
    rewrites: Sequence[str] = (),
    jobs: int = 1,
    progress: Callable[[str, list[Outcome]], None] | None = None,
) -> list[Outcome]:
    """Every (caught problem, rewrite) outcome on the seen papers (never the held-out fifth)."""
    ledger = load_ledger(ledger_folder)
    chosen = tuple(rewrites) or tuple(REWRITES)
    unknown = [name for name in chosen if name not in REWRITES]
    if unknown:
        raise ValueError(f"no rewrite named {', '.join(unknown)} (known: {', '.join(REWRITES)})")
    tasks = [
        (corpus / paper, problems, chosen)
        for paper, problems in ledger.papers.items()
        if paper not in ledger.held_out and (not papers or paper in papers) and problems and (corpus / paper).is_dir()
    ]
    outcomes: list[Outcome] = []
    with ProcessPoolExecutor(jobs) as pool:
        for (folder, _, _), paper_outcomes in zip(tasks, pool.map(_paper_outcomes, tasks)):
            outcomes += paper_outcomes
            if progress is not None:
                progress(folder.name, paper_outcomes)
    return outcomes


def survival_table(outcomes: Iterable[Outcome]) -> dict[str, dict[str, dict[str, int]]]:
    """Applicable / survived / lost per rewrite and per rule family (not-applicable outcomes counted apart)."""
    table: dict[str, dict[str, Counter[str]]] = {"rewrite": {}, "family": {}}
    for outcome in outcomes:
        verdict = "survived" if outcome.survived else "lost" if outcome.applicable else "not_applicable"
        for axis, key in (("rewrite", outcome.rewrite), ("family", outcome.family)):
            counts = table[axis].setdefault(key, Counter())
            counts[verdict] += 1
            counts["applicable"] += outcome.applicable
    return {
        axis: {key: {name: counts[name] for name in ("applicable", "survived", "lost", "not_applicable")} for key, counts in rows.items()}
        for axis, rows in table.items()
    }


def losses(outcomes: Iterable[Outcome]) -> list[Outcome]:
    return [outcome for outcome in outcomes if outcome.applicable and not outcome.survived]
