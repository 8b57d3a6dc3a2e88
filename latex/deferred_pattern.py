"""A module-level regular expression compiled when it is first used, not at import.

The rules hold some five hundred module-level patterns and a check uses about three in five
of them: compiling the rest is a quarter of what the rules' modules cost at import. On its first
use a `DeferredPattern` compiles and keeps the compiled pattern's bound methods in its own
`__dict__`, where they shadow the methods below: every later `search`, `match` or `finditer` is an
attribute read, as on a compiled pattern, not a Python call more.

Many patterns a paper calls can match nowhere in it (a rule's cue words the paper never uses), so
a pattern first derives, from the standard library's parse of it, a literal every match must
contain; until a text contains that literal the pattern answers "no match" without compiling.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterator
from re import _parser  # type: ignore[attr-defined]  # the parser `re.compile` uses (Python 3.11+)
from typing import Any

_BOUND = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")

# A case-folded literal is not found by `in`; such patterns compile as before.
_FOLDING = re.IGNORECASE | re.LOCALE

# Items that match no text: a run of literals continues across them.
_ZERO_WIDTH = frozenset({_parser.AT, _parser.ASSERT, _parser.ASSERT_NOT})
_REPEATS = frozenset({_parser.MAX_REPEAT, _parser.MIN_REPEAT, _parser.POSSESSIVE_REPEAT})
_RUN_BREAK = ""


def _pieces(items: Any) -> Iterator[str]:
    """Each literal character every match of the parsed `items` contains, `_RUN_BREAK` between runs."""
    for op, argument in items:
        if op is _parser.LITERAL:
            yield chr(argument)
        elif op in _ZERO_WIDTH:
            continue
        elif op is _parser.SUBPATTERN and not argument[1] & _FOLDING:
            yield from _pieces(argument[3])
        elif op is _parser.ATOMIC_GROUP:
            yield from _pieces(argument)
        elif op in _REPEATS and argument[0] >= 1:
            # One repetition is required, but what joins it on either side is not known.
            yield _RUN_BREAK
            yield from _pieces(argument[2])
            yield _RUN_BREAK
        elif op is _parser.BRANCH:
            yield _RUN_BREAK
            yield functools.reduce(_longest_common_substring, map(_longest_run, argument[1]))
            yield _RUN_BREAK
        else:
            yield _RUN_BREAK


def _longest_run(items: Any) -> str:
    """The longest literal every match of the parsed `items` contains ("" when none is known)."""
    runs = [""]
    for piece in _pieces(items):
        if piece:
            runs[-1] += piece
        else:
            runs.append("")
    return max(runs, key=len)


def _longest_common_substring(first: str, second: str) -> str:
    """The longest string inside both `first` and `second` (the first found when several tie)."""
    best = ""
    for start in range(len(first)):
        for end in range(len(first), start + len(best), -1):
            if first[start:end] in second:
                best = first[start:end]
                break
    return best


def required_literal(pattern: str, flags: int = 0) -> str:
    """A literal inside every match of `re.compile(pattern, flags)`, or "" when none is proven."""
    if flags & _FOLDING:
        return ""
    parsed = _parser.parse(pattern, flags)
    return "" if parsed.state.flags & _FOLDING else _longest_run(parsed)


class DeferredPattern:
    """`re.compile(pattern, flags)`, compiled on first use; `pattern` and `flags` are read without compiling."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern; the first call binds its methods in place of this class's."""
        compiled = re.compile(self.pattern, self.flags)
        vars(self).update({name: getattr(compiled, name) for name in _BOUND}, compiled=lambda: compiled)
        return compiled

    @functools.cached_property
    def literal(self) -> str:
        """What every match contains (see `required_literal`), derived on first use."""
        return required_literal(self.pattern, self.flags)

    def _cannot_match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> bool:
        # `re` clamps negative bounds to 0, where `str.find` would count them from the end.
        return bool(self.literal) and string.find(self.literal, max(pos, 0), max(endpos, 0)) < 0

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return None if self._cannot_match(string, pos, endpos) else self.compiled().search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return None if self._cannot_match(string, pos, endpos) else self.compiled().match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return None if self._cannot_match(string, pos, endpos) else self.compiled().fullmatch(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return iter(()) if self._cannot_match(string, pos, endpos) else self.compiled().finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return [] if self._cannot_match(string, pos, endpos) else self.compiled().findall(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return string if self._cannot_match(string) else self.compiled().sub(repl, string, count)

    def subn(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> tuple[str, int]:
        return (string, 0) if self._cannot_match(string) else self.compiled().subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return [string] if self._cannot_match(string) else self.compiled().split(string, maxsplit)
