"""NUM015's reading: which headers are log fold changes, and when a log fold change gives a stated fold."""

import re

import pytest

from auditex.analyzers.rules.numbers.fold_change import FOLD, LOG_FOLD, StatedFold


@pytest.mark.parametrize("header", ["L2FC", "(4) L2FC", "log2FC", "logFC", "LFC", "log2 fold change", "log_2 FC", "Log2(FC)", "log10 fold"])
def test_log_fold_headers_are_read(header):
    assert LOG_FOLD.search(header)


@pytest.mark.parametrize("header", ["Fold", "log-likelihood", "log loss", "Flow", "Fold change"])
def test_other_headers_are_not(header):
    assert not LOG_FOLD.search(header)


def _stated(sentence: str) -> StatedFold:
    found = FOLD.search(sentence)
    assert isinstance(found, re.Match)
    return StatedFold.of(0, sentence, 0, found)  # no block: only the numbers are read


def test_a_fold_holds_within_the_rounding_of_the_log_and_its_own():
    assert _stated("a 53-fold increase").gives(5.73, 2, 2.0)
    assert not _stated("a 256 fold increase").gives(7.99, 2, 2.0)  # 2^7.995 is 255.1
    assert _stated("a 4.3-fold decrease").gives(-2.10, 2, 2.0)  # a decrease writes a negative log


def test_an_approximate_fold_holds_within_a_tenth():
    assert _stated("about 7.5 times higher").gives(3.0, 1, 2.0)
    assert not _stated("7.5 times higher").gives(3.0, 1, 2.0)


def test_a_fold_needs_a_word_of_change_after_it():
    assert FOLD.search("a 3-fold increase") and FOLD.search("5 times more abundant")
    assert not FOLD.search("10-fold cross-validation") and not FOLD.search("repeated 5 times")
