"""The statistics family's model: intervals with their estimates, and significance words with their p."""

import math

import pytest

from auditex.analyzers.apa_results import read_results
from auditex.analyzers.rules.statistics.cells import impossible_cells
from auditex.analyzers.rules.statistics.centring import LOPSIDED, off_centre
from auditex.analyzers.rules.statistics.coefficients import coefficient_reports, p_contradicted, rounds_to, wald_contradicted
from auditex.analyzers.rules.statistics.direction import contradicted_directions
from auditex.analyzers.rules.statistics.model import (
    correlation_p,
    interval_number,
    is_correlation_table,
    possible_stars,
    read_comparative_claims,
    read_interval_significance,
    read_intervals,
    read_null_claims,
    read_significance_claims,
    read_synonym_claims,
    star_legend,
    stated_sample,
)
from auditex.analyzers.rules.statistics.regression import (
    Estimate,
    effect_stated,
    estimates,
    named_models,
    names_variable,
    not_significant,
    reads_as_standard_errors,
    significance_stated,
    variable_words,
    wald_stars,
)
from auditex.analyzers.rules.statistics.samples import read_sample_counts, sizes_of_test
from auditex.analyzers.rules.statistics.statistic_columns import row_mismatches
from auditex.analyzers.rules.statistics.summaries import impossible_summaries, stated_ranges, table_variables
from auditex.analyzers.rules.statistics.table_intervals import table_intervals
from auditex.analyzers.rules.statistics.table_p import none_significant, significant_cells, starred_cells
from auditex.latex.model import Cell, Table
from auditex.latex.sentences import sentence_spans


@pytest.mark.parametrize(
    ("text", "written", "estimate"),
    [
        ("OR = 1.23, 95% CI [1.05, 1.45]", "[1.05, 1.45]", "1.23"),
        ("a gain of 0.45 (95% CI 0.30–0.60)", "[0.30, 0.60]", "0.45"),
        ("HR 0.8; 95% credible interval: 0.7 to 0.9", "[0.7, 0.9]", "0.8"),
        ("1,800 (95% CI 1,234 to 2,345)", "[1,234, 2,345]", "1,800"),
        ("$t(103)=-2.60$, 95% CI=[0.12, 0.90]", "[0.12, 0.90]", ""),
        ("p<.001, 95% CI=[0.08, 0.16]", "[0.08, 0.16]", ""),
        ("n = 120, 95% CI [1.2, 3.4]", "[1.2, 3.4]", ""),
    ],
)
def test_intervals_are_read_with_the_estimate_next_to_them(text, written, estimate):
    (interval,) = read_intervals(text)
    assert (interval.written, interval.estimate_text) == (written, estimate)


def test_bounds_and_estimates():
    (reversed_bounds,) = read_intervals("OR = 0.62, 95% CI [0.81, 0.45]")
    assert reversed_bounds.reversed and not reversed_bounds.excludes_estimate
    (one_sided,) = read_intervals("0.40, 95% CI [0.12, ∞)")
    assert one_sided.high == math.inf and not one_sided.excludes_estimate
    (rounded,) = read_intervals("0.45 (95% CI 0.451–0.62)")
    assert not rounded.excludes_estimate
    (percent,) = read_intervals("45% (95% CI 0.40–0.50)")
    assert percent.percent_mismatch and not percent.excludes_estimate
    assert interval_number("−\\infty") == -math.inf and interval_number("1,234.5") == 1234.5


@pytest.mark.parametrize(
    ("text", "lopsided"),
    [
        ("the effect was −0.43 kg [95% CI: −1.16, −0.3]", True),  # a unit between estimate and interval
        ("d = 0.18, 95% CI [−0.38, 0.38]", True),
        ("d = 0.05, 95% CI [−0.44, 0.33]", False),  # within what a noncentral interval and rounding allow
        ("HR 2.10 (95% CI 1.02–4.31)", False),  # centred on the log scale
        ("OR = 0.04, 95% CI [0.00, 0.69]", False),  # a bound rounded to 0 may be any small ratio
        ("accuracy 0.95 (95% CI 0.90–0.97)", False),  # centred on the logit
        ("r = .90, 95% CI [.70, .97]", False),  # centred on Fisher's z
        ("median 1.2 (95% CI 0.9–3.5)", False),
        ("0.45 (95% CI 0.451–0.62)", False),  # the estimate touches its bound
    ],
)
def test_an_estimate_off_its_intervals_centre_on_every_scale(text, lopsided):
    (interval,) = read_intervals(text)
    times = off_centre(interval, text[: interval.estimate_start])
    assert (times is not None and times >= LOPSIDED) == lopsided


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        ("no significant correlation (r = -0.010, p = 0.046)", [(False, "no significant", "p = 0.046")]),
        ("was significantly higher (p = .23)", [(True, "significantly", "p = .23")]),
        ("A was significantly higher (p < .001), while B did not differ (p = .23)", [(True, "significantly", "p < .001")]),
        ("significantly higher; the second one (p = .23)", []),
        ("marginally significant (p = .07)", []),
        ("not significant at p < .05", []),
    ],
)
def test_a_significance_word_governs_the_p_in_its_clause(text, claims):
    assert [(claim.says_significant, claim.word, claim.p_text) for claim in read_significance_claims(text)] == claims


