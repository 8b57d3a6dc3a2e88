"""How the tables family binds a "respectively" sentence's lists to a table's rows and columns."""

from auditex.analyzers.rules.tables.model import Grid
from auditex.analyzers.rules.tables.respectively import Pair, bind, stated_list
from auditex.latex.model import Cell, Table


def _cell(row: int, column: int, text: str, span: int = 1) -> Cell:
    try:
        value: float | None = float(text)
    except ValueError:
        value = None
    return Cell(row, column, text, 0, 0, value=value, column_span=span)


def _grid(header: list[list[tuple[str, int]]], body: list[list[str]]) -> Grid:
    rows = []
    for r, row in enumerate(header):
        column, cells = 0, []
        for text, span in row:
            cells.append(_cell(r, column, text, span))
            column += span
        rows.append(cells)
    rows += [[_cell(len(header) + r, c, text) for c, text in enumerate(row)] for r, row in enumerate(body)]
    return Grid.of(Table(rows, 0, 0, "tabular", header_rows=len(header), rules=((len(header), "midrule"),)))


CORRELATIONS = _grid(
    [[("", 1), ("Corpus-Level", 2), ("Sentence-Level", 2)], [("", 1), ("CoNLL", 1), ("SEEDA-S", 1), ("CoNLL", 1), ("SEEDA-S", 1)]],
    [["M2", "0.62", "0.61", "0.87", "0.79"], ["wordGREEN", "0.74", "0.92", "0.83", "0.92"], ["charGREEN", "0.78", "0.91", "0.83", "0.92"]],
)


def test_a_numbers_list_is_read_with_its_places_thousands_and_percent_signs():
    numbers = stated_list("The two sets hold 35,828 and 4,015 features, and 60%/51.5% of them, respectively.")
    assert [(number.text, number.value, number.decimals, number.percent) for number in numbers] == [
        ("60%", 60.0, 0, True),
        ("51.5%", 51.5, 1, True),
    ]
    assert [number.value for number in stated_list("It reaches 1.3, 42.7, and 95.4 respectively.")] == [1.3, 42.7, 95.4]
    assert stated_list("It reaches 1.3 on A and 42.7 on B.") == ()
    assert stated_list("A and B reach 81.2 ± 0.3 and 79.4 ± 0.2, respectively.") == ()  # means and spreads


def test_rows_pair_with_columns_one_to_one_and_a_named_group_narrows_each_columns():
    pairs = bind(CORRELATIONS, "wordGREEN and charGREEN perform the best on CoNLL-2014 and SEEDA, respectively, in corpus-level metrics.")
    assert pairs == [Pair(3, (1,)), Pair(4, (2,))]
    pairs = bind(CORRELATIONS, "wordGREEN and charGREEN reach 0.83 and 0.92 on sentence-level SEEDA-S, respectively.")
    assert pairs == [Pair(3, (4,)), Pair(4, (4,))]


def test_a_list_that_is_no_list_of_the_tables_names_binds_nothing():
    assert bind(CORRELATIONS, "wordGREEN is best on CoNLL, while charGREEN is best on SEEDA-S, respectively.") is None
    assert bind(CORRELATIONS, "The learning rates were 0.1 and 0.01, respectively.") is None
    assert bind(CORRELATIONS, "wordGREEN and charGREEN reach 0.74 and 0.78, respectively.") is None  # no column named
