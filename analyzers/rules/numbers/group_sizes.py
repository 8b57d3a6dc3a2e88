"""NUM008: the sizes a sentence gives named groups ("84 to control, 80 to forced commitment, and 93 to choice")
against the sizes a table gives the same groups (its "Obs" row: 85, 81, 94).

## How it decides
A table gives its groups' sizes in a size line: a row whose name is a size ("N", "Obs", "Observations",
"Num samples", "Sample size", "Participants", "Number of patients") with a whole number under each
group's column, or such a column with a whole number beside each group's row. A line with a cell that
is not a whole number ("Number of borrowers: 20.8") gives means, not sizes.

A sentence gives a group its size in three ways: a whole number followed, within three words, by the
group's name ("84 to control", "93 to choice"), an "n =" after the group's name ("the control group
(n = 84)"; a number after any other "=" sets a value), or a list closed by "respectively" whose values go
with the groups in the order the sentence names them, all before the values or all after ("HD+ and C CAU
samples (2 and 3, respectively)", "84 and 93 days to control and choice, respectively"). A
group's name is its row or column header; the sentence names it when it holds all of its words, so a
word two names share is written once ("HD+ and C CAU" names "HD+ CAU" and "C CAU").

A finding needs two or more groups of one size line given sizes by one sentence (one group alone may be
another count of it), and a size that differs from its cell by a slip: by one, or by at most a quarter
(a count far from the table's is another count, a subsample or a total). Each such size is reported on
the sentence's number, against its cell. Information (0.6); the evidence class is "moderate: groups'
sizes against a size line".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.model import BlockKind, Cell, Table
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...context import RuleContext, Spot
from ...finding import Category, Evidence, Finding, Range, Related, Severity, Statement
from ...memo import TEXT_CACHE_SIZE
from ...quantities import CellAt, body_cells
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import section_tables
from .restated import HAS_DIGIT

# The name of a line that counts each group's members.
_SIZE = DeferredPattern(
    r"^\s*(?:n|obs\.?|observations|(?:num(?:ber)?\.?|no\.?|#)\s*(?:of\s+)?(?:samples|observations|participants|subjects|patients|"
    r"respondents|studies|cases|units|individuals|households|firms|schools|students|children|animals|mice|cells|days)|sample\s+size|"
    r"samples|participants|subjects|patients|respondents)\s*$",
    re.IGNORECASE,
)
# A whole number as prose writes it, not part of a decimal, a name ("Study 2", "GPT-4") or a percentage.
_WHOLE = DeferredPattern(r"(?<![\w.,^_/+-])(\d{1,3}(?:,\d{3})+|\d{1,6})(?![\w%]|\.\d|,\d)")
# A size written after the group it counts: "control (n = 84)"; any other "=" sets a value, not a size.
_SIZE_BEFORE = DeferredPattern(r"\b[nN]\s*=\s*$")
_SET_BEFORE = DeferredPattern(r"=\s*$")
_TOKEN = DeferredPattern(r"[\w+]+")
_FUNCTION = frozenset("a an the of and or in on at to for by with".split())
_RESPECTIVELY = DeferredPattern(r"\brespectively\b", re.IGNORECASE)
_NEAR = 3  # words between a size and the group it is given to
_SLIP = 0.25  # a size this far from its cell, at most, restates it (one apart always does)


@record(slots=True)
class _Member:
    """A group's cell of a size line."""

    name: str
    words: tuple[str, ...]
    size: int
    text: str
    file: str
    range: Range
    describe: str


@record(slots=True)
class _SizeLine:
    members: tuple[_Member, ...]


@record(slots=True)
class _Sentence:
    """A prose sentence with two or more whole numbers: its words, and each number with where it is."""

    tokens: tuple[str, ...]
    # (value, its token's place, its span in the paragraph's plain text, whether it follows its group: "control (n = 84)")
    numbers: tuple[tuple[int, int, tuple[int, int], bool], ...]
    respectively: bool
    text: str


@record(slots=True)
class _Paragraph:
    """A paragraph's sentences with two or more whole numbers, the paragraph by its place among its section's blocks."""

    block: int
    sentences: tuple[_Sentence, ...]


@violation_type
class GroupSize(Violation):
    stated: int
    group: str
    size: int
    where: str

    @property
    def message(self) -> str:
        return f"{self.stated} for {self.group} here, but {self.where} gives the group {self.size}"

    @property
    def identity(self) -> str:
        return f"{self.group} {self.stated} {self.size}"


