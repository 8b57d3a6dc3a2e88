"""`run_review`: PaperAudit-Review's five stages through one LLM client (§4.3, App. C.5).

Stages run in the paper's order: memory (Table 24), baseline review (Table 25),
integrity report (our detection findings: deterministic rules plus the LLM audit source in the
chosen mode), motivation and novelty report (Table 27 over retrieved related work)
and error-aware refinement (Table 28). One budget covers all of them. A stage that
fails, runs out of budget or is cancelled ends the review there: what is done so far
is kept, and `Review.stopped` says why.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from rapidfuzz import fuzz

from ...latex.project import Project
from ..finding import Finding, Severity
from ..finding_source import Snapshot
from ..llm.answer_cache import LLMCache
from ..llm.client import LLMClient, RunStats
from ..llm.errors import LLMError
from ..llm.provider import ChatRequest, Message
from ..llm.settings import LLMSettings
from ..policy import severity_order
from ..reports.markdown import to_markdown
from ..scholarly.related import RelatedWork, ScholarlySearch, ScholarlyUnavailable
from ..session import Session
from .paper import paper_text, paper_title, section_titles
from .review_prompts import load_review_prompt
from .structure import StructuredReview, parse_review

if TYPE_CHECKING:
    from ..llm.audit import AuditResult

STAGES = ("memory", "baseline", "integrity", "novelty", "refine")
NO_DETECTION_MODE = "none"  # deterministic findings only
RELATED_WORK_LIMIT = 8
_ABSTRACT_CHARS = 1200
_CITED_SIMILARITY = 90
BASELINE_QUERY = "Write the review following the output template exactly."

Progress = Callable[[str, int, int], None]  # (stage, stages done, stages in all)
T = TypeVar("T")


class ReviewStopped(Exception):
    """A stage could not finish; the message says why in one sentence."""


@dataclass
class NoveltyReport:
    markdown: str
    related_works: list[RelatedWork] = field(default_factory=list)
    evidence: bool = False  # False: the report says it had no related-work evidence
    note: str = ""


@dataclass
class Review:
    title: str
    mode: str
    memory: str = ""
    baseline: str = ""
    findings: list[Finding] = field(default_factory=list)
    integrity: str = ""
    novelty: NoveltyReport | None = None
    final: str = ""
    stats: RunStats = field(default_factory=RunStats)
    stopped: str | None = None

    @property
    def text(self) -> str:
        """The review itself: refined when refinement ran, else the baseline."""
        return self.final or self.baseline

    @property
    def structured(self) -> StructuredReview:
        return parse_review(self.text)

    @property
    def markdown(self) -> str:
        lines = [f"# Review: {self.title}" if self.title else "# Review", ""]
        if self.stopped:
            lines += [f"> **Review incomplete:** {self.stopped}", ""]
        if self.text:
            lines += [self.text.strip(), ""]
        unanchored = self.structured.unanchored if self.text else []
        if unanchored:
            titles = ", ".join(f'"{p.title or p.text[:40]}"' for p in unanchored)
            lines += [f"> {len(unanchored)} point(s) name no section, table, figure or equation: {titles}.", ""]
        lines += [
            "---",
            "",
            "## Auxiliary reports",
            "",
            "_For the author: the review above is grounded in the manuscript only; these are the cues it was checked against._",
            "",
        ]
        if self.integrity:
            lines += [_demote(self.integrity), ""]
        if self.novelty is not None:
            lines += [_demote(self.novelty.markdown), ""]
        lines += ["---", "", f"_{self.mode} mode · {self.stats.summary()}_", ""]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        structured = self.structured
        return {
            "title": self.title,
            "mode": self.mode,
            "scores": structured.scores.model_dump(),
            "review": structured.model_dump(exclude={"scores"}),
            "unanchored_points": len(structured.unanchored),
            "markdown": self.text,
            "baseline": self.baseline,
            "memory": self.memory,
            "integrity": {"markdown": self.integrity, "findings": [f.contract() for f in self.findings]},
            "novelty": None
            if self.novelty is None
            else {
                "markdown": self.novelty.markdown,
                "related_work_evidence": self.novelty.evidence,
                "related_works": [w.model_dump() for w in self.novelty.related_works],
                "note": self.novelty.note,
            },
            "stats": self.stats.model_dump(),
            "stopped": self.stopped,
        }


def _demote(markdown: str) -> str:
    """Nest a report's headings under 'Auxiliary reports'."""
    return "\n".join("##" + line if line.startswith("#") else line for line in markdown.strip().splitlines())


