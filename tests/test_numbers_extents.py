"""How a sentence states an extent, and how a table of summary statistics gives a row's (analyzers/rules/numbers/extents.py)."""

from auditex.analyzers.rules.numbers.extents import (
    End,
    cell_gives,
    holds,
    own_blocks,
    own_names,
    shown_as,
    stated_bounds,
    stated_gains,
    stated_ranges,
    statistic_columns,
    table_lines,
)
from auditex.analyzers.rules.numbers.table_range import stated_extremes
from auditex.latex.model import Cell, Table


def _table(header: list[str], *rows: list[str]) -> Table:
    def cell(row: int, column: int, text: str) -> Cell:
        try:
            value, decimals = float(text), len(text.partition(".")[2])
        except ValueError:
            value, decimals = None, 0
        return Cell(row, column, text, 0, 0, value=value, decimals=decimals)

    grid = [[cell(r, c, text) for c, text in enumerate(row)] for r, row in enumerate([header, *rows])]
    return Table(grid, 0, 0, "tabular", header_rows=1)


def test_siunitx_percent_is_a_percentage():
    [(_, _, low, high)] = stated_ranges(r"accuracies ranged from 35 \percent to 95 \percent")
    assert (low, high) == (End(35.0, 0, True), End(95.0, 0, True))


def test_a_plain_gain_is_read_with_its_unit():
    def read(text: str) -> list[tuple[End, bool, bool]]:
        return [(gain.stated, gain.relative, gain.difference) for gain in stated_gains(text)]

    # Points of any spelling are a difference; a percentage is either, unless "relative" or "absolute" says which.
    assert read("improves over Prior by 1.9 points") == [(End(1.9, 1, False), False, True)]
    assert read("surpasses Base by 4.1 accuracy points on D") == [(End(4.1, 1, False), False, True)]
    assert read("a 3.2-point gain over Y") == [(End(3.2, 1, False), False, True)]
    assert read("lowers it by 6.6 pp and by 3 percentage points") == [(End(6.6, 1, False), False, True), (End(3.0, 0, False), False, True)]
    assert read("beats Y by 2.3%") == [(End(2.3, 1, True), True, True)]
    assert read("a 5% relative improvement") == [(End(5.0, 0, True), True, False)]
    assert read("a 5% absolute improvement") == [(End(5.0, 0, True), False, True)]
    assert read("is 1.9x faster than Y") == [(End(1.9, 1, False, times=True), False, False)]
    assert read("trained for 30 epochs on 2 GPUs") == []


def test_the_word_percent_is_a_percentage():
    [(_, _, low, high)] = stated_ranges("take-up fell by between 3 and 4.5 percent in every arm")
    assert (low, high) == (End(3.0, 0, True), End(4.5, 1, True))
    [(_, _, bound)] = stated_bounds("costs fell by up to 22 per cent")
    assert bound == End(22.0, 0, True)
    [(_, _, low, high)] = stated_ranges("between 3 and 5 percentiles")
    assert not low.percent and not high.percent  # a word that begins with "percent" is another unit


def test_a_percentage_keeps_its_sign_before_a_full_stop():
    [(_, _, low, high)] = stated_ranges("shares ran 1.5--40%.")
    assert (low, high) == (End(1.5, 1, True), End(40.0, 0, True))
    [(_, _, _, highest, words)] = stated_extremes("the highest accuracy, 92.15%.")
    assert highest and words == {"accuracy"}
    assert [value for _, _, value, *_ in stated_extremes("the highest accuracy, 92.15%.")] == [End(92.15, 2, True)]
    assert not list(stated_ranges("pages 12-34."))  # a range of bare numbers before a full stop is read as before: none
    assert not list(stated_ranges("versions 1.2-3.4.5"))


def test_summary_columns_need_a_min_and_a_max():
    table = _table(["Group", "Mean", "SD", "Min", "Max"], ["A", "4.50", "4.19", "0.00", "26.32"])
    assert statistic_columns(table) == {"mean": 1, "sd": 2, "min": 3, "max": 4}
    assert statistic_columns(_table(["Group", "Mean", "SD"], ["A", "4.50", "4.19"])) == {}
    assert statistic_columns(_table(["Model", "Mean absolute error", "Min", "Max"], ["A", "1.2", "0.1", "3.0"])) == {"min": 2, "max": 3}


