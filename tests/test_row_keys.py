"""How a sentence names a row keyed by punctuation ("(2,2,Y)", "k=5"), which has no word to name it by
(latex/row_keys.py)."""

from auditex.latex.row_keys import header_key, header_symbol, letter_keyed, row_keys, stated_symbol
from auditex.latex.tables import read_number


def test_a_sentence_writes_a_key_whole_spaces_aside():
    assert row_keys("A notable example is (2,2,Y) for models of size 9") == {"(2,2,y)"}
    assert row_keys("with k = 5 and (0, 1, N) both") == {"k=5", "(0,1,n)"}


def test_numbers_alone_are_no_key():
    assert row_keys("in 2019, 2020 and 1/2 of the (0.5, 0.3) cases") == frozenset()


def test_a_key_inside_a_call_or_a_word_is_no_key():
    assert row_keys("f(2,2,Y) and x(a,b)") == frozenset()


def test_a_header_is_a_key_only_when_it_is_one_key_whole():
    assert header_key("(2,2,Y)") == {"(2,2,y)"}
    assert header_key("d=3, t=100") == {"d=3,t=100"}
    assert header_key("(2,2,Y) run") == frozenset()
    assert header_key("Width") == frozenset()


def test_a_cell_that_is_a_key_holds_no_number():
    assert read_number("(2,1,N)") is None
    assert read_number("K=20, LF=5") is None
    assert read_number("1,234") == (1234.0, 0, None, False)
    assert read_number("(0.5, 0.3)") == (0.5, 1, None, False)  # two numbers and no letter: no key


def test_a_header_is_a_symbol_with_its_unit_aside():
    assert header_symbol("μ (meV)") == ("μ", "meV")
    assert header_symbol("$g$") == ("g", "")
    assert header_symbol("T_{c} [K]") == ("T_c", "K")
    assert header_symbol("SD") == header_symbol("Std. dev.") == ("SD", "")
    assert header_symbol("Mean") == ("M", "")
    assert header_symbol("Age") == header_symbol("Device A") == ("", "")


def test_a_sentence_gives_a_symbol_the_number_after_its_equals_sign():
    assert stated_symbol("the fit of device A uses g = 90, μ = ") == "μ"
    assert stated_symbol("the most common (M = 4.50, SD = ") == "SD"
    assert stated_symbol("with an age of ") == stated_symbol("with age = ") == ""


def test_a_header_keyed_by_a_letter_is_one_of_a_series():
    assert letter_keyed("Device A") and letter_keyed("Site II")
    assert not letter_keyed("Hopelessness") and not letter_keyed("A")
