"""The four detection modes as units over an `AuditRun` (PaperAudit §4.1, App. C.3), each ending
in the verification stage (`verification`: propose, then verify).

Paper first (the paper fits the models' context windows), every call starts with the same
prefix, the instructions and the whole paper, and only its task differs:

- fast: one pass over the whole paper.
- standard: one review per part (consecutive sections of at least `MIN_PART_CHARS`, at most
  `MAX_WHOLE_PARTS` parts, so short sections share a call and cost does not grow with the
  number of headings), each with the whole paper in view (Table 18); then one merge.
- deep: standard, plus fast mode's global review, plus a planner over the outline (Table 19)
  and one specialist per task (at most `MAX_WHOLE_TASKS`), then one merge (Table 20) over
  every candidate of every stage and section.
- critical: the top-k critical problems, Zhang & Abernethy App. A, ranked in the model's order.

Each detecting call returns at most `AuditRun.allowed` findings, most severe first: three per section it reviews.

The memory design, for a paper too long for a window (`AuditRun.fallback`): fast and critical
split the paper into parts, each read with the passages of the rest most like it; standard and deep give each part a descriptive memory (Table 24) joined with
facts from the deterministic index into a global memory of bounded size (a book of so many parts
that each would keep under `MIN_MEMORY_CHARS` of its memory: the facts alone, not worth reading it once more), and each review reads
its own part, the memory, and the passages of the rest of the paper most like its part
(`RELATED_SHARE` of it), instead of the paper.

What re-runs after an edit is in `incremental`.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from rapidfuzz import fuzz, process

from ...latex.deferred_pattern import DeferredPattern
from ...latex.manuscript import PlacedBlock, Section
from ..finding import Category
from .audit_modes import Mode
from .codes import CRITICAL_CODE
from .detection_prompts import load
from .incremental import ReviewBasis
from .run import AuditRun, Candidate
from .schema import CriticalAnswer, FindingsAnswer, LLMFinding, MergeAnswer, PlanAnswer, Task
from .units import Unit, data_line, known_lines, section_label, untrusted
from .verifier import Verification, verify

A = TypeVar("A")
FAST_CHUNK_CHARS = 400_000  # ~100k tokens: beyond this one pass is split by sections
MIN_PART_CHARS = 12_000  # consecutive sections are reviewed together up to this size
MAX_PARTS = 40  # a book's parts grow instead: each part's call repeats the prompt and the memory
MAX_WHOLE_PARTS = 8  # paper first, each part's call repeats the whole (cached) paper
MAX_WHOLE_TASKS = 5
GLOBAL_MEMORY_CHARS = 8_000  # the memory every review reads, whatever the paper's length
MIN_MEMORY_CHARS = 300  # of a part's memory the global memory keeps, or the part is not read for one
FACT_CHARS = 160
MAX_TASKS = 12
CHARS_PER_TASK = 10_000  # a short paper gets fewer tasks (at least MIN_TASKS): each costs a whole prompt
MIN_TASKS = 3
SPECIALIST_SHARE = 1.0  # all specialists together read at most this many times the paper
HIGHLIGHTS = 8
MERGE_BATCH = 40
_RELATED = "\x1e"  # between the memory and the related passages in a remembered basis
_QUOTED = DeferredPattern(r"[\"“]([^\"”]{12,})[\"”]")


async def run_mode(run: AuditRun, mode: Mode, *, critical_k: int = 5) -> Verification:
    root = run.project.documents[run.project.root_file].parsed
    if any(site.kind == "class" and site.target == "standalone" for site in root.includes):
        return Verification()  # a picture or a snippet compiled apart (a TikZ diagram): no claim to review
    if mode == "fast":
        await fast(run)
        return await verify(run, "")
    if mode == "critical":
        await critical(run, critical_k)
        return await verify(run, "")
    parts = paper_parts(run)
    memory = "" if run.whole_paper else global_memory(run, parts, await part_memories(run, parts) if _memories_kept(run, parts) else {})
    if mode == "standard":
        await part_reviews(run, parts, memory)
    else:
        await asyncio.gather(part_reviews(run, parts, memory), fast(run), specialists(run, memory))
    if mode == "deep" or len(parts) > 1:  # one review's findings come from one answer, asked for no duplicates
        await merge(run)
    return await verify(run, memory)


def _focus(run: AuditRun, sections: list[Section]) -> str:
    """The sections a whole-paper call is about, by name and block range."""
    return "\n".join(
        data_line({"section": run.paper.title(s), "blocks": f"{s.blocks[0].index}-{s.blocks[-1].index}"}) for s in sections if s.blocks
    )


def _chunks(run: AuditRun, sections: list[Section], limit: int) -> list[list[Section]]:
    """Consecutive sections in groups that reach `limit` characters (the last one may fall short)."""
    chunks: list[list[Section]] = [[]]
    size = 0
    for section in sections:
        length = run.paper.chars([section])
        if chunks[-1] and size + length > limit:
            chunks.append([])
            size = 0
        chunks[-1].append(section)
        size += length
    return [chunk for chunk in chunks if chunk]


async def fast(run: AuditRun) -> None:
    if run.whole_paper:
        run.plan(1, "fast")
        unit = Unit("fast", "fast", "fast review (whole paper)", run.paper.sections())
        k = str(run.allowed(unit))
        answer = await run.ask_json(unit, run.request(unit, k=k, known=known_lines(run.project, run.deterministic, None)), FindingsAnswer)
        if answer is not None:
            await run.propose(run.top(unit, answer.findings), None)
        return
    chunks = paper_chunks(run)
    run.plan(len(chunks), "fast")

    async def review(number: int, sections: list[Section]) -> None:
        unit = _chunk_unit(run, "fast", "fast review", number, chunks)
        known = known_lines(run.project, run.deterministic, None if len(chunks) == 1 else unit.blocks)
        answer = await run.ask_json(unit, run.request(unit, known=known, **_chunk_text(run, unit, chunks, known)), FindingsAnswer)
        if answer is not None:
            await run.propose(run.top(unit, answer.findings), sections[0])

    await asyncio.gather(*(review(n, chunk) for n, chunk in enumerate(chunks, 1)))


def paper_chunks(run: AuditRun) -> list[list[Section]]:
    """The memory design's parts of a one-pass review (fast, critical): as few as half a context window allows."""
    return _chunks(run, run.paper.sections(), min(FAST_CHUNK_CHARS, run.window_chars() // 2))


def _chunk_unit(run: AuditRun, kind: str, name: str, number: int, chunks: list[list[Section]]) -> Unit:
    sections = chunks[number - 1]
    label = "whole paper" if len(chunks) == 1 else f"paper part {number} of {len(chunks)}"
    unit_id = kind if len(chunks) == 1 and kind == "critical" else f"{kind}:{number}"
    return Unit(unit_id, kind, f"{name} ({label})", sections, [p for s in sections for p in s.blocks])


def _chunk_text(run: AuditRun, unit: Unit, chunks: list[list[Section]], context: str) -> dict[str, str]:
    """A part's blocks, and (of several parts) the passages elsewhere that share its rare terms."""
    return {"paper": run.paper.lines(unit.blocks), "related": run.related(unit.blocks, context) if len(chunks) > 1 else ""}


# Standard


def paper_parts(run: AuditRun) -> list[list[Section]]:
    """Consecutive sections grouped until each part holds `MIN_PART_CHARS` (a book: a `MAX_WHOLE_PARTS`th
    of it, or in the memory design a `MAX_PARTS`th but at most a quarter of the context window): a
    short subsection costs no call of its own. The last part joins the one before when it falls short."""
    sections = run.paper.sections()
    if run.whole_paper:
        least = max(MIN_PART_CHARS, run.paper.chars(sections) // MAX_WHOLE_PARTS)
    else:  # a quarter of the window: the memory and the related passages need the rest
        least = min(max(MIN_PART_CHARS, run.paper.chars(sections) // MAX_PARTS), run.window_chars() // 4)
    parts: list[list[Section]] = [[]]
    for section in sections:
        if parts[-1] and run.paper.chars(parts[-1]) >= least:
            parts.append([])
        parts[-1].append(section)
    if len(parts) > 1 and run.paper.chars(parts[-1]) < least:
        parts[-2].extend(parts.pop())
    return [part for part in parts if part]


def _part_id(part: list[Section]) -> str:
    return "+".join(section.id for section in part)


def _part_names(run: AuditRun, part: list[Section]) -> str:
    return untrusted(", ".join(run.paper.title(section) for section in part))


def section_facts(run: AuditRun) -> dict[int, list[tuple[int, str]]]:
    """The deterministic index (latex/index.py), per section index: (block, fact) for acronyms, claims, numbers
    and then labels (a memory short of room keeps the statements); none from the preamble or from a block
    holding text that is never sent."""
    manuscript = run.project.manuscript
    index = run.project.index
    facts: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for placed, acronym in index.inline_acronyms:
        facts[placed.section].append((placed.index, f"defines {acronym.short} = {acronym.long}"))
    for claim in index.claims:
        if not _withheld(run, claim.block):
            facts[claim.block.section].append((claim.block.index, f"claim: {' '.join(claim.text.split())[:FACT_CHARS]}"))
    for number in index.numbers:
        if not number.mention.is_year and not _withheld(run, number.block):
            sentence = " ".join(number.mention.sentence.split())[:FACT_CHARS]
            facts[number.block.section].append((number.block.index, f"number {number.mention.text}: {sentence}"))
    for key, entries in index.labels.items():
        for entry in entries:
            at = next((p for p in manuscript.blocks if p.file == entry.file and p.block.start <= entry.start < p.block.end), None)
            if at is not None and run.paper.has_text(at):
                facts[at.section].append((at.index, f"label {key} ({entry.kind})"))
    return facts


def _withheld(run: AuditRun, placed: PlacedBlock) -> bool:
    """A fact's block holds text that is never sent (hidden text, instructions to AI reviewers): its
    sentences are not quoted in the memory either."""
    return run.paper.withheld(placed.file, placed.block.start, placed.block.end) or not run.paper.has_text(placed)


async def part_memories(run: AuditRun, parts: list[list[Section]]) -> dict[str, str]:
    """Part id -> descriptive memory; a failed unit leaves "Not available"."""
    run.plan(len(parts), "memory")

    async def summarise(part: list[Section]) -> tuple[str, str]:
        blocks = [p for s in part for p in s.blocks]
        unit = Unit(f"memory:{_part_id(part)}", "memory", f"memory of {section_label(part[0])}", part, blocks)
        text = await run.ask_text(unit, run.request(unit, section=_part_names(run, part), paper=run.paper.lines(blocks)))
        return _part_id(part), text or "Not available."

    return dict(await asyncio.gather(*(summarise(part) for part in parts)))


def _memory_share(run: AuditRun, parts: list[list[Section]]) -> int:
    """The characters of the global memory each part gets (names, memory and facts)."""
    return min(GLOBAL_MEMORY_CHARS, run.window_chars() // 4) // max(1, len(parts))


def _memories_kept(run: AuditRun, parts: list[list[Section]]) -> bool:
    """Whether the parts' descriptive memories are worth their calls: a book of many parts keeps a sentence
    of each (three quarters of its share), and reading the whole book once more for that costs as much as
    its reviews' own text; its global memory is the index facts alone."""
    return _memory_share(run, parts) * 3 // 4 >= MIN_MEMORY_CHARS


def global_memory(run: AuditRun, parts: list[list[Section]], memories: dict[str, str]) -> str:
    """Each part's memory and index facts as data lines, all within `GLOBAL_MEMORY_CHARS` (and a quarter
    of the context window, so the related passages keep room): each
    part gets an equal share, three quarters of it for its memory (section names included: a part
    of many subsections is named by a clipped list), the rest for facts while they fit."""
    facts = section_facts(run)
    position = {id(s): i for i, s in enumerate(run.project.manuscript.sections)}
    share = _memory_share(run, parts)
    lines = []
    for part in parts:
        names = _clipped(", ".join(run.paper.title(s) for s in part), share // 4)
        written = memories.get(_part_id(part))
        memory = (
            data_line({"section": names})
            if written is None
            else _line_within({"section": names}, "memory", " ".join(written.split()), share * 3 // 4)
        )
        lines.append(memory)
        room = share - len(memory)
        for section, (block, fact) in ((s, item) for s in part for item in facts.get(position[id(s)], [])):
            line = data_line({"section": _clipped(run.paper.title(section), share // 4), "block": block, "fact": fact})
            if len(line) > room:
                break
            lines.append(line)
            room -= len(line)
    return "\n".join(lines)


def _clipped(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def _line_within(record: dict[str, Any], key: str, text: str, limit: int) -> str:
    """`record` with `key` set to as much of `text` as keeps its data line within `limit` characters."""
    fits, over = 0, len(text) + 1  # escaping makes a line longer than its text: search the longest prefix that fits
    while over - fits > 1:
        middle = (fits + over) // 2
        fits, over = (middle, over) if len(data_line({**record, key: text[:middle]})) <= limit else (fits, middle)
    return data_line({**record, key: text[:fits]})


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


async def part_reviews(run: AuditRun, parts: list[list[Section]], memory: str) -> None:
    run.plan(len(parts), "section")

    async def review(part: list[Section]) -> None:
        blocks = [p for s in part for p in s.blocks]
        unit = Unit(f"section:{_part_id(part)}", "section", f"review of {section_label(part[0])}", part, blocks)
        known = known_lines(run.project, run.deterministic, blocks)
        if run.whole_paper:
            k = str(run.allowed(unit))
            answer = await run.ask_json(unit, run.request(unit, focus=_focus(run, part), known=known, k=k), FindingsAnswer)
            if answer is not None:
                await run.propose(run.top(unit, answer.findings), part[0])
            return
        paper = run.paper.lines(blocks)
        names = _part_names(run, part)

        async def ask(context: str) -> FindingsAnswer | None:
            remembered, _, related = context.partition(_RELATED)
            request = run.request(unit, section=names, memory=remembered, known=known, paper=paper, related=related)
            return await run.ask_json(unit, request, FindingsAnswer)

        # The related passages are context like the memory: an unchanged part keeps the ones it was reviewed with.
        context = memory + _RELATED + run.related(blocks, memory)
        answer = await with_basis(run, unit, "\x1f".join((names, known, paper)), context, ask)
        if answer is not None:
            await run.propose(run.top(unit, answer.findings), part[0])

    await asyncio.gather(*(review(part) for part in parts))


# Deep


def focus_sections(run: AuditRun, sections: list[Section], names: list[str]) -> list[Section]:
    """The sections a task names (as the outline shows them); a name that matches none adds nothing."""
    labels = [run.paper.title(s) for s in sections]
    chosen: list[Section] = []
    for name in names:
        best = process.extractOne(name, labels, scorer=fuzz.WRatio, score_cutoff=75)
        if best is not None and sections[best[2]] not in chosen:
            chosen.append(sections[best[2]])
    return chosen


async def specialists(run: AuditRun, memory: str) -> None:
    sections = run.paper.sections()
    planner = Unit("planner", "planner", "review plan", sections)
    outline = run.paper.outline()
    run.plan(1, "planner")

    async def ask_plan(context: str) -> PlanAnswer | None:
        return await run.ask_json(planner, run.request(planner, outline=outline, memory=context), PlanAnswer)

    if run.whole_paper:
        plan = await run.ask_json(planner, run.request(planner, outline=outline), PlanAnswer)
    else:
        plan = await with_basis(run, planner, outline, memory, ask_plan)
    if plan is None:
        return
    size = run.paper.chars(sections)
    limit = max(MIN_TASKS, min(MAX_WHOLE_TASKS if run.whole_paper else MAX_TASKS, size // CHARS_PER_TASK))
    tasks = [(task, focus) for task in plan.tasks if (focus := focus_sections(run, sections, task.focus_sections))][:limit]
    share = SPECIALIST_SHARE * size / max(1, len(tasks))
    # Each task reads its focus sections whole while they fit its share; a task whose first section
    # alone would take the specialists past the paper's length (a huge section named again) is dropped.
    budget = SPECIALIST_SHARE * size
    readings: list[tuple[Task, list[Section]]] = []
    for task, focus in tasks:
        read = focus[:1] + [s for n, s in enumerate(focus[1:], 1) if run.paper.chars(focus[: n + 1]) <= share]
        if readings and run.paper.chars(read) > budget:
            continue
        budget -= run.paper.chars(read)
        readings.append((task, read))
    facts = [(block, fact) for found in section_facts(run).values() for block, fact in found]
    run.plan(len(readings), "specialist")

    async def specialise(number: int, task: Task, read: list[Section]) -> None:
        blocks = [p for s in read for p in s.blocks]
        unit = Unit(f"task:{number}:{'|'.join(s.id for s in read)}", "specialist", f"task {number}: {task.goal[:60]}", read, blocks)
        known = known_lines(run.project, run.deterministic, blocks)
        task_line = data_line(_task_record(run, task, read))
        if run.whole_paper:
            request = run.request(unit, task=task_line, focus=_focus(run, read), known=known, k=str(run.allowed(unit)))
        else:
            request = run.request(unit, task=task_line, highlights=_highlights(task, facts), known=known, paper=run.paper.lines(blocks))
        answer = await run.ask_json(unit, request, FindingsAnswer)
        if answer is not None:
            await run.propose(run.top(unit, answer.findings), read[0])

    await asyncio.gather(*(specialise(n, task, read) for n, (task, read) in enumerate(readings, 1)))


def _task_record(run: AuditRun, task: Task, focus: list[Section]) -> dict[str, Any]:
    risk = task.risk_dimension.value if isinstance(task.risk_dimension, Category) else "any"
    return {"goal": task.goal, "risk_dimension": risk, "focus_sections": [run.paper.title(s) for s in focus], "hints": task.hints}


def _highlights(task: Task, facts: list[tuple[int, str]]) -> str:
    """The index facts of the whole paper closest to the task's goal and hints."""
    query = " ".join([task.goal, *task.hints])
    found = process.extract(query, [fact for _, fact in facts], scorer=fuzz.token_set_ratio, limit=HIGHLIGHTS)
    return "\n".join(data_line({"block": facts[i][0], "span": fact}) for fact, _, i in sorted(found, key=lambda f: facts[f[2]][0]))


async def merge(run: AuditRun) -> None:
    """Table 20, once over every candidate of the run (every stage and section), so one problem reported
    from two sections or by two stages is shown once; in batches of `MERGE_BATCH` in reading order when
    there are more. A batch whose merge fails keeps its candidates as they are."""
    candidates = list(run.candidates)
    batches = [candidates[start : start + MERGE_BATCH] for start in range(0, len(candidates), MERGE_BATCH)]
    batches = [batch for batch in batches if len(batch) > 1]
    run.plan(len(batches), "merge")

    async def adjudicate(number: int, batch: list[Candidate]) -> None:
        unit = Unit(f"merge:{number}", "merge", f"merge of the findings {number} of {len(batches)}")
        listing = [
            data_line(
                {
                    "number": n,
                    **c.answer.model_dump(
                        mode="json",
                        include={
                            "type",
                            "section_location",
                            "error_location",
                            "evidence",
                            "explanation",
                            "severity",
                            "confidence",
                            "proposed_fix",
                        },
                    ),
                }
            )
            for n, c in enumerate(batch)
        ]
        merged = await run.ask_json(unit, run.request(unit, candidates="\n".join(listing)), MergeAnswer)
        if merged is None:
            return
        # Merging only deduplicates: a candidate the answer does not account for stays as it is.
        replaced = {n for finding in merged.findings for n in finding.merged_from if 0 <= n < len(batch)}
        for n in replaced:
            run.candidates.remove(batch[n])
        for finding in merged.findings:
            sources = [batch[n] for n in finding.merged_from if 0 <= n < len(batch)]
            evidence = list({(e.block_index, e.quote): e for source in sources for e in source.answer.evidence}.values())
            adjudicated = LLMFinding.model_validate({**finding.model_dump(), "evidence": [e.model_dump() for e in evidence]})
            await run.propose([adjudicated], sources[0].fallback if sources else batch[0].fallback)

    await asyncio.gather(*(adjudicate(n, batch) for n, batch in enumerate(batches, 1)))


# Critical


async def critical(run: AuditRun, k: int) -> None:
    """The top-k problems of the paper, in the model's order. In the memory design each part names its own
    top k; across the parts the verifier's severity ranks them, then their place in their part's list
    (every part's first, then every second...); the report keeps k."""
    run.report_limit = k
    chunks = [run.paper.sections()] if run.whole_paper else paper_chunks(run)
    run.severity_first = len(chunks) > 1
    run.plan(len(chunks), "critical")

    async def ask(number: int) -> None:
        unit = _chunk_unit(run, "critical", f"top-{k} critical problems", number, chunks)
        values = {"k": str(k)} if run.whole_paper else {"k": str(k), **_chunk_text(run, unit, chunks, "")}
        answer = await run.ask_json(unit, run.request(unit, **values), CriticalAnswer)
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
        ranks = [place * len(chunks) + number - 1 for place in range(len(findings))]
        await run.propose(findings, None if run.whole_paper else unit.sections[0], code=CRITICAL_CODE, ranks=ranks)

    await asyncio.gather(*(ask(number) for number in range(1, len(chunks) + 1)))
