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

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from rapidfuzz import fuzz

from ....latex.index import NumberInContext
from ....latex.manuscript import Section
from ....latex.model import SectionKind
from ....latex.numbers import Role
from ...context import RuleContext, Spot
from ...finding import Category, Evidence, Finding, Related, Severity, Statement
from ...memo import TEXT_CACHE_SIZE
from ...quantities import agreeing_spellings, digit_variants, exact_spellings, rounded_spellings, spelled
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import (
    FOLLOWING,
    SCALES,
    MentionKey,
    clamped,
    direction,
    figures_evidence,
    headline,
    is_counted,
    mentions,
    section_cells,
    section_numbers,
    significant_figures,
    stem,
    window,
)
from .repeated_cells import KeyedCell, keyed_cells, repeats


@dataclass(frozen=True, slots=True)
class _Statement:
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
    statements: tuple[_Statement, ...]
    written: frozenset[str]
    cells: tuple[KeyedCell, ...]  # its tables' numeric cells, by the names of their row and column


def _disagreements(ctx: RuleContext, parts: list[tuple[Section, list[_Statements]]]) -> Iterator[Finding]:
    yield from _restated_in_prose(ctx, parts)
    yield from _repeated_in_tables(ctx, [cell for _, (part,) in parts for cell in part.cells])


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


def _repeated_in_tables(ctx: RuleContext, cells: list[KeyedCell]) -> Iterator[Finding]:
    """A result two tables repeat with two values where they repeat others alike: the later cell is reported."""
    for repeat in repeats(cells):
        slip, told = repeat.slip, repeat.told
        violation = RepeatedCell(slip=slip.text, told=told.text, where=ctx.index.printed(told.describe), table=told.table)
        if repeat.row_only:
            kind = "tables: same row, its other results alike; the spreads differ"
        else:
            kind = "tables: same row and column" + ("; the spreads differ" if repeat.spread_only else "")
        sides = [
            Statement(
                file=cell.file,
                range=cell.range,
                quote=cell.text,
                subject=cell.describe,
                role=Role.VALUE.value,
            )
            for cell in (slip, told)
        ]
        evidence = Evidence(kind=kind, statements=sides, reason=f"the two tables repeat {repeat.agreeing} other results alike")
        confidence = clamped(0.6 + figures_evidence(spelled(slip.value, slip.decimals)))
        related = [Related(file=told.file, range=told.range, message=f"the other table's value {told.text}")]
        source, at = ctx.source(slip.file), slip.range
        start, end = source.offset(at.start.line, at.start.character), source.offset(at.end.line, at.end.character)
        yield ctx.flag(violation, slip.file, start, end, related=related, confidence=confidence, section=slip.section, evidence=evidence)


def _restated_in_prose(ctx: RuleContext, parts: list[tuple[Section, list[_Statements]]]) -> Iterator[Finding]:
    table_spellings = _union(tuple(part.table_spellings for _, (part,) in parts if part.table_spellings))
    body = frozenset().union(*(part.written for section, (part,) in parts if section.kind is not SectionKind.ABSTRACT))
    # Statements seen so far, by how their value is written: a number is compared only
    # with the few statements one digit away, never with every earlier number.
    seen: dict[tuple[str, int, bool, str], list[tuple[int, _Statement, bool]]] = {}
    # The abstract's statements already contradicted: the body's several restatements of one slip make one finding.
    contradicted: set[int] = set()
    varies = _Values(statement for _, (part,) in parts for statement in part.statements)
    for place, (_, (part,)) in enumerate(parts):
        for statement in part.statements:
            # A count ("45 outflows") is no quote of an integer cell, which is as often an identifier or a size.
            in_table = not statement.counted and _held(statement, table_spellings)
            candidates = (entry for variant in statement.variants for entry in seen.get((*statement.kind, variant), ()))
            for other_place, other, other_in_table in candidates:
                ctx.spend(1)  # pairs considered: one spelling written thousands of times makes them many
                if (other_place == place and other.block == statement.block) or id(other) in contradicted:
                    continue
                abstract = statement if statement.abstract else other if other.abstract else None
                # An abstract's value the body's prose never writes summarises nothing there (see `_unseen`).
                unseen = abstract is not None and _unseen(abstract, body)
                # A number a table holds is NUM001's, but the abstract restates results without citing
                # their table: there only the copy that no table holds can be the slip, or an unseen one.
                both_held = in_table and other_in_table  # past this test, only for an unseen abstract value
                if (both_held and not unseen) if abstract else (in_table or other_in_table):
                    continue
                # Unseen and in no table, it needs no names in common with the body's sentence.
                alone = abstract is not None and unseen and not _held(abstract, table_spellings) and not _same_setting(statement, other)
                comparable = _comparable(statement, other) and not varies(statement, other)
                confidence = _same_quantity(statement, other, alone) if comparable else None
                if confidence is None:
                    continue
                if abstract is not None and both_held:  # the unseen abstract value is the slip
                    slip, told = abstract, other if statement is abstract else statement
                else:
                    slip, told = (other, statement) if in_table else (statement, other)
                shared = sorted(statement.window & other.window)
                violation = TwoValues(
                    slip=slip.text,
                    slip_named=slip.named,
                    told=told.text,
                    told_named=told.named,
                    told_where=told.where,
                    shared=tuple(shared),
                )
                yield ctx.report_at(
                    slip.at,
                    violation.message,
                    identity=violation.identity,
                    related=[ctx.related(told.at.file, told.at.start, told.at.end, f"the other statement: {told.text}")],
                    confidence=confidence,
                    evidence=_restatement(ctx, slip, told, alone or both_held),
                )
                if other.abstract:
                    contradicted.add(id(other))
                break
            seen.setdefault((*statement.kind, statement.written), []).append((place, statement, in_table))


