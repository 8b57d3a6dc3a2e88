"""What each audit mode sends an LLM, per paper: calls, tokens, and input tokens per token of the paper.

    python benchmarks/llm_cost.py [--papers NAME ...] [--limit N] [--modes standard deep ...]
                                  [--provider openai|anthropic] [--save FILE] [--compare FILE]
                                  [--verifier-provider P,P] [--verifier-model M,M]

For each corpus paper (its largest root, with its deterministic findings), every mode runs
against the loopback stand-in of the provider, through the real SDK, with no answer cache.
The scripted model answers like a diligent one: a memory of about 120 words per section, a
plan of 8 tasks over the outline's sections, two findings per review quoting the blocks it
was given, a merge that keeps every candidate, a verifier that confirms everything, five
critical problems. Each mode uses the provider's default models for it, the default verifier
included (list prices, so the costs are what the audit would bill; the stand-in answers
whatever model is named). Reported per paper and mode: calls, input tokens with those read
from and written to the provider's prompt cache, output tokens (the stand-in counts one token
per four characters), cost, and two ratios to the paper's own tokens (the LaTeX of every .tex
file the root reaches, four characters a token): uncached input (every input token, as if
nothing were cached) and billed input (cached tokens at the model's cached-input rate, cache
writes at theirs, each model's calls at that model's rates).
At the end, per mode: the median and worst ratios, the papers over the targets, the cost, and the
calls, tokens and cost of each stage (`run.stats`) over all papers. A paper that fails is reported
with its error and the run goes on.

`--verifier-provider`/`--verifier-model` name a verifier panel as the audit's options do. The calls of
the panel's models of other providers are reported apart (their billed and uncached ratios and cost,
per paper and over the papers): the targets hold for the single provider's own calls.

Targets: billed input <= 3x (standard) and 6x (deep); uncached input <= 12x and 24x; every paper.

`--save FILE` writes the rows as JSON, after each paper; `--compare FILE` prints a before/after
table of input tokens per paper and mode against such a file, or against the printed output of
an earlier run (measure "before" with another checkout's interpreter:
`/work/main/.venv/bin/python benchmarks/llm_cost.py > before.txt`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from llm_server import LoopbackLLMServer  # noqa: E402

from auditex.analyzers.engine import RuleEngines  # noqa: E402
from auditex.analyzers.finding_source import Snapshot  # noqa: E402
from auditex.analyzers.llm.audit import AuditResult  # noqa: E402
from auditex.analyzers.llm.audit_modes import MODES, Mode  # noqa: E402
from auditex.analyzers.llm.client import RunStats, StageStats  # noqa: E402
from auditex.analyzers.llm.pricing import price_for  # noqa: E402
from auditex.analyzers.llm.settings import LLMSettings  # noqa: E402
from auditex.analyzers.llm.source import LLMAuditSource, audit_result  # noqa: E402
from auditex.analyzers.projects import open_projects  # noqa: E402
from auditex.analyzers.session import Session  # noqa: E402
from auditex.latex.project import Project  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
TARGETS = {"standard": (3.0, 12.0), "deep": (6.0, 24.0)}  # (billed, uncached) input per paper token
_PAPER = re.compile(r"<paper>\n(.*?)\n</paper>", re.DOTALL)
_CANDIDATES = re.compile(r"<candidates>\n(.*?)\n</candidates>", re.DOTALL)
_DATA = re.compile(r"<(paper|related|memory|highlights|known|candidates)>\n.*?\n</\1>", re.DOTALL)
# A printed row: paper, KB, mode, calls, input tokens, the other counts (more columns in later versions), ratio.
_PRINTED = re.compile(r"^(\S+)\s+\d+\s+(fast|standard|deep|critical)\s+\d+\s+([\d,]+)(?:\s+[\d,.]+)*\s+([\d.]+)x", re.MULTILINE)


def prompt_of(body: dict[str, Any]) -> tuple[str, str]:
    """(system prompt, user text) of an OpenAI or Anthropic request body."""
    system = body.get("system", "")
    if isinstance(system, list):
        system = "".join(block["text"] for block in system)
    parts = []
    for message in body["messages"]:
        content = message["content"]
        if message["role"] == "system":
            system = content
        else:
            parts.append(content if isinstance(content, str) else "".join(block.get("text", "") for block in content))
    return system, "\n".join(parts)


def task_of(system: str, user: str) -> str:
    """What a request asks: its system prompt and its user text without the paper's data (a paper that
    says "false alarm" in its related passages asks for no verification)."""
    return system + "\n" + _DATA.sub("", user)


def json_records(pattern: re.Pattern[str], text: str) -> list[dict[str, Any]]:
    records = []
    for match in pattern.finditer(text):
        for line in match.group(1).splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict):
                records.append(record)
    return records


def _quote(record: dict[str, Any]) -> str:
    text = str(record.get("text") or record.get("latex") or "")
    return " ".join(text.split()[:8])


def block_finding(record: dict[str, Any], kind: str, explanation: str, confidence: float, severity: str = "moderate") -> dict[str, Any]:
    """A finding quoting the start of a block, as the scripted models answer."""
    return {
        "type": kind,
        "severity": severity,
        "section_location": str(record.get("section", "")),
        "error_location": _quote(record),
        "evidence": [{"block_index": record.get("index"), "quote": _quote(record)}],
        "explanation": explanation,
        "confidence": confidence,
        "proposed_fix": "Rephrase.",
    }


def model_answer(body: dict[str, Any]) -> str:
    system, user = prompt_of(body)
    blocks = [r for r in json_records(_PAPER, user) if _quote(r)]
    system = task_of(system, user)
    if "scientific summarizer" in system:
        words = " ".join(_quote(b) for b in blocks).split()[:120]
        return "# Section\nThe section states (block 1): " + " ".join(words)
    if "review planner" in system:
        names = re.findall(r'"section": "([^"]+)"', user) or re.findall(r"^\s*- (.+?) \(blocks", user, re.MULTILINE)
        names = list(dict.fromkeys(names)) or ["Introduction"]
        tasks = [
            {"task_id": f"T{n}", "focus_sections": names[n % len(names) : n % len(names) + 2], "goal": "check the claims", "hints": []}
            for n in range(8)
        ]
        return json.dumps({"tasks": tasks})
    if "evidence retriever" in system:  # checkouts before the retriever became index retrieval
        return json.dumps({"paper_evidence": [{"block_index": b.get("index"), "quote": _quote(b), "note": "relevant"} for b in blocks[:3]]})
    if "adjudication" in system:
        candidates = json_records(_CANDIDATES, user)
        return json.dumps({"findings": [{**c, "merged_from": [c.get("number", n)]} for n, c in enumerate(candidates)]})
    if "false alarm" in system:
        numbers = [r.get("number", n) for n, r in enumerate(json_records(_CANDIDATES, user))]
        verdicts = [{"number": n, "valid": True, "severity": "major", "settled_by_manuscript": True, "reason": "stands"} for n in numbers]
        return json.dumps({"verdicts": verdicts})
    if "critical errors" in system:
        return json.dumps([{"Problem": "unsupported claim", "Location": f'"{_quote(b)}"', "Explanation": "not shown"} for b in blocks[:5]])
    chosen = blocks[:1] + blocks[-1:] if len(blocks) > 1 else blocks
    findings = [block_finding(b, "claim_distortion", "The claim is not supported by the evidence shown.", 0.8) for b in chosen]
    return json.dumps({"findings": findings})


def largest_project(folder: Path) -> Project:
    projects = open_projects(folder)[1]
    return max(projects, key=lambda p: sum(len(d.text) for d in p.documents.values()))


def latex_chars(project: Project) -> int:
    return sum(len(document.text) for path, document in project.documents.items() if path.endswith(".tex"))


@dataclass
class Checked:
    """A project with its rules checked once, by a session on its folder: every mode's audit reads them."""

    session: Session
    snapshot: Snapshot

    @classmethod
    def of(cls, folder: Path, root: str) -> Checked:
        session = Session(folder, rules=RuleEngines(), use_cache=False)
        return cls(session, next(snapshot for snapshot in session.snapshots() if snapshot.root == root))

    @property
    def project(self) -> Project:
        return next(project for project in self.session.projects if project.root_file == self.snapshot.root)