async def run_review(
    session: Session,
    settings: LLMSettings,
    mode: str = "standard",
    *,
    snapshot: Snapshot | None = None,
    private: bool = False,
    cache: LLMCache | None = None,
    search: ScholarlySearch | None = None,
    on_progress: Progress | None = None,
    cancel: asyncio.Event | None = None,
) -> Review:
    """The error-aware review of one of `session`'s projects (`snapshot`'s; by default the first), read
    from a private copy of it when `private`; `search=None` means no related-work search."""
    snapshot = snapshot or session.snapshots()[0]
    project = await session.project_of(snapshot, private)
    review = Review(title=paper_title(project), mode=mode)
    started = time.monotonic()
    audit_stats = RunStats()
    paper = paper_text(project)

    def progress(done: int) -> None:
        if on_progress is not None:
            on_progress(STAGES[done] if done < len(STAGES) else "done", done, len(STAGES))

    async with LLMClient(settings, cache) as llm:
        ask = _asker(llm, cancel)

        async def integrity() -> None:
            nonlocal audit_stats
            review.findings = snapshot.rule_findings
            if mode == NO_DETECTION_MODE:
                review.integrity = integrity_report(review.findings, mode)
                return
            result = await _audit(session, snapshot, private, settings, mode, llm.stats, cache, cancel)
            audit_stats = result.stats
            _take_audit(review, result, mode)

        stages: list[Callable[[], Awaitable[None]]] = [
            lambda: _set(review, "memory", ask("memory", sections=section_titles(project), paper=paper)),
            lambda: _set(review, "baseline", ask("baseline", text=paper, query=BASELINE_QUERY)),
            integrity,
            lambda: _set(review, "novelty", _novelty(project, review.memory, search, ask)),
            lambda: _set(
                review,
                "final",
                ask("refine", paper=paper, baseline=review.baseline, integrity=review.integrity, novelty=review.novelty.markdown),  # type: ignore[union-attr]
            ),
        ]
        try:
            for done, stage in enumerate(stages):
                progress(done)
                await stage()
            progress(len(STAGES))
        except (LLMError, ReviewStopped) as error:
            review.stopped = str(error)
        finally:
            review.stats = _combined(llm.stats, audit_stats, time.monotonic() - started)
    return review


def _asker(llm: LLMClient, cancel: asyncio.Event | None) -> Callable[..., Awaitable[str]]:
    """ask(name, **values): the answer to the review prompt `name` filled with `values`."""

    async def ask(name: str, **values: str) -> str:
        prompt = load_review_prompt(name)
        system, user = prompt.render(**values)
        request = ChatRequest(
            system=system, messages=[Message(role="user", content=user)], purpose=f"review {name}", prompt_version=prompt.version
        )
        response = await _unless_cancelled(lambda: llm.complete(request), cancel)
        return response.text.strip()

    return ask


def _take_audit(review: Review, result: AuditResult, mode: str) -> None:
    """The audit's findings and integrity report into `review`; ReviewStopped when the audit did not finish."""
    review.findings = list(result.findings)
    failed = [f"{failure.label}: {failure.message}" for failure in result.failed_units]
    review.integrity = integrity_report(review.findings, mode, failed)
    if result.cancelled:
        raise ReviewStopped("The review was cancelled.")
    if result.budget_stop:
        raise ReviewStopped(result.budget_stop)


async def _set(review: Review, attribute: str, answer: Awaitable[Any]) -> None:
    setattr(review, attribute, await answer)


async def _unless_cancelled(start: Callable[[], Awaitable[T]], cancel: asyncio.Event | None) -> T:
    if cancel is None:
        return await start()
    if cancel.is_set():
        raise ReviewStopped("The review was cancelled.")
    task = asyncio.ensure_future(start())
    waiter = asyncio.ensure_future(cancel.wait())
    try:
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
    if not task.done():
        task.cancel()
        raise ReviewStopped("The review was cancelled.")
    return task.result()


def _combined(review_stats: RunStats, audit_stats: RunStats, wall_s: float) -> RunStats:
    return review_stats.plus(audit_stats).model_copy(update={"wall_s": wall_s})


# --- stage 3: integrity ------------------------------------------------------------


