"""NOT008: symbols written in one place with a subscript the paper's notation gives them nowhere else.

## How it decides
Subscripted symbols are read from the text of every block (prose, displays, captions): a letter,
Latin or Greek, and the subscript after it ("λ_ICvEC", "μ_P"; an index after a comma, "λ_ICvEC,j",
is left out). Two shapes leave the paper's notation:

- **A subscript reversed.** A subscript of two named parts and a joint ("ICvEC": IC, v, EC; also
  "A2B", "Pre-Post", "AB,CD") written once with its parts swapped, where the paper writes the
  symbol in the other order three times or more. A comparison's direction flips its sign, and a
  paper that meant both directions would write both more than once.
- **A family of symbols switching subscript together.** Two symbols or more written with one
  subscript in a single block only ("μ_X" and "Σ_X" in a theorem), where the paper writes each of
  them with another subscript in two blocks or more ("μ_P", "Σ_P") but never in that block (which
  would compare the two families), and the block neither introduces them ("let", "denote", "where", ":=")
  nor writes them as the last of a sequence ("α_1, …, α_M"). Subscripts that are a single
  lower-case letter or a digit are indices, which a formula changes at will, and are not read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from itertools import chain
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...memo import SECTION_CACHE_SIZE, TEXT_CACHE_SIZE, SectionKey
from ...registry import rule
from ...violation import Violation, violation_type

_READ = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.THEOREM, BlockKind.CAPTION, BlockKind.MATH)
# A Latin letter standing alone ("x_P", not the "num_layers" of code), or any Greek one ("dμ_X").
_SYMBOL = DeferredPattern(r"(?P<base>(?<![A-Za-z0-9_\\])[A-Za-z]|[Α-Ωα-ω])_(?P<sub>[A-Za-z0-9]+(?:[-,][A-Za-z0-9]+)?)")
# A subscript of two named parts and a joint: "ICvEC", "TRTvIC", "A2B", "Pre-Post", "AB,CD".
_PARTS = DeferredPattern(r"(?P<first>[A-Z]{2,}|[A-Z][a-z]+)(?P<joint>vs?|2|-|,)(?P<second>[A-Z]{2,}|[A-Z][a-z]+)")
# An index after the subscript's name: "ICvEC,j".
_INDEXED = DeferredPattern(r",[a-z0-9]$")
# "where" may follow a command the text keeps glued to it ("\\unindentmorewhere").
_INTRODUCED = DeferredPattern(r"\b(?:[Ll]et|denotes?|denoted)\b|[Ww]here\b|:=")
_THROUGHOUT = 3  # times the paper writes a subscript's usual order
_FAMILY = 2  # symbols that switch subscript together
_USUAL_BLOCKS = 2  # blocks that write each symbol with its usual subscript


class _Symbol(NamedTuple):
    base: str
    sub: str
    placed: PlacedBlock
    start: int
    end: int


@violation_type
class SubscriptVariant(Violation):
    written: str
    usual: str
    uses: int
    reversed: bool

    @property
    def message(self) -> str:
        if self.reversed:
            return f"{self.written} reverses the subscript the paper writes {self.uses} times ({self.usual})"
        return f"{self.written} are written only here and never introduced; the paper writes {self.usual} throughout"

    @property
    def identity(self) -> str:
        return f"{self.written}:{self.usual}"


@rule("NOT008", "subscript-variant", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks",))
def subscript_variant(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags symbols written in one place with a subscript the paper's notation gives them nowhere
    else: a two-part subscript reversed once ("λ_ECvIC" where the paper writes λ_ICvEC nine
    times), or a family of symbols switching subscript together in one block ("μ_X" and "Σ_X"
    in a theorem, where the paper defines the measure space as (X, Σ_P, μ_P)).

    ## Why is this bad?
    The reader meets symbols the paper never defined, or a comparison in the opposite direction
    (the log hazard ratio of EC against IC is minus that of IC against EC), and must guess
    whether the formula or the notation is wrong.

    ## Example
    ```latex
    The next step samples $\\lambda_{ECvIC}^{new}$ ... % the paper writes \\lambda_{ICvEC} everywhere
    ```

    ## Use instead
    ```latex
    The next step samples $\\lambda_{ICvEC}^{new}$ ...
    ```

    ## Fix safety
    No fix: the symbol or its definition may be the wrong one.

    ## Evidence
    "moderate: a subscript written once in reverse"; "moderate: symbols switching subscript together in one block".
    """
    notation = [_section_notation(SectionKey(section)) for section in ctx.manuscript.sections]
    written = Counter(chain.from_iterable(part.written for part in notation))
    yield from _reversed(ctx, written, [symbol for part in notation for symbol in part.swappable])
    yield from _switched(ctx, [symbol for part in notation for symbol in part.named])


