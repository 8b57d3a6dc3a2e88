"""Severity set by measured precision: a cross-section finding warns only in an evidence class
that was measured precise on the triaged corpus.

The science rules (NUM, TAB, CNT, NOT and the statistics rules that compare two statements)
infer that two places of a paper speak of the same thing. Rules tuned on a sample of papers
do not generalise by themselves, so their severity is not the rule author's guess: every finding
carries an evidence class (`Finding.evidence_class`: its evidence's kind, else its confidence in
tenths), `benchmarks/rule_precision.py` measures each class on the corpus ledger
(tests/corpus_triage.toml) and writes `measured_precision.py`, and a class reaches warning only
when its measured precision is at least PRECISION_BAR with a 95% Wilson lower bound of at least
LOWER_BOUND_BAR. Everything else is information until its evidence is stronger. Markup rules
(REF, CIT, INC, …) check facts of the source and are measured but not gated.
"""

from __future__ import annotations

from dataclasses import dataclass

from .measured_precision import CLASSES, MEASURED_ON

# The codes whose warnings depend on a measured class. STAT001-003 recompute one reported
# result from its own statistic (statcheck's arithmetic): their severity follows the
# statistics policy (`auditex rule STAT001`), and their precision is shown, not gated.
GATED = ("NUM", "TAB", "CNT", "NOT", "STAT004", "STAT005")
PRECISION_BAR = 0.9
LOWER_BOUND_BAR = 0.75


@dataclass(frozen=True, slots=True)
class ClassPrecision:
    """One evidence class of one rule, as measured on the corpus."""

    code: str
    evidence: str
    findings: int
    genuine: int
    false: int
    lower_bound: float  # of the precision, 95% Wilson score interval

    @property
    def precision(self) -> float:
        return self.genuine / self.findings if self.findings else 0.0

    @property
    def warns(self) -> bool:
        return self.findings > 0 and self.precision >= PRECISION_BAR and self.lower_bound >= LOWER_BOUND_BAR


def is_gated(code: str) -> bool:
    return code.startswith(GATED)


def measured(code: str) -> list[ClassPrecision]:
    """The measured classes of `code`, most findings first."""
    found = [ClassPrecision(c, evidence, *counts) for (c, evidence), counts in CLASSES.items() if c == code]
    return sorted(found, key=lambda item: (-item.findings, item.evidence))


def reaches_warning(code: str, evidence: str) -> bool:
    """Whether a rule finding of `code` in evidence class `evidence` may be a warning or an error."""
    if not is_gated(code):
        return True
    counts = CLASSES.get((code, evidence))
    return counts is not None and ClassPrecision(code, evidence, *counts).warns


def measured_on() -> str:
    """Where the table was measured: "commit 5da6867, 120 papers, 2026-11-25"."""
    return f"commit {MEASURED_ON['commit']}, {MEASURED_ON['papers']} papers, {MEASURED_ON['date']}"