def test_a_p_value_closing_its_sentence_reports_a_distant_word():
    far = "was significantly higher than the AUC values for classifying based on the relative abundances of each taxon alone"
    assert [claim.p_text for claim in read_significance_claims(far + " (P-value < 0.13).")] == ["P-value < 0.13"]
    assert read_significance_claims(far + " in every one of the many subsets, p = .4, and more") == ()


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        ("there was no reliable difference in tau (W = 1718, p = .03)", [(False, "no reliable difference", "p = .03")]),
        ("the groups did not differ in age (p = .41)", [(False, "did not differ", "p = .41")]),
        ("the effect was reliably larger (p = .20)", [(True, "reliably", "p = .20")]),
        ("the difference was 3 ms (p = .30)", []),
        ("no significant difference (p = .03)", []),
        ("the 95% credible interval [0.1, 0.4] (p = .02)", []),
    ],
)
def test_words_that_stand_for_significance(text, claims):
    assert [(claim.says_significant, claim.word, claim.p_text) for claim in read_synonym_claims(text)] == claims
    assert all(claim.synonym for claim in read_synonym_claims(text))


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        ("the Mean Tracker model performs better than the GP model (t(159)=1.42, p=.16, d=0.11).", [("better", "p=.16")]),
        ("scores were higher in session two (t(40)=4.1, p=.0004), and it predicts 86 of 160 best.", [("higher", "p=.0004")]),
        ("a chance greater than 50%: most(p) := p > 0.5.", []),  # a bound: a threshold as often as a test
        ("it outperforms the baseline (p = 0.3).", [("outperforms", "p = 0.3")]),
        # The sentence speaks of significance (STAT007's), or gives the difference as the sample's or as a hypothesis.
        ("it performs better, but not significantly (p=.16).", []),
        ("it performs numerically better (p=.16).", []),
        ("we predicted that older children would score higher (p=.37).", []),
        ("it was not better than the baseline (p=.4).", []),
        ("accuracy was higher for the fine-tuned model.", []),
    ],
)
def test_a_comparative_claims_the_difference_its_clauses_p_tests(text, claims):
    assert [(claim.word, claim.p_text) for claim in read_comparative_claims(text)] == claims


@pytest.mark.parametrize(
    ("text", "contains", "contradicted"),
    [
        ("the CrI contains 0 (b = -3.60, 95% CrI [-7.22, -0.03]).", True, True),
        ("the CrI contains 0 (b = -3.60, 95% CrI [-7.22, 0.03]).", True, False),
        ("the CI does not include one (OR = 1.1, 95% CI [0.91, 1.33]).", False, True),
        ("the interval excludes zero (95% CI [0.40, 2.80]).", False, False),
        ("the interval includes 0 at its edge (95% CI [-0.6, -0.0]).", True, False),
    ],
)
def test_a_claim_on_an_interval_and_zero(text, contains, contradicted):
    (claim,) = read_null_claims(text, ((0, len(text)),))
    assert (claim.says_contains, claim.contradicted) == (contains, contradicted)


def test_a_null_claim_needs_one_interval_it_names():
    two = "the CI contains zero (95% CI [-0.2, 0.3]) and (95% CI [0.1, 0.5])."
    assert read_null_claims(two, ((0, len(two)),)) == ()
    unnamed = "the sample contains 1 outlier (95% CI [2.1, 3.4])."
    assert read_null_claims(unnamed, ((0, len(unnamed)),)) == ()


def test_stated_levels_and_corrections():
    (at_ten,) = read_significance_claims("significant at the .10 level (p = .07)")
    assert at_ten.level == pytest.approx(0.10)
    (corrected,) = read_significance_claims("no significant difference after Bonferroni correction (p = .03)")
    assert corrected.corrected


