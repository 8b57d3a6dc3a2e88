"""NUM006: one count ("600k video instances, each of which contains T=10 time steps") restated with another value.

## How it decides
A count is an integer of ten or more (thousands grouped by commas or spaces), or a scaled one
("600k", "3.2 million"), before the words of what it counts, with a plural noun (or an
acronym's: "19 NLMs") among the four words after it (not a unit: "800 km s^-1"); or a known
set's count of two or more (below). Two counts, in two paragraphs, are one thing counted twice
when:

- half or more of the ten content words after them agree, four or more, and one value reads as a
  typing slip of the other: one apart, a zero dropped or added (not between powers of ten,
  which step a grid: 100, 1,000), two neighbouring digits swapped, or the last of three or
  more digits changed. Methods repeat one sentence per
  experiment with its own count ("we recruited 40 participants from Amazon Mechanical Turk"),
  so the words alone do not make one count; or
- both are a thousand or more, both stand in the abstract, introduction, discussion or
  conclusion, where a paper restates its headline numbers, the same two words follow them
  ("jobs lost"), and neither sentence names a setting next to the count; or
- both count a known set: a determiner before the count ("the 6 taxa with significant ORs",
  "all three benchmarks"; here a count of two or more, in digits or words, is read), and the
  first three content words after them (the counted noun and its qualifier) agree, singular
  or plural alike. Sentences written alike but for their values, half or more of their
  words shared, are one report per setting ("the three fossils with low posterior
  probabilities" under one model, "the five fossils …" under another) and are left alone.

A comparison of two subjects' counts in parentheses after what they count ("half as many morphological
characters as does the penguin data set (122 versus 245)", "HD+ and C CAU samples (2 and 3, respectively)")
restates the totals the paper gives for its data sets. The counted noun is the last plural noun of the
clause, within eight words before the parenthesis; a value under two is a label, not a count. When the paper
states the comparison's other count as a total of that noun ("a matrix of 125 species with 122 characters"),
never states this one, and states exactly one other total of it ("contains 36 fossil species and 202
characters"), the comparison gives the other subject a count its own statement does not: this count is
reported against that total. A total is a count of the noun (among the two words after it) that no relative
clause narrows ("34 characters that were ordered"), that is not "of" a set ("48 of the binary characters"),
not rounded and not a known set named again; with two or more other totals (two data sets, a subset, a
filtered sample), or none, nothing says which the comparison meant, and it is left alone.

Counts of two settings are left alone: capitalised names next to each count that differ ("For
SIDER, 21 assays", "For MUV, 12 assays"), one symbol set to two values ("T=10", "T=100"), one
sentence of training and the other of testing. So are counts that set rather than count
(epochs, runs, seeds, layers, durations), selections ("the top 1,000 features"), years, numbers
in names or references ("Study 2", "GPT-4"), and two counts in one sentence or paragraph (which states both on
purpose); a rounded count ("about 50", "over 1,000") restates an exact one within 15% of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...quantities import digit_variants
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from ..counts.model import COUNT_WORDS
from .restated import HAS_DIGIT, NUMBER, Earlier, Pair, Stated, content_stems, reported, restatements, section_statements, value_of

_ACRONYMS = r"[A-Z]{2,}s\b"  # "NLMs", "GPUs": an acronym's plural counts things too
_SCALE = {"k": 1e3, "thousand": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9}
# An integer count, or a scaled one ("3.2 million", "600k"), before the words of what it counts (or an acronym's
# plural: "19 NLMs"). Not part of a name or a reference ("Study 2 participants", "GPT-4 models", "Table 3
# lists"), nor a value set by "=".
_COUNT = DeferredPattern(r"(?<![\w.,=^_~/-])(" + NUMBER + r")(\s*[kK]\b|\s+(?:thousand|million|billion)\b)?\s+(?=[a-z]|" + _ACRONYMS + ")")
# A capitalised word before the number, not the sentence's first: the number is part of a name ("Study 2", "Table 3").
_NAME_BEFORE = DeferredPattern(r"(?<=\S)\s+[A-Z][\w-]*\.?\s*$")
# A count that bounds or rounds ("more than 1,000", "about 50"): compared only when far from the other value.
_ROUGH_BEFORE = DeferredPattern(
    r"(?:\b(?:about|approximately|around|roughly|nearly|almost|over|more\s+than|less\s+than|fewer\s+than|at\s+least|at\s+most|up\s+to|"
    r"under|above|below|some|circa|ca\.)|~|\\sim|≈)\s*$",
    re.IGNORECASE,
)
# What a count sets rather than counts: training length, repetitions, sizes of a model, durations.
_SETTINGS = frozenset(
    stem
    for stem in content_stems(
        "epochs iterations steps runs seeds trials folds times layers dimensions units neurons bits bytes pixels ms seconds "
        "minutes hours days weeks months years rounds batches repetitions replications bootstrap permutations draws"
    )
)
# What it counts, in the plural, among the four words after it: "jobs", "video instances", "additional neural
# language models", "NLMs"; not a unit ("800 km s^-1", "5 ms").
_PLURAL = DeferredPattern(r"(?:[\w-]+\s+){0,3}?(?:[a-z][a-z-]+[a-rt-z]s|" + _ACRONYMS + ")")
_POWER_OF_TEN = DeferredPattern(r"10+")
# A selection, not a count of what there is: "the top 1,000 features", "the first 100 samples".
_SELECTION_BEFORE = DeferredPattern(r"\b(?:top|first|last|best|worst|next|previous)\s*$", re.IGNORECASE)
# A known set: a count after a determiner ("the 6 taxa with significant ORs", "all three benchmarks"). The paper
# names the set again with its qualifier, so a small count (under ten, or in words) is read too.
_KNOWN_BEFORE = DeferredPattern(r"\b(?:the|these|those|all(?:\s+of)?\s+the|all)\s+$", re.IGNORECASE)
# A small count in a word before lower-case words, searched for only in a sentence that holds one (a plain substring
# test, far cheaper than the pattern).
_SMALL_WORD = DeferredPattern(r"\b(" + "|".join(COUNT_WORDS) + r")\s+(?=[a-z])")
_SPACED_WORDS = tuple(f" {word} " for word in COUNT_WORDS)
_KNOWN_WORD = DeferredPattern(r"\b(?:[Tt]he|[Tt]hese|[Tt]hose|[Aa]ll)\s+(?:of\s+the\s+)?(?:" + "|".join(COUNT_WORDS) + r")\s+[a-z]")
_DETERMINER_REACH = 16  # characters before a count that hold its determiner ("all of the ")
_KNOWN_SET = "counts: the same known set, qualified alike"
_PHRASE = "="  # marks the known set's counted phrase among a count's words: "=taxa significant or"
_QUALIFIED = 3  # the counted noun and its qualifier: the first content words after the count
_PARALLEL = 0.5  # two sentences sharing this share of their words report two settings alike
_SMALLEST = 10  # the least count read for what follows it; a known set's is read from two
_TAIL = 10  # content words after the count compared
_SHARED = 4  # of them at least this many in common, and half: one thing counted in one setting
_LARGE = 1000  # a count this large with the same two words after it is a headline number, restated
_ROUGH = 0.15  # a rounded count within this of the other restates it
# Two subjects' counts compared in parentheses after what they count: "half as many morphological characters as does the
# penguin data set (122 versus 245)", "HD+ and C CAU samples (2 and 3, respectively)".
_COMPARISON = DeferredPattern(r"\((\d{1,3}(?:,\d{3})+|\d+)\s+(?:versus|vs\.?|and)\s+(\d{1,3}(?:,\d{3})+|\d+)(?:,?\s*respectively)?\)")
# What the comparison counts: the last plural noun of its clause, among the words before the parenthesis.
_CLAUSE = DeferredPattern(r"[^,;:()]*$")
_PLURAL_WORD = DeferredPattern(r"[a-z][a-z-]+[a-rt-z]s")
_NOT_NOUNS = frozenset("does has was this thus its perhaps always sometimes versus whereas".split())
_COMPARED_REACH = 8  # words before the parenthesis searched for the counted noun
_COMPARED = "<"  # marks a compared count's noun among its words: "<charact"
_PARTNER = ">"  # and the other subject's count: ">122"
# A count of a part, not a total: one a relative clause narrows ("34 characters that were ordered"), one "of" a set ("48 of
# the binary characters").
_PART = "⊂"
_NARROWED = DeferredPattern(r"\s*of\s|\s*(?:[\w-]+\s+){1,3}?(?:that|which|who|whose|where)\b")
_ANCHORED = "counts: a comparison's count against the one other total stated"


def counts(sentence: str) -> Iterator[tuple[int, int, str, tuple[float, ...], str, frozenset[str]]]:
    """The counts of `sentence` of ten or more things, and of a known set of two or more; the words are the stems
    after the count, in order, as "1:word" (the first two) and "word" (all of the tail), with "~" for a rounded
    count and the counted phrase after "=" for a known set."""
    compared = [(match.start(), match.end()) for match in _COMPARISON.finditer(sentence)] if "(" in sentence else []
    for start, end in compared:
        yield from _compared_counts(sentence, start, end)
    for match in _COUNT.finditer(sentence):
        if any(start <= match.start() < end for start, end in compared):
            continue
        number, scale = match.group(1), (match.group(2) or "").strip().lower()
        value = value_of(number) * _SCALE.get(scale, 1)
        if value < _SMALLEST and number.isdigit():
            yield from _known_set_count(sentence, match.start(1), match.end(1), value)
            continue
        if value < _SMALLEST or not value.is_integer() or ("." in number and not scale) or (1900 <= value <= 2100 and not scale):
            continue
        if _NAME_BEFORE.search(sentence[: match.start()]) or _SELECTION_BEFORE.search(sentence[: match.start()]):
            continue
        tail = content_stems(sentence[match.end() :])[:_TAIL]
        if len(tail) < 2 or tail[0] in _SETTINGS or not _PLURAL.match(sentence, match.end()):
            continue
        rough = bool(_ROUGH_BEFORE.search(sentence[: match.start()]))
        phrase = _phrase(sentence, match.start(), match.end())
        marks = (
            ({_ROUNDED} if rough else set())
            | ({phrase} if phrase else set())
            | ({_PART} if _NARROWED.match(sentence, match.end()) else set())
        )
        words = frozenset(tail) | {f"1:{word}" for word in tail[:2]} | marks
        end = match.end(2) if match.group(2) else match.end(1)
        yield match.start(1), end, "count", (value,), " ".join(sentence[match.start(1) : end].split()), words
    if _has_count_word(sentence):
        for match in _SMALL_WORD.finditer(sentence):
            yield from _known_set_count(sentence, match.start(1), match.end(1), COUNT_WORDS.index(match.group(1)) + 2)


def _compared_counts(sentence: str, start: int, end: int) -> Iterator[tuple[int, int, str, tuple[float, ...], str, frozenset[str]]]:
    """The two counts of a comparison in parentheses (`_COMPARISON`), each with what it counts and the other's value;
    none when no plural noun of its clause comes within reach before it, or a value is under two (a label)."""
    match = _COMPARISON.match(sentence, start, end)
    if match is None:
        return
    clause = _CLAUSE.search(sentence[:start])
    words = clause.group(0).split()[-_COMPARED_REACH:] if clause else []
    nouns = [word for word in words if _PLURAL_WORD.fullmatch(word) and word not in _NOT_NOUNS]
    values = (value_of(match.group(1)), value_of(match.group(2)))
    if not nouns or min(values) < 2:
        return
    noun = content_stems(nouns[-1])[0]
    for group, (value, partner) in ((1, values), (2, values[::-1])):
        marks = {noun, f"{_COMPARED}{noun}", f"{_PARTNER}{partner:g}"}
        yield match.start(group), match.end(group), "count", (value,), match.group(group), frozenset(marks)


def _known_set_count(
    sentence: str, start: int, end: int, value: float
) -> Iterator[tuple[int, int, str, tuple[float, ...], str, frozenset[str]]]:
    """A count under ten read as a known set's: after a determiner, before a counted noun and its qualifier."""
    phrase = _phrase(sentence, start, end)
    tail = content_stems(sentence[end:])[:_TAIL] if phrase and value >= 2 else []
    if phrase and tail and tail[0] not in _SETTINGS:
        words = frozenset(tail) | {f"1:{word}" for word in tail[:2]} | {phrase}
        yield start, end, "count", (value,), sentence[start:end], words


