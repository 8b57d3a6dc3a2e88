"""Numbers in scientific notation are one quantity each, in prose as in table cells (latex/numbers.py)."""

import pytest

from auditex.latex.numbers import Role, find_numbers, written_value
from auditex.latex.parse import parse_chunk
from auditex.latex.tables import read_number


def read(latex: str) -> list[tuple[str, float, int, Role]]:
    plain = parse_chunk(latex).blocks[0].plain.text
    return [(mention.text, mention.value, mention.decimals, mention.role) for mention in find_numbers(plain)]


@pytest.mark.parametrize(
    ("latex", "text", "value", "decimals"),
    [
        (r"We train on $8\times10^5$ of them.", "8×10^5", 8e5, 0),
        (r"We train on $1.1\cdot 10^{6}$ of them.", "1.1· 10^6", 1.1e6, 0),
        (r"The error is $3.2 \times 10^{-5}$ here.", "3.2 × 10^-5", 3.2e-5, 6),
        (r"The error is $1.5\,\times\,10^{6}$ here.", "1.5 × 10^6", 1.5e6, 0),
        (r"The rate is 3e-4 here.", "3e-4", 3e-4, 4),
        (r"The rate is 1.2E+5 here.", "1.2E+5", 1.2e5, 0),
        (r"The rate is $10^{-3}$ here.", "10^-3", 1e-3, 3),
        (r"The rate is $-2.5\times 10^{-2}$ here.", "-2.5× 10^-2", -2.5e-2, 3),
        (r"The ratio is $1 \times 10 ^{-4}$ here.", "1 × 10 ^-4", 1e-4, 4),
        (r"The learning rate is $3e^{-4}$ here.", "3e^-4", 3e-4, 4),
    ],
)
def test_a_number_in_scientific_notation_is_one_mention_with_its_value(latex, text, value, decimals):
    [(written, read_value, read_decimals, _)] = read(latex)
    assert (written.replace(" ", ""), read_decimals) == (text.replace(" ", ""), decimals)
    assert read_value == pytest.approx(value)


def test_its_role_is_read_from_the_words_around_it():
    [(_, value, _, role)] = read(r"We use up to $8\times10^5$ sequences.")
    assert (value, role) == (8e5, Role.BOUND)
    [(_, _, _, role)] = read(r"Training takes $\sim 10^6$ steps.")
    assert role is Role.APPROXIMATE
    # A whole number counts what follows it, however written; a fraction does not.
    assert [role for *_, role in read(r"It scatters $2 \times 10^4$ photons.")] == [Role.COUNT]
    assert [role for *_, role in read(r"It scatters $2 \times 10^{-4}$ photons.")] == [Role.VALUE]
    assert [role for *_, role in read(r"Rates range from $10^{-4}$ to $10^{-2}$ in steps of ten.")] == [Role.RANGE, Role.RANGE]
    assert [role for *_, role in read(r"We tried 1e-4, 1e-3, and 1e-2 as rates.")] == [Role.LISTED] * 3


def test_a_year_is_never_a_power_of_ten():
    [(_, value, _, role)] = read(r"It holds $2\times10^3$ records.")
    assert (value, role) != (2000.0, Role.YEAR)


def test_exponents_and_other_powers_are_no_quantities():
    # An exponent of a unit or of a symbol, and the base of a power of two, measure nothing.
    assert read(r"An area of 5 m$^2$ and $x^{3}$ with $2^{10}$ slots.") == [("5", 5.0, 0, Role.VALUE)]
    # A degree sign is no exponent: "40^∘S" is 40.
    assert [value for _, value, *_ in read(r"between $40^\circ$S and $65^\circ$S")] == [40.0, 65.0]
    # The e of a word or identifier is no exponent.
    assert [value for _, value, *_ in read(r"The 3e5a hash and 2E runs.")] == [3.0, 2.0]
    # A positive power after a caret is of Euler's e or of the electron's charge: "2e^2/h" is no 200.
    assert [value for _, value, *_ in read(r"a conductance of $2e^2/h$")] == [2.0]


def test_a_table_cell_reads_scientific_notation_as_prose_does():
    for text, value, decimals in (("8×10^5", 8e5, 0), ("3.4· 10^-8", 3.4e-8, 9), ("3e-4", 3e-4, 4)):
        cell_value, cell_decimals, _, _ = read_number(text)
        assert (cell_value, cell_decimals) == (pytest.approx(value), decimals)
        [mention] = find_numbers(f"It is {text} here.")
        assert (mention.value, mention.decimals) == (pytest.approx(value), decimals)


def test_a_number_as_written_is_read_by_the_same_parser():
    assert written_value("−8×10^5") == (-8e5, 0)
    assert written_value("10^-3") == (pytest.approx(1e-3), 3)
    assert written_value("0.25") == (0.25, 2)
