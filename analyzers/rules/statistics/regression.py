"""Regression tables: a coefficient, its standard error in parentheses, and the stars of its p.

A regression table writes each estimate as a coefficient with its standard error in parentheses
(or brackets), below it (the next row, whose first cell is empty), beside it (the next column) or
after it in the same cell ("-0.133** (0.044)"), and marks its
significance with stars that a legend defines ("* p<0.10, ** p<0.05, *** p<0.01"). The stars may
stand on the coefficient or, as some packages print them, on the standard error. The ratio of the
two is the Wald statistic, so the stars follow from the two numbers: z = |b| / SE, two-tailed.

A table whose parentheses hold something else (t-statistics, intervals, p-values), whose tests are
one-sided, or whose p-values come from a resampling or a corrected threshold is not read. A table
whose parentheses hold t-statistics without saying so shows itself: most of its stars disagree
with the ratio, so a table is judged only when nearly all of its estimates agree with this reading.
"""

from __future__ import annotations

import math
import re

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell, Table
from ....latex.record import record
from ...quantities import without_refs

_STARS = r"\s*(?:\\sym)?\s*\^?\s*(?P<{}>\**)\s*[+†]?\s*"
_B = r"(?P<b>[-−–]?\s?(?:\d+\.\d+|\.\d+|\d+))"
# "(0.044)" or "[0.044]"; a stray digit before it is a \vphantom's argument the plain text kept.
_SE = r"(?:\d\s+)?(?:\(\s*(?P<se>\d+\.\d+|\.\d+|\d+)\s*\)|\[\s*(?P<bracketed>\d+\.\d+|\.\d+|\d+)\s*\])"
# "-0.133**", "0.023+", ".002", "-13.8\sym{***}" once the plain text has dropped the markup.
_COEFFICIENT = DeferredPattern(rf"^\s*{_B}{_STARS.format('stars')}$")
_STANDARD_ERROR = DeferredPattern(rf"^\s*{_SE}{_STARS.format('stars')}$")
# Both in one cell: "-0.133** (0.044)"; with decimals, so that a \vphantom's "1 (0.044)" stays a standard error.
_COEFFICIENT_AND_ERROR = DeferredPattern(rf"^\s*(?P<b>[-−–]?\s?\d*\.\d+){_STARS.format('stars')}{_SE}{_STARS.format('after')}$")
# What a note says when its parentheses or its p-values are not a two-tailed Wald test's.
_OTHER_READING = DeferredPattern(
    r"t[- ]?stat|t[- ]?values?|t[- ]?ratios?|z[- ]?stat|z[- ]?values?|z[- ]?scores?|confidence intervals?|\bCIs?\b|"
    r"p[- ]?values? in (?:parenthes|bracket)|one[- ](?:tailed|sided)|bootstrap|permutation|randomi[sz]ation inference|"
    r"standard deviations? (?:are )?(?:in|shown in|reported in) (?:parenthes|bracket)|"
    r"wild|bonferroni|holm|false discovery|FDR|q[- ]?values?|adjusted p|credible|posterior",
    re.IGNORECASE,
)
# The share of a table's estimates that must agree with this reading for its other estimates to be judged.
_AGREEING = 0.85
_MIN_ESTIMATES = 6
_FEW_DEGREES = 30
# A t whose degrees of freedom a sentence or a row does not give: few enough for a small study's p.
UNSTATED_DEGREES = 10


@record(slots=True)
class Estimate:
    """A coefficient with its standard error and the stars written on either."""

    coefficient: Cell
    b_text: str
    se_text: str
    stars: int

    @property
    def written(self) -> str:
        return f"{self.b_text}{'*' * self.stars} ({self.se_text})"


def reads_as_standard_errors(note: str) -> bool:
    """The table's caption and notes say nothing that makes its parentheses other than standard errors."""
    return _OTHER_READING.search(note) is None


