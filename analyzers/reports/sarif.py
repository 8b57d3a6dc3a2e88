"""SARIF 2.1.0, for GitHub code scanning and other SARIF viewers."""

from __future__ import annotations

import json
from typing import Any

from ... import __version__
from ..codes import PROJECT_URI, code_table
from ..finding import Finding, Range, Severity
from .paths import Paths

_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "note", Severity.HINT: "note"}


def to_sarif(findings: list[Finding], path: Paths | None = None, notes: list[str] | None = None) -> str:
    """SARIF 2.1.0; `notes` on the run (references left unchecked) become the invocation's notifications."""
    path = path or Paths(None)
    used = sorted({f.code for f in findings})
    index = {code: position for position, code in enumerate(used)}
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "auditex", "version": __version__, "informationUri": PROJECT_URI, "rules": _rules(used)}},
        "originalUriBaseIds": {"%SRCROOT%": {"uri": path.base_uri()}},
        "columnKind": "utf16CodeUnits",
        "results": [_result(f, index[f.code], path) for f in findings],
    }
    if notes:
        notifications = [{"level": "warning", "message": {"text": note}} for note in notes]
        run["invocations"] = [{"executionSuccessful": True, "toolExecutionNotifications": notifications}]
    sarif = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run]}
    return json.dumps(sarif, indent=2, ensure_ascii=False) + "\n"


def _rules(codes: list[str]) -> list[dict[str, Any]]:
    """The reportingDescriptor of each code, from the code table."""
    rules = []
    for code in codes:
        entry = code_table().get(code)
        name, summary, doc = (entry.name, entry.summary, entry.doc) if entry else (code, code, code)
        rules.append(
            {
                "id": code,
                "name": name,
                "shortDescription": {"text": summary},
                "fullDescription": {"text": doc},
                "help": {"text": doc, "markdown": doc},
                "properties": {"category": entry.rule.category.value if entry and entry.rule else "llm"},
            }
        )
    return rules


def _result(f: Finding, rule_index: int, path: Paths) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": rule_index,
        "level": _SARIF_LEVEL[f.severity],
        "message": {"text": f.message},
        "locations": [_location(path(f.file), f.range)],
        "partialFingerprints": {"auditex/v1": f.fingerprint},
        "properties": {"category": f.category.value, "source": f.source.value, "confidence": f.confidence},
    }
    if f.related:
        result["relatedLocations"] = [
            {**_location(path(r.file), r.range), "id": position, "message": {"text": r.message}} for position, r in enumerate(f.related)
        ]
    if f.fixes:
        result["fixes"] = [
            {
                "description": {"text": fix.title},
                "artifactChanges": [
                    {
                        "artifactLocation": {"uri": path(edit.file), "uriBaseId": "%SRCROOT%"},
                        "replacements": [{"deletedRegion": _region(edit.range), "insertedContent": {"text": edit.new_text}}],
                    }
                    for edit in fix.edits
                ],
            }
            for fix in f.fixes
        ]
    return result


def _region(range_: Range) -> dict[str, Any]:
    return {
        "startLine": range_.start.line + 1,
        "startColumn": range_.start.character + 1,
        "endLine": range_.end.line + 1,
        "endColumn": range_.end.character + 1,
    }


def _location(file: str, range_: Range) -> dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": {"uri": file, "uriBaseId": "%SRCROOT%"}, "region": _region(range_)}}
