"""The arithmetic family's reading of prose (shares, stated changes, parts of a whole) and of a table's computed columns, with rounding."""

import re

from auditex.analyzers.rules.arithmetic.bases import based_percentages
from auditex.analyzers.rules.arithmetic.columns import (
    PROPORTION,
    SHARE,
    STEP,
    Outcome,
    Value,
    best,
    is_share_column,
    outcome,
    series_of,
    share_fits,
    step_fits,
)
from auditex.analyzers.rules.arithmetic.f_score import Measures, header_words, measure_lines
from auditex.analyzers.rules.arithmetic.model import breakdowns, parts_of_wholes, remaining_shares, shares, stated_changes, stated_factors
from auditex.analyzers.rules.arithmetic.pooled import pooled_rows
from auditex.analyzers.rules.tables.model import Grid
from auditex.latex.model import Cell, Table
from auditex.latex.tables import read_cell_number


def _shares(text):
    return [(share.part.value, share.whole.value, share.percent.value, share.recomputes()) for share in shares(text)]


def test_a_share_is_read_beside_its_count_and_base_in_either_order():
    assert _shares("9% of searches (33 out of 868) failed") == [(33, 868, 9, False)]
    assert _shares("33 out of 868 searches (3.8%) failed") == [(33, 868, 3.8, True)]
    assert _shares("a share of 25% (3/12)") == [(3, 12, 25, True)]
    assert _shares("33 out of 868 searches, 9% of all, failed") == [(33, 868, 9, False)]
    assert _shares("2 out of 36 tasks, or 6% of them") == [(2, 36, 6, True)]


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


def test_a_base_is_named_before_its_counts_in_more_ways():
    assert _shares("Our study was completed by 63 participants, of which 41 (65%) passed.") == [(41, 63, 65, True)]
    assert _shares("Of 466 selectors, our parser read 440 (90%) without error.") == [(440, 466, 90, False)]
    assert _shares("a subset of 325,800 records; of these, a weapon was found in 10,885 instances (about 3.3%).") == [
        (10885, 325800, 3.3, True)
    ]
    assert _shares("Of the 22033636 implications, 8178279 (or 37.12%) are true.") == [(8178279, 22033636, 37.12, True)]
    assert _shares("the majority of the fossils (23/36 = 60%) had strong evidence") == [(23, 36, 60, False)]


def test_a_share_with_its_own_words_is_no_share_of_the_base():
    assert _shares("Of the 63 participants, 41 participants (65% female) passed.") == []


def test_a_change_is_relative_either_way_or_a_difference_in_points():
    def judged(text):
        return [stated.recomputes() for stated in stated_changes(text)]

    assert judged("an improvement of 21% (20.09 vs. 15.54)") == [False]
    assert judged("an improvement of 29% (20.09 vs. 15.54)") == [True]
    assert judged("accuracy is 5% higher (85.0% vs. 80.0%)") == [True]
    assert judged("the error drops by 20% (0.8 vs. 1.0)") == [True]


def test_a_change_is_read_with_its_endpoints_in_its_own_clause():
    def read(text):
        return [(stated.first.value, stated.second.value, stated.change.value, stated.recomputes()) for stated in stated_changes(text)]

    assert read("reduced the comments from 21,587 to 4,137, a reduction of 80.83%") == [(21587, 4137, 80.83, True)]
    assert read("a 6% increase from €8.50 to €8.84") == [(8.5, 8.84, 6, False)]
    assert read("lowers the APR from 57% to 46%, and reduces default by 15%") == []  # another clause's change
    assert read("coverage grew from 2015 to 2020, an 18% increase") == []  # a period, not two values


def test_a_factor_is_the_ratio_of_the_pair_it_is_stated_with():
    def read(text):
        return [(stated.first.value, stated.second.value, stated.factor.value, stated.recomputes()) for stated in stated_factors(text)]

    assert read("energy drops from 107.9 J to 32.4 J, a 3.1× reduction") == [(107.9, 32.4, 3.1, False)]
    assert read("a 3.3x reduction (107.9 J vs. 32.4 J)") == [(107.9, 32.4, 3.3, True)]
    assert read("were respectively 0.169 and 0.076 (a 1.21x improvement)") == [(0.169, 0.076, 1.21, False)]
    assert read("A has an MSE of 0.005, while B has a 10x higher MSE of 0.05") == [(0.005, 0.05, 10, True)]
    assert read("a 0.5x speedup (10 s vs. 20 s)") == [(10, 20, 0.5, True)]  # a factor below one is the smaller over the larger


