"""The arithmetic a sentence states about its own numbers, read so that it can be recomputed.

A careful reader redoes the sums a sentence invites: a share written beside its count and its
base ("33 out of 868 (9%)"), a relative change written beside the pair it compares ("21% better
(20.09 vs. 15.54)"), parts that a sentence says make up a whole ("of the 13,632,566, 13,345,053
…, the remaining 415,293 …"). Each reader below finds one such shape in a block's plain text and
returns it with the spans to mark; the rules decide whether it recomputes. Rounding is allowed
for every written number: a value is compared with the exact result within half a unit in its
last place, plus what the rounding of its inputs can move the result.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE
from ...quantities import slack
from ..tables.model import direction

# A written number: thousands separated by commas or thin spaces ("12,911", "13 632 566"), decimals.
NUMBER = r"(?<![\w.,^_{\\])(\d{1,3}(?:(?:,|\\,|\s)\d{3})+(?!\d)|\d+)(\.\d+)?(?![\w^_])"
_NUMBER = DeferredPattern(NUMBER)
PERCENT_SIGN = r"\s*(?:\\?%|\s*per\s*cent\b|\s*percent\b)"


def may_write_percent(text: str) -> bool:
    """A percent sign or the word: what every share and stated change needs, found before any pattern runs."""
    return "%" in text or "cent" in text.lower()


@record(slots=True)
class Written:
    """A number as written: its value, its decimal places and where it is in the text."""

    value: float
    decimals: int
    start: int
    end: int

    @classmethod
    def read(cls, match: re.Match[str], group: int = 1) -> Written:
        whole, fraction = match.group(group), match.group(group + 1) or ""
        digits = re.sub(r"\\,|,|\s", "", whole)
        end = match.end(group + 1) if fraction else match.end(group)
        return cls(float(digits + fraction), max(len(fraction) - 1, 0), match.start(group), end)

    @property
    def slack(self) -> float:
        return slack(self.decimals)


def _number_at(text: str, start: int) -> Written | None:
    match = _NUMBER.match(text, start)
    return Written.read(match) if match else None


# Shares: "A out of B (P%)", "A out of B, or P%", "P% (A/B)", "A of B (P%)", and "Of the B …, A (P%) …".
_FRACTION = NUMBER + r"\s*(?:out\s+of|/|of\s+(?:the|all|a\s+total\s+of)?)\s*" + NUMBER
_PERCENT = NUMBER + PERCENT_SIGN
_SHARE_AFTER = DeferredPattern(_FRACTION + r"[^()\d]{0,40}?\(\s*" + _PERCENT + r"\s*\)", re.IGNORECASE)
# "33 out of 868 searches, or 3.8%": the share after a comma, the counts' words between.
_SHARE_COMMA = DeferredPattern(_FRACTION + r"[^()\d;.,]{0,40}?,\s*(?:or\s+|i\.e\.,?\s*|that\s+is,?\s*)?" + _PERCENT, re.IGNORECASE)
_SHARE_BEFORE = DeferredPattern(_PERCENT + r"[^()\d]{0,40}?\(\s*(?:i\.e\.,?\s*)?" + _FRACTION + r"[^()\d]{0,20}\)", re.IGNORECASE)
_OF_THE = DeferredPattern(r"\b(?:of|among|out\s+of)\s+(?:the|all|these|those)\s+" + NUMBER + r"(?![\s\w-]{0,3}%)", re.IGNORECASE)
_COUNT_WITH_SHARE = DeferredPattern(NUMBER + r"\s*\(\s*" + _PERCENT + r"\s*\)", re.IGNORECASE)
_CLAUSE_END = DeferredPattern(r"[;:]|\.\s")


@record(slots=True)
class Share:
    """A percentage the sentence gives as `part` of `whole`."""

    part: Written
    whole: Written
    percent: Written
    base_named_before: bool  # "Of the B …, A (P%)": the base stands earlier in the sentence

    @property
    def exact(self) -> float:
        return self.part.value / self.whole.value * 100

    def recomputes(self) -> bool:
        # The percentage may be rounded, and the counts are exact: P is A / B within P's rounding.
        return abs(self.percent.value - self.exact) <= self.percent.slack or _truncated(self.percent, self.exact)


def _truncated(written: Written, exact: float) -> bool:
    step = 10.0**-written.decimals
    return abs(written.value - int(exact / step) * step) <= 1e-9 * max(1.0, exact)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def shares(text: str) -> tuple[Share, ...]:
    """Every share of a count the text writes with its base, cached by text."""
    if not may_write_percent(text):
        return ()
    found: dict[int, Share] = {}
    for match in _SHARE_AFTER.finditer(text):
        part, whole, percent = Written.read(match, 1), Written.read(match, 3), Written.read(match, 5)
        found.setdefault(percent.start, Share(part, whole, percent, False))
    for match in _SHARE_COMMA.finditer(text):
        part, whole, percent = Written.read(match, 1), Written.read(match, 3), Written.read(match, 5)
        found.setdefault(percent.start, Share(part, whole, percent, False))
    for match in _SHARE_BEFORE.finditer(text):
        percent, part, whole = Written.read(match, 1), Written.read(match, 3), Written.read(match, 5)
        found.setdefault(percent.start, Share(part, whole, percent, False))
    for base in _OF_THE.finditer(text):
        whole = Written.read(base)
        clause_end = _CLAUSE_END.search(text, base.end())
        stop = clause_end.start() if clause_end else len(text)
        for match in _COUNT_WITH_SHARE.finditer(text, base.end(), stop):
            part, percent = Written.read(match, 1), Written.read(match, 3)
            found.setdefault(percent.start, Share(part, whole, percent, True))
    for share in _shares_of_bases_named_before(text):
        found.setdefault(share.percent.start, share)
    return tuple(share for share in found.values() if 0 < share.part.value <= share.whole.value and share.whole.value >= 2)


# More ways a sentence names a base before the counts it splits: "Of 466 selectors, … 440 (94%)" opening the
# sentence, "63 participants, of which 41 (65%) passed", "325,800 records …; of these, 10,885 (about 3.3%) …".
# The count's share may follow the words naming it and carry a word in its parentheses ("8,178,279 (or 37.12%)",
# "10,885 instances (about 3.3%)"), and a fraction may be set equal to it ("23/36 = 64%").
_OF_N_OPENING = DeferredPattern(r"(?:^|(?<=[.;:]\s))Of\s+(?:all\s+)?" + NUMBER + r"(?![\s\w-]{0,3}%)")
_OF_WHICH = DeferredPattern(NUMBER + r"(?![\s\w-]{0,3}%)[^\d.;:()]{1,60}?,?\s+(?:of|among)\s+(?:which|whom)\b", re.IGNORECASE)
_OF_THESE_ALONE = DeferredPattern(r"\b(?:of|among)\s+(?:these|them)\s*,", re.IGNORECASE)
_QUALIFIED_SHARE = DeferredPattern(
    NUMBER + r"(?:\s+[A-Za-z-]+){0,2}\s*\(\s*(?:or|about|approximately|roughly|nearly|almost|~|\\sim|i\.e\.,?)?\s*" + _PERCENT + r"\s*\)",
    re.IGNORECASE,
)
_SHARE_EQUALS = DeferredPattern(NUMBER + r"\s*/\s*" + NUMBER + r"\s*=\s*" + _PERCENT, re.IGNORECASE)
_COUNT = DeferredPattern(NUMBER + r"(?![\s\w-]{0,3}%)")
_SENTENCE_START = DeferredPattern(r"\.\s+[A-Z]")


def _shares_of_bases_named_before(text: str) -> Iterator[Share]:
    for match in _SHARE_EQUALS.finditer(text):
        yield Share(Written.read(match, 1), Written.read(match, 3), Written.read(match, 5), False)
    for whole, parts_start in _named_bases(text):
        clause_end = _CLAUSE_END.search(text, parts_start)
        for match in _QUALIFIED_SHARE.finditer(text, parts_start, clause_end.start() if clause_end else len(text)):
            yield Share(Written.read(match, 1), whole, Written.read(match, 3), True)


def _named_bases(text: str) -> Iterator[tuple[Written, int]]:
    """Each base a sentence names before its counts, with where the counts start: "Of the N", "Of N" opening a
    sentence, "N …, of which", and "N …; of these," (the last count before it in its sentence)."""
    for pattern in (_OF_THE, _OF_N_OPENING, _OF_WHICH):
        for base in pattern.finditer(text):
            yield Written.read(base), base.end()
    for these in _OF_THESE_ALONE.finditer(text):
        sentence_starts = list(_SENTENCE_START.finditer(text, max(0, these.start() - _LOOK_BACK), these.start()))
        start = sentence_starts[-1].end() - 1 if sentence_starts else max(0, these.start() - _LOOK_BACK)
        counts = [Written.read(count) for count in _COUNT.finditer(text, start, these.start())]
        counts = [count for count in counts if count.decimals == 0 and not _is_setting(text, count)]
        if counts:
            yield counts[-1], these.end()


# A relative change stated beside the two values it compares: "by 21% (20.09 vs. 15.54)".
_CHANGE_WORD = (
    r"(?:improv\w*|increas\w*|gain\w*|better|higher|larger|bigger|greater|more|boost\w*|outperform\w*|"
    r"reduc\w*|decreas\w*|drop\w*|lower|smaller|fewer|less|faster|slower|speed-?up|margin|rise|rose|fell|fall)"
)
_PAIR = NUMBER + r"\s*%?\s*(?:vs\.?|versus|compared\s+(?:to|with)|against)\s*" + NUMBER + r"\s*%?"
_CHANGE_THEN_PAIR = DeferredPattern(
    r"(?:\b" + _CHANGE_WORD + r"\b[^.;()\d]{0,40}?" + NUMBER + PERCENT_SIGN + r"|" + NUMBER + PERCENT_SIGN + r"[^.;()\d]{0,25}?\b"
    r"" + _CHANGE_WORD + r"\b)[^.;()\d]{0,80}?\(\s*(?:i\.e\.,?\s*)?[^()]{0,30}?" + _PAIR + r"\s*\)",
    re.IGNORECASE,
)


# Or the pair as the change's endpoints, in the change's own clause: "from 21,587 to 4,137, a reduction of
# 80.83%", "from 8.50 to 8.84 (a 4% increase)", "a 4% increase from 8.50 to 8.84". A currency sign or a
# short unit may stand at each end ("from €8.50 to €8.84", "from 12 ms to 9 ms").
_END = r"(?:about\s+|around\s+|roughly\s+)?(?:\\?[$€£]\s*)?" + NUMBER + r"\s*(?:\\?%|[A-Za-z]{1,3}\b)?"
_FROM_TO = r"\bfrom\s+" + _END + r"\s+to\s+" + _END
_CHANGE = (
    r"(?:\b"
    + _CHANGE_WORD
    + r"\b[^.;()\d]{0,40}?"
    + NUMBER
    + PERCENT_SIGN
    + r"|"
    + NUMBER
    + PERCENT_SIGN
    + r"[^.;()\d]{0,25}?\b"
    + _CHANGE_WORD
    + r"\b)"
)
_FROM_TO_THEN_CHANGE = DeferredPattern(_FROM_TO + r"(?P<between>[^.;)\d]{0,40}?)" + _CHANGE, re.IGNORECASE)
_CHANGE_THEN_FROM_TO = DeferredPattern(_CHANGE + r"(?P<between>[^.;()\d]{0,40}?)" + _FROM_TO, re.IGNORECASE)
# Words that open another clause between the pair and a change: "from 57% to 46%, and reduces … by 15%".
_NEW_CLAUSE = DeferredPattern(r"\b(?:and|while|whereas|but|which|although|than|over|(?:compared|relative)\s+(?:to|with))\b", re.IGNORECASE)


_ENDPOINT_AFTER = DeferredPattern(PERCENT_SIGN + r"\s+to\s", re.IGNORECASE)
_ENDPOINT_BEFORE = DeferredPattern(r"\bfrom\s+(?:about\s+|around\s+)?$", re.IGNORECASE)


def is_year(number: Written) -> bool:
    return number.decimals == 0 and 1900 <= number.value <= 2100 and "," not in f"{number.value}"


@record(slots=True)
class StatedChange:
    """A percentage change the sentence states, and the pair of values it gives for it: in parentheses
    beside it ("(20.09 vs. 15.54)"), or as the endpoints of the change ("from 8.50 to 8.84")."""

    change: Written
    first: Written
    second: Written
    endpoints: bool = False

    def recomputes(self) -> bool:
        """The change is the relative change of the pair, either way round, or their difference in points."""
        a, b, c = self.first.value, self.second.value, self.change.value
        moved = self.first.slack + self.second.slack
        if abs(abs(a - b) - c) <= self.change.slack + moved:
            return True
        return any(
            abs(abs(new - old) / abs(old) * 100 - c) <= self.change.slack + 100 * moved / abs(old) * (1 + abs(new / old))
            for new, old in ((a, b), (b, a))
            if old
        )


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def stated_changes(text: str) -> tuple[StatedChange, ...]:
    if not may_write_percent(text):
        return ()
    found = []
    for match in _CHANGE_THEN_PAIR.finditer(text) if "(" in text else ():  # the pair in parentheses beside a percentage
        change = Written.read(match, 1) if match.group(1) else Written.read(match, 3)
        first, second = Written.read(match, 5), Written.read(match, 7)
        found.append(StatedChange(change, first, second))
    if "from" in text:
        found.extend(_endpoint_changes(text, {stated.change.start for stated in found}))
    return tuple(found)


def _endpoint_changes(text: str, read: set[int]) -> Iterator[StatedChange]:
    """Changes stated with their endpoints in one clause, the pair first or the change first; a pair of
    years ("from 2015 to 2020") is a period, not two values."""
    for pattern, first_group, change_group in ((_FROM_TO_THEN_CHANGE, 1, 6), (_CHANGE_THEN_FROM_TO, 6, 1)):
        for match in pattern.finditer(text):
            first, second = Written.read(match, first_group), Written.read(match, first_group + 2)
            change = Written.read(match, change_group) if match.group(change_group) else Written.read(match, change_group + 2)
            if change.start in read or _NEW_CLAUSE.search(match.group("between")) or is_year(first) or is_year(second):
                continue
            if _ENDPOINT_AFTER.match(text, change.end) or _ENDPOINT_BEFORE.search(text, max(0, change.start - 12), change.start):
                continue  # "with the rate rising from 0.06% to 3%": the percentage is a value, not the change
            read.add(change.start)
            yield StatedChange(change, first, second, endpoints=True)


# Parts the sentence says make up a whole: "Of the N …, A … and the remaining B …".
_REMAINING = DeferredPattern(r"\b(?:the\s+)?(?:remaining|other|rest\s+of\s+the)\s+" + NUMBER + r"(?!\s*%)", re.IGNORECASE)
_REMAINING_WORD = DeferredPattern(r"(?:remaining|other|rest)\s+(?:of\s+the\s+)?\d", re.IGNORECASE)


@record(slots=True)
class PartsOfWhole:
    whole: Written
    parts: tuple[Written, ...]
    percent: bool = False  # shares of all of something: the whole is 100%, not written
    hedged: float = 0.0  # what the parts hedged ("around 60%") add up to: each within a tenth of itself

    def recomputes(self) -> bool:
        total = sum(part.value for part in self.parts)
        allowance = self.whole.slack + sum(part.slack for part in self.parts) + ESTIMATE_SPREAD * self.hedged
        return abs(total - self.whole.value) <= allowance


_OF_THESE = DeferredPattern(r"\b(?:of|among)\s+(?:these|those)\s+([A-Za-z][\w-]*)", re.IGNORECASE)
_LOOK_BACK = 300  # characters before "Of these X" searched for the count of X


def _wholes(text: str) -> Iterator[tuple[Written, int]]:
    """Each whole a sentence splits, with where its parts start: "Of the N …", or "Of these X" after "N X"."""
    for base in _OF_THE.finditer(text):
        yield Written.read(base), base.end()
    for base in _OF_THESE.finditer(text):
        noun = re.escape(base.group(1).rstrip("s"))
        counted = re.compile(NUMBER + r"\s+(?:[A-Za-z-]+\s+){0,2}?" + noun + r"s?\b", re.IGNORECASE)
        earlier = list(counted.finditer(text, max(0, base.start() - _LOOK_BACK), base.start()))
        if earlier:
            yield Written.read(earlier[-1]), base.end()


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def parts_of_wholes(text: str) -> tuple[PartsOfWhole, ...]:
    """A whole named first ("Of the N", "Of these X" after "N X") and its counts up to "the remaining B", in one sentence."""
    if _REMAINING_WORD.search(text) is None:  # no "the remaining B": no whole needs reading
        return ()
    found = []
    for whole, parts_start in _wholes(text):
        sentence_end = re.search(r"\.\s+[A-Z]|\.$", text[parts_start:])
        stop = parts_start + (sentence_end.start() if sentence_end else len(text) - parts_start)
        remaining = _REMAINING.search(text, parts_start, stop)
        if remaining is None:
            continue
        between = text[parts_start : remaining.start()]
        if "%" in between or re.search(r"\b(?:including|such\s+as|e\.g\.|among\s+them)\b", between, re.IGNORECASE):
            continue  # shares, or examples of the whole: not a partition
        counts = [Written.read(match) for match in _NUMBER.finditer(text, parts_start, remaining.start())]
        counts = [count for count in counts if count.decimals == 0 and count.value < whole.value and not _is_setting(text, count)]
        if len(counts) != 1:
            continue  # one part before "the remaining": anything else is not a plain partition
        found.append(PartsOfWhole(whole, (counts[0], Written.read(remaining))))
    return tuple(found)


# Shares that "the remaining" one completes to all of a whole: "1% labeled as cancer-positive and the remaining 99%
# as cancer-negative", "around 60% are solved by both, 20% only by A, and the remaining 20% only by B". Every number
# of the sentence is one of its shares, so that no base or count makes one a share of something else; a bound
# ("over 20%") is no part, and shares a change or a range joins ("from 85% to 90%") are values, not parts.
_REMAINING_SHARE = DeferredPattern(
    r"\b(?:the\s+)?(?:remaining|rest\s*\(|other)\s*(?:about\s+|around\s+|approximately\s+|roughly\s+|~\s*)?" + NUMBER + PERCENT_SIGN,
    re.IGNORECASE,
)
# Words between the shares that make them values of a change or a range, or a share of a share: not parts of one whole.
_NOT_PARTS = DeferredPattern(
    r"\b(?:to|from|than|vs|versus|compared|between|increas\w*|decreas\w*|improv\w*|reduc\w*|drop\w*|ris(?:e|es|ing)|rose|fell|points?)\b"
    r"|%\s*(?:-|–|--)|%\s+of\s+(?:the\s+)?(?:remaining|other|rest)",
    re.IGNORECASE,
)
_SHARE_BOUND = DeferredPattern(r"(?:over|more\s+than|less\s+than|under|at\s+(?:least|most)|up\s+to|>|<|≥|≤)\s*$", re.IGNORECASE)
_SHARE_HEDGE = DeferredPattern(r"(?:about|around|approximately|roughly|nearly|almost|~|\\sim)\s*$", re.IGNORECASE)
_PERCENT_AFTER = DeferredPattern(PERCENT_SIGN, re.IGNORECASE)
_SENTENCE_END = DeferredPattern(r"\.(?:\s+[A-Z]|\s*$)")


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def remaining_shares(text: str) -> tuple[PartsOfWhole, ...]:
    """Percentages a sentence completes with "the remaining P%" to all of its whole, each sentence whose numbers
    are all these shares, the remaining one last."""
    if not may_write_percent(text):
        return ()
    found = []
    for remaining in _REMAINING_SHARE.finditer(text):
        starts = [match.end() for match in _SENTENCE_START.finditer(text, 0, remaining.start())]
        start = starts[-1] - 1 if starts else 0
        end = _SENTENCE_END.search(text, remaining.end())
        numbers = list(_NUMBER.finditer(text, start, end.start() if end else len(text)))
        parts = [Written.read(number) for number in numbers]
        last = Written.read(remaining)
        if len(parts) < 2 or parts[-1].start != last.start or not all(_PERCENT_AFTER.match(text, part.end) for part in parts):
            continue
        if any(part.value > 100 or _SHARE_BOUND.search(text, max(0, part.start - 12), part.start) for part in parts):
            continue
        if _NOT_PARTS.search(text, parts[0].end, remaining.start()):
            continue
        hedged = sum(part.value for part in parts if _SHARE_HEDGE.search(text, max(0, part.start - 14), part.start))
        whole = Written(100.0, 0, parts[0].start, parts[0].start)
        found.append(PartsOfWhole(whole, tuple(parts), percent=True, hedged=hedged))
    return tuple(found)


def _is_setting(text: str, number: Written) -> bool:
    """A number that is a setting of the sentence, not a count of the whole: "of size 3", "k = 5", a year."""
    before = text[max(0, number.start - 12) : number.start]
    setting = re.search(r"(?:size|order|degree|at\s+most|at\s+least|up\s+to|=|≤|<|>|≥|\bk|\bn)\s*$", before, re.IGNORECASE)
    return bool(setting) or 1900 <= number.value <= 2100


# A total broken down in parentheses: "951 participants (481 men, 470 women)", "93.1% complete (83.2%
# single-copy, 6.7% duplicated)". Each part is a number and the words that name it; nothing else may stand
# in the parentheses, so that a list of examples or of settings is not read as a partition.
_NAMING_WORDS = r"(?:\s*[A-Za-z][A-Za-z-]*){1,4}"
_PART = NUMBER + r"(" + PERCENT_SIGN + r")?" + _NAMING_WORDS
_BREAKDOWN = DeferredPattern(
    NUMBER + r"(" + PERCENT_SIGN + r")?" + _NAMING_WORDS + r"\s*\(\s*((?:" + _PART + r"\s*,\s*(?:and\s+)?)+" + _PART + r"|"
    r"" + _PART + r"\s+and\s+" + _PART + r")\s*\)",
    re.IGNORECASE,
)
_PART_IN = DeferredPattern(_PART, re.IGNORECASE)
_NOT_A_PARTITION = DeferredPattern(r"\b(?:e\.g|i\.e|including|such|each|per|respectively|vs|versus|at|for|of|on|in)\b", re.IGNORECASE)
NEAR_PARTITION = 0.2  # parts that miss their total by more than this share are a selection of it, not a partition


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def breakdowns(text: str) -> tuple[PartsOfWhole, ...]:
    """Totals the text breaks down in parentheses into parts of the same kind (counts, or percentages),
    every part smaller than the total and together within a fifth of it."""
    found = []
    for match in _BREAKDOWN.finditer(text):
        inside = match.group(4)
        if _NOT_A_PARTITION.search(inside):
            continue  # per-item figures ("25.0s for movies"), examples, settings: not parts of the total
        whole = Written.read(match)
        parts_of = list(_PART_IN.finditer(text, match.start(4), match.end(4)))
        parts = tuple(Written.read(part) for part in parts_of)
        percent = bool(match.group(3))
        if any(bool(part.group(3)) != percent for part in parts_of) or _is_setting(text, whole):
            continue
        total = sum(part.value for part in parts)
        if all(part.value < whole.value for part in parts) and abs(total - whole.value) <= NEAR_PARTITION * whole.value:
            found.append(PartsOfWhole(whole, parts))
    return tuple(found)


# Shares of one thing listed together: "58% HF exchange, 39% B88 exchange, and 8% Slater exchange". Each
# part is a percentage and the words that name it, the last of them the same noun in every part: parts of
# one whole, which cannot add up to more than all of it. Words that give each percentage its own base
# ("30% of the time", "80% on A", "per", "each") make rates, not parts, and a noun that names a metric
# ("top-1 accuracy, top-5 accuracy") or a change ("a 40% reduction") is a measure, not a whole.
_SHARE_WORDS = r"((?:\s+(?!(?:and|or)\b)[A-Za-z][\w-]*){1,3})"
_SHARE_PART = NUMBER + PERCENT_SIGN + _SHARE_WORDS
_SHARE_LIST = DeferredPattern(_SHARE_PART + r"(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)" + _SHARE_PART + r")+", re.IGNORECASE)
_SHARE_PART_IN = DeferredPattern(_SHARE_PART, re.IGNORECASE)


@record(slots=True)
class ListedShares:
    """Percentages the sentence lists as parts of one thing, named by the noun each part ends with."""

    noun: str
    parts: tuple[Written, ...]
    end: int  # of the last part's name

    @property
    def total(self) -> float:
        return sum(part.value for part in self.parts)

    def exceeds_whole(self) -> bool:
        """More than all of the whole, beyond the rounding of every part; parts far beyond it (a fifth
        more) are measures of several things that share a name, not a whole's parts."""
        return 100 + sum(part.slack for part in self.parts) < self.total <= 100 * (1 + NEAR_PARTITION)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def listed_shares(text: str) -> tuple[ListedShares, ...]:
    """Lists of two percentages or more whose naming words end with one noun, each part named by words alone."""
    if not may_write_percent(text):
        return ()
    found = []
    for match in _SHARE_LIST.finditer(text):
        parts_of = list(_SHARE_PART_IN.finditer(text, match.start(), match.end()))
        noun = parts_of[0].group(3).split()[-1]  # the first part ends where the list goes on
        names = [_named_up_to(part.group(3), noun) for part in parts_of]
        if any(name is None or _NOT_A_PARTITION.search(name) for name in names):
            continue
        if direction(noun, None) or re.fullmatch(_CHANGE_WORD, noun, re.IGNORECASE):
            continue
        end = parts_of[-1].start(3) + len(names[-1] or "")
        found.append(ListedShares(noun, tuple(Written.read(part) for part in parts_of), end))
    return tuple(found)


