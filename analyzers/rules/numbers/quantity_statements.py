"""What NUM002 compares, a prose number that states a measured quantity with the words around it, and when two
statements are one quantity.

A statement is read once per sentence (`said`), wherever its paragraph sits, so that an edit reads the
edited sentence's numbers alone; where it is (`QuantityStatement.at`) is added per section.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from rapidfuzz import fuzz

from ....latex.index import NumberInContext
from ....latex.manuscript import Section
from ....latex.model import SectionKind
from ....latex.numbers import Role
from ....latex.record import record
from ...context import RuleContext, Spot
from ...memo import TEXT_CACHE_SIZE
from ...quantities import agreeing_spellings, digit_variants, exact_spellings, rounded_spellings, spelled
from .model import (
    FOLLOWING,
    SCALES,
    clamped,
    direction,
    figures_evidence,
    headline,
    is_counted,
    mentions,
    significant_figures,
    stem,
    window,
)


@record(slots=True)
class QuantityStatement:
    """A result-like prose number with the words around it, and where the finding it becomes sits when
    another statement of the same quantity says otherwise (built then, with its message and confidence)."""

    kind: tuple[str, int, bool]  # unit, decimals, negative
    written: str
    variants: tuple[str, ...]  # spellings one digit away, in a fixed order: which earlier statement is named must not depend on hashing
    agreeing: tuple[str, ...]  # agreeing_spellings: a table cell with one of these holds the number
    block: int  # the block's place in its section
    window: frozenset[str]
    names: frozenset[str]  # the capitalised names of its sentence
    near_names: frozenset[str]  # those within its window
    direction: int  # +1 a rise ("improves by"), -1 a fall ("drops"), 0 a level
    role: Role
    subject: frozenset[str]  # the stems of what it measures (NumberMention.subject), compared
    named: str  # what it measures, as the sentence words it
    counted: bool  # an integer before what it counts ("57 studies", "340 fps"): compared with the abstract only
    follows: frozenset[str]  # the stems of the two words after the number ("studies containing", "fps for")
    abstract: bool
    text: str
    sentence: str
    where: str  # its section's title or kind
    at: Spot  # where its finding, or the other statement's related span, sits
    lines: tuple[int, int, int, int]  # `at` as lines and characters, which an edit on another line does not move


# The roles NUM002 compares: what states a measured quantity. Test statistics, p-values, coefficients
# and intervals are the STAT rules'; settings, years and interval levels are not results. A sample size
# written before what it counts ("1659 participants") is compared as a count.
_STATED = frozenset({Role.VALUE, Role.APPROXIMATE, Role.CHANGE, Role.BOUND, Role.COUNT, Role.SAMPLE_SIZE})


@lru_cache(maxsize=4096)
def held_spellings(value: float, decimals: int) -> frozenset[str]:
    """How a table cell holds a number stated in prose: its roundings, but a whole number only as written
    (a cell of 79.6 holds 79.6 and 80.0, not "80 studies"). Kept by value, as its spellings are."""
    return frozenset(spelling for spelling in rounded_spellings(value, decimals) if "." in spelling) | exact_spellings(value, decimals)


def statement_of(ctx: RuleContext, section: Section, number: NumberInContext) -> QuantityStatement | None:
    """The number as NUM002 compares it, or None when it states no measured quantity: one of a list, an end
    of a range, a statistic or a setting, or a number with fewer than three content words around it."""
    found = said(_SaidKey(number))
    if found is None:
        return None
    (kind, written, variants, agreeing), (words, names, near_names, rise, role, subject, named, counted, follows), quote = found
    placed, mention = number.block, number.mention
    at = ctx.spot(placed, mention.plain_start, mention.plain_end)
    return QuantityStatement(
        kind,
        written,
        variants,
        agreeing,
        placed.index - section.blocks[0].index,
        words,
        names,
        near_names,
        rise,
        role,
        subject,
        named,
        counted,
        follows,
        section.kind is SectionKind.ABSTRACT,
        *quote,
        section.title or ("the front matter" if section.kind is SectionKind.FRONT else section.kind.value),
        at,
        ctx.positions(at.file, at.start, at.end),
    )


# Of a `QuantityStatement`: what it measures and how it is written; the words around it; its quote.
_Measured = tuple[tuple[str, int, bool], str, tuple[str, ...], tuple[str, ...]]
_Context = tuple[frozenset[str], frozenset[str], frozenset[str], int, Role, frozenset[str], str, bool, frozenset[str]]


class _SaidKey:
    """A number as `said` reads it: its sentence, its place in it, what was read of it and its block's kind. The
    sentences of an edited paragraph that the edit left as they were are the same key."""

    __slots__ = ("number", "read")

    def __init__(self, number: NumberInContext) -> None:
        mention = number.mention
        self.number = number
        start, end = mention.plain_start - mention.sentence_start, mention.plain_end - mention.sentence_start
        read = (mention.value, mention.text, mention.decimals, mention.percent, mention.unit, mention.role, mention.subject)
        self.read = (mention.sentence, start, end, read, number.block.kind)

    def __hash__(self) -> int:
        return hash(self.read)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _SaidKey) and other.read == self.read


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def said(key: _SaidKey) -> tuple[_Measured, _Context, tuple[str, str]] | None:
    """What a statement is wherever its block sits: what it measures and how it is written, the words around
    it, and its quote; kept by sentence, so that an edit reads the edited sentence's numbers alone."""
    number = key.number
    mention = number.mention
    counted = is_counted(number)
    if not (counted or headline(number)) or mention.role not in _STATED:
        return None
    start, end = mention.plain_start - mention.sentence_start, mention.plain_end - mention.sentence_start
    words, names = window(mention.sentence, start, end)
    if len(words) < 3:
        return None
    after = FOLLOWING.match(mention.sentence, end)
    written = spelled(mention.value, mention.decimals)
    measured: _Measured = (
        (mention.unit, mention.decimals, mention.value < 0),
        written,
        tuple(dict.fromkeys(digit_variants(written))),
        tuple(agreeing_spellings(mention.value, mention.decimals)),
    )
    context: _Context = (
        frozenset(stem(word) for word in words),
        frozenset(names),
        frozenset(name for name in names if name.lower() in words),
        direction(mention.sentence, start, end),
        mention.role,
        frozenset(stem(word) for word in mention.subject),
        " ".join(mention.subject),
        counted,
        frozenset(stem(word.lower()) for word in after.groups() if word) if after else frozenset(),
    )
    return measured, context, (mention.text, " ".join(mention.sentence.split()))


