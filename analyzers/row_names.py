"""Whether a sentence's words name a table's row or column header, when the author writes the name in
another form than the header does.

A header is named by a sentence that holds each of its distinctive words (`name_words`), in any of the
forms authors write them: a plural for the header's singular ("martyrdom narratives" for the row
"Martyrdom Narrative"), the full word for the header's cut form ("received information from a doctor"
for the row "Received Info, Doctor"), and a model family for its one variant written with hyphens ("LLaMA-2"
for the row "LLaMA-2-7B-chat"). The sentence's side is widened once per sentence (`spoken`), each header
word's side once per word (`_spellings`), so naming stays a set lookup; the wider forms serve only to name a
header whole, never a partial tie. A short form that names two rows ("LLaMA-2" beside "LLaMA-2-7B" and
"LLaMA-2-13B") is left to the rules, which bind a sentence only to the one row it names.
"""

from __future__ import annotations

import functools
from collections.abc import Set as AbstractSet

# A header word cut short keeps at least this many letters ("Info", "Deg"), and the word it cuts two more:
# "mode" abbreviates nothing of "model".
_SHORTEST_CUT = 3
_CUT_AT_LEAST = 2


@functools.lru_cache(maxsize=1024)
def spoken(words: frozenset[str]) -> frozenset[str]:
    """A sentence's words with the forms a header may write them in: the singular or plural of each plain word,
    and the first letters of a long word that a header may cut it to ("info" of "information")."""
    return frozenset(form for word in words for form in _forms(word))


def names_header(words: AbstractSet[str], header_words: AbstractSet[str]) -> bool:
    """Whether a sentence's words (`name_words`) name every word of a header that has some, each in any form
    (see the module). Only a header named whole is named in another form: a word that merely shares a cut
    form with a header ("calibrated" and "MH-GAN (cal)") gives no partial tie."""
    if not header_words:
        return False
    return header_words <= words or _named_whole(frozenset(words), frozenset(header_words))


@functools.lru_cache(maxsize=8192)
def _named_whole(words: frozenset[str], header_words: frozenset[str]) -> bool:
    """Asked once per sentence and header: a sentence is matched against every cell of a row."""
    forms = spoken(words)
    return all(word in forms or not forms.isdisjoint(_spellings(word)) for word in header_words)


@functools.lru_cache(maxsize=8192)
def _forms(word: str) -> frozenset[str]:
    """A sentence word and the forms a header may write it in (see `spoken`)."""
    if not word.isalpha():
        return frozenset({word})
    forms = {word, *_inflections(word)}
    forms |= {word[:end] for end in range(_SHORTEST_CUT, len(word) - _CUT_AT_LEAST + 1)}
    return frozenset(forms)


@functools.lru_cache(maxsize=8192)
def _spellings(header_word: str) -> frozenset[str]:
    """A header word's other forms that name it: its singular or plural and, for a name written with hyphens
    ("llama-2-7b-chat"), its leading parts that keep a letter and a digit ("llama-2", "llama-2-7b") or stop before
    a size or version ("llama", "muse" of "muse-3b"); not a word's first part ("make" of "make-a-scene")."""
    forms = set(_inflections(header_word)) if header_word.isalpha() else set()
    parts = header_word.split("-")
    for end in range(1, len(parts)):
        short = "-".join(parts[:end])
        versioned = any(char.isdigit() for char in short) or parts[end][:1].isdigit()
        if versioned and len(short) >= _SHORTEST_CUT and any(char.isalpha() for char in short):
            forms.add(short)
    return frozenset(forms)


def _inflections(word: str) -> tuple[str, ...]:
    """The plural of a singular word, the singular of a plural one ("narratives", "studies" ↔ "study")."""
    if len(word) < 4 or word.endswith(("ss", "us", "is")):
        return ()
    if word.endswith("ies"):
        return (word[:-3] + "y",)
    if word.endswith("s"):
        return (word[:-1],)
    if word.endswith("y") and word[-2] not in "aeiou":
        return (word[:-1] + "ies",)
    return (word + "s",)
