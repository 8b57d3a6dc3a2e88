"""What the LLM must answer, validated with pydantic (PaperAudit's unified schema).

Validation is lenient where models commonly drift without changing meaning (a
type written as its display name or abbreviation, confidence as a string or a
percentage, a missing optional field) and strict where it matters: an unknown
error type or a non-list `findings` is a schema error, which earns the model one
repair round-trip in `LLMClient.complete_json`.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, RootModel, field_validator

from ..finding import Category
from .detection_prompts import error_types


def _type_aliases() -> dict[str, Category]:
    aliases: dict[str, Category] = {}
    for t in error_types():
        for alias in (t.category.value, t.name, t.abbreviation, t.name.removesuffix(" Errors").removesuffix(" Flaws")):
            aliases[_alias_key(alias)] = t.category
    return aliases


def _alias_key(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


def parse_category(value: Any) -> Category:
    if isinstance(value, Category):
        return value
    category = _type_aliases().get(_alias_key(str(value)))
    if category is None:
        allowed = ", ".join(t.category.value for t in error_types())
        raise ValueError(f"unknown error type {value!r}; use one of {allowed}")
    return category


def _confidence(value: Any) -> float:
    if value is None or value == "":
        return 0.5
    number = float(str(value).strip().rstrip("%"))
    if number > 1:  # "85" or "85%"
        number /= 100
    return min(1.0, max(0.0, number))


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Importance(str, Enum):
    """The verifier's severity of a confirmed problem."""

    MAJOR = "major"
    MODERATE = "moderate"
    MINOR = "minor"

    @property
    def rank(self) -> int:
        return {"major": 2, "moderate": 1, "minor": 0}[self.value]


def importance(value: Any) -> Importance:
    """A severity as models write it: "high" is major, an unknown word minor."""
    text = str(value).strip().lower()
    text = {"high": "major", "critical": "major", "medium": "moderate", "low": "minor"}.get(text, text)
    return Importance(text) if text in Importance._value2member_map_ else Importance.MINOR


class Evidence(_Lenient):
    block_index: int | None = None
    quote: str = ""
    note: str = ""

    @field_validator("block_index", mode="before")
    @classmethod
    def _index(cls, value: Any) -> int | None:
        try:
            return int(value)
        except (TypeError, ValueError):
            return None

    @field_validator("quote", "note", mode="before")
    @classmethod
    def _text(cls, value: Any) -> str:
        return "" if value is None else str(value)


class LLMFinding(_Lenient):
    type: Category
    section_location: str = ""
    error_location: str = ""
    evidence: list[Evidence] = Field(default_factory=list)
    explanation: str = ""
    severity: Importance = Importance.MODERATE  # the finder's own: ranks a unit's findings before the cap
    confidence: float = 0.5
    proposed_fix: str = ""

    @field_validator("type", mode="before")
    @classmethod
    def _type(cls, value: Any) -> Category:
        return parse_category(value)

    @field_validator("confidence", mode="before")
    @classmethod
    def _confidence(cls, value: Any) -> float:
        return _confidence(value)

    @field_validator("severity", mode="before")
    @classmethod
    def _severity(cls, value: Any) -> Any:
        return importance(value)

    @field_validator("section_location", "error_location", "explanation", "proposed_fix", mode="before")
    @classmethod
    def _text(cls, value: Any) -> str:
        if isinstance(value, list):
            return "; ".join(map(str, value))
        return "" if value is None else str(value)

    def quotes(self) -> list[Evidence]:
        """The error location first, then the evidence: the spans to anchor, best first."""
        primary = [Evidence(quote=self.error_location, block_index=self.evidence[0].block_index if self.evidence else None)]
        return [e for e in primary + self.evidence if e.quote.strip()]


class FindingsAnswer(_Lenient):
    findings: list[LLMFinding]


class Task(_Lenient):
    task_id: str = ""
    focus_sections: list[str] = Field(default_factory=list)
    goal: str
    risk_dimension: Category | None = None
    hints: list[str] = Field(default_factory=list)

    @field_validator("risk_dimension", mode="before")
    @classmethod
    def _risk(cls, value: Any) -> Category | None:
        try:
            return parse_category(value)
        except ValueError:
            return None  # a task with an odd risk label is still a useful task


class PlanAnswer(_Lenient):
    tasks: list[Task] = Field(min_length=1)


class MergedFinding(LLMFinding):
    merged_from: list[int] = Field(default_factory=list)


class MergeAnswer(_Lenient):
    findings: list[MergedFinding]


class CriticalProblem(_Lenient):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    problem: str = Field(alias="Problem")
    location: str = Field(default="", alias="Location")
    explanation: str = Field(default="", alias="Explanation")


class CriticalAnswer(RootModel[list[CriticalProblem]]):
    """App. A asks for `list[Entry]`; an object wrapping the list is accepted too."""

    @classmethod
    def model_validate(cls, obj: Any, *args: Any, **kwargs: Any) -> CriticalAnswer:
        if isinstance(obj, dict):
            lists = [value for value in obj.values() if isinstance(value, list)]
            # The whole-paper schema's field for it, else the one list the object holds.
            obj = obj["problems"] if isinstance(obj.get("problems"), list) else lists[0] if len(lists) == 1 else [obj]
        return super().model_validate(obj, *args, **kwargs)


class Verdict(_Lenient):
    """Zhang & Abernethy's true-positive judgement of one candidate, with a severity."""

    number: int
    resolving_quote: str = ""  # the passage that would resolve the candidate, quoted before judging
    valid: bool
    severity: Importance = Importance.MINOR
    settled_by_manuscript: bool = True
    reason: str = ""
    # Filled in by the verification stage, never by a model: the panel's models that confirmed it,
    # and whether another model of the panel rejected it.
    judges: str = Field(default="", exclude=True)
    split: bool = Field(default=False, exclude=True)

    @field_validator("valid", "settled_by_manuscript", mode="before")
    @classmethod
    def _yes_no(cls, value: Any) -> Any:
        if isinstance(value, str):
            return value.strip().lower().startswith(("true", "yes", "valid", "y"))
        return value

    @field_validator("severity", mode="before")
    @classmethod
    def _severity(cls, value: Any) -> Any:
        return importance(value)

    @field_validator("reason", "resolving_quote", mode="before")
    @classmethod
    def _text(cls, value: Any) -> str:
        return "" if value is None else str(value)


class VerifyAnswer(_Lenient):
    verdicts: list[Verdict]
