"""What one chunk of LaTeX contributes, and how it moves when text before it changes length."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from functools import cache
from operator import attrgetter
from typing import Any

from .model import (
    Acronym,
    Block,
    Heading,
    IncludeSite,
    KeyUse,
    MacroDef,
    Marker,
    StyledText,
)


@dataclass(slots=True)
class ParsedChunk:
    """Everything one chunk contributes; offsets relative to the chunk."""

    blocks: list[Block] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    labels: list[KeyUse] = field(default_factory=list)
    refs: list[KeyUse] = field(default_factory=list)
    cites: list[KeyUse] = field(default_factory=list)
    bibitems: list[KeyUse] = field(default_factory=list)
    includes: list[IncludeSite] = field(default_factory=list)
    macros: list[MacroDef] = field(default_factory=list)
    theorem_environments: list[tuple[str, str]] = field(default_factory=list)
    acronyms: list[Acronym] = field(default_factory=list)
    styled: list[StyledText] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    problems: list[tuple[int, int, str, str]] = field(default_factory=list)  # start, end, kind, message
    has_documentclass: bool = False

    def shifted(self, delta: int) -> ParsedChunk:
        """The same facts `delta` characters later.

        Runs on every chunk after an edit, so it skips empty fields and shares what holds no offset;
        the views' source maps are shared too (PlainText.offset).
        """
        if delta == 0:
            return self
        return ParsedChunk(
            *[value if move is None else move(value, delta) if value else [] for move, value in zip(_MOVERS, _FIELD_VALUES(self))]
        )


def _shift_blocks(blocks: list[Block], delta: int) -> list[Block]:
    return [
        Block(
            block.kind,
            block.start + delta,
            block.end + delta,
            block.plain.shifted(delta),
            block.environment,
            block.labels,
            block.table.shifted(delta) if block.table else None,
            block.describes,
        )
        for block in blocks
    ]


def _moved(items: list[Any], delta: int) -> list[Any]:
    """Copies of dataclasses (all of one type) with `start` and `end` moved by `delta`.

    dataclasses.replace is three times slower.
    """
    kind: type = type(items[0])
    values_of, start, end = _start_end_layout(kind)
    moved = []
    for item in items:
        values = list(values_of(item))
        values[start] += delta
        values[end] += delta
        moved.append(kind(*values))
    return moved


@cache
def _start_end_layout(kind: type) -> tuple[attrgetter[Any], int, int]:
    """A getter of all fields of a dataclass, and where its start and end are among them."""
    names = [item.name for item in fields(kind)]
    return attrgetter(*names), names.index("start"), names.index("end")


# One per field of ParsedChunk, in order: how to move its value; None shares it (it holds no offset).
_MOVERS: list[Callable[[Any, int], Any] | None] = [
    {
        "blocks": _shift_blocks,
        "markers": lambda markers, delta: [Marker(marker.kind, marker.offset + delta) for marker in markers],
        "problems": lambda problems, delta: [(start + delta, end + delta, kind, message) for start, end, kind, message in problems],
        "theorem_environments": None,
        "has_documentclass": None,
    }.get(item.name, _moved)
    for item in fields(ParsedChunk)
]
_FIELD_VALUES = attrgetter(*[item.name for item in fields(ParsedChunk)])
