"""CNT002: a count a sentence states for a table it cites ("Table 3 lists the top 10 genes") that the table's rows do not give.

## How it decides
A table said to cover every member of a named set ("Breakdown on every CALVIN task" in its caption, "Table 5
shows each of the CALVIN tasks") is counted against the count of that set the paper states once, anywhere: "34
tasks in CALVIN" (and the list it leads: ", 45 in Meta-World"), "CALVIN, with 34 tasks", or "with 34 tasks" in a
paragraph led by the set's name ("CALVIN: …"). A row named for the whole set (a "CALVIN" row above its tasks) is
not one of its members. A set the paper counts several ways, or nowhere, is left alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind, Table
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Related, Severity, Statement
from ...memo import TEXT_CACHE_SIZE
from ...quantities import TableAt, shown_table, tables_at_by_label
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .table_rows import (
    COUNTED_NEAR,
    LISTED_IN,
    SetCount,
    SetCoverage,
    TableCount,
    countable,
    listings,
    member_head,
    names_listed,
    set_counts,
    set_coverages,
    set_key,
    set_members,
    table_counts,
)

# A count said to be listed in the table is surely of its rows; a known set counted beside its citation may be of
# something the table breaks down another way.
_CONFIDENCE = {LISTED_IN: 1.0, COUNTED_NEAR: 0.6}
# A table said to cover every member of a named set, against the count of the set the paper states elsewhere: the
# paper may count the set another way (variants, splits) than the table lists it.
COVERS_SET = "moderate: a table said to cover every member of a named set, against the set's stated count"
_COVERS_SET_CONFIDENCE = 0.6


@violation_type
class TableCountMismatch(Violation):
    claim: TableCount
    rows: int

    @property
    def message(self) -> str:
        claim = self.claim
        return f"the text says Table {claim.label} lists {claim.stated} {claim.noun}, but the table has {self.rows} rows"


@violation_type
class SetCoverageMismatch(Violation):
    label: str
    name: str
    member: str
    stated: int
    rows: int

    @property
    def message(self) -> str:
        return f"Table {self.label} is said to cover every {self.name} {self.member}, the paper counts {self.stated}, but the table lists {self.rows}"


@dataclass(frozen=True, slots=True, eq=False)
class _CountedTable(TableAt):
    countable: bool  # its rows can be counted (see table_rows.countable)


@dataclass(frozen=True, slots=True, eq=False)
class _Claim:
    claim: TableCount
    anchor: Finding  # where the count is written, placed while its section was read


@dataclass(frozen=True, slots=True, eq=False)
class _Coverage:
    coverage: SetCoverage
    label: str  # the table it covers
    anchor: Finding


@dataclass(frozen=True, slots=True, eq=False)
class _SetCount:
    count: SetCount
    anchor: Finding


_Read = _CountedTable | _Claim | _Coverage | _SetCount  # what a section gives the combine


def _claims_against_tables(ctx: RuleContext, parts: list[tuple[Section, list[_Read]]]) -> Iterator[Finding]:
    """Each count against the table it cites, wherever that table sits."""
    tables = tables_at_by_label(parts, _CountedTable)
    for _, items in parts:
        for item in items:
            cited = _counted(tables, item.claim.label) if isinstance(item, _Claim) else None
            if cited is None:
                continue
            table = cited[1]
            if not names_listed(table, item.claim.noun) or item.claim.stated in set(listings(table)):  # type: ignore[union-attr]
                continue
            claim, anchor = item.claim, item.anchor  # type: ignore[union-attr]
            violation = TableCountMismatch(claim, next(listings(table)))
            evidence = Evidence(
                kind=claim.evidence,
                statements=[Statement(file=anchor.file, range=anchor.range, quote=f"{claim.stated} {claim.noun}", role="stated count")],
                reason="no reading of the table's rows (with or without group titles, continued rows, aggregates) or columns gives the count",
            )
            confidence = _CONFIDENCE[claim.evidence]
            update = {"message": violation.message, "identity": violation.identity, "evidence": evidence, "confidence": confidence}
            yield anchor.model_copy(update=update)
    yield from _coverages_against_counts(ctx, parts, tables)


def _counted(tables: dict[str, tuple[tuple[_CountedTable, Table], ...]], label: str) -> tuple[_CountedTable, Table] | None:
    """The table under `label` whose rows can be counted: a float's one tabular (a float of several is a layout of
    several, as `countable` reads one tabular's source)."""
    cited = tables.get(label, ())
    return cited[0] if len(cited) == 1 and cited[0][0].countable else None


