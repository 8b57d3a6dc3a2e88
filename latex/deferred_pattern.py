"""A module-level regular expression compiled when it is first used, not at import.

The rules hold some five hundred module-level patterns and a check uses about three in five
of them: compiling the rest is a quarter of what the rules' modules cost at import. On its first
use a `DeferredPattern` compiles and keeps the compiled pattern's bound methods in its own
`__dict__`, where they shadow the methods below: every later `search`, `match` or `finditer` is an
attribute read, as on a compiled pattern, not a Python call more.

Many patterns a paper calls can match nowhere in it (a rule's cue words the paper never uses), so
a pattern first derives, from the standard library's parse of it, literals of which every match
must contain one; until a text contains one the pattern answers "no match" without compiling.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterator
from re import _parser  # type: ignore[attr-defined]  # the parser `re.compile` uses (Python 3.11+)
from string import printable
from typing import Any

_BOUND = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")

_FOLDING = re.IGNORECASE | re.LOCALE
# The characters whose every case-insensitive match is a character whose lower case is theirs (the
# tests check all of Unicode): not "i" or "s", which also match "İ" and "ſ".
_FOLDS_TO_LOWER = frozenset(printable) - frozenset("iIsS")

# Items that match no text: a run of literals continues across them.
_ZERO_WIDTH = frozenset({_parser.AT, _parser.ASSERT, _parser.ASSERT_NOT})
_REPEATS = frozenset({_parser.MAX_REPEAT, _parser.MIN_REPEAT, _parser.POSSESSIVE_REPEAT})
_RUN_BREAK = ""
# Past this many alternatives, looking for each in a text costs more than the compile it may save.
_MOST_ALTERNATIVES = 12

Literals = frozenset[str]


def _pieces(items: Any, folded: bool) -> Iterator[str | Literals]:
    """What every match of the parsed `items` contains: its literal characters in order, `_RUN_BREAK`
    between runs, and the literals of an alternation (a match contains one of them).

    `folded`: the pattern ignores case, and each character is given in lower case if its every match
    lowers to it, else is a break.
    """
    for op, argument in items:
        if op is _parser.LITERAL:
            character = chr(argument)
            yield character if not folded else character.lower() if character in _FOLDS_TO_LOWER else _RUN_BREAK
        elif op in _ZERO_WIDTH:
            continue
        elif op is _parser.SUBPATTERN and (folded or not argument[1] & _FOLDING):
            yield from _pieces(argument[3], folded)
        elif op is _parser.ATOMIC_GROUP:
            yield from _pieces(argument, folded)
        elif op in _REPEATS and argument[0] >= 1:
            # One repetition is required, but what joins it on either side is not known.
            yield _RUN_BREAK
            yield from _pieces(argument[2], folded)
            yield _RUN_BREAK
        elif op is _parser.BRANCH:
            branches = [_required(branch, folded) for branch in argument[1]]
            yield _RUN_BREAK
            yield frozenset().union(*branches) if all(branches) else _RUN_BREAK
        else:
            yield _RUN_BREAK


def _required(items: Any, folded: bool) -> Literals:
    """The most selective literals of which every match of the parsed `items` contains one (none known: empty)."""
    candidates, run = [], ""
    for piece in _pieces(items, folded):
        if isinstance(piece, str) and piece:
            run += piece
            continue
        candidates += [frozenset({run}) if run else frozenset(), piece if isinstance(piece, frozenset) else frozenset()]
        run = ""
    candidates.append(frozenset({run}) if run else frozenset())
    best = max(candidates, key=_selectivity)
    return best if len(best) <= _MOST_ALTERNATIVES else frozenset()


def _selectivity(literals: Literals) -> tuple[int, int]:
    """Longer literals first, then fewer of them."""
    return min(map(len, literals), default=0), -len(literals)


def required_literals(pattern: str, flags: int = 0) -> tuple[Literals, bool]:
    """Literals of which every match of `re.compile(pattern, flags)` contains one (empty when none is proven),
    and whether the pattern ignores case: then they are in lower case, inside the lower case of a match."""
    if flags & re.LOCALE:
        return frozenset(), False
    parsed = _parser.parse(pattern, flags)
    folded = bool((flags | parsed.state.flags) & re.IGNORECASE)
    return _required(parsed, folded), folded


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
    def _literals(self) -> tuple[Literals, bool]:
        """What every match contains one of (see `required_literals`), derived on first use."""
        return required_literals(self.pattern, self.flags)

    def _cannot_match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> bool:
        literals, folded = self._literals
        if not literals:
            return False
        # `re` clamps negative bounds to 0, where slices would count them from the end.
        text = text[max(pos, 0) : max(endpos, 0)]
        if folded:
            text = text.lower()
        return not any(literal in text for literal in literals)

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