def _has_count(text: str) -> bool:
    """Whether `text` may hold a count: a digit, or a known set's count in words (a block with none is not split)."""
    return HAS_DIGIT(text) is not None or (_has_count_word(text) and _KNOWN_WORD.search(text) is not None)


def _has_count_word(text: str) -> bool:
    return any(word in text for word in _SPACED_WORDS)


def _phrase(sentence: str, start: int, end: int) -> str | None:
    """The counted noun and its qualifier of a known set's count (one after a determiner), singular or plural alike
    ("the 6 taxa with significant ORs"); an acronym is a name, never a function word ("OR" for odds ratio)."""
    if not _KNOWN_BEFORE.search(sentence[max(0, start - _DETERMINER_REACH) : start]):
        return None
    words = content_stems(_ACRONYM.sub(r"x-\1", sentence[end:]))[:_QUALIFIED]
    return _PHRASE + " ".join(word.removesuffix("s") for word in words) if len(words) == _QUALIFIED else None


_ACRONYM = DeferredPattern(r"\b([A-Z]{2,}s?)\b")


_ROUNDED = "~"


def _tail(statement: Stated) -> frozenset[str]:
    return frozenset(
        word for word in statement.words if not word.startswith(("1:", _PHRASE, _COMPARED, _PARTNER)) and word not in (_ROUNDED, _PART)
    )


