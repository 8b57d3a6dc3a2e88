"""Human-readable reports of findings, shared by the CLI and the language server."""

from __future__ import annotations

from collections import Counter

from .finding import Finding, Severity


def counted(number: int, noun: str) -> str:
    """'1 key', '3 keys'."""
    return f"{number} {noun}{'s' if number != 1 else ''}"


def summary_line(findings: list[Finding]) -> str:
    if not findings:
        return "No findings."
    counts = Counter(f.severity for f in findings)
    parts = [f"{counts[s]} {s.value}{'s' if counts[s] != 1 and s is not Severity.INFORMATION else ''}" for s in Severity if counts[s]]
    return f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} ({', '.join(parts)})."


def to_markdown(findings: list[Finding], title: str = "auditex report", notes: list[str] | None = None) -> str:
    """The report as Markdown; `notes` are what a reader must know of the run (references left unchecked)."""
    lines = [f"# {title}", "", summary_line(findings), "", *(line for note in notes or [] for line in (f"> {_escape(note)}", ""))]
    by_severity = {s: [f for f in findings if f.severity is s] for s in Severity}
    for severity, group in by_severity.items():
        if not group:
            continue
        lines += [f"## {severity.value.capitalize()} ({len(group)})", ""]
        for f in group:
            location = f"`{f.file}:{f.range.start.line + 1}`"
            lines.append(f"- **{f.code}** {location}: {_escape(f.message)}")
            if f.explanation:
                lines.append(f"  - {_escape(f.explanation)}")
            for related in f.related:
                lines.append(f"  - see `{related.file}:{related.range.start.line + 1}`: {_escape(related.message)}")
        lines.append("")
    return "\n".join(lines)


def _escape(text: str) -> str:
    return text.replace("\n", " ").replace("|", "\\|")
