"""A cheap look before a case-blind pattern: words every match of the pattern holds, found by `in`.

Python's `re` tries a case-blind alternation that opens with `\\b` at every position of a text; most
blocks hold none of its words, and `str.lower` with a few `in` tests costs a fraction of that. The
test is exact: beyond a letter's two cases the case-blind patterns match three letters as i or s (İ,
ı, ſ) that `str.lower` leaves otherwise, so a text holding one of them is always read.
"""

from __future__ import annotations

_ODD_CASES = ("\u0130", "\u0131", "\u017f")


def may_match(text: str, words: tuple[str, ...]) -> bool:
    """Whether a case-blind pattern every match of which holds one of `words` (lower case) may match `text`."""
    lowered = text.lower()
    return any(word in lowered for word in words) or (not text.isascii() and any(odd in text for odd in _ODD_CASES))
