"""siunitx's quantities read as printed: the numbers and units a reader sees."""

import pytest

from auditex.latex.numbers import find_numbers
from auditex.latex.parse import parse_chunk


def plain(latex: str) -> str:
    return parse_chunk(latex).blocks[0].plain.text


@pytest.mark.parametrize(
    ("latex", "printed"),
    [
        (r"\SI{35}{\percent}", "35 %"),
        (r"\qty{3}{\milli\second}", "3 ms"),
        (r"\SI{2.5}{\giga\hertz}", "2.5 GHz"),
        (r"\unit{\metre\per\second}", "m/s"),
        (r"\si{\kilo\gram\per\cubic\metre}", "kg/m³"),
        (r"\SI{9.8}{\metre\per\second\squared}", "9.8 m/s²"),
        (r"\SIrange{1}{5}{\percent}", "1 % to 5 %"),
        (r"\qtyrange{1}{5}{\mm}", "1 mm to 5 mm"),
        (r"\numrange{3}{7}", "3 to 7"),
        (r"\ang{30}", "30°"),
        (r"\SI{3}{\micro\metre}", "3 µm"),
        (r"\SI{2}{\px}", "2 px"),  # a unit the author declared prints its name
    ],
)
def test_quantities_print_as_siunitx_prints_them(latex, printed):
    assert plain(f"We see {latex} here.") == f"We see {printed} here."


def test_a_percentage_in_siunitx_is_read_as_a_percentage():
    text = plain(r"Accuracies ranged from \SI{35}{\percent} to \SI{95}{\percent}.")
    assert [(number.value, number.percent) for number in find_numbers(text)] == [(35.0, True), (95.0, True)]
