"""TAB012: a trend a sentence claims along an ordered axis of the cited table ("decreases with increasing energy for all models") that a series of it breaks.

## How it decides
A sentence claims a trend with a raw direction word bound to an axis: "decreases with increasing
energy", "a decreasing trend with larger samples", "drops as the noise rate increases" ("improves"
is not read: it needs the metric).
The sign of the trend is the direction word's times the axis word's ("with fewer" turns it).
Hedged or negated sentences are not read.

The table is one the sentence cites, else one its paragraph cites, else, in a paragraph that cites
nothing, one its section cites or places (a class of its own: a table presented in one paragraph is
often concluded on two paragraphs later). It must have an ordered axis:
three or more numeric column headers ("0.9 TeV, 2.76 TeV, 7 TeV", "10%, 20%, 50%") in increasing
or decreasing order, whose rows are the series; else three or more numeric row headers, whose
columns are. The series read are those the sentence names (all of a row's distinctive words);
when it names none, all of them only if it claims the trend of each ("for all models", "in all
cases", "consistently"); else it is not read.

A series breaks the trend where one step goes the other way beyond the rounding of both cells:
a reversal. A step with no change at all (equal cells) is reported as its own, weaker class: a
claim of a trend "for all" series is not met by a series that stays flat, but a reader may accept
it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ...context import RuleContext, Spot
from ...finding import Category, Evidence, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...quantities import name_words, slack, without_refs
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from .citing import SECTIONED, claim_sentences, section_cited
from .model import Grid, LabelledTable, against_cited, cited_tables, fed_tables, labelled_tables
from .row_naming import names_row


@violation_type
class TrendBroken(Violation):
    claim: str  # "decreasing trend with increasing"
    table: str
    series: str
    steps: str  # "7 TeV 0.0060 → 13.6 TeV 0.0060"
    flat: bool  # the step does not change, rather than reverse

    @property
    def message(self) -> str:
        broken = "does not change" if self.flat else "goes the other way"
        return f'the text claims "{self.claim}", but in Table {self.table} the series {self.series} {broken}: {self.steps}'

    @property
    def identity(self) -> str:
        return f"{self.table} {self.series} {self.claim}"


_UP = r"increas\w*|gr[eo]w\w*|ris(?:e|es|ing)|rose"
_DOWN = r"decreas\w*|drop\w*|declin\w*|fall\w*|fell|diminish\w*|shrink\w*|reduc\w*"
_AXIS_UP = r"increas\w*|larger|higher|more|greater|growing|bigger|longer"
_AXIS_DOWN = r"decreas\w*|smaller|lower|fewer|less|shorter|shrinking"
# The axis first ("with increasing"), the rarer half, then the direction word just before it.
_AXIS = DeferredPattern(
    rf"\b(?:with|as)\s+(?:the\s+|an?\s+)?(?:(?P<axis_up>{_AXIS_UP})|(?P<axis_down>{_AXIS_DOWN}))\b"
    r"|\bas\s+(?:the\s+)?(?:[\w-]+\s+){1,4}?(?:(?P<grows>increases|grows|rises)|(?P<shrinks>decreases|shrinks|falls))\b",
    re.IGNORECASE,
)
_DIRECTION = DeferredPattern(rf"\b(?:(?P<up>{_UP})|(?P<down>{_DOWN}))(?:\s+trends?)?(?:\s+[\w-]+){{0,3}}?\s+$", re.IGNORECASE)
_DIRECTION_REACH = 60
_EACH = DeferredPattern(r"\b(?:consistently|monotonically|always|(?:for|in|across)\s+(?:all|every|each)\b)", re.IGNORECASE)
_CAUTIOUS = DeferredPattern(
    r"\b(?:no|not|never|neither|nor|if|whether|would|could|should|expect\w*|hypothes\w*|except|most|generally|roughly)\b|n't\b", re.I
)
# A header that is a point of an axis: a number with at most a unit ("7 TeV", "20%", "1B"), not "Model 2".
_AXIS_HEADER = DeferredPattern(r"^\s*(?P<value>[-−]?\d+(?:\.\d+)?)[\s~]*(?:%|[A-Za-zµ]{1,5})?\s*$")
_MIN_POINTS = 3


@dataclass(frozen=True, slots=True, eq=False)
class _TrendClaim:
    labels: tuple[str, ...]
    sentence: str
    sense: int  # +1: the values grow along the axis, -1: they shrink
    claim: str
    each: bool  # claimed of every series
    spot: Spot
    sectioned: bool  # its paragraph cites nothing: the tables are those its section cites


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _may_claim(text: str) -> bool:
    return _AXIS.search(text) is not None


def _trends(sentence: str) -> list[tuple[int, int, int]]:
    """Each trend of the sentence: where it starts and ends, and its sign."""
    trends = []
    for axis in _AXIS.finditer(sentence):
        direction = _DIRECTION.search(sentence, max(0, axis.start() - _DIRECTION_REACH), axis.start())
        if direction is not None:
            sign = (1 if direction.group("up") else -1) * (1 if axis.group("axis_up") or axis.group("grows") else -1)
            trends.append((direction.start(), axis.end(), sign))
    return trends


def _claims(ctx: RuleContext, placed: PlacedBlock, in_section: tuple[str, ...]) -> Iterator[_TrendClaim]:
    for start, sentence, labels, sectioned in claim_sentences(placed, in_section):
        claimed = _claimed_trend(sentence)
        if claimed is not None:
            begin, finish, sense, each = claimed
            spot = ctx.spot(placed, start + begin, start + finish)
            yield _TrendClaim(labels, sentence, sense, " ".join(sentence[begin:finish].split()), each, spot, sectioned)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _claimed_trend(sentence: str) -> tuple[int, int, int, bool] | None:
    """The sentence's one trend, unless it hedges (start, end, sign), and whether it is claimed of every series:
    kept by its text, so typing in a paragraph reads the sentence typed in alone."""
    found, prose = _trends(sentence), without_refs(sentence)  # a label's words are no caution of the author's
    if len(found) != 1 or _CAUTIOUS.search(prose):
        return None
    return (*found[0], _EACH.search(prose) is not None)


def _broken(grid: Grid, claim: _TrendClaim) -> tuple[str, Cell, Cell] | None:
    """The first series that breaks the trend (a reversal before a flat step): its name and the step's two cells."""
    words = name_words(claim.sentence)
    all_series = _series(grid, by_rows=True) or _series(grid, by_rows=False)
    named = [(name, cells) for name, cells in all_series if names_row(name, words, False)]
    if not named and not claim.each:
        return None
    steps = [(name, *step) for name, cells in named or all_series for step in pairwise(cells)]
    broken = [step for step in steps if claim.sense * (step[2].value - step[1].value) < -slack(min(step[1].decimals, step[2].decimals))]  # type: ignore[operator]
    flat = [step for step in steps if step[1].value == step[2].value]
    return next(iter(broken or flat), None)


