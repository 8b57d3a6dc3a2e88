"""How NUM016 reads the change of one cell against another (analyzers/rules/numbers/cell_changes.py)."""

from auditex.analyzers.rules.numbers.cell_changes import cell_change
from auditex.analyzers.rules.numbers.extents import End
from auditex.latex.model import Cell


def _cell(text: str, percent: bool = False) -> Cell:
    return Cell(0, 0, text, 0, 0, value=float(text), decimals=len(text.partition(".")[2]), percent=percent)


def test_points_are_a_difference_and_a_percentage_either():
    change = cell_change(_cell("60.2"), _cell("55.4"))  # 4.8 points, 8.7% of the baseline
    assert change.gives(End(4.8, 1, False), relative=False)
    assert not change.gives(End(8.7, 1, False), relative=False)
    assert change.gives(End(8.7, 1, True)) and change.gives(End(4.8, 1, True))
    assert not change.gives(End(4.8, 1, True), difference=False)  # "a 4.8% relative gain" is a share of the baseline


def test_fraction_cells_differ_in_percentage_points():
    change = cell_change(_cell("0.690"), _cell("0.653"))
    assert change.gives(End(3.7, 1, False), relative=False)
    assert not change.gives(End(5.2, 1, False), relative=False)
    # Cells printed as percentages have no points apart from their difference.
    assert cell_change(_cell("0.690", percent=True), _cell("0.653", percent=True)).points is None


def test_a_ratio_is_the_larger_cell_over_the_smaller():
    assert cell_change(_cell("0.12"), _cell("0.23")).gives(End(1.9, 1, False, times=True))


def test_a_percentage_may_be_the_ratio_less_one_as_a_speed_up_is_told() -> None:
    change = cell_change(_cell("93.4"), _cell("100.0"))
    assert change.gives(End(7.1, 1, False), speed=True)  # 100 / 93.4 = 1.071: "7.1% faster"
    assert change.gives(End(6.6, 1, False))  # a 6.6% shorter time
    assert not change.gives(End(9.0, 1, False), speed=True)
    # an error "reduced by 7.1%" is a share of the baseline's, not the ratio less one
    assert not change.gives(End(7.1, 1, False))
