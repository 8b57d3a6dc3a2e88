"""STAT013: a coefficient's reported t, z or p that its coefficient and standard error cannot give.

## How it decides
The reader is in `statistics/coefficients.py`. A sentence reports a coefficient ("b = 0.16",
"β = -3.18", "coefficient = 0.4") with, within the next 90 characters and before the next
coefficient, a standard error ("SE = 0.08"), a Wald statistic ("t = -11.96", "z = 2.1") or a p.
When the sentence gives the standard error, the t or z must be |b| / SE and the p must follow
from it, within the rounding of the numbers. When it does not, the standard error is the one the
table it references (else its paragraph references) prints under the same coefficient (the
table's, rounded to the sentence's places, is the sentence's), when exactly one estimate of that
table is; the table's more precise coefficient is then the one computed with.

The p of a ratio is a range: from the normal (the smallest, for a large sample) to Student's t
with the degrees of freedom the sentence gives the t, else 10 (the largest). A p written outside
the range is a slip, or the p of another test; the finding says which numbers disagree.

A table whose columns are an estimate's statistics is read by `statistics/statistic_columns.py`:
each row's z or t against its estimate and standard error, and its p against its z or t.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import ShownTable, TableAt, each_cited, shown_table, tables_at_by_label
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..printed_tables import paragraph_tables, sentence_tables, with_printed
from .coefficients import CoefficientReport, coefficient_reports, p_contradicted, rounds_to, wald_contradicted
from .regression import estimates
from .statistic_columns import row_mismatches


@violation_type
class CoefficientStatisticsInconsistent(Violation):
    b: str
    se: str
    source: str  # "" or " (Table tab:x)": where the standard error was read
    written: str
    expected: str

    @property
    def message(self) -> str:
        return f"b = {self.b} with SE = {self.se}{self.source} gives {self.expected}, not {self.written}"

    @property
    def identity(self) -> str:
        return f"{self.b} {self.se} {self.written}"


@violation_type
class RowStatisticsInconsistent(Violation):
    written: str
    expected: str

    @property
    def message(self) -> str:
        return f"the row gives {self.expected}, not {self.written}"

    @property
    def identity(self) -> str:
        return f"{self.written} {self.expected}"


@record(slots=True, eq=False)
class _Unpaired:
    """A coefficient reported without its standard error, with the tables its sentence or paragraph references."""

    report: CoefficientReport
    labels: tuple[str, ...]
    anchor: Finding


def _against_tables(ctx: RuleContext, parts: list[tuple[Section, list[TableAt | _Unpaired | Finding]]]) -> Iterator[Finding]:
    labelled = {label: tuple(table for _, table in tabulars) for label, tabulars in tables_at_by_label(parts, TableAt).items()}
    tables = with_printed(labelled, ctx)
    for _, items in parts:
        for item in items:
            if isinstance(item, Finding):
                yield item
            elif isinstance(item, _Unpaired):
                for label, table in each_cited(item.labels, tables):
                    same = [e for e in estimates(table) if rounds_to(e.b_text, item.report.b_text)]
                    report = replace(item.report, b_text=same[0].b_text) if len(same) == 1 else None
                    if report is not None and (violation := _inconsistent(report, same[0].se_text, f" (Table {label})")):
                        against = "the standard error of the table its number names" if label not in labelled else _CITED_SE
                        evidence = Evidence(kind=f"moderate: a coefficient's p against {against}", reason=_REASON)
                        yield item.anchor.model_copy(
                            update={"message": violation.message, "identity": violation.identity, "evidence": evidence}
                        )
                        break


_CITED_SE = "its cited table's standard error"
_REASON = "a Wald test's statistic is b / SE, and its p follows from it"


def _inconsistent(report: CoefficientReport, se_text: str, source: str = "") -> CoefficientStatisticsInconsistent | None:
    if float(se_text) <= 0:
        return None
    if report.wald is not None and report.se_text is not None and wald_contradicted(report, se_text):
        name, value, _ = report.wald
        ratio = abs(float(report.b_text)) / float(se_text)
        return CoefficientStatisticsInconsistent(report.b_text, se_text, source, f"{name} = {value}", f"|{name}| = {ratio:.2f}")
    degrees = report.wald[2] if report.wald is not None else None
    bounds = p_contradicted(report, se_text, degrees)
    if bounds is None or report.p is None:
        return None
    smallest, largest = bounds
    expected = f"p from {smallest:.3g} to {largest:.3g}" if largest - smallest > 1e-4 else f"p = {smallest:.3g}"
    return CoefficientStatisticsInconsistent(report.b_text, se_text, source, f"p {report.p[0]} {report.p[1]}", expected)


@rule(
    "STAT013",
    "coefficient-statistics-inconsistent",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=_against_tables,
    placed_parts=True,  # tables by block index within the section, the rest by findings' ranges
)
def coefficient_statistics_inconsistent(ctx: RuleContext, section: Section) -> Iterator[TableAt | _Unpaired | Finding]:
    """## What it does
    Checks a coefficient a sentence reports against its own standard error: "b = 0.16, SE =
    0.08, t = 3.50" (the t must be |b| / SE) or "b = -0.133, p < .001" where the table the
    sentence references prints -0.133 with a standard error of 0.044 (z = 3.02 gives p = .003).
    The rounding of every number and the unknown degrees of freedom are allowed for.

    A table of estimates with a column per statistic ("Estimate | SE | z | p", as statistics
    software prints them) is read row by row the same way.

    ## Why is this bad?
    The coefficient, its standard error and its test are one result; when they disagree, one
    of them was copied from another model or mistyped, and the claim of significance may rest
    on the wrong number.

    ## Example
    ```latex
    Lower ranks were rated warmer (b = -0.133, p < .001; Table~\\ref{tab:reg}).
    % tab:reg: Advised Rank & -0.133** \\\\ & (0.044)
    ```

    ## Use instead
    ```latex
    Lower ranks were rated warmer (b = -0.133, p = .003; Table~\\ref{tab:reg}).
    ```

    ## Fix safety
    No fix: any of the numbers may be the wrong one.

    ## Evidence
    "moderate: a coefficient's statistics in one sentence"; "moderate: a coefficient's p against
    its cited table's standard error" ("… against the standard error of the table its number names" when the
    text types "Table 3" instead of a `\\ref`); "moderate: a table row's estimate, standard error, statistic
    and p".
    """
    for block, placed in enumerate(section.blocks):
        shown = shown_table(placed)
        if shown is not None:
            yield TableAt(shown.labels, block)
            yield from _table_rows(ctx, section, placed, shown)
        elif placed.kind in (BlockKind.PARAGRAPH, BlockKind.CAPTION) and "=" in placed.block.plain.text:
            yield from _paragraph_reports(ctx, placed)


def _table_rows(ctx: RuleContext, section: Section, placed: PlacedBlock, shown: ShownTable) -> Iterator[Finding]:
    for found in row_mismatches(shown.table):
        evidence = Evidence(kind="moderate: a table row's estimate, standard error, statistic and p", reason=_REASON)
        violation = RowStatisticsInconsistent(found.written, found.expected)
        yield ctx.flag(
            violation, placed.file, found.cell.start, found.cell.end, evidence=evidence, section=section.title or section.kind.value
        )


def _paragraph_reports(ctx: RuleContext, placed: PlacedBlock) -> Iterator[_Unpaired | Finding]:
    text = placed.block.plain.text
    reports = coefficient_reports(text)
    spans = sentence_spans(text) if reports else []
    for report in reports:
        if report.se_text is not None:
            violation = _inconsistent(report, report.se_text)
            if violation is not None:
                evidence = Evidence(kind="moderate: a coefficient's statistics in one sentence", reason=_REASON)
                yield ctx.flag_block(violation, placed, report.start, report.end, evidence=evidence)
        elif report.p is not None:
            sentence = next((text[start:end] for start, end in spans if start <= report.start < end), "")
            labels = sentence_tables(sentence, paragraph_tables(placed.block))
            if labels:
                yield _Unpaired(report, labels, ctx.report_block(placed, report.start, report.end, ""))
