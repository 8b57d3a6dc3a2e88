"""ARI004: a factor a sentence states between two rows of a cited table ("over 40 times faster than GMAP") that their cells do not give.

## How it decides
The table is the one the sentence or its paragraph references, else the one shown last before it
in the section. A sentence that references no table (only a figure, or nothing) may mean one the
paper shows elsewhere: the one table naming both sides whose caption or label the claim's own
words name best ("11% lower on BabyAI" and "Breakdown on every BabyAI task"). The sentence names
each side by a row header of the table (or a column header, methods side by side), the claimed
one before the factor and the compared ones after "than" or "compared to" (or between
"outperforms" and "by"); "our method" names the one line headed "Ours", and "the previous best"
is, on each line across, the other cell nearest the claimed one. Changes listed before the one
that names the compared side ("14% lower on A and 11% lower on B than C") compare the same two
sides, each where its own words say; "outperforms A and B by 5% and 10%" pairs them in order (and
reads nothing where the counts differ). A table of two lines has no other pair to mean. The factor
is taken from their cells on every line across (only on the lines the sentence names, when it
names some: "fewer conflicts"; also on the lines averaged, in one unit, when it names none: a
table of tasks read as a whole), within the cells' rounding, in the same unit (a spread, "79.37 ±
0.09", is no unit), and
never on a log scale (L2FC, dB). Where the words say which side is the larger ("that of", "more",
"fewer") it must be; "faster" is a smaller time or a larger rate, and only lines of times or rates
count for it. A bound ("over", "more than", "at least") must hold on some line, and on each line
the sentence names; an estimate ("about 40 times", "40 times") must come within a quarter of it,
and a factor written to a decimal ("3.1x") within its own rounding, as one beside its pair must
(ARI002): 3.33 is "3.3x", and "3.1x" for it is unsure, being near as an estimate;
"an order of magnitude" needs a factor of 7.1 at least (two orders 71; "almost" one, 5), as authors
use it in the corpus (12.5, 57 for "almost two", 746 for "three"); a factor short of it but within
half an order (5.8 for "an order of magnitude") is generous rather than wrong, and the finding
is unsure, and so silent where another thing compared bears the claim out as written. A subject
that names several lines alike ("LLGP" of "LLGP m=500" and "LLGP m=1000") claims the factor of each
against the one line compared, and any of them bears it out. A factor before "than" that names
what it compares ("3x more parameters than") reads only a table whose header or caption names
that. Factors listed after "by", each with its
own lines ("by an order of magnitude in runtime and almost two in NLPD"), are read each on its
own ("in runtime": on lines of times). A percentage may be the
change relative to either side or the difference in points, within its own rounding ("about":
within 15%); "3.2 points higher" is the difference alone. "Up to" bounds the best case of many,
often beyond the table, and is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind, Table
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...quantities import ShownTable, each_cited, spelled
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..printed_tables import paragraph_tables, sentence_tables
from .cited import against_shown_tables, with_shown_tables
from .ratios import Compared, Factor, RatioClaim, factors, may_state_ratio, named_table, ratio_claims

# A line that sums the others up ("Total", "Avg."): the one a claim about two rows most often means.
_AGGREGATE = DeferredPattern(r"\b(?:total|overall|average|avg|mean)\b", re.IGNORECASE)
# "An order of magnitude" where the cells give 5.8, "3.1x" where they give 3.33: generous rather than wrong, so unsure.
_ARGUABLE_CONFIDENCE = 0.6


@violation_type
class RatioMiscomputed(Violation):
    claim: RatioClaim
    quote: str
    label: str
    closest: Factor

    @property
    def message(self) -> str:
        closest = self.closest
        a, b = closest.claimed, closest.compared
        line = " ".join(closest.line.split())
        return (
            f'"{self.quote}" does not follow from Table {self.label} (on {line}: {spelled(a.value or 0, a.decimals)} '
            f"against {spelled(b.value or 0, b.decimals)}, {self._recomputed})"
        )

    @property
    def _recomputed(self) -> str:
        closest = self.closest
        if self.claim.percent is None:
            return f"a factor of {closest.exact:.1f}"
        up, down, points = (sum(bounds) / 2 for bounds in closest.changes())
        decimals = max(closest.claimed.decimals, closest.compared.decimals)
        return f"a change of {up:.1f}% of the smaller, {down:.1f}% of the larger, and {points:.{decimals}f} points apart"


@dataclass(frozen=True, slots=True, eq=False)
class _Claim:
    claim: RatioClaim
    quote: str
    labels: tuple[str, ...]  # the tables the sentence cites, else those its paragraph cites, else the one just shown
    cited: bool
    anchor: Finding


def _contradicted(item: _Claim, tables: Mapping[str, tuple[Table, ...]]) -> Iterator[Finding]:
    """The claim against each table it may read, flagged for each thing compared that no line bears out
    (or, where the sentence bounds the factor on each line it names, that one of them does not)."""
    claim = item.claim
    labels = [label for label in item.labels if label in tables]
    named = named_table(claim, tables) if not labels else None
    for label, table in each_cited(labels or ([named] if named else []), tables):
        judged = [(compared, [factor for factor in compared.factors if not claim.holds_for(factor)]) for compared in factors(table, claim)]
        borne = any(_bears_out(compared, failing) for compared, failing in judged)
        for compared, failing in judged:
            arguable = any(claim.arguable(factor) for factor in failing)
            if _bears_out(compared, failing) or (arguable and borne):
                continue  # a generous reading of one thing compared, where another bears the claim out as written, is no finding
            closest = min(failing, key=lambda factor: (not _AGGREGATE.search(factor.line), claim.miss(factor)))
            violation = RatioMiscomputed(claim, item.quote, label, closest)
            evidence = Evidence(
                kind=_evidence_kind(item, compared) if labels else "weak: a table the claim's words name, not cited",
                statements=[Statement(file=item.anchor.file, range=item.anchor.range, quote=item.quote, role="stated factor")],
                reason="no line of the table gives the two named rows that factor, within the cells' rounding",
            )
            update = {"message": violation.message, "identity": violation.identity, "evidence": evidence}
            if arguable:
                update["confidence"] = _ARGUABLE_CONFIDENCE  # a looser reading of the claim holds: measured apart, unsure
            yield item.anchor.model_copy(update=update)


def _bears_out(compared: Compared, failing: list[Factor]) -> bool:
    """Whether the lines bear the claim out against one thing compared: every line, where the sentence bounds the
    factor on each line it names, else some line."""
    return not failing or (len(failing) < len(compared.factors) and not compared.each)


def _evidence_kind(item: _Claim, compared: Compared) -> str:
    """How surely the sentence means the cells recomputed: its table cited or just shown, both
    rows named or the only two rows of the table; a factor, or a change in percent; and whether
    the factor fails outright or only on the side the sentence makes larger or on one line it names."""
    if not compared.named:
        return "moderate: the only two rows of the table"
    if compared.runner_up:
        return "weak: the best of the other rows"
    if item.claim.percent is not None:
        return "moderate: a change in percent between two named rows"
    if not item.claim.than:
        return "moderate: a factor after 'by' or before 'compared to'"
    if any(item.claim.holds(factor.low, factor.high) for factor in compared.factors):
        return "moderate: the larger side and each line the sentence names"  # some line gives the factor, either way round
    return "strong: both rows of the cited table named" if item.cited else "moderate: both rows of the table just shown named"


@rule(
    "ARI004",
    "ratio-claim-mismatch",
    Category.EVIDENCE_MANIPULATION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=against_shown_tables(_Claim, _contradicted),
)
def ratio_claim_mismatch(ctx: RuleContext, section: Section) -> Iterator[ShownTable | _Claim]:
    """## What it does
    Recomputes a factor, or a change in percent, that a sentence states between two things a
    table lists: "Minimap2 is over 40 times faster than GMAP (Table~\\ref{t})", "more than 18
    times that of the bit table model", "an order of magnitude fewer conflicts", "14\\% lower
    success than SemLang", "outperforms QDT by 55\\%", "3.2 points higher than". A bound ("over",
    "at least") must hold, an estimate must come near; "up to" is left alone.

    ## Why is this bad?
    The factor is the headline a reader quotes. "Over 40 times faster" where the table gives
    39.7 overstates the result, and a factor that no line of the cited table gives was
    computed from other numbers than those printed.

    ## Example
    ```latex
    Minimap2 is over 40 times faster than GMAP (Table~\\ref{tab:time}).
    % tab:time: Run time (CPU min) & 631 & 15.9
    ```

    ## Use instead
    ```latex
    Minimap2 is almost 40 times faster than GMAP (Table~\\ref{tab:time}).
    ```

    ## Evidence
    "strong: both rows of the cited table named" when the sentence or its paragraph references
    the table; "moderate: both rows of the table just shown named" when the paragraph follows
    the table in its section without referencing one. "moderate: the larger side and each line
    the sentence names" when some line gives the factor, but the wrong way round or not on every
    line the bound names; "moderate: a change in percent between two named rows" for a
    percentage; "moderate: a factor after 'by' or before 'compared to'" for those forms;
    "moderate: the only two rows of the table" when no header names the sides; "weak: the best
    of the other rows" for "the previous best"; "weak: a table the claim's words name, not cited"
    when the sentence cites no table and its words name one by caption or label. A factor in
    orders of magnitude that the cells miss by less than half an order, or one written to a decimal
    that they miss by less than a quarter, is measured apart, in its class marked "(unsure)".
    """
    return with_shown_tables(section, lambda placed, shown: _paragraph_claims(ctx, placed, shown))


def _paragraph_claims(ctx: RuleContext, placed: PlacedBlock, shown: tuple[str, ...]) -> Iterator[_Claim]:
    """The factors the paragraph's sentences state, each against the tables it or its paragraph cites, else `shown`."""
    if placed.kind not in (BlockKind.PARAGRAPH, BlockKind.CAPTION) or not may_state_ratio(placed.block.plain.text):
        return
    text = placed.block.plain.text
    paragraph_refs = paragraph_tables(placed.block)
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        for claim in ratio_claims(sentence):
            cited = sentence_tables(sentence, paragraph_refs)
            anchor = ctx.report_block(placed, start + claim.start, start + claim.end, "")
            yield _Claim(claim, " ".join(sentence[claim.start : claim.end].split()), cited or shown, bool(cited), anchor)
