from auditex.analyzers.rules.arithmetic.mean_effects import TableEffect, has_mean_row, share_a_word, stated_effects, words_of
from auditex.latex.model import Cell, Table


def test_an_effect_is_read_with_the_words_of_its_outcome():
    text = "Commitment decreases the financial cost of pawn loans by 22% inclusive of fees, and increases the likelihood of repeat business by about 19%."
    cost, repeat = stated_effects(text)
    assert (cost.percent.value, cost.outcome, cost.estimate) == (22, {"financial", "cost", "pawn", "loan"}, False)
    assert (repeat.percent.value, repeat.outcome, repeat.estimate) == (19, {"likelihood", "repeat", "business"}, True)


def test_an_effect_in_points_or_without_a_verb_of_change_is_not_read():
    assert stated_effects("It reduces the default rate by 6.6 percentage points.") == ()
    assert stated_effects("It reduces the default rate by 6.6 pp.") == ()
    assert stated_effects("The default rate is 15% of the mean.") == ()


def test_words_are_one_word_by_their_singular_or_their_first_five_letters():
    assert share_a_word(words_of("recovering their pawn"), words_of("Pr(Recovery in 1st visit)"))
    assert share_a_word(words_of("repeat business"), words_of("Effects on Repeat Pawning"))
    assert share_a_word(words_of("pawn"), words_of("Ever pawns again"))
    assert not share_a_word(words_of("the likelihood of it"), words_of("Default"))


def _cell(value: float, decimals: int) -> Cell:
    return Cell(text=f"{value:.{decimals}f}", start=0, end=0, column=1, row=1, value=value, decimals=decimals)


def test_a_table_effect_gives_a_percentage_within_the_rounding_of_coefficient_and_mean():
    effect = TableEffect(_cell(0.067, 3), _cell(0.32, 2))  # 0.067 / 0.32 = 20.9%
    (exact, rounded_away, hedged) = stated_effects("raises repeat by 21%, raises repeat by 19%, raises repeat by about 19%")
    assert effect.gives(exact)
    assert not effect.gives(rounded_away)
    assert effect.gives(hedged)


def _table(*headers: str) -> Table:
    rows = [[Cell(text=header, start=0, end=0, column=0, row=row), _cell(1.0, 1)] for row, header in enumerate(("", *headers))]
    return Table(rows=rows, start=0, end=0, environment="tabular")


def test_a_table_gives_a_control_mean_by_its_row_not_by_an_average_of_baselines():
    assert has_mean_row(_table("Treatment", "Observations", "Control Mean"))
    assert has_mean_row(_table("Treatment", "Mean of dep. var."))
    assert has_mean_row(_table("Treatment", "Baseline mean"))
    assert not has_mean_row(_table("Ours", "Baseline average"))
    assert not has_mean_row(_table("Ours", "Mean"))
