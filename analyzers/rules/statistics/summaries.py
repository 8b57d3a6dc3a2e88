"""Descriptive statistics that no data can give: a variable's summary read from a table or a sentence.

A descriptive-statistics table gives each variable's N, mean, SD, median, minimum, maximum and
percentiles, with the variables as rows under a header row of statistics ("Variable | N | Mean | SD |
Min | Max"), or as columns beside a first column of statistics. Whatever the data, its summaries
obey three bounds, each widened by the rounding of the numbers written:
- order: min ≤ every percentile (the median is the 50th) ≤ max, the percentiles in their order;
- the mean lies in [min, max];
- the spread (Bhatia and Davis 2000): n values in [min, max] with mean μ have a population variance
  of at most (max − μ)(μ − min), since every (max − x)(x − min) ≥ 0; the sample SD's n − 1 divisor
  multiplies it by n / (n − 1), at most 2 (n ≥ 2). Without a mean, (max − μ)(μ − min) ≤ (range / 2)².
Bounds of a scale (a Likert item's 1 and 7) bound the data too, so they hold for them as well.
A prose sentence that gives a mean (or median) and the range of the same values, "M = 5.2, range
1–4", "mean age 34.2 years (range 38–65)", is read the same way.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell, Table
from ....latex.record import record
from ..numbers.extents import statistic_named
from .regression import half_unit
from .statistic_columns import header_words

_HEADER_REACH = 4
# A percentile by its rank: "P25", "25%", "25th pct.", "Q1", "1st Qu.", "median".
_PERCENTILE = DeferredPattern(
    r"^(?:p\s*(?P<p>\d{1,2})|(?P<percent>\d{1,2})\s*(?:\\?%|th\s*(?:pct\.?|percentile|perc\.?)?)|q(?P<q>[123])|(?P<qu>[13])(?:st|rd)\s*qu(?:artile|\.)?"
    r"|(?P<median>median|med\.?|mdn))$",
    re.IGNORECASE,
)
# What a header names beside the statistics NUM017 reads (numbers/extents.py): APA's symbols of a mean and an
# SD, Stata's "Std. Dev.", a range cell's column and a count.
_OTHER_NAMES = {
    "mean": DeferredPattern(r"^(?:M|μ|\\mu|\\bar\{?x\}?|x̄)$"),
    "sd": DeferredPattern(r"^(?:std\.?\s*dev\.?|st\.?\s*dev\.?|σ|\\sigma)$", re.IGNORECASE),
    "range": DeferredPattern(r"^range$", re.IGNORECASE),
    "n": DeferredPattern(r"^(?:N|obs\.?|observations)$", re.IGNORECASE),
}
# A range cell: "18–65", "-2.1 to 3.4", "[0, 1]".
_NUMBER = r"[-−–]?\s?(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)"
# A comma between the ends needs a space after it: "1,234" is one number.
_RANGE_CELL = DeferredPattern(rf"^\[?\s*(?P<low>{_NUMBER})\s*(?:–|—|--?|to|,\s)\s*(?P<high>{_NUMBER})\s*\]?$")
# A header's unit: "Max (ms)", "Mean [%]".
_UNIT = DeferredPattern(r"[(\[]([^()\[\]]*)[)\]]\s*$")
_ORDER = "moderate: a summary outside the order min ≤ percentiles ≤ max"
_MEAN = "moderate: a mean outside its min and max"
_SPREAD = "moderate: an SD larger than the min, max and mean allow"
PROSE = "moderate: a sentence's mean or median outside the range it gives"


@record(slots=True)
class Summary:
    """One statistic of a variable as written: its number, places, and where it stands."""

    name: str  # "mean", "SD", "min", "P25", "median"
    value: float
    places: int
    start: int
    end: int
    text: str

    @property
    def half(self) -> float:
        return half_unit(self.places)


@dataclass(slots=True)
class Variable:
    """A variable's summaries, by statistic (percentiles by rank, the median at 50)."""

    name: str
    mean: Summary | None = None
    sd: Summary | None = None
    low: Summary | None = None
    high: Summary | None = None
    n: float | None = None
    percentiles: dict[int, Summary] = field(default_factory=dict)