def test_correlation_tables_legend_sample_and_stars():
    assert star_legend("* p < .05, ** p < .01, *** p < .001") == {1: 0.05, 2: 0.01, 3: 0.001}
    assert star_legend("* p < .01, ** p < .05") == {}  # more stars for a larger p: not a legend read
    assert stated_sample("Correlations (N = 1,204).") == 1204
    assert stated_sample("N = 80 to 120, pairwise") is None and stated_sample("N = 80 and N = 120") is None
    assert correlation_p(0.24, 120) == pytest.approx(0.0083, abs=5e-4)
    legend = {1: 0.05, 2: 0.01}
    assert list(possible_stars(0.24, 2, 120, legend)) == [2]
    assert list(possible_stars(0.18, 2, 120, legend)) == [0, 1]  # .175 to .185: p from .056 to .043
    assert is_correlation_table("Zero-order correlations") and not is_correlation_table("Means by group")


def _impossible(text: str) -> list[str]:
    from auditex.analyzers.rules.statistics.bounds import impossible_values

    return [found.written for found in impossible_values(text)]


def test_a_value_outside_its_statistics_range_is_read_only_where_the_letter_is_spelled_as_a_statistic():
    assert _impossible("a correlation of r = 1.23 and r(45) = -1.5, while r = .85") == ["r = 1.23", "r(45) = -1.5"]
    assert _impossible("adapters of rank r = 16, dropout p = 0, order p = 2, radius r = 1.5") == []
    assert _impossible("R^2 = 1.04, η_p^2 = .31, SD = -0.2, SD = 0.2, BF_10 = 12%") == ["R^2 = 1.04", "SD = -0.2", "BF_10 = 12%"]
    assert _impossible("the p-value was 1.2; p = .000; p = 0.00; p = 0.0") == ["p-value was 1.2", "p = .000", "p = 0.00"]


def test_a_zero_p_of_a_test_result_is_left_to_its_recomputation():
    assert _impossible("t(28) = 2.20, p = .000") == []


def test_a_bayes_factor_stated_twice_in_one_result_contradicts_itself_but_two_tests_may_have_two():
    assert _impossible("(t(103) = 5.90, p < .001, BF = 0.19, BF > 100)") == ["BF > 100"]
    assert _impossible("(t(20) = 2.1, BF = 1.9, t(20) = 3.2, BF = 14)") == []
    assert _impossible("(BF = 1.9; BF = 14)") == []
    assert _impossible("(BF_10 = 3.2, BF_01 = 0.31)") == []


def test_a_share_of_variance_in_percent_and_bayes_factors_under_named_priors_are_possible():
    assert _impossible("the FULL setup (R^2 = 75%) and R^2 = 12.5 %, but R^2 = 1.3.") == ["R^2 = 1.3"]
    assert _impossible("(Normal(0, 0.01): BF_10 = 3.5, Normal(0, 0.05): BF_10 = 1.3)") == []


def _regression_table(rows: list[list[str]], header_rows: int = 1) -> Table:
    cells = [[Cell(r, c, text, 0, 0, _number(text), decimals=_places(text)) for c, text in enumerate(row)] for r, row in enumerate(rows)]
    return Table(cells, 0, 0, "tabular", header_rows)


def _number(text: str) -> float | None:
    try:
        return float(text.lstrip("<"))
    except ValueError:
        return None


def _places(text: str) -> int:
    return len(text.partition(".")[2]) if _number(text) is not None else 0


def test_estimates_read_standard_errors_below_or_beside_and_stars_on_either() -> None:
    below = _regression_table([["", "(1)"], ["Age", "-0.133**"], ["", "1 (0.044)"], ["Male", ".011"], ["", "(.006)\\sym**"]])
    assert [(e.b_text, e.se_text, e.stars) for e in estimates(below)] == [("-0.133", "0.044", 2), (".011", ".006", 2)]
    beside = _regression_table([["", "Coef.", "SE"], ["Doctor", "1.049***", "(0.301)"], ["Person", "−0.206", "(0.242)"]])
    assert [(e.b_text, e.se_text, e.stars) for e in estimates(beside)] == [("1.049", "0.301", 3), ("-0.206", "0.242", 0)]
    one_cell = _regression_table([["", "B (SE)"], ["Age", "-0.133** (0.044)"], ["Male", "0.20 [0.11]"], ["CI", "0.2 [0.1, 0.3]"]])
    assert [(e.b_text, e.se_text, e.stars) for e in estimates(one_cell)] == [("-0.133", "0.044", 2), ("0.20", "0.11", 0)]


@pytest.mark.parametrize(
    ("b", "se", "stars"),
    [
        ("-0.133", "0.044", range(3, 4)),  # z = 3.02: p = .003
        (".011", ".006", range(0, 3)),  # z from 1.62 to 2.09 with the rounding, and few degrees of freedom
        ("0.20", "0.05", range(3, 4)),
    ],
)
def test_possible_regression_stars_follow_from_the_rounded_ratio(b: str, se: str, stars: range) -> None:
    legend = {1: 0.1, 2: 0.05, 3: 0.01}
    assert wald_stars(Estimate(Cell(0, 0, b, 0, 0), b, se, 0), legend) == stars


