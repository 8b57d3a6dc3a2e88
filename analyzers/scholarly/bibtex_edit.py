"""Where a field's value sits in a `.bib` entry, to rewrite it ("Replace with verified metadata")."""

from __future__ import annotations

import re
import unicodedata

from pylatexenc.latexencode import RULE_CALLABLE, UnicodeToLatexConversionRule, UnicodeToLatexEncoder

from ...latex.deferred_pattern import DeferredPattern
from ...latex.record import record

_FIELD = DeferredPattern(r"([A-Za-z][\w\-]*)\s*=\s*")


@record
class FieldSpan:
    name: str
    start: int  # the value (without its delimiters)
    end: int


def entry_extent(text: str, head: int) -> tuple[int, int] | None:
    """(offset after the opening brace, offset of the closing brace) of the entry starting at `head`."""
    at = text.find("@", head)
    if at == -1:
        return None
    opening = min((i for i in (text.find("{", at), text.find("(", at)) if i != -1), default=-1)
    if opening == -1:
        return None
    closer = "}" if text[opening] == "{" else ")"
    depth = 0
    for index in range(opening, len(text)):
        char = text[index]
        if char == "{" or (closer == ")" and char == "("):
            depth += 1
        elif char == "}" or (closer == ")" and char == ")"):
            depth -= 1
            if depth == 0:
                return opening + 1, index
    return None


def field_spans(text: str, head: int) -> tuple[dict[str, FieldSpan], int] | None:
    """The entry's fields (lower-case names) and where a new field may be inserted (before the closing brace)."""
    extent = entry_extent(text, head)
    if extent is None:
        return None
    start, end = extent
    body = text[start:end]
    spans: dict[str, FieldSpan] = {}
    position = body.find(",")  # after the key
    if position == -1:
        return spans, end
    while True:
        match = _FIELD.search(body, position)
        if match is None:
            break
        value_start = match.end()
        value_end, next_position = _value(body, value_start)
        if value_end is None:
            break
        delimited = body[value_start] in '{"' if value_start < len(body) else False
        spans[match.group(1).lower()] = FieldSpan(
            match.group(1).lower(), start + value_start + (1 if delimited else 0), start + value_end - (1 if delimited else 0)
        )
        position = next_position
    return spans, end


def _value(body: str, start: int) -> tuple[int | None, int]:
    if start >= len(body):
        return None, start
    if body[start] == "{":
        depth = 0
        for index in range(start, len(body)):
            depth += body[index] == "{"
            depth -= body[index] == "}"
            if depth == 0:
                return index + 1, index + 1
        return None, start
    if body[start] == '"':
        index = start + 1
        depth = 0
        while index < len(body):
            depth += body[index] == "{"
            depth -= body[index] == "}"
            if body[index] == '"' and depth == 0:
                return index + 1, index + 1
            index += 1
        return None, start
    match = re.compile(r"[^,}\n]*").match(body, start)
    end = match.end() if match else start
    return end, end


def _other_script(text: str, pos: int) -> tuple[int, str] | None:
    """Letters of non-Latin scripts stay as they are (pylatexenc would write Greek as math)."""
    char = text[pos]
    return (1, char) if char.isalpha() and not char.isascii() and "LATIN" not in unicodedata.name(char, "") else None


_TO_LATEX = UnicodeToLatexEncoder(
    conversion_rules=[UnicodeToLatexConversionRule(RULE_CALLABLE, _other_script, replacement_latex_protection="none"), "defaults"],
    non_ascii_only=False,
    replacement_latex_protection="braces-almost-all",
    unknown_char_policy="keep",
    unknown_char_warning=False,
)


def bibtex_value(text: str) -> str:
    """A plain value (an index's title or names, markup already removed) as BibTeX: LaTeX specials escaped
    (`\\&`, `\\%`, `\\_`, ...), accented letters as `{\\"o}`, so that BibTeX sorts and prints it."""
    return str(_TO_LATEX.unicode_to_latex(" ".join(text.split())))