@record(slots=True)
class ImpossibleSummary:
    """A summary that the variable's others rule out, and why."""

    variable: str
    at: Summary
    why: str
    kind: str

    @property
    def written(self) -> str:
        return f"{self.at.name} {self.at.text}"


def _statistic(text: str) -> tuple[str, int] | None:
    """What a header cell names: ("mean", 0), ("percentile", 25), ...; None for anything else."""
    words = header_words(text)
    named = statistic_named(words) or next((name for name, pattern in _OTHER_NAMES.items() if pattern.match(words)), None)
    if named == "median":
        return "median", 50
    if named is not None:
        return named, 0
    match = _PERCENTILE.match(words)
    if match is None:
        return None
    if match.group("median"):
        return "median", 50
    if match.group("q") or match.group("qu"):
        return "percentile", 25 * int(match.group("q") or match.group("qu"))
    rank = int(match.group("p") or match.group("percent"))
    return ("percentile", rank) if 0 < rank < 100 else None


def _is_summary_set(names: list[tuple[str, int] | None]) -> bool:
    """Statistics enough to bound one another: a centre (a mean or a percentile) and a min, max or range,
    or two percentiles, among statistics named in words: headers "P1 P2 P3" name participants or prompts
    and "Q1 Q2 Q3" quarters as often as percentiles, so they do not make a summary table alone."""
    kinds = {name[0] for name in names if name}
    percentiles = {rank for kind, rank in filter(None, names) if kind in ("percentile", "median")}
    in_words = bool(kinds & {"mean", "sd", "min", "max", "range", "median"})
    return in_words and (
        (bool(kinds & {"mean", "percentile", "median"}) and bool(kinds & {"min", "max", "range"})) or len(percentiles) >= 2
    )


def table_variables(table: Table) -> Iterator[Variable]:
    """The variables of a descriptive-statistics table, either orientation; a header row that repeats a
    statistic opens another group of columns (two samples side by side), each read as its own variable.
    Statistics whose headers give two units ("Mean (ms)" beside "Max (s)") are not one variable's."""
    for index, row in enumerate(table.rows[:_HEADER_REACH]):
        names = [_statistic(cell.text) for cell in row[1:]]
        if _is_summary_set(names):
            yield from _row_variables(
                table, index, [(cell.column, name, cell.text) for cell, name in zip(row[1:], names, strict=True) if name]
            )
            return
    names = [_statistic(row[0].text) if row else None for row in table.rows]
    if _is_summary_set(names) and _one_unit(row[0].text for row, name in zip(table.rows, names, strict=True) if name):
        yield from _column_variables(table, names)


def _one_unit(headers: Iterable[str]) -> bool:
    return len({unit.group(1).strip().lower() for header in headers if (unit := _UNIT.search(header))}) <= 1


def _row_variables(table: Table, header: int, columns: list[tuple[int, tuple[str, int], str]]) -> Iterator[Variable]:
    groups: list[dict[tuple[str, int], tuple[int, str]]] = [{}]
    for column, name, text in columns:
        if name in groups[-1]:
            groups.append({})
        groups[-1][name] = column, text
    readable = [{name: column for name, (column, _) in group.items()} for group in groups if _one_unit(text for _, text in group.values())]
    for row in table.rows[header + 1 :]:
        cells = {cell.column: cell for cell in row}
        for group in readable:
            variable = _variable(row[0].text if row else "", {name: cells.get(column) for name, column in group.items()})
            if variable is not None:
                yield variable


def _column_variables(table: Table, names: list[tuple[str, int] | None]) -> Iterator[Variable]:
    columns = sorted({cell.column for row in table.rows for cell in row[1:]})
    for column in columns:
        cells = {}
        for row, name in zip(table.rows, names, strict=True):
            if name is not None and name not in cells:
                cells[name] = next((cell for cell in row[1:] if cell.column == column), None)
        variable = _variable(table.column_header(column), cells)
        if variable is not None:
            yield variable


def _summary(name: str, cell: Cell) -> Summary | None:
    """A cell's number as a summary: a plain number, neither a bound ("< 0.01") nor a percentage."""
    if cell.value is None or cell.percent or any(sign in cell.text for sign in "<>≤≥"):
        return None
    return Summary(name, cell.value, cell.decimals, cell.start, cell.end, " ".join(cell.text.split()))