def audited(checked: Checked, settings: LLMSettings, mode: Mode) -> AuditResult:
    """The audit as every front end runs it: the LLM source audits the project's root with its rule findings."""
    return asyncio.run(audit_result(checked.session, LLMAuditSource(settings, mode), snapshots=[checked.snapshot]))


def measure(server: LoopbackLLMServer, checked: Checked, provider: str, mode: Mode, panel: dict[str, str]) -> dict[str, Any]:
    """The audit's counts with the mode's default models; a verifier `panel` of other providers is counted apart."""
    server.clear_prompt_caches()
    start = len(server.requests)
    # The mode's default models, the verifiers' too; every provider of a panel is this loopback server.
    settings = server.settings(provider, model="", timeout_s=300, overall_time_limit_s=1800, **panel)
    result = audited(checked, settings, mode)
    sent = sum(len(request.prompt_text) for request in server.requests[start:])
    own = {name: stats for name, stats in result.by_model.items() if name.startswith(f"{provider}/")}
    others = {name: stats for name, stats in result.by_model.items() if name not in own}
    stats = _total(own.values())
    return {
        **_counts(stats),
        "sent": sent,
        "billed": _billed(own),
        "failed": len(result.failed_units),
        "findings": len(result.llm_findings),
        "fallback": bool(result.fallback),
        "stages": {name: _counts(stage) for name, stage in stats.stages.items()},
        "panel": {name: {**_counts(counted), "billed": _billed({name: counted})} for name, counted in others.items()},
    }


