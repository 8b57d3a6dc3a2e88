"""A factor a sentence states between two things ("over 40 times faster than GMAP", "an order of
magnitude fewer", "14% lower than SemLang"), and the factor between the cells of a table that it names.

The sentence names the two things by the headers of a cited table's lines (rows, or columns when
the methods stand side by side), or the table has only two lines; the factor is recomputed from
their cells on every line across (each metric), with the rounding of the cells. A bound ("over 40
times", "at least an order of magnitude") must hold, on each line the sentence names; an estimate
("about 40 times", "40 times", "an order of magnitude": 7.1 at least) must be near. The words say which side is
the larger ("that of", "fewer"); where they do not ("faster", "a reduction"), the factor is taken
either way round. A percentage is a change relative to either side, or a difference in points.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import Cell, Table
from ....latex.numbers import TIMES_TEN_TO
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE
from ...quantities import name_words, named_share, slack, spelled

_WORD_FACTORS = {"two": 2, "three": 3, "four": 4, "five": 5, "ten": 10, "twice": 2}
_BOUND = r"(?P<bound>over|more\s+than|at\s+least|above|exceeding|greater\s+than)\s+"
_ESTIMATE = r"(?P<estimate>about|around|roughly|approximately|nearly|almost|close\s+to|some|~|\\sim)\s*"
_FACTOR = r"(?P<factor>\d+(?:\.\d+)?)\s*(?:times|x|×|\\times|-?fold)"
# "14% lower", "12 percent higher", and a difference in points: "3.2 points higher", "outperforms B by 5 pp".
_PERCENT = r"(?P<percent>\d+(?:\.\d+)?)\s*(?:%|percent\b|(?P<points>(?:percentage\s+)?points?\b|pp\b))"
_MAGNITUDE = r"(?P<orders>an|one|two|three|four)\s+orders?\s+of\s+magnitude"
# A factor, a percentage or orders of magnitude, bounded ("over") or estimated ("about") or neither.
_STATED = r"(?:" + _BOUND + r"|" + _ESTIMATE + r")?(?:" + _FACTOR + r"|" + _PERCENT + r"|" + _MAGNITUDE + r")"
# "faster than", "fewer conflicts than", "that of", "as large as"; or, after a few words naming
# what changes, "compared to" ("a reduction … in the number of decisions compared to CBMC").
_COMPARISON = (
    r"(?:\s+(?:(?P<comparative>[a-z]+er|more|less|fewer)(?:\s+[a-z-]+){0,2}?\s+)?(?:than|(?P<of>that\s+of|as\s+(?P<as>\w+)\s+as))\b"
    r"|(?P<gap>(?:\s+[^\s.;:()]+){0,8}?)\s+(?:compared\s+(?:to|with)|relative\s+to|versus|vs\.?)\s"
    r"|(?P<noun>(?:\s+(?!(?:in|on|of|for|at|to|from)\b)[a-z-]+){1,2})\s+over\s)"  # "a 12% improvement over", never "5.85 fold in A over B"
)
_CLAIM = DeferredPattern(
    r"(?<![\w.])" + _STATED + _COMPARISON,
    re.IGNORECASE,
)
# Or the compared side first, the factor after "by": "outperforms B by 55%", "improves on B by a factor of 4".
_BY_CLAIM = DeferredPattern(
    r"\b(?P<verb>outperform\w*|beat\w*|surpass\w*|exceed\w*|improv\w*\s+(?:up)?on|(?P<comparative>[a-z]+er|more|less|fewer)\s+than)"
    r"\s+(?P<compared>[^.;:()%]{1,60}?)\s+by\s+(?:(?P<times>a\s+factor\s+of\s+)|a\s+margin\s+of\s+)?(?:" + _BOUND + r"|" + _ESTIMATE + r")?"
    r"(?:" + _FACTOR + r"|" + _PERCENT + r"|" + _MAGNITUDE + r"|(?P<bare>\d+(?:\.\d+)?)\b)",
    re.IGNORECASE,
)
# A change listed before another that names the compared side for both: "14% lower success on A and
# 11% lower on B than C". Its own words ("success on A") say where it holds; "than" follows in the sentence.
_LISTED = re.compile(  # compiled now: a match is told from the others by `match.re is _LISTED`
    r"(?<![\w.])" + _STATED + r"\s+(?P<comparative>[a-z]+er|more|less|fewer)\b"
    r"(?P<scope>(?:\s+(?!(?:than|and|but|while|whereas)\b)[^\s.;:(),]+){0,4}?)\s*(?:,\s*|\s+)and\s+(?=[^.;]*?\bthan\b)",
    re.IGNORECASE,
)
# Where a factor after "by" holds ("… by 10x in runtime"), and a further factor with its own ("and 2x in memory").
_SCOPE_WORDS = r"\s+(?:in|on|for)\s+(?P<scope>[^\s.;:(),]+(?:\s+(?!and\b)[^\s.;:(),]+){0,2})"
_OWN_SCOPE = DeferredPattern(_SCOPE_WORDS, re.IGNORECASE)
_SCOPED_FACTOR = DeferredPattern(
    r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?:by\s+)?(?P<claim>" + _STATED + r")" + _SCOPE_WORDS,
    re.IGNORECASE,
)
# A claim's own words that name a line of times ("in runtime"): read as a comparison of speed.
_TIME_WORDS = DeferredPattern(r"\b(?:run-?\s?times?|time|latency|speed|throughput)\b", re.IGNORECASE)
# The words closing a comparison ("than", "that of"): what the comparison measures stands before them.
_COMPARED_WORD = DeferredPattern(r"\b(?:than|that\s+of|as\s+\w+\s+as)\s*$", re.IGNORECASE)
# What every claim above contains: a number before its "times" (or "x", "fold", "%"), or "magnitude".
_FACTOR_HINT = DeferredPattern(r"\d\s*(?:times|x|×|\\times|-?fold|%)|magnitude", re.IGNORECASE)
# A comparison of speed names a line of times or rates; other lines measure something else.
_SPEED = DeferredPattern(r"\b(?:faster|slower|quicker|speedier|fast|quick)\b", re.IGNORECASE)
_TIME_HEADER = DeferredPattern(r"time|speed|throughput|latency|fps|\bs\b|sec|min|hour|\bms\b|\bh\b|per\s+second|/s\b", re.IGNORECASE)
# The words that say which side is the larger: the claimed one ("18 times that of", "more"), or the compared one.
_LARGER = DeferredPattern(
    r"\b(?:exceed\w*|more|larger|higher|bigger|greater|longer|increase[sd]?|large|much|many|high|big|long)\b", re.IGNORECASE
)
_SMALLER = DeferredPattern(r"\b(?:less|fewer|smaller|lower|shorter|reduc\w*|decrease[sd]?|drops?)\b", re.IGNORECASE)
# A percentage compares two things only as a change: "14% lower than", "a 12% improvement over", never "5% of the data compared to".
_CHANGE = DeferredPattern(
    r"^(?!\s+of\b).*\b(?:higher|lower|better|worse|faster|slower|larger|smaller|greater|fewer|less|more|improve\w*|gains?|reduc\w*"
    r"|increase[sd]?|decrease[sd]?|speed-?ups?|drops?|boosts?)\b",
    re.IGNORECASE,
)
_OBJECT_END = DeferredPattern(r"[.;,:()]|\b(?:while|whereas|but|which|when|on|in|for|with)\b")
_UP_TO = DeferredPattern(r"\b(?:up\s+to|as\s+much\s+as)\s+$", re.IGNORECASE)
_PRONOUN = DeferredPattern(r"[\s,;]*(?:(?:while|whereas|and|but|so)\s+)?(?:it|they|this|these|which)\b", re.IGNORECASE)
_LEADING_PREPOSITION = DeferredPattern(r"\s*(?:in|on|for|with|of|by)\b", re.IGNORECASE)
# Cells on a log scale ("L2FC", "log odds", "dB") do not divide into a factor.
_LOG_SCALE = DeferredPattern(r"\blog(?![a-z])|\bl2fc\b|\blfc\b|\bdb\b", re.IGNORECASE)
_SPREAD = DeferredPattern(r"\(|±|\\pm\b")
# A cell's power of ten after its mantissa ("4.5\cdot10^{-3}", "3e5").
_TIMES_TEN = DeferredPattern(TIMES_TEN_TO)
# The compared side named as the best of the rest ("outperforms the previous best by 2%"), and its stand-in line.
_RUNNER_UP_WORDS = DeferredPattern(
    r"\b(?:previous|prior|next|second)[\s-]+best\b|\b(?:best|strongest)\s+(?:baselines?|competitors?|prior|previous|existing|other)\b"
    r"|\brunners?[\s-]?ups?\b",
    re.IGNORECASE,
)
RUNNER_UP = -1
# The authors' method in a sentence, and the header of its line.
_OUR_METHOD = DeferredPattern(r"\bour\s+(?:[a-z-]+\s+)?(?:method|approach|model|framework|system|algorithm)\b|\bours\b", re.IGNORECASE)
_OURS_HEADER = DeferredPattern(r"^\W*(?:ours|proposed|our\s+(?:method|approach|model))\W*$", re.IGNORECASE)
# The further changes of "by 5% and 10%", each after the last; and the sides "A and B", "A, B and C" they pair with.
_MORE_FACTORS = DeferredPattern(
    r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?:by\s+)?(?P<value>\d+(?:\.\d+)?)\s*(?:%|percent\b|(?:percentage\s+)?points?\b|pp\b)", re.IGNORECASE
)
_SIDES = DeferredPattern(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.IGNORECASE)
# Words of a claim that name no table: its comparison and its prepositions.
_SCOPE_STOP = frozenset({"on", "in", "for", "of", "at", "than", "and", "to", "with", "by", "percent", "points", "times", "fold"})
_UNIT = DeferredPattern(r"[\d.,\s{}~$\\]+|(?:SI|num)\b")
# How far below 10^N, in orders, a factor still bears out "N orders of magnitude" (as read in the corpus: 12.5,
# 57 for "almost two", 746 for "three"), "almost" or "about" N; and how far it is arguable rather than wrong.
_ORDERS_NEAR = 0.15  # "an order of magnitude": 7.1 at least
_ORDERS_LOOSE = 0.3  # "almost an order of magnitude": 5 at least
_ORDERS_ARGUABLE = 0.5  # below 3.2, "an order of magnitude" is wrong by any reading


@record(slots=True)
class RatioClaim:
    """A factor (or a percentage change) the sentence states, how (a bound or an estimate), and the words naming each side."""

    factor: float
    bound: bool
    orders: bool  # "an order of magnitude": the factor is a power of ten, read loosely
    speed: bool
    subject: str
    compared: str
    words: frozenset[str]  # of the whole sentence: the lines across it names ("fewer conflicts")
    start: int
    end: int
    larger: int = 0  # 1: the claimed side is the larger ("18 times that of"), -1: the smaller ("fewer"), 0: either
    percent: int | None = None  # a change in percent ("14% lower than"): the decimals it is written with
    loose: bool = False  # "about", "nearly": an estimate
    between: str = ""  # the words between the factor and "compared to": what changes, never a side ("fold in A compared with B")
    than: bool = True  # read as "… than B" (or "that of B"), the form of longest standing
    points: bool = False  # "3.2 points higher": the difference of the cells, never their ratio
    scope: str = ""  # the claim's own words, which may name where it holds ("14% lower success on LangR")
    decimals: int = 0  # of a factor written to a decimal ("3.1x"): it claims that precision
    measure: str = ""  # what the factor compares, where the words name it ("3x more parameters than"): a table must measure it

    def holds(self, low: float, high: float) -> bool:
        """Whether a factor somewhere between `low` and `high` (what the cells' rounding allows) bears the claim out."""
        if self.bound:
            return high >= self.factor
        if self.orders:
            return high >= self.factor / 10 ** (_ORDERS_LOOSE if self.loose else _ORDERS_NEAR)
        if self.decimals and not self.loose:  # "3.1x": as precise as it is written, like a factor beside its pair (ARI002)
            spread = slack(self.decimals)
            return high >= self.factor - spread and low <= self.factor + spread
        return self._near_estimate(low, high)

    def arguable(self, factor: Factor) -> bool:
        """Whether cells that fail the claim still bear out a looser reading of it, the larger side where the
        words say: within half an order of "an order of magnitude" (5.8 is generous, not wrong by any reading),
        or, for a factor written to a decimal ("3.1x" for 3.33), near it as an estimate."""
        if self.bound or self.percent is not None or (self.larger and factor.oriented and factor.claimed_larger != (self.larger > 0)):
            return False
        if self.orders:
            return factor.high >= self.factor / 10**_ORDERS_ARGUABLE
        return bool(self.decimals) and self._near_estimate(factor.low, factor.high)

    def _near_estimate(self, low: float, high: float) -> bool:
        return high >= self.factor * 0.8 and low <= self.factor * 1.25

    def holds_for(self, factor: Factor) -> bool:
        """Whether the two cells bear the claim out: the larger side where the sentence says which, then
        the factor, or for a percentage the relative change (of either side) or the difference in points."""
        if self.larger and factor.oriented and factor.claimed_larger != (self.larger > 0):
            return False
        if self.percent is None:
            return self.holds(factor.low, factor.high)
        stated = slack(self.percent)
        changes = factor.changes()
        return any(self._near(low, high, stated) for low, high in (changes[-1:] if self.points else changes))

    def miss(self, factor: Factor) -> float:
        """How far the cells' factor (or nearest change) is from the stated one: the closest line is the one reported."""
        if self.percent is None:
            return abs(factor.exact - self.factor)
        changes = factor.changes()
        return min(abs((low + high) / 2 - self.factor) for low, high in (changes[-1:] if self.points else changes))

    def _near(self, low: float, high: float, stated: float) -> bool:
        if self.bound:
            return high >= self.factor
        spread = max(stated, self.factor * 0.15) if self.loose else stated
        return high >= self.factor - spread and low <= self.factor + spread


@lru_cache(maxsize=TEXT_CACHE_SIZE)  # kept by text: a section's walk asks of each of its blocks on every edit
def may_state_ratio(text: str) -> bool:
    """Whether `text` may state a factor: one short pattern, so a paragraph without one is not split into sentences."""
    return _FACTOR_HINT.search(text) is not None


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def ratio_claims(sentence: str) -> tuple[RatioClaim, ...]:
    """The factors the sentence states. The claimed side is named before the factor (before the
    verb: "A outperforms B by 55%"), apart from what an earlier factor of the sentence compared
    with ("13 times less than A, while it is 18 times that of B", where "it" is the claimed side
    again); the compared side after "than", up to the end of its phrase, or between the verb and "by".
    Changes listed before the one that names the compared side ("14% lower on A and 11% lower on
    B than C") compare the same two sides, each where its own words say."""
    found: list[RatioClaim] = []
    listed: list[re.Match[str]] = []  # changes waiting for the "than" that names their compared side
    after = 0  # where the last claim's compared side ends
    matches = (*_CLAIM.finditer(sentence), *_BY_CLAIM.finditer(sentence), *_LISTED.finditer(sentence))
    for match in sorted(matches, key=lambda match: match.start()):
        if _stated(match) is None or match.start() < max(after, listed[-1].end() if listed else 0):
            continue
        if _UP_TO.search(sentence, 0, match.start()):
            continue  # "up to 100 times": the best case of many
        if match.re is _LISTED:
            listed.append(match)
            continue
        if match.groupdict().get("verb") or (listed and sentence[listed[-1].end() : match.start()].strip()):
            listed.clear()  # "…, and B outperforms C by 5%": another clause names no side for the changes before it
        if match.groupdict().get("verb"):
            compared, stop = match.group("compared"), match.end()
        else:
            begin = _LEADING_PREPOSITION.match(sentence, match.end())
            end = _OBJECT_END.search(sentence, begin.end() if begin else match.end())
            stop = end.start() if end else len(sentence)
            compared = sentence[match.end() : stop]
        subject = sentence[after : (listed or [match])[0].start()]
        if found and _PRONOUN.match(subject):  # "…, while it is 18 times that of B": the same claimed side
            subject = found[-1].subject
        members = [*listed, match]
        claims = [_claim(sentence, member, subject, compared, _own_words(sentence, member, members)) for member in members]
        if match.groupdict().get("verb"):
            claims, stop = _respectively(claims[-1], sentence, stop)
            if len(claims) == 1:
                claims, stop = _in_own_scopes(claims[0], sentence, stop)
        found.extend(claims)
        listed.clear()
        after = stop
    return tuple(found)


def _respectively(claim: RatioClaim, sentence: str, stop: int) -> tuple[list[RatioClaim], int]:
    """ "outperforms A and B by 5% and 10%": one claim a side, in order; where the counts differ, none."""
    more = list(_MORE_FACTORS.finditer(sentence[stop:]))
    taken = [match for index, match in enumerate(more) if match.start() == (more[index - 1].end() if index else 0)]
    if not taken:
        return [claim], stop
    sides = [side for side in _SIDES.split(claim.compared) if side.strip()]
    values = [claim.factor, *(float(match.group("value")) for match in taken)]
    if len(sides) != len(values) or claim.percent is None:
        return [], stop + taken[-1].end()
    decimals = [claim.percent, *(len(match.group("value").partition(".")[2]) for match in taken)]
    spans = [(claim.start, claim.end), *((stop + match.start("value"), stop + match.end()) for match in taken)]
    paired = [
        replace(claim, factor=value, percent=places, compared=side, start=start, end=end)
        for side, value, places, (start, end) in zip(sides, values, decimals, spans)
    ]
    return paired, stop + taken[-1].end()


def _in_own_scopes(claim: RatioClaim, sentence: str, stop: int) -> tuple[list[RatioClaim], int]:
    """ "improves upon B by an order of magnitude in runtime and almost two orders of magnitude in NLPD": one
    claim a factor, each on the lines its own words name ("in runtime": a speed, read on lines of times)."""
    own = _OWN_SCOPE.match(sentence, stop)
    if own is None:
        return [claim], stop
    scoped, at = [(claim, own.group("scope"))], own.end()
    while (more := _SCOPED_FACTOR.match(sentence, at)) is not None:
        groups = more.groupdict()
        percent = groups["percent"]
        further = replace(
            claim,
            factor=_magnitude(groups["orders"]) if groups["orders"] else float(percent or groups["factor"]),
            bound=bool(groups["bound"]),
            orders=bool(groups["orders"]),
            loose=bool(groups["estimate"]),
            percent=len(percent.partition(".")[2]) if percent else None,
            points=bool(groups["points"]),
            decimals=_factor_decimals(groups["factor"]),
            start=more.start("claim"),
            end=more.end("claim"),
        )
        scoped.append((further, more.group("scope")))
        at = more.end()
    if len(scoped) == 1:
        return [claim], stop
    scopes = [name_words(scope) for _, scope in scoped]
    named_elsewhere = set().union(*scopes)
    claims = [
        replace(each, words=frozenset((claim.words - named_elsewhere) | words), speed=each.speed or bool(_TIME_WORDS.search(scope)))
        for (each, scope), words in zip(scoped, scopes)
    ]
    return claims, at


def _own_words(sentence: str, member: re.Match[str], members: list[re.Match[str]]) -> frozenset[str]:
    """The words of the sentence that may name the lines across a claim: all of them, less those
    naming where another change of the same list holds ("on A" for the change "on B")."""
    own = name_words(member.group(0))
    others = {word for other in members if other is not member for word in name_words(other.group(0))}
    return frozenset(name_words(sentence) - (others - own))


def _claim(sentence: str, match: re.Match[str], subject: str, compared: str, words: frozenset[str]) -> RatioClaim:
    groups = match.groupdict()
    percent = groups["percent"]
    speed = _SPEED.search(groups["comparative"] or groups.get("as") or "")
    return RatioClaim(
        _stated(match) or 0.0,
        bool(groups["bound"]),
        bool(groups["orders"]),
        bool(speed),
        subject,
        compared,
        words,
        match.start(),
        match.end(),
        _larger(match),
        len(percent.partition(".")[2]) if percent else None,
        bool(groups["estimate"]),
        groups.get("gap") or "",
        not (groups.get("verb") or groups.get("gap") is not None or groups.get("noun")),
        bool(groups["points"]),
        match.string[match.end("comparative") : match.end()] if groups["comparative"] else match.group(0),
        decimals=_factor_decimals(groups.get("factor") or groups.get("bare")),
        measure=_measure(match),
    )


def _factor_decimals(factor: str | None) -> int:
    """The decimals a factor is written with ("3.1x": 1); none for a percentage or an order of magnitude."""
    return len(factor.partition(".")[2]) if factor else 0


def _measure(match: re.Match[str]) -> str:
    """What a factor before "than" compares, named between its comparative and "than" ("3x more parameters than")."""
    groups = match.groupdict()
    if not groups["comparative"] or groups.get("verb") or match.re is _LISTED:
        return ""
    return _COMPARED_WORD.sub("", match.string[match.end("comparative") : match.end()]).strip()


def _stated(match: re.Match[str]) -> float | None:
    """The factor (or percentage) a match states; None where it compares nothing: a factor of 1 or
    less, or a percentage that is no change ("5% of the data compared to", "20% as large as")."""
    groups = match.groupdict()
    if groups["orders"]:
        return _magnitude(groups["orders"])
    if groups["percent"]:
        change = groups.get("verb") or groups["comparative"] or _CHANGE.match(groups.get("gap") or groups.get("noun") or "")
        return float(groups["percent"]) if change and not groups.get("of") else None
    if groups.get("bare") and not groups.get("times"):
        return None  # "outperforms B by 3 points": no factor
    factor = float(groups["factor"] or groups["bare"])
    return factor if factor > 1 else None


def _magnitude(orders: str) -> float:
    """The factor of "an order" (10) or "two orders" (100) of magnitude."""
    return 10.0 ** _WORD_FACTORS.get(orders.lower(), 1)


def _larger(match: re.Match[str]) -> int:
    """Which side the words make the larger: 1 the claimed ("18 times that of", "more than", "exceeds"), -1 the compared ("fewer")."""
    groups = match.groupdict()
    words = " ".join(
        group for group in (groups["comparative"], groups.get("as"), groups.get("gap"), groups.get("noun"), groups.get("verb")) if group
    )
    if _SMALLER.search(words):
        return -1
    if _LARGER.search(words) or (groups.get("of") and not groups.get("as")):
        return 1
    return 0


@record(slots=True)
class Factor:
    """The factor between two cells on one line across: the claimed side's and the compared side's."""

    claimed: Cell
    compared: Cell
    line: str
    low: float
    high: float
    oriented: bool = True  # whether the claimed cell is the claimed side's (a line the sentence names)

    @property
    def exact(self) -> float:
        a, b = self.claimed.value or 0.0, self.compared.value or 0.0
        return max(a / b, b / a)

    @property
    def claimed_larger(self) -> bool:
        return (self.claimed.value or 0.0) > (self.compared.value or 0.0)

    def changes(self) -> tuple[tuple[float, float], ...]:
        """What a percentage change between the cells may be, each as the range their rounding allows:
        the change relative to the smaller, relative to the larger, and the difference in points."""
        a, b = self.claimed, self.compared
        gap, gap_slack = abs((a.value or 0.0) - (b.value or 0.0)), slack(a.decimals) + slack(b.decimals)
        return (
            ((self.low - 1) * 100, (self.high - 1) * 100),
            ((1 - 1 / self.low) * 100, (1 - 1 / self.high) * 100),
            (gap - gap_slack, gap + gap_slack),
        )


@record(slots=True)
class Compared:
    """The factors between the claimed thing and one thing it is compared with, one per line across."""

    factors: list[Factor]
    each: bool  # the sentence bounds the factor on each line it names ("at least 100x fewer decisions and conflicts")
    named: bool  # both things named by their lines' headers, not the two lines of a two-line table
    runner_up: bool = False  # compared with "the previous best": on each line, the rest's nearest cell


def factors(table: Table, claim: RatioClaim) -> Iterator[Compared]:
    """For each thing the sentence compares with, the factors its cells give against the claimed thing's,
    one per line across (a metric) that holds a number for both: the lines the sentence names
    ("fewer conflicts"), else every line. Where no header names the two things and the table has
    two lines, they are its two lines, when the sentence names lines across."""
    width = max((cell.column + 1 for row in table.rows for cell in row), default=0)
    if not _measures(table, claim.measure, width):
        return
    body = range(table.header_rows, len(table.rows))
    rows = [(table.row_header(row), {cell.column: cell for cell in table.rows[row]}) for row in body]
    columns = [
        (table.column_header(column), {row: cell for row in body for cell in table.rows[row] if cell.column == column})
        for column in range(1, width)
    ]
    row_lines = [(table.column_header(column), column) for column in range(1, width)]
    column_lines = [(table.row_header(row), row) for row in body]
    dimensions = ((rows, row_lines, columns), (columns, column_lines, rows))
    for by_name in (True, False):
        for lines, across, crossing in dimensions:
            if not by_name and _named(crossing, claim.compared):
                continue  # the compared side is a line the other way: not one of these two
            across = [(header, at) for header, at in across if not _LOG_SCALE.search(header)]
            named = [(header, at) for header, at in across if named_share(claim.words, name_words(header)) >= 0.5]
            sides = _sides(lines, claim) if by_name else _two_lines(lines, claim) if named else None
            if sides is None:
                continue
            subjects, compared, oriented = sides
            if any(_LOG_SCALE.search(lines[line][0]) for line in (*subjects, *compared) if line != RUNNER_UP):
                return
            for other in compared:
                kept = [
                    factor
                    for subject in subjects
                    for factor in _line_factors(lines, (subject, other), named or across, claim, oriented, not named)
                ]
                yield Compared(kept, claim.bound and len(named) > 1, by_name, other == RUNNER_UP)
            return


def _line_factors(
    lines: list[tuple[str, dict[int, Cell]]],
    sides: tuple[int, int],
    across: list[tuple[str, int]],
    claim: RatioClaim,
    oriented: bool,
    averaged: bool,
) -> list[Factor]:
    """The factors between one claimed line and one compared line on each line across (of times, for a speed),
    and, `averaged` (the sentence names no line across), their mean over the lines."""
    subject, other = sides
    found = (factor_between(lines[subject][1].get(at), _cell(lines, subject, other, at), header, oriented) for header, at in across)
    kept = [factor for factor in found if factor is not None and (not claim.speed or _TIME_HEADER.search(factor.line))]
    if averaged and len(kept) > 1:
        kept.extend(_over_lines(kept))  # "11% lower on BabyAI" of a table of its tasks: averaged
    return kept


def _measures(table: Table, measure: str, width: int) -> bool:
    """Whether the table measures what the sentence compares, where it names it ("more parameters"): a header
    or its caption names it. A table of times says nothing of "3x more parameters than"."""
    words = name_words(measure)
    if not words:
        return True
    headers = [table.column_header(column) for column in range(width)]
    headers += [table.row_header(row) for row in range(len(table.rows))]
    return any(words & name_words(text) for text in (*headers, table.caption or "", table.label or ""))


def _sides(lines: list[tuple[str, dict[int, Cell]]], claim: RatioClaim) -> tuple[list[int], list[int], bool] | None:
    """The claimed lines and the compared ones, each named by its header. A subject that names several lines
    alike ("LLGP" of "LLGP m=500" and "LLGP m=1000") claims the factor of each against the one line compared,
    and any of them bears it out; against several ("our approach" and "comment patterns", once per task)
    which pairs with which is not said."""
    subjects, compared = _named(lines, claim.subject) or _ours(lines, claim.subject), _named(lines, claim.compared)
    compared = compared or ([RUNNER_UP] if _RUNNER_UP_WORDS.search(claim.compared) else [])
    if not subjects or not compared or set(subjects) & set(compared) or set(_named(lines, claim.between)) & {*subjects, *compared}:
        return None
    if len(subjects) > 1 and (len(compared) > 1 or RUNNER_UP in compared):
        return None
    return subjects, compared, True


def _ours(lines: list[tuple[str, dict[int, Cell]]], subject: str) -> list[int]:
    """The one line headed "Ours" (or "Proposed"), when the sentence's subject is the authors' method."""
    if not _OUR_METHOD.search(subject):
        return []
    ours = [index for index, (header, _) in enumerate(lines) if _OURS_HEADER.match(header)]
    return ours if len(ours) == 1 else []


def _cell(lines: list[tuple[str, dict[int, Cell]]], subject: int, other: int, at: int) -> Cell | None:
    """The compared line's cell at `at`; for the runner-up, the other lines' cell nearest the claimed one's
    (the best of the rest, whichever way is better, where the claimed line is the best)."""
    if other != RUNNER_UP:
        return lines[other][1].get(at)
    claimed = lines[subject][1].get(at)
    rest = [cells[at] for index, (_, cells) in enumerate(lines) if index != subject and at in cells and cells[at].value is not None]
    if claimed is None or claimed.value is None or not rest:
        return None
    return min(rest, key=lambda cell: abs((cell.value or 0.0) - (claimed.value or 0.0)))


def _two_lines(lines: list[tuple[str, dict[int, Cell]]], claim: RatioClaim) -> tuple[list[int], list[int], bool] | None:
    """The two lines of a two-line table, the claimed one first where a header names one side ("than MiniSat")."""
    if len(lines) != 2:
        return None
    subject, compared = _named(lines, claim.subject), _named(lines, claim.compared)
    if len(subject) > 1 or len(compared) > 1 or (subject and subject == compared):
        return None
    if compared:
        return [1 - compared[0]], compared, True
    return ([subject[0]], [1 - subject[0]], True) if subject else ([0], [1], False)


def factor_between(a: Cell | None, b: Cell | None, line: str, oriented: bool) -> Factor | None:
    """The factor between two cells of one line, when both are positive numbers in the same unit."""
    if a is None or b is None or not (a.value and b.value and a.value > 0 and b.value > 0):
        return None
    if not (_as_written(a) and _as_written(b)) or _unit(a) != _unit(b):
        return None  # "9 MB" against "700 kB": the numbers alone do not compare
    (small, small_slack), (large, large_slack) = sorted(((a.value, slack(a.decimals)), (b.value, slack(b.decimals))))
    if small <= small_slack:
        return None
    return Factor(a, b, line, (large - large_slack) / (small + small_slack), (large + large_slack) / (small - small_slack), oriented)


def _over_lines(factors: list[Factor]) -> Iterator[Factor]:
    """The factor between the two sides' means over the lines, when a sentence names none of them
    and the lines measure in one unit."""
    if len({_unit(factor.claimed) for factor in factors}) > 1:
        return
    decimals = max(max(factor.claimed.decimals, factor.compared.decimals) for factor in factors)
    means = [sum(side.value or 0.0 for side in sides) / len(factors) for sides in zip(*((f.claimed, f.compared) for f in factors))]
    claimed, compared = (Cell(0, 0, spelled(mean, decimals), 0, 0, mean, decimals=decimals) for mean in means)
    mean = factor_between(claimed, compared, "the lines averaged", factors[0].oriented)
    if mean is not None:
        yield mean


def _unit(cell: Cell) -> str:
    """What the cell writes beside its digits, before any spread: "79.37 ± 0.09" and "77.32" share one."""
    return _UNIT.sub("", _SPREAD.split(cell.text, maxsplit=1)[0])


def _as_written(cell: Cell) -> bool:
    """Whether the cell's digits are its value's: "2\\,076" read as 2, or "3e5" as 3, compare nothing.
    A spread after the value ("73 (12)", "51 ± 1") is not part of it, nor a leading zero (".045" is 0.045)."""
    value = _SPREAD.split(cell.text, maxsplit=1)[0]
    read = re.sub(r"\D", "", spelled(cell.value or 0.0, cell.decimals))
    mantissa = _TIMES_TEN.split(value, maxsplit=1)[0]
    if mantissa != value:  # "4.5\cdot10^{-3}": the mantissa's digits are the value's, less the zeros its power adds
        return re.sub(r"\D", "", mantissa).strip("0") == read.strip("0")
    return re.sub(r"\D", "", value).lstrip("0") == read.lstrip("0")


def named_table(claim: RatioClaim, tables: Mapping[str, tuple[Table, ...]]) -> str | None:
    """The label of the one table, of those naming both sides by their headers, whose caption or label
    the claim's own words name best ("11% lower on BabyAI than C" and "Breakdown on every BabyAI
    task"): a sentence citing no table may still mean one the paper shows elsewhere."""
    scope = {word.lstrip("\\") for word in name_words(claim.scope)} - _SCOPE_STOP
    scores: dict[str, int] = {}
    for label, tabulars in tables.items():
        named = {word.lstrip("\\") for word in name_words(f"{tabulars[0].caption or ''} {label.replace('_', ' ')}")}
        score = len(scope & named)
        if score and any(compared.named for table in tabulars for compared in factors(table, claim)):
            scores[label] = score
    best = max(scores.values(), default=0)
    chosen = {id(tables[label][0]) for label, score in scores.items() if score == best}  # a float, whichever label names it
    return next((label for label, score in scores.items() if score == best), None) if len(chosen) == 1 else None


def _named(lines: list[tuple[str, dict[int, Cell]]], words_of: str) -> list[int]:
    """The lines whose header `words_of` names best, at least half of its words."""
    words = name_words(words_of)
    shares = [named_share(words, name_words(header)) for header, _ in lines]
    best = max(shares, default=0.0)
    return [index for index, share in enumerate(shares) if share == best] if best >= 0.5 else []
