"""How the paper's restatements are read: ranges, periods and counts of one quantity (NUM005, NUM006), and a
counted list that names an item twice (CNT005)."""

from auditex.analyzers.rules.counts.repeated_item import repeated
from auditex.analyzers.rules.numbers.cited_period import dated_periods
from auditex.analyzers.rules.numbers.default_setting import defaults
from auditex.analyzers.rules.numbers.restated import content_stems, value_of
from auditex.analyzers.rules.numbers.restated_range import periods, ranges, setting_values, value_sets
from auditex.analyzers.rules.numbers.same_count import counts, slipped


def test_a_number_is_read_with_its_thousands_grouped_by_commas_or_spaces():
    assert value_of("21 482") == 21482
    assert value_of("2,941,390") == 2941390
    assert value_of("−1.67") == -1.67


def test_content_stems_keep_settings_and_drop_pointers():
    assert content_stems("each containing T=10 time steps (see Fig. 3)") == ["contain", "t=10", "time", "step"]


def test_a_range_is_keyed_by_its_symbol_or_its_counted_noun():
    (found,) = ranges("sample sizes ranging between 42 observations (one per step) to 252 observations")
    assert (found[2], found[3], found[4]) == (
        "the range of observations",
        (42.0, 252.0),
        "ranging between 42 observations to 252 observations",
    )
    (found,) = ranges("true effects ranging from d = 1.91 (a large increase) to d = -1.67")
    assert found[2:4] == ("the range of d", (-1.67, 1.91))
    assert list(ranges("scores ranging from 2 to 5")) == []  # nothing named ranges
    assert list(ranges("years ranging from 2005 to 2014 observations")) == []  # a year span


def test_a_period_is_compared_only_with_a_sample_size_in_its_sentence():
    (found,) = periods("a dataset of 926 HIV-1 sequences obtained between 2005 and 2014")
    assert found[2:4] == ("the period of the 926", (2005.0, 2014.0))
    assert list(periods("sequences obtained between 2005 and 2014")) == []


def test_a_dated_period_is_read_to_the_precision_it_gives():
    def values(text: str) -> list[tuple[float, ...]]:
        return [found[2] for found in dated_periods(text)]

    assert values("during May 26, 2021 – June 7, 2021.") == [(2021, 5, 26, 2021, 6, 7)]
    assert values("fielded March 3 - 15, 2021") == [(2021, 3, 3, 2021, 3, 15)]  # the day alone takes the month
    assert values("from July 2 through 14, 2020") == [(2020, 7, 2, 2020, 7, 14)]
    assert values("the 5-week period Jan 3--Feb 6, 2020") == [(2020, 1, 3, 2020, 2, 6)]
    assert values("between 22 May 1986 and 29 July 2006") == [(1986, 5, 22, 2006, 7, 29)]
    assert values("from March 2019 to June 2020") == [(2019, 3, 0, 2020, 6, 0)]
    assert values("Yearly 2010-2020") == [(2010, 0, 0, 2020, 0, 0)]
    assert values("in 2017 and 2018") == []  # two years, not a period
    assert values("from March to August") == []  # no year
    assert values("scores of 2010-2020.5") == []  # not years


def test_a_count_is_an_integer_before_a_plural_noun():
    (found,) = counts("we train with 600k video instances, each of which contains T=10 time steps")
    assert found[3] == (600000.0,)
    assert {"instanc", "t=10", "1:video", "1:instanc"} <= found[5]
    (jobs,) = counts("this equates to just 21 482 jobs lost")
    assert jobs[3:5] == ((21482.0,), "21 482")
    assert list(counts("velocities of 800 km s over the run")) == []  # a unit, not a count
    assert list(counts("we train for 100 epochs on the digits")) == []  # a setting
    assert list(counts("In Study 2 participants were students")) == []  # part of a name
    assert list(counts("the top 1,000 features were taken")) == []  # a selection
    (rough,) = counts("we recruited about 50 participants from the pool")
    assert "~" in rough[5]
    (acronyms,) = counts("we repeated the experiment with 19 NLMs trained on the same corpus")
    assert acronyms[3] == (19.0,) and "1:nlms" in acronyms[5]
    (far,) = counts("we trained 20 additional neural language models with the same settings")
    assert far[3] == (20.0,) and "model" in far[5]
    assert list(counts("the 12 CPU cores we used")) == []  # an acronym before the counted noun is no plural


def test_a_comparison_in_parentheses_gives_each_count_its_noun_and_the_other_count():
    first, second = counts("this data set has half as many morphological characters as does the penguin data set (122 versus 245)")
    assert (first[3], second[3], second[4]) == ((122.0,), (245.0,), "245")
    assert {"<character", ">122", "character"} == second[5]  # the counted noun, the other subject's count
    (samples, _) = counts("the small number of HD+ and C CAU samples (2 and 3, respectively)")
    assert samples[5] == {"<sampl", ">3", "sampl"}
    assert [found[3] for found in counts("the two ground states (1 and 2 respectively) of the atom")] == [(2,)]  # labels: a known set only
    assert list(counts("a lower sample size in the second session (204 vs. 160)")) == []  # no plural noun before it


