"""NOT012: a normal density whose exponent lost its minus sign."""

from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .bindings import formulas
from .densities import signless_densities

# Displays whole, and the inline formulas of prose, footnotes, theorems and captions.
_READ = (BlockKind.MATH, BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.THEOREM, BlockKind.CAPTION)


@violation_type
class SignlessNormalDensity(Violation):
    variable: str

    @property
    def message(self) -> str:
        return (
            f"this density of {self.variable} takes the exponential of +(distance)²/(2σ²): without a minus sign "
            f"it grows without bound in {self.variable} and is no normal density"
        )

    @property
    def identity(self) -> str:
        return self.variable


@rule("NOT012", "normal-density-sign", Category.METHOD_LOGIC, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def normal_density_sign(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Reads every formula that applies a function to a variable and then takes the exponential of a
    squared distance of that variable over twice a squared scale, "\\phi(h) = … \\exp[(h-\\mu)^2 /
    (2\\sigma^2)]", and flags it when the exponent has no minus sign. A square of a sum with no
    variable ("\\exp((\\mu+\\sigma^2)^2 / 2\\sigma^2)", a factor left by completing the square) is not read.

    ## Why is this bad?
    A normal density is exp(−(x−μ)²/2σ²) scaled: without the minus the function grows without bound
    in x and integrates to nothing. A reader who implements the formula as printed gets a wrong
    likelihood; a reviewer takes it as a sign that the derivations were not checked.

    ## Example
    ```latex
    \\[ \\phi(h) = \\frac{1}{\\sqrt{2\\pi\\sigma^2}} \\exp\\left[\\frac{(h-\\mu)^2}{2\\sigma^2}\\right] \\]
    ```

    ## Use instead
    ```latex
    \\[ \\phi(h) = \\frac{1}{\\sqrt{2\\pi\\sigma^2}} \\exp\\left[-\\frac{(h-\\mu)^2}{2\\sigma^2}\\right] \\]
    ```

    ## Fix safety
    No fix: the printed formula may also carry other slips (its normalising factor) that the author
    should see together.

    ## Evidence
    "moderate: a density of a variable, the Gaussian exponent without its minus".
    """
    for placed in section.blocks:
        if placed.block.kind not in _READ:
            continue
        latex = ctx.source(placed.file).text[placed.block.start : placed.block.end]
        if "frac" not in latex or ("sigma" not in latex and "tau" not in latex and "s^" not in latex):
            continue  # no fraction, or no scale: no normal density to read
        for offset, formula in formulas(latex, placed.block.kind is BlockKind.MATH):
            for density in signless_densities(formula):
                start = placed.block.start + offset + density.start
                evidence = Evidence(
                    kind="moderate: a density of a variable, the Gaussian exponent without its minus",
                    reason=f"the formula applies a function to {density.variable} and squares its distance over twice a squared scale, with no sign",
                )
                violation = SignlessNormalDensity(density.variable)
                yield ctx.flag(violation, placed.file, start, placed.block.start + offset + density.end, evidence=evidence)
