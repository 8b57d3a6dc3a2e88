"""The JSON Schema of each answer, as the APIs enforce it (OpenAI strict `json_schema`, Anthropic tool input).

Strict mode wants every object closed (`additionalProperties: false`) with every property required, and an
object at the top: critical mode's list of problems is wrapped as `{"problems": [...]}`, which
`CriticalAnswer` accepts. The pydantic models in `schema` stay lenient, for servers that enforce nothing.

A whole-paper audit sends one schema with every call instead, `PAPER_SCHEMA`: each answer's list is one
field of it, the one the task asks for, the others null. Both providers cache the schema as the start
of the prompt (OpenAI puts it before the system message, Anthropic's tools come before the system
prompt), so a schema per stage would make every stage write the paper to the cache again.
"""

from __future__ import annotations

from typing import Any

from .detection_prompts import error_types
from .schema import Importance


def _object(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def _array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


_TEXT = {"type": "string"}
_SEVERITY = {"type": "string", "enum": [level.value for level in Importance]}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "type": [schema["type"], "null"]}


def _finding(**extra: Any) -> dict[str, Any]:
    return _object(
        type={"type": "string", "enum": [t.category.value for t in error_types()]},
        section_location=_TEXT,
        error_location=_TEXT,
        evidence=_array(_object(block_index={"type": ["integer", "null"]}, quote=_TEXT)),
        explanation=_TEXT,
        severity=_SEVERITY,
        confidence={"type": "number"},
        proposed_fix=_TEXT,
        **extra,
    )


_FINDINGS = _object(findings=_array(_finding()))
_MERGED = _object(findings=_array(_finding(merged_from=_array({"type": "integer"}))))
_TASKS = _object(tasks=_array(_object(task_id=_TEXT, focus_sections=_array(_TEXT), goal=_TEXT, risk_dimension=_TEXT, hints=_array(_TEXT))))
_PROBLEMS = _object(problems=_array(_object(Problem=_TEXT, Location=_TEXT, Explanation=_TEXT)))
_VERDICTS = _object(
    verdicts=_array(
        _object(
            number={"type": "integer"},
            resolving_quote=_TEXT,
            valid={"type": "boolean"},
            severity=_SEVERITY,
            settled_by_manuscript={"type": "boolean"},
            reason=_TEXT,
        )
    )
)
# Per unit kind: the schema's name and the schema; a kind that answers in plain text has none.
SCHEMAS: dict[str, tuple[str, dict[str, Any]]] = {
    "fast": ("findings", _FINDINGS),
    "section": ("findings", _FINDINGS),
    "specialist": ("findings", _FINDINGS),
    "merge": ("merged_findings", _MERGED),
    "planner": ("review_plan", _TASKS),
    "critical": ("critical_problems", _PROBLEMS),
    "verify": ("verdicts", _VERDICTS),
}
# Every answer of a whole-paper audit: its findings (merged_from null but in a merge), tasks, problems or verdicts.
PAPER_SCHEMA: tuple[str, dict[str, Any]] = (
    "answer",
    _object(
        findings=_nullable(_array(_finding(merged_from=_nullable(_array({"type": "integer"}))))),
        tasks=_nullable(_TASKS["properties"]["tasks"]),
        problems=_nullable(_PROBLEMS["properties"]["problems"]),
        verdicts=_nullable(_VERDICTS["properties"]["verdicts"]),
    ),
)
