"""ARI010: a computation written out in math whose numbers do not give the result it states."""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..tables.model import signed
from .computations import computations

_READ = (BlockKind.PARAGRAPH, BlockKind.MATH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM)


@violation_type
class ComputationMismatch(Violation):
    expression: str
    written: str
    recomputed: str

    @property
    def message(self) -> str:
        return f"${self.expression}$ is {self.recomputed}, not {self.written}"

    @property
    def fix_title(self) -> str:
        return f"Replace with {self.recomputed}"

    @property
    def identity(self) -> str:
        return f"{self.expression} {self.written}"


@rule("ARI010", "written-computation-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def written_computation_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Redoes a computation a paper writes out in math with numbers alone, set equal to its
    result: `$640000 \\times 2.74 = 1753600$`, `$\\frac{700}{40} = 17.5$`,
    `$0.01 \\times (2.2377 - 0.3329) = 0.01905$`, in inline math and in each line of a display
    (equation, align). Sums, differences, products, quotients, fractions, powers, parentheses
    and the functions `\\log`, `\\ln`, `\\exp` and `\\sqrt` are read; a side with a comma or
    another function is not, and neither is an approximation (`\\approx`, `\\sim`). A symbol,
    subscripted or not, is read only where its paragraph gives it one number (`$\\alpha = 1\\%$ …
    $\\alpha(2.2377 - 0.3329) = 0.02571$`, `$N_2 = 8192$`). Where the writing leaves a meaning open,
    any meaning that gives the result will do: `\\log` in base e, 10 or 2, a percentage as a
    fraction or as points (`$\\frac{1}{15} = 6.7\\%$`, `$40\\% \\times 2 = 80$`). The result may
    set its thousands apart (`1{,}753{,}600`, `1\\,753\\,600`) and may be rounded to its places (a
    whole result of a division is a count: its floor or its ceiling), and each decimal input of two
    digits or more may be rounded too.

    ## Why is this bad?
    A reader who redoes the sum and gets another number stops trusting the ones they cannot
    redo; the slip is often a copied number from an earlier draft.

    ## Example
    ```latex
    The reward gain is $0.01 \\times (2.2377 - 0.3329) = 0.02571$.
    ```

    ## Use instead
    ```latex
    The reward gain is $0.01 \\times (2.2377 - 0.3329) = 0.01905$.
    ```

    ## Evidence
    "moderate: a computation of written numbers" (the numbers may be a printed rounding of
    others, or the `=` may mean a step of a derivation); "moderate: a symbol the paragraph gives
    a number" when a symbol was read with the number its paragraph sets it to.

    ## Fix safety
    Unsafe: the result may be right and an input mistyped.
    """
    for placed in section.blocks:
        if placed.kind not in _READ:
            continue
        source = ctx.source(placed.file).text[placed.block.start : placed.block.end]
        for found in computations(source, display=placed.kind is BlockKind.MATH):
            if found.recomputes:
                continue
            decimals = len(found.written_text.partition(".")[2])
            recomputed = signed(found.value, decimals)
            unit = "%" if found.percent else ""
            violation = ComputationMismatch(found.side, found.written_text + unit, recomputed + unit)
            start, end = placed.block.start + found.start, placed.block.start + found.end
            kind = "moderate: a symbol the paragraph gives a number" if found.symbols else "moderate: a computation of written numbers"
            evidence = Evidence(kind=kind, reason=f"{found.expression} = {found.value:.6g}{unit}")
            yield ctx.flag(violation, placed.file, start, end, edits=[ctx.edit(placed.file, start, end, recomputed)], evidence=evidence)
