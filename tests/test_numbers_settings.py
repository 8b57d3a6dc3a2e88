"""NUM023's reading: which numbers state a setting a run is set to, and what they set."""

import pytest

from auditex.analyzers.rules.numbers.settings import setting_subject
from auditex.latex.numbers import find_numbers


def _subject(sentence: str, written: str) -> tuple[str, ...]:
    (mention,) = [mention for mention in find_numbers(sentence) if mention.text == written]
    return setting_subject(mention)


@pytest.mark.parametrize(
    ("sentence", "written", "subject"),
    [
        ("Sinkhorn runtime (seconds) to reach a marginal error of 10^-2.", "10^-2", ("marginal", "error")),
        (
            "The table shows the runtime required to reach an error threshold of 10^-2.",
            "10^-2",
            ("runtime", "required", "error", "threshold"),
        ),
        ("We fine-tune the model with a learning rate of 0.0001.", "0.0001", ("learning", "rate")),
        ("The initial learning rate is 0.001 for all runs.", "0.001", ("learning", "rate")),
    ],
)
def test_settings_named_in_words_are_read_with_what_they_set(sentence, written, subject):
    assert _subject(sentence, written) == subject


@pytest.mark.parametrize(
    ("sentence", "written"),
    [
        ("Our model reaches an accuracy of 93.4% on ImageNet.", "93.4%"),  # a result, not a target the run goes until
        ("Panel (a) uses σ = 0.5 for the prior.", "0.5"),  # a symbol alone: one panel's setting among several
        ("We sweep the threshold over 0.1, 0.2, 0.3 and 0.4.", "0.2"),  # one of a list: a sweep
    ],
)
def test_other_numbers_set_nothing(sentence, written):
    assert _subject(sentence, written) == ()
