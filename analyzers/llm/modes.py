"""The four detection modes as units over an `AuditRun` (PaperAudit §4.1, App. C.3).

- fast: one pass over the whole paper as indexed blocks (chunked only when huge).
- standard: per-section descriptive memory (Table 24) merged with the
  deterministic index (labels, acronyms, numbers, claims), then one review per
  section with that memory (Table 18); findings merged deterministically.
- deep: planner (6-12 tasks), retrieval from the deterministic index first and
  the LLM retriever only for focus slices too large to hand over whole, one
  specialist per task, then a conservative LLM adjudication (Table 20).
- critical: the top-k critical problems, Zhang & Abernethy App. A.

What re-runs after an edit is in `incremental`.
"""

from __future__ import annotations

import asyncio
import re
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import TypeVar

from rapidfuzz import fuzz, process

from ...latex.manuscript import Manuscript, Section
from ..finding import Category
from .codes import CRITICAL_CODE
from .incremental import ReviewBasis
from .prompts import load
from .run import AuditRun, Mode
from .schema import (
    CriticalAnswer,
    EvidenceAnswer,
    FindingsAnswer,
    LLMFinding,
    MergeAnswer,
    PlanAnswer,
    Task,
)
from .units import (
    Unit,
    block_text,
    data_line,
    known_lines,
    outline,
    paper_lines,
    preview_lines,
    reviewable_blocks,
    reviewable_sections,
    section_label,
)

A = TypeVar("A")
FAST_CHUNK_CHARS = 400_000  # ~100k tokens: beyond this one pass is split by sections
RETRIEVE_ABOVE_CHARS = 16_000  # focus slices larger than this go through the LLM retriever
MAX_TASKS = 12
FACTS_PER_SECTION = 25
_QUOTED = re.compile(r"[\"“]([^\"”]{12,})[\"”]")


async def run_mode(run: AuditRun, mode: Mode, *, critical_k: int = 5) -> None:
    if mode == "fast":
        await fast(run)
    elif mode == "standard":
        await standard(run)
    elif mode == "deep":
        await deep(run)
    else:
        await critical(run, critical_k)


def _chunks(sections: list[Section], limit: int) -> list[list[Section]]:
    chunks: list[list[Section]] = [[]]
    size = 0
    for section in sections:
        length = sum(len(block_text(p)) for p in section.blocks)
        if chunks[-1] and size + length > limit:
            chunks.append([])
            size = 0
        chunks[-1].append(section)
        size += length
    return [chunk for chunk in chunks if chunk]


async def fast(run: AuditRun) -> None:
    manuscript = run.project.manuscript
    chunks = _chunks(reviewable_sections(manuscript), FAST_CHUNK_CHARS)
    run.plan(len(chunks))

    async def review(number: int, sections: list[Section]) -> None:
        blocks = [p for s in sections for p in s.blocks]
        label = "whole paper" if len(chunks) == 1 else f"paper part {number} of {len(chunks)}"
        unit = Unit(f"fast:{number}", "fast", f"fast review ({label})", sections, blocks)
        known = known_lines(run.project, run.deterministic, None if len(chunks) == 1 else blocks)
        answer = await run.ask_json(unit, run.request(unit, paper=paper_lines(manuscript, blocks), known=known), FindingsAnswer)
        if answer is not None:
            await run.publish(answer.findings, sections[0])

    await asyncio.gather(*(review(n, chunk) for n, chunk in enumerate(chunks, 1)))


# Standard


def section_facts(manuscript: Manuscript, run: AuditRun) -> dict[int, list[str]]:
    """The deterministic index (latex/index.py), per section index: labels, acronyms, numbers and claims."""
    index = run.project.index
    facts: dict[int, list[str]] = defaultdict(list)
    for key, entries in index.labels.items():
        for entry in entries:
            placed = next((p for p in manuscript.blocks if p.file == entry.file and p.block.start <= entry.start < p.block.end), None)
            if placed is not None:
                facts[placed.section].append(f"label {key} ({entry.kind}) in block {placed.index}")
    for placed, acronym in index.inline_acronyms:
        facts[placed.section].append(f"defines {acronym.short} = {acronym.long} (block {placed.index})")
    for claim in index.claims:
        facts[claim.block.section].append(f"claim (block {claim.block.index}): {' '.join(claim.text.split())[:200]}")
    for number in index.numbers:
        if number.mention.is_year:
            continue
        sentence = " ".join(number.mention.sentence.split())[:160]
        facts[number.block.section].append(f"number {number.mention.text} (block {number.block.index}): {sentence}")
    return {section: lines[:FACTS_PER_SECTION] for section, lines in facts.items()}


