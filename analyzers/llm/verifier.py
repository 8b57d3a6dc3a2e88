"""The verification stage: propose, then verify (Zhang & Abernethy).

Every candidate — each anchored LLM finding, and each rule finding that carries `Evidence`
(both statements quoted: NUM001, NUM002) — goes to a verifier prompt modelled on the paper's
true-positive judgement, in batches. The verifier first quotes the passage of the paper that
would resolve the candidate, then says whether it is a true problem, how severe (major,
moderate, minor) and whether the manuscript alone settles it. The severity shown is the
verifier's (`SeverityPolicy`), never the finder's confidence.

Paper first, each verify call has the whole paper in view (the run's cached prefix), so the
verifier can find a resolving passage anywhere. In the memory design (`AuditRun.fallback`) a
batch holds one section's candidates and reads the blocks they quote, plus the paper memory
when one quotes other sections.

A panel (several verifier models) judges every batch; a candidate is confirmed at the panel's
lowest severity when all of it confirms it, shown as information at most when only some do,
and rejected when none does (Zhang & Abernethy's two-judge rule).

Then the confirmed LLM findings are ranked (severity, then confidence; critical mode: the
model's order): at most `max_findings_per_section` per section and `max_findings` per paper
are shown. Rule candidates are not capped: the audit's report shows a confirmed one at the
verifier's severity and leaves a rejected one out (`AuditResult.rejected_rules`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from ...latex.manuscript import PlacedBlock, Section
from ..finding import Category, Finding, Range, Severity
from .client import LLMClient
from .detection_prompts import error_type
from .run import AuditRun, Candidate
from .schema import Verdict, VerifyAnswer
from .units import Unit, block_at, data_line

BATCH = 10  # candidates per call in the memory design: the answer stays short whatever the section holds
PAPER_BATCH = 20  # candidates per call with the whole paper in view: each call repeats the (cached) paper


@dataclass
class _Item:
    record: dict[str, Any]
    blocks: list[PlacedBlock]
    quotes: str  # the sentences the candidate quotes
    candidate: Candidate | None = None
    rule: Finding | None = None


@dataclass
class Verification:
    """What the stage decided."""

    shown: list[Finding] = field(default_factory=list)
    rejected: int = 0  # LLM candidates the verifier called false alarms
    unverified: int = 0  # LLM candidates whose verification failed: shown as hints
    over_cap: int = 0  # confirmed, but below the per-section cap
    rules: dict[str, Verdict] = field(default_factory=dict)  # rule finding fingerprint -> verdict


def rule_candidates(findings: list[Finding]) -> list[Finding]:
    return [finding for finding in findings if finding.evidence is not None and finding.evidence.statements]


def _verifiable(run: AuditRun, item: _Item) -> bool:
    """Whether every statement a rule quotes is in what the verifier reads of its blocks. A `\\label` (DRF002's
    label before its caption) is markup the paper sent to a model leaves out: asked, the verifier would call the
    finding a false alarm for want of its quote, so such a finding keeps the rule's own severity."""
    shown = []
    for placed in item.blocks:
        record = run.paper.record(placed)
        shown += [record.get("latex", ""), *(cell for row in record.get("rows", []) for cell in row)]
    spaced = [" ".join(text.split()) for text in shown]
    quotes = [" ".join(statement["quote"].split()) for statement in item.record["statements"]]
    return all(any(quote in text for text in spaced) for quote in quotes)


