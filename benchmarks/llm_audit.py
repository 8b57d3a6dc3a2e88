"""Benchmark of the LLM audit on the corpus papers, against the loopback server.

    python benchmarks/llm_audit.py [--papers NAME ...] [--latency 0.05] [--quotes 40]

1. Anchoring: the scripted model answers with quotes sampled from the paper's
   blocks, verbatim and lightly perturbed (white space re-broken; the LaTeX source
   of the sentence with its markup stripped); reports the anchored rate (target >= 95%).
2. Cost per mode: calls and prompt tokens of a full audit, wall time at concurrency
   1 vs 8 with a fixed latency per call, prompt tokens of a re-audit after a
   one-paragraph edit relative to the full audit (target <= 15%), and the calls of a
   no-op re-run (target 0).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from llm_server import LoopbackLLMServer, verifier_answer  # noqa: E402

from auditex.analyzers.engine import RuleEngines  # noqa: E402
from auditex.analyzers.llm.anchoring import strip_markup  # noqa: E402
from auditex.analyzers.llm.answer_cache import LLMCache  # noqa: E402
from auditex.analyzers.llm.audit import AuditResult  # noqa: E402
from auditex.analyzers.llm.audit_modes import MODES  # noqa: E402
from auditex.analyzers.llm.settings import LLMSettings  # noqa: E402
from auditex.analyzers.llm.source import LLMAuditSource, audit_result  # noqa: E402
from auditex.analyzers.llm.units import PaperData  # noqa: E402
from auditex.analyzers.registry import Registry  # noqa: E402
from auditex.analyzers.session import Session  # noqa: E402
from auditex.latex.model import BlockKind  # noqa: E402
from auditex.latex.project import Project  # noqa: E402
from auditex.latex.sentences import sentence_spans  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
DEFAULT_PAPERS = ["nips24_latent_plan", "nips24_imprecise_labels", "linear_rnns_iclr2018", "celerite_astro"]
TYPES = [
    "evidence_manipulation",
    "method_logic",
    "experiment_protocol",
    "claim_distortion",
    "context_misalignment",
    "reference_fabrication",
    "ethical_omission",
    "rhetoric_bias",
]


def load(name: str) -> Session:
    """The paper's session, with no rules: the LLM's own cost is measured, with nothing already known."""
    session = Session(CORPUS / name, rules=RuleEngines(Registry([])), use_cache=False)
    session.check()
    return session


def audit(session: Session, settings: LLMSettings, mode: str, cache: LLMCache | None = None) -> AuditResult:
    """The audit of the paper's first root, through the session as every front end runs it."""
    source = LLMAuditSource(settings, mode, cache=cache)
    return asyncio.run(audit_result(session, source, snapshots=session.snapshots()[:1]))


def sampled_quotes(project: Project, count: int, rng: random.Random) -> list[tuple[int, str, str]]:
    """(block index, quote, variant) sampled from sentences of text blocks."""
    blocks = [p for p in PaperData(project).blocks() if p.kind is BlockKind.PARAGRAPH and len(p.block.plain.text) > 80]
    quotes = []
    for placed in rng.sample(blocks, min(count, len(blocks))):
        plain = placed.block.plain.text
        spans = [(a, b) for a, b in sentence_spans(plain) if 30 <= b - a <= 300] or [(0, min(len(plain), 200))]
        start, end = rng.choice(spans)
        variant = rng.choice(["verbatim", "whitespace", "markup stripped"])
        if variant == "verbatim":
            quote = plain[start:end]
        elif variant == "whitespace":
            quote = re.sub(r" ", lambda _: rng.choice([" ", "  ", "\n", " "]), plain[start:end])
        else:
            src_start, src_end = placed.block.plain.source_span(start, end)
            quote = " ".join(strip_markup(project.source(placed.file).text[src_start:src_end]).split())
        quotes.append((placed.index, quote, variant))
    return quotes


def anchoring(server: LoopbackLLMServer, name: str, count: int, rng: random.Random) -> dict[str, Any]:
    session = load(name)
    quotes = sampled_quotes(session.projects[0], count, rng)
    findings = [
        {
            "type": TYPES[n % 8],
            "section_location": "",
            "error_location": quote,
            "evidence": [{"block_index": index if n % 2 else None, "quote": quote}],
            "explanation": f"Finding {n}.",
            "confidence": 0.7,
            "proposed_fix": "",
        }
        for n, (index, quote, _) in enumerate(quotes)
    ]
    server.responder = lambda body: verifier_answer(body) or json.dumps({"findings": findings})
    result = audit(session, server.settings(), "fast")
    anchored = sum(f.anchored for f in result.llm_findings)
    return {
        "paper": name,
        "quotes": len(quotes),
        "anchored": anchored,
        "unanchored": result.unanchored,
        "unsupported": len(result.unsupported),
        "methods": dict(result.anchoring.by_method),
    }