def test_a_bound_factor_must_hold_and_an_estimate_come_near():
    def judged(text):
        return [stated.recomputes() for stated in stated_factors(text)]

    assert judged("over 2x faster (10 s vs. 31 s)") == [True]
    assert judged("over 4x faster (10 s vs. 31 s)") == [False]
    assert judged("about 3.3x faster (10 s vs. 31 s)") == [True]
    assert judged("about 5x faster (10 s vs. 31 s)") == [False]


def test_products_spreads_ranges_and_factors_are_no_stated_factor():
    assert stated_factors("a 4 × 4 grid (3 vs. 5) is faster") == ()
    assert stated_factors("on average 5.01±2.54 times higher, ranging from 1.81 to 10.85 times that of B") == ()
    assert stated_factors("falls from 9.6 × 10^29 to 2.7 × 10^24, smaller by 5 times") == ()


def test_a_pair_of_settings_is_not_what_a_factor_divides():
    assert stated_factors("scaling from 8 to 64 GPUs, a 5.2x speedup") == ()
    assert stated_factors("with 2 and 4 GPUs, respectively, training is 1.8x faster") == ()


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
    assert orders.orders and orders.factor == 10 and not orders.holds(5.5, 6) and orders.holds(7.5, 8)


def test_an_order_of_magnitude_tolerates_what_authors_call_one_and_doubts_half_an_order():
    from auditex.analyzers.rules.arithmetic.ratios import factor_between, ratio_claims
    from auditex.latex.model import Cell

    def factor_of(claimed: float, compared: float):
        cells = [Cell(row=1, column=1, text=f"{v:g}", start=0, end=0, value=v, decimals=0) for v in (claimed, compared)]
        return factor_between(*cells, "Seconds", True)

    (plain,) = ratio_claims("It is an order of magnitude faster than B.")
    (almost,) = ratio_claims("It is almost two orders of magnitude faster than B.")
    assert plain.holds_for(factor_of(10, 75)) and not plain.holds_for(factor_of(73, 421))
    assert plain.arguable(factor_of(73, 421)) and not plain.arguable(factor_of(23, 45))  # 5.8 generous, 2 wrong
    assert almost.holds_for(factor_of(172, 9863)) and not almost.holds_for(factor_of(20, 600))
    (bound,) = ratio_claims("It is more than an order of magnitude faster than B.")
    assert not bound.holds_for(factor_of(10, 90)) and not bound.arguable(factor_of(10, 90))  # a bound is never generous


def test_a_stated_factor_knows_which_side_its_words_make_the_larger():
    from auditex.analyzers.rules.arithmetic.ratios import ratio_claims

    (of,) = ratio_claims("The CNN is more than 18 times that of the bit table.")
    (fewer,) = ratio_claims("ACDCL needs 10 times fewer conflicts than MiniSat.")
    (faster,) = ratio_claims("Minimap2 is 40 times faster than GMAP.")
    (reduction,) = ratio_claims("We observe a reduction of at least two orders of magnitude in the number of decisions compared to CBMC.")
    assert (of.larger, fewer.larger, faster.larger, reduction.larger) == (1, -1, 0, 0)  # "a reduction of": before the factor
    assert reduction.bound and reduction.factor == 100 and "CBMC" in reduction.compared


def test_a_stated_percentage_is_a_change_never_a_share():
    from auditex.analyzers.rules.arithmetic.ratios import ratio_claims

    (lower,) = ratio_claims("Lang achieves a 14% lower success than SemLang.")
    assert (lower.factor, lower.percent, lower.larger) == (14, 0, -1)
    (gain,) = ratio_claims("It brings a 12.5% improvement over the baseline.")
    assert gain.percent == 1 and "baseline" in gain.compared
    assert ratio_claims("About 40% of the episodes compared to 30% before end in success.") == ()
    assert ratio_claims("Its memory is 20% as large as that of B.") == ()


