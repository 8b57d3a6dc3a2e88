"""The Markdown report: `--format markdown`, the editor's "Show report", the review's appendix."""

from __future__ import annotations

from ..finding import Finding, Severity
from .text import summary_line


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