async def section_memories(run: AuditRun, sections: list[Section]) -> dict[str, str]:
    """Section id -> descriptive memory; a failed unit leaves "Not available"."""
    manuscript = run.project.manuscript
    run.plan(len(sections))

    async def summarise(section: Section) -> tuple[str, str]:
        unit = Unit(f"memory:{section.id}", "memory", f"memory of {section_label(section)}", [section], section.blocks)
        text = await run.ask_text(unit, run.request(unit, section=section_label(section), paper=paper_lines(manuscript, section.blocks)))
        return section.id, text or f"# {section_label(section)}\nNot available."

    return dict(await asyncio.gather(*(summarise(s) for s in sections)))


def global_memory(run: AuditRun, sections: list[Section], memories: dict[str, str]) -> str:
    manuscript = run.project.manuscript
    facts = section_facts(manuscript, run)
    index = {id(s): i for i, s in enumerate(manuscript.sections)}
    parts = []
    for section in sections:
        part = memories[section.id]
        lines = facts.get(index[id(section)], [])
        if lines:
            part += "\nFacts extracted from the source:\n" + "\n".join(f"- {line}" for line in lines)
        parts.append(part)
    return "\n\n".join(parts)


async def with_basis(run: AuditRun, unit: Unit, own_input: str, context: str, ask: Callable[[str], Awaitable[A | None]]) -> A | None:
    """Run `ask(context)` with the context this unit was last run with, when its own input is unchanged."""
    key = ReviewBasis.key(run.settings, load(unit.kind).version, unit.id, own_input)
    remembered = None if run.refresh else run.basis.recall(key)
    used = remembered if remembered is not None else context
    answer = await ask(used)
    if answer is None:
        run.basis.forget(key)
    else:
        run.basis.remember(key, used)
    return answer


async def standard(run: AuditRun) -> None:
    manuscript = run.project.manuscript
    sections = reviewable_sections(manuscript)
    memory = global_memory(run, sections, await section_memories(run, sections))
    run.plan(len(sections))

    async def review(section: Section) -> None:
        unit = Unit(f"section:{section.id}", "section", f"review of {section_label(section)}", [section], section.blocks)
        paper = paper_lines(manuscript, section.blocks)
        known = known_lines(run.project, run.deterministic, section.blocks)
        own = "\x1f".join((section_label(section), known, paper))

        async def ask(context: str) -> FindingsAnswer | None:
            request = run.request(unit, section=section_label(section), memory=context, known=known, paper=paper)
            return await run.ask_json(unit, request, FindingsAnswer)

        answer = await with_basis(run, unit, own, memory, ask)
        if answer is not None:
            await run.publish(answer.findings, section)

    await asyncio.gather(*(review(s) for s in sections))


# Deep


def _focus(sections: list[Section], names: list[str]) -> list[Section]:
    labels = [section_label(s) for s in sections]
    chosen: list[Section] = []
    for name in names:
        best = process.extractOne(name, labels, scorer=fuzz.WRatio, score_cutoff=75)
        if best is not None and sections[best[2]] not in chosen:
            chosen.append(sections[best[2]])
    return chosen or sections[:1]


