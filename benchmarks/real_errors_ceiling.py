"""The LLM audit's ceiling on the real errors of the corpus: what a model that reports every ledger problem it
is shown would get through the pipeline, per mode.

    python benchmarks/real_errors_ceiling.py [--papers a,b] [--modes fast standard deep critical]
                                             [--provider openai|anthropic] [--fallback] [--save FILE.json]

Each problem of the real-errors ledger (tests/real_errors/) becomes a scripted error whose sides are its
places (its line, and the other side's line when it has one). A side is the longest run of its source line
that a request carries verbatim: plain ASCII words, numbers and punctuation, no markup, twelve characters
or more, preferring a run found once in the root's files. The loopback model of llm_ceiling.py reports the
problem when both sides are in one detection request and one of them is in the call's focus, quoting both,
and its verifier confirms it when both are in the verifier's request. So what is lost is lost by what the
pipeline shows the model and what it does after detection (anchoring the quote, verification, merging,
ranking, caps), never by the model's reading.

Every root of a paper that holds a ledger problem is audited, with its rule findings, like `auditex audit`.
Reported per mode: the share of problems whose sides were ever in one detection request, and recall as
benchmarks/real_errors.py counts it (an LLM finding in the problem's file within two lines), overall, for
the seen papers and the held-out fifth apart, and per kind. Problems that cannot be scripted are counted
apart: their file is in no root TeX reads, or their line has no run of plain text (a line of markup only).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from llm_ceiling import Plant, ScriptedModel, ceiling_settings  # noqa: E402
from llm_cost import Checked, audited  # noqa: E402
from llm_server import LoopbackLLMServer  # noqa: E402

from auditex.analyzers.engine import RuleEngines  # noqa: E402
from auditex.analyzers.finding import Finding, Source  # noqa: E402
from auditex.analyzers.llm.audit_modes import MODES  # noqa: E402
from auditex.analyzers.llm.units import PaperData  # noqa: E402
from auditex.analyzers.session import Session  # noqa: E402
from auditex.evaluation.real_errors import Ledger, Problem, load_ledger, recall_table  # noqa: E402
from auditex.latex.tables import bare_rows  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
LEDGER = ROOT / "tests" / "real_errors"
_COMMENT = re.compile(r"(?<!\\)%")
_RULE = re.compile(r"^(?:\s*(?:\\(?:hline|toprule|midrule|bottomrule)\b|\\c(?:mid)?rule(?:\([^)]*\))?\{[^}]*\}))+\s*")
_AMPERSAND = re.compile(r"(?<!\\)&")
_PLAIN_RUN = re.compile(r"(?<![\\A-Za-z0-9])[A-Za-z0-9(][A-Za-z0-9 ,.;:()'&+=<>/!?-]{10,}[A-Za-z0-9).]")


class SentLines:
    """A root's source lines as a request sends them: comments dropped, macros expanded, spaces collapsed; a
    table row also as its cells. A file of rows that a paper's own command reads into a tabular is not a file
    of the root: it is read from the paper's folder, its cells as the parser's text (which is what is sent)."""

    def __init__(self, paper: PaperData) -> None:
        self.paper = paper
        project = paper.project
        self.everything = " ".join(paper.latex(name, 0, len(project.source(name).text), limit=10**9) for name in project.files)

    def line(self, file: str, number: int) -> tuple[str, list[str]] | None:
        """The line as sent and its cells ([] for prose), or None where the file or the line is not there."""
        project = self.paper.project
        path = project.root.absolute(file)
        if file in project.files:
            source = project.source(file)
            starts = source.line_starts
            if not 1 <= number <= len(starts):
                return None
            start = starts[number - 1]
            end = starts[number] if number < len(starts) else len(source.text)
            return self.paper.latex(file, start, end), self._cells(file, source.text, start, end)
        if project.root.relative(path) == file and path.is_file():
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            if not 1 <= number <= len(lines):
                return None
            row = " ".join(_COMMENT.split(lines[number - 1])[0].split())
            rows = bare_rows(row)[0]
            return row, [cell.text for cell in rows[0]] if rows else []
        return None

    def _cells(self, file: str, text: str, start: int, end: int) -> list[str]:
        line = text[start:end]
        if "&" not in line:
            return []
        row_end = line.find("\\\\")
        bounds = [start] + [start + m.end() for m in _AMPERSAND.finditer(line[: None if row_end < 0 else row_end])]
        ends = [bound - 1 for bound in bounds[1:]] + [start + (len(line) if row_end < 0 else row_end)]
        return [self.paper.latex(file, a, b) for a, b in zip(bounds, ends)]

    def side(self, file: str, number: int) -> tuple[str, tuple[str, ...]] | None:
        """What the model quotes of a place, and the forms a request may carry it in, or None.

        The place is its line, or the nearest line within two that has text (a ledger's other side may name
        a table's first line). Prose is quoted by its longest plain run, cut to about a sentence, preferring
        a run found once in the paper; a line of markup only, by its LaTeX. A table row is sent as its cells,
        so a row is carried either way: as its quote, or as its longest stretch of nonempty cells (an
        equation's `&` makes no row)."""
        for at in (number, number + 1, number - 1, number + 2, number - 2):
            found = self.line(file, at)
            if found is None or len(found[0]) < 12:
                continue
            shown, cells = found
            runs = sorted((_cut(m.group(0)) for m in _PLAIN_RUN.finditer(shown)), key=len, reverse=True)
            runs = [run for run in runs if len(run) >= 12] or [_cut(shown)]
            quote = next((run for run in runs if self.everything.count(run) == 1), runs[0])
            return quote, (*_stretch(cells), json.dumps(quote, ensure_ascii=False)[1:-1])
        return None


def _cut(run: str, limit: int = 120) -> str:
    """The run's first `limit` characters or so, ended at a word."""
    run = run.strip()
    return run if len(run) <= limit else run[:limit].rsplit(" ", 1)[0]


def _stretch(cells: list[str]) -> tuple[str, ...]:
    """The first three cells of the longest stretch of nonempty cells, as a request's JSON carries them ("0.517",
    "0.237"): two or more cells, or one of twelve characters or more (a row written over several lines). The
    rules drawn before the row (`\\hline`, `\\cmidrule{1-5}\\cmidrule{7-8}`) are no part of its first cell."""
    stretches: list[list[str]] = [[]]
    for cell in (_RULE.sub("", cell).strip() for cell in cells):
        if cell:
            stretches[-1].append(cell)
        else:
            stretches.append([])
    longest = max(stretches, key=len)[:3]  # its start: a column the type H hides is not sent
    if len(longest) < 2 and sum(map(len, longest)) < 12:
        return ()
    return (", ".join(json.dumps(cell, ensure_ascii=False) for cell in longest),)


def scripted(problem: Problem, lines: SentLines) -> Plant | None:
    sides = [lines.side(file, line) for file, line in problem.places]
    first, second = sides[0], sides[-1]
    if any(found is None for found in sides) or first is None or second is None:
        return None
    return Plant(f"{problem.file}:{problem.line}", problem.kind, first[0], second[0], first_shown=first[1], second_shown=second[1])


def paper_run(server: LoopbackLLMServer, paper: str, problems: list[Problem], arguments: argparse.Namespace) -> dict[str, Any]:
    """Per mode: the LLM findings of every root holding a scriptable problem, and the problems seen whole."""
    session = Session(CORPUS / paper, rules=RuleEngines(), use_cache=False)
    plants: dict[str, tuple[Checked, list[Plant]]] = {}
    sent: dict[str, SentLines] = {}  # each root's lines as a request sends them
    unscripted = []
    for problem in problems:
        for snapshot in session.snapshots():
            checked = Checked(session, snapshot)
            if snapshot.root not in sent:
                sent[snapshot.root] = SentLines(PaperData(checked.project))
            plant = scripted(problem, sent[snapshot.root])
            if plant is not None:
                plants.setdefault(snapshot.root, (checked, []))[1].append(plant)
                break
        else:
            unscripted.append(f"{problem.file}:{problem.line}")
    runs: dict[str, Any] = {"unscripted": unscripted, "modes": {}}
    for mode in arguments.modes:
        findings: list[Finding] = []
        together: list[str] = []
        for checked, root_plants in plants.values():
            model = ScriptedModel(root_plants)
            server.responder = model
            server.clear_prompt_caches()
            result = audited(checked, ceiling_settings(server, arguments.provider, checked.project, arguments.fallback), mode)
            seen = model.seen_together
            # A finding counts only for a problem the model was shown whole: its nitpicks may land near another.
            findings += [
                finding
                for finding in result.findings
                if finding.source is Source.LLM and any(f"{p.file}:{p.line}" in seen and p.caught_by(finding) for p in problems)
            ]
            together += sorted(seen)
        lost = [f"{p.file}:{p.line}" for p in problems if f"{p.file}:{p.line}" in together and not any(p.caught_by(f) for f in findings)]
        runs["modes"][mode] = {"findings": findings, "together": together, "lost": lost}
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", help="comma-separated ledger papers (default: every paper the ledger read)")
    parser.add_argument("--modes", nargs="*", choices=MODES, default=list(MODES))
    parser.add_argument("--provider", choices=["openai", "anthropic"], default="openai")
    parser.add_argument("--fallback", action="store_true", help="force the context window to a quarter of each paper")
    parser.add_argument("--save", type=Path, help="write the tables to this JSON file")
    arguments = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"The corpus is missing at {CORPUS}.")
    ledger = load_ledger(LEDGER)
    names = arguments.papers.split(",") if arguments.papers else sorted(ledger.papers)
    unknown = [name for name in names if name not in ledger.papers]
    if unknown:
        sys.exit(f"not in the ledger: {', '.join(unknown)}")
    findings: dict[str, dict[str, list[Finding]]] = {mode: {} for mode in arguments.modes}
    together: dict[str, int] = dict.fromkeys(arguments.modes, 0)
    second_together: dict[str, int] = dict.fromkeys(arguments.modes, 0)  # of the second reading's problems
    unscripted: dict[str, list[str]] = {}
    failed: dict[str, str] = {}
    with LoopbackLLMServer() as server:
        for name in names:
            problems = ledger.papers[name]
            if not problems:
                continue
            try:
                run = paper_run(server, name, problems, arguments)
            except Exception as error:  # one paper's failure is reported, the run goes on
                failed[name] = f"{type(error).__name__}: {error}"
                print(f"{name:40} failed: {failed[name]}", flush=True)
                continue
            if run["unscripted"]:
                unscripted[name] = run["unscripted"]
            cells = []
            for mode, result in run["modes"].items():
                findings[mode][name] = result["findings"]
                second = {f"{p.file}:{p.line}" for p in problems if p.after_rules}
                together[mode] += sum(1 for place in result["together"] if place not in second)
                second_together[mode] += sum(1 for place in result["together"] if place in second)
                caught = recall_table(ledger, {name: result["findings"]})["overall"]["all"]["informed"]  # type: ignore[index]
                cells.append(f"{mode} {len(result['together'])}/{caught}")
            print(
                f"{name:40} {len(problems):3} problems, {len(run['unscripted'])} unscripted; seen whole/reported: {', '.join(cells)}",
                flush=True,
            )
            for mode, result in run["modes"].items():
                if result["lost"]:
                    print(f"    {mode}: seen whole, not in the report: {', '.join(result['lost'])}", flush=True)
    report(ledger, findings, (together, second_together), unscripted, failed, arguments)


def report(
    ledger: Ledger,
    findings: dict[str, dict[str, list[Finding]]],
    together: tuple[dict[str, int], dict[str, int]],
    unscripted: dict[str, list[str]],
    failed: dict[str, str],
    arguments: argparse.Namespace,
) -> None:
    """The first reading's problems as before; the second reading's (found after the rules) in columns of their own."""
    tables = {mode: recall_table(ledger, by_paper) for mode, by_paper in findings.items()}
    window = " (context window forced to a quarter of each paper)" if arguments.fallback else ""
    print(f"\nA model that reports every ledger problem it is shown, through the pipeline{window}:")
    print(
        f"{'mode':9} {'problems':>8} {'seen whole':>11} {'reported':>9} {'seen papers':>12} {'held-out':>9}"
        f" {'second reading':>15} {'seen whole':>11} {'reported':>9}"
    )
    for mode, table in tables.items():
        overall: Any = table["overall"]
        total = overall["all"]["problems"]
        shares = [_share(overall[group]["information_or_above"]) for group in ("all", "seen", "held_out")]
        second = overall.get("second_reading", {"problems": 0, "information_or_above": None})
        print(
            f"{mode:9} {total:8} {_share(together[0][mode] / total if total else None):>11} {shares[0]:>9} {shares[1]:>12}"
            f" {shares[2]:>9} {second['problems']:>15} {_share(together[1][mode] / second['problems'] if second['problems'] else None):>11}"
            f" {_share(second['information_or_above']):>9}"
        )
    print("\nreported, per kind: " + "  ".join(arguments.modes))
    kinds: Any = next(iter(tables.values()))["per_kind"] if tables else {}
    for kind in kinds:
        row = [tables[mode]["per_kind"][kind] for mode in arguments.modes]  # type: ignore[index]
        print(f"  {kind:26} {row[0]['problems']:4}  " + "  ".join(f"{r['informed']:4}" for r in row))
    count = sum(len(places) for places in unscripted.values())
    print(f"\n{count} problems not scripted (file in no root TeX reads, or a line of markup only), counted as not reported:")
    for name, places in unscripted.items():
        print(f"  {name}: {', '.join(places)}")
    for name, why in failed.items():
        print(f"failed: {name}: {why}")
    if arguments.save:
        arguments.save.write_text(
            json.dumps(
                {"tables": tables, "together": together[0], "second_together": together[1], "unscripted": unscripted, "failed": failed},
                indent=1,
            )
        )


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


if __name__ == "__main__":
    main()
