"""A module-level regular expression compiled when it is first used, not at import.

The rules hold some five hundred module-level patterns and a check uses about three in five
of them: compiling the rest is a quarter of what the rules' modules cost at import. On its first
use a `DeferredPattern` compiles and keeps the compiled pattern's bound methods in its own
`__dict__`, where they shadow the methods below: every later `search`, `match` or `finditer` is an
attribute read, as on a compiled pattern, not a Python call more.

Answering "no match" without compiling when a text lacks a literal every match needs was measured and
dropped: deriving the literals costs more than the few compiles it saves (benchmarks/README.md, tenth round).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

_BOUND = ("search", "match", "fullmatch", "finditer", "findall", "sub", "split")


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

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().fullmatch(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.compiled().finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.compiled().findall(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled().sub(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled().split(string, maxsplit)
