"""NOT002: a symbol given two different numeric ranges."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Finding, Related, Severity
from ...memo import TEXT_CACHE_SIZE
from ...registry import Scope, rule
from ...violation import Violation, violation_type

_NUMBER = r"-?\s?(?:\d+(?:\.\d+)?|\.\d+)"
_SYMBOL = r"(?<![\w\\^_])(?P<symbol>[A-Za-zα-ωΑ-Ω](?:_\{?[\w,]+\}?)?)"
_DOMAIN = DeferredPattern(rf"{_SYMBOL}\s*∈\s*(?P<open>[\[(])\s*(?P<lo>{_NUMBER})\s*,\s*(?P<hi>{_NUMBER})\s*(?P<close>[\])])(?![\w^_/])")
_SANDWICH = DeferredPattern(rf"(?<![\w.])(?P<lo>{_NUMBER})\s*[≤<]\s*{_SYMBOL}\s*[≤<]\s*(?P<hi>{_NUMBER})(?![\w.^_/])")
_ACCENT = DeferredPattern(
    r"\\(?:hat|widehat|tilde|widetilde|bar|overline|vec|dot|ddot|check|mathbf|bm|boldsymbol|mathcal|mathbb|mathrm|mathsf|mathfrak)\s*\{?\s*$"
)
# A range bound to one statement: "for all x ∈ [0,1]", "Fix δ ∈ (0,0.1)", "there exists δ ∈ (0,1)".
_QUANTIFIED = DeferredPattern(
    r"(?<!\w)(?:for\s+(?:all|any|every|each|some)|there\s+(?:exists?|is)|exists?|[Ff]ix(?:ed)?|[Cc]hoose|[Pp]ick|[Gg]iven|∀|∃)(?!\w)[^.;:]*$"
)
_LOCAL_PENALTY = 0.2
_MATH_BLOCKS = (BlockKind.PARAGRAPH, BlockKind.MATH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM)


class _Range(NamedTuple):
    """A numeric range a section gives a symbol."""

    key: str  # the symbol as written in the source, accents included
    symbol: str
    low: float
    high: float
    text: str
    block: int  # index of the block within its section
    local: bool  # bound by a quantifier ("for all", "fix", "there exists") or a theorem's hypothesis
    finding: Finding  # reported here if an earlier range differs; the combine writes the message
    first: Related  # points here when this is the symbol's first range


@lru_cache(maxsize=TEXT_CACHE_SIZE)  # by a block's text: an edit moves the blocks after it in its file, not their text
def _stated(text: str) -> tuple[re.Match[str], ...]:
    """The matches of a stated range in a block's plain text, domains first, in text order."""
    domains = _DOMAIN.finditer(text) if "∈" in text else ()
    sandwiches = _SANDWICH.finditer(text) if "≤" in text or "<" in text else ()
    return (*domains, *sandwiches)


def _literal(placed: PlacedBlock, source: str, match: re.Match[str], group: str) -> bool:
    """The number is typed as digits, not rendered from a macro such as \\frac{1}{2}."""
    start, end = placed.block.plain.source_span(match.start(group), match.end(group))
    return source[start:end].replace(" ", "") == match.group(group).replace(" ", "")


def _number(text: str) -> float:
    return float(text.replace(" ", ""))


@violation_type
class RangeConflict(Violation):
    key: str  # the symbol as written in the source, accents included
    symbol: str
    range: str
    first_range: str

    @property
    def message(self) -> str:
        return f"`{self.symbol}` is given the range {self.range} here but {self.first_range} earlier"

    @property
    def identity(self) -> str:
        return f"{self.key}:{self.range}:{self.first_range}"


def _conflicting_ranges(ctx: RuleContext, parts: list[tuple[Section, list[_Range]]]) -> Iterator[Finding]:
    first_by_symbol: dict[str, tuple[int, _Range]] = {}
    reported: set[str] = set()
    for ordinal, (_, ranges) in enumerate(parts):
        for stated in ranges:
            first_ordinal, first = first_by_symbol.setdefault(stated.key, (ordinal, stated))
            if stated.key in reported or (first.low, first.high) == (stated.low, stated.high):
                continue
            if (first_ordinal, first.block) == (ordinal, stated.block):
                continue  # one paragraph giving two ranges contrasts them on purpose
            reported.add(stated.key)
            violation = RangeConflict(stated.key, stated.symbol, stated.text, first.text)
            yield stated.finding.model_copy(
                update={
                    "message": violation.message,
                    "identity": violation.identity,
                    "related": [first.first],
                    "confidence": 0.85 - _LOCAL_PENALTY * (first.local + stated.local),
                }
            )


@rule(
    "NOT002",
    "conflicting-symbol-domain",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=_conflicting_ranges,
    placed_parts=True,  # ranges by block index within the section
)
def conflicting_symbol_domain(ctx: RuleContext, section: Section) -> Iterator[_Range]:
    """## What it does
    Flags a symbol given two different numeric ranges, such as `$r \\in [-1,1]$` in the
    method and `$r \\in [0,1]$` in the appendix (`0 \\le r \\le 1` counts as `[0,1]`).

    ## Why is this bad?
    A reader (or a reviewer checking a proof) cannot tell which range holds, and results
    that depend on the range (a bound, a normalisation) may silently break.

    ## Example
    ```latex
    the reward $r \\in [-1, 1]$ ... we assume $r \\in [0, 1]$
    ```

    ## Use instead
    State one range, or name the two quantities differently (`r`, `\\tilde r`).

    ## Fix safety
    No fix: which range is right is the author's call.

    ## Options
    Only numeric endpoints are compared and open vs closed ends are ignored; accents are part
    of the symbol (`\\hat r` and `r` are different symbols). Two ranges in one paragraph are
    taken as a deliberate contrast and not flagged.

    ## Confidence
    0.85 for two ranges stated as the symbol's domain; minus 0.2 for each range that is local
    to one statement: bound by a quantifier ("for all", "there exists", "fix", "given") or
    inside a theorem or proof, where the same letter is often a fresh variable. A local range
    against a global one lands at 0.65, two local ones at 0.45: information, not warnings.
    """
    for number, placed in enumerate(section.blocks):
        if placed.kind in _MATH_BLOCKS:
            yield from _ranges(ctx, number, placed)


def _ranges(ctx: RuleContext, number: int, placed: PlacedBlock) -> Iterator[_Range]:
    """The numeric ranges block `number` of its section gives symbols, in the order it states them."""
    text = placed.block.plain.text
    stated = _stated(text)
    if not stated:
        return
    source = ctx.source(placed.file).text
    for match in stated:
        low, high = _number(match.group("lo")), _number(match.group("hi"))
        if low >= high or not _literal(placed, source, match, "lo") or not _literal(placed, source, match, "hi"):
            continue
        symbol = match.group("symbol")
        start, _ = placed.block.plain.source_span(match.start("symbol"), match.end("symbol"))
        accent = _ACCENT.search(source, max(0, start - 20), start)
        key = (accent.group(0).strip(" {") if accent else "") + symbol.replace("{", "").replace("}", "")
        shown = f"[{match.group('lo').strip()}, {match.group('hi').strip()}]"
        local = placed.kind is BlockKind.THEOREM or _QUANTIFIED.search(text, max(0, match.start() - 40), match.start()) is not None
        yield _Range(
            key,
            symbol,
            low,
            high,
            shown,
            number,
            local,
            ctx.report_block(placed, match.start(), match.end(), ""),
            ctx.related_block(placed, match.start(), match.end(), f"`{symbol}` first given the range {shown}"),
        )
