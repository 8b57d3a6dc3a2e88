"""Sentences read against the tables they may mean: the tables a section shows, in order, and the
tables of the whole paper by label, where a sentence's "Table 3" points."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TypeVar

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Table
from ....latex.record import record
from ...finding import Finding
from ...quantities import ShownTable, judged_against_tables, shown_table
from ...registry import Pairwise
from ..printed_tables import shown_tables_by_label
from ..tables.model import Grid

Stated = TypeVar("Stated")


@record(slots=True, eq=False)
class TableByBlock:
    """A table of the paper, by its block's place in its section: what a rule that reads tables across sections keeps
    of one. Its grid is read (where the section holds it now) only when the paper has something to check against it."""

    block: int
    rule_macros: frozenset[str]

    def grid(self, section: Section) -> tuple[str, Grid]:
        placed = section.blocks[self.block]
        return placed.file, Grid.of(placed.block.table, self.rule_macros)  # type: ignore[arg-type]  # a table block


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


def against_shown_tables(kind: type[Stated], judge: Callable[[Stated, Mapping[str, tuple[Table, ...]]], Iterable[Finding]]) -> Pairwise:
    """A `Pairwise` combine that judges each statement of type `kind` the sections yielded against the paper's
    tables by label, a table's printed number among them."""
    return judged_against_tables(kind, judge, shown_tables_by_label)