async def _audit(
    session: Session,
    snapshot: Snapshot,
    private: bool,
    settings: LLMSettings,
    mode: str,
    spent: RunStats,
    cache: LLMCache | None,
    cancel: asyncio.Event | None,
) -> AuditResult:
    from ..llm.source import LLMAuditSource, audit_result  # the detection modes load only when a review uses them

    if settings.budget_usd is not None:  # the audit spends what the review has left
        settings = settings.model_copy(update={"budget_usd": max(0.0, settings.budget_usd - spent.cost_usd)})
    source = LLMAuditSource(settings, mode, cache=cache)
    return await audit_result(session, source, snapshots=[snapshot], private=private, cancel=cancel)


def integrity_report(findings: list[Finding], mode: str, failed_units: list[str] | None = None) -> str:
    """Table 26's report built from findings: severity-ordered, anchored, hints left out."""
    failures = "".join(f"\n> Not checked: {failure}" for failure in failed_units or [])
    shown = sorted((f for f in findings if f.severity is not Severity.HINT), key=severity_order)
    source = "deterministic checks" if mode == NO_DETECTION_MODE else f"deterministic checks and the {mode} detection mode"
    if not shown:
        return f"# Integrity Report\n\nNo integrity-related or consistency issues were found by the {source}.\n{failures}\n"
    hidden = len(findings) - len(shown)
    body = to_markdown(shown, title="Integrity Report")
    note = f"Issues found by the {source}" + (f" ({hidden} style hint(s) left out)." if hidden else ".")
    heading, _, rest = body.partition("\n")
    return f"{heading}\n\n{note}\n{failures}\n{rest}"


# --- stage 4: motivation and novelty ------------------------------------------------


async def _novelty(project: Project, memory: str, search: ScholarlySearch | None, ask: Callable[..., Awaitable[str]]) -> NoveltyReport:
    works, note = await related_work(project, search)
    if not works:
        return NoveltyReport(
            markdown=f"# Innovation & Motivation Report\n\nNo related-work evidence: {note} "
            "The novelty of the contribution was not assessed against prior work.\n",
            note=note,
        )
    assessment = await ask("novelty", memory=memory, similar_works=similar_works_text(works))
    retrieved = "\n".join(f"- {_cite(w)}" for w in works)
    markdown = f"{assessment.strip()}\n\n## Retrieved related work ({works[0].source})\n\n{retrieved}\n"
    return NoveltyReport(markdown=markdown, related_works=works, evidence=True, note=note)


async def related_work(project: Project, search: ScholarlySearch | None) -> tuple[list[RelatedWork], str]:
    """Works the search returned for the paper's title, marked when the bibliography cites them."""
    if search is None:
        return [], "related-work search is disabled."
    title = paper_title(project)
    if not title:
        return [], "the manuscript has no title or abstract to search for."
    try:
        works = await search.search(title, RELATED_WORK_LIMIT)
    except ScholarlyUnavailable as error:
        return [], str(error)
    if not works:
        return [], f'{search.name} found no work related to "{title}".'
    cited = _bibliography_titles(project)
    marked = [w.model_copy(update={"cited_in_manuscript": _is_cited(w.title, cited)}) for w in works]
    return marked, f'{len(marked)} work(s) from {search.name} for "{title}".'


def _normal_title(title: str) -> str:
    return " ".join("".join(c for c in title.lower() if c.isalnum() or c.isspace()).split())


def _bibliography_titles(project: Project) -> list[str]:
    return [
        _normal_title(entry.fields.get("title", ""))
        for entries in project.index.bib_entries.values()
        for _, entry in entries
        if entry.fields.get("title")
    ]


def _is_cited(title: str, bibliography: list[str]) -> bool:
    normal = _normal_title(title)
    return any(fuzz.token_sort_ratio(normal, cited) >= _CITED_SIMILARITY for cited in bibliography)


def _cite(work: RelatedWork) -> str:
    details = ", ".join(str(part) for part in (work.venue, work.year) if part)
    authors = ", ".join(work.authors[:3]) + (" et al." if len(work.authors) > 3 else "")
    cited = "cited in the manuscript" if work.cited_in_manuscript else "not cited in the manuscript"
    link = f" <{work.url}>" if work.url else ""
    return f"{work.title}" + (f" ({details})" if details else "") + (f". {authors}" if authors else "") + f"; {cited}.{link}"


def similar_works_text(works: list[RelatedWork]) -> str:
    blocks = []
    for number, work in enumerate(works, start=1):
        abstract = work.abstract[:_ABSTRACT_CHARS] + (" [...]" if len(work.abstract) > _ABSTRACT_CHARS else "")
        blocks.append(f"[{number}] {_cite(work)}\nAbstract: {abstract or 'Not available.'}")
    return "\n\n".join(blocks)
