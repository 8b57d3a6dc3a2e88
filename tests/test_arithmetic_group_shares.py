"""The arithmetic family's reading of a sample-characteristics table (group_shares.py): each column's N, its
"count (share)" cells, and the blocks of a variable's shares that add to 100%."""

from auditex.analyzers.rules.arithmetic.columns import Value
from auditex.analyzers.rules.arithmetic.group_shares import (
    block_shares,
    count_shares,
    group_sizes,
    row_percentage,
    row_shares,
    said_not_a_partition,
    share_blocks,
    share_column_runs,
    share_of,
    side_by_side,
    smaller_base,
    whole_missed,
)
from auditex.analyzers.rules.tables.model import Grid
from auditex.latex.model import Cell, Table
from auditex.latex.tables import read_cell_number


def _grid(rows: list[list[str]]) -> Grid:
    cells = [[Cell(r, c, text, 0, 0) for c, text in enumerate(row)] for r, row in enumerate(rows)]
    for row in cells:
        for cell in row:
            read_cell_number(cell)
    return Grid.of(Table(cells, 0, 0, "tabular", header_rows=1, rules=((1, "midrule"),)))


def _share(text: str) -> Value:
    return Value(float(text), len(text.partition(".")[2]), Cell(0, 0, text, 0, 0))


BASELINE = [
    ["", "Treatment (N=200)", "Control ($n = 180$)"],
    ["Female, n (%)", "96 (48.0)", "90 (55.0)"],
    ["Age group", "", ""],
    ["18--30", "40%", "35%"],
    ["31--50", "35%", "40%"],
    ["51+", "15%", "25%"],
]


def _sizes(rows: list[list[str]], notes: str = "") -> dict[tuple[int, int], tuple[int, str]]:
    return {place: (size.value, size.stated_in) for place, size in group_sizes(_grid(rows), notes).items()}


def test_a_cells_n_is_its_column_headers_else_the_size_row_above_else_the_captions_one_n():
    assert _sizes(BASELINE)[1, 1] == (200, "header") and _sizes(BASELINE)[5, 2] == (180, "header")
    stacked = [["", "n"], ["Total", "120"], ["Female", "60 (50.0)"], ["Total", "80"], ["Female", "40 (50.0)"]]
    assert _sizes(stacked) == {(2, 1): (120, "row"), (4, 1): (80, "row")}  # each sample under its own total
    unstated = [["", "n (%)"], ["Female", "60 (50.0)"], ["Male", "60 (50.0)"]]
    assert _sizes(unstated) == {}
    assert _sizes(unstated, "Participants (N = 1{,}200).") == {(1, 1): (1200, "caption"), (2, 1): (1200, "caption")}
    assert _sizes(unstated, "Site A (N = 120) and site B (N = 80).") == {}  # two Ns: neither is the table's


def test_a_count_beside_a_share_column_is_read_with_its_share():
    grid = _grid([["", "n", "%"], ["Total", "250", ""], ["Female", "130", "52"], ["Male", "120", "48"]])
    assert [(item.count, item.share.value, item.group) for item in count_shares(grid)] == [(130, 52, 1), (120, 48, 1)]
    assert share_blocks(grid) == [[2, 3]] and whole_missed(block_shares(grid, [2, 3], 2) or []) == 0


def test_a_share_is_its_count_of_the_group_rounded_or_truncated_or_as_a_proportion():
    assert share_of(96, 200, _share("48.0")) and not share_of(90, 180, _share("55.0"))
    assert share_of(131, 21587, _share("0.60"))  # 0.607%, truncated
    assert share_of(30, 120, _share("0.25"))  # a proportion
    assert [(item.count, item.share.value) for item in count_shares(_grid(BASELINE))] == [(96, 48.0), (90, 55.0)]


def test_a_smaller_base_gives_a_share_of_those_who_answered():
    assert smaller_base(70, 250, _share("30.0")) == 233
    assert smaller_base(90, 180, _share("55.0")) is None  # no whole base gives 55.0 of 90
    assert smaller_base(90, 180, _share("45.0")) is None  # below the count's share of N: no smaller base


def test_row_percentages_are_shares_of_the_rows_counts():
    grid = _grid([["", "A", "B"], ["Improved", "60 (60.0)", "40 (40.0)"]])
    assert row_percentage(grid, count_shares(grid)[0])


def test_a_variables_block_is_its_rows_under_a_title_and_adds_to_100_within_rounding():
    grid = _grid(BASELINE)
    assert share_blocks(grid) == [[3, 4, 5]]
    assert whole_missed(block_shares(grid, [3, 4, 5], 1) or []) == -10
    assert whole_missed(block_shares(grid, [3, 4, 5], 2) or []) == 0
    assert whole_missed([_share("33.3"), _share("33.3"), _share("33.3")]) == 0  # truncated thirds
    assert block_shares(grid, [1, 3], 1) is not None and block_shares(grid, [2, 3], 1) is None  # a title row has no share


def test_notes_that_allow_several_answers_or_leave_a_category_out_say_a_block_is_no_partition():
    grid = _grid(BASELINE)
    assert said_not_a_partition(grid, [3, 4, 5], "Participants could select all that apply.")
    assert said_not_a_partition(grid, [3, 4, 5], "Missing values are not shown.")
    assert not said_not_a_partition(grid, [3, 4, 5], "Baseline characteristics.")


def test_adjacent_share_columns_hold_a_rows_categories_side_by_side():
    grid = _grid(
        [
            ["Item", "Agree (%)", "Neutral (%)", "Disagree (%)", "n"],
            ["Fast", "40.0", "35.0", "25.0", "20"],
            ["Easy", "62.5", "25.0", "12.5", "16"],
        ]
    )
    assert share_column_runs(grid) == [[1, 2, 3]]
    assert whole_missed(row_shares(grid, 1, [1, 2, 3]) or []) == 0


def test_the_widest_part_of_a_run_across_which_the_rows_add_up_holds_the_categories():
    rows = [["Project", "TD (%)", "Design (%)", "Requirement (%)", "Other (%)"]]
    rows += [
        [name, td, design, requirement, other]
        for name, td, design, requirement, other in (
            ("Ant", "0.60", "72.51", "9.92", "17.55"),
            ("EMF", "0.41", "75.00", "15.38", "9.61"),
            ("JEdit", "1.50", "76.56", "5.46", "17.96"),
        )
    ]
    found = side_by_side(_grid(rows), [1, 2, 3, 4])
    assert found is not None and found[0] == [2, 3, 4] and sorted(found[1]) == [1, 2, 3]  # truncated to 99.98, 99.99
    accuracies = [["Method", "Acc (%)", "F1 (%)"], ["A", "81.2", "79.9"], ["B", "77.0", "75.1"], ["C", "60.1", "58.0"]]
    assert side_by_side(_grid(accuracies), [1, 2]) is None
