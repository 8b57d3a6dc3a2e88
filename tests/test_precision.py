"""Severity set by measured precision (analyzers/precision.py): the gate, its table, and how it is shown."""

import subprocess
import sys

import pytest
from scipy.stats import binomtest

from auditex.analyzers import measured_precision, precision
from auditex.analyzers.finding import Category, Evidence, Finding, Range, Severity
from auditex.analyzers.precision import ClassPrecision, Measured, reaches_warning, tier_of


def finding(code: str, kind: str | None = None, confidence: float = 0.95) -> Finding:
    return Finding(
        code=code,
        category=Category.EVIDENCE_MANIPULATION,
        severity=Severity.WARNING,
        message="m",
        file="main.tex",
        range=Range.of(0, 0, 0, 1),
        confidence=confidence,
        evidence=Evidence(kind=kind) if kind else None,
    )


@pytest.fixture
def table(monkeypatch):
    """A measured table of our own: one precise class, one imprecise, and the tiers they pool into."""
    monkeypatch.setattr(
        precision,
        "CLASSES",
        {
            ("NUM001", "strong: cited table, row and column named"): (20, 19, 1, 0.764, 1),
            ("NUM001", "moderate: cited table"): (10, 8, 2, 0.49, 1),
            ("TAB002", "confidence 0.9+"): (5, 5, 0, 0.566, 1),
        },
    )
    monkeypatch.setattr(precision, "TIERS", {"strong": (25, 24, 1, 0.805, 2), "moderate": (10, 8, 2, 0.49, 1)})
    monkeypatch.setattr(
        precision,
        "RULE_TIERS",
        {
            ("NUM001", "strong"): (20, 19, 1, 0.764, 1),
            ("NUM001", "moderate"): (10, 8, 2, 0.49, 1),
            ("TAB002", "strong"): (5, 5, 0, 0.566, 1),
        },
    )


def test_tiers_of_evidence_classes():
    assert tier_of("strong: cited table, row and column named") == "strong"
    assert tier_of("confidence 0.9+") == "strong" and tier_of("confidence 0.8+") == "moderate"
    assert tier_of("confidence 0.7+") == "weak" and tier_of("same subject") == "weak"


def test_a_class_warns_when_its_rule_measured_precise_and_its_tier_bounded(table):
    assert reaches_warning("NUM001", "strong: cited table, row and column named")
    # 80% precise: information, whatever its tier.
    assert not reaches_warning("NUM001", "moderate: cited table")
    # Five of five: precise, and its tier (strong, pooled) is bounded above 60%.
    assert reaches_warning("TAB002", "confidence 0.9+")
    # Never measured: information until the corpus shows it.
    assert not reaches_warning("NUM001", "weak: paragraph cites the table or headers are ordinary words")
    assert not reaches_warning("CNT001", "confidence 0.9+")


def test_markup_rules_are_measured_but_not_gated(table):
    assert reaches_warning("REF001", "confidence 0.9+") and reaches_warning("CIT002", "never seen")


def test_the_calibrated_severity_applies_the_gate(table):
    assert finding("NUM001", "strong: cited table, row and column named").calibrated_severity() is Severity.WARNING
    assert finding("NUM001", "moderate: cited table").calibrated_severity() is Severity.INFORMATION
    assert finding("NUM001", "strong: cited table, row and column named", confidence=0.6).calibrated_severity() is Severity.INFORMATION
    # Without explicit evidence a finding's class is its confidence in tenths.
    assert finding("TAB002", confidence=0.93).evidence_class == "confidence 0.9+"
    assert finding("TAB002", confidence=0.93).calibrated_severity() is Severity.WARNING


def test_unsure_findings_warn_only_by_their_own_class(monkeypatch):
    """A rule's findings below its confidence bar are measured apart: precise on two papers, they warn; precise on one
    paper, they inform, though their kind's class and its tier are bounded; the sure findings keep their kind's class."""
    unsure = "moderate: group sizes" + precision.UNSURE
    monkeypatch.setattr(
        precision,
        "CLASSES",
        {
            ("NUM008", "moderate: group sizes"): (12, 12, 0, 0.757, 3),
            ("NUM008", unsure): (3, 3, 0, 0.439, 2),
            ("NUM006", "moderate: counts"): (12, 12, 0, 0.757, 3),
            ("NUM006", "moderate: counts" + precision.UNSURE): (2, 2, 0, 0.342, 1),
        },
    )
    monkeypatch.setattr(precision, "TIERS", {"moderate": (24, 24, 0, 0.862, 6)})
    monkeypatch.setattr(
        precision, "RULE_TIERS", {("NUM008", "moderate"): (12, 12, 0, 0.757, 3), ("NUM006", "moderate"): (12, 12, 0, 0.757, 3)}
    )
    assert finding("NUM008", "moderate: group sizes", confidence=0.6).evidence_class == unsure
    assert finding("NUM008", "moderate: group sizes", confidence=0.6).calibrated_severity() is Severity.WARNING
    assert finding("NUM006", "moderate: counts", confidence=0.6).calibrated_severity() is Severity.INFORMATION
    assert finding("NUM006", "moderate: counts", confidence=0.8).calibrated_severity() is Severity.WARNING
    # Without explicit evidence too; and a markup rule's unsure finding never warns.
    assert finding("TAB002", confidence=0.65).evidence_class == "confidence 0.6+" + precision.UNSURE
    assert finding("REF001", confidence=0.65).calibrated_severity() is Severity.INFORMATION


