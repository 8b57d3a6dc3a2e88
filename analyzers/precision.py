"""Severity set by measured precision: a cross-section finding warns only in an evidence class
that was measured precise on the triaged corpus.

The science rules (NUM, TAB, CNT, NOT and the statistics rules that compare two statements)
infer that two places of a paper speak of the same thing. Rules tuned on a sample of papers
do not generalise by themselves, so their severity is not the rule author's guess: every finding
carries an evidence class (`Finding.evidence_class`: its evidence's kind, "strong: cited table,
row and column named", else its confidence in tenths), `benchmarks/corpus_triage.py` measures each
class on the corpus ledger (tests/corpus_triage.toml) and writes `measured_precision.py`.

A finding reaches warning only when its rule's class was measured at PRECISION_BAR or more, and
one pool the class belongs to was measured at PRECISION_BAR or more with a 95% Wilson lower bound
of LOWER_BOUND_BAR or more. The pools, nearest first: the class itself; the rule's classes of the
same evidence tier (strong, moderate, weak: the class's first word; a confidence of 0.9 or more is
strong, 0.8 moderate); that tier pooled over every gated rule. A bound is borrowed from a pool
because one class rarely holds the findings a bound needs; the rule's own tier comes before the
rules' because precision is a property of a mechanism (the rule's moderate classes share it, one
rule's mostly false moderate class says nothing of another's), and the point estimate is always
the class's own. A precise class whose genuine findings lie on GENERAL_PAPERS papers or more warns without a
borrowed bound: the corpus showed that almost every class fires on one paper only (the error a rule was built
from), so a class right on two papers has shown the generality a pool's bound stands in for. So does a precise
class whose rule's classes of its tier, pooled, are precise and right on two papers: the mechanism has shown it
(never the tier pooled over the rules, which is many mechanisms). Everything else is
information until its evidence is stronger. Markup rules (REF, CIT, INC, …)
check facts of the source and are measured but not gated.

A finding its rule is unsure of (confidence below CONFIDENT) is measured twice: in its own class (its kind, marked
UNSURE), which alone decides whether it warns, without a pool's bound; and in its kind's class, which judges the
rule's sure findings of that kind (as before the split: they are at least as sure).
"""

from __future__ import annotations

from ..latex.record import record
from .measured_precision import CLASSES, MEASURED_ON, RULE_TIERS, TIERS

# The codes whose warnings depend on a measured class. STAT001-003 recompute one reported
# result from its own statistic (statcheck's arithmetic): their severity follows the
# statistics policy (`auditex rule STAT001`), and their precision is shown, not gated.
# "STAT01" gates STAT010 and every later statistics code: a new class reports at information until measured.
GATED = ("NUM", "TAB", "CNT", "NOT", "ARI", "STAT004", "STAT005", "STAT006", "STAT007", "STAT008", "STAT009", "STAT01", "DRF")
PRECISION_BAR = 0.9
# Six of six genuine clear it (a bound of 61%), five of five do not: with the point estimate at 90% or
# more, what the bound rules out is a lucky handful.
LOWER_BOUND_BAR = 0.6
# A class measured below this is mostly false: its findings are hints, below the information a
# reader is asked to look at (an LLM verifier that confirms one restores the rule's severity).
HINT_BAR = 0.5
# A precise class right on this many papers warns on its own: it is not fitted to the one paper it was built from.
GENERAL_PAPERS = 2
# What a finding below its rule's CONFIDENT (finding.py) adds to its evidence class, so the corpus measures a rule's
# unsure findings apart: they warn only by their own measurement (`ClassPrecision.warns_with`).
UNSURE = " (unsure)"


TIERS_BY_CONFIDENCE = {"confidence 0.9+": "strong", "confidence 0.8+": "moderate"}