def _words(text: str) -> tuple[str, ...]:
    return tuple(word for word in _TOKEN.findall(text.lower()) if word not in _FUNCTION)


def _whole(value: float | None, decimals: int) -> bool:
    return value is not None and decimals == 0 and value >= 0 and float(value).is_integer()


def _size_lines(ctx: RuleContext, section: Section) -> Iterator[_SizeLine]:
    """The section's tables' size rows and columns, with a whole number for each of two or more named groups."""
    for placed, table in section_tables(section):
        for line in _lines(table):
            if len(line) >= 2 and all(_whole(cell.value, cell.decimals) for cell, _ in line):
                members = (
                    _Member(
                        name=" ".join(name.split()),
                        words=_words(name),
                        size=int(cell.value or 0),
                        text=" ".join(cell.text.split()),
                        file=placed.file,
                        range=ctx.range(placed.file, cell.start, cell.end),
                        describe=CellAt(placed, cell).describe(),
                    )
                    for cell, name in line
                )
                yield _SizeLine(tuple(members))


def _lines(table: Table) -> Iterator[list[tuple[Cell, str]]]:
    """Each size row's (cell, column name) and each size column's (cell, row name), named cells only."""
    cells = [cell for cell in body_cells(table) if cell.text.strip() and cell.column > 0]
    rows = {cell.row for cell in cells if _SIZE.match(table.row_header(cell.row))}
    columns = {cell.column for cell in cells if _SIZE.match(table.column_header(cell.column))}
    for row in rows:
        yield [(cell, table.column_header(cell.column)) for cell in cells if cell.row == row and _words(table.column_header(cell.column))]
    for column in columns:
        yield [(cell, table.row_header(cell.row)) for cell in cells if cell.column == column and _words(table.row_header(cell.row))]


def _paragraphs(section: Section) -> Iterator[_Paragraph]:
    """The section's paragraphs with a sentence of two or more whole numbers."""
    for block, placed in enumerate(section.blocks):
        if placed.kind is BlockKind.PARAGRAPH and HAS_DIGIT(text := placed.block.plain.text):  # else no whole number to read
            sentences = _sentences(text)
            if sentences:
                yield _Paragraph(block, sentences)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _sentences(text: str) -> tuple[_Sentence, ...]:
    """A paragraph's sentences with two or more whole numbers, kept by text so an edit reads its paragraph alone."""
    found = []
    for start, end in sentence_spans(text):
        read = _sentence(text[start:end])
        if read is not None:
            numbers = tuple((value, place, (start + begin, start + finish), after) for value, place, (begin, finish), after in read.numbers)
            found.append(_Sentence(read.tokens, numbers, read.respectively, read.text))
    return tuple(found)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _sentence(sentence: str) -> _Sentence | None:
    """A sentence with two or more whole numbers (their spans counted from its start), else None: kept by its text,
    so typing in a paragraph reads the sentence typed in alone."""
    found = [
        (match, bool(_SIZE_BEFORE.search(sentence, 0, match.start())))
        for match in _WHOLE.finditer(sentence)
        if not _SET_BEFORE.search(sentence, 0, match.start()) or _SIZE_BEFORE.search(sentence, 0, match.start())
    ]
    if len(found) < 2:
        return None
    tokens = [(match.start(), match.group().lower()) for match in _TOKEN.finditer(sentence)]
    place = {at: index for index, (at, _) in enumerate(tokens)}
    numbers = tuple(
        (int(match.group(1).replace(",", "")), place[match.start()], (match.start(), match.end()), after)
        for match, after in found
        if match.start() in place
    )
    return _Sentence(tuple(word for _, word in tokens), numbers, bool(_RESPECTIVELY.search(sentence)), " ".join(sentence.split()))


def _places(sentence: _Sentence, member: _Member) -> list[int]:
    """Where the sentence names the group (each place of its name's first word), or nowhere."""
    if not member.words or not all(word in sentence.tokens for word in member.words):
        return []
    return [place for place, word in enumerate(sentence.tokens) if word == member.words[0]]


