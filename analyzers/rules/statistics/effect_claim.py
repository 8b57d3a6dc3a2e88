"""STAT017: a sentence states the effect of a regression coefficient that its table does not star.

## How it decides
The reading of a regression table is STAT011's (`statistics/regression.py`): a table is read when
its caption or notes define the stars and its parentheses hold standard errors, and only when at
least six estimates are read and 85% of them earn their stars from z = |b| / SE. An estimate is
not significant when it has no star and no dagger and its coefficient and standard error give
p > .10, and above every level of the legend, whatever their rounding.

A sentence states an effect when it says the variable leads to, increases, lowers or is
associated with higher or lower values, has a positive or negative effect, or makes an outcome
more or less likely; it is not read when it gives a p-value (that is STAT007's and STAT016's),
negates, hedges ("may", "tend", "marginally") or speaks of a hypothesis. A sentence that calls the
variable significant ("is significantly associated with", "a significant effect") is read the same
way: a coefficient the table prints without a star and p > .10 contradicts it outright. It names a
row when it holds every word of the row's name that names the variable ("Median Income" is income), outside a list of controls ("controlling for income"); a row whose
words another row of the table shares is not named by them.

The table is the one the sentence references, by `\\ref` or printed number, else one its paragraph
references. The model is the one the paragraph last names up to the end of the sentence ("Model 1",
"column (2)", "the first model"), counted among the table's columns of estimates; a paragraph that
names none speaks of every model, and the sentence is read only when none of them stars the row.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind, Table
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...quantities import each_cited, shown_table, tables_at_by_label
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..printed_tables import paragraph_tables, sentence_tables, with_printed
from ..tables.model import table_notes
from .model import StarredTable, star_legend
from .regression import (
    Estimate,
    effect_stated,
    estimate_columns,
    named_models,
    names_variable,
    not_significant,
    reads_as_standard_errors,
    significance_stated,
    variable_words,
    wald_estimates,
)

_INTERCEPT = re.compile(r"^\s*(?:\(?intercept\)?|constant|_cons)\s*$", re.IGNORECASE)


@violation_type
class EffectOfUnstarredCoefficient(Violation):
    effect: str
    row: str
    table: str
    written: str
    significance: bool = False  # the text calls the variable significant

    @property
    def message(self) -> str:
        if self.significance:
            return f'the text calls {self.row} significant ("{self.effect}"), but {self.table} gives it {self.written}, without a star and p > .10'
        return f'the text states an effect of {self.row} ("{self.effect}"), but {self.table} gives it {self.written}, without a star and p > .10'

    @property
    def identity(self) -> str:
        return f"{self.row} {self.written}"


@record(slots=True, eq=False)
class _Claim:
    sentence: str
    effect: str
    significance: bool  # the sentence calls the variable significant, not only states its effect
    models: tuple[int, ...]  # the models the paragraph last names, () for none
    labels: tuple[str, ...]  # the tables the sentence or its paragraph references
    anchor: Finding


def _claims_against_tables(ctx: RuleContext, parts: list[tuple[Section, list[StarredTable | _Claim]]]) -> Iterator[Finding]:
    starred = tables_at_by_label(parts, StarredTable)
    tables = with_printed(starred, ctx)
    for _, items in parts:
        for claim in (item for item in items if isinstance(item, _Claim)):
            for label, (at, table) in each_cited(claim.labels, tables):
                for row, written in _unstarred_rows(claim, table, dict(at.legend)):
                    violation = EffectOfUnstarredCoefficient(claim.effect, row, f"Table {label}", written, claim.significance)
                    stated = "significance" if claim.significance else "an effect"
                    evidence = Evidence(
                        kind=f"weak: {stated} stated of a coefficient without a star",
                        reason="the table's legend marks every significant estimate, and this one's z gives p > .10",
                    )
                    yield claim.anchor.model_copy(
                        update={"message": violation.message, "identity": violation.identity, "evidence": evidence}
                    )


def _unstarred_rows(claim: _Claim, table: Table, legend: dict[int, float]) -> Iterator[tuple[str, str]]:
    """The rows the sentence names whose estimates, in the models it speaks of, are none of them significant."""
    read = wald_estimates(table, legend)
    columns = estimate_columns(read)
    if any(model > len(columns) for model in claim.models):
        return
    rows: dict[str, list[Estimate]] = {}
    for estimate in read:
        rows.setdefault(table.row_header(estimate.coefficient.row).strip(), []).append(estimate)
    words = {row: variable_words(row) for row in rows if not _INTERCEPT.match(row)}
    for row, variable in words.items():
        if not variable or any(other != row and variable <= shared for other, shared in words.items()):
            continue  # a row named by words another row shares ("Signal" beside "Signal x Week")
        if names_variable(claim.sentence, variable) is None:
            continue
        spoken = [
            estimate for estimate in rows[row] if not claim.models or estimate.coefficient.column in {columns[m - 1] for m in claim.models}
        ]
        if spoken and all(not_significant(estimate, legend) for estimate in spoken):
            yield row, "; ".join(estimate.written for estimate in spoken)


@rule(
    "STAT017",
    "effect-of-unstarred-coefficient",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=_claims_against_tables,
    placed_parts=True,  # tables by block index within the section, claims by their findings' ranges
)
def effect_of_unstarred_coefficient(ctx: RuleContext, section: Section) -> Iterator[StarredTable | _Claim]:
    """## What it does
    Reads a sentence that states a regression variable's effect as a finding ("higher income areas
    lead to higher vaccination uptake") against the table it references, in the model its paragraph
    names ("Model 1"), and flags it when the table prints that coefficient without a star and its
    standard error gives p > .10, in a table whose legend defines the stars. A sentence that calls
    the variable significant ("income is significantly associated with uptake") is read the same way.

    ## Why is this bad?
    The table says the data do not distinguish the coefficient from zero; the sentence states its
    effect as a finding. A reader who reads only the text takes home an effect the analysis did not
    find.

    ## Example
    ```latex
    In Model 1 (Table~\\ref{tab:vacc}), higher income areas lead to higher vaccination uptake.
    % tab:vacc, Model 1: Median Income & 0.002 \\\\ & (0.011)   (* p<0.05, ** p<0.01, *** p<0.001)
    ```

    ## Use instead
    ```latex
    In Model 1 (Table~\\ref{tab:vacc}), median income has no significant association with uptake.
    ```

    ## Fix safety
    No fix: the sentence may speak of another model than the one its paragraph names.

    ## Evidence
    "weak: an effect stated of a coefficient without a star"; "weak: significance stated of a
    coefficient without a star" when the sentence calls the variable significant.
    """
    for block, placed in enumerate(section.blocks):
        shown = shown_table(placed)
        note = table_notes(section, placed) if shown is not None else ""
        legend = star_legend(note)
        if shown is not None and legend and reads_as_standard_errors(note):
            yield StarredTable(shown.labels, block, tuple(legend.items()))
    for placed in section.blocks:
        if placed.kind in (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE):
            yield from _paragraph_claims(ctx, placed)


def _paragraph_claims(ctx: RuleContext, placed: PlacedBlock) -> Iterator[_Claim]:
    text = placed.block.plain.text
    references = paragraph_tables(placed.block)
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        effect = effect_stated(sentence)
        significance = significance_stated(sentence) if effect is None else None
        stated = effect or significance
        cited = sentence_tables(sentence, references) if stated is not None else ()
        if stated is None or not cited:
            continue
        anchor = ctx.report_block(placed, start + stated.start(), start + stated.end(), "")
        words = " ".join(stated.group(0).split())
        yield _Claim(sentence, words, significance is not None, named_models(text[:end]), cited, anchor)
