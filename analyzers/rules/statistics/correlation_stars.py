from __future__ import annotations

from collections.abc import Iterator

from ....latex.manuscript import Section
from ....latex.model import BlockKind, Cell
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..tables.model import table_notes
from .model import apa_p, correlation_p, is_correlation_table, possible_stars, star_legend, stated_sample

# A correlation matrix states a few coefficients at least; a table with one starred cell may star something else.
_MIN_STARRED = 3


@violation_type
class CorrelationStarsMismatch(Violation):
    cell: str
    n: int
    p: float
    expected: str

    @property
    def message(self) -> str:
        return f"the correlation {self.cell} over N = {self.n} gives {apa_p(self.p)}, which the table's legend marks {self.expected}"

    @property
    def identity(self) -> str:
        return f"{self.cell} N={self.n}"


@rule("STAT008", "correlation-stars-inconsistent", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def correlation_stars_inconsistent(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Checks the significance stars of a correlation table against its own coefficients: where the
    caption or note states one N for the table ("N = 120") and a legend gives the stars ("* p <
    .05, ** p < .01"), each starred or unstarred r (two decimals or more, |r| < 1) must earn the
    stars its two-tailed p over N − 2 degrees of freedom gives, whatever the rounding of r.
    Only correlation tables (the caption says so) with at least three starred cells are read; a
    table with a range of N or pairwise deletion is left alone, and so are columns that hold no
    starred cell (means, SDs).

    ## Why is this bad?
    Stars that the coefficient cannot earn, or a coefficient without the stars it earns, mean
    the stars were set by hand, for another N, or from another analysis.

    ## Example
    ```latex
    \\caption{Correlations between the measures ($N = 120$).}
    ... 3. Mood & .15 & .24* & -- \\\\   % .24 over N = 120 gives p = .008: **
    * $p < .05$, ** $p < .01$.
    ```

    ## Use instead
    ```latex
    ... 3. Mood & .15 & .24** & -- \\\\
    ```

    ## Fix safety
    No fix: the stars, the coefficient or N may be the wrong one.

    ## Evidence
    "moderate: stars against r and the stated N".
    """
    for placed in section.blocks:
        table = placed.block.table
        if placed.kind is not BlockKind.TABLE or table is None or not is_correlation_table(table.caption or ""):
            continue
        text = table_notes(section, placed)
        legend, n = star_legend(text), stated_sample(text)
        cells = [cell for row in table.rows[table.header_rows :] for cell in row[1:] if _coefficient(cell)]
        starred_columns = {cell.column for cell in cells if "*" in cell.text}
        if not legend or n is None or n < 4 or sum("*" in cell.text for cell in cells) < _MIN_STARRED:
            continue
        for cell in cells:
            if cell.column not in starred_columns:
                continue
            assert cell.value is not None  # a coefficient has its value
            written = min(cell.text.count("*"), max(legend))
            allowed = possible_stars(cell.value, cell.decimals, n, legend)
            if written in allowed:
                continue
            p = correlation_p(cell.value, n)
            expected = "*" * allowed.start if allowed.start else "without a star"
            violation = CorrelationStarsMismatch(" ".join(cell.text.split()), n, p, expected)
            evidence = Evidence(kind="moderate: stars against r and the stated N", reason="a correlation's p follows from r and N")
            yield ctx.flag(violation, placed.file, cell.start, cell.end, evidence=evidence, section=section.title or section.kind.value)


def _coefficient(cell: Cell) -> bool:
    """A cell that reads as a correlation: a value in (−1, 1) with two decimals or more."""
    return cell.value is not None and abs(cell.value) < 1 and cell.decimals >= 2
