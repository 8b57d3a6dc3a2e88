"""The arithmetic family's reading of prose: shares, stated changes and parts of a whole, with rounding."""

from auditex.analyzers.rules.arithmetic.model import parts_of_wholes, shares, stated_changes


def _shares(text):
    return [(share.part.value, share.whole.value, share.percent.value, share.recomputes()) for share in shares(text)]


def test_a_share_is_read_beside_its_count_and_base_in_either_order():
    assert _shares("9% of searches (33 out of 868) failed") == [(33, 868, 9, False)]
    assert _shares("33 out of 868 searches (3.8%) failed") == [(33, 868, 3.8, True)]
    assert _shares("a share of 25% (3/12)") == [(3, 12, 25, True)]


def test_thousands_separators_are_one_number():
    assert _shares("Of the 19,233 isoforms, 12,911 (67.2%) matched and 15,920 (82.8%) did") == [
        (12911, 19233, 67.2, False),
        (15920, 19233, 82.8, True),
    ]


def test_a_share_may_be_truncated_to_its_places():
    assert _shares("2 out of 3 (66%) agreed") == [(2, 3, 66, True)]


def test_a_base_named_earlier_stops_at_the_clause():
    # The percentage after the semicolon is of another base.
    assert _shares("Of the 200 runs, 50 (25%) failed; 30 (10%) of all 300 jobs were retried") == [(50, 200, 25, True)]


def test_a_change_is_relative_either_way_or_a_difference_in_points():
    def judged(text):
        return [stated.recomputes() for stated in stated_changes(text)]

    assert judged("an improvement of 21% (20.09 vs. 15.54)") == [False]
    assert judged("an improvement of 29% (20.09 vs. 15.54)") == [True]
    assert judged("accuracy is 5% higher (85.0% vs. 80.0%)") == [True]
    assert judged("the error drops by 20% (0.8 vs. 1.0)") == [True]


def test_parts_of_a_whole_follow_of_these_back_to_its_count():
    text = "A total of 1,000 implications are refuted. Of these implications, 700 need size 3, with the remaining 250 needing size 4."
    (split,) = parts_of_wholes(text)
    assert (split.whole.value, [part.value for part in split.parts], split.recomputes()) == (1000, [700, 250], False)


def test_settings_and_examples_are_no_parts():
    assert [
        split.recomputes() for split in parts_of_wholes("Of the 90 runs with at most 4 workers, 60 finished and the remaining 30 failed.")
    ] == [True]
    assert parts_of_wholes("Of the 500 papers, including 30 from 2019, the remaining 470 were recent.") == ()


def test_a_stated_factor_is_read_with_its_bound_and_both_sides():
    from auditex.analyzers.rules.arithmetic.ratios import ratio_claims

    (claim,) = ratio_claims("Minimap2 is over 40 times faster than GMAP and SpAln.")
    assert (claim.factor, claim.bound, claim.speed) == (40, True, True)
    assert "Minimap2" in claim.subject and "GMAP and SpAln" in claim.compared
    assert not claim.holds(39.5, 39.9) and claim.holds(39.5, 40.2)
    (about,) = ratio_claims("It is about 40 times faster than B.")
    assert about.holds(39.5, 39.9) and not about.holds(20, 25)
    assert ratio_claims("It is up to 100 times faster than B.") == ()


def test_a_later_factor_of_the_same_sentence_keeps_its_claimed_side():
    from auditex.analyzers.rules.arithmetic.ratios import ratio_claims

    first, second = ratio_claims("The CNN holds 13 times less than the pairs, while it is more than 18 times that of the bit table.")
    assert "pairs" in first.compared and second.subject == first.subject and "bit table" in second.compared
    (orders,) = ratio_claims("It needs an order of magnitude fewer conflicts than MiniSat.")
    assert orders.orders and orders.factor == 10 and not orders.holds(4.1, 4.3) and orders.holds(5.5, 6)