def test_parentheses_other_than_standard_errors_are_not_read() -> None:
    assert reads_as_standard_errors("Robust standard errors clustered by firm in parentheses.")
    assert not reads_as_standard_errors("t-statistics in parentheses")
    assert not reads_as_standard_errors("95% confidence intervals in brackets; one-tailed tests")


@pytest.mark.parametrize(
    ("sentence", "effect"),
    [
        ("For instance, higher income areas lead to higher vaccination uptake.", "lead to higher"),
        ("Counties with higher unemployment are associated with lower vaccination rates.", "associated with lower"),
        ("Evangelical counties have lower vaccination rates.", "have lower"),
        ("Treated borrowers were more likely to repay.", "more likely"),
        ("Income has a significant positive effect on uptake.", None),  # STAT007's: it speaks of significance
        ("Income did not increase uptake.", None),
        ("We expect that richer counties have higher uptake.", None),
        ("Income may increase uptake (p = .04).", None),
        ("Table 2 reports the estimates of each model.", None),
    ],
)
def test_a_sentence_states_an_effect_as_a_finding_unless_it_speaks_of_significance_negates_or_hedges(
    sentence: str, effect: str | None
) -> None:
    stated = effect_stated(sentence)
    assert (stated.group(0) if stated else None) == effect


@pytest.mark.parametrize(
    ("sentence", "word"),
    [
        ("Income has a significant positive effect on uptake.", "significant"),
        (
            "Median income is statistically significantly associated with uptake (Table~\\ref{tab:no-controls}).",
            "statistically significantly",
        ),
        ("Income is not significantly associated with uptake.", None),
        ("Income was insignificant in every model.", None),
        ("Income may be significant in larger samples.", None),
        ("Income is significant (p = .03).", None),
    ],
)
def test_a_sentence_calls_a_variable_significant_unless_it_gives_its_p_negates_or_hedges(sentence: str, word: str | None) -> None:
    stated = significance_stated(sentence)
    assert (stated.group(0) if stated else None) == word


@pytest.mark.parametrize(
    ("passage", "models"),
    [
        ("Table 3 Model 1 holds the controls. In this first model, income leads to higher uptake.", (1,)),
        ("Columns 2 and 3 add the signal.", (2, 3)),
        ("See column (4).", (4,)),
        ("The estimates hold across specifications.", ()),
    ],
)
def test_the_models_a_passage_names_last(passage: str, models: tuple[int, ...]) -> None:
    assert named_models(passage) == models


def test_a_sentence_names_a_row_by_its_variables_words_outside_its_controls() -> None:
    assert variable_words("Median Income") == {"income"}
    assert variable_words("Percent of GOP votes, 2020") == {"gop", "votes"}
    assert names_variable("when controlling for everything else, higher income areas lead", frozenset({"income"})) is not None
    assert names_variable("controlling for income, unemployment lowers uptake", frozenset({"income"})) is None
    assert names_variable("GOP counties have lower uptake", frozenset({"gop", "votes"})) is None


def test_an_estimate_is_not_significant_without_a_star_and_with_p_above_every_level() -> None:
    legend = {1: 0.05, 2: 0.01, 3: 0.001}
    assert not_significant(Estimate(Cell(0, 0, "0.002", 0, 0), "0.002", "0.011", 0), legend)
    assert not not_significant(Estimate(Cell(0, 0, "0.023+", 0, 0), "0.023", "0.012", 0), legend)  # a dagger marks p < .10
    assert not not_significant(Estimate(Cell(0, 0, "1.555", 0, 0), "1.555", "0.918", 0), legend)  # p = .09: below .10
    assert not not_significant(Estimate(Cell(0, 0, "0.011*", 0, 0), "0.011", "0.005", 1), legend)


def test_a_p_column_reads_its_zeros_and_a_table_of_p_values_its_scientific_zero() -> None:
    table = _regression_table([["", "b", "p"], ["Age", "0.000", ".000"], ["Male", "0.0e+00", ".041"]])
    assert [(bad.cell.row, bad.written) for bad in impossible_cells(table, "")] == [(1, "p = .000"), (2, "p = 0.0e+00")]
    losses = _regression_table([["", "Train", "Test"], ["A", "0.0e+00", "1.2e-03"]])
    assert list(impossible_cells(losses, "Losses")) == []
    assert [bad.written for bad in impossible_cells(losses, "Wilcoxon tests: p-values")] == ["p = 0.0e+00"]


