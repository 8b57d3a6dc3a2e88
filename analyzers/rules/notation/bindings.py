"""How a formula binds its symbols: the index of a sum, product or set, and the indexed symbols under an
operator ("\\sum_{(\\bs{p}^j, \\bs{n}^j) \\in P_v}"); and which bound symbol its formula writes under another name."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from ....latex.conditionals import group_end
from ....latex.deferred_pattern import DeferredPattern
from ...memo import TEXT_CACHE_SIZE


class RenamedBound(NamedTuple):
    """A symbol a formula binds and never writes after, and the unbound symbol of its kind written in its place."""

    start: int  # the bound symbol, in the formula's LaTeX
    end: int
    bound: str  # as the binding writes it: "\\bs{n}^j", "k"
    written: str  # what the formula writes instead: "d^j", "\\alpha_j"


# The operators that bind a variable under them: sums, products, unions, extrema, integrals, expectations.
_BINDER = DeferredPattern(
    r"\\(?P<operator>sum|prod|coprod|bigcup|bigcap|bigoplus|int|oint|max|min|sup|inf|argmax|argmin|mathbb\s*\{E\}|E|EE|Exp)"
    r"(?![A-Za-z])\s*(?:\\(?:no)?limits\s*)?_\s*(?:\{|(?P<letter>[a-z])(?![A-Za-z]))"
)
# Whose index is a dummy the formula under them writes: a sum of terms that ignore its index is a slip.
_OVER_AN_INDEX = frozenset({"sum", "prod", "coprod", "bigcup", "bigcap", "bigoplus"})
# One symbol and its index: a letter, a command (\theta), or a letter in a font or accent (\bs{p}, \mathbf x),
# then one lower-case letter as its sub- or superscript ("x_i", "\bs{p}^j", "y^{(i)}").
_FONT = r"\\(?:mathbf|mathbfit|bm|bs|boldsymbol|mathrm|mathit|mathsf|vec|hat|tilde|bar|mathcal)"
_INDEXED_SYMBOL = DeferredPattern(
    rf"(?P<symbol>{_FONT}\s*(?:\{{\s*\\?[A-Za-z]+\s*\}}|\s[A-Za-z]|\\[A-Za-z]+)|\\[A-Za-z]+|(?<![A-Za-z\\])[A-Za-z])"
    r"\s*[_^]\s*(?:\{\s*\(?(?P<braced>[a-z])\)?\s*\}|(?P<bare>[a-z])(?![A-Za-z]))"
)
# A binding of indexed symbols to a set or a distribution: "(\bs{p}^j, \bs{n}^j) \in P_v", "x_i \sim D".
_SYMBOLS_BOUND = DeferredPattern(
    r"\s*(?:\\left\s*)?\(?(?P<elements>[^{}()]*?(?:\{[^{}]*\}[^{}()]*?)*)(?:\\right\s*)?\)?\s*\\(?:in|sim)(?![A-Za-z])"
)
# A binding of an index: "i=1", "k \in K", a lone "k".
_INDEX_BOUND = DeferredPattern(r"\s*(?P<index>[a-z])\s*(?:=|\\in(?![A-Za-z])|$)")
# A letter in a sub- or superscript, where an index sits: "\mu_j", "R_n^m", "w^{i}".
_SCRIPT_LETTER = DeferredPattern(r"[_^]\s*\{?\s*\(?(?P<letter>[a-z])(?![A-Za-z])")
# What ends the term under an operator: a relation or a line of an alignment, at the operator's own depth.
_TERM_END = DeferredPattern(r"[=<>&]|\\\\|\\(?:[lg]eq?|[lg]eqslant|approx|simeq|equiv|propto|ll|gg|quad|qquad)(?![A-Za-z])")
# Text, names and references, and command names: no letter of theirs is a symbol.
_NOT_SYMBOLS = DeferredPattern(r"\\(?:text\w*|mathrm|operatorname|mbox|label|tag|ref|eqref|begin|end)\*?\s*\{[^{}]*\}|\\[A-Za-z]+")
_COMMENT = DeferredPattern(r"(?<!\\)%[^\n]*")
_LONE_LETTER = DeferredPattern(r"(?<![A-Za-z])([A-Za-z])(?![A-Za-z])")
_APPLIED = DeferredPattern(r"\s*\(")
# A set of indexed members: "\{x^t\}_{t=0}^{T-1}", "\{\mathbf{x}_i\}_{i \in [N]}".
_INDEXED_SET = DeferredPattern(
    r"\\\{(?P<members>(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*?)\\\}\s*_\s*\{?\s*(?P<index>[a-z])\s*(?:=|\\in(?![A-Za-z]))"
)
# Inline formulas of a paragraph: "$…$" and "\(…\)".
_INLINE_FORMULA = DeferredPattern(r"(?<![\\$])\$(?!\$)(?P<dollar>(?:[^$\\]|\\.)+)\$|\\\((?P<paren>.+?)\\\)", re.S)
_UPPER_LIMIT = DeferredPattern(r"\s*\^\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9]+)")


def _indexed(text: str) -> tuple[str, str] | None:
    """A symbol written with an index, as (the symbol without spaces or braces, its index)."""
    match = _INDEXED_SYMBOL.fullmatch(text.strip())
    if match is None:
        return None
    return "".join(ch for ch in match.group("symbol") if ch not in "{} \t\n"), match.group("braced") or match.group("bare")


def _term_end(text: str, start: int) -> int:
    """Where the term from `start` ends: its first relation or alignment at depth 0, or the group around it closing."""
    depth = 0
    for position in range(start, len(text)):
        character = text[position]
        if character in "{}":
            depth += 1 if character == "{" else -1
            if depth < 0:
                return position
        elif depth == 0 and _TERM_END.match(text, position) is not None and text[position - 1 : position] != "\\":
            return position
    return len(text)


class _Bound(NamedTuple):
    start: int  # in the display's LaTeX
    end: int
    written: str  # as the binding writes it
    symbol: str  # without spaces or braces: "\\bs{n}" is "\\bsn"
    indexed_by: str  # its index letter; "" for an index itself


class _Binding(NamedTuple):
    term: tuple[int, int]  # the formula under the operator, or a set's members
    reach: int  # the end of what the binding covers: the display's end, or the set's
    over_index: bool  # the operator's index is a dummy of its term
    bound: tuple[_Bound, ...]


def _bindings(text: str) -> list[_Binding]:
    """The formula's bindings this reads: an index under a sum or product or of a set ("\\{x_i\\}_{i=1}^N"), or
    indexed symbols under any operator."""
    bindings = [
        _Binding(
            (found.start("members"), found.end("members")),
            found.end("members"),
            True,
            (_Bound(*found.span("index"), found.group("index"), found.group("index"), ""),),
        )
        for found in _INDEXED_SET.finditer(text)
    ]
    for binder in _BINDER.finditer(text):
        over_index = binder.group("operator") in _OVER_AN_INDEX
        if letter := binder.group("letter"):  # "\\sum_k"
            index_bound = (_Bound(binder.end() - 1, binder.end(), letter, letter, ""),)
            bindings.append(_Binding((binder.end(), _term_end(text, binder.end())), len(text), over_index, index_bound))
            continue
        closed = group_end(text, binder.end() - 1)
        if closed is None:
            continue
        end = closed - 1  # the binding's closing brace
        upper = _UPPER_LIMIT.match(text, end + 1)  # the upper limit is no part of the term
        after = upper.end() if upper else end + 1
        term = (after, _term_end(text, after))
        if (index := _INDEX_BOUND.match(text[:end], binder.end())) is not None:
            letter = index.group("index")
            bindings.append(_Binding(term, len(text), over_index, (_Bound(*index.span("index"), letter, letter, ""),)))
        elif (symbols := _SYMBOLS_BOUND.match(text, binder.end(), end)) is not None:
            offset, bound = symbols.start("elements"), list[_Bound]()
            for element in symbols.group("elements").split(","):
                if (read := _indexed(element)) is None:  # a binding with a member this does not read is left whole
                    break
                left = offset + len(element) - len(element.lstrip())
                bound.append(_Bound(left, offset + len(element.rstrip()), element.strip(), *read))
                offset += len(element) + 1
            else:
                bindings.append(_Binding(term, len(text), True, tuple(bound)))
    return bindings


def formulas(latex: str, displayed: bool) -> Iterator[tuple[int, str]]:
    """A block's formulas with their offsets: the whole of a display, or each inline formula of a paragraph."""
    if displayed:
        yield 0, latex
        return
    for found in _INLINE_FORMULA.finditer(_COMMENT.sub(lambda match: " " * len(match.group(0)), latex)):
        group = "dollar" if found.group("dollar") is not None else "paren"
        yield found.start(group), found.group(group)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def renamed_bound_symbols(latex: str) -> tuple[RenamedBound, ...]:
    """The symbols a display binds that its formula never writes after the binding, where the term under the
    operator writes, in their place, one symbol of their kind that nothing in the display binds:
    "\\sum_{n=1}^N w^i \\delta(\\theta^i)" (the index n, the term indexed by i), "\\sum_{(\\bs{p}^j, \\bs{n}^j) \\in P_v}
    … d^j" (n^j bound, d^j written). The reader cannot tell what the written one ranges over."""
    text = _COMMENT.sub(lambda match: " " * len(match.group(0)), latex)
    bindings = _bindings(text)
    if not bindings:
        return ()
    names = _NOT_SYMBOLS.sub(lambda match: " " * len(match.group(0)), text)
    indices = {bound.symbol for binding in bindings for bound in binding.bound if not bound.indexed_by}
    # A letter the display writes outside any script, or applies ("Z_p … p(z)"), is a name, not an index.
    scripts = {match.start("letter") for match in _SCRIPT_LETTER.finditer(names)}
    named = {
        match.group(1) for match in _LONE_LETTER.finditer(names) if match.start(1) not in scripts or _APPLIED.match(text, match.end(1))
    }
    renamed = []
    for binding in bindings:
        (term_start, term_end), reach = binding.term, binding.reach
        if binding.bound[0].indexed_by:  # indexed symbols: one of them unwritten, one other symbol of its index in the term
            written = {
                (read, match.start()): match.group(0)
                for match in _INDEXED_SYMBOL.finditer(text, term_start)
                if (read := _indexed(match.group(0)))
            }
            unwritten = [bound for bound in binding.bound if not any(read == (bound.symbol, bound.indexed_by) for read, _ in written)]
            if len(unwritten) != 1:
                continue
            missing, symbols = unwritten[0], {bound.symbol for bound in binding.bound}
            strangers = sorted(
                {
                    "".join(as_written.split())
                    for ((symbol, index), at), as_written in written.items()
                    if at < term_end and index == missing.indexed_by and symbol not in symbols
                }
            )
        elif binding.over_index:  # an index: never written after, and one unbound index letter in the term
            missing = binding.bound[0]
            if missing.symbol in names[term_start:reach]:
                continue
            strangers = sorted({match.group("letter") for match in _SCRIPT_LETTER.finditer(names, term_start, term_end)} - indices - named)
        else:
            continue
        if len(strangers) == 1:
            renamed.append(RenamedBound(missing.start, missing.end, missing.written, strangers[0]))
    return tuple(renamed)
