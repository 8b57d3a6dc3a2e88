"""The codes of LLM findings: `LLM-<abbreviation>` for each PaperAudit error type (Table 9,
prompts/error_types.json) and `LLM-CRIT` for critical mode's problems.

They are not rules (no deterministic check stands behind them), but reports, `[rules]`,
suppression comments and `auditex rule CODE` use them like rule codes (analyzers/codes.py).
"""

from __future__ import annotations

from ..finding import Category
from .detection_prompts import error_type

CRITICAL_CODE = "LLM-CRIT"
CRITICAL_NAME = "Critical Problem"
CRITICAL_DEFINITION = (
    "One of the few most critical problems that would invalidate the paper's conclusions, "
    "as critical mode (`auditex audit --mode critical`) ranks them."
)


def code_for(category: Category) -> str:
    return f"LLM-{error_type(category).abbreviation}"
