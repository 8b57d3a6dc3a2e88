"""The Finding: what every detector (rule or LLM) reports, and the JSON contract.

Findings cross every boundary (CLI JSON, SARIF, LSP, LLM merge), so pydantic reads and writes
them there (analyzers/plain_model.py); a check builds them as plain dataclasses. Ranges are 0-based LSP positions (line, UTF-16 character).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import field
from enum import Enum
from typing import Any

from ..latex.record import record
from .plain_model import PlainModel
from .precision import UNSURE, measured_imprecise, reaches_warning


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFORMATION = "information"
    HINT = "hint"

    @property
    def rank(self) -> int:
        """Higher is more severe: error 3 … hint 0."""
        return _SEVERITY_RANK[self]


_SEVERITY_RANK = {Severity.ERROR: 3, Severity.WARNING: 2, Severity.INFORMATION: 1, Severity.HINT: 0}

# A rule finding whose confidence is below this informs and never warns (a false warning costs more than a
# missed hint), unless its own class of such findings was measured precise (precision.py). Each rule's docs
# (## Confidence) say how its confidence is computed.
CONFIDENT = 0.7


class Category(str, Enum):
    """The eight PaperAudit error types (Table 9), plus markup integrity."""

    EVIDENCE_MANIPULATION = "evidence_manipulation"
    METHOD_LOGIC = "method_logic"
    EXPERIMENT_PROTOCOL = "experiment_protocol"
    CLAIM_DISTORTION = "claim_distortion"
    CONTEXT_MISALIGNMENT = "context_misalignment"
    REFERENCE_FABRICATION = "reference_fabrication"
    ETHICAL_OMISSION = "ethical_omission"
    RHETORIC_BIAS = "rhetoric_bias"
    LATEX = "latex"


class Source(str, Enum):
    RULE = "rule"
    LLM = "llm"


@record
class Position(PlainModel):
    line: int
    character: int


@record
class Range(PlainModel):
    start: Position
    end: Position

    @classmethod
    def of(cls, start_line: int, start_char: int, end_line: int, end_char: int) -> Range:
        return cls(start=Position(line=start_line, character=start_char), end=Position(line=end_line, character=end_char))


@record
class Related(PlainModel):
    """The other side of a contradiction (or any supporting evidence)."""

    file: str
    range: Range
    message: str


@record
class TextEdit(PlainModel):
    file: str
    range: Range
    new_text: str


@record
class Fix(PlainModel):
    title: str
    edits: list[TextEdit]
    # Safe fixes keep meaning (e.g. a typo'd key to the only close label);
    # unsafe ones need the author's judgment. Never applied automatically.
    safe: bool = False


@record
class Statement(PlainModel):
    """One side of a comparison: where it is, the words quoted, and what its number is."""

    file: str
    range: Range
    quote: str
    # What it measures (a table's row and column; the entity and metric the sentence names)
    # and the role of its number (latex/numbers.py Role: result, count, interval level, …).
    subject: str = ""
    role: str = ""


@record
class Evidence(PlainModel):
    """What a cross-section finding rests on, so that a reader or an LLM verifier can confirm or
    reject it without re-running the rule: both sides quoted, what each measures, and why the rule
    compared them. `kind` is the evidence class the rule's precision is measured by
    (analyzers/precision.py): only classes measured precise on the corpus reach warning."""

    kind: str
    statements: list[Statement] = field(default_factory=list)
    reason: str = ""


@record
class Finding(PlainModel):
    code: str
    category: Category
    severity: Severity
    message: str
    file: str
    range: Range
    related: list[Related] = field(default_factory=list)
    source: Source = Source.RULE
    confidence: float = 1.0
    fingerprint: str = ""
    fixes: list[Fix] = field(default_factory=list)
    # Not part of the contract's required keys but useful to every consumer.
    explanation: str | None = None
    anchored: bool = True
    section: str | None = None
    # A cross-section rule's candidate evidence (None for rules that check one place).
    evidence: Evidence | None = None
    # An LLM verifier confirmed this rule finding (`auditex audit`): its severity is the verifier's.
    verified: bool = False
    # Words that identify the finding independently of its position; the
    # engine folds them into the fingerprint so it survives edits elsewhere.
    identity: str = ""
    never_dumped = frozenset({"identity"})

    def __post_init__(self) -> None:
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"a finding's confidence is between 0 and 1, not {self.confidence}")

    def calibrated_severity(self) -> Severity:
        """The severity the evidence supports: a rule unsure of a warning or error reports information,
        and so does one whose evidence class was not measured precise on the corpus (precision.py);
        a class measured mostly false is a hint."""
        calibrated = self.source is Source.RULE and not self.verified
        if calibrated and self.severity.rank >= Severity.INFORMATION.rank and measured_imprecise(self.code, self.evidence_class):
            return Severity.HINT
        serious = calibrated and self.severity.rank > Severity.INFORMATION.rank
        if serious and not reaches_warning(self.code, self.evidence_class):
            return Severity.INFORMATION
        return self.severity

    @property
    def evidence_class(self) -> str:
        """The class this finding's precision is measured in: its evidence's kind, else its confidence in tenths; below
        CONFIDENT, marked unsure."""
        kind = self.evidence.kind if self.evidence is not None else f"confidence {min(9, int(round(self.confidence, 2) * 10)) / 10:.1f}+"
        return kind + UNSURE if self.confidence < CONFIDENT else kind

    def with_fingerprint(self) -> Finding:
        if self.fingerprint:
            return self
        basis = "\x1f".join((self.code, self.file, self.identity or self.message))
        digest = hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]
        return self.model_copy(update={"fingerprint": digest})

    @property
    def places(self) -> list[tuple[str, Range]]:
        """(file, range) of its range, then of each related range, each fix edit, each statement of its evidence: the order
        `placed` replaces them in."""
        return [
            (self.file, self.range),
            *((item.file, item.range) for item in self.related),
            *((edit.file, edit.range) for fix in self.fixes for edit in fix.edits),
            *((statement.file, statement.range) for statement in (self.evidence.statements if self.evidence else ())),
        ]

    def placed(self, place: Callable[[str, Range], Range]) -> Finding:
        """This finding with each of its ranges (its own, its related ones, its fix edits', its evidence's statements')
        replaced by `place(file, range)`: a finding moved with the text it is about."""
        evidence = self.evidence
        if evidence is not None:
            statements = [
                statement.model_copy(update={"range": place(statement.file, statement.range)}) for statement in evidence.statements
            ]
            evidence = evidence.model_copy(update={"statements": statements})
        return self.model_copy(
            update={
                "range": place(self.file, self.range),
                "related": [item.model_copy(update={"range": place(item.file, item.range)}) for item in self.related],
                "fixes": [
                    fix.model_copy(
                        update={"edits": [edit.model_copy(update={"range": place(edit.file, edit.range)}) for edit in fix.edits]}
                    )
                    for fix in self.fixes
                ],
                "evidence": evidence,
            }
        )

    def contract(self) -> dict[str, Any]:
        """The JSON shape other tools rely on (`auditex check --format json`)."""
        hidden = {"identity"} if self.verified else {"identity", "verified"}
        return self.model_dump(mode="json", exclude=hidden, exclude_none=True)