async def verify(run: AuditRun, memory: str) -> Verification:
    if run.whole_paper:
        items = [_llm_item(run, c) for c in run.candidates] + _rule_items(run)
        batches = [
            (f"verify:{start // PAPER_BATCH}", items[start : start + PAPER_BATCH], False) for start in range(0, len(items), PAPER_BATCH)
        ]
    else:
        batches = _section_batches(run)
    run.plan(len(batches), "verify", run.verifiers)
    run.verifying = [item for _, items, _ in batches for item in items]
    verdicts = run.verdicts

    async def ask(unit_id: str, items: list[_Item], cross: bool) -> None:
        blocks = sorted({placed.index: placed for item in items for placed in item.blocks}.values(), key=lambda p: p.index)
        unit = Unit(unit_id, "verify", f"verification of {len(items)} finding(s)", blocks=blocks)
        candidates = "\n".join(data_line({"number": n, **item.record}) for n, item in enumerate(items))
        if run.whole_paper:
            request = run.request(unit, candidates=candidates)
        else:
            # What resolves a candidate shares the words of the sentences it quotes, not of their whole paragraphs.
            related = run.related(blocks, candidates, [item.quotes for item in items])
            request = run.request(
                unit, memory=memory if cross else "", candidates=candidates, paper=run.paper.lines(blocks), related=related
            )

        async def judge(client: LLMClient) -> dict[int, Verdict]:
            answer = await run.ask_json(unit, request, VerifyAnswer, client)
            return {verdict.number: verdict for verdict in answer.verdicts} if answer is not None else {}

        panel = await asyncio.gather(*(judge(client) for client in run.verifiers))
        models = [client.settings.model for client in run.verifiers]
        for n, item in enumerate(items):
            verdicts[id(item)] = panel_verdict([(model, given.get(n)) for model, given in zip(models, panel)])

    await asyncio.gather(*(ask(unit_id, items, cross) for unit_id, items, cross in batches))
    return settle(run)


def panel_verdict(judged: list[tuple[str, Verdict | None]]) -> Verdict | None:
    """The panel's verdict: confirmed at its lowest severity when every model that answered confirms,
    `split` when only some do, rejected when none does; None when no model answered."""
    answered = [(model, verdict) for model, verdict in judged if verdict is not None]
    confirming = [(model, verdict) for model, verdict in answered if verdict.valid]
    if not answered:
        return None
    if not confirming:
        return answered[0][1].model_copy(update={"judges": "", "split": False})
    mildest = min((verdict for _, verdict in confirming), key=lambda v: v.severity.rank)
    return mildest.model_copy(
        update={
            "judges": ", ".join(dict.fromkeys(model for model, _ in confirming)),
            "split": len(confirming) < len(answered),
            "settled_by_manuscript": all(verdict.settled_by_manuscript for _, verdict in confirming),
        }
    )


def _section_batches(run: AuditRun) -> list[tuple[str, list[_Item], bool]]:
    """The memory design's batches: per section, candidates quoting other sections apart (they read the memory)."""
    groups: dict[tuple[str, bool], list[_Item]] = {}
    for candidate in run.candidates:
        item = _llm_item(run, candidate)
        sections = {placed.section for placed in item.blocks}
        cross = len(sections) > 1 or candidate.finding.category is Category.CONTEXT_MISALIGNMENT
        groups.setdefault((_section_id(run, item, candidate.fallback), cross), []).append(item)
    for item in _rule_items(run):
        groups.setdefault((_section_id(run, item, None), False), []).append(item)
    return [
        (f"verify{'-cross' if cross else ''}:{section}:{start // BATCH}", items[start : start + BATCH], cross)
        for (section, cross), items in groups.items()
        for start in range(0, len(items), BATCH)
    ]


