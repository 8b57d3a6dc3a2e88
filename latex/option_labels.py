"""Labels set through a command's key-value options.

Classes and packages define commands that label what they typeset from one of their
arguments: tcolorbox's `\\newtcbinputlisting{\\mylisting}[5]{…, label={#5}, …}`, a
`\\newcommand` wrapping `\\begin{tcolorbox}[label=#2]`. A use, `\\mylisting{…}{…}{…}{…}{lst:x}`,
then defines `lst:x` although no `\\label` is written.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from typing import Any

from .deferred_pattern import DeferredPattern
from .model import KeyUse

# `label={#5}` or `label=#2` in a definition's body. Whether a letter stands before it is asked of each
# match: a pattern that starts with a look-behind is tried at every offset of the text, 20 times slower.
_LABEL_OPTION = DeferredPattern(r"label\s*=\s*\{?\s*#([1-9])\s*\}?")
# The definition a body belongs to: `\newtcbinputlisting[…]{\mylisting}[5]`, `\newtcolorbox{box}[2]`, `\NewDocumentCommand{\x}`.
_DEFINITION = DeferredPattern(r"\\(?:new|renew|provide|New|Renew|Provide|Declare)[A-Za-z]*\s*(?:\[[^\]]*\]\s*)?\{\s*(\\?[A-Za-z@]+)\s*\}")
_NAME_CHARACTERS = frozenset(string.ascii_letters + "@")
# How far before its `label=` a definition's name may stand.
_BODY_CHARS = 2000


def label_setting_commands(
    texts: Iterable[str], kept: dict[object, Any] | None = None, live: dict[object, Any] | None = None
) -> tuple[tuple[str, bool, int], ...]:
    """(name, whether it is an environment, the argument that is the label) of every command or
    environment these texts define with a `label=#n` option. A text's definitions found by an earlier
    build (in `kept`, by the text) are not searched again: an edit re-reads the edited file alone.
    `live` hears every text's, for the next build."""
    found: dict[tuple[str, bool], int] = {}
    for text in texts:
        key = ("label-setting", text)
        defined = kept.get(key) if kept is not None else None
        if defined is None:
            defined = defined_in(text)
        if live is not None:
            live[key] = defined
        for name, environment, argument in defined:
            found.setdefault((name, environment), argument)
    return tuple(sorted((name, environment, argument) for (name, environment), argument in found.items()))


def defined_in(text: str) -> tuple[tuple[str, bool, int], ...]:
    """The label-setting definitions of one text, in their order."""
    if "label" not in text:
        return ()
    found = []
    for option in _LABEL_OPTION.finditer(text):
        if _within_name(text, option.start()):
            continue
        definitions = list(_DEFINITION.finditer(text, max(0, option.start() - _BODY_CHARS), option.start()))
        if definitions:
            name = definitions[-1].group(1)
            found.append((name.lstrip("\\"), not name.startswith("\\"), int(option.group(1))))
    return tuple(found)


def _within_name(text: str, start: int) -> bool:
    return start > 0 and text[start - 1] in _NAME_CHARACTERS


def option_label_uses(text: str, commands: tuple[tuple[str, bool, int], ...]) -> list[KeyUse]:
    """The labels the uses of `commands` in `text` define."""
    uses: list[KeyUse] = []
    for name, environment, argument in commands:
        opening = f"\\begin{{{name}}}" if environment else f"\\{name}"
        position = text.find(opening)
        while position != -1:
            after = position + len(opening)
            ends_name = environment or after >= len(text) or not (text[after].isalpha() or text[after] == "@")
            line_start = text.rfind("\n", 0, position) + 1
            if ends_name and not re.search(r"(?<!\\)%", text[line_start:position]):
                span = _argument(text, after, argument)
                if span is not None:
                    key = text[span[0] : span[1]].strip()
                    if key and "#" not in key:
                        start = span[0] + text[span[0] : span[1]].index(key)
                        uses.append(KeyUse(name, key, start, start + len(key), "other"))
            position = text.find(opening, after)
    uses.sort(key=lambda use: use.start)
    return uses


def _argument(text: str, position: int, number: int) -> tuple[int, int] | None:
    """The span inside the braces of the `number`th mandatory argument from `position` (optional
    `[…]` arguments skipped), or None when the use does not have that many."""
    count = 0
    while position < len(text):
        while position < len(text) and text[position] in " \t\r\n":
            position += 1
        if position >= len(text) or text[position] not in "{[":
            return None
        close = _matching(text, position)
        if close is None:
            return None
        if text[position] == "{":
            count += 1
            if count == number:
                return position + 1, close
        position = close + 1
    return None


def _matching(text: str, opening: int) -> int | None:
    pairs = {"{": "}", "[": "]"}
    open_char, close_char = text[opening], pairs[text[opening]]
    depth = 0
    for position in range(opening, min(len(text), opening + 20_000)):
        character = text[position]
        if character == open_char and (position == opening or text[position - 1] != "\\"):
            depth += 1
        elif character == close_char and text[position - 1] != "\\":
            depth -= 1
            if depth == 0:
                return position
    return None
