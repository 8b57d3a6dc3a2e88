"""The codes of LLM findings: `LLM-<abbreviation>` for each PaperAudit error type (Table 9,
prompts/error_types.json) and `LLM-CRIT` for critical mode's problems.

They are not rules (no deterministic check stands behind them), but reports, `[rules]`,
suppression comments and `auditex rule CODE` use them like rule codes (analyzers/codes.py).
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
    defined_in: str  # the repository file that defines it

    @property
    def doc(self) -> str:
        """What `auditex rule CODE` explains below its title, in the sections a rule's docstring has."""
        return f"""## What it does
{self.definition}

## Severity
From the model's confidence, per `[llm.severity]` in `.auditex.toml`: warning at 0.8 and above,
information at 0.5, hint below; rhetoric bias is capped at information. A finding whose quote is
not in the paper is dropped.

## Options
Like rule codes: `[rules] ignore = ["{self.code}"]`, `--ignore {self.code}`, `[rules] severity`,
and `% auditex: ignore[{self.code}]` on the line or the line above."""


def code_for(category: Category) -> str:
    return f"LLM-{error_type(category).abbreviation}"


def llm_codes() -> dict[str, LLMCode]:
    codes = {
        code_for(t.category): LLMCode(code_for(t.category), t.name, t.category, t.definition, "prompts/error_types.json")
        for t in error_types()
    }
    codes[CRITICAL_CODE] = LLMCode(
        CRITICAL_CODE,
        "Critical Problem",
        None,
        "One of the few most critical problems that would invalidate the paper's conclusions, "
        "as critical mode (`auditex audit --mode critical`) ranks them.",
        "analyzers/llm/codes.py",
    )
    return codes
