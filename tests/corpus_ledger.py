"""The corpus triage ledger: every finding a reader must judge on ../shared/corpus, with a verdict.

In scope: every warning or error of any rule, and every finding of the science families (NUM, TAB,
CNT, STAT, NOT) at information and above, whose precision sets their severity (analyzers/precision.py).
`tests/corpus_triage.toml` lists each finding once, by paper and fingerprint (which survives edits
elsewhere in the paper), with the severity it had when triaged, its verdict ("genuine" or "false")
and a one-line reason. tests/test_corpus.py fails on an in-scope finding the ledger does not list, on
a listed one that disappeared, and on a genuine warning that now reports less; benchmarks/corpus_triage.py
prints the counts per paper and per rule's evidence class, and drafts entries to paste.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from auditex.analyzers.finding import Finding, Severity
from auditex.analyzers.precision import measured_imprecise

LEDGER = Path(__file__).with_name("corpus_triage.toml")
VERDICTS = ("genuine", "false")
# What the ledger must hold: every finding a user would be warned about, and every science finding.
SERIOUS = (Severity.ERROR, Severity.WARNING)
SCIENCE = ("NUM", "TAB", "CNT", "STAT", "NOT")
# The bar: at most this many false warnings per corpus paper.
FALSE_PER_PAPER = 0.2


@dataclass(frozen=True)
class Entry:
    paper: str
    code: str
    file: str
    fingerprint: str
    message: str
    verdict: str
    reason: str
    severity: str  # when triaged: a genuine warning must not come back as information

    @property
    def kept_warning(self) -> bool:
        return self.verdict == "genuine" and Severity(self.severity) in SERIOUS

    @property
    def key(self) -> tuple[str, str]:
        return (self.paper, self.fingerprint)


def load_ledger(path: Path = LEDGER) -> dict[tuple[str, str], Entry]:
    """The ledger by (paper, fingerprint); a malformed entry is an error, not a silent skip."""
    entries: dict[tuple[str, str], Entry] = {}
    for raw in tomllib.loads(path.read_text(encoding="utf-8")).get("finding", []):
        if path != LEDGER:  # newly triaged entries: the ledger takes their severity from the run
            raw.setdefault("severity", "")
        entry = Entry(**raw)
        if entry.verdict not in VERDICTS:
            raise ValueError(
                f"{path.name}: {entry.paper} {entry.code} {entry.fingerprint}: verdict must be one of {VERDICTS}, not {entry.verdict!r}"
            )
        if not entry.reason.strip():
            raise ValueError(f"{path.name}: {entry.paper} {entry.code} {entry.fingerprint}: a verdict needs its reason")
        if entry.key in entries:
            raise ValueError(f"{path.name}: {entry.paper} {entry.fingerprint} is listed twice")
        entries[entry.key] = entry
    return entries


def in_scope(findings: Iterable[Finding]) -> list[Finding]:
    """The findings a reader triages: warnings and errors, and science findings at information and above,
    or hints only because their class was measured mostly false (they stay measured, so a class whose
    rule improves can climb back)."""
    return [finding for finding in findings if finding.severity in SERIOUS or (finding.code.startswith(SCIENCE) and _measured(finding))]


def _measured(finding: Finding) -> bool:
    if finding.severity is Severity.INFORMATION:
        return True
    return finding.severity is Severity.HINT and measured_imprecise(finding.code, finding.evidence_class)


def draft(paper: str, finding: Finding) -> str:
    """A ledger entry to paste for an untriaged finding; the reader fills in verdict and reason."""
    line = finding.range.start.line + 1
    return "\n".join(
        (
            "[[finding]]",
            f"paper = {json.dumps(paper)}",
            f"code = {json.dumps(finding.code)}",
            f"severity = {json.dumps(finding.severity.value)}",
            f"file = {json.dumps(finding.file)}  # line {line}",
            f"fingerprint = {json.dumps(finding.fingerprint)}",
            f"message = {json.dumps(finding.message, ensure_ascii=False)}",
            'verdict = "?"',
            'reason = ""',
            "",
        )
    )