def _series(grid: Grid, by_rows: bool) -> list[tuple[str, list[Cell]]]:
    """The series along an ordered axis of column headers (each row a series), or of row headers
    (each column a series), each in increasing order of the axis."""
    rows, columns = list(grid.body_rows()), list(grid.columns())
    points, lines = (columns, rows) if by_rows else (rows, columns)
    header = grid.own_header if by_rows else grid.row_header
    axis = [(value, point) for point in points if (value := _axis_value(header(point))) is not None]
    values = [value for value, _ in axis]
    if len(axis) < _MIN_POINTS or not (values == sorted(set(values)) or values == sorted(set(values), reverse=True)):
        return []
    ordered = [point for _, point in sorted(axis)]
    series = []
    for line in lines:
        cells = [cell for point in ordered if (cell := grid.numeric(*((line, point) if by_rows else (point, line)))) is not None]
        if len(cells) == len(ordered):
            series.append((grid.row_header(line) if by_rows else grid.column_name(line), cells))
    return series


def _axis_value(header: str) -> float | None:
    """The number a header puts on the axis: "7 TeV" 7, "20%" 20; none for words."""
    match = _AXIS_HEADER.match(header)
    return float(match.group("value").replace("−", "-")) if match else None


def _report(ctx: RuleContext, claim: _TrendClaim, label: str, cited: LabelledTable, broken: tuple[str, Cell, Cell]) -> Finding:
    series, first, second = broken
    printed = ctx.index.printed
    flat = first.value == second.value
    violation = TrendBroken(claim.claim, label, printed(" ".join(series.split())), f"{first.text} then {second.text}", flat)
    kind = "weak: a series stays flat where a trend is claimed" if flat else "weak: a series reverses the claimed trend"
    kind += f", {SECTIONED}" if claim.sectioned else ""
    evidence = Evidence(kind=kind, reason=f"one step of {series} against the trend")
    related = [cited.related(ctx, cell, f"value {cell.text}") for cell in (first, second)]
    return ctx.report_at(claim.spot, violation.message, identity=violation.identity, related=related, evidence=evidence)


@rule(
    "TAB012",
    "trend-claim-contradicts-table",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_tables, cited_tables, against_cited(_TrendClaim, _broken, _report)),
)
def trend_claim_contradicts_table(ctx: RuleContext, section: Section) -> Iterator[LabelledTable | _TrendClaim]:
    """## What it does
    Flags a trend a sentence claims along an ordered axis of the table it (or its paragraph)
    cites ("the asymmetry decreases with increasing energy for all models") when a series of
    the table goes the other way along that axis, or does not change at all.

    ## Why is this bad?
    A trend "for all models" is a claim about every step of every series: one series that
    rises where the text says all fall makes the conclusion drawn from the trend unsafe.

    ## Example
    ```latex
    The asymmetry decreases with increasing energy for all models (Table~\\ref{tab:a}).
    % tab:a: Energy 0.9 & 2.76 & 7 \\\\ EPOS & 0.016 & 0.011 & 0.013 \\\\
    ```

    ## Use instead
    ```latex
    The asymmetry decreases with increasing energy for all models but EPOS (Table~\\ref{tab:a}).
    ```

    ## Evidence
    "weak: a series reverses the claimed trend"; "weak: a series stays flat where a trend is
    claimed"; each read in a paragraph citing nothing, against a table its section cites, is its
    own class.

    ## Fix safety
    No fix: the sentence or the table may be the one that is wrong.
    """
    yield from labelled_tables(ctx, section)
    in_section = section_cited(section)
    for placed in section.blocks:
        if placed.kind.value == "paragraph" and _may_claim(placed.block.plain.text):
            yield from _claims(ctx, placed, in_section)