def _coverages_against_counts(
    ctx: RuleContext, parts: list[tuple[Section, list[_Read]]], tables: dict[str, tuple[tuple[_CountedTable, Table], ...]]
) -> Iterator[Finding]:
    """Each table said to cover a named set against the one count of that set the paper states. Names are printed
    here, where a coverage asks for them: printing reads the author's macros, which a paper of no coverage never needs."""
    coverages = [item for _, items in parts for item in items if isinstance(item, _Coverage)]
    printed = ctx.index.printed
    counts: dict[tuple[str, str], list[_SetCount]] = {}
    for _, items in parts if coverages else ():
        for item in items:
            if isinstance(item, _SetCount) and not (name := printed(item.count.name)).startswith("\\"):  # a command, no set
                counts.setdefault((set_key(name), member_head(item.count.member)), []).append(item)
    for item in coverages:
        name = printed(item.coverage.name)
        if not name.startswith("\\"):
            yield from _coverage_against_counts(item, name, counts, tables, printed)


def _coverage_against_counts(
    item: _Coverage,
    name: str,
    counts: dict[tuple[str, str], list[_SetCount]],
    tables: dict[str, tuple[tuple[_CountedTable, Table], ...]],
    printed: Callable[[str], str],
) -> Iterator[Finding]:
    """A table said to cover the set `name` against the one count of the set the paper states (`counts`)."""
    stated = counts.get((set_key(name), member_head(item.coverage.member)), [])
    cited = _counted(tables, item.label)
    if len({count.count.stated for count in stated}) != 1 or cited is None:
        return  # the paper counts the set nowhere, or several ways
    table, count = cited[1], stated[0]
    members = set_members(table, name, printed)
    if not names_listed(table, item.coverage.member) or count.count.stated in {members, *listings(table)}:
        return
    violation = SetCoverageMismatch(item.label, name, member_head(item.coverage.member), count.count.stated, members)
    anchor, told = item.anchor, count.anchor
    evidence = Evidence(
        kind=COVERS_SET,
        statements=[
            Statement(file=anchor.file, range=anchor.range, quote=f"every {name} {violation.member}", role="covered set"),
            Statement(
                file=told.file,
                range=told.range,
                quote=f"{count.count.stated} {count.count.member} ({name})",
                role="stated count",
            ),
        ],
        reason="no reading of the table's rows (with or without the set's own row, group titles, summary rows) gives the set's count",
    )
    related = [Related(file=told.file, range=told.range, message=f"the paper counts {count.count.stated} {count.count.member} here")]
    update = {
        "message": violation.message,
        "identity": violation.identity,
        "evidence": evidence,
        "confidence": _COVERS_SET_CONFIDENCE,
        "related": related,
    }
    yield anchor.model_copy(update=update)


