"""Findings as LSP values: diagnostics and hover text.

Findings already carry 0-based LSP positions (line, UTF-16 character), so
conversion is a pure mapping; only file paths become URIs.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from ..analyzers.codes import code_table
from ..analyzers.finding import Finding, Range, Severity, Source

SOURCE = "auditex"
LLM_SOURCE = "auditex (LLM)"
_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFORMATION: lsp.DiagnosticSeverity.Information,
    Severity.HINT: lsp.DiagnosticSeverity.Hint,
}


def uri_of(folder: Path, file: str) -> str:
    return (folder / file).as_uri()


def lsp_range(range_: Range) -> lsp.Range:
    return lsp.Range(
        start=lsp.Position(line=range_.start.line, character=range_.start.character),
        end=lsp.Position(line=range_.end.line, character=range_.end.character),
    )


def diagnostic(finding: Finding, folder: Path) -> lsp.Diagnostic:
    entry = code_table().get(finding.code)
    related = [
        lsp.DiagnosticRelatedInformation(
            location=lsp.Location(uri=uri_of(folder, item.file), range=lsp_range(item.range)), message=item.message
        )
        for item in finding.related
    ]
    return lsp.Diagnostic(
        range=lsp_range(finding.range),
        message=finding.message,
        severity=_SEVERITY[finding.severity],
        code=finding.code,
        code_description=lsp.CodeDescription(href=entry.help_uri) if entry is not None else None,
        source=LLM_SOURCE if finding.source is Source.LLM else SOURCE,
        related_information=related or None,
        tags=[lsp.DiagnosticTag.Unnecessary] if entry is not None and entry.rule is not None and entry.rule.unnecessary else None,
        # Lets a client hand the finding back (code actions, dismiss) unambiguously.
        data={"fingerprint": finding.fingerprint, "source": finding.source.value},
    )


def contains(range_: Range, line: int, character: int) -> bool:
    start, end = range_.start, range_.end
    return (start.line, start.character) <= (line, character) <= (end.line, end.character)


def overlaps(range_: Range, other: lsp.Range) -> bool:
    return (range_.start.line, range_.start.character) <= (other.end.line, other.end.character) and (
        other.start.line,
        other.start.character,
    ) <= (range_.end.line, range_.end.character)


def hover_markdown(findings: list[Finding]) -> str:
    """The explanation, the evidence (related locations) and the code's summary of each finding;
    for an LLM finding, its type, confidence and proposed fix (a code action when it is verbatim)."""
    parts: list[str] = []
    for finding in findings:
        lines = [f"**{finding.code}** ({finding.severity.value}): {finding.message}"]
        if finding.source is Source.LLM:
            where = f", {finding.section}" if finding.section else ""
            unanchored = "; not pinned to a quote" if not finding.anchored else ""
            lines += [
                "",
                f"*LLM finding: {finding.category.value.replace('_', ' ')}, confidence {finding.confidence:.2f}{where}{unanchored}*",
            ]
        if finding.explanation:
            lines += ["", finding.explanation]
        if finding.related:
            lines += ["", "Evidence:"]
            lines += [f"- `{item.file}:{item.range.start.line + 1}`: {item.message}" for item in finding.related]
        if finding.source is Source.LLM and finding.fixes:
            lines += ["", *(f"Proposed fix: {fix.title} (code action “Apply proposed fix”)" for fix in finding.fixes)]
        entry = code_table().get(finding.code)
        if entry is not None:
            lines += ["", f"*{entry.name}*: {entry.summary}"]
        parts.append("\n".join(lines))
    return "\n\n---\n\n".join(parts)
