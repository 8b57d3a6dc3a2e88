"""What makes a number of a sentence a misquote of the cell it names (NUM013, NUM014): the cell as the sentence
would write it, how far from it a misquote may lie, and the words of a sentence whose numbers are derived."""

from __future__ import annotations

import re

# How far a misquote may lie from the cell it names: farther, the number is some other quantity.
NEAR = 0.25
# A sentence that compares or derives: its numbers are often differences or ratios of cells.
COMPARING_WORDS = (
    r"than|improv\w*|gain\w*|gap|differen\w*|increas\w*|decreas\w*|reduc\w*|drop\w*|boost\w*|outperform\w*|"
    r"relative|ratio|times|fold|margin|delta|vs\.?|versus|compared|up\s+to"
)


def comparing(*more: str) -> re.Pattern[str]:
    """A search for the comparing words, and `more`, as words."""
    return re.compile(rf"\b(?:{'|'.join((COMPARING_WORDS, *more))})\b", re.IGNORECASE)


def as_written(stated: float, percent: bool, value: float, places: int) -> tuple[float, int]:
    """A cell's value and places as a sentence stating `stated` writes it: a fraction cell quoted as a percentage
    times 100."""
    if percent and abs(value) <= 1 < abs(stated):
        return value * 100, max(places - 2, 0)
    return value, places


def near(stated: float, value: float) -> bool:
    """`stated` lies near enough to `value`, on its side of zero, to be a misquote of it."""
    return stated * value > 0 and abs(abs(stated) - abs(value)) <= NEAR * abs(value)
