"""Source-level localisation: a finding's range overlaps the edited .tex range."""

import pytest

from auditex.analyzers.finding import Category, Finding, Range, Severity
from auditex.evaluation.localisation import (
    LocalisationResult,
    SourceRange,
    localisation_recall,
    overlaps,
)

EDIT = SourceRange.of("main.tex", 3, 5, 3, 10)


@pytest.mark.parametrize(
    "finding, hit",
    [
        (SourceRange.of("main.tex", 3, 9, 4, 0), True),  # shares character 9
        (SourceRange.of("main.tex", 3, 10, 3, 12), False),  # starts where the edit ends: half-open
        (SourceRange.of("main.tex", 3, 0, 3, 5), False),  # ends where the edit starts
        (SourceRange.of("main.tex", 2, 0, 5, 0), True),  # spans whole lines around it
        (SourceRange.of("./main.tex", 3, 6, 3, 7), True),  # same file, spelled differently
        (SourceRange.of("intro.tex", 3, 6, 3, 7), False),
    ],
)
def test_overlap(finding, hit):
    assert overlaps(EDIT, finding) is hit
    assert overlaps(finding, EDIT) is hit


def test_an_empty_edited_range_is_hit_by_touching_ranges():
    deletion = SourceRange.of("main.tex", 3, 10, 3, 10)
    assert overlaps(deletion, SourceRange.of("main.tex", 3, 5, 3, 10))
    assert not overlaps(deletion, SourceRange.of("main.tex", 3, 11, 3, 12))


def test_recall_by_hand_and_pooled():
    edits = [EDIT, SourceRange.of("main.tex", 20, 0, 20, 4)]
    findings = [SourceRange.of("main.tex", 3, 0, 3, 6)]
    # Paper 1: the first edit is overlapped, the second is not -> 1/2.
    first = localisation_recall(edits, findings)
    assert (first.located, first.total, first.recall) == (1, 2, 0.5)
    # Paper 2: 1/1. Pooled: 2/3.
    second = localisation_recall([EDIT], [EDIT])
    assert (first + second).recall == pytest.approx(2 / 3)
    assert localisation_recall([], findings) == LocalisationResult(0, 0)
    assert LocalisationResult(0, 0).recall == 0.0


def test_ranges_come_from_findings_and_are_validated():
    finding = Finding(
        code="NUM001",
        category=Category.EVIDENCE_MANIPULATION,
        severity=Severity.WARNING,
        message="m",
        file="main.tex",
        range=Range.of(3, 7, 3, 8),
    )
    assert overlaps(EDIT, SourceRange.from_finding(finding))
    with pytest.raises(ValueError, match="ends"):
        SourceRange.of("main.tex", 4, 0, 3, 0)