def settle(run: AuditRun, finished_only: bool = False) -> Verification:
    """The verdicts applied. `finished_only` (a cancelled run): what no verifier answered is not shown."""
    outcome = Verification()
    verdicts = run.verdicts
    items = [item for item in run.verifying if not finished_only or id(item) in verdicts]
    policy = run.mapper.policy
    confirmed: dict[str, list[tuple[tuple[float, ...], Finding]]] = {}
    for item in items:
        verdict = verdicts.get(id(item))
        if item.rule is not None:
            if verdict is not None:
                outcome.rules[item.rule.with_fingerprint().fingerprint] = verdict
            continue
        candidate = item.candidate
        assert candidate is not None  # an item is a rule's or a candidate's
        finding = candidate.finding
        if verdict is None:
            outcome.unverified += 1
            note = "Not verified: the verification of this finding failed."
            outcome.shown.append(finding.model_copy(update={"severity": Severity.HINT, "explanation": _noted(finding, note)}))
            continue
        if not verdict.valid:
            outcome.rejected += 1
            continue
        severity = policy.severity(finding.category, verdict, finding.anchored)
        if verdict.split and severity.rank > Severity.INFORMATION.rank:
            severity = Severity.INFORMATION
        note = f"Verifier ({verdict.judges}): {verdict.severity.value}" if verdict.judges else f"Verifier: {verdict.severity.value}"
        note += "" if verdict.settled_by_manuscript else ", not settled by the manuscript alone"
        note += ", not confirmed by every model of the panel" if verdict.split else ""
        verified = finding.model_copy(update={"severity": severity, "explanation": _noted(finding, f"{note}. {verdict.reason}".strip())})
        if candidate.rank is None:
            order: tuple[float, ...] = (-severity.rank, -verdict.severity.rank, -finding.confidence)
        else:
            order = (-verdict.severity.rank, candidate.rank) if run.severity_first else (candidate.rank,)
        confirmed.setdefault(finding.section or "", []).append((order, verified))
    per_section, per_paper = (
        run.settings.max_findings_per_section,
        min(run.settings.max_findings, run.report_limit or run.settings.max_findings),
    )
    kept: list[tuple[tuple[float, ...], Finding]] = []
    for ranked in confirmed.values():
        ranked.sort(key=lambda pair: pair[0])
        kept += ranked[:per_section]
        outcome.over_cap += max(0, len(ranked) - per_section)
    kept.sort(key=lambda pair: pair[0])
    outcome.shown += [finding for _, finding in kept[:per_paper]]
    outcome.over_cap += max(0, len(kept) - per_paper)
    return outcome


def _noted(finding: Finding, note: str) -> str:
    return f"{finding.explanation or ''}\n\n{note}".strip()


def _llm_item(run: AuditRun, candidate: Candidate) -> _Item:
    answer, finding = candidate.answer, candidate.finding
    record = {
        "type": error_type(answer.type).name,
        "section": finding.section or answer.section_location,
        "problem": answer.explanation,
        "quote": answer.error_location,
        "evidence": [{"block": e.block_index, "quote": e.quote} for e in answer.evidence],
    }
    places = [(finding.file, finding.range)] + [(related.file, related.range) for related in finding.related]
    quotes = "\n".join([answer.error_location, *(e.quote for e in answer.evidence)])
    return _Item(record, _blocks(run, places), quotes, candidate=candidate)


def _rule_items(run: AuditRun) -> list[_Item]:
    return [item for item in (_rule_item(run, finding) for finding in rule_candidates(run.deterministic)) if _verifiable(run, item)]


def _rule_item(run: AuditRun, finding: Finding) -> _Item:
    evidence = finding.evidence
    assert evidence is not None  # rule_candidates keeps only these
    record = {
        "type": error_type(finding.category).name if finding.category is not Category.LATEX else "LaTeX",
        "problem": finding.message,
        "statements": [{"quote": s.quote, "subject": s.subject, "role": s.role} for s in evidence.statements],
        "reason": evidence.reason,
    }
    places = [(finding.file, finding.range)] + [(s.file, s.range) for s in evidence.statements]
    return _Item(record, _blocks(run, places), "\n".join(s.quote for s in evidence.statements), rule=finding)


def _blocks(run: AuditRun, places: list[tuple[str, Range]]) -> list[PlacedBlock]:
    found: dict[int, PlacedBlock] = {}
    for file, where in places:
        document = run.project.documents.get(file)
        if document is None:
            continue
        placed = block_at(run.project, file, document.source.offset(where.start.line, where.start.character))
        if placed is not None:
            found[placed.index] = placed
    return [found[index] for index in sorted(found)]


def _section_id(run: AuditRun, item: _Item, fallback: Section | None) -> str:
    if item.blocks:
        return run.project.manuscript.sections[item.blocks[0].section].id
    return fallback.id if fallback is not None else "paper"
