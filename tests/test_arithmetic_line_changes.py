"""Changes a sentence states line by line of a table (analyzers/rules/arithmetic/line_changes.py)."""

from auditex.analyzers.rules.arithmetic.line_changes import attach, stated_percentages

HEADERS = ["", "Movielens", "Amazon", "Goodbooks"]


def _attached(sentence):
    return [(stated.percent.value, HEADERS[stated.line]) for stated in attach(sentence, stated_percentages(sentence), HEADERS)]


def test_each_percentage_takes_the_header_named_nearest():
    assert _attached("It beats the baseline on the Amazon dataset (69%), and by a smaller margin of 12% on Goodbooks.") == [
        (69, "Amazon"),
        (12, "Goodbooks"),
    ]


def test_points_bounds_and_sentences_without_a_change_are_not_read():
    assert stated_percentages("The gains are 8 points on Amazon and up to 30% on Goodbooks.") == ()
    assert stated_percentages("We hold out 20% of Amazon and 25% of Goodbooks.") == ()


def test_a_header_beyond_another_percentage_is_not_taken():
    assert _attached("Gains reach 5% and 7% on Amazon.") == [(7, "Amazon")]
