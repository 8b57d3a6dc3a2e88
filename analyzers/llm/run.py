"""`AuditRun`: the state of one LLM audit run, which the mode functions (`modes`) drive.

It makes the unit calls through the run's `LLMClient`s (the verifiers' may be other
vendors'), records failed units, and anchors the answers as candidates (dropping those that
quote nothing in the paper or repeat a deterministic finding). Candidates are shown only
once the verification stage (`verification`) confirmed them.

Paper first: when the paper fits every model's context window, every call of the run starts
with the same prefix, the instructions (`detect_paper.md`) and then the whole paper, so that
a provider serves it from its prompt cache; the call's own task follows (`detect_paper_<kind>.md`).
A paper too long for a window is audited with the memory design instead (`fallback`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel

from ...latex.manuscript import PlacedBlock, Section
from ...latex.project import Project
from ..finding import Finding
from ..policy import repeats, report_order
from .anchoring import Anchorer, FindingMapper, SeverityPolicy
from .client import LLMClient
from .detection_prompts import load
from .errors import BudgetExceeded, LLMError, MissingKey, Rejected, Unreachable
from .incremental import ReviewBasis
from .output_schema import PAPER_SCHEMA, SCHEMAS
from .provider import ChatRequest, Message
from .schema import LLMFinding
from .settings import LLMSettings
from .units import PaperData, Unit, manipulation_spans

log = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)
A = TypeVar("A")
ProgressCallback = Callable[[int, int, str], None]  # (units done, units known, what just finished)
FindingsCallback = Callable[[list[Finding]], None]  # every LLM finding so far (replace, do not append)

# What a call adds to the paper: its task, the candidates or known problems (tokens).
PER_CALL_TOKENS = 8_000
# The memory design's related passages: at most this share of a call's own blocks.
RELATED_SHARE = 1.0
MIN_RELATED_CHARS = 8_000
# Units whose answers are findings of their own: ranked and cut to `max_findings_per_unit`.
DETECTING = frozenset({"fast", "section", "specialist"})
# Errors that every unit would hit in turn: stop at the first instead.
_FATAL = (MissingKey, Rejected, Unreachable)
# The accounting stage of each unit kind (`RunStats.stages`).
STAGES = {
    "memory": "memory",
    "fast": "detect",
    "section": "detect",
    "critical": "detect",
    "planner": "plan",
    "specialist": "specialist",
    "verify": "verify",
    "merge": "merge",
}


@dataclass
class Candidate:
    """An anchored LLM finding waiting for the verifier; `rank` keeps critical mode's order."""

    finding: Finding
    answer: LLMFinding
    fallback: Section | None
    rank: int | None = None

    @property
    def place(self) -> tuple[str, int, int, str, str]:
        """Where it stands, then what it says."""
        start = self.finding.range.start
        return (self.finding.file, start.line, start.character, self.finding.message, self.finding.explanation or "")


@dataclass
class UnitFailure:
    unit: str
    label: str
    message: str


