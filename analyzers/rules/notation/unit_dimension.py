"""NOT009: a symbol stated with a value in units of one dimension in most places and of another in one.

## How it decides
A statement is a symbol opening math (`$\\kappa`, `\\(T_c`), a relation (=, ≈, ∼, ≳, ≲, <, >, ≤, ≥)
and a value with its unit: siunitx's `\\SI{1.1e-2}{\\per\\second}` and `\\qty{…}{…}`, the units
package's `\\unit[10^{-3}]{s\\textsuperscript{-1}}`, or a number followed by `\\si{…}`, `\\unit{…}`,
`\\mathrm{…}` or `\\text{…}`. The symbol is its math tokens as written, white space aside, so
`\\kappa` and `\\kappa_0` are two symbols. Each unit is read into its dimension (`dimensions.py`): a
prefix or another unit of one dimension (ms and s, Hz and s⁻¹, eV and J) is a conversion, not a
change. A symbol stated twice or more with one dimension and once with another is flagged at that
one statement; a symbol of three dimensions or more, or two each stated once, is taken to be
redefined, and a unit this does not read (counts such as atoms/s) leaves its statement out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..drafts.model import unprinted
from .dimensions import Dimension, dimension

_ARGUMENT = r"[^{}]*(?:\{[^{}]*\}[^{}]*)*"  # a brace group's contents, one level of nesting
_NUMBER = r"-?\d+(?:\.\d+)?(?:\s*\\times\s*10\^\{?-?\d+\}?)?|10\^\{?-?\d+\}?"
_STATEMENT = DeferredPattern(
    r"(?:(?<=\$)|(?<=\\\())\s*(?P<symbol>\\?[A-Za-z]+(?:_\{[^{}$]{1,20}\}|_\\?[A-Za-z0-9]+)?)\s*"
    r"(?:=|\\approx|\\simeq|\\sim|\\gtrsim|\\lesssim|\\geq?|\\leq?|<|>)\s*(?:"
    rf"\\unit\s*\[[^\]]+\]\s*\{{(?P<units>{_ARGUMENT})\}}"
    rf"|\\(?:SI|qty)\s*\{{[^{{}}]+\}}\s*\{{(?P<siunitx>{_ARGUMENT})\}}"
    rf"|(?:{_NUMBER})\s*(?:\\[,;: ]|~)?\s*\\(?:si|unit|mathrm|text|rm)\s*\{{(?P<written>{_ARGUMENT})\}})"
)
# Commands that open math without naming a quantity.
_NOT_SYMBOLS = frozenset({"\\frac", "\\mathrm", "\\text", "\\left", "\\sum", "\\int", "\\log", "\\exp", "\\max", "\\min"})
_BASES = {"M": "kg", "L": "m", "T": "s", "K": "K", "I": "A", "N": "mol"}
_HINT = DeferredPattern(r"\\(?:unit|SI|qty|si|mathrm|text|rm)\b")


class _Statement(NamedTuple):
    symbol: str
    dimension: Dimension
    start: int  # in the block's LaTeX
    end: int


@violation_type
class UnitOfAnotherDimension(Violation):
    symbol: str
    here: str
    elsewhere: str
    times: int

    @property
    def message(self) -> str:
        return f"`{self.symbol}` is given a value in {self.here} here, but in {self.elsewhere} in {self.times} other statements"

    @property
    def identity(self) -> str:
        return f"{self.symbol} in {self.here}, not {self.elsewhere}"


def _of_two_dimensions(ctx: RuleContext, parts: list[tuple[Section, list[tuple[int, _Statement]]]]) -> Iterator[Finding]:
    """The sections' statements by symbol, in the paper's order: a symbol stated in units of two dimensions."""
    stated: dict[str, list[tuple[PlacedBlock, _Statement]]] = {}
    seen: set[tuple[str, int]] = set()
    for section, found in parts:
        for block, statement in found:
            placed = section.blocks[block]  # the block where it lies now: a part is kept while its section only moved
            where = (placed.file, placed.block.start + statement.start)
            if where not in seen:  # a caption is read in its float too
                seen.add(where)
                stated.setdefault(statement.symbol, []).append((placed, statement))
    stated = {symbol: statements for symbol, statements in stated.items() if len({pair[1].dimension for pair in statements}) == 2}
    if stated:  # what TeX never prints (\iffalse, a comment environment) states nothing
        hidden = unprinted(ctx.whole_project, ctx.index.macros)
        stated = {
            symbol: [pair for pair in statements if not hidden.covers(pair[0].file, pair[0].block.start + pair[1].start)]
            for symbol, statements in stated.items()
        }
    for symbol, statements in stated.items():
        counted = Counter(statement.dimension for _, statement in statements)
        if len(counted) != 2:
            continue
        (usual, times), (odd, once) = counted.most_common()
        if times >= 2 and once == 1:
            placed, statement = next(pair for pair in statements if pair[1].dimension == odd)
            first = next(pair for pair in statements if pair[1].dimension == usual)
            yield _finding(ctx, symbol, (placed, statement), first, (_unit_text(odd), _unit_text(usual), times))


@rule(
    "NOT009",
    "unit-of-another-dimension",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=_of_two_dimensions,
    placed_parts=True,  # statements by block index within the section, in the block's LaTeX
)
def unit_of_another_dimension(ctx: RuleContext, section: Section) -> Iterator[tuple[int, _Statement]]:
    """## What it does
    Flags a symbol given a value whose unit has another dimension than the units it is given
    everywhere else: the phase-space flux κ stated as 1.1 × 10⁻² s⁻¹ and ≳ 10⁻³ s⁻¹, then required
    to be ≳ 10⁻³ s⁻³. Units of one dimension (ms and s, Hz and s⁻¹) are conversions and pass.

    ## Why is this bad?
    One of the statements has a wrong unit (or the symbol means two things): a reader who
    computes with it gets a result of the wrong dimension.

    ## Example
    ```latex
    a flux $\\kappa = \\unit[1.1\\times 10^{-2}]{s^{-1}}$ … sources with $\\kappa \\gtrsim \\unit[10^{-3}]{s^{-1}}$ …
    only one satisfies $\\kappa \\gtrsim \\unit[10^{-3}]{s^{-3}}$.
    ```

    ## Use instead
    ```latex
    only one satisfies $\\kappa \\gtrsim \\unit[10^{-3}]{s^{-1}}$.
    ```

    ## Fix safety
    No fix: the unit or the symbol may be the wrong one.

    ## Evidence
    "moderate: one symbol, a unit of another dimension".
    """
    for block, placed in enumerate(section.blocks):  # a section's statements, read again only when its text changes
        latex = ctx.source(placed.file).text[placed.block.start : placed.block.end]
        for statement in _statements(latex):
            yield block, statement


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _statements(latex: str) -> tuple[_Statement, ...]:
    """The symbols a block's LaTeX states with a value and a unit this reads."""
    if not _HINT.search(latex):
        return ()
    found = []
    for match in _STATEMENT.finditer(latex):
        symbol = "".join(match.group("symbol").split())
        unit = match.group("units") or match.group("siunitx") or match.group("written") or ""
        read = dimension(unit)
        if read is not None and symbol not in _NOT_SYMBOLS:
            found.append(_Statement(symbol, read, match.start("symbol"), match.end()))
    return tuple(found)


def _unit_text(read: Dimension) -> str:
    """A dimension in SI base units: kg m^2 s^-2."""
    return " ".join(_BASES[base] + (f"^{power}" if power != 1 else "") for base, power in read) or "no unit"


def _finding(
    ctx: RuleContext,
    symbol: str,
    odd: tuple[PlacedBlock, _Statement],
    usual: tuple[PlacedBlock, _Statement],
    units: tuple[str, str, int],
) -> Finding:
    (placed, statement), (other, first) = odd, usual
    here, elsewhere, times = units
    start, end = placed.block.start + statement.start, placed.block.start + statement.end
    evidence = Evidence(
        kind="moderate: one symbol, a unit of another dimension",
        reason=f"{times} other statements give {symbol} a value in {elsewhere}; this one in {here}",
    )
    position = other.block.start + first.start
    related = [ctx.related(other.file, position, other.block.start + first.end, f"{symbol} in {elsewhere}")]
    return ctx.flag(UnitOfAnotherDimension(symbol, here, elsewhere, times), placed.file, start, end, evidence=evidence, related=related)