def test_a_factor_after_by_compares_with_the_side_before_it():
    from auditex.analyzers.rules.arithmetic.ratios import ratio_claims

    (outperforms,) = ratio_claims("Our model outperforms QDT by 55% on average.")
    assert (outperforms.factor, outperforms.percent, outperforms.compared) == (55, 0, "QDT")
    (times,) = ratio_claims("LLGP improves on COGP by a factor of 4 in runtime.")
    assert (times.factor, times.percent, "LLGP" in times.subject) == (4, None, True)
    runtime, nlpd = ratio_claims("LLGP improves upon COGP by an order of magnitude in runtime and almost two orders of magnitude in NLPD.")
    assert (runtime.factor, runtime.speed, "nlpd" in runtime.words) == (10, True, False)
    assert (nlpd.factor, nlpd.loose, nlpd.speed, "nlpd" in nlpd.words, "runtime" in nlpd.words) == (100, True, False, True, False)
    (points,) = ratio_claims("SemLang outperforms Lang by 11 points.")
    assert (points.factor, points.points) == (11, True)
    assert ratio_claims("SemLang outperforms Lang by 11 runs.") == ()


def test_a_percentage_may_be_either_relative_change_or_the_points_between_the_cells():
    from auditex.analyzers.rules.arithmetic.ratios import Factor, factor_between, ratio_claims
    from auditex.latex.model import Cell

    def factor_of(claimed: float, compared: float) -> Factor:
        cells = [Cell(row=1, column=1, text=f"{v:g}", start=0, end=0, value=v, decimals=0) for v in (claimed, compared)]
        found = factor_between(*cells, "Success", True)
        assert found is not None
        return found

    (lower,) = ratio_claims("Lang is 14% lower than SemLang.")
    assert not lower.holds_for(factor_of(27, 51))
    assert all(lower.holds_for(factor_of(*pair)) for pair in ((37, 51), (44, 51), (50, 58)))  # points, of the larger, of the smaller
    assert not lower.holds_for(factor_of(58, 50))  # the claimed side is the larger
    (points,) = ratio_claims("Lang is 14 points lower than SemLang.")
    assert points.holds_for(factor_of(37, 51)) and not points.holds_for(factor_of(44, 51))  # a difference, never a ratio


def test_a_symbol_is_read_with_the_one_number_its_paragraph_gives_it():
    from auditex.analyzers.rules.arithmetic.computations import computations

    (found,) = computations(r"It holds $\alpha=$1\% of the time and gains $\alpha*(2.2377-0.3329) = 0.02571$.")
    assert found.symbols == ("\\alpha",) and not found.recomputes and round(found.value, 5) == 0.01905
    assert computations(r"With $k = 2$ and then $k = 3$, $k \times 2 = 6$.") == ()  # set twice: unread
    assert computations(r"With $t = 2.1$, $t(9) = 2.1$.") == ()  # a Latin letter before "(" is a function
    assert all(found.recomputes for found in computations(r"$n = 2^{10} + 1 = 1025$ and $n \times 2 = 7$."))  # it sets no value
    # A subscripted symbol is one symbol; the last term of a computation sets no value ("$f/N_2 = 0.39$").
    (spacing,) = computations(r"With $N_2 = 8192$ points over $f_{sw} = 5000$ Hz, $\epsilon = f_{sw}/N_2 = 0.39$ Hz.")
    assert spacing.symbols == ("f_{sw}", "N_2") and round(spacing.value, 2) == 0.61 and not spacing.recomputes
    assert computations(r"With $k = 2, n = 5$, $k \times n = 10$.")[0].recomputes
    # A whole number stays exact, and a whole result of a division is a count, its floor or ceiling.
    assert computations(r"With $n = 3054$ and $D = 13$, $m = n/D = 234$ points.")[0].recomputes
    assert [found.recomputes for found in computations(r"$10/4 = 3$, $10/4 = 2$, $10/4 = 4$, $5 \times 1.5 = 8$")] == [
        True,
        True,
        False,
        True,
    ]


