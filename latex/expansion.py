"""LaTeX source as a reader without the preamble needs it: comments gone, the author's macros expanded.

An LLM reads the source of a block (math intact) but not the preamble, so `\\R`, `\\E[X]` or a
`\\DeclareMathOperator{\\KL}{KL}` mean nothing to it unless they are expanded. `MacroTable` holds
the author's definitions as the index parsed them (`latex.model.MacroDef`) and expands them the
way TeX would for undelimited arguments: `#1`…`#9` take a braced group or one token each, and an
optional first argument (`\\newcommand{\\ket}[2][\\psi]`) a bracketed group or its default.
A `\\renewcommand` of a command the author never defined (`\\caption`, `\\section`) is left
alone: a reader knows that command by its name, and its new body is typesetting detail.
Expansion is bounded (passes and growth) so a recursive or exploding definition cannot hang it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import partial

from .conditionals import NEVER
from .deferred_pattern import DeferredPattern
from .model import MacroDef
from .record import record

# An unescaped %: an even number of backslashes (possibly none) before it.
_COMMENT = DeferredPattern(r"(?<!\\)((?:\\\\)*)%[^\n]*")
_PARAMETER = DeferredPattern(r"#(#|[1-9])")
_MAX_PASSES = 6  # macros that use macros that use macros …
_MAX_GROWTH = 4  # an expansion more than this many times its input stops expanding


def strip_comments(text: str) -> str:
    return _COMMENT.sub(r"\1", text)


@record(slots=True)
class Macro:
    arguments: int
    body: str
    optional: str | None  # the default of an optional #1; None: every argument is mandatory


class MacroTable:
    """The author's macros by name (without backslash), the definition TeX would use last."""

    def __init__(self, definitions: Iterable[MacroDef]) -> None:
        self.macros: dict[str, Macro] = {}
        for definition in definitions:
            if any(branch == NEVER for _, branch in definition.branch):
                continue
            name = definition.name.lstrip("\\")
            if not name.replace("@", "").isalpha() or (definition.command == "providecommand" and name in self.macros):
                continue
            if definition.command == "renewcommand" and name not in self.macros:
                continue
            body = strip_comments(definition.body)  # TeX drops them as it reads the definition
            if definition.command == "DeclareMathOperator":
                body = "\\operatorname{" + body + "}"
            self.macros[name] = Macro(min(definition.arguments, 9), body, definition.optional)
        names = sorted(self.macros, key=len, reverse=True)
        self._use = re.compile(r"\\(" + "|".join(map(re.escape, names)) + r")(?![A-Za-z@])") if names else None

    def expand(self, text: str) -> str:
        if self._use is None:
            return text
        limit = _MAX_GROWTH * len(text) + 1000
        for _ in range(_MAX_PASSES):
            expanded = self._pass(text)
            if expanded == text or len(expanded) > limit:
                break
            text = expanded
        return text

    def _pass(self, text: str) -> str:
        assert self._use is not None
        out: list[str] = []
        position = 0
        for use in self._use.finditer(text):
            if use.start() < position:  # inside the arguments of the previous use
                continue
            macro = self.macros[use.group(1)]
            arguments: list[str] = []
            end = use.end()
            if macro.optional is not None:
                given = _optional_argument(text, end)
                if given is None:
                    arguments.append(macro.optional)
                else:
                    arguments.append(given[0])
                    end = given[1]
            while len(arguments) < macro.arguments:
                argument = _argument(text, end)
                if argument is None:
                    break
                arguments.append(argument[0])
                end = argument[1]
            if len(arguments) < macro.arguments:
                continue  # not a use TeX could expand either: leave it
            out.append(text[position : use.start()])
            out.append(_PARAMETER.sub(partial(_substitute, arguments=arguments), macro.body))
            position = end
        out.append(text[position:])
        return "".join(out)


def _substitute(parameter: re.Match[str], *, arguments: list[str]) -> str:
    which = parameter.group(1)
    if which == "#":
        return "#"
    number = int(which)
    return arguments[number - 1] if number <= len(arguments) else parameter.group(0)


def _optional_argument(text: str, position: int) -> tuple[str, int] | None:
    """A bracketed argument at `position` (after spaces): (its text, where it ends); None when absent."""
    while position < len(text) and text[position] in " \t\n":
        position += 1
    if position >= len(text) or text[position] != "[":
        return None
    depth = 0
    for index in range(position + 1, len(text)):
        char = text[index]
        if char == "{" and text[index - 1] != "\\":
            depth += 1
        elif char == "}" and text[index - 1] != "\\":
            depth -= 1
        elif char == "]" and depth == 0:
            return text[position + 1 : index], index + 1
    return None


def _argument(text: str, position: int) -> tuple[str, int] | None:
    """One undelimited argument at `position`: (its text without braces, where it ends)."""
    while position < len(text) and text[position] in " \t\n":
        position += 1
    if position >= len(text) or text[position] == "}":
        return None
    if text[position] == "\\":
        name = re.match(r"\\(?:[A-Za-z@]+|.)", text[position:])
        assert name is not None  # a backslash always starts a control sequence
        return name.group(0), position + len(name.group(0))
    if text[position] != "{":
        return text[position], position + 1
    depth = 0
    index = position
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            return text[position + 1 : index], index + 1
        index += 1
    return None
