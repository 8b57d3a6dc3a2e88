"""NUM002: one quantity stated twice with two values (the abstract against the body, or two places of the body).

## How it decides
Sameness comes from what each number
is (the quantity model of `latex/numbers.py`), not from the words the sentences share:
both numbers have the same role (a result, a relative change, a count, a bound; an
approximation counts as a result) and the same subject (what its clause says it measures,
"accuracy on ImageNet", the noun it counts): both sentences name one, and one names all
the other does. So "the coefficient is −0.228" and "it remains negative, at −0.222" (no
subject), or "transfers equal 3.0 percent of mean income" and "the loss amounts to 5.0
percent of mean income" (two subjects), are left alone. Test statistics, p-values,
coefficients and effect sizes, interval levels and bounds, settings and years are never
compared here: they are the STAT rules', or no results. Against the abstract,
which restates the body in its own words, the subjects need only share a word: a metric
written out or abbreviated ("acc", "accuracy"), or a word spelled alike ("identify",
"identified"). A result stated as a rise or a fall ("22% lower than the control") is a
relative change ("decreases the cost by 22%"). Beyond that the words around the numbers
must agree (at least three shared content words, most of them; or two,
one of them a name both sentences use: "79% from DualMind" and "DualMind achieves 89%
success rate") and the sentences must not name different settings: their capitalised
names (datasets, models, stages) overlap, or one sentence names none. A rise and a fall
("improves by 12%", "drops by 13%") are two quantities, and so are two values that one
of the sentences states side by side ("80% and 90% of the maximum F1").

Only numbers that state a quantity are compared: not one of a list or set of values, not
an end of a range ("15%–20%", "between 2 and 5"), not a version ("JASP 0.16.3"), not the
spread after a value ("22% +/- 6.7%"), and not a cell of a table's rows kept in a file of
their own and read as prose (two or more " & " separators). A subject the paper states with
three or more values is a quantity per setting, not one quantity with a slip: each
experiment's payment in its own template sentence ("participants were compensated $0.50"),
each model's coefficient; its pairs are left alone. A bound
("> 70%", "above 85%") is compared with a bound, and only against the abstract; so is a
count before what it counts ("57 studies", "340 fps", "1659 participants", a sample size
too), when the words after the two numbers share what is counted. Against an abstract's
value that the body never writes, in prose or a table, the sentences need not share names
(datasets, periods): the abstract words its setting its own way, and a value it shares
with no other place is suspect. The abstract restates results in its own words: against
it two shared words suffice. Numbers that a table holds are NUM001's, except against the
abstract, which quotes them without citing the table: there the copy that no table holds
is reported. A table holds a whole number only as written (a cell of 79.6 does not hold
"80%"), and never a count ("45 outflows"): an integer cell is as often an identifier. The message names both subjects; the finding's evidence quotes both
sentences with their subjects and roles.

Tables repeat results too: a main table and an ablation, a per-dataset and a summary
table, give the same method's score on the same dataset. Two tables that hold cells under
the same row and column names (either way round; a header of no distinctive word, "Ours",
by its text) and repeat at least three of them alike, with no more than one in three
differing, report each differing one on the cell of the later table ("71.17 here, but
82.29 in Table offline"), also when only the spreads differ ("91.1 ± 1.0", "91.1 ± 2.6").
Tables of two settings under the same headers (5-shot and 10-shot) disagree nearly
everywhere and are left alone. The evidence class is "tables: same row and column". Only
cells of one value each count (not "mean 49.24, max 115.37"), not an aggregate row or column
(Average, Total, MAE: each summarises its own table), not a row and column that name several
cells of their table, and agreement only in values of two or more figures other than 0, 1
and 100, spread over two or more rows and columns.

The columns of two tables may not match by name when one sets a setting in a column of its own
(an "Epoch" column beside each method's rows) and the other in its headers ("Ep. 50"). There the
row decides: when the same-named row of both tables holds three or more results written alike
with their spreads ("20.6 ± 1.6"), a value it holds with another spread in each ("91.1 ± 1.0",
"91.1 ± 2.6") is one result copied from a run that changed. A value and spread a row holds twice
identifies nothing, and a value it holds with two spreads in one table is two runs. The evidence
class is "tables: same row, its other results alike".

A count in millions or billions ("3.2 million household-year observations") is a sample's
size: restated anywhere, not only in the abstract ("8.3 million household-year observations"
in the data section), it is compared when the words after both numbers share what is
counted; its subject may be worded freely. The evidence class is "same count in millions or
billions".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import fields
from functools import lru_cache
from typing import NamedTuple

from ....latex.manuscript import Section
from ....latex.model import SectionKind
from ....latex.numbers import Role
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Related, Severity, Statement
from ...quantities import spelled
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from .model import clamped, figures_evidence, section_cells, section_numbers
from .quantity_statements import (
    QuantityStatement,
    Values,
    comparable,
    held,
    held_spellings,
    same_quantity,
    same_setting,
    scaled_counts,
    statement_of,
    unseen,
)
from .repeated_cells import KeyedCell, Repeat, keyed_cells, repeats


@violation_type
class TwoValues(Violation):
    """`slip` (what it measures: `slip_named`) here, `told` (`told_named`) in the section `told_where`; `shared` are
    the words around both numbers."""

    slip: str
    slip_named: str
    told: str
    told_named: str
    told_where: str
    shared: tuple[str, ...]

    @property
    def message(self) -> str:
        return f'{self.slip} for "{self.slip_named}" here, but {self.told} for "{self.told_named}" in {self.told_where}'

    @property
    def identity(self) -> str:
        return f"{self.slip} {self.told} {' '.join(self.shared)}"


class _Statements(NamedTuple):
    """What a section gives NUM002: how its tables' cells may be quoted, its result-like numbers, and how
    every number of its prose is written."""

    table_spellings: frozenset[str]
    statements: tuple[QuantityStatement, ...]
    written: frozenset[str]
    cells: tuple[KeyedCell, ...]  # its tables' numeric cells, by the names of their row and column


@violation_type
class RepeatedCell(Violation):
    """A cell (`slip`, as written) that another table (`where`: its cell described) holds as `told` under the
    same row and column names."""

    slip: str
    told: str
    where: str
    table: str

    @property
    def message(self) -> str:
        return f"{self.slip} here, but {self.told} in {self.where}, which repeats this table's other results alike"

    @property
    def identity(self) -> str:
        return f"{self.slip} {self.table} {self.told}"


def _repeated(ctx: RuleContext, repeat: Repeat) -> Finding:
    """A result two tables repeat with two values where they repeat others alike, on the later cell."""
    slip, told = repeat.slip, repeat.told
    violation = RepeatedCell(slip=slip.text, told=told.text, where=ctx.index.printed(told.describe), table=told.table)
    if repeat.row_only:
        kind = "tables: same row, its other results alike; the spreads differ"
    else:
        kind = "tables: same row and column" + ("; the spreads differ" if repeat.spread_only else "")
    sides = [
        Statement(file=cell.place.file, range=cell.place.range, quote=cell.text, subject=cell.describe, role=Role.VALUE.value)
        for cell in (slip, told)
    ]
    evidence = Evidence(kind=kind, statements=sides, reason=f"the two tables repeat {repeat.agreeing} other results alike")
    confidence = clamped(0.6 + figures_evidence(spelled(slip.value, slip.decimals)))
    related = [Related(file=told.place.file, range=told.place.range, message=f"the other table's value {told.text}")]
    source, at = ctx.source(slip.place.file), slip.place
    start, end = source.offset(at.start_line, at.start_character), source.offset(at.end_line, at.end_character)
    return ctx.flag(violation, at.file, start, end, related=related, confidence=confidence, section=slip.section, evidence=evidence)


class _Earlier(NamedTuple):
    """A statement as another is compared with it: where it is (its section's place, its own among the
    section's statements) and whether a table holds its value."""

    at: tuple[int, int]
    statement: QuantityStatement
    in_table: bool


class _Pair(NamedTuple):
    """Two statements of one quantity: `slip` is reported, `told` named; `unseen` when they are taken for one
    only because the body's prose never writes the abstract's value; `other` is the earlier of the two."""

    slip: QuantityStatement
    told: QuantityStatement
    confidence: float
    unseen: bool
    other: _Earlier


class _Paper:
    """What each section's statements are compared with: every section's statements by how their value is
    written, the spellings its tables hold, the numbers its body's prose writes, and the results two tables
    repeat. Built when what a section feeds (`_fed`) changes; each section's findings are then its own, so an
    edit that changes no statement re-reads the edited section alone."""

    def __init__(self, ctx: RuleContext, feeding: list[tuple[int, Section, list[_Statements]]]) -> None:
        parts = [(place, section, part) for place, section, (part,) in feeding]
        self.table_spellings = _union(tuple(part.table_spellings for _, _, part in parts if part.table_spellings))
        self.body = frozenset().union(*(part.written for _, section, part in parts if section.kind is not SectionKind.ABSTRACT))
        self.varies = Values(statement for _, _, part in parts for statement in part.statements)
        # Statements by how their value is written: a number is compared only with the few one digit away.
        self.seen: dict[tuple[str, int, bool, str], list[_Earlier]] = {}
        # Where each abstract statement is first contradicted: the body's restatements of one slip make one finding.
        self.first: dict[tuple[int, int], tuple[int, int]] = {}
        for place, _, part in parts:
            before: list[_Earlier] = []
            for index, statement in enumerate(part.statements):
                entry = self.entry(statement, (place, index))
                candidates = list(self.candidates(statement, place, before))
                pair = self.pair(ctx, entry, candidates) if any(other.statement.abstract for other in candidates) else None
                if pair is not None and pair.other.statement.abstract:
                    self.first.setdefault(pair.other.at, entry.at)
                self.seen.setdefault((*statement.kind, statement.written), []).append(entry)
                before.append(entry)
        cells = [(place, cell) for place, _, part in parts for cell in part.cells]
        where = {id(cell): place for place, cell in cells}
        self.repeats: dict[int, list[Repeat]] = {}
        for repeat in repeats([cell for _, cell in cells]):
            self.repeats.setdefault(where[id(repeat.slip)], []).append(repeat)

    def entry(self, statement: QuantityStatement, at: tuple[int, int]) -> _Earlier:
        # A count ("45 outflows") is no quote of an integer cell, which is as often an identifier or a size.
        return _Earlier(at, statement, not statement.counted and held(statement, self.table_spellings))

    def candidates(self, statement: QuantityStatement, place: int, before: list[_Earlier]) -> Iterator[_Earlier]:
        """The statements before this one, in the sections before its own and then `before` in its own, one
        digit away, in reading order by each spelling one digit away."""
        for variant in statement.variants:
            yield from (other for other in self.seen.get((*statement.kind, variant), ()) if other.at[0] < place)
            yield from (other for other in before if other.statement.written == variant and other.statement.kind == statement.kind)

    def pair(self, ctx: RuleContext, entry: _Earlier, candidates: Iterable[_Earlier]) -> _Pair | None:
        """The first of `candidates` that states the statement's quantity with another value; an abstract
        statement an earlier one already contradicts is passed over."""
        for other in candidates:
            ctx.spend(1)  # pairs considered: one spelling written thousands of times makes them many
            first = self.first.get(other.at)
            if (other.at[0] == entry.at[0] and other.statement.block == entry.statement.block) or (first is not None and first < entry.at):
                continue
            found = self.judged(entry, other)
            if found is not None:
                return found
        return None

    def judged(self, entry: _Earlier, earlier: _Earlier) -> _Pair | None:
        statement, other, in_table = entry.statement, earlier.statement, entry.in_table
        abstract = statement if statement.abstract else other if other.abstract else None
        # An abstract's value the body's prose never writes summarises nothing there (see `unseen`).
        never_written = abstract is not None and unseen(abstract, self.body)
        # A number a table holds is NUM001's, but the abstract restates results without citing
        # their table: there only the copy that no table holds can be the slip, or an unseen one.
        both_held = in_table and earlier.in_table  # past this test, only for an unseen abstract value
        if (both_held and not never_written) if abstract else (in_table or earlier.in_table):
            return None
        # Unseen and in no table, it needs no names in common with the body's sentence.
        alone = abstract is not None and never_written and not held(abstract, self.table_spellings) and not same_setting(statement, other)
        confidence = same_quantity(statement, other, alone) if comparable(statement, other) and not self.varies(statement, other) else None
        if confidence is None:
            return None
        if abstract is not None and both_held:  # the unseen abstract value is the slip
            slip, told = abstract, other if statement is abstract else statement
        else:
            slip, told = (other, statement) if in_table else (statement, other)
        return _Pair(slip, told, confidence, alone or both_held, earlier)


def _each(ctx: RuleContext, paper: _Paper, place: int, section: Section, part: list[_Statements]) -> Iterator[Finding]:
    """A section's findings: each of its statements against the earlier ones, and the cells of its tables that
    repeat another table's result with another value."""
    (own,) = part
    before: list[_Earlier] = []
    for index, statement in enumerate(own.statements):
        entry = paper.entry(statement, (place, index))
        pair = paper.pair(ctx, entry, paper.candidates(statement, place, before))
        if pair is not None:
            yield _restated(ctx, pair)
        before.append(entry)
    for repeat in paper.repeats.get(place, ()):
        yield _repeated(ctx, repeat)


def _restated(ctx: RuleContext, pair: _Pair) -> Finding:
    slip, told = pair.slip, pair.told
    shared = tuple(sorted(slip.window & told.window))
    violation = TwoValues(
        slip=slip.text, slip_named=slip.named, told=told.text, told_named=told.named, told_where=told.where, shared=shared
    )
    return ctx.report_at(
        slip.at,
        violation.message,
        identity=violation.identity,
        related=[ctx.related(told.at.file, told.at.start, told.at.end, f"the other statement: {told.text}")],
        confidence=pair.confidence,
        evidence=_restatement(ctx, slip, told, pair.unseen),
    )


def _fed(part: list[_Statements]) -> object | None:
    """All that a section's part gives the other sections' comparisons, as plain values (sets in order)."""
    (own,) = part
    if not (own.statements or own.table_spellings or own.written or own.cells):
        return None
    return (
        tuple((statement.at.file, *(_plain(getattr(statement, name)) for name in _STATEMENT_FED)) for statement in own.statements),
        _plain(own.table_spellings),
        _plain(own.written),
        tuple(tuple(_plain(getattr(cell, name)) for name in _CELL_FED) for cell in own.cells),
    )


# Where a statement is, by its file and lines and characters (`lines`), not by its offset (`at`): typing on a line above
# moves no statement.
_STATEMENT_FED = tuple(field.name for field in fields(QuantityStatement) if field.name != "at")
_CELL_FED = tuple(field.name for field in fields(KeyedCell))  # its place is lines and characters


def _plain(value: object) -> object:
    return tuple(sorted(value)) if isinstance(value, frozenset) else value


def _named(statement: QuantityStatement) -> str:
    return f'"{statement.named}"'


def _restatement(ctx: RuleContext, slip: QuantityStatement, told: QuantityStatement, unseen: bool) -> Evidence:
    """Both statements, what each measures, and why they are taken for one quantity (`unseen`: only because the
    body's prose never writes the abstract's value)."""
    kind = "abstract restates, same subject" if slip.abstract or told.abstract else "same subject"
    if scaled_counts(slip, told):
        kind = "same count in millions or billions"
    if unseen:
        kind += "; the body's prose never writes the abstract's value"
    sides = (
        Statement(
            file=item.at.file,
            range=ctx.range(item.at.file, item.at.start, item.at.end),
            quote=item.sentence,
            subject=" ".join(sorted(item.subject)),
            role=item.role.value,
        )
        for item in (slip, told)
    )
    return Evidence(
        kind=kind,
        statements=list(sides),
        reason=f"both state a {slip.role.value} of {_named(slip)}, one digit apart, in {slip.where} and {told.where}",
    )


@lru_cache(maxsize=2)
def _union(spellings: tuple[frozenset[str], ...]) -> frozenset[str]:
    """Rebuilt only when a section with a table changed: unchanged parts are the same sets, compared by identity."""
    return frozenset().union(*spellings)


@rule(
    "NUM002",
    "same-quantity-two-values",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks", "structure", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(_fed, _Paper, _each, feeds_all=True),
)
def same_quantity_two_values(ctx: RuleContext, section: Section) -> list[_Statements]:
    """## What it does
    Flags two statements of the same quantity, in different paragraphs, whose values differ
    by one digit: "improves top-1 accuracy on ImageNet by 12.3%" in the abstract, "improves
    top-1 accuracy on ImageNet by 12.8%" in the results. Sameness comes from what each number
    is (its role and the subject its clause measures, from the quantity model of
    `latex/numbers.py`), not from the words the sentences share; settings, statistics, ends of
    ranges and members of lists are never compared. Two tables that repeat the same method's
    cells under the same row and column names report the one cell that differs, and a count in
    millions ("3.2 million household-year observations") restated anywhere is compared with its
    other statements. How each case is decided is told below.

    ## Why is this bad?
    The reader cannot tell which value is true, and a headline number that drifts between
    abstract and results is how inflated claims slip through review. PaperAudit files this
    as context misalignment: two parts of the paper disagree.

    ## Example
    ```latex
    \\begin{abstract} ... improves accuracy on ImageNet by 12.3\\% ... \\end{abstract}
    ... our method improves accuracy on ImageNet by 12.8\\% ...
    ```

    ## Use instead
    State the same value (or say why they differ: another split, another seed).

    ## Confidence
    0.6, +0.15 when one statement is the abstract's, +0.1 when most words around the numbers
    agree (three or more), +0.1 when the sentences share a name (dataset, model), +0.1 when
    the same word follows both numbers; +0.1 for four or more significant figures, −0.1 for
    two or fewer (round values like 40% or 85% coincide by chance). Lowered by 0.25 when either
    number is an approximation ("about 10%"), by 0.2 when one states a change and the other a
    level, and by 0.15 when a name next to one number is absent from the other sentence (another
    workload, another dataset). Below 0.7 the finding is information. The evidence class is
    "abstract restates, same subject" or "same subject"; its measured precision decides whether
    a confident finding may warn (see Measured precision below).
    """
    numbers = list(section_numbers(section))
    statements = tuple(statement for number in numbers if (statement := statement_of(ctx, section, number)) is not None)
    table_spellings = frozenset(spelling for _, cell, value in section_cells(section) for spelling in held_spellings(value, cell.decimals))
    written = frozenset(spelled(number.mention.value, number.mention.decimals) for number in numbers)
    return [_Statements(table_spellings, statements, written, keyed_cells(ctx, section))]