class _Notation(NamedTuple):
    """A section's subscripted symbols as the paper-wide comparisons read them, in reading order."""

    written: tuple[tuple[str, str], ...]  # every one, as (base, subscript): how often the paper writes each
    swappable: tuple[_Symbol, ...]  # those whose subscript has two named parts (`_swapped`)
    named: tuple[_Symbol, ...]  # those whose subscript names something rather than indexes ("X", "ICvEC", not "i")


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _section_notation(key: SectionKey) -> _Notation:
    """Gathered once per Section the manuscript hands on: an edit reads the sections it changed or moved alone."""
    symbols = [
        _Symbol(base, sub, placed, start, end)
        for placed in key.section.blocks
        if placed.kind in _READ
        for base, sub, start, end in _symbols_in(placed.block.plain.text)
    ]
    return _Notation(
        tuple((symbol.base, symbol.sub) for symbol in symbols),
        tuple(symbol for symbol in symbols if _swapped(symbol.sub) is not None),
        tuple(symbol for symbol in symbols if len(symbol.sub) > 1 or symbol.sub.isupper()),
    )


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _symbols_in(text: str) -> tuple[tuple[str, str, int, int], ...]:
    """A block's subscripted symbols: (base, subscript, start, end). Searched once per block text, so a section an
    edit moved, not changed, is gathered again without re-reading its blocks."""
    return tuple(
        (match.group("base"), _INDEXED.sub("", match.group("sub")), match.start(), match.end()) for match in _SYMBOL.finditer(text)
    )


def _reversed(ctx: RuleContext, written: Counter[tuple[str, str]], swappable: list[_Symbol]) -> Iterator[Finding]:
    for symbol in swappable:
        usual = _swapped(symbol.sub)
        if usual is None or written[symbol.base, symbol.sub] != 1:
            continue
        if written[symbol.base, usual] >= _THROUGHOUT:
            violation = SubscriptVariant(f"{symbol.base}_{symbol.sub}", f"{symbol.base}_{usual}", written[symbol.base, usual], True)
            evidence = Evidence(
                kind="moderate: a subscript written once in reverse", reason=f"{symbol.sub} is {usual} with its parts swapped"
            )
            yield ctx.flag_block(violation, symbol.placed, symbol.start, symbol.end, evidence=evidence)


@lru_cache(maxsize=TEXT_CACHE_SIZE)  # by subscript: a paper writes a few kinds thousands of times
def _swapped(sub: str) -> str | None:
    """A subscript of two named parts with its parts swapped ("ICvEC" → "ECvIC"); None for any other."""
    parts = _PARTS.fullmatch(sub)
    if parts is None or parts.group("first") == parts.group("second"):
        return None
    return f"{parts.group('second')}{parts.group('joint')}{parts.group('first')}"


def _switched(ctx: RuleContext, named: list[_Symbol]) -> Iterator[Finding]:
    blocks: dict[str, dict[str, set[int]]] = {}  # subscript → symbol → blocks that write it
    for symbol in named:
        blocks.setdefault(symbol.sub, {}).setdefault(symbol.base, set()).add(symbol.placed.index)
    for sub, bases in blocks.items():
        places = set().union(*bases.values())
        if len(places) != 1 or len(bases) < _FAMILY:
            continue
        usual = next(
            (
                other
                for other, held in blocks.items()
                if other != sub and all(len(held.get(base, ())) >= _USUAL_BLOCKS and not held[base] & places for base in bases)
            ),
            None,
        )  # written throughout, and not in this block: a block that writes both families compares them
        first = next(symbol for symbol in named if symbol.sub == sub and symbol.base in bases)
        text = first.placed.block.plain.text
        if usual is None or _INTRODUCED.search(text) or any(f"{base}_1" in text for base in bases):
            continue  # introduced here, or the last of a sequence ("α_1, …, α_M")
        family = sorted(bases)
        written, usual_written = ", ".join(f"{base}_{sub}" for base in family), ", ".join(f"{base}_{usual}" for base in family)
        violation = SubscriptVariant(written, usual_written, 0, False)
        evidence = Evidence(
            kind="moderate: symbols switching subscript together in one block",
            reason=f"{written} stand in this block only; {usual_written} stand in two blocks or more each",
        )
        yield ctx.flag_block(violation, first.placed, first.start, first.end, evidence=evidence)
