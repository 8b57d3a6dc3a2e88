"""TAB011: a sentence gives a predictor's effect a sign ("a positive effect of income") that its row of the cited table reverses.

## How it decides
A sentence states a sign with the words of an effect: "a positive effect / association /
relationship / impact", "negatively associated / related / correlated", "a negative coefficient".
It must state one sign only, and neither negate nor suppose ("no", "not", "if", "expected",
"hypothesised"): a hypothesis may be stated to be rejected.

The table is one the sentence cites, else one its paragraph cites, and reads as estimates: its
caption, its notes (a `tablenotes` or note line of its float) or its header speaks of a regression,
a model, coefficients, estimates or effects. The
sentence's words must name exactly one of its rows (all of the row's distinctive words). The row's
estimates are its numeric cells in the columns that are not a standard error, a statistic, a
p-value, an interval or a count. A ratio table (odds, hazard, risk or rate ratios, exponentiated
coefficients, said in its caption, notes or header) puts its null at 1, any other at 0.

It flags only when every estimate of the row lies on the other side of the null beyond its
rounding: a row whose models disagree, or with an estimate at the null, is left alone (a sentence
may speak of its preferred model). Where the sentence claims it of every model ("in all models",
"consistently"), one estimate on the other side is enough.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ....latex.record import record
from ...context import RuleContext, Spot
from ...finding import Category, Evidence, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...quantities import name_words, slack, without_refs
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from .model import Grid, LabelledTable, against_cited, cited_tables, citing_sentences, fed_tables, labelled_tables
from .row_naming import names_row


@violation_type
class SignContradicted(Violation):
    claim: str  # "positive effect"
    table: str
    row: str
    cells: str  # "Model 1 -0.021; Model 2 -0.016"

    @property
    def message(self) -> str:
        sign = "positive" if self.claim.lower().startswith("positiv") else "negative"
        return f'the text calls the effect of {self.row} {sign} ("{self.claim}"), but Table {self.table} gives it the opposite sign: {self.cells}'

    @property
    def identity(self) -> str:
        return f"{self.table} {self.row} {self.claim}"


_SIGN = DeferredPattern(
    r"\b(?P<sign>positive|negative)(?:ly)?\s+(?:and\s+(?:statistically\s+)?significant(?:ly)?\s+)?(?:\w+\s+)?"
    r"(?:effects?|associat\w*|relat\w*|correlat\w*|impacts?|coefficients?|influences?|predictors?|predict(?:s|ed)?)\b",
    re.IGNORECASE,
)
_CAUTIOUS = DeferredPattern(
    r"\b(?:no|not|never|neither|nor|without|if|whether|would|could|should|expect\w*|hypothes\w*|anticipat\w*|assum\w*|"
    r"prior|previous\w*|literature|studies)\b|n't\b",
    re.IGNORECASE,
)
_UNIVERSAL = DeferredPattern(
    r"\b(?:consistently|always|robust(?:ly)?|in\s+(?:all|every|each)\s+(?:\w+\s+)?(?:models?|specifications?))\b", re.I
)
_ESTIMATES = DeferredPattern(r"regression|coefficients?|estimates?|\bmodels?\b|\beffects?\b|\bOLS\b|logit|probit|β|\\beta", re.IGNORECASE)
# The abbreviations in capitals only ("or" is a word of any note), and "unexponentiated coefficients" are no ratios.
_RATIO = DeferredPattern(
    r"odds\s+ratio|hazard\s+ratio|risk\s+ratio|rate\s+ratio|(?-i:\b(?:a?OR|HR|RR|IRR)s?\b)|exp\s*\(|\bexponentiated", re.I
)
# Columns that hold something other than an estimate.
_NOT_ESTIMATE = DeferredPattern(r"\b(?:S\.?E\.?|std\.?|standard|t|z|p|p-values?|Pr|CI|conf\w*|interval|N|n|obs\w*|df|F|R2|R\^2|VIF)\b")


@record(slots=True, eq=False)
class _SignClaim:
    labels: tuple[str, ...]
    sentence: str
    sign: int  # +1 positive, -1 negative
    claim: str
    universal: bool
    spot: Spot


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _may_claim(text: str) -> bool:
    return ("ositiv" in text or "egativ" in text) and _SIGN.search(text) is not None


def _claims(ctx: RuleContext, placed: PlacedBlock) -> Iterator[_SignClaim]:
    for start, sentence, labels in citing_sentences(placed):
        signs, prose = list(_SIGN.finditer(sentence)), without_refs(sentence)  # a label's words ("tab:prior-studies") are no caution
        if not signs or len({m.group("sign").lower() for m in signs}) != 1 or _CAUTIOUS.search(prose):
            continue
        match = signs[0]
        sign = 1 if match.group("sign").lower() == "positive" else -1
        spot = ctx.spot(placed, start + match.start(), start + match.end())
        claim = " ".join(match.group(0).split())
        yield _SignClaim(labels, sentence, sign, claim, _UNIVERSAL.search(prose) is not None, spot)


def _contradicting(grid: Grid, claim: _SignClaim) -> tuple[Grid, int, list[tuple[str, Cell]]] | None:
    """The named row and its estimates on the other side of the null, when they deny the claim."""
    headers = " ".join(grid.column_header(column) for column in grid.columns())
    if not _ESTIMATES.search(f"{grid.notes} {headers}"):
        return None
    words = name_words(claim.sentence)
    rows = [row for row in grid.body_rows() if names_row(grid.row_header(row), words, False)]
    if len(rows) != 1:
        return None
    null = 1.0 if _RATIO.search(f"{grid.notes} {headers}") else 0.0
    cells = [
        (grid.column_name(column), cell)
        for column in grid.columns()
        if not _NOT_ESTIMATE.search(grid.own_header(column)) and (cell := grid.numeric(rows[0], column)) is not None
    ]
    against = [(name, cell) for name, cell in cells if claim.sign * (cell.value - null) < -slack(cell.decimals)]  # type: ignore[operator]
    if not against or (len(against) < len(cells) and not claim.universal):
        return None
    return grid, rows[0], against


def _report(
    ctx: RuleContext, claim: _SignClaim, label: str, cited: LabelledTable, found: tuple[Grid, int, list[tuple[str, Cell]]]
) -> Finding:
    grid, row, against = found
    printed = ctx.index.printed
    violation = SignContradicted(
        claim.claim,
        label,
        printed(" ".join(grid.row_header(row).split())),
        "; ".join(f"{printed(name)} {cell.text}" for name, cell in against),
    )
    kind = (
        "weak: an estimate against a sign claimed in every model"
        if claim.universal
        else "weak: every estimate of the named row has the other sign"
    )
    evidence = Evidence(kind=kind, reason=f"{len(against)} estimate(s) on the other side of the null")
    related = [cited.related(ctx, cell, f"estimate {cell.text}") for _, cell in against[:2]]
    return ctx.report_at(claim.spot, violation.message, identity=violation.identity, related=related, evidence=evidence)


@rule(
    "TAB011",
    "sign-claim-contradicts-table",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_tables, cited_tables, against_cited(_SignClaim, _contradicting, _report)),
)
def sign_claim_contradicts_table(ctx: RuleContext, section: Section) -> Iterator[LabelledTable | _SignClaim]:
    """## What it does
    Flags a sentence that gives a predictor's effect a sign ("income has a positive effect on
    uptake", "age is negatively associated with trust") when the row of that predictor in the
    regression table it (or its paragraph) cites has every estimate on the other side of zero
    (of one, for odds, hazard and risk ratios).

    ## Why is this bad?
    The sign is the finding: a reader who trusts the sentence takes away the opposite of what the
    model estimated. Either the sentence or the table is wrong.

    ## Example
    ```latex
    Median income has a positive effect on uptake (Table~\\ref{tab:uptake}).
    % tab:uptake: Median income & $-0.021^{**}$ & $-0.016^{***}$ \\\\
    ```

    ## Use instead
    ```latex
    Median income has a negative effect on uptake (Table~\\ref{tab:uptake}).
    ```

    ## Evidence
    "weak: every estimate of the named row has the other sign"; "weak: an estimate against a
    sign claimed in every model".

    ## Fix safety
    No fix: the sentence or the table may be the one that is wrong.
    """
    yield from labelled_tables(ctx, section)
    for placed in section.blocks:
        if placed.kind.value == "paragraph" and _may_claim(placed.block.plain.text):
            yield from _claims(ctx, placed)
