"""The corpus triage ledger: every warning-or-above finding on ../shared/corpus, with a reader's verdict.

`tests/corpus_triage.toml` lists each finding once, by paper and fingerprint (which survives edits
elsewhere in the paper), with its verdict ("genuine" or "false") and a one-line reason.
tests/test_corpus.py fails on a serious finding the ledger does not list and on a listed one that
disappeared; benchmarks/corpus_triage.py prints the counts per paper and drafts entries to paste.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from auditex.analyzers.finding import Finding, Severity

LEDGER = Path(__file__).with_name("corpus_triage.toml")
VERDICTS = ("genuine", "false")
# What the ledger must hold: a reader looks at every finding a user would be warned about.
SERIOUS = (Severity.ERROR, Severity.WARNING)
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

    @property
    def key(self) -> tuple[str, str]:
        return (self.paper, self.fingerprint)


def load_ledger(path: Path = LEDGER) -> dict[tuple[str, str], Entry]:
    """The ledger by (paper, fingerprint); a malformed entry is an error, not a silent skip."""
    entries: dict[tuple[str, str], Entry] = {}
    for raw in tomllib.loads(path.read_text(encoding="utf-8")).get("finding", []):
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


def serious(findings: Iterable[Finding]) -> list[Finding]:
    return [finding for finding in findings if finding.severity in SERIOUS]


def draft(paper: str, finding: Finding) -> str:
    """A ledger entry to paste for an untriaged finding; the reader fills in verdict and reason."""
    line = finding.range.start.line + 1
    return "\n".join(
        (
            "[[finding]]",
            f"paper = {json.dumps(paper)}",
            f"code = {json.dumps(finding.code)}",
            f"file = {json.dumps(finding.file)}  # line {line}",
            f"fingerprint = {json.dumps(finding.fingerprint)}",
            f"message = {json.dumps(finding.message, ensure_ascii=False)}",
            'verdict = "?"',
            'reason = ""',
            "",
        )
    )