def test_a_share_above_one_only_where_the_table_keeps_its_shares_on_the_unit_scale() -> None:
    rows = [["", "Mean", "Max"], ["Share urban", "0.40", "0.90"], ["Percent Catholic", "0.22", "1.31"], ["Percent Sikh", "0.10", "12.0"]]
    assert [bad.written for bad in impossible_cells(_regression_table(rows), "")] == ["max 1.31"]
    assert list(impossible_cells(_regression_table([rows[0], rows[2]]), "")) == []


def _read_intervals(rows: list[list[str]], caption: str = "", notes: str = "") -> list[tuple[str, str, bool, bool]]:
    table = _regression_table(rows)
    table.caption = caption
    return [
        (read.interval.estimate_text, read.interval.written, read.interval.reversed, read.interval.excludes_estimate)
        for read in table_intervals(table, notes)
    ]


def test_a_cell_holds_an_estimate_and_the_interval_its_header_or_caption_names() -> None:
    rows = [["", "OR (95% CI)", "p"], ["Age", "1.45*** (1.50, 1.90)", ".002"], ["Night", "2.10 [2.40, 2.20]", ".001"]]
    assert _read_intervals(rows) == [("1.45", "[1.50, 1.90]", False, True), ("2.10", "[2.40, 2.20]", True, True)]
    unnamed = [["", "OR", "p"], rows[1][:2] + [".002"]]
    assert _read_intervals(unnamed) == []
    assert _read_intervals(unnamed, caption="Odds ratios (95% CI).") == [("1.45", "[1.50, 1.90]", False, True)]
    assert _read_intervals(unnamed, notes="Note: 95% confidence intervals in parentheses.") == [("1.45", "[1.50, 1.90]", False, True)]
    assert _read_intervals([["", "Median (IQR)"], ["Short", "512 (470, 580)"]]) == [("512", "[470, 580]", False, False)]


def test_a_column_of_intervals_bounds_the_nearest_estimate_past_spreads_and_tests() -> None:
    rows = [["", "Mean", "SD", "95% CI"], ["Doctor", "0.54", "0.50", "0.41 to 0.47"], ["Online", "0.41", "0.49", "(0.38, 0.45)"]]
    assert _read_intervals(rows) == [("0.54", "[0.41, 0.47]", False, True), ("0.41", "[0.38, 0.45]", False, False)]
    # the log odds ratio is on another scale than the odds ratio's interval
    assert _read_intervals([["", "log OR", "SE", "95% CI of OR"], ["Age", "0.37", "0.09", "(1.21, 1.74)"]]) == []


def test_lower_and_upper_columns_bound_the_nearest_estimate() -> None:
    header = ["Parameter", "mean", "SE", "lower bound", "upper bound", "R-hat"]
    rows = [
        header,
        ["Intercept", "633.707", "8.815", "617.142", "651.175", "1.006"],
        ["Duration", "-10.959", "1.947", "-7.105", "-14.825", "1.000"],
    ]
    assert _read_intervals(rows) == [("633.707", "[617.142, 651.175]", False, False), ("-10.959", "[-7.105, -14.825]", True, False)]
    quantiles = [["", "Estimate", "2.5%", "97.5%"], ["beta", "0.80", "0.85", "1.20"]]
    assert _read_intervals(quantiles) == [("0.80", "[0.85, 1.20]", False, True)]
    # "LL" and "UL" of a model's name are no bounds: only whole headers of a bound are read
    assert _read_intervals([["", "Base", "LLGP m=500", "ULGP"], ["a", "1.7", "1.72", "1.69"]]) == []


def _impossible_summaries(rows: list[list[str]]) -> list[tuple[str, str, str]]:
    table = _regression_table(rows)
    return [(found.variable, found.written, found.kind.split(": ")[1]) for v in table_variables(table) for found in impossible_summaries(v)]


def test_a_summary_table_of_variables_as_rows_bounds_each_mean_and_sd_by_its_min_and_max() -> None:
    rows = [
        ["Variable", "N", "Mean", "SD", "Min", "Max"],
        ["Income", "120", "52.3", "12.4", "10.2", "48.9"],
        ["Tenure", "120", "4.1", "15.2", "0", "9"],
        ["Rating", "120", "4.0", "0.9", "1", "4"],  # a mean of 4.0 under a maximum of 4 holds
        ["Spread", "2", "5", "7.0", "0", "10"],  # two values 0 and 10: SD 7.07
    ]
    assert _impossible_summaries(rows) == [
        ("Income", "mean 52.3", "a mean outside its min and max"),
        ("Tenure", "SD 15.2", "an SD larger than the min, max and mean allow"),
    ]