def _variable(name: str, cells: dict[tuple[str, int], Cell | None]) -> Variable | None:
    variable = Variable(" ".join(name.split()))
    for (statistic, rank), cell in cells.items():
        if cell is None:
            continue
        if statistic == "range":
            variable.low, variable.high = _range_cell(cell) or (variable.low, variable.high)
            continue
        summary = _summary("median" if rank == 50 else f"P{rank}" if rank else statistic.replace("sd", "SD"), cell)
        if summary is None:
            continue
        if statistic in ("percentile", "median"):
            variable.percentiles[rank] = summary
        elif statistic == "n":
            variable.n = summary.value
        else:
            setattr(variable, {"min": "low", "max": "high"}.get(statistic, statistic), summary)
    bounded = variable.low is not None or variable.high is not None
    return variable if bounded or len(variable.percentiles) >= 2 else None


def _range_cell(cell: Cell) -> tuple[Summary, Summary] | None:
    match = _RANGE_CELL.match(" ".join(cell.text.split()).strip("$ "))
    if match is None:
        return None
    low, high = (match.group(name) for name in ("low", "high"))
    return (
        Summary("min", _number(low), _places(low), cell.start, cell.end, low.strip()),
        Summary("max", _number(high), _places(high), cell.start, cell.end, high.strip()),
    )


def _number(text: str) -> float:
    return float(re.sub(r"[\s,]", "", text).replace("−", "-").replace("–", "-"))


