"""The JSON contract: `auditex check --format json` prints it, `auditex batch` keeps one per submission."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..finding import Finding

if TYPE_CHECKING:
    from ..llm.audit import AuditResult

# 2: `statistics` rows count lines from 0, as findings do, and carry df1, df2 and value.
JSON_VERSION = 2


def json_contract(findings: list[Finding], root: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON report as data."""
    payload = {"version": JSON_VERSION, "root": root, "findings": [f.contract() for f in findings]}
    if extra:
        payload.update(extra)
    return payload


def to_json(findings: list[Finding], root: str, extra: dict[str, Any] | None = None) -> str:
    return json.dumps(json_contract(findings, root, extra), indent=2, ensure_ascii=False) + "\n"


def run_summary(results: list[AuditResult], failure: str | None) -> dict[str, Any]:
    """An LLM audit's account, the contract's `run`: what it cost and what did not work."""
    return {
        "llm_failed": failure,
        "stats": [result.stats.model_dump() for result in results],
        "failed_units": [{"unit": f.unit, "label": f.label, "message": f.message} for r in results for f in r.failed_units],
        "unanchored": sum(r.unanchored for r in results),
        "unsupported": sum(len(r.unsupported) for r in results),
        "rejected_by_verifier": sum(r.verification.rejected for r in results),
        "beyond_section_cap": sum(r.verification.over_cap for r in results),
        "unverified": sum(r.verification.unverified for r in results),
        "rule_candidates_confirmed": sum(r.confirmed_rules for r in results),
        "rule_candidates_rejected": sum(len(r.rejected_rules) for r in results),
        "input_manipulated": any(r.manipulated for r in results),
        "cancelled": any(r.cancelled for r in results),
    }
