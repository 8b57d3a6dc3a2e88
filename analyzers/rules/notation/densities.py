"""Normal densities as a formula writes them: `f(x) = (2\\pi\\sigma^2)^{-1/2} \\exp(-(x-\\mu)^2 / 2\\sigma^2)`.

A density of x is read where a formula applies a function to x (`\\phi(h)`, `p(x \\mid \\theta)`) and then
takes the exponential (`\\exp`, a bare `exp`, `e^{…}`) of a lone fraction whose numerator squares the
difference of x and another term and whose denominator is twice a squared scale (`2\\sigma^2`,
`2\\sigma_1^2`, `2\\sigma^{*2}`). Its sign is the reading: without the minus the function grows without
bound in x and integrates to nothing. A positive square of a sum ("\\exp((\\mu+\\sigma^2)^2 / 2\\sigma^2)",
a factor left by completing the square) is no density of a variable and is not read.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE

# An exponential opening its argument: "\exp\left(", "exp[", "e^{".
_EXPONENTIAL = DeferredPattern(r"(?:\\exp|(?<![A-Za-z\\])exp|(?<![A-Za-z\\])e\s*\^)\s*(?:\\(?:left|bigg?|Bigg?)\s*)?(\\\{|[(\[{])")
_CLOSING = {"(": ")", "[": "]", "{": "}", "\\{": "\\}"}
_FRACTION = DeferredPattern(r"\s*\\[dt]?frac\s*")
# A numerator that squares a difference: "(x - \mu)^2", "\left(h - \mu^{*}\right)^{2}"; the first term is x.
_SQUARED_DIFFERENCE = DeferredPattern(
    r"\s*(?:\\left\s*)?\(\s*(?P<variable>(?:[A-Za-z]|\\[A-Za-z]+)(?:_\{?\w+\}?)?)\s*-[^()]*(?:\\right\s*)?\)\s*\^\s*\{?\s*2\s*\}?\s*"
)
# Twice a squared scale: "2\sigma^2", "2 \sigma_1^2", "2\sigma^{*2}", "2s^2".
_TWICE_SQUARED_SCALE = DeferredPattern(r"\s*2\s*(?:\\sigma|\\tau|s)\s*(?:_\{?\w+\}?)?\s*\^\s*\{?\s*\*?\s*2\s*\}?\s*(?:_\{?\w+\}?)?\s*")


@record(slots=True)
class SignlessDensity:
    start: int  # the exponential's, in the formula
    end: int  # its argument's closing bracket's end
    variable: str  # the x the formula applies a function to and squares the distance of


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def signless_densities(formula: str) -> tuple[SignlessDensity, ...]:
    """The normal densities of `formula` whose exponent lost its minus (see the module's docstring)."""
    if "frac" not in formula:
        return ()
    found = []
    for opening in _EXPONENTIAL.finditer(formula):
        argument_end = _closing(formula, opening.end(), opening.group(1))
        if argument_end is None:
            continue
        variable = _squared_distance_over_scale(formula[opening.end() : argument_end])
        if variable is not None and _applied_to(formula[: opening.start()], variable):
            found.append(SignlessDensity(opening.start(), argument_end + len(_CLOSING[opening.group(1)]), variable))
    return tuple(found)


def _squared_distance_over_scale(argument: str) -> str | None:
    """The x of an argument that is exactly "\\frac{(x - m)^2}{2\\sigma^2}", with no sign before it."""
    fraction = _FRACTION.match(argument)
    if fraction is None:
        return None
    numerator_end = _closing(argument, fraction.end() + 1, "{") if argument.startswith("{", fraction.end()) else None
    if numerator_end is None:
        return None
    rest = argument[numerator_end + 1 :]
    denominator_start = numerator_end + 1 + len(rest) - len(rest.lstrip())
    if not argument.startswith("{", denominator_start):
        return None
    denominator_end = _closing(argument, denominator_start + 1, "{")
    if denominator_end is None or argument[denominator_end + 1 :].replace("\\right", "").strip():
        return None  # more follows the fraction: not a lone exponent
    squared = _SQUARED_DIFFERENCE.fullmatch(argument[fraction.end() + 1 : numerator_end])
    if squared is None or not _TWICE_SQUARED_SCALE.fullmatch(argument[denominator_start + 1 : denominator_end]):
        return None
    return squared.group("variable")


def _applied_to(before: str, variable: str) -> bool:
    """Whether the formula, before its exponential, applies a function to `variable`: "\\phi(h) =", "p(x|\\theta)"."""
    symbol = re.escape(variable) + r"(?![A-Za-z_])"
    return re.search(rf"[A-Za-z}}]\s*(?:\\left\s*)?\(\s*{symbol}\s*(?:[)|;,]|\\mid)", before) is not None


def _closing(text: str, start: int, opening: str) -> int | None:
    """The index of the bracket closing the group `opening` opened just before `start` (nested alike)."""
    closing, depth, at = _CLOSING[opening], 1, start
    while at < len(text):
        if text[at] == "\\" and not text.startswith(opening, at) and not text.startswith(closing, at):
            at += 2  # an escaped bracket ("\{" inside a group of braces) is a set's, not the group's
            continue
        if text.startswith(opening, at):
            depth += 1
        elif text.startswith(closing, at):
            depth -= 1
            if depth == 0:
                return at
        at += len(opening) if text.startswith(opening, at) else len(closing) if text.startswith(closing, at) else 1
    return None