def _places(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def impossible_summaries(variable: Variable) -> Iterator[ImpossibleSummary]:
    """Each summary of a variable that its others rule out, whatever the rounding: the first break of
    the order min ≤ percentiles ≤ max, a mean outside [min, max], an SD above the Bhatia–Davis bound."""
    chain = [
        summary
        for summary in (variable.low, *(variable.percentiles[rank] for rank in sorted(variable.percentiles)), variable.high)
        if summary
    ]
    for lower, upper in pairwise(chain):
        if lower.value - lower.half > _most(upper, variable):
            # the suspect is a percentile rather than the extreme it passes, and the median rather than a quartile
            if upper is variable.high or (lower.name == "median" and upper is not variable.low):
                yield ImpossibleSummary(variable.name, lower, f"it is above the {_spelled(upper.name)} {upper.text}", _ORDER)
            else:
                yield ImpossibleSummary(variable.name, upper, f"it is below the {_spelled(lower.name)} {lower.text}", _ORDER)
            return
    mean, low, high = variable.mean, variable.low, variable.high
    if mean is not None and low is not None and mean.value + mean.half < low.value - low.half:
        yield ImpossibleSummary(variable.name, mean, f"it is below the minimum {low.text}", _MEAN)
        return
    if mean is not None and high is not None and mean.value - mean.half > _most(high, variable):
        yield ImpossibleSummary(variable.name, mean, f"it is above the maximum {high.text}", _MEAN)
        return
    sd = variable.sd
    if (
        sd is not None
        and low is not None
        and high is not None
        and (bound := _largest_sd(variable)) is not None
        and sd.value - sd.half > bound
    ):
        values = f"values between {low.text} and {high.text}" + (f" with mean {mean.text}" if mean else "")
        yield ImpossibleSummary(variable.name, sd, f"{values} have an SD of at most {bound:.3g}", _SPREAD)


def _most(summary: Summary, variable: Variable) -> float:
    """The largest value a summary may stand for: its rounding, and for a whole maximum the next whole number, as
    ages and durations are written in completed units (a child "aged 7–8" may be 8 years and 11 months)."""
    return summary.value + (1.0 if summary is variable.high and summary.places == 0 else summary.half)


def _spelled(name: str) -> str:
    return {"min": "minimum", "max": "maximum"}.get(name, name)


def _largest_sd(variable: Variable) -> float | None:
    """The largest sample SD the rounded min, max and mean allow: (max − μ)(μ − min) · n / (n − 1)."""
    assert variable.low is not None and variable.high is not None
    low, high = variable.low.value - variable.low.half, _most(variable.high, variable)
    if high < low:
        return None
    if variable.mean is None:
        variance = ((high - low) / 2) ** 2
    else:
        # the product is largest at the centre of the range; the rounding of the mean lets it move towards it
        centre = min(max((high + low) / 2, variable.mean.value - variable.mean.half), variable.mean.value + variable.mean.half)
        variance = max(high - centre, 0.0) * max(centre - low, 0.0)
    n = variable.n if variable.n is not None and variable.n >= 2 else 2.0
    return math.sqrt(variance * n / (n - 1))


# A sentence's centre and its range, in either order: "M = 5.2, SD = 1.1, range 1–4", "mean age 34.2 years
# (range 38–65)", "aged 18–40 (M = 27.1)", "(range: 7 to 8, 26 female, M_age = 7.53)", and a median's
# interquartile range, "median 54 (IQR 45–63)". What stands between them is the centre's unit, an SD, a count of
# women or men, or words without a number, not a conjunction or another centre that would make the range another
# quantity's.
_CENTRE = (
    r"(?P<centre>\b(?:mean|average|median|Mdn)\b(?:\s+[a-z]+)?\s*(?:[=:]|of|was|is|were)?|(?<![\w\\])(?-i:M)(?:_\{?\w+\}?)?\s*=)\s*(?P<value>"
    + _NUMBER
    + r")(?![\d.])(?P<percent>\s*\\?%)?"
)
_RANGE = (
    r"\b(?:(?P<iqr>interquartile\s+range|IQR)|rang(?:e[sd]?|ing)|aged)\b\s*(?:[=:]|from|between|of)?\s*[\[(]?\s*(?P<low>"
    + _NUMBER
    + r")(?P<low_percent>\s*\\?%)?"
    r"\s*(?:–|—|--?|to|and|,\s)\s*(?P<high>" + _NUMBER + r")(?![\d.])(?P<high_percent>\s*\\?%)?"
)
_BETWEEN = r"(?P<between>(?:[^.;\d]|SD\s*=\s*[\d.]+|\d+(?:\.\d+)?\s*(?=\))|\d+\s+(?:fe)?males?\b|\d+\s+(?:wo)?m[ae]n\b)*?)"
_CENTRE_THEN_RANGE = DeferredPattern(_CENTRE + _BETWEEN + _RANGE, re.IGNORECASE)
_RANGE_THEN_CENTRE = DeferredPattern(_RANGE + _BETWEEN + _CENTRE, re.IGNORECASE)
_ANOTHER_QUANTITY = DeferredPattern(r"\b(?:and|while|whereas|but|mean|median|average|interquartile|IQR)\b", re.IGNORECASE)
_REACH = 60  # characters between a centre and its range


@record(slots=True)
class StatedRange:
    """A sentence's mean or median of a quantity and the range (or a median's interquartile range) of the same values."""

    variable: Variable
    start: int
    end: int


def stated_ranges(text: str) -> Iterator[StatedRange]:
    """Each mean or median a block's plain text gives beside the range of its values, and each median beside its
    interquartile range (a mean may lie outside that)."""
    if "ang" not in text and "aged" not in text and "IQR" not in text:
        return
    for pattern in (_CENTRE_THEN_RANGE, _RANGE_THEN_CENTRE):
        for match in pattern.finditer(text):
            between, in_percent = match.group("between"), bool(match.group("percent"))
            if (
                len(between) > _REACH
                or _ANOTHER_QUANTITY.search(between)
                or in_percent != bool(match.group("low_percent") or match.group("high_percent"))
                or (match.group("iqr") and not _is_median(match))
            ):
                continue  # another quantity's range, a percentage beside a number, or a mean's quartiles
            yield StatedRange(_stated_variable(match), match.start(), match.end())


def _stated_variable(match: re.Match[str]) -> Variable:
    def summary(name: str, group: str) -> Summary:
        written = match.group(group)
        return Summary(name, _number(written), _places(written), match.start(group), match.end(group), written.strip())

    if match.group("iqr"):
        variable = Variable("", percentiles={25: summary("P25", "low"), 75: summary("P75", "high")})
    else:
        variable = Variable("", low=summary("min", "low"), high=summary("max", "high"))
    if _is_median(match):
        variable.percentiles[50] = summary("median", "value")
    else:
        variable.mean = summary("mean", "value")
    return variable


def _is_median(match: re.Match[str]) -> bool:
    return match.group("centre").lower().startswith(("median", "mdn"))
