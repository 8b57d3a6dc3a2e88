"""Report formats: text (compiler style), JSON contract, SARIF 2.1.0, Markdown."""

from __future__ import annotations

import json

from .. import __version__
from ..analyzers.finding import Finding, Severity
from ..analyzers.registry import Registry
from ..analyzers.report import summary_line, to_markdown  # noqa: F401  (re-exported for the CLI)

JSON_VERSION = 1
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "note", Severity.HINT: "note"}


def to_text(findings: list[Finding]) -> str:
    lines = [
        f"{f.file}:{f.range.start.line + 1}:{f.range.start.character + 1}: {f.severity.value} {f.code} {f.message}"
        for f in findings
    ]
    lines.append(summary_line(findings))
    return "\n".join(lines) + "\n"


def json_contract(findings: list[Finding], root: str, extra: dict | None = None) -> dict:
    """The JSON report as data: `auditex check --format json` prints it, `auditex batch` keeps one per line."""
    payload = {"version": JSON_VERSION, "root": root, "findings": [f.contract() for f in findings]}
    if extra:
        payload.update(extra)
    return payload


def to_json(findings: list[Finding], root: str, extra: dict | None = None) -> str:
    return json.dumps(json_contract(findings, root, extra), indent=2, ensure_ascii=False) + "\n"


def to_sarif(findings: list[Finding], registry: Registry) -> str:
    used = sorted({f.code for f in findings})
    rules = []
    for code in used:
        rule = registry.get(code)
        rules.append({
            "id": code,
            "name": rule.name if rule else code,
            "shortDescription": {"text": rule.summary if rule else code},
            "fullDescription": {"text": rule.doc if rule else code},
            "help": {"text": rule.doc if rule else code, "markdown": rule.doc if rule else code},
            "properties": {"category": rule.category.value if rule else "llm"},
        })
    index = {code: position for position, code in enumerate(used)}
    results = []
    for f in findings:
        result = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _SARIF_LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [_sarif_location(f.file, f.range)],
            "partialFingerprints": {"auditex/v1": f.fingerprint},
            "properties": {"category": f.category.value, "source": f.source.value, "confidence": f.confidence},
        }
        if f.related:
            result["relatedLocations"] = [
                {**_sarif_location(r.file, r.range), "id": position, "message": {"text": r.message}}
                for position, r in enumerate(f.related)
            ]
        if f.fixes:
            result["fixes"] = [{
                "description": {"text": fix.title},
                "artifactChanges": [{
                    "artifactLocation": {"uri": edit.file, "uriBaseId": "%SRCROOT%"},
                    "replacements": [{"deletedRegion": _sarif_region(edit.range), "insertedContent": {"text": edit.new_text}}],
                } for edit in fix.edits],
            } for fix in f.fixes]
        results.append(result)
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "auditex", "version": __version__, "informationUri": "https://github.com/auditex/auditex", "rules": rules}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": "file:///"}},
            "columnKind": "utf16CodeUnits",
            "results": results,
        }],
    }
    return json.dumps(sarif, indent=2, ensure_ascii=False) + "\n"


def _sarif_region(range_) -> dict:
    return {
        "startLine": range_.start.line + 1, "startColumn": range_.start.character + 1,
        "endLine": range_.end.line + 1, "endColumn": range_.end.character + 1,
    }


def _sarif_location(file: str, range_) -> dict:
    return {"physicalLocation": {"artifactLocation": {"uri": file, "uriBaseId": "%SRCROOT%"}, "region": _sarif_region(range_)}}