async def deep(run: AuditRun) -> None:
    manuscript = run.project.manuscript
    sections = reviewable_sections(manuscript)
    run.plan(1)
    planner = Unit("planner", "planner", "review plan", sections)
    own = outline(manuscript)
    preview = preview_lines(manuscript)

    async def ask_plan(context: str) -> PlanAnswer | None:
        return await run.ask_json(planner, run.request(planner, outline=own, paper=context), PlanAnswer)

    plan = await with_basis(run, planner, own, preview, ask_plan)
    if plan is None:
        return
    tasks = plan.tasks[:MAX_TASKS]
    facts = section_facts(manuscript, run)
    index = {id(s): i for i, s in enumerate(manuscript.sections)}
    run.plan(len(tasks))
    candidates: list[tuple[LLMFinding, Section]] = []

    async def specialise(number: int, task: Task) -> None:
        focus = _focus(sections, task.focus_sections)
        blocks = [p for s in focus for p in s.blocks]
        task_text = _task_text(task, focus)
        unit = Unit(
            f"task:{number}:{'|'.join(s.id for s in focus)}",
            "specialist",
            f"task {task.task_id or number}: {task.goal[:60]}",
            focus,
            blocks,
        )
        evidence = [f"- {line}" for s in focus for line in facts.get(index[id(s)], [])]
        if sum(len(block_text(p)) for p in blocks) > RETRIEVE_ABOVE_CHARS:
            retriever = Unit(f"retrieve:{unit.id}", "retriever", f"evidence for {unit.label}", focus, blocks)
            run.plan(1)
            found = await run.ask_json(
                retriever, run.request(retriever, task=task_text, paper=paper_lines(manuscript, blocks)), EvidenceAnswer
            )
            if found is not None and found.paper_evidence:
                evidence += [f'- block {e.block_index}: "{e.quote}" ({e.note})' for e in found.paper_evidence[:10]]
                wanted = {e.block_index for e in found.paper_evidence}
                blocks = [p for p in blocks if p.index in wanted] or blocks
        request = run.request(
            unit,
            task=task_text,
            evidence="\n".join(evidence) or "(none)",
            known=known_lines(run.project, run.deterministic, blocks),
            paper=paper_lines(manuscript, blocks),
        )
        answer = await run.ask_json(unit, request, FindingsAnswer)
        if answer is not None:
            candidates.extend((finding, focus[0]) for finding in answer.findings)
            await run.publish(answer.findings, focus[0])

    await asyncio.gather(*(specialise(n, t) for n, t in enumerate(tasks, 1)))
    if len(candidates) > 1:
        await adjudicate(run, candidates)


def _task_text(task: Task, focus: list[Section]) -> str:
    hints = "; ".join(task.hints)
    risk = task.risk_dimension.value if isinstance(task.risk_dimension, Category) else "any"
    return f"Goal: {task.goal}\nRisk dimension: {risk}\nFocus sections: {', '.join(section_label(s) for s in focus)}\nHints: {hints or '(none)'}"


async def adjudicate(run: AuditRun, candidates: list[tuple[LLMFinding, Section]]) -> None:
    """Table 20: merge duplicates among the specialists' findings; on failure keep them as they are."""
    unit = Unit("merge", "merge", "merge and adjudication")
    run.plan(1)
    listing = [
        {
            "number": n,
            **finding.model_dump(
                mode="json", include={"type", "section_location", "error_location", "explanation", "confidence", "proposed_fix"}
            ),
        }
        for n, (finding, _) in enumerate(candidates)
    ]
    request = run.request(unit, candidates="\n".join(data_line(item) for item in listing))
    merged = await run.ask_json(unit, request, MergeAnswer)
    if merged is None:
        return
    before = run.llm_findings()
    run.retract(before)
    for finding in merged.findings:
        sources = [candidates[n] for n in finding.merged_from if 0 <= n < len(candidates)]
        evidence = [e for source, _ in sources for e in source.evidence]
        adjudicated = LLMFinding.model_validate({**finding.model_dump(), "evidence": [e.model_dump() for e in evidence]})
        await run.publish([adjudicated], sources[0][1] if sources else None)


# Critical


async def critical(run: AuditRun, k: int) -> None:
    manuscript = run.project.manuscript
    run.plan(1)
    unit = Unit("critical", "critical", f"top-{k} critical problems", reviewable_sections(manuscript))
    answer = await run.ask_json(
        unit, run.request(unit, k=str(k), paper=paper_lines(manuscript, reviewable_blocks(manuscript))), CriticalAnswer
    )
    if answer is None:
        return
    findings = []
    for problem in answer.root[:k]:
        quoted = _QUOTED.search(problem.location) or _QUOTED.search(problem.explanation)
        findings.append(
            LLMFinding(
                type=Category.METHOD_LOGIC,
                section_location=problem.location,
                error_location=quoted.group(1) if quoted else "",
                explanation=f"{problem.problem.rstrip('.')}. {problem.explanation}".strip(),
                confidence=0.8,
            )
        )
    await run.publish(findings, None, code=CRITICAL_CODE)