def _total(counted: Iterable[RunStats]) -> RunStats:
    total = RunStats()
    for stats in counted:
        total = total.plus(stats)
    return total


def _billed(by_model: dict[str, RunStats]) -> float:
    """Input tokens as billed over every stage of every model, at each model's rates."""
    return sum(billed_input(stage, name.split("/", 1)[1]) for name, stats in by_model.items() for stage in stats.stages.values())


def billed_input(stage: StageStats, model: str) -> float:
    """Input tokens as billed, in tokens at the model's base input rate: cache reads and writes at their rates."""
    price = price_for(model)
    if price is None or not price.input_per_mtok:
        return float(stage.input_tokens)
    read = price.input_per_mtok if price.cached_input_per_mtok is None else price.cached_input_per_mtok
    write = price.input_per_mtok if price.cache_write_per_mtok is None else price.cache_write_per_mtok
    uncached = stage.input_tokens - stage.cache_read_tokens - stage.cache_write_tokens
    return uncached + (stage.cache_read_tokens * read + stage.cache_write_tokens * write) / price.input_per_mtok


def _counts(stats: StageStats) -> dict[str, Any]:
    return {
        "calls": stats.calls,
        "input": stats.input_tokens,
        "cached": stats.cache_read_tokens,
        "written": stats.cache_write_tokens,
        "output": stats.output_tokens,
        "cost": stats.cost_usd,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", nargs="*", help="corpus paper folders (default: all)")
    parser.add_argument("--limit", type=int, help="only the first N papers, by name")
    parser.add_argument("--modes", nargs="*", choices=MODES, default=list(MODES))
    parser.add_argument("--provider", choices=["openai", "anthropic"], default="openai")
    parser.add_argument("--save", type=Path, help="write the rows to this JSON file")
    parser.add_argument("--compare", type=Path, help="a --save file of an earlier run: print tokens before and after")
    parser.add_argument("--verifier-provider", help="a verifier panel's providers, comma-separated (as the audit's option)")
    parser.add_argument("--verifier-model", help="a verifier panel's models, comma-separated (as the audit's option)")
    arguments = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"The corpus is missing at {CORPUS}.")
    names = arguments.papers or sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
    names = names[: arguments.limit] if arguments.limit else names
    rows: dict[str, dict[str, Any]] = {}
    print(
        f"{'paper':34} {'KB':>5} {'mode':8} {'calls':>5} {'input tok':>10} {'cached':>9} {'written':>9} {'output':>7} {'cost':>8} "
        f"{'sent/LaTeX':>10} {'billed':>7} {'uncached':>8}"
    )
    failed: dict[str, str] = {}
    with LoopbackLLMServer() as server:
        server.responder = model_answer
        named = {"verifier_provider": arguments.verifier_provider, "verifier_model": arguments.verifier_model}
        panel = {key: value for key, value in named.items() if value}
        if panel:  # the panel's other providers answer on this server too
            panel["verifier_base_url"] = server.base_url_openai
        for name in names:
            try:
                rows[name] = paper_rows(server, name, arguments.provider, arguments.modes, panel)
            except Exception as error:  # one paper's failure is reported, the run goes on
                failed[name] = f"{type(error).__name__}: {error}"
                print(f"{name:34} failed: {failed[name]}", flush=True)
            if arguments.save:
                arguments.save.write_text(json.dumps(rows, indent=1))
    print()
    for name, reason in failed.items():
        print(f"not measured: {name}: {reason}")
    for mode in arguments.modes:
        ratio_summary(rows, mode, "", TARGETS.get(mode))
        if panel:
            ratio_summary(rows, mode, "panel_", None)
    for mode in arguments.modes:
        stage_totals(mode, [rows[name][mode] for name in rows])
    if arguments.compare:
        compare(earlier(arguments.compare), rows, arguments.modes)