# A table's computed columns (columns.py): each printed value against its inputs, rounded or cut.


def _column_grid(rows: list[list[str]]) -> Grid:
    cells = [[_column_cell(r, c, text) for c, text in enumerate(row)] for r, row in enumerate(rows)]
    return Grid.of(Table(cells, 0, 0, "tabular", header_rows=1, rules=((1, "midrule"),)))


def _column_cell(row: int, column: int, text: str) -> Cell:
    number = re.match(r"^-?\d[\d,]*(?:\.\d+)?", text)
    if number is None:
        return Cell(row, column, text, 0, 0)
    written = number.group().replace(",", "")
    return Cell(row, column, text, 0, 0, value=float(written), decimals=len(written.partition(".")[2]))


def _value(text: str, exact: bool = False) -> Value:
    return Value(float(text), len(text.partition(".")[2]), Cell(0, 0, text, 0, 0), exact)


def test_a_printed_value_is_the_result_rounded_cut_or_neither_within_its_inputs_rounding():
    counts = (_value("107", exact=True), _value("163", exact=True))
    assert outcome(_value("65.6"), SHARE, *counts) is Outcome.EITHER  # 65.64: rounded and cut alike
    assert outcome(_value("66.7"), SHARE, _value("2", True), _value("3", True)) is Outcome.ROUNDED
    assert outcome(_value("65.5"), SHARE, *counts) is Outcome.MISSED
    assert outcome(_value("78.0"), SHARE, _value("57", True), _value("73", True)) is Outcome.TRUNCATED
    assert outcome(_value("71.5"), SHARE, _value("143", True), _value("200", True)) is Outcome.EITHER
    # 0.517 / 0.237 is 2.175 to 2.188 as the inputs round: 2.2, and 2.1 only cut.
    assert outcome(_value("2.1"), PROPORTION, _value("0.517"), _value("0.237")) is Outcome.TRUNCATED
    # A step between values of three places, printed with three: two units of slack, no more.
    assert outcome(_value("0.138"), STEP, _value("0.856"), _value("0.718")) is Outcome.EITHER
    assert outcome(_value("0.029"), STEP, _value("0.963"), _value("0.930")) is Outcome.MISSED
    # Inputs too coarse for the printed places bound nothing.
    assert outcome(_value("1.23"), PROPORTION, _value("5"), _value("4")) is None


def test_a_share_column_is_fitted_to_the_count_columns_it_divides():
    grid = _column_grid(
        [
            ["Project", "Files", "Long", "% long"],
            ["Ant", "73", "57", "78.1"],
            ["ArgoUML", "419", "255", "60.9"],
            ["Hibernate", "206", "90", "43.7"],
            ["JRuby", "163", "107", "65.5"],
        ]
    )
    columns = series_of(grid)
    target = next(series for series in columns if series.name == "% long")
    assert is_share_column(grid, target)
    fit = best(share_fits(target, columns))
    assert fit is not None and (fit.a.name, fit.b.name) == ("Long", "Files")
    assert fit.rows(Outcome.MISSED) == [4]
    assert not fit.truncates()


def test_an_in_cell_share_is_a_series_of_its_own_and_a_cut_column_truncates():
    grid = _column_grid(
        [
            ["Project", "Comments", "TD (%)"],
            ["Ant", "21,587", "131 (0.60)"],
            ["ArgoUML", "67,716", "1,413 (2.08)"],
            ["Columba", "33,895", "204 (0.60)"],
        ]
    )
    columns = series_of(grid)
    shares = next(series for series in columns if series.in_cell_share)
    assert [value.value for value in shares.values.values()] == [0.60, 2.08, 0.60]
    fit = best(share_fits(shares, columns))
    assert fit is not None and fit.truncates()