@record(slots=True)
class Measured:
    """Findings of one rule's evidence class, or of one tier pooled over the gated rules, as triaged on the corpus."""

    findings: int
    genuine: int
    false: int
    lower_bound: float  # of the precision, 95% Wilson score interval
    papers: int  # distinct papers with a genuine finding

    @property
    def precision(self) -> float:
        return self.genuine / self.findings if self.findings else 0.0

    @property
    def bounded(self) -> bool:
        return self.precision >= PRECISION_BAR and self.lower_bound >= LOWER_BOUND_BAR


@record(slots=True)
class ClassPrecision:
    code: str
    evidence: str
    measured: Measured

    @property
    def tier(self) -> str:
        return tier_of(self.evidence)

    @property
    def warns(self) -> bool:
        rule_tier, tier = RULE_TIERS.get((self.code, self.tier)), TIERS.get(self.tier)
        return self.warns_with(Measured(*rule_tier) if rule_tier else None, Measured(*tier) if tier else None)

    def warns_with(self, rule_tier: Measured | None, tier: Measured | None) -> bool:
        """The gate with these pools; a class of findings their rule is unsure of borrows no pool's bound: surer
        findings vouch for none of them."""
        if is_unsure(self.evidence):
            return class_warns(self.measured, None, None)
        return class_warns(self.measured, rule_tier, tier)


def class_warns(measured: Measured, rule_tier: Measured | None, tier: Measured | None) -> bool:
    """The gate: the class is precise, and either it or its rule's classes of its tier precise and right on
    GENERAL_PAPERS papers, or it is in a bounded pool (itself, its rule's tier, its tier)."""
    if measured.findings == 0 or measured.precision < PRECISION_BAR:
        return False
    general = (pool for pool in (measured, rule_tier) if pool is not None and pool.precision >= PRECISION_BAR)
    return any(pool.papers >= GENERAL_PAPERS for pool in general) or any(
        pool is not None and pool.bounded for pool in (measured, rule_tier, tier)
    )


def tier_of(evidence: str) -> str:
    """ "strong: cited table, row and column named" → strong; "confidence 0.9+" → strong; "confidence 0.6+" → weak."""
    if evidence in TIERS_BY_CONFIDENCE:
        return TIERS_BY_CONFIDENCE[evidence]
    head, colon, _ = evidence.partition(":")
    return head if colon and head in ("strong", "moderate", "weak") else "weak"


def is_gated(code: str) -> bool:
    return code.startswith(GATED)


def measured(code: str) -> list[ClassPrecision]:
    """The measured classes of `code`, most findings first."""
    found = [ClassPrecision(c, evidence, Measured(*counts)) for (c, evidence), counts in CLASSES.items() if c == code]
    return sorted(found, key=lambda item: (-item.measured.findings, item.evidence))


def measured_tiers() -> dict[str, Measured]:
    return {tier: Measured(*counts) for tier, counts in TIERS.items()}


def measured_rule_tiers() -> dict[tuple[str, str], Measured]:
    return {key: Measured(*counts) for key, counts in RULE_TIERS.items()}


def reaches_warning(code: str, evidence: str) -> bool:
    """Whether a rule finding of `code` in evidence class `evidence` may be a warning or an error: one its rule is
    unsure of, only in a gated rule's class of such findings measured precise by itself."""
    if not is_gated(code):
        return not is_unsure(evidence)
    counts = CLASSES.get((code, evidence))
    return counts is not None and ClassPrecision(code, evidence, Measured(*counts)).warns


def is_unsure(evidence: str) -> bool:
    return evidence.endswith(UNSURE)


def measured_imprecise(code: str, evidence: str) -> bool:
    """Whether the class of a gated rule was measured on the corpus and found mostly false."""
    counts = CLASSES.get((code, evidence)) if is_gated(code) else None
    return counts is not None and Measured(*counts).precision < HINT_BAR


def measured_on() -> str:
    """Where the table was measured: "commit 5da6867, 120 papers, 2026-11-25"."""
    return f"commit {MEASURED_ON['commit']}, {MEASURED_ON['papers']} papers, {MEASURED_ON['date']}"
