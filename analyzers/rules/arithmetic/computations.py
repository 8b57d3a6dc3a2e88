"""Computations a paper writes out in math: numbers and operators set equal to their result.

"$640000 \\times 2.74 = 1753600$", "$\\frac{700}{40} = 17.5$", "$0.01 \\times (2.2377 - 0.3329) =
0.01905$": when every term of one side of an `=` is a written number, the reader can redo it. A
side is read from the LaTeX source of the math (the plain text loses `\\frac`), translated to an
arithmetic expression of numbers, `+ - × / ^`, parentheses and the functions `\\log`, `\\ln`,
`\\exp` and `\\sqrt`, and evaluated without `eval`; anything else (a comma, another function)
leaves the side unread. Where the writing leaves a meaning open, every meaning is tried, and the
first that gives the result is kept (else the usual one, for the message): `\\log` in base e, 10
or 2, a percentage as a fraction or as points (`$\\frac{1}{15} = 6.7\\%$`, `$40\\% \\times 2 = 80$`).
siunitx's `\\num{1.2e-3}` is a number. A symbol, subscripted or not, is read only where the same
paragraph gives it one number ("$\\alpha = 1\\%$ … $\\alpha (2.2377 - 0.3329) = 0.02571$"): a value
set once and used a few words on. The result may be rounded to its places (a whole result of a
division is a count, its floor or its ceiling), and each decimal input may itself be rounded: the
allowance adds what moving every input by half a unit in its last place moves the value.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable, Iterator
from decimal import Decimal
from functools import lru_cache
from itertools import pairwise

from ....latex.deferred_pattern import DeferredPattern
from ....latex.record import record
from ....latex.source import COMMENT
from ...memo import TEXT_CACHE_SIZE
from ...quantities import slack

# Inline and display math in a block's source.
_MATH = DeferredPattern(r"(?<!\\)\$\$?(?P<a>[^$]+)\$\$?|\\\((?P<b>.+?)\\\)|\\\[(?P<c>.+?)\\\]", re.DOTALL)
_DROPPED = DeferredPattern(r"\\left|\\right|\\[,!;: ]|~|\\displaystyle|\\big+[lr]?|\\Big+[lr]?")
_FRACTION = DeferredPattern(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_TIMES = DeferredPattern(r"\\times|\\cdot|×|·")
_POWER = DeferredPattern(r"\^\s*\{([^{}]*)\}|\^\s*(\d)")
# The result: thousands may be set apart as math sets them ("1{,}753{,}600", "1\,753\,600"), not by a bare comma.
_RESULT = DeferredPattern(
    r"\s*(?P<num>\\num\s*\{\s*)?(-?\d{1,3}(?:(?:\{,\}|\\,)\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)\s*(?(num)\})\s*(?P<percent>\\%)?\s*[,.;]?\s*"
)
_THOUSANDS = DeferredPattern(r"\{,\}|\\,")
# Functions a computation may apply, as the expression names them: `lg` and `lb` are the logarithms a
# subscript fixes (`\log_{10}`, `\log_2`), `log` one whose base the paper leaves to its field.
_FUNCTIONS: dict[str, Callable[[float], float]] = {
    "ln": math.log,
    "lg": math.log10,
    "lb": math.log2,
    "exp": math.exp,
    "sqrt": math.sqrt,
}
_LOG_BASES = ("ln", "lg", "lb")
_CALLABLE = "|".join(("log", *_FUNCTIONS))
_ARITHMETIC = DeferredPattern(r"(?:[\d.+\-*/()% ]|" + _CALLABLE + r")+")
_FIXED_LOG = DeferredPattern(r"\\log_\{?\s*(10|2|e)\s*\}?\s*")
_FUNCTION = DeferredPattern(r"\\(ln|log|exp|sqrt)(?![A-Za-z])\s*")
_SIUNITX_NUMBER = DeferredPattern(r"\\num\s*(?:\[[^\]]*\])?\s*\{\s*(\d+(?:\.\d+)?)(?:\s*e\s*([-+]?\d+))?\s*\}")
_DISPLAY_MARKUP = DeferredPattern(r"\\[\[\]]|\\(?:begin|end)\{[^{}]*\}|\\label\{[^{}]*\}|\\(?:nonumber|notag)\b|&")
_LINE = DeferredPattern(r"(?:[^\\]|\\(?!\\))+")  # up to a line break \\ of an align
_NUMBER = DeferredPattern(r"\d+(?:\.\d+)?")
_OPERATION = DeferredPattern(r"[\d)%]\s*[-+*/]|\b(?:" + _CALLABLE + r")\(")  # an operation: no lone negative number
# A symbol given a number in the paragraph's text: "$\\alpha = 0.01$", "$\\alpha=$1\\%", "$n = 50$", "$N_2 = 8192$",
# at the start of its math or of an item of it ("$k = 2, n = 5$"); not the first term of a computation ("$n = 2^{10}
# + 1$"), nor its last ("$f/N_2 = 0.61$"), nor a symbol that is a subscript or a function's argument.
_GREEK = (
    r"alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|kappa|lambda|mu|nu|xi|rho|sigma|tau|phi|varphi|chi|psi|omega"
    r"|Gamma|Delta|Theta|Lambda|Sigma|Phi|Psi|Omega"
)
_SYMBOL = r"(?:\\(?:" + _GREEK + r")(?![A-Za-z])|(?<![\\A-Za-z_^])[A-Za-z](?![A-Za-z]))(?:_(?:\{[\w\s]*\}|[A-Za-z0-9]))?"
_ASSIGNMENT = DeferredPattern(
    r"(?:(?<=\$)|(?<=\\\()|(?<=,)|(?<=;)|(?<=\\quad))\s*(?P<symbol>"
    + _SYMBOL
    + r")\s*=\s*\$?\s*(?P<number>-?\d+(?:\.\d+)?)\s*(?P<percent>\\%)?(?![\d.]|\s*[-+*/^(\\{])"
)
_SYMBOL_USE = DeferredPattern(_SYMBOL)
_CALL = DeferredPattern(r"(?<![\\A-Za-z][A-Za-z])(?<=[A-Za-z])\s*\(")  # "t(9)", "f(x)": a Latin letter before "(" names a function
_IMPLICIT_PRODUCT = DeferredPattern(r"(?<=[\d)%])\s*(?=\(|(?:" + _CALLABLE + r")\()|(?<=\))\s*(?=\d)")
_OPERATORS: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}


@record(slots=True)
class Computation:
    """One side of an `=` made of numbers alone, and the number on the other side."""

    side: str  # as written: "640000 \\times 2.74"
    expression: str  # as translated: "640000 * 2.74"
    value: float  # what the expression gives
    written: float  # the result as written
    written_text: str
    allowance: float
    start: int  # of the written result, in the source text given
    end: int
    symbols: tuple[str, ...] = ()  # read with the number the paragraph gives them
    percent: bool = False  # the result is written as a percentage: `value` is in hundredths

    @property
    def recomputes(self) -> bool:
        return abs(self.value - self.written) <= self.allowance


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def computations(source: str, display: bool = False) -> tuple[Computation, ...]:
    """Every computation of numbers alone that the math of this source text sets equal to a number;
    `display`: the whole text is a display environment, read line by line."""
    if "=" not in source:
        return ()
    # Comments and display markup are blanked, not removed, so that offsets stay the source's.
    source = COMMENT.sub(_blank, source)
    if display:  # an equation or align: read line by line
        lines = [(line.group(), line.start()) for line in _LINE.finditer(_DISPLAY_MARKUP.sub(_blank, source))]
    else:
        lines = [(math.group(name), math.start(name)) for math in _MATH.finditer(source) for name in "abc" if math.group(name) is not None]
    return tuple(found for text, offset in lines for found in _in_math(text, offset, source))


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _assigned(source: str) -> dict[str, str]:
    """The symbols the text gives one number each, with the digits written, so that a whole number stays
    exact and a decimal keeps its rounding ("$\\alpha = 1\\%$": "0.01"); one given two is left unread."""
    values: dict[str, set[str]] = {}
    for match in _ASSIGNMENT.finditer(source):
        number = str(Decimal(match.group("number")).scaleb(-2)) if match.group("percent") else match.group("number")
        values.setdefault(match.group("symbol"), set()).add(number)
    return {symbol: next(iter(numbers)) for symbol, numbers in values.items() if len(numbers) == 1}


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group())


def _in_math(text: str, offset: int, source: str) -> Iterator[Computation]:
    if re.search(r"\\approx|\\sim|\\simeq|\\pmod|\\bmod|\\mod", text):
        return
    sides = [(piece.start(), piece.group()) for piece in re.finditer(r"[^=]+", text)]
    for (_, left), (start, right) in pairwise(sides):
        result = _RESULT.fullmatch(right)
        expression, symbols = _read(left, source) if result is not None else (None, ())
        if result is None or expression is None or not _OPERATION.search(expression):
            continue
        written = result.group(2)
        percent = result.group("percent") is not None
        number = float(_THOUSANDS.sub("", written))
        rounding = slack(len(written.partition(".")[2]))
        if "." not in written and "/" in expression:
            rounding = 1 - 1e-6  # a whole result of a division is a count: its floor or its ceiling ("$m = n/D = 234$")
        found = _meant(expression, number, rounding, percent)
        if found is None:
            continue
        where = offset + start + result.start(2)
        reading, value, allowance = found
        yield Computation(" ".join(left.split()), reading, value, number, written, allowance, where, where + len(written), symbols, percent)


def _meant(expression: str, written: float, rounding: float, percent: bool) -> tuple[str, float, float] | None:
    """The first reading of the expression that gives the written result, else the first of all (a
    logarithm in base e, a percentage as a fraction), with its value and allowance (the rounding of
    the inputs and of the result). A result written as a percentage is the value in hundredths, or
    the value itself (points added up)."""
    found = []
    for reading in _readings(expression):
        value, moved = _evaluate(reading)
        if value is None:
            continue
        for scale in (100.0, 1.0) if percent else (1.0,):
            found.append((reading, value * scale, moved * scale + rounding + 1e-9 * abs(value * scale)))
    return next((read for read in found if abs(read[1] - written) <= read[2]), found[0] if found else None)


def _readings(expression: str) -> list[str]:
    """Each way the expression may be meant: a `log` in each base, a percentage as a fraction or as
    points (every one alike: a paper keeps one convention within a computation)."""
    logs = [expression.replace("log(", f"{base}(") for base in _LOG_BASES] if "log(" in expression else [expression]
    if "%" not in expression:
        return logs
    return [reading.replace("%", factor) for reading in logs for factor in ("*0.01", "")]


def _read(side: str, source: str) -> tuple[str | None, tuple[str, ...]]:
    """The side as an arithmetic expression, its symbols read with the numbers the source gives them
    (looked up only for a side with a symbol: most are numbers alone or none), and those symbols."""
    if result := _expression(side):
        return result, ()
    if _SYMBOL_USE.search(side) is None or "=" not in source:
        return None, ()
    known = _assigned(source)
    uses = [use for use in _SYMBOL_USE.finditer(side) if use.group() in known and not _CALL.match(side, use.end())]
    for use in reversed(uses):
        side = side[: use.start()] + f"({known[use.group()]})" + side[use.end() :]
    return _expression(side), tuple(dict.fromkeys(use.group() for use in uses))


def _expression(side: str) -> str | None:
    """The side as an arithmetic expression of numbers, or None when it holds anything else."""
    text = _DROPPED.sub(" ", side).replace("{,}", "").replace("\\%", "%")
    text = _SIUNITX_NUMBER.sub(lambda match: match.group(1) + (f"*10^{{{match.group(2)}}}" if match.group(2) else ""), text)
    text = _FUNCTION.sub(r"\1", _FIXED_LOG.sub(lambda match: {"10": "lg", "2": "lb", "e": "ln"}[match.group(1)], text))
    for _ in range(3):  # nested fractions, innermost first
        text = _FRACTION.sub(r"((\1)/(\2))", text)
    text = _POWER.sub(lambda match: f"**({match.group(1) or match.group(2)})", _TIMES.sub("*", text))
    text = text.replace("{", "(").replace("}", ")").replace("−", "-").strip()
    text = _IMPLICIT_PRODUCT.sub("*", text)  # "0.01(2.2 - 0.3)": a product
    return text if text and _ARITHMETIC.fullmatch(text) else None


def _evaluate(expression: str) -> tuple[float | None, float]:
    """The expression's value, and how far rounding each decimal input by half a unit can move it."""
    value = _value(expression)
    if value is None:
        return None, 0.0
    moved = 0.0
    for number in _NUMBER.finditer(expression):
        places = len(number.group().partition(".")[2])
        if places == 0 or len(number.group().replace(".", "").lstrip("0")) < 2:
            continue  # a whole number is a count, a one-digit one a setting (0.01, 0.5): exact as written
        nudged = expression[: number.start()] + repr(float(number.group()) + slack(places)) + expression[number.end() :]
        other = _value(nudged)
        moved += abs(other - value) if other is not None else 0.0
    return value, moved


def _value(expression: str) -> float | None:
    try:
        return _node(ast.parse(expression, mode="eval").body)
    except (SyntaxError, ZeroDivisionError, OverflowError, ValueError, TypeError):
        return None


def _node(node: ast.expr) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _node(node.operand)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS and len(node.args) == 1:
        return _FUNCTIONS[node.func.id](_node(node.args[0]))
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _node(node.left), _node(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > 64:
            raise OverflowError("too large a power to be a written computation")
        return _OPERATORS[type(node.op)](left, right)
    raise ValueError("not arithmetic")
