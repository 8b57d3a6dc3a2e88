"""Rows and columns keyed by no word: punctuated keys ("(2,2,Y)", "k=5", "d=3, t=100"), symbols ("μ (meV)", "SD") and
letters of a series ("Device A"). `name_words` reads nothing of such a key, so a sentence names it only by writing it whole."""

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


# A header that is a symbol, its unit aside: "μ (meV)", "$g$", "SD", "T_c [K]"; one letter (Latin or Greek) with a
# subscript, or an abbreviation of up to three capitals ("SD", "OR"). A word ("Age", "age") is no symbol.
_SYMBOL = DeferredPattern(r"\$?\s*([A-Za-zΑ-Ωα-ωϵϑϕ](?:_\{?\w{1,6}\}?)?|[A-Z]{2,3})\s*\$?")
_UNIT = DeferredPattern(r"\s*[(\[]\s*([^()\[\]]{1,12}?)\s*[)\]]\s*$")
# The headers that spell out a statistic's symbol, as APA prose writes it: "M = 4.50, SD = 4.19" of the columns
# "Mean" and "SD".
_SPELLED_SYMBOLS = {
    "mean": "M",
    "sd": "SD",
    "std": "SD",
    "std. dev.": "SD",
    "standard deviation": "SD",
    "se": "SE",
    "standard error": "SE",
    "odds ratio": "OR",
}
# A prose symbol given a value: "μ = 1.4", "(M = 4.50", "g=90"; the symbol's own characters are not part of a word.
_STATED = DeferredPattern(r"(?<![\w\\^_,.])([A-Za-zΑ-Ωα-ωϵϑϕ](?:_\{?\w{1,6}\}?)?|[A-Z]{2,3})\s*=\s*$")
# A header keyed by one letter or a Roman numeral after its words ("Device A", "Sample B", "Site II"): `name_words`
# keeps only its words, which every header of the series shares, so a sentence names it only by writing it whole.
_LETTER_KEYED = DeferredPattern(r"[A-Za-z][A-Za-z-]*(?:\s+[A-Za-z][A-Za-z-]*)*\s+(?:[A-Z]|[IVX]{1,4})")


def header_symbol(header: str) -> tuple[str, str]:
    """The symbol a header is and the unit it gives in brackets ("μ (meV)" as ("μ", "meV"); "Mean" as "M"), or
    ("", "") for a header of words."""
    unit = _UNIT.search(header)
    bare = (header[: unit.start()] if unit else header).strip()
    spelled = _SPELLED_SYMBOLS.get(" ".join(bare.lower().split()))
    if spelled:
        return spelled, unit.group(1) if unit else ""
    symbol = _SYMBOL.fullmatch(bare)
    if symbol is None:
        return "", ""
    return symbol.group(1).replace("{", "").replace("}", ""), unit.group(1) if unit else ""


def stated_symbol(before: str) -> str:
    """The symbol a sentence gives the number that follows `before` ("… are g = 90, μ = " gives "μ"), or ""."""
    symbol = _STATED.search(before)
    return symbol.group(1).replace("{", "").replace("}", "") if symbol else ""


def letter_keyed(header: str) -> bool:
    """A header whose last word is a one-letter (or Roman numeral) key of a series: "Device A", "Site II"."""
    return _LETTER_KEYED.fullmatch(" ".join(header.split())) is not None
