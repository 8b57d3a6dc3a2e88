"""The lists and sets a sentence says are evenly spaced (analyzers/rules/arithmetic/spacing.py), as ARI020 reads them."""

import pytest

from auditex.analyzers.rules.arithmetic.spacing import (
    Spacing,
    decade_grid,
    geometric_fits,
    progression_fits,
    ratio_fits,
    spaced_lists,
    stepped_sets,
)


def test_a_progression_fits_when_each_value_is_within_its_rounding():
    assert progression_fits([(0.995, 1.005), (1.325, 1.335), (1.665, 1.675), (1.995, 2.005)])  # 1, 1.33, 1.67, 2
    assert not progression_fits([(1.0, 1.0), (1.335, 1.345), (1.665, 1.675), (2.0, 2.0)])  # 1, 1.34, 1.67, 2: round ends
    assert geometric_fits([(0.99, 1.01), (9.9, 10.1), (99, 101)]) and not geometric_fits([(-1, 1), (1, 2), (3, 4)])
    assert ratio_fits([(32, 32), (64, 64), (128, 128)], 2.0) and ratio_fits([(8, 8), (4, 4), (2, 2)], 2.0)
    assert not ratio_fits([(32, 32), (64, 64), (120, 120)], 2.0)


@pytest.mark.parametrize(
    ("sentence", "spacing", "spaced"),
    [
        ("They are scored from 1 to 2 across an even distribution, yielding the scores 1, 1.34, 1.67, and 2.", Spacing.EVEN, False),
        ("They are scored from 1 to 2 across an even distribution, yielding the scores 1, 1.33, 1.67, and 2.", Spacing.EVEN, True),
        ("We sweep evenly spaced values 0.2, 0.4, 0.6, 0.9 and 1.0.", Spacing.EVEN, False),  # no tie rounds both ways
        ("The batch size is doubled at each stage: 32, 64, 128 and 265.", Spacing.DOUBLING, False),
        ("The rate is searched on a log scale over 1e-5, 5e-5, 1e-4 and 5e-4.", Spacing.LOG, True),  # mantissas per decade
        ("Thresholds are evenly spaced: 1, 10, 100 and 1000.", Spacing.EVEN, True),  # even on a log scale
        ("With evenly spaced anchors, the AP is 30.1, 32.4, 35.0 and 35.2.", Spacing.EVEN, False),  # near 1, no ratio is meant
    ],
)
def test_a_list_beside_its_claim_is_redone_from_its_ends(sentence, spacing, spaced):
    (found,) = spaced_lists(sentence)
    assert found.spacing is spacing and found.spaced() is spaced


def test_the_one_value_that_set_aside_leaves_the_others_spaced_is_the_slip():
    (found,) = spaced_lists("We sweep evenly spaced values 0.2, 0.4, 0.6, 0.9 and 1.0.")
    assert found.slip() == 3 and round(found.expected_at(3), 6) == 0.8
    (found,) = spaced_lists("They are scored from 1 to 2 across an even distribution, yielding the scores 1, 1.34, 1.67, and 2.")
    assert found.slip() == 1 and round(found.expected_at(1), 4) == 1.3333  # an inner value, from the ends, before an end
    (found,) = spaced_lists("With evenly spaced anchors, the AP is 30.1, 32.4, 35.0 and 35.2.")
    assert not found.spaced() and found.slip() is None  # no one value explains it: results, not the spaced values


@pytest.mark.parametrize(
    "sentence",
    [
        "Each trace was pressed with four pressures (1, 5, 15, 30 N) at 5 equidistant points along it.",  # the claim names the points
        "We use the thresholds 0.2, 0.4, 0.7 and 0.8.",  # no claim
        "We use evenly spaced thresholds 0.4, 0.2, 0.8 and 0.6.",  # not in order
        "We use evenly spaced thresholds 0.1, 0.5 and 1.0.",  # three values: a slip cannot be told from another list
        "Plotted on a log scale, the errors are 0.1, 0.5, 2.3 and 4.0.",  # how values are drawn, not chosen
        "Doubling the width, the accuracy is 70.1, 72.3, 75.0 and 75.2.",  # a doubled quantity, not a list doubling each step
    ],
)
def test_a_list_the_claim_does_not_speak_of_is_not_read(sentence):
    assert spaced_lists(sentence) == ()


def test_a_set_given_by_its_count_ends_and_step_is_recounted():
    (found,) = stepped_sets(
        "21 evenly-spaced increments of τ were used; the first increment was 0 s, the last was 4 s, and consecutive increments differed by 0.4 s."
    )
    assert found.counts() == (11, 10) and not found.recounts()
    (found,) = stepped_sets("We use 11 evenly spaced thresholds from 0 to 1 in steps of 0.1.")
    assert found.recounts()
    assert stepped_sets("We use 11 evenly spaced thresholds from 0 to 1 in steps of 0.3.") == ()  # the step does not divide the range


def test_decades_repeating_their_mantissas_are_a_log_grid():
    (found,) = spaced_lists("The rate is searched on a log scale over 1e-5, 5e-5, 1e-4 and 5e-4.")
    assert decade_grid(found.values)
    (found,) = spaced_lists("The rate is searched on a log scale over 1e-5, 5e-5, 1e-4 and 3e-4.")
    assert not decade_grid(found.values) and not found.spaced()
