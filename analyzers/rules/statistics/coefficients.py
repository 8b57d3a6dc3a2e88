"""A coefficient a sentence reports, with what it reports beside it: its standard error, its
Wald statistic and its p ("b = 0.16, SE = 0.08, p = .040"; "β = -3.18; SE = 0.27; t = -11.96").

The three follow from two of them: t (or z) = b / SE, and p from that ratio. The ratio's p is a
range, not a number: the rounding of b and SE widens it, and the distribution is the normal for
a large sample (the smallest p) or Student's t with few degrees of freedom (the largest: the
degrees the paragraph states for a t, else 10). A p outside that range, or a t or z that the
rounded b and SE cannot give, is a slip in one of the numbers.

A sentence may give the coefficient alone ("b = -0.133, p < .001; see Table 2"): its standard
error is then the one its cited table prints under the same coefficient (regression.py).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.record import record
from ...apa_results import P_VALUE, decimals, p_number
from ...memo import TEXT_CACHE_SIZE
from .regression import UNSTATED_DEGREES, outside, p_bounds, p_contradicts, ratio_bounds

_NUMBER = r"[-−–]?\s?(?:\d+\.\d+|\.\d+|\d+)"
_COEFFICIENT = DeferredPattern(rf"(?<![\w\\^_])(?:b|B|β|beta|coefficient|estimate)\s*=\s*(?P<b>{_NUMBER})")
_SE = DeferredPattern(rf"(?<![\w\\])(?:SE|S\.E\.|s\.e\.)\s*=\s*(?P<se>{_NUMBER})")
_WALD = DeferredPattern(rf"(?<![\w\\^_])(?P<name>[tz])\s*(?:\(\s*(?P<df>\d+(?:\.\d+)?)\s*\))?\s*=\s*(?P<value>{_NUMBER})")
_P = DeferredPattern(P_VALUE)
_REACH = 90  # characters from the coefficient in which its statistics stand


@record(slots=True)
class CoefficientReport:
    """A coefficient with the standard error, Wald statistic and p written after it (each may be absent)."""

    b_text: str
    start: int
    end: int  # the last of the numbers the report reads
    se_text: str | None
    wald: tuple[str, str, int | None] | None  # ("t", "-11.96", degrees of freedom)
    p: tuple[str, str] | None  # ("<", ".001")


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def coefficient_reports(text: str) -> tuple[CoefficientReport, ...]:
    """Each coefficient of the text with what stands after it, up to the next coefficient."""
    found = []
    matches = list(_COEFFICIENT.finditer(text))
    for index, match in enumerate(matches):
        limit = min(match.end() + _REACH, matches[index + 1].start() if index + 1 < len(matches) else len(text))
        se, wald, p = _SE.search(text, match.end(), limit), _WALD.search(text, match.end(), limit), _P.search(text, match.end(), limit)
        if not (se or wald or p):
            continue
        end = max(part.end() for part in (match, se, wald, p) if part is not None)
        degrees = int(float(wald.group("df"))) if wald and wald.group("df") else None
        stat = (wald.group("name"), _plain(wald.group("value")), degrees) if wald else None
        found.append(
            CoefficientReport(
                _plain(match.group("b")),
                match.start(),
                end,
                se.group("se") if se else None,
                stat,
                (p.group("cmp"), p.group("p")) if p else None,
            )
        )
    return tuple(found)


def _plain(text: str) -> str:
    return re.sub(r"\s", "", text).replace("−", "-").replace("–", "-")


def rounds_to(precise: str, written: str) -> bool:
    """The precise number, rounded to the places of the written one, is the written one ("-0.1334" is "-0.133")."""
    places = decimals(written)
    return (
        places <= decimals(precise)
        and f"{abs(float(precise)):.{places}f}" == f"{abs(float(written)):.{places}f}"
        and (float(precise) < 0) == (float(written) < 0)
    )


def _ratio(report: CoefficientReport, se_text: str) -> tuple[float, float]:
    return ratio_bounds(float(report.b_text), decimals(report.b_text), float(se_text), decimals(se_text))


def wald_contradicted(report: CoefficientReport, se_text: str) -> bool:
    """The t or z written is not |b| / SE, beyond the rounding of all three."""
    if report.wald is None:
        return False
    _, value_text, _ = report.wald
    value = abs(float(value_text))
    return value != 0 and outside(value, decimals(value_text), *_ratio(report, se_text))


def p_contradicted(report: CoefficientReport, se_text: str, degrees: int | None) -> tuple[float, float] | None:
    """The p range that b and SE give, when the p written lies outside it; None when it agrees."""
    if report.p is None or (p := p_number(report.p[1])) is None:
        return None
    smallest, largest = p_bounds(*_ratio(report, se_text), degrees or UNSTATED_DEGREES)
    return (smallest, largest) if p_contradicts(report.p[0], p, decimals(report.p[1]), smallest, largest) else None