def test_a_step_column_follows_the_row_above_and_needs_a_header_that_names_a_change():
    rows = [["Iteration", "F1", "Δ"], ["1", "0.718", "-"], ["2", "0.856", "0.138"], ["3", "0.924", "0.068"], ["4", "0.912", "0.012"]]
    rows[4][2] = "-0.012"
    grid = _column_grid(rows)
    columns = series_of(grid)
    target = next(series for series in columns if series.name == "Δ")
    fit = best(step_fits(grid, target, columns))
    assert fit is not None and fit.formula is STEP and fit.held == 3
    plain = _column_grid([[*row[:2], row[2]] for row in [["Iteration", "F1", "Value"], *rows[1:]]])
    assert step_fits(plain, next(series for series in series_of(plain) if series.name == "Value"), series_of(plain)) == []


def test_a_long_step_column_is_established_by_most_rows_even_with_a_run_of_wrong_ones():
    values = ["61.2", "64.0", "66.5", "68.1", "69.0", "69.4", "70.9", "71.0", "70.8"]
    steps = ["-", "2.8", "2.5", "1.6", "0.9", "0.4", "0.7", "1.2", "0.3"]  # the last three miss
    rows = [["Round", "Accuracy", "Gain"], *([str(n), v, d] for n, (v, d) in enumerate(zip(values, steps, strict=True), 1))]
    grid = _column_grid(rows)
    columns = series_of(grid)
    fit = best(step_fits(grid, next(series for series in columns if series.name == "Gain"), columns))
    assert fit is not None and fit.held == 5 and fit.rows(Outcome.MISSED) == [7, 8, 9]
    rows[6][2] = "1.3"  # four follow, four miss: no majority
    grid = _column_grid(rows)
    columns = series_of(grid)
    assert step_fits(grid, next(series for series in columns if series.name == "Gain"), columns) == []


def test_a_breakdown_in_parentheses_is_parts_of_the_same_kind_near_their_total():
    def read(text):
        return [(split.whole.value, [part.value for part in split.parts], split.recomputes()) for split in breakdowns(text)]

    assert read("951 participants (481 men, 470 women) took part") == [(951, [481, 470], True)]
    assert read("93.1% complete (83.2% single-copy, 6.7% duplicated)") == [(93.1, [83.2, 6.7], False)]
    assert read("6,907 records (6,217 training and 692 test)") == [(6907, [6217, 692], False)]
    # Per-item figures, a selection of the total, and parts of another kind are no partition.
    assert read("took 0.6s (25.0s for movies, 24.4s for persons)") == []
    assert read("120 papers (45 in NeurIPS, 30 in ICML)") == []
    assert read("120 papers (45 accepted, 30 rejected)") == []
    assert read("93.1% (91.0% images, 95.2% text)") == []
    assert read("951 participants (48% men, 52% women)") == []


def test_a_pooled_row_sums_the_group_sizes_and_pools_by_size():
    rows = [
        ["Split", "n", "Accuracy", "F1", "Recall"],
        ["Easy", "300", "90.0", "88.0", "91.0"],
        ["Hard", "100", "70.0", "60.0", "64.0"],
        ["Overall", "400", "85.0", "78.0", "84.3"],
    ]
    (pooled,) = pooled_rows(_column_grid(rows))
    assert pooled.size_column == 1 and pooled.pools_by_size()
    accuracy, f1, _ = pooled.cells
    assert accuracy.matches_weighted() and not accuracy.matches_mean()
    assert not f1.matches_any() and round(f1.weighted, 2) == 81.0
    # A size that is not the groups' sum pools something else.
    rows[3][1] = "500"
    assert pooled_rows(_column_grid(rows)) == []