def _known_set(statement: Stated) -> str | None:
    return next((word for word in statement.words if word.startswith(_PHRASE)), None)


def _parallel(statement: Stated, other: Stated) -> bool:
    """Two sentences written alike but for their values: one report per setting ("for the three fossils with low
    posterior probabilities, with …" under one model, "for the five fossils …" under the other)."""
    words, other_words = set(content_stems(statement.sentence)), set(content_stems(other.sentence))
    return len(words & other_words) >= _PARALLEL * min(len(words), len(other_words))


def slipped(value: float, other: float) -> bool:
    """Whether one whole count reads as a typing slip of the other: one apart, a zero dropped or added, two
    neighbouring digits swapped, or the last of three or more digits changed ("600000" and "60000", "42" and
    "43", "245" and "254", "926" and "928"). Another leading digit ("32", "72") is as often another count,
    and 100 against 1,000 steps a grid."""
    low, high = sorted((int(value), int(other)))
    if high - low == 1 or (high == 10 * low and not _POWER_OF_TEN.fullmatch(str(low))):
        return True
    written, other_written = str(low), str(high)
    if len(written) != len(other_written):
        return False
    return (len(written) >= 3 and written[:-1] == other_written[:-1]) or (
        sorted(written) == sorted(other_written) and other_written in set(digit_variants(written))
    )


