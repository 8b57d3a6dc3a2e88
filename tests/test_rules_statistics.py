"""STAT rules: recomputed p-values, GRIM, CI vs p, breakdowns."""

import pytest
from helpers import document, rule_findings

# The rules' logic, apart from the measured-precision gate (tests of the gate: test_precision.py).
pytestmark = pytest.mark.usefixtures("every_class_measured_precise")


def reported(tmp_path, body):
    """The STAT findings on a Results section holding `body`."""
    return rule_findings(tmp_path, document("\\section{Results}\n" + body), "STAT")


@pytest.mark.parametrize(
    "body",
    [
        "The effect held, $t(28) = 2.20$, $p = .036$.",
        "$F(2, 45) = 3.1, p = 0.055$ overall.",
        "$\\chi^2(1) = 4.2$, $p = .04$ here.",
        "$\\chi^{2}(3, N=100) = 12.1$, $p = .007$ here.",
        "$r(48) = .32$, $p = .024$ here.",
        "$z = 1.96$, $p = .05$ here.",
        "$t(40) = -5.1$, $p < .001$ here.",
        "$t(40) = 5.1$, $p = 8.7 \\times 10^{-6}$ here.",
        "A one-tailed test gave $t(28) = 1.80$, $p = .041$.",
        "$t(28) = 2.20$, $d = 0.81$, $p = .036$.",
    ],
)
def test_consistent_statistics_pass(tmp_path, body):
    assert reported(tmp_path, body) == []


def test_inconsistent_p_is_a_warning(tmp_path):
    found = reported(tmp_path, "$r(48) = .32$, $p < .001$ and $t(40) = 5.1$, $p = 3.2 \\times 10^{-4}$.")
    assert [(f.code, f.severity.value) for f in found] == [("STAT001", "warning"), ("STAT001", "warning")]
    assert found[0].message == "r(48) = .32 gives p = .023 (two-tailed), but the text reports p < .001"


def test_reversed_significance_is_an_error(tmp_path):
    found = reported(tmp_path, "Typo: $t(28) = 2.20$, $p = .36$. Flip: $F(2, 45) = 1.10$, $p < .05$.")
    assert [(f.code, f.severity.value) for f in found] == [("STAT002", "error"), ("STAT002", "error")]
    assert "reverses its significance at .05" in found[1].message and "F(2, 45) = 1.10" in found[1].message


def test_grim(tmp_path):
    bad = reported(tmp_path, "Participants rated it on a 5-point scale ($M = 3.47$, $SD = 1.2$, $N = 20$).")
    assert [f.code for f in bad] == ["STAT003"] and "3.45 and 3.50" in bad[0].message
    assert reported(tmp_path, "Participants rated it on a 5-point scale ($M = 3.45$, $N = 20$).") == []
    # Not integer data: accuracy means can take any value.
    assert reported(tmp_path, "The mean accuracy was $M = 3.47$ over $N = 20$ runs.") == []


def test_confidence_interval_against_p(tmp_path):
    found = reported(tmp_path, "A difference of 0.3 (95\\% CI [0.1, 0.5], $p = .21$).")
    assert [f.code for f in found] == ["STAT004"]
    assert reported(tmp_path, "A difference (95\\% CI [-0.2, 0.5], p = .6). OR 1.4 (95\\% CI [1.1, 1.8], p = .01).") == []
    assert [f.code for f in reported(tmp_path, "An odds ratio of 1.2 (95\\% CI [0.8, 1.6], p = .01).")] == ["STAT004"]


def test_breakdown_percentages(tmp_path):
    found = reported(tmp_path, "Annotators were students, engineers and researchers (45\\%, 35\\% and 25\\%, respectively).")
    assert [f.code for f in found] == ["STAT005"] and "105%" in found[0].message
    assert reported(tmp_path, "The data were split into 50\\%, 30\\% and 20\\% for training.") == []
    assert reported(tmp_path, "Accuracy rose from 25\\% to 35\\% and 45\\% compared with the baseline.") == []


def severities(tmp_path, body):
    return [(f.code, f.severity.value) for f in reported(tmp_path, body)]


def test_evidence_sets_the_confidence_of_grim_and_breakdowns(tmp_path):
    assert severities(tmp_path, "Participants rated it on a 5-point scale ($M = 3.47$, $N = 20$).") == [("STAT003", "warning")]
    assert severities(tmp_path, "Participants rated the 6 items on a 5-point scale ($M = 3.47$, $N = 20$).") == [("STAT003", "information")]
    assert severities(tmp_path, "They were students, engineers and others (45\\%, 30\\% and 22\\%, respectively).") == [
        ("STAT005", "information")
    ]


def test_an_interval_with_a_negative_bound_is_not_a_ratio(tmp_path):
    # "or" is not an odds ratio, and a ratio's interval is positive: the null value is 0 in both.
    assert reported(tmp_path, "Children or adults differed ($d = 0.70$, 95\\% CI [0.38, 1.02], $p < .001$).") == []
    assert reported(tmp_path, "The odds did not move ($\\beta = -0.11$, 95\\% CI [-0.45, 0.23], $p = .517$).") == []


def test_an_interval_that_misses_the_ratio_before_it_is_another_statistics(tmp_path):
    body = "The odds were higher (OR = 1.891, $\\lambda$ = 2.293, 95\\% CI = [2.091, 2.622], p = .138).\n"
    assert [f for f in rule_findings(tmp_path, document(body), "STAT004")] == []
    # The ratio's own interval, excluding 1 with p > .05, is still reported.
    body = "The odds were higher (OR = 2.3, 95\\% CI = [2.091, 2.622], p = .138).\n"
    assert len(rule_findings(tmp_path / "own", document(body), "STAT004")) == 1