def test_a_computation_of_written_numbers_is_redone_within_the_rounding_of_its_result_and_inputs():
    from auditex.analyzers.rules.arithmetic.computations import computations

    def read(source):
        return [(found.side, found.written_text, found.recomputes) for found in computations(source)]

    assert read(r"$\frac{700}{40} = 18.5$ and $\dfrac{1}{3} = 0.33$") == [
        (r"\frac{700}{40}", "18.5", False),
        (r"\dfrac{1}{3}", "0.33", True),
    ]
    # 0.38 and 2.1 may be rounded: 0.375 × 2.05 to 0.385 × 2.15 allows 0.77 to 0.83.
    assert read(r"$0.38 \times 2.1 = 0.82$") == [(r"0.38 \times 2.1", "0.82", True)]
    # One-digit settings are exact: 0.01 is no rounding of 0.015.
    assert read(r"$0.01 \times 2.2377 = 0.02571$") == [(r"0.01 \times 2.2377", "0.02571", False)]
    assert read(r"$x + 1 = 3$, $22/7 \approx 3.14$, $(1, 2) = 3$, $-3 = -3$, $\sqrt[3]{8} = 2$, $\log 8 = 3$") == []
    assert read(r"\[ y = 3 + 4 = 8 = z \]") == [("3 + 4", "8", False)]
    # A display environment is read line by line, its markup and comments aside.
    align = "\\begin{align}\n m &= 2 + 2 \\nonumber \\\\\n &= 2 \\times 3 = 7. % not 6\n\\end{align}"
    assert [(found.side, found.written_text) for found in computations(align, display=True)] == [(r"2 \times 3", "7")]


def test_a_computation_applies_its_functions_and_is_read_every_way_its_writing_leaves_open():
    from auditex.analyzers.rules.arithmetic.computations import computations

    def read(source):
        return [(found.expression, found.written_text, found.recomputes) for found in computations(source)]

    # Functions: the logarithm in whichever base gives the result, the one a subscript fixes in that base alone.
    assert read(r"$\exp(-0.69)=0.50$, $\sqrt{2} = 1.41$, $\log(1000) = 3$, $\log_2(8) = 3$, $2\ln\left(4\right) = 2.77$") == [
        ("exp(-0.69)", "0.50", True),
        ("sqrt(2)", "1.41", True),
        ("lg(1000)", "3", True),
        ("lb(8)", "3", True),
        ("2*ln(4 )", "2.77", True),
    ]
    assert read(r"$\log_{10}(8) = 3$") == [("lg(8)", "3", False)]
    # A symbol the paragraph sets, inside a function: no base gives 13.35 (e: -13.45, 10: -13.42, 2: -13.46).
    (kl,) = computations(r"It uses the input $\alpha=$1\% of the time, a KL of $\alpha(\log(\alpha) - 1339.70) = 13.35$ nats.")
    assert kl.symbols == ("\\alpha",) and not kl.recomputes
    # A percentage is a fraction or points, the result in hundredths or as it stands; siunitx's \num is a number.
    assert read(r"$\frac{1}{15} = 6.7\%$, $40\% \times 2 = 80$, $50\% \times 300 = 160$") == [
        ("((1)/(15))", "6.7", True),
        ("40 * 2", "80", True),
        ("50*0.01 * 300", "160", False),
    ]
    assert read(r"$C = 100/75 = \num{1.33}$ and $\num{1.2e3} \times 2 = 2400$") == [
        ("100/75", "1.33", True),
        ("1.2*10**(3) * 2", "2400", True),
    ]
    # Thousands set apart as math sets them; a bare comma separates a list.
    assert read(r"$2 \times 500 = 1{,}100$, $2 \times 500 = 1\,000$, $(1, 2) = 1,000$") == [
        ("2 * 500", "1{,}100", False),
        ("2 * 500", "1\\,000", True),
    ]


def test_changes_listed_before_the_compared_side_share_it_each_where_its_words_say():
    from auditex.analyzers.rules.arithmetic.ratios import ratio_claims

    first, second = ratio_claims("Lang performs the worst, achieving 14% lower success on LangR and 11% lower on BabyAI than SemLang.")
    assert (first.factor, second.factor) == (14, 11) and first.compared == second.compared == " SemLang"
    assert "Lang performs" in first.subject and first.subject == second.subject
    assert "langr" in first.words and "babyai" not in first.words and "langr" not in second.words
    (alone,) = ratio_claims("It is 7% lower on LangR, and SemLang is better than MLP by 3%.")
    assert alone.factor == 3  # no "than" names a side for the 7%: left alone
    (other,) = ratio_claims("It is 7% lower on LangR, and SemLang is 3% better than MLP.")
    assert other.factor == 3 and "SemLang" in other.subject