def test_a_summary_table_reads_groups_side_by_side_columns_of_statistics_and_range_cells() -> None:
    twice = [["", "Mean", "Min", "Max", "Mean", "Min", "Max"], ["Age", "30", "18", "40", "50", "18", "40"]]
    assert _impossible_summaries(twice) == [("Age", "mean 50", "a mean outside its min and max")]
    columns = [["", "RT", "Rating"], ["Mean", "612", "3.9"], ["P25", "540", "3.0"], ["Median", "598", "2.8"], ["Max", "1290", "7"]]
    assert _impossible_summaries(columns) == [("Rating", "median 2.8", "a summary outside the order min ≤ percentiles ≤ max")]
    ranges = [["", "M", "SD", "Range"], ["Age", "34.2", "8.1", "38–65"], ["Years", "4.2", "1.1", "1–9"]]
    assert _impossible_summaries(ranges) == [("Age", "mean 34.2", "a mean outside its min and max")]
    assert _impossible_summaries([["", "Mean", "SD"], ["Age", "34.2", "8.1"]]) == []
    # two units are two quantities; a range cell's comma needs a space ("1,234" is one number)
    assert _impossible_summaries([["", "Mean (ms)", "Max (s)"], ["RT", "612", "1.3"]]) == []
    assert _impossible_summaries([["", "Mean (ms)", "Max (ms)"], ["RT", "612", "513"]]) == [
        ("RT", "mean 612", "a mean outside its min and max")
    ]
    assert _impossible_summaries([["", "Mean", "Range"], ["Words", "980", "1,234"], ["Age", "30", "[32, 40]"]]) == [
        ("Age", "mean 30", "a mean outside its min and max")
    ]
    # participants and quarters are not percentiles: no statistic named in words
    assert _impossible_summaries([["", "P1", "P2", "P3"], ["Experience", "16", "8", "12"]]) == []
    assert _impossible_summaries([["", "Q1", "Q2", "Q3"], ["Sales", "16", "8", "12"]]) == []


@pytest.mark.parametrize(
    ("sentence", "written"),
    [
        ("Participants ($M = 5.2$, $SD = 1.1$, range 1--4) rated.", ["mean 5.2"]),
        ("The mean age was 34.2 years (range 38--65).", ["mean 34.2"]),
        ("Participants were aged 18–40 (M = 47.1).", ["mean 47.1"]),
        ("Children (range: 7 to 8, 26 female, M_age = 8.53; SD = 0.50).", []),  # aged 8 is up to 8 years 11 months
        ("Children (range: 7 to 8, 26 female, M_age = 9.53; SD = 0.50).", ["mean 9.53"]),
        ("The slope was m = 5.2 over the range 1-4.", []),  # a lower-case m is no mean
        ("The median AUC was 0.96 (range: 0.367 - 0.951).", ["median 0.96"]),
        ("A mean of 4.0 (range 1-4).", []),
        ("The mean income was 5 and ages ranged from 18 to 40.", []),  # the range of another quantity
        ("The mean was 12.3 (interquartile range 13-20).", []),  # a mean may lie outside the quartiles
        ("The median stay was 12 days (IQR 3-10).", ["median 12"]),
        ("The median age was 54 years (interquartile range: 45, 63).", []),
        ("The median age was 54 years (IQR 55-63).", []),  # 54.4 and 54.5 round so
        ("The mean was 45 (range 50%-60%).", []),
    ],
)
def test_a_sentence_bounds_its_mean_or_median_by_the_range_it_gives(sentence: str, written: list[str]) -> None:
    assert [found.written for stated in stated_ranges(sentence) for found in impossible_summaries(stated.variable)] == written


@pytest.mark.parametrize(
    ("sentence", "level"),
    [
        ("None of these associations were statistically significant.", 0.05),
        ("The covariates were all non-significant at the 10% level.", 0.1),
        ("Group differences were not significant for any measure (all ps > .20).", 0.05),
        ("Differences on the scales were small (all ps > .10).", 0.1),
        ("No significant differences were detected for any of the metrics.", 0.05),
    ],
)
def test_a_universal_claim_of_no_significance_and_its_level(sentence: str, level: float) -> None:
    claim = none_significant(sentence, False)
    assert claim is not None and claim.level == level


@pytest.mark.parametrize(
    "sentence",
    [
        "None of the characteristics differed significantly except smoking.",
        "There was no significant difference in age.",
        "All effects were significant.",
    ],
)
def test_no_universal_claim_of_no_significance(sentence: str) -> None:
    assert none_significant(sentence, False) is None