def estimates(table: Table) -> list[Estimate]:
    """Each coefficient of the table's body with its standard error below it, beside it or in its own cell."""
    found = []
    rows = table.rows
    for index in range(table.header_rows, len(rows)):
        row = rows[index]
        below = {cell.column: cell for cell in rows[index + 1]} if index + 1 < len(rows) and _unnamed(rows[index + 1]) else {}
        beside = {cell.column: cell for cell in row}
        for cell in row[1:]:
            if both := _COEFFICIENT_AND_ERROR.match(cell.text):
                found.append(Estimate(cell, _plain_number(both.group("b")), _error(both), len(both.group("stars") + both.group("after"))))
                continue
            coefficient = _COEFFICIENT.match(cell.text)
            partner = below.get(cell.column) or beside.get(cell.column + cell.column_span) if coefficient else None
            error = _STANDARD_ERROR.match(partner.text) if partner is not None else None
            if coefficient and error:
                stars = len(coefficient.group("stars")) + len(error.group("stars"))
                found.append(Estimate(cell, _plain_number(coefficient.group("b")), _error(error), stars))
    return found


def _error(match: re.Match[str]) -> str:
    return match.group("se") or match.group("bracketed")


def _unnamed(row: list[Cell]) -> bool:
    """A row of standard errors: its first cell names no variable (or repeats a period, "2014-15")."""
    return bool(row) and not re.search(r"[A-Za-z]", row[0].text)


def _plain_number(text: str) -> str:
    return re.sub(r"\s", "", text).replace("−", "-").replace("–", "-")


def _decimals(text: str) -> int:
    return len(text.partition(".")[2])


def two_tailed_p(z: float, df: int | None = None) -> float:
    """The two-tailed p of a Wald statistic: normal, or Student's t with `df` degrees of freedom."""
    if df is None:
        return math.erfc(abs(z) / math.sqrt(2))
    from scipy import special

    return 2 * float(special.stdtr(df, -abs(z)))


def half_unit(places: int) -> float:
    """Half the last place a number is written to: the most its rounding hides."""
    return 0.5 * 10.0**-places


def ratio_bounds(b: float, b_places: int, se: float, se_places: int) -> tuple[float, float]:
    """The |b| / SE that a coefficient and standard error, rounded to these places, allow."""
    b, half_b, half_se = abs(b), half_unit(b_places), half_unit(se_places)
    return max(b - half_b, 0.0) / (se + half_se), (b + half_b) / (se - half_se) if se > half_se else math.inf


def outside(value: float, places: int, low: float, high: float) -> bool:
    """A number written to these places lies outside [low, high] whatever its rounding."""
    return value + half_unit(places) < low or value - half_unit(places) > high


def p_bounds(weakest: float, strongest: float, degrees: int | None) -> tuple[float, float]:
    """The p a Wald statistic between these bounds gives: the smallest under the normal, the largest
    under Student's t with `degrees` (None: the normal, for a z)."""
    return two_tailed_p(strongest), two_tailed_p(weakest, degrees)


def p_contradicts(comparison: str, p: float, places: int, smallest: float, largest: float) -> bool:
    """A p written with this comparison ("<", "=", ">") cannot be one of [smallest, largest]."""
    if comparison in ("<", "≤", "<="):
        return smallest >= p
    if comparison in (">", "≥", ">="):
        return largest <= p
    return outside(p, places, smallest, largest)


def wald_stars(estimate: Estimate, legend: dict[int, float]) -> range:
    """The star counts the estimate may earn, whatever the rounding of its coefficient and standard error."""
    b, se = float(estimate.b_text), float(estimate.se_text)
    weakest, strongest = ratio_bounds(b, _decimals(estimate.b_text), se, _decimals(estimate.se_text))
    # The table rarely states its degrees of freedom: the most stars are the normal's, the fewest a small sample's.
    fewest = sum(1 for level in legend.values() if two_tailed_p(weakest, _FEW_DEGREES) < level)
    most = sum(1 for level in legend.values() if two_tailed_p(strongest) < level)
    return range(fewest, most + 1)