def _named_up_to(words: str, noun: str) -> str | None:
    """A part's naming words as written, up to the noun (singular or plural); None when the noun is not among them."""
    stem = noun.lower().removesuffix("s")
    named = next((word for word in re.finditer(r"\S+", words) if word.group().lower().removesuffix("s") == stem), None)
    return words[: named.end()] if named else None


# A factor stated beside the two values it divides: "a 3.1× reduction (107.9 J vs. 32.4 J)", "from 107.9 J to
# 32.4 J, a 3.1× reduction", "were 0.169 and 0.076, respectively (a 2.2x improvement)". The factor is written
# "3.1×", "3.1x", "3.1 times" or "3.1-fold", never as a product ("4 × 4", "9.1 × 10^9"); a value of the pair is
# neither a mantissa nor a factor itself, and "ranging from A to B" is a range, not a pair. Words that open
# another clause between the pair and the factor say it is of something else.
_TIMES = r"\s*(?:×|\\times\b|x\b|times\b|-?fold\b)(?!\s*\d)"
_FACTOR_NUMBER = r"(?<![\w.,^_{\\±])(\d+)(\.\d+)?(?=" + _TIMES + r")"  # never the spread of "5.01±2.54 times"
_HEDGE = r"(?:(?P<hedge>(?P<bound>over|more\s+than|at\s+least)|about|around|roughly|approximately|nearly|almost|close\s+to|~|\\sim)\s*)?"
_STATED_FACTOR = r"(?:(?:a|an|by)\s+)?" + _HEDGE + _FACTOR_NUMBER + _TIMES + r"(?P<words>[^.;()\d]{0,25}?)\b" + _CHANGE_WORD + r"\b"
_VALUE = r"(?:\\?[$€£]\s*)?" + NUMBER + r"(?!\s*(?:×|\\times)\s*10|" + _TIMES + r")\s*(?:\\?%|[A-Za-z]{1,3}\b)?"
_VERSUS = _VALUE + r"\s*(?:vs\.?|versus|compared\s+(?:to|with)|against)\s*" + _VALUE
_FROM_TO_VALUES = r"(?<!ranging\s)(?<!ranges\s)(?<!range\s)\bfrom\s+" + _VALUE + r"\s+to\s+" + _VALUE
# "were respectively A and B", "reach A and B, respectively": a verb says the pair is what is measured, not
# settings ("with 2 and 4 GPUs, respectively, 1.8x faster").
_MEASURED = r"\b(?:are|is|were|was|of|reach\w*|achiev\w*|obtain\w*|scor\w*|gave|give[sn]?|yield\w*|t[ao]{1,2}k\w*|requir\w*)\s+"
_RESPECTIVE_PAIR = (
    _MEASURED + r"(?:respectively\s+" + _VALUE + r"\s+and\s+" + _VALUE + r"|" + _VALUE + r"\s+and\s+" + _VALUE + r",?\s+respectively\b)"
)
_FACTOR_THEN_PAIR = DeferredPattern(
    _STATED_FACTOR + r"(?P<between>[^.;()\d]{0,40}?)(?:\(\s*(?:i\.e\.,?\s*)?[^()\d]{0,30}?" + _VERSUS + r"\s*\)|" + _FROM_TO_VALUES + r")",
    re.IGNORECASE,
)
_PAIR_THEN_FACTOR = DeferredPattern(
    r"(?:" + _VERSUS + r"|" + _FROM_TO_VALUES + r"|" + _RESPECTIVE_PAIR + r")(?P<between>[^.;\d]{0,40}?)" + _STATED_FACTOR,
    re.IGNORECASE,
)
# Or the factor between the two values it compares, as a contrast: "A has an MSE of 0.005, while B has a 10x
# higher MSE of 0.05".
_CONTRAST_FACTOR = DeferredPattern(
    _VALUE + r"[^.;\d]{0,60}?\b(?:while|whereas)\b[^.;\d]{0,40}?" + _STATED_FACTOR + r"(?P<between>[^.;\d]{0,30}?)\b(?:of|at)\s+" + _VALUE,
    re.IGNORECASE,
)
# A pair that counts what a run is given ("from 8 to 64 GPUs, a 5.2x speedup") is its setting, not what the factor divides.
_SETTING_COUNT = DeferredPattern(
    r"\s*(?:GPUs?|CPUs?|TPUs?|cores?|nodes?|workers?|threads?|machines?|servers?|devices?|process(?:es|ors?)?|ranks?|clients?"
    r"|layers?|samples?|examples?|images?|tokens?|users?|participants?|epochs?|iterations?|steps?|batch(?:es)?)\b",
    re.IGNORECASE,
)
ESTIMATE_SPREAD = 0.1  # "about 3x": within a tenth of the ratio


