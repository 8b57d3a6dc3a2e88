"""Sentences read against the tables they may mean: the tables a section shows, in order, and the
tables of the whole paper by label, where a sentence's "Table 3" points."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TypeVar

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Table
from ...context import RuleContext
from ...quantities import ShownTable, shown_table, tables_by_label
from ..printed_tables import with_printed

Stated = TypeVar("Stated")


def with_shown_tables(section: Section, read: Callable[[PlacedBlock, tuple[str, ...]], Iterable[Stated]]) -> Iterator[ShownTable | Stated]:
    """The section's tables, and what `read` finds in each other block given the labels of the table shown last before it."""
    shown: tuple[str, ...] = ()
    for placed in section.blocks:
        here = shown_table(placed)
        if here is not None:
            shown = here.labels
            yield here
        else:
            yield from read(placed, shown)


def stated_with_tables(
    ctx: RuleContext, parts: list[tuple[Section, list[ShownTable | Stated]]], kind: type[Stated]
) -> Iterator[tuple[Stated, Mapping[str, Table]]]:
    """Each statement of type `kind` the sections yielded, with the paper's tables by label (and by the
    number each prints, which a sentence's literal "Table 3" cites)."""
    tables = with_printed({label: shown.table for label, shown in tables_by_label(parts, ShownTable).items()}, ctx)
    for _, items in parts:
        for item in items:
            if isinstance(item, kind):
                yield item, tables