def test_a_tier_below_the_bound_keeps_a_precise_class_informing(monkeypatch):
    monkeypatch.setattr(precision, "CLASSES", {("NOT003", "confidence 0.9+"): (3, 3, 0, 0.439, 1)})
    monkeypatch.setattr(precision, "TIERS", {"strong": (3, 3, 0, 0.439, 1)})
    monkeypatch.setattr(precision, "RULE_TIERS", {("NOT003", "strong"): (3, 3, 0, 0.439, 1)})
    item = ClassPrecision("NOT003", "confidence 0.9+", Measured(3, 3, 0, 0.439, 1))
    assert item.measured.precision == 1.0 and not item.warns


def test_a_precise_class_right_on_two_papers_warns_without_a_bound(monkeypatch):
    """Two of two on two papers bound nothing (a Wilson bound of 34%), but a class fitted to the paper it was built
    from fires on that paper only: one right on two has shown the generality a pool's bound stands in for."""
    classes = {
        ("NOT007", "moderate: a name written once"): (2, 2, 0, 0.342, 2),
        ("NOT007", "moderate: one paper twice"): (2, 2, 0, 0.342, 1),
        ("NOT007", "moderate: three papers, one false in four"): (4, 3, 1, 0.301, 3),
    }
    monkeypatch.setattr(precision, "CLASSES", classes)
    monkeypatch.setattr(precision, "TIERS", {"moderate": (120, 78, 42, 0.561, 30)})
    monkeypatch.setattr(precision, "RULE_TIERS", {("NOT007", "moderate"): (8, 7, 1, 0.529, 3)})
    assert reaches_warning("NOT007", "moderate: a name written once")
    assert not reaches_warning("NOT007", "moderate: one paper twice")
    assert not reaches_warning("NOT007", "moderate: three papers, one false in four")


def test_a_precise_class_warns_when_its_rules_classes_of_its_tier_are_right_on_two_papers(monkeypatch):
    """One of one bounds nothing; the rule's moderate classes, three of three on three papers, have shown the mechanism
    general. Neither the tier pooled over the rules nor an imprecise rule pool vouches that way."""
    classes = {
        ("STAT007", "moderate: word and p in one clause"): (1, 1, 0, 0.207, 1),
        ("STAT007", "moderate: bound above the level"): (1, 1, 0, 0.207, 1),
        ("STAT007", "moderate: synonym and p in one clause"): (1, 1, 0, 0.207, 1),
        ("NUM002", "tables: same row and column"): (1, 1, 0, 0.207, 1),
        ("TAB012", "weak: a series stays flat"): (1, 1, 0, 0.207, 1),
    }
    monkeypatch.setattr(precision, "CLASSES", classes)
    monkeypatch.setattr(precision, "TIERS", {"moderate": (120, 78, 42, 0.561, 30)})
    monkeypatch.setattr(
        precision,
        "RULE_TIERS",
        {("STAT007", "moderate"): (3, 3, 0, 0.439, 3), ("NUM002", "weak"): (5, 2, 3, 0.118, 2), ("TAB012", "weak"): (1, 1, 0, 0.207, 1)},
    )
    assert reaches_warning("STAT007", "moderate: word and p in one clause")
    assert not reaches_warning("NUM002", "tables: same row and column")
    # The weak tier over the rules: five of five on three papers, precise but unbounded, vouches for no class.
    monkeypatch.setattr(precision, "TIERS", {"weak": (5, 5, 0, 0.566, 3)})
    assert not reaches_warning("TAB012", "weak: a series stays flat")