class Values:
    """The values the paper states for each subject. A quantity stated with three or more values is one per
    setting (each experiment's payment, each model's coefficient, a template sentence per condition), not one
    quantity with a slip, which gives two."""

    def __init__(self, statements: Iterator[QuantityStatement]) -> None:
        self._values: dict[tuple[Role, frozenset[str]], set[str]] = {}
        for statement in statements:
            self._values.setdefault((_kind_of(statement), statement.subject), set()).add(statement.written)

    def __call__(self, statement: QuantityStatement, other: QuantityStatement) -> bool:
        kind = _kind_of(statement)
        values = self._values.get((kind, statement.subject), set()) | self._values.get((kind, other.subject), set())
        return len(values) >= _SETTINGS_APART


_SETTINGS_APART = 3


def unseen(abstract: QuantityStatement, body: frozenset[str]) -> bool:
    """The body's prose never writes the abstract's value: a table cell that happens to hold it ("32%" among
    hundreds of cells) is then no evidence that the abstract quotes the table."""
    return not any(spelling in body for spelling in abstract.agreeing)


def held(statement: QuantityStatement, table_spellings: frozenset[str]) -> bool:
    return any(spelling in table_spellings for spelling in statement.agreeing)


def scaled_counts(statement: QuantityStatement, other: QuantityStatement) -> bool:
    """Two counts in millions or billions of one thing ("3.2 million observations", "8.3 million observations"), each
    of two or more figures and stated, not approximated: "4 million" and "6 million" ratings of two datasets coincide."""
    if not (statement.counted and other.counted and statement.kind[0] in SCALES and statement.follows & other.follows):
        return False
    return all(significant_figures(item.written) >= 2 and item.role is not Role.APPROXIMATE for item in (statement, other))


def comparable(statement: QuantityStatement, other: QuantityStatement) -> bool:
    """A bound ("> 70%") is restated as a bound, a count ("57 studies") with what it counts; the abstract's
    summary is where either is restated, elsewhere bounds and counts vary with what they describe. A count in
    millions or billions of the same thing ("3.2 million observations") is a sample's size, compared anywhere."""
    abstract = statement.abstract or other.abstract
    if (statement.role is Role.BOUND) != (other.role is Role.BOUND) or (statement.role is Role.BOUND and not abstract):
        return False
    if scaled_counts(statement, other):
        return True  # "3.2 million observations" and "8.3 million observations": a sample is restated anywhere
    return not (statement.counted or other.counted) or (abstract and bool(statement.follows & other.follows))