def _compared(statement: Stated) -> tuple[str, float] | None:
    """What a compared count counts, and the other subject's count; None for a count of a sentence's own."""
    noun = next((word[1:] for word in statement.words if word.startswith(_COMPARED)), None)
    partner = next((float(word[1:]) for word in statement.words if word.startswith(_PARTNER)), None)
    return None if noun is None or partner is None else (noun, partner)


def _total_of(statement: Stated, noun: str) -> bool:
    """Whether a count states a whole total of `noun` (among the two words after it): not narrowed by a relative
    clause, rounded, a known set named again (which may be a part) or a comparison's."""
    return (
        f"1:{noun}" in statement.words
        and not statement.words & {_ROUNDED, _PART}
        and _known_set(statement) is None
        and _compared(statement) is None
    )


class _Totals(Earlier):
    """The paper's counts, and by counted noun the values it states as whole totals. A comparison's count is compared
    with a total only when the comparison's other count is one of them (the comparison names the paper's data
    sets), this one is none, and one other total remains: the other subject's, stated otherwise."""

    def __init__(self, feeding: list[tuple[int, Section, list[list[Stated]]]]) -> None:
        super().__init__(feeding)
        self.totals: dict[str, set[float]] = {}
        for statements in self.by_key.values():
            for _, statement in statements:
                for noun in (word[2:] for word in statement.words if word.startswith("1:")):
                    if _total_of(statement, noun):
                        self.totals.setdefault(noun, set()).add(statement.values[0])

    def contradicted(self, statement: Stated, place: int, before: list[Stated], same: Callable[[Stated, Stated], bool]) -> Pair | None:
        return super().contradicted(statement, place, before, lambda one, other: self._anchored(one, other) and same(one, other))

    def _anchored(self, statement: Stated, other: Stated) -> bool:
        for compared, total in ((statement, other), (other, statement)):
            found = _compared(compared)
            if found is not None:
                totals = self.totals.get(found[0], set())
                return found[1] in totals and compared.values[0] not in totals and totals - {found[1]} == {total.values[0]}
        return True