def contradicting(table: Table, legend: dict[int, float]) -> list[tuple[Estimate, range]]:
    """The estimates whose stars their coefficient and standard error cannot earn, when nearly all
    the table's other estimates agree with the reading (else the parentheses are not standard errors)."""
    read, wrong = _wald_reading(table, legend)
    return wrong if _reads_as_wald(read, wrong) else []


def wald_estimates(table: Table, legend: dict[int, float]) -> list[Estimate]:
    """The table's estimates, when nearly all of them earn their stars (its parentheses are standard errors); else none."""
    read, wrong = _wald_reading(table, legend)
    return [estimate for estimate, _ in read] if _reads_as_wald(read, wrong) else []


def _wald_reading(table: Table, legend: dict[int, float]) -> tuple[list[tuple[Estimate, range]], list[tuple[Estimate, range]]]:
    """Each estimate with the stars it may earn, and those whose stars it cannot."""
    read = [(estimate, wald_stars(estimate, legend)) for estimate in estimates(table) if float(estimate.se_text) > 0]
    return read, [(estimate, allowed) for estimate, allowed in read if min(estimate.stars, max(legend)) not in allowed]


def _reads_as_wald(read: list[tuple[Estimate, range]], wrong: list[tuple[Estimate, range]]) -> bool:
    return len(read) >= _MIN_ESTIMATES and len(read) - len(wrong) >= _AGREEING * len(read)


# What a sentence says of a coefficient: its effect, stated as a finding.

# "lead to higher uptake", "increased the rate", "have lower rates", "is associated with lower rates", "a positive effect",
# "more likely".
_EFFECT = DeferredPattern(
    r"\b(?:lead|leads|led)\s+to\s+(?:higher|lower|more|less|greater|increased|decreased|reduced|an?\s+(?:increase|decrease|reduction))\b"
    r"|\b(?:increase[sd]|decrease[sd]|reduce[sd]|raise[sd]|lower(?:s|ed))\b"
    r"|\b(?:has|have|had|show(?:s|ed)?)\s+(?:higher|lower|greater|more|less|fewer)\b"
    r"|\bassociated\s+with\s+(?:an?\s+)?(?:higher|lower|more|less|greater|increased|decreased|reduced|increases?|decreases?|reductions?)\b"
    r"|\b(?:positive|negative)\s+(?:effects?|impacts?|associations?|relationships?)\b"
    r"|\b(?:more|less)\s+likely\b",
    re.IGNORECASE,
)
# Significance stated as a finding of the variable: "is significantly associated with", "a significant positive effect".
_SIGNIFICANT = DeferredPattern(r"(?<![-\w])(?:statistically\s+)?significant(?:ly)?\b", re.IGNORECASE)
# A sentence that gives a p-value speaks of that p (STAT007's and STAT016's).
_P_GIVEN = DeferredPattern(r"\bp\s*[<=>≤≥]", re.IGNORECASE)
# A sentence that negates, hedges or speaks of a hypothesis states no finding of its own that the stars could
# contradict: "did not increase", "may lower", "we expect higher rates", "insignificant".
_UNSTATED = DeferredPattern(
    r"\b(?:no|not|nor|neither|never|none|null|fail(?:s|ed)?|without|insignificant\w*|non-?significant\w*)\b|n['’]t\b"
    r"|\b(?:hypothes\w*|predict\w*|expect\w*|whether|if|may|might|could|would|should|marginal(?:ly)?|trend\w*|tend\w*|suggest\w*)\b",
    re.IGNORECASE,
)
# The model or column a passage names: "Model 1", "column (2)", "Columns 1 and 3", "the first model".
_NAMED_MODEL = DeferredPattern(
    r"\b(?:models?|columns?|cols?\.|specifications?)\s*\(?(?P<numbers>\d(?:\)?\s*(?:,|and|&)\s*\(?\d)*)\)?(?!\d|\.\d)"
    r"|\b(?P<ordinal>first|second|third|fourth|fifth|sixth)\s+(?:models?|columns?|specifications?)\b",
    re.IGNORECASE,
)
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
# A row's variable named among a sentence's controls: "controlling for income", "adjusted for age".
_CONTROLLED = DeferredPattern(r"\b(?:control(?:s|led|ling)?|adjust(?:ed|ing)?|account(?:ed|ing)?)\s+for\b[^,.;]{0,40}$", re.IGNORECASE)
# Words of a row's name that qualify the variable rather than name it: "Median Income" is income.
_QUALIFIERS = frozenset(
    "the and for with per log mean median average percent percentage share rate rates number total level levels".split()
)
# A coefficient no level a paper uses calls significant: its p is above .10 whatever its rounding.
_NO_LEVEL = 0.1