def test_a_cell_gives_a_statement_rounded_either_way():
    sd = Cell(1, 1, "0.11", 0, 0, value=0.11, decimals=2)
    assert cell_gives(sd, End(11.0, 0, True))
    assert not cell_gives(sd, End(10.0, 0, True))
    assert cell_gives(Cell(1, 1, "0.92", 0, 0, value=0.92, decimals=2), End(92.15, 2, True))
    assert cell_gives(Cell(1, 1, "26.32", 0, 0, value=26.32, decimals=2), End(26.3, 1, False))


def test_a_tables_lines_leave_out_its_aggregates():
    table = _table(
        ["Method", "A", "B", "Avg."], ["X", "0.50", "0.70", "0.60"], ["Y", "0.30", "0.50", "0.40"], ["Mean", "0.40", "0.60", "0.50"]
    )
    lines = {line.name: [cell.text for cell in line.cells] for line in table_lines(table)}
    assert lines["the table (column A)"] == ["0.50", "0.30"]  # the Mean row summarises the column
    assert lines["the table (row X)"] == ["0.50", "0.70"]  # the Avg. column summarises the row
    assert [line.column for line in table_lines(table)] == [True, True, True, False, False, False]


def test_a_fraction_cell_reads_as_the_percentage_a_sentence_writes():
    cell = Cell(1, 1, "0.752", 0, 0, value=0.752, decimals=3)
    value, decimals = shown_as(cell, End(75.2, 1, True))
    assert abs(value - 75.2) < 1e-9 and decimals == 1
    assert holds(cell, End(75.2, 1, True)) and holds(cell, End(0.75, 2, False))
    assert not holds(cell, End(0.8, 1, False))  # two places fewer than the cell: a loose bound, not the cell


def test_scientific_notation_is_read_whole():
    # "up to 8×10^5 sequences" bounds a count, not a ratio of 8×; "10^3–10^5" spans 1000 to 100000, not 3 to 10.
    assert list(stated_bounds("we train on up to 8×10^5 sequences")) == []
    [(_, _, low, high)] = stated_ranges("sizes of 10^3–10^5 samples")
    assert (low, high) == (End(1000.0, 0, False), End(100000.0, 0, False))
    [(_, _, low, high)] = stated_ranges("rates between 10^-3 and 2.5×10^-1")
    assert (low, high) == (End(0.001, 3, False), End(0.25, 2, False))


def test_a_bound_of_every_group_reads_a_spelled_percentage_and_the_measure_its_clause_names():
    from auditex.analyzers.rules.numbers.every_value import _stated_in

    paragraph = "Table~\\ref{t} compares the arms. In no arm did more than three percent of borrowers refuse the loan."
    [(_, _, read)] = _stated_in(paragraph, ())
    bound = read(None)
    assert (bound.threshold, bound.none, bound.below) == (End(3.0, 0, True), True, False)
    assert bound.measure is not None and bound.measure.name == "refusal"
    # A measure named past the clause's end is another quantity's.
    [(_, _, read)] = _stated_in("Table~\\ref{t} lists it. In no run was the loss above 5%, while accuracy stayed high.", ())
    assert read(None).measure is None


def test_own_names_are_the_words_a_paper_writes_after_our():
    text = "Our mixture-of-interests models and our proposed M-LSTM model beat our baseline models; our measure of the model is MRR."
    assert own_names(text) == {"mixture-of-interests", "m-lstm"}


def test_own_blocks_pair_each_run_of_own_rows_with_the_other_rows_before_it():
    # SysID, L1, Ours | SysID, L1, Ours: one block per setting.
    assert own_blocks([1, 2, 3, 5, 6, 7], {3, 7}) == [([3], [1, 2]), ([7], [5, 6])]
    # Own rows first: the other rows after the last own run join its block.
    assert own_blocks([1, 2, 3], {1}) == [([1], [2, 3])]
    # No own row: no block.
    assert own_blocks([1, 2], set()) == []