def test_a_precise_class_borrows_the_bound_of_its_rules_classes_of_its_tier(monkeypatch):
    """Four of four alone bound nothing; with the rule's other moderate classes, eleven of twelve do, though the
    moderate tier pooled over the rules is mostly false. A class below the bar gains nothing from its pool."""
    classes = {
        ("DRF001", "moderate: draft note"): (5, 5, 0, 0.566, 1),
        ("DRF001", "moderate: placeholder number"): (4, 4, 0, 0.51, 1),
        ("DRF001", "moderate: unfilled cell"): (3, 2, 1, 0.208, 1),
        ("DRF001", "weak: XXX"): (1, 1, 0, 0.207, 1),
    }
    monkeypatch.setattr(precision, "CLASSES", classes)
    monkeypatch.setattr(precision, "TIERS", {"moderate": (120, 78, 42, 0.561, 30), "weak": (72, 19, 53, 0.176, 10)})
    monkeypatch.setattr(precision, "RULE_TIERS", {("DRF001", "moderate"): (12, 11, 1, 0.646, 1), ("DRF001", "weak"): (1, 1, 0, 0.207, 1)})
    assert reaches_warning("DRF001", "moderate: placeholder number") and reaches_warning("DRF001", "moderate: draft note")
    assert not reaches_warning("DRF001", "moderate: unfilled cell")
    assert not reaches_warning("DRF001", "weak: XXX")
    # The same counts with the rule's moderate classes at 10 of 12 (83%): no pool is both precise and bounded.
    monkeypatch.setattr(precision, "RULE_TIERS", {("DRF001", "moderate"): (12, 10, 2, 0.552, 1)})
    assert not reaches_warning("DRF001", "moderate: placeholder number")


def test_the_stored_table_is_what_its_counts_say():
    """Each stored bound is the 95% Wilson bound of its counts, and the tiers pool the gated rules' classes."""
    for counts in (*measured_precision.CLASSES.values(), *measured_precision.TIERS.values()):
        findings, genuine, false, bound, papers = counts
        assert findings == genuine + false > 0 and papers <= genuine and (papers > 0) == (genuine > 0)
        assert bound == pytest.approx(binomtest(genuine, findings).proportion_ci(method="wilson").low, abs=1e-3)
    # A kind's class counts its unsure findings too, so the pools leave the unsure classes out.
    kinds = {key: counts for key, counts in measured_precision.CLASSES.items() if not precision.is_unsure(key[1])}
    for (code, evidence), (findings, genuine, false, _, _) in measured_precision.CLASSES.items():
        if precision.is_unsure(evidence):
            kind = kinds[(code, evidence.removesuffix(precision.UNSURE))]
            assert findings <= kind[0] and genuine <= kind[1] and false <= kind[2]
    pooled: dict[str, list[int]] = {}
    for (code, evidence), (_, genuine, false, _, _) in kinds.items():
        if precision.is_gated(code):
            tier = pooled.setdefault(tier_of(evidence), [0, 0])
            tier[0] += genuine
            tier[1] += false
    assert pooled == {tier: [genuine, false] for tier, (_, genuine, false, _, _) in measured_precision.TIERS.items()}
    by_rule: dict[tuple[str, str], list[int]] = {}
    for (code, evidence), (_, genuine, false, _, _) in kinds.items():
        if precision.is_gated(code):
            pool = by_rule.setdefault((code, tier_of(evidence)), [0, 0])
            pool[0] += genuine
            pool[1] += false
    assert by_rule == {key: [genuine, false] for key, (_, genuine, false, _, _) in measured_precision.RULE_TIERS.items()}
    for counts in measured_precision.RULE_TIERS.values():
        findings, genuine, _, bound, _ = counts
        assert bound == pytest.approx(binomtest(genuine, findings).proportion_ci(method="wilson").low, abs=1e-3)


def test_auditex_rule_shows_the_measured_precision():
    shown = subprocess.run([sys.executable, "-m", "auditex.cli.main", "rule", "NUM001"], capture_output=True, text=True, check=True).stdout
    assert "## Measured precision" in shown and f"commit {measured_precision.MEASURED_ON['commit']}" in shown
    for (code, evidence), (findings, genuine, _, _, _) in measured_precision.CLASSES.items():
        if code == "NUM001":
            assert f"| {evidence} | {findings} | {genuine} |" in shown
    # The pools a NUM001 class may borrow its bound from: the rule's own classes of each tier.
    for (code, tier), (findings, genuine, _, _, _) in measured_precision.RULE_TIERS.items():
        if code == "NUM001":
            assert f"{tier} {genuine}/{findings}" in shown.split("this rule's classes of its tier")[1].split("or the tier over")[0]
