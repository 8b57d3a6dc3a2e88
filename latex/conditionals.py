"""Which branch of which conditional a position of a LaTeX source sits in.

Two macro definitions in the two branches of `\\ifdraft … \\else … \\fi` (or in the true and false
arguments of `\\ifbool{draft}{…}{…}`) are alternatives TeX chooses between, not a redefinition.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from types import MappingProxyType

from .deferred_pattern import DeferredPattern
from .source import COMMENT

# A branch TeX never takes (the body of \iffalse, the \else of \iftrue).
NEVER = -1

# Conditionals that take their branches as brace arguments: etoolbox, ifthen and the kernel's.
_BRACED = frozenset(
    """
ifthenelse ifbool ifboolexpr ifboolexpe iftoggle notbool nottoggle ifdef ifundef ifcsdef ifcsundef ifdefmacro ifcsmacro
ifdefparam ifcsparam ifdefprotected ifdefltxprotect ifdefempty ifcsempty ifdefvoid ifcsvoid ifdefequal ifcsequal
ifdefstring ifcsstring ifdefstrequal ifcsstrequal ifdefcounter ifltxcounter ifdeflength ifdefdimen ifstrequal
ifstrempty ifblank ifnumcomp ifnumequal ifnumgreater ifnumless ifnumodd ifdimcomp ifdimequal ifdimgreater ifdimless
ifinlist ifinlistcs ifentrycited
""".split()
)
_PRIMITIVES = frozenset(
    "if ifx ifnum ifdim ifcat ifodd ifcase ifdefined ifcsname iffalse iftrue ifmmode ifvmode ifhmode ifinner ifvoid ifhbox ifvbox ifeof".split()
)
_MAX_BRANCH_ARGUMENTS = 5
# A name that declares or aliases a conditional is not one: \newif\ifdraft, \let\ifdraft\iftrue, \def\ifempty#1{…}.
_DECLARATION = DeferredPattern(
    r"\\(?P<command>newif|[gex]?def|providecommand|newcommand|renewcommand)[ \t]*\{?[ \t]*\\(?P<name>(?:if|If|@if)[A-Za-z@]*)"
    r"|\\(?:global\s*\\)?let\s*\\[A-Za-z@]+\s*=?\s*\\[A-Za-z@]+"
)
# `\if0 … \fi`, the authors' way to write `\iffalse`: 0 against the body's first token, which a letter never equals.
_IF_ZERO = DeferredPattern(r"[ \t]*0[ \t]*(?:\n|[ \t]*[A-Za-z\\%])")
_CONTROL_SEQUENCE = DeferredPattern(r"\\[A-Za-z@]+")
_TOKEN = DeferredPattern(r"\\(?P<name>(?:if|If|@if)[A-Za-z@]*|notbool|nottoggle|else|or|fi)(?![A-Za-z@])")


def branch_paths(text: str, switches: Mapping[str, bool] = MappingProxyType({})) -> tuple[list[int], list[tuple[tuple[int, int], ...]]]:
    """The conditional path of every stretch of `text`: starts of the stretches, and for each the
    (ordinal of the conditional in the text, branch number) pairs enclosing it, outermost first.
    `switches` gives the value of `\\newif` switches the project sets once for all (`ifdraft`:
    False without `\\drafttrue`): TeX never takes their other branch."""
    masked = COMMENT.sub(lambda match: " " * len(match.group(0)), text)
    declarations = list(_DECLARATION.finditer(masked))
    declared = [(match.start(), match.end()) for match in declarations]
    newif = {match.group("name") for match in declarations if match.group("command") == "newif"} | set(switches)
    tokens = [token for token in _TOKEN.finditer(masked) if not any(start <= token.start() < end for start, end in declared)]
    kinds = [_kind(token.group("name"), newif, masked, token.end()) for token in tokens]
    # An \ifX nobody declared here is a switch declared elsewhere only if the \fi's need it:
    # `\ifb` is often the unit macro for inverse femtobarns.
    closing = sum(kind == "fi" for kind in kinds)
    unknown_open = closing > sum(kind == "open" for kind in kinds)
    stack: list[list[int]] = []  # [ordinal, branch, never-taken branch or -1]
    braced: list[tuple[int, int, int, int]] = []  # (start, end, ordinal, argument number) of braced branches
    starts: list[int] = [0]
    paths: list[tuple[tuple[int, int], ...]] = [()]
    ordinal = 0
    for token, kind in zip(tokens, kinds):
        name = token.group("name")
        if kind == "else":
            if stack:
                stack[-1][1] += 1
        elif kind == "fi":
            if stack:
                stack.pop()
        elif kind == "braced":
            ordinal += 1
            for number, (start, end) in enumerate(_brace_arguments(masked, token.end())):
                braced.append((start, end, ordinal, number))
            continue
        elif kind == "open" or unknown_open:
            ordinal += 1
            true = switches.get(name, True if name == "iftrue" else None)
            never = 0 if name == "iffalse" or (_IF_ZERO.match(masked, token.end()) and name == "if") or true is False else 1 if true else -1
            stack.append([ordinal, 0, never])
        else:
            continue
        starts.append(token.end())
        paths.append(tuple((entry[0], NEVER if entry[1] == entry[2] else entry[1]) for entry in stack))
    if not braced:
        return starts, paths
    # Braced branches add their own level to every stretch they cover.
    cuts = sorted({*starts, *(start for start, _, _, _ in braced), *(end for _, end, _, _ in braced)})
    merged = []
    for cut in cuts:
        enclosing = tuple((ordinal, number) for start, end, ordinal, number in braced if start <= cut < end)
        merged.append(paths[bisect_right(starts, cut) - 1] + enclosing)
    return cuts, merged


def _kind(name: str, switches: set[str], text: str, position: int) -> str:
    """else (\\else, \\or), fi, braced (\\ifbool{draft}{…}{…}: a known one, or an \\ifX directly
    followed by a brace that no \\newif declared), open (a primitive or declared conditional), or unknown."""
    if name in ("else", "or", "fi"):
        return "fi" if name == "fi" else "else"
    if name in _BRACED or name.startswith(("If", "@if")) or name in ("notbool", "nottoggle"):
        return "braced"
    if name in switches or name in _PRIMITIVES or name.startswith("if@"):
        return "open"
    return "braced" if text[position : position + 1] == "{" else "unknown"


def path_at(starts: list[int], paths: list[tuple[tuple[int, int], ...]], offset: int) -> tuple[tuple[int, int], ...]:
    return paths[bisect_right(starts, offset) - 1]


def _brace_arguments(text: str, position: int) -> list[tuple[int, int]]:
    """Spans of the brace groups (and single control sequences, \\ifdef\\x{…}{…}) that follow `position`."""
    arguments: list[tuple[int, int]] = []
    while len(arguments) < _MAX_BRANCH_ARGUMENTS:
        while position < len(text) and text[position] in " \t\n":
            position += 1
        if position >= len(text):
            break
        if text[position] == "{":
            end = group_end(text, position)
            if end is None:
                break
            arguments.append((position, end))
            position = end
        elif text[position] == "\\" and not arguments:
            control = _CONTROL_SEQUENCE.match(text, position)
            if control is None:
                break
            position = control.end()
        else:
            break
    return arguments


def group_end(text: str, start: int) -> int | None:
    """The offset after the brace that closes the group opened at `start`, however deep it nests
    (escaped braces aside); None when the text never closes it."""
    depth = 0
    for position in range(start, len(text)):
        character = text[position]
        if character == "{" and text[position - 1] != "\\":
            depth += 1
        elif character == "}" and text[position - 1] != "\\":
            depth -= 1
            if depth == 0:
                return position + 1
    return None