def _evidence(statement: Stated, other: Stated) -> str | None:
    """Why two counts are taken for one: the same known set named with its qualifier, half or more of the words after
    them agreeing ("instances, each containing T=10 time steps and D=3 digits"), or both large with the same two words
    following ("jobs lost"); None when neither."""
    # A known set named again with its qualifier ("the 6 taxa with significant ORs", "the 3 taxa with significant ORs"),
    # in sentences that are not one report repeated per setting. A count under ten is read for a known set alone.
    for compared, total in ((statement, other), (other, statement)):
        found = _compared(compared)
        if found is not None:
            return _ANCHORED if _total_of(total, found[0]) else None
    phrase = _known_set(statement)
    if phrase is not None and phrase == _known_set(other) and not _parallel(statement, other):
        return _KNOWN_SET
    if min(statement.values[0], other.values[0]) < _SMALLEST:
        return None
    tail, other_tail = _tail(statement), _tail(other)
    shared = tail & other_tail
    # Methods repeat one sentence per experiment with its own count: the words alone do not make one count.
    if len(shared) >= _SHARED and len(shared) * 2 >= min(len(tail), len(other_tail)) and slipped(statement.values[0], other.values[0]):
        return "counts: same words after, a slip apart"
    # A headline count the summaries restate ("21 482 jobs lost", "54 000 jobs were lost"), with no setting named.
    leading = {word for word in statement.words if word.startswith("1:")}
    headline = min(statement.values[0], other.values[0]) >= _LARGE and statement.summary and other.summary
    if headline and len(leading) == 2 and leading == {word for word in other.words if word.startswith("1:")}:
        return None if statement.names | other.names else "counts: same counted phrase in the summaries"
    return None


_SETTING = DeferredPattern(r"^([a-z]{1,3})=(.+)$")  # a setting in the tail, as `content_stems` keeps it: "t=10"
# The part of the data a sentence speaks of: counts of the training and of the test set differ on purpose.
_SPLITS = {"train": re.compile(r"\btrain", re.IGNORECASE), "test": re.compile(r"\b(?:test|evaluat|held[- ]out|validat)", re.IGNORECASE)}


def _settings(statement: Stated) -> dict[str, str]:
    """The symbols set after the count ("t=10"), with their values."""
    return {match.group(1): match.group(2) for word in statement.words if (match := _SETTING.match(word))}


def _other_setting(statement: Stated, other: Stated) -> bool:
    """The two counts are of two settings: their sentences name two sets of things ("For SIDER, 21 assays",
    "For MUV, 12 assays"), one symbol is set to two values ("T=10", "T=100"), or one sentence speaks of
    training only and the other of testing only."""
    if statement.names and other.names and not statement.names & other.names:
        return True
    settings, other_settings = _settings(statement), _settings(other)
    if any(other_settings[symbol] != value for symbol, value in settings.items() if symbol in other_settings):
        return True
    splits, other_splits = ({name for name, split in _SPLITS.items() if split.search(item.sentence)} for item in (statement, other))
    return len(splits) == len(other_splits) == 1 and splits != other_splits


