"""The text report, as compilers and ruff print one: `file:line:col: severity CODE message`, then
a count per code, what was checked, and the summary line."""

from __future__ import annotations

from collections import Counter

from ..codes import code_names
from ..finding import Finding, Severity
from ..p_values import ResultRow
from ..policy import severity_order
from ..wording import counted
from .paths import Paths


def summary_line(findings: list[Finding]) -> str:
    if not findings:
        return "No findings."
    counts = Counter(f.severity for f in findings)
    parts = [f"{counts[s]} {s.value}{'s' if counts[s] != 1 and s is not Severity.INFORMATION else ''}" for s in Severity if counts[s]]
    return f"Found {counted(len(findings), 'finding')} ({', '.join(parts)})."


def to_text(findings: list[Finding], path: Paths | None = None) -> str:
    path = path or Paths(None)
    lines = [
        f"{path(f.file)}:{f.range.start.line + 1}:{f.range.start.character + 1}: {f.severity.value} {f.code} {f.message}" for f in findings
    ]
    lines.append(summary_line(findings))
    return "\n".join(lines) + "\n"


def text_report(
    findings: list[Finding], roots: list[str], path: Paths, hints: bool, fragments: list[str], notes: list[str], archive: str | None = None
) -> str:
    """The text report: most severe first, hints only when asked, a count per code, the root files checked
    (`fragments`: those that are no root file, checked alone; `archive`: the submission they came in),
    and `notes` on the run."""
    shown = sorted((f for f in findings if hints or f.severity is not Severity.HINT), key=severity_order)
    lines = to_text(shown, path).splitlines()[:-1]
    if shown:
        lines += ["", *rule_counts(shown)]
    checked = [path(root) + (" (a fragment no root file includes, checked on its own)" if root in fragments else "") for root in roots]
    within = f" in {archive}" if archive else ""
    lines += ["", f"Checked {', '.join(checked) or 'no root file'}{within}.", *notes]
    hidden = len(findings) - len(shown)
    note = f" {counted(hidden, 'hint')} not shown (--hints shows them)." if hidden else ""
    lines.append(summary_line(findings) + note)
    return "\n".join(lines) + "\n"


def rule_counts(findings: list[Finding]) -> list[str]:
    """One line per code and severity, most frequent first: count, code, severity, name. A code's findings
    may differ in severity (the verifier's verdict, a doubtful finding lowered): each severity is counted apart."""
    counts = Counter((f.code, f.severity) for f in findings)
    names = code_names()
    width = len(str(max(counts.values())))
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0][0], -item[0][1].rank))
    return [f"{count:>{width}}  {code:9} {severity.value:11} {names.get(code, '')}".rstrip() for (code, severity), count in ordered]


def statistics_table(rows: list[ResultRow], path: Paths) -> str:
    """Every test result read, as statcheck lists them: where, the test, reported p, recomputed p, verdict."""
    if not rows:
        return "No test result (t, F, r, z, χ², Q with its p-value) read.\n"
    table = [("where", "test", "reported", "computed", "verdict")]
    table += [
        (
            f"{path(row.file)}:{row.line + 1}",
            row.checked.reported.statistic,
            row.checked.reported.stated_p,
            row.checked.computed_text,
            row.verdict,
        )
        for row in rows
    ]
    widths = [max(len(cells[column]) for cells in table) for column in range(4)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=False)) + "  " + cells[4] for cells in table]
    flagged = sum(row.checked.verdict.flagged for row in rows)
    lines.append(f"{counted(len(rows), 'test result')} read, {flagged} flagged.")
    return "\n".join(lines) + "\n"
