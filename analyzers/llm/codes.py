"""The codes of LLM findings: `LLM-<abbreviation>` for each PaperAudit error type (Table 9,
prompts/error_types.json) and `LLM-CRIT` for critical mode's problems.

They are not rules (no deterministic check stands behind them), but reports, `[rules]`,
suppression comments and `auditex rule CODE` use them like rule codes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..finding import Category
from .detection_prompts import error_type, error_types

CRITICAL_CODE = "LLM-CRIT"


@dataclass(frozen=True)
class LLMCode:
    code: str
    name: str
    category: Category | None  # None: critical mode's problems carry the type the model gave
    definition: str


def code_for(category: Category) -> str:
    return f"LLM-{error_type(category).abbreviation}"


def llm_codes() -> dict[str, LLMCode]:
    codes = {code_for(t.category): LLMCode(code_for(t.category), t.name, t.category, t.definition) for t in error_types()}
    codes[CRITICAL_CODE] = LLMCode(
        CRITICAL_CODE,
        "Critical Problem",
        None,
        "One of the few most critical problems that would invalidate the paper's conclusions, "
        "as critical mode (`auditex audit --mode critical`) ranks them.",
    )
    return codes
