from auditex.analyzers.rules.arithmetic.level_changes import level_changes, same_share, stated_levels

_CHANGE = "Firstly, 72% of demand is met by cfe in the reference case, marking an 18% increase from 2025, indicating a cleaner grid."


def test_a_change_is_read_with_the_one_level_its_sentence_writes_and_the_words_naming_it():
    (change,) = level_changes(_CHANGE)
    assert (change.level.value, change.change.value, change.rise, change.noun) == (72, 18, True, "demand")
    assert change.subject == {"demand", "met", "cfe", "reference", "case"}
    (fall,) = level_changes("Under the policy, 25% of trips are made by car, a 15% reduction compared to the baseline.")
    assert (fall.level.value, fall.change.value, fall.rise, fall.noun) == (25, 15, False, "trips")


def test_a_change_whose_sentence_gives_another_number_or_no_share_level_is_not_read():
    assert level_changes("From 54% to 72% of demand, an 18% increase from 2025.") == ()  # the base is in the sentence
    assert level_changes("72% of demand is met, a 33% increase from the 54.2 TWh of 2025.") == ()
    assert level_changes("Accuracy reaches 72%, an 18% increase over the baseline.") == ()  # no share "of <noun>"
    assert level_changes("72% of demand is met, 18 percentage points more than in 2025.") == ()  # a change in points


def test_a_level_is_of_the_same_share_by_its_noun_and_every_word_naming_it():
    (change,) = level_changes(_CHANGE)
    (base,) = stated_levels("In the reference case, only 54% of demand is met with cfe.")
    assert (base.level.value, base.noun) == (54, "demand")
    assert same_share(change, base)
    (other,) = stated_levels("In the reference case, 30% of demand is met by imports.")
    assert not same_share(change, other)
    assert [level.level.value for level in stated_levels("We find 54% of demand is met. Then 60% of supply is stored.")] == [54, 60]
