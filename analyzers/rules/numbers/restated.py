"""A quantity the paper states in several places: the statements a section gives, and the pairs of
them, across the paper, that state one quantity with two values.

Each rule that compares restatements (NUM005 ranges, NUM006 counts) reads its own statements from a
sentence; pairing them is common: the later statement of a pair is reported against the first
earlier one that disagrees, once, so a value repeated three times makes one finding per slip.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ....latex.manuscript import Section
from ....latex.model import SectionKind
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Evidence, Finding, Related, Statement
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
_WORD = re.compile(r"[A-Za-z][A-Za-z-]*(?:=\d+(?:\.\d+)?)?")


def value_of(written: str) -> float:
    """The value of a number matched by NUMBER: "21 482" and "21,482" are 21482."""
    return float(re.sub(r"\s|\u2009|,|\{,\}", "", written).replace("−", "-"))


def content_stems(text: str) -> list[str]:
    """The stems (`stem`) of the words of `text` that say what it is about, in order; a setting written
    as "T=10" is one word and keeps its value."""
    words = (word.lower() for word in _WORD.findall(text))
    return [stem(word) for word in words if word not in _FUNCTION_WORDS and len(word) > 1]


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class Pair:
    """A later statement that contradicts an earlier one of the same quantity."""

    slip: Stated
    told: Stated


Read = Callable[[str], Iterator[tuple[int, int, str, tuple[float, ...], str, frozenset[str]]]]


def section_statements(ctx: RuleContext, section: Section, read: Read) -> list[Stated]:
    """The statements `read` finds in the prose of `section`: for each sentence, (start, end, key, values,
    as written, words) with start and end in the sentence."""
    found = []
    where = section.title or ("the front matter" if section.kind is SectionKind.FRONT else section.kind.value)
    for placed in section.blocks:
        if placed.kind not in PROSE_KINDS:
            continue
        text = placed.block.plain.text
        for begin, finish in sentence_spans(text):
            sentence = text[begin:finish]
            for start, end, key, values, written, words in read(sentence):
                found.append(
                    Stated(
                        key,
                        values,
                        written,
                        words,
                        " ".join(sentence.split()),
                        _near_names(sentence, start, end),
                        placed.index,
                        section.kind in SUMMARIES,
                        where,
                        ctx.report_block(placed, begin + start, begin + end, ""),
                        ctx.related_block(placed, begin + start, begin + end, f"the other statement: {written}"),
                    )
                )
    return found


def _near_names(sentence: str, start: int, end: int) -> frozenset[str]:
    words, names = window(sentence, start, end)
    return frozenset(name for name in names if len(name) > 1 and name.lower() in words)


def contradictions(parts: list[tuple[Section, list[list[Stated]]]], same: Callable[[Stated, Stated], bool]) -> Iterator[Pair]:
    """The statements of every section's part (`section_statements`), in reading order, each against the earlier ones of its key, in reading order: the nearest earlier statement
    with other values that `same` takes for the same quantity makes a pair. Statements of one sentence
    are never compared: it states both values on purpose."""
    seen: dict[str, list[Stated]] = {}
    for statement in (statement for _, (part,) in parts for statement in part):
        earlier = seen.setdefault(statement.key, [])
        for other in reversed(earlier):
            if other.values != statement.values and other.sentence != statement.sentence and same(statement, other):
                yield Pair(statement, other)
                break
        earlier.append(statement)


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