def scripted(body: dict[str, Any]) -> str:
    text = json.dumps(body)
    if "scientific summarizer" in text:
        return "The section states its method and numbers (block 1)."
    if "review planner" in text:
        sections = re.findall(r'\\"section\\": \\"(.*?)\\"', text)[:12] or ["Abstract"]
        return json.dumps(
            {
                "tasks": [
                    {"task_id": f"T{n}", "focus_sections": [s.strip()], "goal": "verify claims", "risk_dimension": TYPES[n % 8]}
                    for n, s in enumerate(sections[:8], 1)
                ]
            }
        )
    if "Please check the attached paper" in text:
        return "[]"
    return verifier_answer(body) or json.dumps({"findings": []})


def one_paragraph_edit(project: Project) -> tuple[str, str]:
    """A word added to a paragraph in the middle of the paper: (file, new text)."""
    blocks = [p for p in PaperData(project).blocks() if p.kind is BlockKind.PARAGRAPH and len(p.block.plain.text) > 200]
    placed = blocks[len(blocks) // 2]
    text = project.source(placed.file).text
    cut = text.index(" ", placed.block.start + 20)
    return placed.file, text[:cut] + " indeed" + text[cut:]


def cost(server: LoopbackLLMServer, name: str, mode: str) -> dict[str, Any]:
    row: dict[str, Any] = {"paper": name, "mode": mode}
    server.responder = scripted
    for concurrency in (1, 8):
        result = audit(load(name), server.settings(concurrency=concurrency), mode)
        row[f"wall_c{concurrency}"] = result.stats.wall_s
        row["calls"], row["prompt_tokens"] = result.stats.calls, result.stats.input_tokens
    with tempfile.TemporaryDirectory() as folder:
        cache = LLMCache(Path(folder))
        session = load(name)
        settings = server.settings()
        full = audit(session, settings, mode, cache)
        noop = audit(session, settings, mode, cache)
        session.apply(dict([one_paragraph_edit(session.projects[0])]))
        session.check()
        edit = audit(session, settings, mode, cache)
        cache.close()
    row["noop_calls"] = noop.stats.calls
    row["edit_calls"] = edit.stats.calls
    row["edit_tokens_pct"] = 100 * edit.stats.input_tokens / max(1, full.stats.input_tokens)
    row["sections"] = len(PaperData(session.projects[0]).sections())
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", nargs="*", default=DEFAULT_PAPERS)
    parser.add_argument("--anchor-papers", nargs="*", help="papers for the anchoring measure (default: every corpus paper)")
    parser.add_argument("--latency", type=float, default=0.05, help="seconds per call (default 0.05)")
    parser.add_argument("--quotes", type=int, default=40, help="sampled quotes per paper (default 40)")
    parser.add_argument("--modes", nargs="*", default=list(MODES))
    arguments = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"The corpus is missing at {CORPUS}.")
    rng = random.Random(7)
    anchor_papers = arguments.anchor_papers or sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
    with LoopbackLLMServer() as server:
        print(f"{'paper':28} {'quotes':>6} {'anchored':>8} {'section':>7} {'unsupp.':>7}  methods")
        total = anchored = 0
        for name in anchor_papers:
            try:
                row = anchoring(server, name, arguments.quotes, rng)
            except Exception as error:  # a paper the model cannot open is reported, not fatal
                print(f"{name:28} skipped: {type(error).__name__}: {error}")
                continue
            total += row["quotes"]
            anchored += row["anchored"]
            print(f"{name:28} {row['quotes']:6} {row['anchored']:8} {row['unanchored']:7} {row['unsupported']:7}  {row['methods']}")
        print(f"{'all':28} {total:6} {anchored:8}   anchored rate {100 * anchored / max(1, total):.1f}% (target >= 95%)\n")
    with LoopbackLLMServer(latency_s=arguments.latency) as server:
        print(f"latency {arguments.latency:g} s per call")
        print(
            f"{'paper':28} {'mode':9} {'sect':>4} {'calls':>5} {'prompt tok':>10} {'wall c=1':>8} {'wall c=8':>8} "
            f"{'edit calls':>10} {'edit tok %':>10} {'no-op calls':>11}"
        )
        for name in arguments.papers:
            for mode in arguments.modes:
                r = cost(server, name, mode)
                print(
                    f"{name:28} {mode:9} {r['sections']:4} {r['calls']:5} {r['prompt_tokens']:10,} {r['wall_c1']:8.2f} "
                    f"{r['wall_c8']:8.2f} {r['edit_calls']:10} {r['edit_tokens_pct']:9.1f}% {r['noop_calls']:11}"
                )


if __name__ == "__main__":
    main()