class _Values:
    """The values the paper states for each subject. A quantity stated with three or more values is one per
    setting (each experiment's payment, each model's coefficient, a template sentence per condition), not one
    quantity with a slip, which gives two."""

    def __init__(self, statements: Iterator[_Statement]) -> None:
        self._values: dict[tuple[Role, frozenset[str]], set[str]] = {}
        for statement in statements:
            self._values.setdefault((_kind_of(statement), statement.subject), set()).add(statement.written)

    def __call__(self, statement: _Statement, other: _Statement) -> bool:
        kind = _kind_of(statement)
        values = self._values.get((kind, statement.subject), set()) | self._values.get((kind, other.subject), set())
        return len(values) >= _SETTINGS_APART


_SETTINGS_APART = 3


def _unseen(abstract: _Statement, body: frozenset[str]) -> bool:
    """The body's prose never writes the abstract's value: a table cell that happens to hold it ("32%" among
    hundreds of cells) is then no evidence that the abstract quotes the table."""
    return not any(spelling in body for spelling in abstract.agreeing)


def _held(statement: _Statement, table_spellings: frozenset[str]) -> bool:
    return any(spelling in table_spellings for spelling in statement.agreeing)


def _named(statement: _Statement) -> str:
    return f'"{statement.named}"'


def _restatement(ctx: RuleContext, slip: _Statement, told: _Statement, unseen: bool) -> Evidence:
    """Both statements, what each measures, and why they are taken for one quantity (`unseen`: only because the
    body's prose never writes the abstract's value)."""
    kind = "abstract restates, same subject" if slip.abstract or told.abstract else "same subject"
    if _scaled_counts(slip, told):
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


def _scaled_counts(statement: _Statement, other: _Statement) -> bool:
    """Two counts in millions or billions of one thing ("3.2 million observations", "8.3 million observations"), each
    of two or more figures and stated, not approximated: "4 million" and "6 million" ratings of two datasets coincide."""
    if not (statement.counted and other.counted and statement.kind[0] in SCALES and statement.follows & other.follows):
        return False
    return all(significant_figures(item.written) >= 2 and item.role is not Role.APPROXIMATE for item in (statement, other))


def _comparable(statement: _Statement, other: _Statement) -> bool:
    """A bound ("> 70%") is restated as a bound, a count ("57 studies") with what it counts; the abstract's
    summary is where either is restated, elsewhere bounds and counts vary with what they describe. A count in
    millions or billions of the same thing ("3.2 million observations") is a sample's size, compared anywhere."""
    abstract = statement.abstract or other.abstract
    if (statement.role is Role.BOUND) != (other.role is Role.BOUND) or (statement.role is Role.BOUND and not abstract):
        return False
    if _scaled_counts(statement, other):
        return True  # "3.2 million observations" and "8.3 million observations": a sample is restated anywhere
    return not (statement.counted or other.counted) or (abstract and bool(statement.follows & other.follows))