@record(slots=True)
class StatedFactor:
    """A factor the sentence states, and the pair of values it gives for it; `bound` for "over 3x", `estimate` for "about 3x"."""

    factor: Written
    first: Written
    second: Written
    bound: bool
    estimate: bool
    times_end: int  # of the factor's "×", "x", "times" or "fold"
    start: int  # of the words that state the factor and its pair
    end: int

    def ratios(self) -> tuple[float, float, float]:
        """The larger value over the smaller: as written, and its least and greatest under the rounding of both."""
        low, high = sorted((self.first, self.second), key=lambda written: written.value)
        return (
            high.value / low.value,
            (high.value - high.slack) / (low.value + low.slack),
            (high.value + high.slack) / max(low.value - low.slack, 1e-300),
        )

    def recomputes(self) -> bool:
        """The factor is the ratio of the pair (its inverse for a factor below one), within the rounding of all three numbers."""
        _, least, greatest = self.ratios()
        factor, spread = self.factor.value, self.factor.slack
        if factor < 1:
            least, greatest = 1 / greatest, 1 / least
        if self.bound:
            return greatest >= factor - spread
        if self.estimate:
            return least * (1 - ESTIMATE_SPREAD) <= factor + spread and factor - spread <= greatest * (1 + ESTIMATE_SPREAD)
        return least <= factor + spread and factor - spread <= greatest


