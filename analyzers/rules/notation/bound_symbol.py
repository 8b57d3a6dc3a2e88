"""NOT011: a symbol a displayed sum, product or expectation binds, renamed in the formula under it.

## How it decides
A display's bindings are read from its LaTeX: an index under a sum, product or union ("\\sum_{n=1}^N",
"\\sum_{k \\in K}", "\\sum_k"), and indexed symbols under any binding operator, alone or as a tuple
("\\sum_{(\\bs{p}^j, \\bs{n}^j) \\in P_v}", "\\mathbb{E}_{x_i \\sim D}"). A bound symbol is flagged when the
display never writes it after its binding, while the term under the operator (up to its first relation
or alignment mark) writes, in its place, exactly one symbol of its kind that nothing in the display binds:
for an index, a letter in a sub- or superscript ("\\sum_{n=1}^N w^i \\delta(\\theta^i)"); for an indexed
symbol, another symbol with its index ("d^j" beside the bound "\\bs{n}^j"). A letter the display also
writes outside any script, or applies ("Z_p … p(z)"), is a name rather than an index, and a term that
writes two unbound indices is left alone: the reader cannot tell which one was meant.
"""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import renamed_bound_symbols


@violation_type
class BoundSymbolRenamed(Violation):
    bound: str  # as the binding writes it
    written: str  # what the formula writes in its place

    @property
    def message(self) -> str:
        return f"the display binds {self.bound} but never writes it; the formula under it writes {self.written}, which nothing binds"

    @property
    def identity(self) -> str:
        return f"{self.bound}:{self.written}"


@rule("NOT011", "bound-symbol-renamed", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def bound_symbol_renamed(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a symbol that a displayed sum, product or expectation binds and its formula never writes,
    where the formula writes another, unbound symbol in its place: "\\sum_{n=1}^N w^i \\delta(\\theta^i)",
    or a sum over "(\\bs{p}^j, \\bs{n}^j) \\in P_v" whose term writes d^j.

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
        if placed.block.kind is not BlockKind.MATH:
            continue
        latex = ctx.source(placed.file).text[placed.block.start : placed.block.end]
        for renamed in renamed_bound_symbols(latex):
            evidence = Evidence(
                kind="moderate: a bound symbol the formula never writes, an unbound one in its place",
                reason=f"the display binds {renamed.bound} and never writes it after; its term writes {renamed.written}, bound nowhere in it",
            )
            violation = BoundSymbolRenamed(renamed.bound, renamed.written)
            start = placed.block.start + renamed.start
            yield ctx.flag(violation, placed.file, start, start + renamed.end - renamed.start, evidence=evidence)
