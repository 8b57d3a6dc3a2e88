"""The counts a sentence states beside the grid that makes them up (analyzers/rules/arithmetic/grids.py)."""

from auditex.analyzers.rules.arithmetic.grids import stated_grids


def _read(sentence):
    return [(grid.count.value, grid.counts, grid.recounts()) for grid in stated_grids(sentence)]


def test_a_product_of_named_factors_is_the_count():
    assert _read("we generated 120 synthetic datasets (3 DAGs x 4 sample sizes x 10 CPTs)") == [(120, (120,), True)]
    assert _read("we generated 100 synthetic datasets (3 DAGs x 4 sample sizes x 10 CPTs)") == [(100, (120,), False)]
    assert _read("using 12 GPUs (6 nodes x 2 each)") == [(12, (12,), True)]


def test_a_size_is_no_product_of_named_factors():
    assert _read("a block of 64 filters (64 filters per 3×3 convolution)") == []


def test_a_range_counts_both_ends_or_one():
    assert _read("poses from -90^∘ to +90^∘ with step size 5.625^∘, a total of 33 poses") == [(33, (33, 32), True)]
    assert _read("There are 7 proportions, from 10% to 80% in steps of 10%") == [(7, (8, 7), True)]
    assert _read("There are 9 proportions, from 10% to 80% in steps of 10%") == [(9, (8, 7), False)]


def test_a_range_beside_other_numbers_is_not_read():
    assert _read("There are 4 runs and 12 seeds, from 1 to 12 in steps of 1") == []
    assert _read("There are 5 levels from 0 to 1 in steps of 0.3") == []  # the step does not divide the range


def test_a_total_is_the_count_per_unit_times_the_units():
    sentence = "There are {} total cases, resulting from 10 observations of 3,147 counties."
    assert _read(sentence.format("31,470")) == [(31470, (31470,), True)]
    assert _read(sentence.format("34,683")) == [(34683, (31470,), False)]
    assert _read("a total of 120 runs, 5 seeds for each of 24 settings") == [(120, (120,), True)]


def test_a_share_or_a_third_number_is_no_count_per_unit():
    assert _read("We kept 10 of the 3,147 counties, 500 cases in total.") == []
    assert _read("There are 34,683 total cases from 10 observations of 3,147 counties in 2 waves.") == []