# What every stated factor contains, found before any pattern runs.
_FACTOR_HINT = DeferredPattern(r"\d\s*(?:×|\\times|x\b|times\b|-?fold\b)", re.IGNORECASE)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def stated_factors(text: str) -> tuple[StatedFactor, ...]:
    """Every factor the text states beside the two values it divides (after it, before it, or one on each side), cached by text."""
    if _FACTOR_HINT.search(text) is None:
        return ()
    found: dict[int, StatedFactor] = {}
    for pattern in (_FACTOR_THEN_PAIR, _PAIR_THEN_FACTOR, _CONTRAST_FACTOR):
        for match in pattern.finditer(text):
            numbers = _numbers_of(match)
            factor, times = next((number, times) for number in numbers if (times := _TIMES_AFTER.match(text, number.end)))
            first, second = (number for number in numbers if number is not factor)
            if _NEW_CLAUSE.search(match.group("between")) or is_year(first) or is_year(second) or 0 in (first.value, second.value):
                continue
            if any(_SETTING_COUNT.match(text, number.end) for number in (first, second)):
                continue
            bound, estimate = bool(match.group("bound")), bool(match.group("hedge")) and not match.group("bound")
            found.setdefault(factor.start, StatedFactor(factor, first, second, bound, estimate, times.end(), match.start(), match.end()))
    return tuple(found.values())


_TIMES_AFTER = DeferredPattern(_TIMES, re.IGNORECASE)


def _numbers_of(match: re.Match[str]) -> list[Written]:
    """The numbers a match read, in order: each is two unnamed groups, its digits and its decimals."""
    named = set(match.re.groupindex.values())
    unnamed = [group for group in range(1, match.re.groups + 1) if group not in named]
    return [Written.read(match, group) for group in unnamed[::2] if match.group(group) is not None]
