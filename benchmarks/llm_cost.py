"""What standard mode's prompts are billed, with and without provider prompt caching.

    python benchmarks/llm_cost.py [--papers NAME ...] [--openai-model M] [--anthropic-model M]
                                  [--memory-words 200] [--no-rules]

For every corpus paper (its largest root), standard mode runs against the loopback
stand-ins of both providers, through the real SDKs, three ways:

- no cache: the calls as sent, every input token at the model's base input rate. This is
  what the cost report said before cached tokens were read, and what Anthropic billed
  before requests carried cache breakpoints.
- unshared: the request layout before this change, simulated by moving the shared part
  (the paper memory) behind the per-call text; the stand-ins cache what they can.
- shared: the layout auditex sends (system prompt, paper memory, then the section).

The stand-ins count one token per four characters and cache as the providers do:
OpenAI any repeated prefix of 1024 tokens or more in 128-token steps, Anthropic only at
cache_control breakpoints, from the model's minimum length (4096 tokens for Haiku 4.5
and Opus 4.5, else 1024). The scripted model writes a memory of `--memory-words` words
(default 200; the prompt asks for under 250) per section and finds nothing.
Reported per paper: calls, input tokens and input tokens per KB of LaTeX source, tokens
read from and written to the prompt cache, and the billed input cost of each way.
Target: shared <= 45% of no cache, summed over the corpus.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from llm_server import LoopbackLLMServer  # noqa: E402

from auditex.analyzers.check import open_projects  # noqa: E402
from auditex.analyzers.config import load_config  # noqa: E402
from auditex.analyzers.engine import Engine  # noqa: E402
from auditex.analyzers.llm.audit import run_audit  # noqa: E402
from auditex.analyzers.llm.pricing import price_for  # noqa: E402
from auditex.analyzers.llm.provider import SHARED_END, ChatRequest, Message, Usage  # noqa: E402
from auditex.analyzers.llm.run import AuditRun  # noqa: E402
from auditex.analyzers.llm.settings import DEFAULT_MODELS  # noqa: E402
from auditex.analyzers.llm.units import reviewable_sections  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
# Minimum cacheable prefix per Anthropic model family (Anthropic's prompt caching docs).
ANTHROPIC_MIN_TOKENS = {"claude-haiku-4-5": 4096, "claude-opus-4-5": 4096, "claude-3-5-haiku": 2048}
WAYS = ("no cache", "unshared", "shared")


def model_answer(body: dict, memory_words: int) -> str:
    """A memory of about `memory_words` words quoting the section, or no findings."""
    text = json.dumps(body)
    if "scientific summarizer" not in text:
        return json.dumps({"findings": []})
    prompt = body["messages"][-1]["content"]
    prompt = prompt if isinstance(prompt, str) else "".join(block["text"] for block in prompt)
    title = prompt.split("Section: ", 1)[1].split("\n", 1)[0]
    lines = prompt.split("<paper>\n", 1)[1].split("\n</paper>", 1)[0].splitlines()
    words = " ".join(json.loads(line)["text"] for line in lines if line.strip()).split()[:memory_words]
    return f"# {title}\nThe section states (block 1): {' '.join(words)}"


def unshared(request: ChatRequest) -> ChatRequest:
    """The layout before shared prefixes: the per-call text first, then the shared part."""
    if not request.shared:
        return request
    first, *rest = request.messages
    moved = Message(role="user", content=first.content + SHARED_END + request.shared)
    return request.model_copy(update={"shared": "", "messages": [moved, *rest]})


@contextmanager
def unshared_layout() -> Iterator[None]:
    build = AuditRun.request
    AuditRun.request = lambda run, unit, **values: unshared(build(run, unit, **values))
    try:
        yield
    finally:
        AuditRun.request = build


def largest_project(folder: Path):
    projects = open_projects(folder)[1]
    return max(projects, key=lambda p: sum(len(d.text) for d in p.documents.values()))


def measure(server: LoopbackLLMServer, project, deterministic, provider: str, model: str) -> dict:
    price = price_for(model)
    row: dict = {}
    for way in ("unshared", "shared"):
        server.clear_prompt_caches()
        # A book's calls carry a memory of 100k tokens: give the busy loopback time to answer.
        settings = server.settings(provider, model=model, timeout_s=300, overall_time_limit_s=1800)
        with unshared_layout() if way == "unshared" else nullcontext():
            result = asyncio.run(run_audit(project, settings, "standard", deterministic=deterministic))
        stats = result.stats
        usage = Usage(
            input_tokens=stats.input_tokens, cache_read_tokens=stats.cache_read_tokens, cache_write_tokens=stats.cache_write_tokens
        )
        row[way] = price.input_cost(usage)
        if way == "shared":
            row["no cache"] = price.input_cost(Usage(input_tokens=stats.input_tokens))
            row.update(
                calls=stats.calls,
                failed=len(result.failed_units),
                input=stats.input_tokens,
                read=stats.cache_read_tokens,
                written=stats.cache_write_tokens,
            )
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", nargs="*", help="corpus paper folders (default: all)")
    parser.add_argument("--openai-model", default=DEFAULT_MODELS["openai"])
    parser.add_argument("--anthropic-model", default=DEFAULT_MODELS["anthropic"])
    parser.add_argument("--memory-words", type=int, default=200, help="length of each scripted section memory")
    parser.add_argument("--no-rules", action="store_true", help="pass no deterministic findings as already known")
    arguments = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"The corpus is missing at {CORPUS}.")
    names = arguments.papers or sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
    models = {"openai": arguments.openai_model, "anthropic": arguments.anthropic_model}
    for model in models.values():
        if price_for(model) is None:
            sys.exit(f"No price is known for {model}.")
    anthropic_min = next((v for k, v in ANTHROPIC_MIN_TOKENS.items() if models["anthropic"].startswith(k)), 1024)
    totals = {provider: dict.fromkeys(WAYS, 0.0) for provider in models}
    tokens = {provider: 0 for provider in models}
    per_paper: dict[str, list[tuple[float, float, str]]] = {provider: [] for provider in models}  # (shared %, tok/KB, paper)
    kilobytes = 0.0
    print(f"models: {models['openai']} (OpenAI), {models['anthropic']} (Anthropic, cache from {anthropic_min} tokens)")
    print(
        f"{'paper':28} {'KB':>5} {'sect':>4} {'provider':9} {'calls':>5} {'input tok':>10} {'tok/KB':>6} "
        f"{'read':>9} {'written':>8} {'no cache $':>10} {'unshared $':>10} {'shared $':>9} {'shared %':>8}"
    )
    with LoopbackLLMServer(anthropic_min_cache_tokens=anthropic_min) as server:
        server.responder = lambda body: model_answer(body, arguments.memory_words)
        for name in names:
            project = largest_project(CORPUS / name)
            size = sum(len(d.text.encode()) for d in project.documents.values()) / 1024
            deterministic = [] if arguments.no_rules else Engine(config=load_config(project.root.folder)).check(project)
            kilobytes += size
            for provider, model in models.items():
                r = measure(server, project, deterministic, provider, model)
                for way in WAYS:
                    totals[provider][way] += r[way]
                tokens[provider] += r["input"]
                per_paper[provider].append((100 * r["shared"] / r["no cache"], r["input"] / size, name))
                failed = f"  ({r['failed']} units failed)" if r["failed"] else ""
                print(
                    f"{name:28} {size:5.0f} {len(reviewable_sections(project.manuscript)):4} {provider:9} {r['calls']:5} "
                    f"{r['input']:10,} {r['input'] / size:6.0f} {r['read']:9,} {r['written']:8,} {r['no cache']:10.4f} "
                    f"{r['unshared']:10.4f} {r['shared']:9.4f} {100 * r['shared'] / r['no cache']:7.1f}%{failed}"
                )
    print()
    for provider, total in totals.items():
        print(
            f"{provider:9} all {len(names)} papers, {kilobytes:,.0f} KB: {tokens[provider]:,} input tokens "
            f"({tokens[provider] / kilobytes:.0f} per KB); billed input ${total['no cache']:.4f} no cache, "
            f"${total['unshared']:.4f} unshared, ${total['shared']:.4f} shared = "
            f"{100 * total['shared'] / total['no cache']:.1f}% of no cache, "
            f"{100 * total['shared'] / total['unshared']:.1f}% of unshared (target <= 45%)"
        )
        rows = per_paper[provider]
        worst = max(rows)
        print(
            f"{'':9} per paper: shared % median {statistics.median(r[0] for r in rows):.1f}%, worst {worst[0]:.1f}% "
            f"({worst[2]}), {sum(r[0] <= 45 for r in rows)} of {len(rows)} papers <= 45%; "
            f"input tokens per KB median {statistics.median(r[1] for r in rows):.0f}"
        )


if __name__ == "__main__":
    main()