def test_significant_p_cells_whatever_their_rounding() -> None:
    table = _regression_table(
        [["", "Switch", "P-value"], ["Comparison", "80%", "0.049"], ["Income", "73%", "0.05"], ["Herd", "61%", "< .001"]]
    )
    assert [cell.text for cell in significant_cells(table, 0.05)] == ["0.049", "< .001"]


def test_starred_cells_at_the_level_by_the_tables_legend() -> None:
    table = _regression_table(
        [["", "r", "rm"], ["Hesitancy", "-0.47", "0.12*"], ["Rates", "0.11", "0.322***"], ["(Intercept)", "1.2***", ""]]
    )
    assert [cell.text for cell in starred_cells(table, {1: 0.05, 2: 0.01, 3: 0.001}, 0.05)] == ["0.12*", "0.322***"]
    assert [cell.text for cell in starred_cells(table, {1: 0.10, 2: 0.05, 3: 0.01}, 0.05)] == ["0.322***"]
    assert list(starred_cells(table, {}, 0.05)) == []


def test_coefficient_reports_read_what_follows_each_coefficient_up_to_the_next() -> None:
    text = "(b = -0.109, p < .05; b = -0.133, p < .001) and β = −3.18; SE = 0.27; t(40) = −11.96."
    reports = coefficient_reports(text)
    assert [(r.b_text, r.se_text, r.wald, r.p) for r in reports] == [
        ("-0.109", None, None, ("<", ".05")),
        ("-0.133", None, None, ("<", ".001")),
        ("-3.18", "0.27", ("t", "-11.96", 40), None),
    ]


@pytest.mark.parametrize(
    ("text", "se", "p_wrong", "wald_wrong"),
    [
        ("b = -0.133, p < .001", "0.044", True, False),
        ("b = -0.133, p = .003", "0.044", False, False),
        ("b = 0.16, SE = 0.08, p = .040", "0.08", False, False),
        ("b = 0.16, SE = 0.08, t = 3.50", "0.08", False, True),
        ("b = -0.11, SE = 0.11, t = -0.99", "0.11", False, False),
    ],
)
def test_a_coefficients_p_and_wald_statistic_against_its_standard_error(text: str, se: str, p_wrong: bool, wald_wrong: bool) -> None:
    (report,) = coefficient_reports(text)
    assert (p_contradicted(report, se, None) is not None, wald_contradicted(report, se)) == (p_wrong, wald_wrong)


@pytest.mark.parametrize(
    "note",
    [
        "* p<0.10, ** p<0.05, *** p<0.01",
        "* significant at 10%; ** significant at 5%; *** significant at 1%",
        "*, ** and *** denote significance at the 10%, 5% and 1% levels, respectively.",
        "\\sym* p-value < 0.1, \\sym** p-value < 0.05, \\sym*** p-value < 0.01",
    ],
)
def test_star_legends_as_econometrics_tables_write_them(note: str) -> None:
    assert star_legend(note) == {1: 0.1, 2: 0.05, 3: 0.01}


def test_a_table_coefficient_rounds_to_the_sentences() -> None:
    assert rounds_to("-0.133", "-0.133") and rounds_to("-0.1334", "-0.13")
    assert not rounds_to("0.133", "-0.133") and not rounds_to("0.13", "0.133") and not rounds_to("0.138", "0.13")


def test_statistic_columns_read_row_by_row_in_groups() -> None:
    rows = [
        ["", "Humans", "", "", "Model", "", ""],
        ["Verb", "β", "\\Bz-score", "p-value", "β", "z-score", "p-value"],
        ["Main", "0.535", "2.210", "0.027", "-0.147", "-1.239", "0.215"],
        ["Embedded", "0.470", "2.429", "0.051", "-0.481", "-5.252", "<0.001"],
    ]
    assert [(found.written, found.expected) for found in row_mismatches(_regression_table(rows))] == [
        ("p = 0.051", "p = 0.0151 from z = 2.429")
    ]
    fixed = [
        ["Term", "Estimate", "SE", "t", "p"],
        ["Condition", "0.086", "0.021", "2.10", ".036"],
        ["Order", "-0.012", "0.020", "-0.60", ".55"],
    ]
    assert [found.written for found in row_mismatches(_regression_table(fixed))] == ["t = 2.10"]