def paper_rows(server: LoopbackLLMServer, name: str, provider: str, modes: list[Mode], panel: dict[str, str]) -> dict[str, Any]:
    """One paper's row per mode, printed as it is measured."""
    project = largest_project(CORPUS / name)
    checked = Checked.of(project.root.folder, project.root_file)
    chars = latex_chars(project)
    paper_tokens = chars / 4
    rows: dict[str, Any] = {"latex_chars": chars}
    for mode in modes:
        row = measure(server, checked, provider, mode, panel)
        rows[mode] = row
        row["ratio"] = row["sent"] / chars
        row["billed_ratio"], row["uncached_ratio"] = row["billed"] / paper_tokens, row["input"] / paper_tokens
        others = row["panel"].values()
        row["panel_billed_ratio"] = sum(counts["billed"] for counts in others) / paper_tokens
        row["panel_uncached_ratio"] = sum(counts["input"] for counts in others) / paper_tokens
        row["panel_cost"] = sum(counts["cost"] for counts in others)
        failed = f"  ({row['failed']} units failed)" if row["failed"] else ""
        fallback = "  (memory design)" if row["fallback"] else ""
        shown = (
            f"  panel {row['panel_billed_ratio']:.2f}x billed, {row['panel_uncached_ratio']:.2f}x uncached, ${row['panel_cost']:.4f}"
            if row["panel"]
            else ""
        )
        print(
            f"{name:34} {chars / 1024:5.0f} {mode:8} {row['calls']:5} {row['input']:10,} {row['cached']:9,} {row['written']:9,} "
            f"{row['output']:7,} {row['cost']:8.4f} {row['sent'] / chars:9.2f}x {row['billed_ratio']:6.2f}x "
            f"{row['uncached_ratio']:7.2f}x{failed}{fallback}{shown}",
            flush=True,
        )
    return rows