def test_a_count_narrowed_by_a_relative_clause_or_of_a_set_is_a_part():
    (ordered,) = counts("we treat 34 characters that were ordered in the original study as unordered")
    assert "⊂" in ordered[5]
    (binary,) = counts("48 of the binary characters were encoded as presence or absence")
    assert "⊂" in binary[5]
    (total,) = counts("the matrix contains 202 characters (ranging from binary to k=7)")
    assert "⊂" not in total[5]


def test_a_slip_is_one_apart_a_zero_a_swap_or_the_last_digit():
    assert slipped(600000, 60000) and slipped(42, 43) and slipped(245, 254) and slipped(926, 928)
    assert not slipped(32, 72)  # another leading digit: as often another count
    assert not slipped(100, 160) and not slipped(21482, 54000)
    assert not slipped(100, 1000)  # powers of ten step a grid


def test_a_counted_list_naming_one_item_twice_is_found_on_its_second_naming():
    sentence = "We use four settings: low noise, high noise, low bias, and high noise."
    start, end, item, stated = repeated(sentence, "")
    assert (sentence[start:end], item, stated) == ("high noise", "high noise", 4)
    assert repeated("We use four settings: low noise, high noise, low bias, and high bias.", "") is None
    assert repeated("The order was: high, low, high, and low.", "") is None  # no count, two repeats
    assert repeated("These were: A High, A Low, and A High.", "We generated three variables.") is not None


def test_a_set_of_five_or_more_values_is_keyed_by_its_size():
    (found,) = value_sets("the illuminations $\\{0,1,7,13,14,16,18\\}$ of the database")
    assert found[2:5] == ("the set of 7 values", (0.0, 1.0, 7.0, 13.0, 14.0, 16.0, 18.0), "{0,1,7,13,14,16,18}")
    assert list(value_sets("weights {0.1, 0.2, 0.5}")) == []  # too few to tell a slip from another set


def test_three_or_four_values_of_one_setting_are_keyed_by_their_number():
    (found,) = setting_values("for the same three parameters (\\Reg= .04, .01, .025) as before")
    assert found[2:4] == ("a setting run over 3 values", (0.01, 0.025, 0.04)) and found[5] == frozenset()
    (named,) = setting_values("the penalties (λ = 0.1, 0.01, 0.001) we sweep")
    assert named[5] == frozenset({"λ"})
    assert list(setting_values("weights (0.1, 0.2, 0.5)")) == []  # no setting named
    assert list(setting_values("(λ = 0.1, 0.1, 0.5)")) == []  # a value twice: no set of settings


def test_a_default_is_a_symbol_set_to_one_number_in_a_sentence_that_declares_it_the_default():
    (found,) = defaults("We used the discount factor γ=0.99 unless specified otherwise.")
    assert found[2:5] == ("the default γ", (0.99,), "γ=0.99")
    (found,) = defaults("Unless stated otherwise, the agent is trained with γ=0.95.")
    assert found[3] == (0.95,)
    assert list(defaults("In this experiment we set γ=0.99.")) == []  # a setting, not declared the default
    assert list(defaults("By default we sweep η = 0.1, 0.01 and report the best.")) == []  # a sweep
    assert list(defaults("By default the test gives p = 0.04.")) == []  # a p-value is no setting


def test_what_a_section_feeds_changes_with_every_field_of_its_statements():
    """NUM005, NUM006 and NUM009 keep a section's pairs while what it feeds is the same (`feeds_all`): every field
    of a statement, its places as lines and characters, must be fed, or an edit of it would keep a stale pair."""
    from dataclasses import fields, replace

    from auditex.analyzers.finding import Category, Finding, Range, Related, Severity
    from auditex.analyzers.rules.numbers.restated import Stated, _stated

    at, moved = Range.of(1, 2, 1, 5), Range.of(1, 3, 1, 6)
    anchor = Finding(code="NUM006", category=Category.CONTEXT_MISALIGNMENT, severity=Severity.WARNING, message="", file="a.tex", range=at)
    related = Related(file="a.tex", range=at, message="the other statement: 10")
    statement = Stated("count", (10.0,), "10", frozenset({"run"}), "10 runs", frozenset({"MNIST"}), 0, False, "Intro", anchor, related)
    edited = {
        "key": "range",
        "values": (11.0,),
        "written": "11",
        "words": frozenset({"runs"}),
        "sentence": "11 runs",
        "names": frozenset(),
        "block": 1,
        "summary": True,
        "where": "Results",
        "anchor": anchor.model_copy(update={"range": moved}),
        "related": related.model_copy(update={"range": moved}),
    }
    assert {field.name for field in fields(Stated)} == edited.keys(), "a new field of a statement must be fed"
    for name, value in edited.items():
        assert _stated([[replace(statement, **{name: value})]]) != _stated([[statement]]), name