def test_changes_after_by_pair_with_the_sides_before_it_in_order():
    from auditex.analyzers.rules.arithmetic.ratios import ratio_claims

    struck, dsst = ratio_claims("For AUC, EnKCF outperformed Struck and DSST by 5% and 10% while running faster.")
    assert (struck.factor, struck.compared, dsst.factor, dsst.compared) == (5, "Struck", 10, "DSST")
    assert ratio_claims("Ours outperforms the previous best by 0.68% and 1.33%.") == ()  # two changes, one side: on what each?


def test_a_percentage_of_a_base_reads_the_value_before_the_connecting_words_and_the_base_after():
    (stated,) = based_percentages("reduce the rate by 1.78 ppt (s.e. 0.04), which represents a 38% decrease from the average rate (4.7%).")
    assert (stated.value.value, stated.percent.value, stated.base.value) == (1.78, 38.0, 4.7)
    assert stated.recomputes()


def test_a_percentage_of_a_base_takes_the_base_out_of_a_parenthesis_or_before_versus():
    (out_of,) = based_percentages("a decrease of 204 pesos (out of a group mean of 942), equivalent to 22% of the mean")
    (versus,) = based_percentages("0.79 minutes, versus 1.13 minutes for the old method, which is a 24% improvement")
    assert (out_of.base.value, out_of.recomputes()) == (942.0, True)
    assert (versus.value.value, versus.base.value, versus.recomputes()) == (1.13, 0.79, False)


def test_a_percentage_of_a_base_is_not_read_from_a_list_a_bound_a_factor_or_a_year():
    assert not based_percentages("by 1.5 and 1.4 ppt, representing a 37% and 34% drop from the average of 4.03%")
    assert not based_percentages("holds 512 entries, which is over 50% of the 300 lines")
    assert not based_percentages("10.35 million per second, which is 71% of a baseline system, 10x of lock")
    assert not based_percentages("surveyed in 2015, or 12% of the 300 firms")


def test_percentages_listed_as_parts_of_one_noun_are_read_as_shares_of_one_whole():
    from auditex.analyzers.rules.arithmetic.model import listed_shares

    (exchange,) = listed_shares("It includes 58% HF exchange, 39% B88 exchange, and 8% Slater exchange. When applied")
    assert exchange.noun == "exchange" and exchange.total == 105 and exchange.exceeds_whole()
    # The last part's name ends at the noun, whatever words follow it.
    text = "The cohort was 52.4% white participants and 49.1% black participants at baseline."
    (cohort,) = listed_shares(text)
    assert text[cohort.parts[0].start : cohort.end] == "52.4% white participants and 49.1% black participants"
    # Rounding may pass 100%, and far beyond it the parts are measures of several things.
    assert not listed_shares("33.4% red cells, 33.3% blue cells and 33.4% green cells")[0].exceeds_whole()
    assert not listed_shares("90% coverage and 85% coverage")[0].exceeds_whole()
    # Rates with bases of their own, metrics, changes and different nouns are no shares of one whole.
    for rates in (
        "30% of the time and 80% of the time",
        "60% for training and 50% for testing",
        "85% top-1 accuracy and 26% top-5 accuracy",
        "a 60% reduction and a 45% reduction",
        "11% drivers are solo drivers, 35% share a cab",
    ):
        assert listed_shares(rates) == (), rates


def test_shares_the_remaining_one_completes_add_up_to_all():
    text = "a test set with 1% labeled positive and the remaining {}% labeled negative."
    assert [split.recomputes() for split in remaining_shares(text.format(99))] == [True]
    assert [split.recomputes() for split in remaining_shares(text.format(89))] == [False]
    hedged = "Around 60% are solved by both, 20% only by A, and the remaining {}% only by B."
    assert [split.recomputes() for split in remaining_shares(hedged.format(20))] == [True]
    assert [split.recomputes() for split in remaining_shares(hedged.format(30))] == [False]


def test_a_base_or_a_bound_makes_shares_of_something_else():
    assert remaining_shares("Of the 200 users, 70% were men and the remaining 25% women.") == ()
    assert remaining_shares("Over 70% passed and the remaining 20% failed.") == ()
    assert remaining_shares("Accuracy rose from 85% to 90%, and the remaining 10% are errors.") == ()