def effect_stated(sentence: str) -> re.Match[str] | None:
    """The words by which a sentence states an effect as a finding, unless it says anything of significance, negates,
    hedges or speaks of a hypothesis (then the stars have nothing to contradict)."""
    effect = _EFFECT.search(sentence)
    # A referenced label's words ("tab:no-controls") neither negate nor hedge.
    prose = without_refs(sentence)
    if effect is None or "ignifican" in prose or _P_GIVEN.search(prose) or _UNSTATED.search(prose):
        return None  # significance stated is `significance_stated`'s
    return effect


def significance_stated(sentence: str) -> re.Match[str] | None:
    """The word by which a sentence calls a variable significant as a finding ("is significantly associated with"),
    unless it gives a p-value, negates, hedges or speaks of a hypothesis."""
    prose = without_refs(sentence)
    word = _SIGNIFICANT.search(sentence)
    if word is None or _P_GIVEN.search(prose) or _UNSTATED.search(prose):
        return None
    return word


def named_models(passage: str) -> tuple[int, ...]:
    """The models or columns (numbered from 1) the last mention of one in the passage names: "Model 1", "Columns 2
    and 3", "the first model"; () when the passage names none."""
    mention = next(reversed(list(_NAMED_MODEL.finditer(passage))), None)
    if mention is None:
        return ()
    if mention.group("ordinal"):
        return (_ORDINALS.index(mention.group("ordinal").lower()) + 1,)
    return tuple(int(digit) for digit in re.findall(r"\d", mention.group("numbers")))


def variable_words(name: str) -> frozenset[str]:
    """The words of a row's name that name its variable: "Median Income" is {"income"}."""
    return frozenset(word for word in re.findall(r"[a-z]{3,}", name.lower()) if word not in _QUALIFIERS)


def names_variable(sentence: str, words: frozenset[str]) -> int | None:
    """Where a sentence names a variable by all its words (a plural too), outside a list of controls: the offset of its
    first word; None when it does not."""
    offsets = []
    for word in words:
        found = re.search(rf"\b{word}s?\b", sentence, re.IGNORECASE)
        if found is None or _CONTROLLED.search(sentence[: found.start()]):
            return None
        offsets.append(found.start())
    return min(offsets) if offsets else None


def not_significant(estimate: Estimate, legend: dict[int, float]) -> bool:
    """An estimate without a star or a dagger whose coefficient and standard error give p > .10 and above every
    level of the legend, whatever their rounding."""
    if estimate.stars or re.search(r"[+†]", estimate.coefficient.text) or float(estimate.se_text) <= 0:
        return False
    b, se = float(estimate.b_text), float(estimate.se_text)
    _, strongest = ratio_bounds(b, _decimals(estimate.b_text), se, _decimals(estimate.se_text))
    return two_tailed_p(strongest) > max(_NO_LEVEL, *legend.values())


def estimate_columns(found: list[Estimate]) -> list[int]:
    """The table's columns of estimates in order: the nth is the table's model n."""
    return sorted({estimate.coefficient.column for estimate in found})