def _same_count(statement: Stated, other: Stated) -> bool:
    """Two counts of one thing: in two paragraphs (one paragraph giving two counts of a thing speaks of two
    subsamples or datasets), of one setting, with the words after them in common."""
    (value,), (other_value,) = statement.values, other.values
    if statement.block == other.block:
        return False
    if _ROUNDED in statement.words | other.words and abs(value - other_value) <= _ROUGH * max(value, other_value):
        return False
    evidence = _evidence(statement, other)  # the cheap test first: most pairs share no words
    if evidence is None:
        return False
    # A sentence that writes the other value too speaks of both ("of the 120 participants, 85 completed"). A count of
    # ten or more is taken as written wherever its digits stand, even inside another number ("40" in "400"): a
    # method sentence repeated per experiment ("we recruited 40 participants", "400 participants") reads as a slip.
    writes = _writes if evidence in (_KNOWN_SET, _ANCHORED) else str.__contains__
    if writes(statement.sentence, other.written) or writes(other.sentence, statement.written):
        return False
    return not _other_setting(statement, other)


def _writes(sentence: str, written: str) -> bool:
    """Whether `sentence` writes the number `written` as a number of its own ("6" in "the 6 taxa", not in "22.86")."""
    return re.search(r"(?<![\w.,])" + re.escape(written) + r"(?![\w]|[.,]\d)", sentence, re.IGNORECASE) is not None


@violation_type
class CountRestated(Violation):
    """The count `slip` here, `told` in the section `where`; `shared` are the words after both."""

    slip: str
    told: str
    where: str
    shared: tuple[str, ...]

    @property
    def message(self) -> str:
        return f'"{self.slip}" here, but "{self.told}" in {self.where}, of the same thing ({", ".join(self.shared)})'

    @property
    def identity(self) -> str:
        return f"{self.slip} {self.told} {' '.join(self.shared)}"


def _reported(pair: Pair) -> Finding:
    slip, told = pair.slip, pair.told
    shared = tuple(sorted(_tail(slip) & _tail(told)))
    violation = CountRestated(slip.written, told.written, told.where, shared)
    kind = _evidence(slip, told) or ""
    compared = _compared(slip) or _compared(told)
    if kind == _ANCHORED and compared is not None:
        reason = f"the comparison's other count, {compared[1]:g}, is a total of {compared[0]} the paper states; its one other total is {told.written}"
    else:
        reason = f"the words after both counts agree: {', '.join(shared)}"
    return reported(pair, violation, kind, reason, "count", 0.6)


@rule(
    "NUM006",
    "count-restated",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=restatements(_same_count, _reported, _Totals),
)
def count_restated(ctx: RuleContext, section: Section) -> list[list[Stated]]:
    """## What it does
    Flags a count of things stated twice with two values: "we train ... with 600k video instances,
    each of which contains T=10 time steps and D=3 digits" and, later, "we train our model on 60000
    bouncing MNIST instances, each containing T=10 time steps and D=3 digits"; "21 482 jobs lost" in
    the introduction and "54 000 jobs were lost" in the discussion; "the 6 taxa with significant
    ORs" and, later, "the 3 taxa with significant ORs"; a matrix of "202 characters" that a comparison
    gives as "the penguin data set (122 versus 245)", where 122 is the other data set's stated total.
    Counts of two settings, subsets and selections are left alone (see How it decides).

    ## Why is this bad?
    A count is the size of the data or of the effect a reader takes away; two sizes for one thing
    mean one of them is stale or mistyped (a dropped zero, a re-run analysis), and the reader
    cannot tell which.

    ## Example
    ```latex
    ... trained with 600k video instances, each containing T=10 time steps and D=3 digits.
    ... We train our model on 60000 instances, each containing T=10 time steps and D=3 digits.
    ```

    ## Use instead
    The same count in both places (or say why the two differ: a subset, another split).

    ## Evidence
    "counts: same words after, a slip apart", "counts: same counted phrase in the summaries",
    "counts: the same known set, qualified alike" or "counts: a comparison's count against the one
    other total stated" (a comparison "(122 versus 245)" whose other count is a total the paper
    states, this one against the one other total of what it counts); confidence 0.6. Their measured precision decides whether a finding is information or a hint.
    """
    return [section_statements(ctx, section, counts, _has_count)]