# A factor a sentence states against the table it cites (ratios.py): the lines each side names.


def _read_table(rows: list[list[str]]) -> Table:
    cells = [[Cell(r, c, text, 0, 0) for c, text in enumerate(row)] for r, row in enumerate(rows)]
    for row in cells:
        for cell in row:
            read_cell_number(cell)
    return Table(cells, 0, 0, "tabular", header_rows=1)


def test_a_subject_naming_several_lines_claims_the_factor_of_each():
    from auditex.analyzers.rules.arithmetic.ratios import factors, ratio_claims

    table = _read_table(
        [["Metric", "LLGP m=500", "LLGP m=1000", "COGP"], ["Seconds", "73", "90", "421"], ["NLPD", "1.72", "1.69", "98.63"]]
    )
    runtime, nlpd = ratio_claims("LLGP improves upon COGP by an order of magnitude in runtime and almost two orders of magnitude in NLPD.")
    (compared,) = factors(table, runtime)
    assert [round(factor.exact, 1) for factor in compared.factors] == [5.8, 4.7]  # each LLGP line, on the line of times
    assert not any(runtime.holds_for(factor) for factor in compared.factors)
    assert all(runtime.arguable(factor) for factor in compared.factors)
    (compared,) = factors(table, nlpd)
    assert [round(factor.exact) for factor in compared.factors] == [57, 58] and all(nlpd.holds_for(f) for f in compared.factors)


def test_cells_in_scientific_notation_compare_by_their_value():
    from auditex.analyzers.rules.arithmetic.ratios import factors, ratio_claims

    table = _read_table([["Initialization", "Runtime (s)"], ["Zeros", r"4.5\cdot10^{-3}"], ["Meta OT", r"2.3\cdot10^{-3}"]])
    (claim,) = ratio_claims("The Meta OT initialization is an order of magnitude faster than the zeros initialization.")
    (compared,) = factors(table, claim)
    assert [round(factor.exact, 2) for factor in compared.factors] == [1.96] and not claim.arguable(compared.factors[0])


def test_a_factor_written_to_a_decimal_claims_its_precision_and_a_named_measure_needs_its_line():
    from auditex.analyzers.rules.arithmetic.ratios import factors, ratio_claims

    table = _read_table([["Configuration", "Energy (J)"], ["Homogeneous", "107.9"], ["FlexCrypt", "32.4"]])
    (precise,) = ratio_claims("FlexCrypt results in a 3.1x total energy reduction compared to prior work.")
    (about,) = ratio_claims("FlexCrypt uses about 3.1 times less energy than Homogeneous.")
    (compared,) = factors(table, precise)
    (energy,) = compared.factors
    assert precise.decimals == 1 and not precise.holds_for(energy) and precise.arguable(energy)  # 3.33 is "3.3x"
    assert about.holds_for(energy)
    (parameters,) = ratio_claims("Homogeneous has around 3x more parameters than FlexCrypt.")
    assert parameters.measure == "parameters" and list(factors(table, parameters)) == []


# F1 beside its precision and recall (f_score.py): which lines are paired.


def test_an_f1_line_pairs_with_the_nearest_precision_and_recall_of_its_group() -> None:
    headers = ["Model", "Precision", "Recall", "F1 measure", "Precision", "Recall", "F$_1$"]
    groups = ["", "1", "1", "1", "4", "4", "4"]
    assert measure_lines([header_words(header) for header in headers], groups) == [Measures(1, 2, 3), Measures(4, 5, 6)]
    # an F1 whose group holds no recall is not paired with another group's
    assert measure_lines(["Model", "Precision", "Recall", "Accuracy", "F1"], ["", "1", "1", "3", "3"]) == []


def test_single_letters_pair_only_as_p_r_f_in_order() -> None:
    assert measure_lines(["Model", "P", "R", "F"], ["", "", "", ""]) == [Measures(1, 2, 3)]
    assert measure_lines(["Model", "R", "F", "p"], ["", "", "", ""]) == []
    assert measure_lines(["Model", "P", "R", "F2"], ["", "", "", ""]) == []