def _same_quantity(statement: _Statement, other: _Statement, abstract_alone: bool = False) -> float | None:
    """The confidence that two statements state the same quantity (see NUM002's ## Confidence), or None when
    their words or settings say they do not. `abstract_alone`: one is the abstract's, with a value the body
    never writes; its names need not recur, as the abstract names its setting in its own words."""
    abstract = statement.abstract or other.abstract
    loose = abstract or _scaled_counts(statement, other)  # subjects worded freely: one shared word suffices
    if _kind_of(statement) is not _kind_of(other) or not _same_subject(statement.subject, other.subject, loose):
        return None
    # A sentence stating both values ("80% and 90% of the maximum") tells two quantities apart.
    if _states(statement.sentence, other) or _states(other.sentence, statement):
        return None
    shared = statement.window & other.window
    common = statement.names & other.names
    if not (_same_setting(statement, other) or abstract_alone):
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


# The roles NUM002 compares: what states a measured quantity. Test statistics, p-values, coefficients
# and intervals are the STAT rules'; settings, years and interval levels are not results. A sample size
# written before what it counts ("1659 participants") is compared as a count.
_STATED = frozenset({Role.VALUE, Role.APPROXIMATE, Role.CHANGE, Role.BOUND, Role.COUNT, Role.SAMPLE_SIZE})


def _same_setting(statement: _Statement, other: _Statement) -> bool:
    """The sentences' capitalised names (datasets, models) overlap, or one names none."""
    return bool(statement.names & other.names) or not (statement.names and other.names)


def _states(sentence: str, statement: _Statement) -> bool:
    return any(
        spelled(mention.value, mention.decimals) == statement.written and mention.unit == statement.kind[0]
        for mention in mentions(sentence)
    )


def _kind_of(statement: _Statement) -> Role:
    """An approximation ("about 12%") restates a result; a result stated as a rise or a fall ("22% lower",
    "a 22% reduction") is a relative change."""
    role = Role.VALUE if statement.role is Role.APPROXIMATE else statement.role
    if statement.counted and role in (Role.VALUE, Role.SAMPLE_SIZE):
        return Role.COUNT  # "$4694$ laws", "1659 participants": an integer before what it counts
    return Role.CHANGE if role is Role.VALUE and statement.direction else role


def _held_spellings(value: float, decimals: int) -> set[str]:
    """How a table cell holds a number stated in prose: its roundings, but a whole number only as written
    (a cell of 79.6 holds 79.6 and 80.0, not "80 studies")."""
    return {spelling for spelling in rounded_spellings(value, decimals) if "." in spelling} | exact_spellings(value, decimals)


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
    combine=_disagreements,
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
    statements = tuple(statement for number in numbers if (statement := _statement(ctx, section, number)) is not None)
    table_spellings = frozenset(spelling for _, cell, value in section_cells(section) for spelling in _held_spellings(value, cell.decimals))
    written = frozenset(spelled(number.mention.value, number.mention.decimals) for number in numbers)
    return [_Statements(table_spellings, statements, written, keyed_cells(ctx, section))]


def _statement(ctx: RuleContext, section: Section, number: NumberInContext) -> _Statement | None:
    """The number as NUM002 compares it, or None when it states no measured quantity: one of a list, an end
    of a range, a statistic or a setting, or a number with fewer than three content words around it."""
    said = _said(MentionKey(number))
    if said is None:
        return None
    (kind, written, variants, agreeing), (words, names, near_names, rise, role, subject, named, counted, follows), quote = said
    placed, mention = number.block, number.mention
    return _Statement(
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
        ctx.spot(placed, mention.plain_start, mention.plain_end),
    )


# Of a `_Statement`: what it measures and how it is written; the words around it; its quote.
_Measured = tuple[tuple[str, int, bool], str, tuple[str, ...], tuple[str, ...]]
_Context = tuple[frozenset[str], frozenset[str], frozenset[str], int, Role, frozenset[str], str, bool, frozenset[str]]


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _said(key: MentionKey) -> tuple[_Measured, _Context, tuple[str, str]] | None:
    """What a statement is wherever its block sits: what it measures and how it is written, the words around
    it, and its quote; kept by mention, so that an edit reads the edited paragraph's numbers alone."""
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