def same_quantity(statement: QuantityStatement, other: QuantityStatement, abstract_alone: bool = False) -> float | None:
    """The confidence that two statements state the same quantity (see NUM002's ## Confidence), or None when
    their words or settings say they do not. `abstract_alone`: one is the abstract's, with a value the body
    never writes; its names need not recur, as the abstract names its setting in its own words."""
    abstract = statement.abstract or other.abstract
    loose = abstract or scaled_counts(statement, other)  # subjects worded freely: one shared word suffices
    if _kind_of(statement) is not _kind_of(other) or not _same_subject(statement.subject, other.subject, loose):
        return None
    # A sentence stating both values ("80% and 90% of the maximum") tells two quantities apart.
    if _states(statement.sentence, other) or _states(other.sentence, statement):
        return None
    shared = statement.window & other.window
    common = statement.names & other.names
    if not (same_setting(statement, other) or abstract_alone):
        return None
    # A rise and a fall are two quantities, whatever the words around them.
    if statement.direction * other.direction < 0:
        return None
    # Same quantity: most words around the numbers agree, or two do and one of them is a shared name
    # ("at the 95% CL"), or two do and one statement is the abstract's summary of the other.
    most = len(shared) >= 3 and len(shared) * 2 >= min(len(statement.window), len(other.window))
    if not (most or (len(shared) >= 2 and (loose or any(name.lower() in shared for name in common)))):
        return None
    confidence = (
        0.6
        + 0.15 * abstract
        + 0.1 * most
        + 0.1 * bool(common)
        + 0.1 * bool(statement.follows & other.follows)
        + figures_evidence(statement.written)
    )
    if Role.APPROXIMATE in (statement.role, other.role):
        confidence -= 0.25
    if (statement.direction == 0) != (other.direction == 0):  # a change and a level
        confidence -= 0.2
    # A name next to one number that the other sentence never mentions sets another setting ("FaRM/YCSB").
    if statement.near_names - other.names or other.near_names - statement.names:
        confidence -= 0.15
    return clamped(confidence)


def same_setting(statement: QuantityStatement, other: QuantityStatement) -> bool:
    """The sentences' capitalised names (datasets, models) overlap, or one names none."""
    return bool(statement.names & other.names) or not (statement.names and other.names)


def _states(sentence: str, statement: QuantityStatement) -> bool:
    return any(
        spelled(mention.value, mention.decimals) == statement.written and mention.unit == statement.kind[0]
        for mention in mentions(sentence)
    )


def _kind_of(statement: QuantityStatement) -> Role:
    """An approximation ("about 12%") restates a result; a result stated as a rise or a fall ("22% lower",
    "a 22% reduction") is a relative change."""
    role = Role.VALUE if statement.role is Role.APPROXIMATE else statement.role
    if statement.counted and role in (Role.VALUE, Role.SAMPLE_SIZE):
        return Role.COUNT  # "$4694$ laws", "1659 participants": an integer before what it counts
    return Role.CHANGE if role is Role.VALUE and statement.direction else role


def _same_subject(subject: frozenset[str], other: frozenset[str], abstract: bool) -> bool:
    """Both sentences say what their number measures, and one names all the other does
    ("accuracy on ImageNet" and "top-1 accuracy on ImageNet"; not "transfers" and "the loss").
    The abstract restates the body in its own words: there one shared word suffices, a metric
    written out or abbreviated ("acc", "accuracy") or spelled alike ("identify", "identified")."""
    if not (subject and other):
        return False
    if subject <= other or other <= subject:
        return True
    return abstract and any(_alike(word, another) for word in subject for another in other)


# Metric names an abstract and its body write in two ways, as `stem` leaves them ("f-score" → "f-scor").
_METRIC = {"acc": "accuracy", "err": "error", "f-scor": "f1", "f-measur": "f1", "f1-scor": "f1", "prec": "precis"}


def _alike(word: str, other: str) -> bool:
    """Two stems (`stem`) of one word or metric."""
    word, other = _METRIC.get(word, word), _METRIC.get(other, other)
    return word == other or (min(len(word), len(other)) >= 5 and fuzz.ratio(word, other) >= _ALIKE)


_ALIKE = 85  # rapidfuzz ratio of two stems of one word ("identif", "identifi"), not of two words ("preserv", "present")