@pytest.mark.parametrize(
    ("text", "contradicted"),
    [
        ("The error rate increased from 4.8% to 4.4%.", [("increased", "4.8%", "4.4%")]),
        ("Scores were lower (M = 4.79) than in the control (M = 4.42).", [("lower", "4.79", "4.42")]),
        ("Accuracy improves from 61.2 to 59.8.", [("improves", "61.2", "59.8")]),
        ("The error improves from 61.2 to 59.8.", []),  # lower is better for an error
        ("It improves from 61.2 to 59.8.", []),  # no metric named: no direction
        ("Time increased from 30 s to 2 min.", []),  # two units
        ("The rank dropped from 1st to 3rd.", []),  # ordinals
        ("We did not see it increase from 5.1 to 4.2.", []),  # negated
        ("It grew from 2015 to 2010.", []),  # years
        ("Larger for adults than for children (0.99 vs. 0.24).", []),
        ("Larger for adults than for children (0.24 vs. 0.99).", [("Larger", "0.24", "0.99")]),
    ],
)
def test_direction_words_are_read_against_their_own_values(text, contradicted):
    found = contradicted_directions(text, tuple(sentence_spans(text)))
    assert [(claim.word, claim.first, claim.second) for claim in found] == contradicted


@pytest.mark.parametrize(
    ("text", "says_significant", "contradicted"),
    [
        ("significantly associated, β = 0.07, 95% CI [−0.03, 0.17]", True, True),
        ("did not significantly differ from zero, d = 0.06, 95% CI [−0.16, 0.27]", False, False),
        ("not a significant risk (OR = 1.90, 95% CI 1.30–2.80)", False, True),  # a ratio: null 1
        ("not a significant gain (2.10, 95% CI [1.20, 3.40])", False, False),  # unnamed: may be a level's
        ("not a significant effect, d = 2.10, 95% CI [1.20, 3.40]", False, True),
        ("a significant effect, b = 0.20, 95% CI [0.00, 0.40]", True, False),  # a bound at the null decides nothing
    ],
)
def test_a_significance_word_is_read_against_the_interval_it_cites(text, says_significant, contradicted):
    (claim,) = read_interval_significance(text)
    assert (claim.says_significant, claim.contradicted) == (says_significant, contradicted)


def test_a_p_value_or_another_level_leaves_the_interval_to_others():
    assert read_interval_significance("significant (t(40) = 2.10, p = .04, d = 0.30, 95% CI [−0.01, 0.61])") == ()
    assert read_interval_significance("not significant (b = 0.20, 90% CI [0.01, 0.39])") == ()


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        (
            "Next, we recruit 472 participants from Prolific. We remove 115 participants who failed to follow instructions.",
            [(472, "recruited"), (115, "excluded")],
        ),
        (
            "We recruited a sample of 1,000 adults; 58 participants who did not finish were excluded.",
            [(1000, "recruited"), (58, "excluded")],
        ),
        ("301 students took part, and we excluded the data of 12 respondents.", [(301, "recruited"), (12, "excluded")]),
        ("We recruited 400 adults, leaving 357 participants after the checks.", [(400, "recruited"), (357, "left")]),
        ("Of 410 students who took part, the final sample comprised 380 students (final n = 380).", [(380, "left"), (380, "left")]),
        (
            "A total of 91 (mean age = 25.1 years, females = 44) participants completed the experiment. Seven participants "
            "with poor performance (less than 80% accuracy) were excluded from the study.",
            [(91, "recruited"), (7, "excluded")],
        ),
        # An exclusion from one analysis, or of units replaced, leaves the study's sample as recruited.
        ("We recruited 120 children and excluded 9 participants from the eye-tracking analyses.", [(120, "recruited")]),
        ("We recruited 120 children and excluded 9 participants who did not finish.", [(120, "recruited"), (9, "excluded")]),
        ("We recruited 120 adults; 12 participants were excluded and replaced by new ones.", [(120, "recruited")]),
        # A share, a dropout rate and a count of trials are not units of the sample.
        ("We excluded 12% of trials and used dropout 0.1 on 300 images.", []),
    ],
)
def test_read_sample_counts(text: str, counts: list[tuple[int, str]]) -> None:
    assert [(count.count, count.role.value) for count in read_sample_counts(text)] == counts


@pytest.mark.parametrize(
    ("result", "sizes"),
    [
        ("t(470) = 5.44, p < .001", {471, 472}),
        ("r(48) = .30, p = .03", {50}),
        ("F(2, 28) = 3.10, p = .061", {31, 15}),
        ("F(3, 28) = 3.10, p = .061", {32}),
        ("χ^2(1, N = 201) = 36.62, p < .001", {201}),
        ("χ^2(1) = 10.80, p = .001", set()),
        ("t(997.87) = -4.03, p < .001", set()),  # Welch's df only bound the sample
    ],
)
def test_sizes_of_test(result: str, sizes: set[int]) -> None:
    (read,) = read_results(result)
    assert sizes_of_test(read) == sizes
