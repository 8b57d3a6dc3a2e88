"""NOT011: a symbol a sum, product, set or expectation binds, renamed in what it binds.

## How it decides
A formula's bindings are read from its LaTeX (a display whole, and each inline formula of prose,
captions and algorithms): an index under a sum, product or union ("\\sum_{n=1}^N", "\\sum_{k \\in K}",
"\\sum_k"), the index of a set ("\\{x^t\\}_{t=0}^{T-1}"), and indexed symbols under any binding operator,
alone or as a tuple ("\\sum_{(\\bs{p}^j, \\bs{n}^j) \\in P_v}", "\\mathbb{E}_{x_i \\sim D}"). A bound symbol is
flagged when the formula never writes it after its binding (a set: in its members), while the term under
the operator (up to its first relation or alignment mark; a set: its members) writes, in its place,
exactly one symbol of its kind that nothing in the formula binds:
for an index, a letter in a sub- or superscript ("\\sum_{n=1}^N w^i \\delta(\\theta^i)"); for an indexed
symbol, another symbol with its index ("d^j" beside the bound "\\bs{n}^j"). A letter the display also
writes outside any script, or applies ("Z_p … p(z)"), is a name rather than an index, and a term that
writes two unbound indices is left alone: the reader cannot tell which one was meant.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .bindings import formulas, renamed_bound_symbols

# Displays whole; the inline formulas of prose, captions and algorithms ("\\{x^t\\}_{t=0}^{T-1}").
_READ = (BlockKind.MATH, BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.THEOREM, BlockKind.CAPTION, BlockKind.ALGORITHM)


@violation_type
class BoundSymbolRenamed(Violation):
    bound: str  # as the binding writes it
    written: str  # what the formula writes in its place

    @property
    def message(self) -> str:
        return f"the formula binds {self.bound} but never writes it; it writes {self.written} in its place, which nothing binds"

    @property
    def identity(self) -> str:
        return f"{self.bound}:{self.written}"


@rule("NOT011", "bound-symbol-renamed", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def bound_symbol_renamed(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a symbol that a sum, product, set or expectation binds and its formula never writes, where
    the formula writes another, unbound symbol in its place: "\\sum_{n=1}^N w^i \\delta(\\theta^i)",
    "\\{x^t\\}_{k=0}^{T-1}", or a sum over "(\\bs{p}^j, \\bs{n}^j) \\in P_v" whose term writes d^j.

    ## Why is this bad?
    The sum's index no longer runs over the term: as written, the term is a constant added N times,
    and the symbol it does write ranges over nothing the reader is told. One of the two names is a
    slip, usually a symbol renamed in one place and not the other.

    ## Example
    ```latex
    \\[ \\pi_t(\\theta) \\simeq \\sum_{n=1}^{N} w^i \\delta(\\theta^i) \\]
    ```

    ## Use instead
    ```latex
    \\[ \\pi_t(\\theta) \\simeq \\sum_{i=1}^{N} w^i \\delta(\\theta^i) \\]
    ```

    ## Fix safety
    No fix: the binding or the term may hold the slip.

    ## Evidence
    "moderate: a bound symbol the formula never writes, an unbound one in its place".
    """
    for placed in section.blocks:
        if placed.block.kind not in _READ:
            continue
        latex = ctx.source(placed.file).text[placed.block.start : placed.block.end]
        for offset, formula in formulas(latex, placed.block.kind is BlockKind.MATH):
            yield from _flag(ctx, placed, offset, formula)


def _flag(ctx: RuleContext, placed: PlacedBlock, offset: int, formula: str) -> Iterator[Finding]:
    for renamed in renamed_bound_symbols(formula):
        evidence = Evidence(
            kind="moderate: a bound symbol the formula never writes, an unbound one in its place",
            reason=f"the formula binds {renamed.bound} and never writes it after; what it binds writes {renamed.written}, bound nowhere in it",
        )
        violation = BoundSymbolRenamed(renamed.bound, renamed.written)
        start = placed.block.start + offset + renamed.start
        yield ctx.flag(violation, placed.file, start, start + renamed.end - renamed.start, evidence=evidence)