class AuditRun:
    """The state of one run, handed to the mode functions."""

    def __init__(
        self,
        project: Project,
        client: LLMClient,
        verifiers: list[LLMClient],
        deterministic: list[Finding],
        basis: ReviewBasis,
        policy: SeverityPolicy,
        refresh: bool,
        on_progress: ProgressCallback | None,
        on_findings: FindingsCallback | None,
    ) -> None:
        self.project = project
        self.client = client
        self.verifiers = verifiers
        self.deterministic = deterministic
        self.paper = PaperData(project, manipulation_spans(project, deterministic))
        self.fallback = self._fallback()
        self._prefix: tuple[str, str, str] | None = None
        self.basis = basis
        self.refresh = refresh
        self.mapper = FindingMapper(project, policy, Anchorer(project))
        self.failed: list[UnitFailure] = []
        self.candidates: list[Candidate] = []
        # The verification stage's items and the verdicts received so far, by id(item) (`verification`).
        self.verifying: list[Any] = []
        self.verdicts: dict[int, Any] = {}
        self.findings: dict[str, Finding] = {}
        self.unsupported: list[LLMFinding] = []
        self.repeated = 0
        self.units = 0
        self.done = 0
        # Calls announced per (model, prefix): a prefix is marked for the provider's cache only when reused.
        self._prefix_calls: Counter[tuple[str, str]] = Counter()
        # Paper first, the verification reads the detection's prefix: until it is planned, one call per verifier.
        self._verifying_ahead = {v.settings.model for v in verifiers} if self.whole_paper else set()
        self.budget_stop: str | None = None
        self.report_limit: int | None = None  # LLM findings the mode shows at most (critical: its k), below `max_findings`
        # Ranked candidates from several lists (critical mode over a paper's parts): the verifier's severity ranks first.
        self.severity_first = False
        self._on_progress = on_progress
        self._on_findings = on_findings

    @property
    def settings(self) -> LLMSettings:
        return self.client.settings

    @property
    def whole_paper(self) -> bool:
        return self.fallback is None

    def _fallback(self) -> str | None:
        """Why the paper cannot be in every call (the memory design is used instead), or None."""
        paper = len(self.paper.paper()) // 4
        for client in [self.client, *self.verifiers]:
            s = client.settings
            if paper + PER_CALL_TOKENS + s.output_budget > s.window:
                return (
                    f"the paper (about {paper:,} tokens) does not fit the context window of {s.model} ({s.window:,} tokens) "
                    "with a call's task and answer, so it was audited from a memory of its sections instead of whole"
                )
        return None

    def request(self, unit: Unit, **values: str) -> ChatRequest:
        """The unit's call: system prompt, then what the mode's calls share, then the unit's own text.
        Paper first, what they share is the paper (`prefix`); else the unit's own template's."""
        if self.whole_paper:
            system, shared, version = self.prefix()
            prompt = load(f"paper_{unit.kind}")
            user = prompt.render(**values)[2]
            version = f"{version}+{prompt.version}"
        else:
            prompt = load(unit.kind)
            system, shared, user = prompt.render(**values)
            version = prompt.version
        # Paper first, one schema for every call: the providers cache it ahead of the paper.
        schema = (PAPER_SCHEMA if self.whole_paper else SCHEMAS[unit.kind]) if unit.kind in SCHEMAS else None
        return ChatRequest(
            system=system,
            shared=shared,
            messages=[Message(role="user", content=user)],
            purpose=unit.label,
            stage=STAGES[unit.kind],
            prompt_version=version,
            output_schema=schema[1] if schema else None,
            schema_name=schema[0] if schema else "answer",
        )

    def prefix(self) -> tuple[str, str, str]:
        """(system, shared, version) of every whole-paper call: the instructions, then the paper."""
        if self._prefix is None:
            prompt = load("paper")
            system, shared, _ = prompt.render(paper=self.paper.paper())
            self._prefix = system, shared, prompt.version
        return self._prefix

    def related(self, blocks: list[PlacedBlock], context: str, queries: Sequence[str] = ()) -> str:
        """The memory design's related passages for a call reading `blocks` and `context` (chosen by the terms
        of `queries`, else of the blocks): at most `RELATED_SHARE` times the blocks' own size
        (`MIN_RELATED_CHARS` at least), within what the smallest context window leaves."""
        own = sum(self.paper.size(placed) for placed in blocks)
        budget = min(max(MIN_RELATED_CHARS, int(RELATED_SHARE * own)), self.window_chars() - own - len(context))
        return self.paper.related(blocks, budget, queries) if budget > 0 else ""

    def window_chars(self) -> int:
        """The smallest context window of the run's models, in characters (about four per token)."""
        return min(client.settings.window for client in [self.client, *self.verifiers]) * 4

    def allowed(self, unit: Unit) -> int:
        """How many findings a detecting call may return: what the report can keep of the sections it reviews
        (`max_findings_per_section` each, PaperAudit's "at most three per section", up to `max_findings`), never
        fewer than `max_findings_per_unit`. A fixed 5 for a whole paper lost most problems of a paper that has many."""
        settings = self.settings
        return max(settings.max_findings_per_unit, min(settings.max_findings_per_section * len(unit.sections), settings.max_findings))

    def top(self, unit: Unit, answers: list[LLMFinding]) -> list[LLMFinding]:
        """A detecting unit's findings, most severe (then most confident) first, at most `allowed(unit)`."""
        if unit.kind not in DETECTING:
            return answers
        ranked = sorted(answers, key=lambda a: (-a.severity.rank, -a.confidence))
        return ranked[: self.allowed(unit)]

    def plan(self, count: int, kind: str, clients: list[LLMClient] | None = None) -> None:
        """Announce `count` more units of `kind`, each asked of every one of `clients` (default: the run's
        model): for progress totals, and for `marks_prefix`."""
        for client in clients or [self.client]:
            self._prefix_calls[(client.settings.model, self._prefix_scope(kind))] += count
            if kind == "verify":
                self._verifying_ahead.discard(client.settings.model)
        self.units += count * len(clients or [self.client])
        self._progress("")

    def _prefix_scope(self, kind: str) -> str:
        """What a call's cacheable prefix is: paper first the paper, for every kind; else its kind's system prompt."""
        return "paper" if self.whole_paper else kind

    def marks_prefix(self, kind: str, client: LLMClient) -> bool:
        """Whether a call's prefix is worth a cache write (Anthropic bills it at 1.25 times input): only when
        another call of the run, by the same model, sends it too and reads it."""
        model = client.settings.model
        ahead = 1 if model in self._verifying_ahead else 0
        return self._prefix_calls[(model, self._prefix_scope(kind))] + ahead >= 2

    async def ask_json(self, unit: Unit, request: ChatRequest, model_cls: type[M], client: LLMClient | None = None) -> M | None:
        asked = client or self.client
        marked = request.model_copy(update={"cache_prefix": self.marks_prefix(unit.kind, asked)})
        return await self._ask(unit, asked.complete_json(marked, model_cls))

    async def ask_text(self, unit: Unit, request: ChatRequest) -> str | None:
        marked = request.model_copy(update={"cache_prefix": self.marks_prefix(unit.kind, self.client)})
        response = await self._ask(unit, self.client.complete(marked))
        return None if response is None else response.text.strip()

    async def _ask(self, unit: Unit, call: Awaitable[A]) -> A | None:
        """The answer, or None after recording the unit as failed. Fatal errors propagate."""
        try:
            return await call
        except _FATAL:
            raise
        except BudgetExceeded as err:
            self.budget_stop = self.budget_stop or str(err)
            self.failed.append(UnitFailure(unit.id, unit.label, str(err)))
        except LLMError as err:
            log.debug("%s failed: %s", unit.label, err)  # recorded: the run's report says it once
            self.failed.append(UnitFailure(unit.id, unit.label, str(err)))
        finally:
            self.done += 1
            self._progress(unit.label)
        return None

    async def propose(
        self, answers: list[LLMFinding], fallback: Section | None, code: str | None = None, ranks: list[int] | None = None
    ) -> list[Candidate]:
        """Anchor the answers as candidates for the verifier, with their `ranks` in the report when the model's
        order decides it (critical mode). Returns the new candidates.

        Anchoring a long paper's quotes takes a while: it runs in a worker thread so calls in
        flight are not starved (and timed out) meanwhile.
        """
        located_all = await asyncio.to_thread(lambda: [self.mapper.locate(answer, fallback, code) for answer in answers])
        added = []
        for position, (answer, located) in enumerate(zip(answers, located_all)):
            if located.finding is None:
                self.unsupported.append(answer)
                continue
            if any(repeats(located.finding, known) for known in self.deterministic):
                self.repeated += 1
                continue
            added.append(Candidate(located.finding, answer, fallback, ranks[position] if ranks is not None else None))
        self.candidates.extend(added)
        # In the order of the paper, whichever call answered first: the same answers make the same verification
        # requests (the answer cache hits them) and the same report.
        self.candidates.sort(key=lambda candidate: candidate.place)
        return added

    def publish(self, findings: list[Finding]) -> None:
        """Show the verified findings; tell the listener."""
        for finding in findings:
            previous = self.findings.get(finding.fingerprint)
            if previous is None or previous.severity.rank < finding.severity.rank:
                self.findings[finding.fingerprint] = finding
        if self._on_findings is not None:
            self._on_findings(self.llm_findings())

    def llm_findings(self) -> list[Finding]:
        return sorted(self.findings.values(), key=report_order)

    def _progress(self, label: str) -> None:
        if self._on_progress is not None:
            self._on_progress(self.done, self.units, label)
