"""How a sentence names a row of a table: by all of the row's distinctive words, or "our method" for a row "Ours"."""

from __future__ import annotations

import re

from ....latex.deferred_pattern import DeferredPattern
from ...quantities import name_words
from ...row_names import names_header

# "Our method", "our proposed approach", "our PL-based detector": up to two words of its own before the noun, none
# that makes it another of the author's rows ("our baseline model", "our previous method"); "the proposed method" too,
# unless another's ("previously proposed", "the method proposed by").
OURS = DeferredPattern(
    r"\b(ours|(?:our|(?<!previously\s)(?<!recently\s)(?<!originally\s)proposed)\s+"
    r"(?!(?:[\w-]+\s+){0,2}?(?:baseline|previous|earlier|prior|original)\b)(?:[\w-]+\s+){0,2}?"
    r"(?:method|model|approach|framework|system|algorithm|detector|network|agent|pipeline|architecture|technique)s?)\b",
    re.IGNORECASE,
)


def names_row(header: str, words: set[str], ours: bool) -> bool:
    """A sentence names this row: all of its distinctive words, in any form `row_names` reads, or "our method" for an
    "Ours" row."""
    header_words = name_words(header)
    return (
        names_header(words, header_words)
        or (ours and bool(re.search(r"\bours\b", header, re.IGNORECASE)))
        or (_hyphenated(words, header_words) and names_header(_unhyphenated(words), _unhyphenated(header_words)))
    )


def _hyphenated(*groups: set[str]) -> bool:
    return any("-" in word for words in groups for word in words)


def _unhyphenated(words: set[str]) -> set[str]:
    """Words as they are written closed up: "fine-tuned" names a row "Finetuned", "Pre-trained" the words "pretrained"."""
    return {word.replace("-", "") for word in words}
