"""The Finding: what every detector (rule or LLM) reports, and the JSON contract.

Findings cross every boundary (CLI JSON, SARIF, LSP, LLM merge), so they are
pydantic models. Ranges are 0-based LSP positions (line, UTF-16 character).
"""

from __future__ import annotations

import hashlib
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


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

# A rule finding whose confidence is below this informs and never warns: a false warning costs
# more than a missed hint. Each rule's docs (## Confidence) say how its confidence is computed.
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


class Position(BaseModel):
    model_config = ConfigDict(frozen=True)
    line: int
    character: int


class Range(BaseModel):
    model_config = ConfigDict(frozen=True)
    start: Position
    end: Position

    @classmethod
    def of(cls, start_line: int, start_char: int, end_line: int, end_char: int) -> Range:
        return cls(start=Position(line=start_line, character=start_char), end=Position(line=end_line, character=end_char))


class Related(BaseModel):
    """The other side of a contradiction (or any supporting evidence)."""

    file: str
    range: Range
    message: str


class TextEdit(BaseModel):
    file: str
    range: Range
    new_text: str


class Fix(BaseModel):
    title: str
    edits: list[TextEdit]
    # Safe fixes keep meaning (e.g. a typo'd key to the only close label);
    # unsafe ones need the author's judgment. Never applied automatically.
    safe: bool = False


class Finding(BaseModel):
    code: str
    category: Category
    severity: Severity
    message: str
    file: str
    range: Range
    related: list[Related] = Field(default_factory=list)
    source: Source = Source.RULE
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    fingerprint: str = ""
    fixes: list[Fix] = Field(default_factory=list)
    # Not part of the contract's required keys but useful to every consumer.
    explanation: str | None = None
    anchored: bool = True
    section: str | None = None
    # Words that identify the finding independently of its position; the
    # engine folds them into the fingerprint so it survives edits elsewhere.
    identity: str = Field(default="", exclude=True)

    def calibrated_severity(self) -> Severity:
        """The severity the evidence supports: a rule unsure of a warning or error reports information."""
        if self.source is Source.RULE and self.confidence < CONFIDENT and self.severity.rank > Severity.INFORMATION.rank:
            return Severity.INFORMATION
        return self.severity

    def with_fingerprint(self) -> Finding:
        if self.fingerprint:
            return self
        basis = "\x1f".join((self.code, self.file, self.identity or self.message))
        digest = hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]
        return self.model_copy(update={"fingerprint": digest})

    def contract(self) -> dict[str, Any]:
        """The JSON shape other tools rely on (`auditex check --format json`)."""
        return self.model_dump(mode="json", exclude={"identity"}, exclude_none=True)