def _given(sentence: _Sentence, line: _SizeLine) -> list[tuple[int, tuple[int, int], _Member]]:
    """The sizes the sentence gives the line's groups: in the order it names them, all before or all after the
    values, with "respectively"; or each to the group named right after it (before an "n =")."""
    named = sorted(((places[0], member) for member in line.members if (places := _places(sentence, member))), key=lambda pair: pair[0])
    first, last = (sentence.numbers[0][1], sentence.numbers[-1][1]) if sentence.numbers else (0, 0)
    apart = named and (named[-1][0] < first or named[0][0] > last)  # all names before the values, or all after
    if sentence.respectively:  # its values go with names in order, never with the name next to them
        if not (apart and len(named) == len(sentence.numbers)):
            return []
        return [(value, spot, member) for (value, _, spot, _), (_, member) in zip(sentence.numbers, named, strict=True)]
    given = []
    for value, at, spot, follows in sentence.numbers:
        # The group's name within a few words after the size ("84 to control"), or before an "n =" ("control (n = 84)").
        near = range(at - 2 - _NEAR, at - 1) if follows else range(at + 1, at + 2 + _NEAR)
        groups = [member for member in line.members if any(place in near for place in _places(sentence, member))]
        if len(groups) == 1:
            given.append((value, spot, groups[0]))
    return given


def _slip(stated: int, size: int) -> bool:
    return stated != size and (abs(stated - size) == 1 or abs(stated - size) <= _SLIP * max(stated, size))


def _against_tables(ctx: RuleContext, parts: list[tuple[Section, list[_SizeLine | _Paragraph]]]) -> Iterator[Finding]:
    lines = [item for _, found in parts for item in found if isinstance(item, _SizeLine)]
    for section, found in parts:
        for paragraph in (item for item in found if isinstance(item, _Paragraph)):
            for sentence, line in ((sentence, line) for sentence in paragraph.sentences for line in lines):
                ctx.spend(1)
                given = _given(sentence, line)
                if len({member.name for _, _, member in given}) < 2:
                    continue
                for stated, (start, end), member in given:
                    if _slip(stated, member.size):
                        yield _reported(ctx, sentence, stated, ctx.spot(section.blocks[paragraph.block], start, end), member)


def _reported(ctx: RuleContext, sentence: _Sentence, stated: int, spot: Spot, member: _Member) -> Finding:
    violation = GroupSize(stated, member.name, member.size, member.describe)
    sides = [
        Statement(
            file=spot.file, range=ctx.range(spot.file, spot.start, spot.end), quote=sentence.text, subject=member.name, role="sample size"
        ),
        Statement(file=member.file, range=member.range, quote=member.text, subject=member.describe, role="sample size"),
    ]
    evidence = Evidence(
        kind="moderate: groups' sizes against a size line",
        statements=sides,
        reason="the sentence gives two or more of the line's groups their sizes, and this one differs by a slip",
    )
    related = [Related(file=member.file, range=member.range, message=f"the table's size for {member.name}: {member.text}")]
    return ctx.report_at(spot, violation.message, identity=violation.identity, related=related, confidence=0.6, evidence=evidence)


@rule(
    "NUM008",
    "group-size-mismatch",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=_against_tables,
    placed_parts=True,  # cells' ranges, numbers by block index within the section and span in its plain text
)
def group_size_mismatch(ctx: RuleContext, section: Section) -> list[_SizeLine | _Paragraph]:
    """## What it does
    Compares the sizes a sentence gives named groups with the sizes a table gives the same
    groups: "The number of branch days allocated to each were 84 to control, 80 to forced
    commitment, and 93 to choice" against a table whose "Obs" row gives Control 85, Choice 94;
    "HD+ and C CAU samples (2 and 3, respectively)" against a "Num samples" column giving C CAU 2.
    Two or more groups of one table must be given sizes by the sentence; a size is reported when
    it differs from the table's by a slip (one apart, or within a quarter).

    ## Why is this bad?
    A group's size is what every rate and test of the paper divides by. Two sizes for one group
    mean the table and the text were written from two versions of the data (before and after an
    exclusion), and the reader cannot tell which the results use.

    ## Example
    ```latex
    The arms received 84 to control and 93 to choice branch-days.
    % Table: Obs & 85 & 94 \\
    ```

    ## Use instead
    The table's sizes in the text (or say which observations the two counts differ by).

    ## Fix safety
    No fix: which count is right is the author's to say.
    """
    return [*_size_lines(ctx, section), *_paragraphs(section)]
