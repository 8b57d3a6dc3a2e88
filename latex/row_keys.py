"""Rows keyed by punctuation and no word ("(2,2,Y)", "k=5", "d=3, t=100"): `name_words` reads nothing of such a
key, so a sentence names the row only by writing the key whole, as the key's own word of the row and of the sentence."""

from __future__ import annotations

from .deferred_pattern import DeferredPattern

# A key: two or more letters or numbers joined by ",", "=" or "/", in parentheses or not.
_KEY = r"[A-Za-z0-9.]+(?:\s*[,=/][ \t]*[A-Za-z0-9.]+)+"
_ROW_KEY = DeferredPattern(rf"(?<![\w(,=/.])(?:\({_KEY}\)|{_KEY}(?![\w)=,/]))")


def row_keys(text: str) -> frozenset[str]:
    """The punctuated keys `text` writes, spaces dropped and lower-cased: "(2,2,Y)" as "(2,2,y)"."""
    keys = ("".join(match.group().split()).lower() for match in _ROW_KEY.finditer(text))
    return frozenset(key for key in keys if any(character.isalpha() for character in key))


def header_key(header: str) -> frozenset[str]:
    """A header that is one punctuated key ("(2,2,Y)") as the word a sentence writing it names (see `row_keys`)."""
    keys = row_keys(header)
    return keys if len(keys) == 1 and len(next(iter(keys))) == len("".join(header.split())) else frozenset()
