"""How a sentence names a table's column by its number ("Column (1)", "model 2"), for NUM001."""

from auditex.analyzers.quantities import name_words
from auditex.analyzers.rules.numbers.model import CellPlace, TableCell
from auditex.analyzers.rules.numbers.numbered_columns import another_numbered_column, column_numbers, column_picked
from auditex.analyzers.rules.numbers.panels import panels_named
from auditex.latex.model import Cell, Table
from auditex.latex.tables import read_number


def _table(rows: list[list[str]], header_rows: int = 1) -> Table:
    cells = []
    for r, texts in enumerate(rows):
        row = [Cell(r, c, text, 0, 0) for c, text in enumerate(texts)]
        for cell in row:
            number = read_number(cell.text)
            if number is not None:
                cell.value, cell.decimals, cell.spread, cell.percent = number
        cells.append(row)
    return Table(cells, 0, 0, "tabular", header_rows)


def test_a_sentence_names_columns_by_their_number():
    assert "column 1" in name_words("Column (1) shows that the forced arm pays more")
    assert {"column 3", "column 4"} <= name_words("Results are in columns (3) and (4)")
    assert "column 2" in name_words("the first payment is 7.9% larger (col. 2)")
    assert not any(word.startswith("column ") for word in name_words("the column of ages (1) and (2)"))


def test_a_row_of_parenthesised_numbers_numbers_the_columns_below_it_and_a_panel_renumbers():
    table = _table(
        [
            ["", "Days", "Share"],
            ["", "(1)", "(2)"],
            ["Forced", "-13.8", "9.76"],
            ["", "(1.61)", "(2.74)"],
            ["", "(6)", "(7)"],
            ["Forced", "-0.071", "-4.12"],
        ]
    )
    numbers = column_numbers(table)
    assert (numbers[(2, 1)], numbers[(3, 2)], numbers[(5, 1)], numbers[(5, 2)]) == (1, 2, 6, 7)
    assert (1, 1) not in numbers  # the numbering row holds no results
    assert column_numbers(_table([["", "A", "B"], ["x", "(1)", "2.0"], ["y", "0.5", "(3)"]])) == {}


def _cell(value: float, *column_words: str) -> TableCell:
    return TableCell(
        value=value,
        decimals=3,
        text=str(value),
        label="tab:fit",
        row_words=frozenset({"r2", "marg"}),
        column_words=frozenset(column_words),
        named=False,
        aggregate=False,
        change=False,
        spread=False,
        ours=False,
        with_spread=False,
        describe="Table tab:fit",
        headers=("R2 marg", ""),
        place=CellPlace("main.tex", 0, 0, 0, 1),
        rounded=frozenset(),
        exact=frozenset(),
    )


def test_a_column_picked_by_its_number_excludes_the_rest_of_its_series():
    words = name_words("Adding demographic features in model 2 improves the r^2 to 0.56")
    model_2, model_3, pooled = _cell(0.582, "model 2"), _cell(0.564, "model 3"), _cell(0.564, "pooled")
    assert column_picked(words, model_2) and not column_picked(words, model_3)
    assert another_numbered_column(words, model_2, model_3)
    assert not another_numbered_column(words, model_2, pooled)  # not of the series: it may be quoted
    both = name_words("model 2 improves the r^2 to 0.56, and model 3 adds the trends")
    assert not another_numbered_column(both, model_2, model_3)  # the sentence names model 3 too


def test_a_sentence_names_the_panels_it_speaks_of():
    assert panels_named("As Panel A of Table 3 shows, the mean is .11") == {"A"}
    assert panels_named("panels B and C report the effects; Panels D–E the rest") == {"B", "C", "D", "E"}
    assert panels_named("the panel agrees, as Table 2 shows") == frozenset()
