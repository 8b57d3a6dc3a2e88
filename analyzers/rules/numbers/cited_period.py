"""NUM018: the period of one cited data source ("the Vaccine Hesitancy survey \\citep{vaches_data} … during
May 26, 2021 – June 7, 2021") dated otherwise elsewhere (its row of a data-sources table: "March 3 - 15, 2021").

## How it decides
A period is two dates joined by a dash, "to", "until", "through", or "between … and …": years ("2010-2020"),
months ("March 2019 to June 2020") or days ("May 26, 2021 – June 7, 2021", "March 3 - 15, 2021", "Jan 3--Feb
6, 2020"), with a year written at least once (an end without a year takes the other's). A period belongs to the
one source its sentence cites (every citation of the sentence naming the same single key); a sentence that cites
nothing belongs to the source its paragraph cites, when the paragraph cites one alone; a table row belongs to the
one source it cites. A sentence or row citing two sources or more dates none of them.

Two periods of one source, in two blocks, disagree when an end differs at the precision both give: "2020-2021"
and "March 2020 – May 2021" agree, "May 26 – June 7, 2021" and "March 3 - 15, 2021" do not. One block giving
two periods of a source gives them on purpose (a baseline period and the data's: "in comparison to … the 5-week
period Jan 3--Feb 6, 2020", then "from March 02, 2020 through December 28, 2020"; the rows of one table that
share a citation are that many sites), and so does a sentence that says it speaks of a part or another period of
the source (a wave, a round, a baseline, a subset, "only", "instead").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.model import BlockKind
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import PROSE_KINDS
from .restated import Found, Pair, Stated, block_stated, reported, restatements

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
_YEAR = r"(?:19|20)\d\d"
# One end of a period: "May 26, 2021", "26 May 2021", "March 2019", "March 3", "2021", or "15, 2021" after a month.
_END = rf"(?:\d{{1,2}}\s+{_MONTH}\.?(?:,?\s+{_YEAR})?|{_MONTH}\.?(?:\s+\d{{1,2}}(?:st|nd|rd|th)?\b,?)?(?:\s+{_YEAR})?|\d{{1,2}},?\s+{_YEAR}|{_YEAR})"
_PERIOD = DeferredPattern(
    rf"(?<![\w.,-])(between\s+)?({_END})\s*(?:-{{1,3}}|–|—|\bto\b|\buntil\b|\bthrough\b|\band\b)\s*({_END})(?![\w-]|[.,]\d)"
)
_DAY_MONTH_YEAR = DeferredPattern(rf"(?:(\d{{1,2}})\s+)?({_MONTH})\.?(?:\s+(\d{{1,2}})(?!\d))?")
_YEAR_IN = DeferredPattern(_YEAR)
_DAY_ALONE = DeferredPattern(r"^(\d{1,2}),?\s")
_CITATION = DeferredPattern(r"\\[A-Za-z]*cite[A-Za-z]*\*?(?:\[[^\]]*\])*\{([^}]*)\}")
# A sentence that says it dates a part of the source, or another of its periods, than the whole.
_PART = DeferredPattern(r"\b(?:waves?|rounds?|phases?|baseline|pilot|subsets?|sub-?samples?|only|instead)\b", re.IGNORECASE)
_KEY = "the period of "
_ROW = DeferredPattern(r"[^\n]+")  # a table block's plain text gives a row a line

End = tuple[int | None, int | None, int | None]  # year, month, day, each None where the end does not give it


def _end(written: str) -> End:
    found = _YEAR_IN.search(written)
    year = int(found.group(0)) if found else None
    named = _DAY_MONTH_YEAR.search(written)
    if named is None:
        alone = _DAY_ALONE.match(written)
        return (year, None, int(alone.group(1)) if alone else None)
    day = named.group(1) or named.group(3)
    return (year, _MONTHS.index(named.group(2)[:3].lower()) + 1, int(day) if day else None)


def dated_periods(text: str) -> Iterator[tuple[int, int, tuple[float, ...]]]:
    """The periods `text` gives, with a year written at least once: (start, end, values), the values being year,
    month and day of each end, 0 where not given (an end without a year takes the other's, a day without a month
    the first end's month). Two years joined by "and" are a period only after "between"."""
    for match in _PERIOD.finditer(text):
        between, first, last = match.groups()
        joined = text[match.end(2) : match.start(3)]
        if "and" in joined and not between:
            continue
        (year, month, day), (last_year, last_month, last_day) = _end(first), _end(last)
        if last_year is None:
            continue
        year = year or last_year
        if last_month is None and last_day is not None:
            last_month = month
        if month is None and day is not None:
            continue
        values = (year, month or 0, day or 0, last_year, last_month or 0, last_day or 0)
        yield match.start(2), match.end(3), tuple(float(value) for value in values)


def _cited(text: str) -> set[str]:
    return {key.strip() for keys in _CITATION.findall(text) for key in keys.split(",") if key.strip()}


def _blanked(text: str) -> str:
    """`text` with its citation commands blanked, offsets kept: a key is no date ("ATL-PHYS-PUB-2017-003")."""
    return _CITATION.sub(lambda match: " " * len(match.group(0)), text)


def _may_date(text: str) -> bool:
    """A quick look before a block is split: a period has a year, and its source a citation."""
    return "cite" in text and _YEAR_IN.search(text) is not None


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _block_periods(text: str, rows: bool) -> tuple[Found, ...]:
    """The periods of one cited source a block's text gives, by sentence (or by row, of a table): kept by the
    block's text. A sentence citing nothing takes the source of its paragraph, when the paragraph cites one alone."""
    if not _may_date(text):
        return ()
    spans = [(match.start(), match.end()) for match in _ROW.finditer(text)] if rows else sentence_spans(text)
    cited = _cited(text)
    paragraph_source = next(iter(cited)) if len(cited) == 1 and not rows else None
    found: list[Found] = []
    for begin, finish in spans:
        unit = text[begin:finish]
        sources = _cited(unit)
        if len(sources) > 1 or _PART.search(unit):
            continue
        source = next(iter(sources), paragraph_source)
        if source is None:
            continue
        line = " ".join(unit.split())
        for start, end, values in dated_periods(_blanked(unit)):
            written = " ".join(unit[start:end].split())
            found.append((begin + start, begin + end, f"{_KEY}`{source}`", values, written, frozenset(), line, frozenset()))
    return tuple(found)


def _other_period(statement: Stated, other: Stated) -> bool:
    """Two blocks date one source with periods an end of which differs at the precision both give."""
    if statement.block == other.block:
        return False
    ends = zip(statement.values[:3], other.values[:3], strict=True), zip(statement.values[3:], other.values[3:], strict=True)
    return any(mine != theirs for end in ends for mine, theirs in end if mine and theirs)


@violation_type
class PeriodRestated(Violation):
    """The period `slip` here, `told` in the section `where`, of the cited source `source`."""

    slip: str
    told: str
    where: str
    source: str

    @property
    def message(self) -> str:
        return f'{self.source} is dated "{self.slip}" here, but "{self.told}" in {self.where}'

    @property
    def identity(self) -> str:
        return f"{self.source} {self.slip} {self.told}"


def _reported(pair: Pair) -> Finding:
    source = pair.slip.key.removeprefix(_KEY)
    violation = PeriodRestated(pair.slip.written, pair.told.written, pair.told.where, source)
    reason = f"both date the one source they cite, {source}, and an end differs"
    return reported(pair, violation, "periods: one cited source, two periods", reason, "period", 0.6)


@rule(
    "NUM018",
    "cited-source-period-restated",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=restatements(_other_period, _reported),
)
def cited_source_period_restated(ctx: RuleContext, section: Section) -> list[list[Stated]]:
    """## What it does
    Flags a cited data source dated twice with two periods: "One measure of attitudinal indicators is
    the Vaccine Hesitancy for COVID-19 \\citep{vaches_data}. The CDC uses the Household Pulse Survey
    to measure residents' intentions … during May 26, 2021 – June 7, 2021" and, in the data-sources
    table, the row "Vaccine Hesitancy for COVID-19 \\citep{vaches_data} & Cross-Sectional & March 3 - 15,
    2021". A period belongs to the one source its sentence (or table row) cites, or, in a sentence
    citing nothing, to the one source its paragraph cites.

    ## Why is this bad?
    The period of a survey or a dataset says what the data can show (before or after a vaccine was
    available, a policy passed); two periods for one source leave the reader unable to tell which
    data were analysed, and one of them is usually copied from another source's description.

    ## Example
    ```latex
    One measure is the Vaccine Hesitancy for COVID-19 \\citep{vaches_data}. The CDC measured
    intentions during May 26, 2021 -- June 7, 2021.
    ...
    Vaccine Hesitancy for COVID-19 \\citep{vaches_data} & Cross-Sectional & March 3 -- 15, 2021 \\\\
    ```

    ## Use instead
    The same period in both places (or say which part of the source each describes: a wave, a
    baseline period).

    ## Evidence
    "periods: one cited source, two periods"; confidence 0.6. Its measured precision decides
    whether a finding is information or a hint.
    """
    return [
        [
            statement
            for placed in section.blocks
            if placed.kind in PROSE_KINDS or placed.kind is BlockKind.TABLE
            for statement in block_stated(ctx, section, placed, _block_periods(placed.block.plain.text, placed.kind is BlockKind.TABLE))
        ]
    ]