def ratio_summary(rows: dict[str, dict[str, Any]], mode: str, prefix: str, targets: tuple[float, float] | None) -> None:
    """Median and worst billed and uncached input per paper token over the papers (`prefix` "panel_": the panel's)."""
    whose = "the panel's other providers: " if prefix else ""
    for kind, slot in (("billed", 0), ("uncached", 1)):
        ratios = {name: rows[name][mode][f"{prefix}{kind}_ratio"] for name in rows}
        if not ratios:
            return
        worst = max(ratios, key=ratios.__getitem__)
        target = targets[slot] if targets else None
        over = [name for name, ratio in ratios.items() if target and ratio > target]
        met = f", {len(over)} of {len(ratios)} papers over {target:g}x{': ' + ', '.join(over) if over else ''}" if target else ""
        print(
            f"{mode:8} {whose}{kind} input per paper token: median {statistics.median(ratios.values()):.2f}x, "
            f"worst {ratios[worst]:.2f}x ({worst}){met}"
        )
    costs = [rows[name][mode][f"{prefix}cost"] for name in rows]
    print(f"{mode:8} {whose}cost: ${sum(costs):.2f} over {len(costs)} papers, median ${statistics.median(costs):.4f} a paper")


def stage_totals(mode: str, runs: list[dict[str, Any]]) -> None:
    """`run.stats` per stage, summed over the papers."""
    totals: dict[str, dict[str, Any]] = {}
    for run in runs:
        for name, counts in run["stages"].items():
            total = totals.setdefault(name, dict.fromkeys(counts, 0))
            for key, value in counts.items():
                total[key] += value
    print()
    print(f"{mode} mode, by stage over {len(runs)} papers:")
    print(f"  {'stage':10} {'calls':>6} {'input tok':>12} {'cached':>11} {'written':>11} {'output':>10} {'cost USD':>9}")
    totals["total"] = {
        key: sum(stage[key] for stage in totals.values()) for key in ("calls", "input", "cached", "written", "output", "cost")
    }
    for name, t in totals.items():
        print(f"  {name:10} {t['calls']:6,} {t['input']:12,} {t['cached']:11,} {t['written']:11,} {t['output']:10,} {t['cost']:9.2f}")


def earlier(path: Path) -> dict[str, Any]:
    """An earlier run's rows: a --save file, or its printed table (paper, mode, input tokens, ratio)."""
    text = path.read_text()
    if text.lstrip().startswith("{"):
        saved: dict[str, Any] = json.loads(text)
        return saved
    rows: dict[str, dict[str, Any]] = {}
    for name, mode, tokens, ratio in _PRINTED.findall(text):
        rows.setdefault(name, {})[mode] = {"input": int(tokens.replace(",", "")), "ratio": float(ratio)}
    return rows


def compare(before: dict[str, Any], after: dict[str, Any], modes: list[str]) -> None:
    print()
    print("Input tokens per paper, before -> after (characters sent per LaTeX character)")
    print(f"{'paper':34} " + " ".join(f"{mode:>32}" for mode in modes))
    totals = {mode: [0, 0] for mode in modes}
    for name, row in after.items():
        cells = []
        for mode in modes:
            old, new = before.get(name, {}).get(mode), row[mode]
            if old is None:
                cells.append(f"{'-':>16} -> {new['input']:>8,} {new['ratio']:4.1f}x")
                continue
            totals[mode][0] += old["input"]
            totals[mode][1] += new["input"]
            cells.append(f"{old['input']:>9,} {old['ratio']:4.1f}x -> {new['input']:>8,} {new['ratio']:4.1f}x")
        print(f"{name:34} " + " ".join(f"{cell:>32}" for cell in cells))
    print(f"{'total (papers in both)':34} " + " ".join(f"{old:>14,} -> {new:>14,}" for old, new in totals.values()))


if __name__ == "__main__":
    main()
