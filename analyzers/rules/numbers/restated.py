"""A quantity the paper states in several places: the statements a section gives, and the pairs of
them, across the paper, that state one quantity with two values.

Each rule that compares restatements (NUM005 ranges, NUM006 counts) reads its own statements from a
sentence; pairing them is common: the later statement of a pair is reported against the first
earlier one that disagrees, once, so a value repeated three times makes one finding per slip.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import SectionKind
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Evidence, Finding, Range, Related, Statement
from ...memo import TEXT_CACHE_SIZE
from ...registry import Pairwise
from ...violation import Violation
from .model import PROSE_KINDS, clamped, stem, window

# A number as prose writes it: a sign, thousands grouped by commas or (thin) spaces, decimals.
NUMBER = r"[-−]?(?:\d{1,3}(?:(?:,|\s|\u2009|\{,\})\d{3})+(?!\d)|\d+(?:\.\d+)?|\.\d+)"
# Words that say nothing of what a number measures.
_FUNCTION_WORDS = frozenset(
    "a an the of in on at to for by with from and or as is are was were be been being that which who each this "
    "these those it its their our we us they than then also both per into over under between within".split()
    # and the names of what a sentence points to ("see Fig. 7", "Table~\\ref{…}"), which say nothing of its number
    + "see fig figs figure figures table tables tab eq eqs equation section sec appendix ref".split()
)
SUMMARIES = frozenset({SectionKind.ABSTRACT, SectionKind.INTRODUCTION, SectionKind.DISCUSSION, SectionKind.CONCLUSION})
_WORD = DeferredPattern(r"[A-Za-z][A-Za-z-]*(?:=\d+(?:\.\d+)?)?")


def value_of(written: str) -> float:
    """The value of a number matched by NUMBER: "21 482" and "21,482" are 21482."""
    return float(re.sub(r"\s|\u2009|,|\{,\}", "", written).replace("−", "-"))


def content_stems(text: str) -> list[str]:
    """The stems (`stem`) of the words of `text` that say what it is about, in order; a setting written
    as "T=10" is one word and keeps its value."""
    words = (word.lower() for word in _WORD.findall(text))
    return [stem(word) for word in words if word not in _FUNCTION_WORDS and len(word) > 1]


@record(slots=True)
class Stated:
    """One statement of a quantity: what it is (`key`, compared for equality), its value or values as
    written, the words that tie it to another statement, and where it is."""

    key: str
    values: tuple[float, ...]
    written: str
    words: frozenset[str]
    sentence: str
    names: frozenset[str]  # the capitalised names within five words of it (datasets, models): its setting
    block: int  # the block's place in reading order
    summary: bool  # in the abstract, the introduction, the discussion or the conclusion: where a paper restates its headline numbers
    where: str  # its section's title or kind
    anchor: Finding  # where the statement is written (message filled in when it is reported)
    related: Related  # the same place, for the other statement's finding


@record(slots=True)
class Pair:
    """A later statement that contradicts an earlier one of the same quantity."""

    slip: Stated
    told: Stated


Read = Callable[[str], Iterator[tuple[int, int, str, tuple[float, ...], str, frozenset[str]]]]
# Whether a text may hold a statement: what every statement `read` finds holds, far cheaper than reading.
MayHold = Callable[[str], object]
HAS_DIGIT = DeferredPattern(r"\d").search  # a reader of NUMBER: three blocks in four of a book hold none


# What a block's text states, wherever the block sits: (start, end) in the text, key, values, as written, words,
# its sentence on one line and the names near it.
Found = tuple[int, int, str, tuple[float, ...], str, frozenset[str], str, frozenset[str]]


def section_statements(ctx: RuleContext, section: Section, read: Read, may_hold: MayHold) -> list[Stated]:
    """The statements `read` finds in the prose of `section`: for each sentence, (start, end, key, values,
    as written, words) with start and end in the sentence. Blocks and sentences `may_hold` turns down are
    not read (nor split)."""
    return [
        statement
        for placed in section.blocks
        if placed.kind in PROSE_KINDS
        for statement in block_stated(ctx, section, placed, _block_statements(read, may_hold, placed.block.plain.text))
    ]


def block_stated(ctx: RuleContext, section: Section, placed: PlacedBlock, found: Iterable[Found]) -> Iterator[Stated]:
    """The statements `found` in the plain text of `placed`, a block of `section`, placed where they are written."""
    where = section.title or ("the front matter" if section.kind is SectionKind.FRONT else section.kind.value)
    for start, end, key, values, written, words, sentence, names in found:
        yield Stated(
            key,
            values,
            written,
            words,
            sentence,
            names,
            placed.index,
            section.kind in SUMMARIES,
            where,
            ctx.report_block(placed, start, end, ""),
            ctx.related_block(placed, start, end, f"the other statement: {written}"),
        )


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _block_statements(read: Read, may_hold: MayHold, text: str) -> tuple[Found, ...]:
    """Kept by the block's text: an edit reads the edited paragraph again, not the rest of its section."""
    if not may_hold(text):
        return ()
    return tuple(
        (begin + start, begin + end, key, values, written, words, line, names)
        for begin, finish in sentence_spans(text)
        for start, end, key, values, written, words, line, names in _sentence_statements(read, may_hold, text[begin:finish])
    )


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _sentence_statements(read: Read, may_hold: MayHold, sentence: str) -> tuple[Found, ...]:
    """A sentence's statements, start and end in the sentence: kept by its text, so typing in a paragraph reads the
    sentence typed in alone."""
    if not may_hold(sentence):
        return ()
    line = " ".join(sentence.split())
    return tuple(
        (start, end, key, values, written, words, line, _near_names(sentence, start, end))
        for start, end, key, values, written, words in read(sentence)
    )


