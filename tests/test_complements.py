"""The names of complementary rates (analyzers/complements.py)."""

from __future__ import annotations

import pytest

from auditex.analyzers.complements import PAIRS, complement_of, measure_named, measures_in


@pytest.mark.parametrize(
    ("header", "name"),
    [
        ("Success Rate", "success rate"),
        ("Top-1 Err. (\\%)", "error rate"),
        ("Accuracy (\\%)", "accuracy"),
        ("Loan take-up", "take-up"),
        ("non-response rate", "non-response"),
        ("response rate", "response rate"),
        ("Attrition", "attrition"),
        ("TPR (\\%)", "sensitivity"),
        ("False positive rate", "false positive rate"),
    ],
)
def test_a_header_names_one_measure(header: str, name: str) -> None:
    measure = measure_named(header)
    assert measure is not None and measure.name == name


@pytest.mark.parametrize(
    "header",
    [
        "Error (eV) TDDFT",
        "Height Err. (m)",
        "Mean Absolute Error",
        "Retention time",
        "Dropout",
        "Sensitivity analysis",
        "Accuracy and error rate",
        "Method",
    ],
)
def test_other_errors_and_names_of_both_sides_name_no_measure(header: str) -> None:
    assert measure_named(header) is None


def test_every_measure_has_its_pair_as_complement() -> None:
    for first, second in PAIRS:
        assert complement_of(first) is second and complement_of(second) is first


def test_another_kind_of_error_is_a_name_of_no_measure() -> None:
    text = "the accuracy is high and the median relative error is 5.7%"
    assert [measure.name if measure else None for _, _, measure in measures_in(text)] == ["accuracy", None]
