"""NUM023's and NUM024's reading: which numbers state a setting a run is set to, and what they set; which rows of a settings table set one."""

import pytest

from auditex.analyzers.rules.numbers.settings import hyperparameter, setting_subject, stated_hyperparameter
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


@pytest.mark.parametrize(
    ("key", "named"),
    [
        ("Batch size", ("batch_size", frozenset())),
        ("Base learning rate", ("learning_rate", frozenset())),  # a qualifier that leaves the setting what it is
        ("Number of training epochs", ("epochs", frozenset())),
        ("Discriminator learning rate", ("learning_rate", frozenset({"discriminator"}))),
        ("Batch Size Per GPU", ("batch_size", frozenset({"gpu"}))),
        ("Model EMA Momentum", ("momentum", frozenset({"model", "ema"}))),
        ("Optimizer", None),  # no hyperparameter of a number
        ("Learning rate / batch size", None),  # two: no one row's key
    ],
)
def test_a_settings_rows_key_names_its_hyperparameter_and_qualifiers(key, named):
    assert hyperparameter(key) == named


def _stated(sentence: str, written: str) -> str | None:
    """The hyperparameter the number `written` states; None when the reader reads no quantity there (an ordinal)."""
    mentions = [mention for mention in find_numbers(sentence) if mention.text == written]
    return stated_hyperparameter(mentions[0]) if mentions else None


@pytest.mark.parametrize(
    ("sentence", "written", "name"),
    [
        ("We train with a batch size of 64.", "64", "batch_size"),
        ("The learning rate is set to 1e-4.", "1e-4", "learning_rate"),
        ("We use lr=0.0003 throughout.", "0.0003", "learning_rate"),
        ("Each run lasts 20 epochs.", "20", "epochs"),
        ("We repeat every run with 5 random seeds.", "5", "seeds"),
        ("The model consists of 48 Transformer layers.", "48", "layers"),
        ("The number of training epochs is set to 20.", "20", "epochs"),
    ],
)
def test_a_prose_number_states_the_hyperparameter_named_next_to_it(sentence, written, name):
    assert _stated(sentence, written) == name


@pytest.mark.parametrize(
    ("sentence", "written"),
    [
        ("Attention distance gap between epoch 0 and epoch 4.", "0"),  # an epoch, not a count of them
        ("We refer to the 40th epoch checkpoint as the final model.", "40"),  # an ordinal
        ("The learning rate is reduced by 10 after 5 epochs.", "5"),  # a point of the schedule
        ("We observe that 24 of 34 layers are layer norms.", "34"),  # a part of a whole
        ("We sweep the batch size over 16, 32 and 64.", "32"),  # one of a list
    ],
)
def test_other_numbers_state_no_hyperparameter(sentence, written):
    assert _stated(sentence, written) is None