def _near_names(sentence: str, start: int, end: int) -> frozenset[str]:
    words, names = window(sentence, start, end)
    return frozenset(name for name in names if len(name) > 1 and name.lower() in words)


class Earlier:
    """Every section's statements by key, with their section's place, in reading order: what each is compared with."""

    def __init__(self, feeding: list[tuple[int, Section, list[list[Stated]]]]) -> None:
        self.by_key: dict[str, list[tuple[int, Stated]]] = {}
        for place, _, (part,) in feeding:
            for statement in part:
                self.by_key.setdefault(statement.key, []).append((place, statement))

    def contradicted(self, statement: Stated, place: int, before: list[Stated], same: Callable[[Stated, Stated], bool]) -> Pair | None:
        """The nearest earlier statement of its key (in the sections before `place`, then `before` in its own) with
        other values that `same` takes for the same quantity. Statements of one sentence are never compared: it
        states both values on purpose."""
        earlier = [other for at, other in self.by_key.get(statement.key, ()) if at < place]
        earlier += [other for other in before if other.key == statement.key]
        for other in reversed(earlier):
            if other.values != statement.values and other.sentence != statement.sentence and same(statement, other):
                return Pair(statement, other)
        return None


def restatements(same: Callable[[Stated, Stated], bool], report: Callable[[Pair], Finding], paper: type[Earlier] = Earlier) -> Pairwise:
    """The pairs of the sections' statements (`section_statements`), each later statement against the earlier ones
    of its key, in reading order, reported on the later one: split by section, an edit re-reads the edited
    section's statements alone, and every section's only when what the edited one states changed. `paper` holds
    the whole paper's statements (a rule that compares against all of them gives its own)."""

    def each(ctx: RuleContext, earlier: Earlier, place: int, section: Section, part: list[list[Stated]]) -> Iterator[Finding]:
        for seen, statement in enumerate(part[0]):
            pair = earlier.contradicted(statement, place, part[0][:seen], same)
            if pair is not None:
                yield report(pair)

    return Pairwise(_stated, lambda ctx, feeding: paper(feeding), each, feeds_all=True)


def _stated(part: list[list[Stated]]) -> object | None:
    """What a section's statements give the others' comparisons: all they compare and where they are."""
    if not part[0]:
        return None
    return tuple(
        (
            statement.key,
            statement.values,
            statement.written,
            tuple(sorted(statement.words)),
            statement.sentence,
            tuple(sorted(statement.names)),
            statement.block,
            statement.summary,
            statement.where,
            _where(statement.anchor.file, statement.anchor.range),
            _where(statement.related.file, statement.related.range),
        )
        for statement in part[0]
    )


def _where(file: str, range_: Range) -> tuple[str, int, int, int, int]:
    return (file, range_.start.line, range_.start.character, range_.end.line, range_.end.character)


def reported(pair: Pair, violation: Violation, kind: str, reason: str, role: str, confidence: float) -> Finding:
    """The pair's finding, on the later statement, with both sentences quoted as its evidence."""
    sides = [
        Statement(file=item.anchor.file, range=item.anchor.range, quote=item.sentence, subject=item.key, role=role)
        for item in (pair.slip, pair.told)
    ]
    return pair.slip.anchor.model_copy(
        update={
            "message": violation.message,
            "identity": violation.identity,
            "related": [pair.told.related],
            "confidence": clamped(confidence),
            "evidence": Evidence(kind=kind, statements=sides, reason=reason),
        }
    )