@rule(
    "CNT002",
    "table-count-mismatch",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=_claims_against_tables,
    placed_parts=True,  # tables by block index within the section, counts by their findings' ranges
)
def table_count_mismatch(ctx: RuleContext, section: Section) -> Iterator[_Read]:
    """## What it does
    Counts the rows of a table that a sentence says lists a number of things: "Table 3
    contains the top 10 genes", "Table~\\ref{t} lists all 48 sequences", "the 16 gene sets
    listed in Table 4"; or, in a sentence citing one table and nothing else, a known set it
    counts ("Table 2 gives the statistics of all four datasets", "our nine languages (Table 3)"),
    not a part of another count ("2 of the 40 genes", "Of the 40 languages, …") nor a pick ("the
    first two rows", "the remaining 12 genes"). The table may be counted several ways, and any of
    them agrees: all body rows, rows without the titles of groups ("Panel A"), rows with a name
    (not continuing the row above), rows without a summary row (Average, Total, Combined, "all
    splits (aggregate)"), one group's rows under its title, distinct row names, or columns (a
    table of methods side by side), or entries drawn apart by rules (an entry over several
    lines), or the rows of one stretch between rules. The table must speak of the counted things: the noun's head word is in its caption,
    its header or its first column ("genes" and a header "Gene"). Bounds and selections ("at
    least 10 genes", "3 of the 12 genes"), settings ("5 runs"), a table said to list more
    ("shown in Table 3, along with …"), and tables laid out as several tabulars are left alone.
    A table said to cover every member of a named set ("every CALVIN task") is counted against the
    count of the set the paper states elsewhere (see below).

    ## Why is this bad?
    The count is what a reader takes away without counting; when the table lists another
    number, a row was added or dropped after the sentence was written, or the count is wrong
    wherever else the paper repeats it.

    ## Example
    ```latex
    Table~\\ref{tab:genes} contains the top 3 genes.
    % tab:genes lists four genes
    ```

    ## Use instead
    ```latex
    Table~\\ref{tab:genes} contains the top 4 genes.
    ```

    ## Evidence
    "strong: the cited table's rows counted" for a count said to be listed in the table;
    "moderate: a known set counted beside the table's citation" (confidence 0.6) for the rest,
    which may count what the table breaks down another way; "moderate: a table said to cover every
    member of a named set, against the set's stated count" (confidence 0.6).
    """
    for block, placed in enumerate(section.blocks):
        shown = shown_table(placed)
        if shown is not None:
            source = ctx.source(placed.file).text[placed.block.start : placed.block.end]
            yield _CountedTable(shown.labels, block, countable(shown.table, source))
        if placed.kind in (BlockKind.PARAGRAPH, BlockKind.CAPTION, BlockKind.FOOTNOTE):
            yield from _stated(ctx, placed)


def _stated(ctx: RuleContext, placed: PlacedBlock) -> Iterator[_Claim | _Coverage | _SetCount]:
    """What a text states of tables: the counts it gives for a table it cites, the counts of named sets, and the
    tables it says cover such a set (its caption's float, or the table a sentence of it cites)."""
    text = placed.block.plain.text
    if "ref" in text:
        for start, claim in _counts(text):
            yield _Claim(claim, ctx.report_block(placed, start + claim.start, start + claim.end, ""))
    for count in set_counts(text):
        yield _SetCount(count, ctx.report_block(placed, count.start, count.end, ""))
    caption = placed.kind is BlockKind.CAPTION
    for start, coverage in _coverages(text, caption):
        label = coverage.label or next(iter(placed.block.describes), None)
        if label is not None:
            yield _Coverage(coverage, label, ctx.report_block(placed, start + coverage.start, start + coverage.end, ""))


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _counts(text: str) -> tuple[tuple[int, TableCount], ...]:
    """The counts a paragraph's sentences state for a table, each with its sentence's start: kept by text, so an
    edit reads its paragraph alone."""
    return tuple((start, claim) for start, end in sentence_spans(text) for claim in table_counts(text[start:end]))


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _coverages(text: str, caption: bool) -> tuple[tuple[int, SetCoverage], ...]:
    """The named sets a text's sentences say a table covers, each with its sentence's start."""
    if "every" not in text and "each" not in text and "all" not in text:
        return ()  # no sentence of it says "every", "each" or "all": most texts, read without splitting
    return tuple((start, coverage) for start, end in sentence_spans(text) for coverage in set_coverages(text[start:end], caption))
