"""TAB007: a sentence comparing two rows of a table it cites ("X outperforms Y") that every named cell contradicts.

## How it decides
The sentence must cite a table (`\\ref{tab:…}`), or its paragraph must, and hold one comparison: a
verb that claims a win ("outperforms", "beats", "surpasses", "is better than", "a better fit than", "improves over", "an
improvement over", "is superior to"), a loss ("underperforms", "is worse than", "is inferior to", "lags behind") or a raw
order ("higher / lower / greater / smaller than", "exceeds"). A sentence that cites nothing is read
against the tables its paragraph cites: the rows it names pick the table, and a table naming
neither row leaves it alone. A claim made of every line ("shows a consistent improvement over other
methods") in a paragraph that cites nothing is read the same way against the tables its section cites
or places, as a class of its own: authors present a table in one paragraph and draw its conclusion two
paragraphs later. The words of the clause
before the comparison must name exactly one row of the table (all of its distinctive words), and
the words after it, up to the next clause, exactly one other row ("all other methods", "previous
approaches", "the baselines": each other row of the subject's group, and one that denies the claim is enough;
in a table whose columns are the methods, each other column under the subject's spanning header;
"the baseline" the table's one row headed Baseline). The other side may be a list ("PiCO+ and DALI",
"both M0 and M1", "A, B, and C"): the claim is made of each item, so one item the table reverses is
enough; an item after the first is read only where all of its words are a row's own (less "the",
"model", "method"), since the words after an "and" may begin a clause of their own. Such a finding
is a class of its own until measured.
The subject is the last clause that names something: "the proposed model, LPT, outperforms" is LPT's. A
table that stacks one block of the same methods per dataset or setting (a title row or a rule between
blocks) names the subject once in each block: each block's subject row is compared with its own block's
other row, and the lines are every block's columns, a class of its own until measured; else, in a table that sets its
methods or groups side by side ("Control & Intervention"), one column each, and the claim is read
across its rows as it is otherwise across columns. The columns compared are those
whose header the rest of the sentence names (a metric, a dataset); when it names none, every
numeric column. A win or loss needs each column's direction (↑/↓, the metric's name, the
caption); a raw order does not. Where the table says none, the prose of the claim's section presenting
the table may: every paragraph citing it names metrics of one direction ("Each row shows the mean
accuracy"), a reading of its own class.

It flags only when every compared column contradicts the claim beyond the rounding of both cells:
a tie or one agreeing column leaves the sentence alone. A claim made of every column
("consistently outperforms", "is better than Y in all cases", "across all datasets") is denied by
one column that reverses it, and is flagged when one does: "consistently", "always", "a consistent
improvement over", or a quantifier over the lines ("in all / every / each / both <lines>"); "all but one" and
"all … except" scope it and are hedges. Sentences that hedge or scope the claim
("on most datasets", "except", "not", "respectively", "if", "expected") are left alone, and so
are reference rows (oracle, human, upper bound). "On average" scopes the claim to the table's
Average (Avg., Mean) line, which is then the one line compared; a table with none leaves it alone.
A sentence that turns to a contrast ("…, while …", "whereas", ", but", ";") is read clause by
clause, each clause a claim of its own. Each of these readings is a class of its own until measured.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.model import Cell
from ...context import RuleContext, Spot
from ...finding import Category, Evidence, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...prefilter import may_match
from ...quantities import each_cited, name_words, referenced_labels, slack, speaks_of_tables, without_refs
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from ..printed_tables import literal_refs, marked_by_number, named_by_number, paragraph_tables
from .blocks import row_blocks, stacked
from .citing import SECTIONED, presented_directions, section_cited
from .model import (
    CONTRAST,
    EVERY_OTHER,
    UNIVERSAL,
    Grid,
    LabelledTable,
    author_rule_macros,
    cited_tables,
    contrast_clauses,
    fed_tables,
    labelled_tables,
    read_direction,
    sentences_citing,
)
from .row_naming import OURS, names_row


@violation_type
class ComparisonContradicted(Violation):
    claim: str  # the comparison as written: "outperforms", "lower than"
    table: str  # the cited label
    subject: str  # the subject row, as printed
    other: str  # the compared row, as printed
    cells: str  # "Acc 81.2 vs 83.0; F1 …"
    compared: int = 0  # for a claim made of every column ("consistently"), how many it covers
    lines: str = "columns"  # what the claim runs across: "rows" when the sides are columns

    @property
    def message(self) -> str:
        where = f" in {self.cells.count(';') + 1} of its {self.compared} {self.lines}" if self.compared else ""
        return f'the text says {self.subject} "{self.claim}" {self.other}, but Table {self.table} shows the opposite{where}: {self.cells}'

    @property
    def identity(self) -> str:
        return f"{self.table} {self.subject} {self.other} {self.claim}"


# The comparison and what it claims: +1 a win, -1 a loss (both read against the column's direction),
# "raw+" / "raw-" the subject's value above or below the other's.
_COMPARISON = DeferredPattern(
    r"\b(?:(?P<win>outperform(?:s|ed)?|beats|beat|surpass(?:es|ed)?|better(?:\s+[\w'-]+){0,4}?\s+than"
    r"|improve[sd]?\s+(?:over|upon)|improvements?\s+(?:over|upon)|(?:is|are|was|were)\s+superior\s+to)"
    r"|(?P<loss>underperform(?:s|ed)?|worse(?:\s+[\w'-]+){0,4}?\s+than|(?:is|are|was|were)\s+inferior\s+to"
    r"|(?:lags?|lagged|falls?|fell)\s+behind)"
    r"|(?P<up>exceeds|exceeded|(?:higher|greater|larger)(?:\s+[\w-]+){0,3}?\s+than)"
    r"|(?P<down>(?:lower|smaller)(?:\s+[\w-]+){0,3}?\s+than))\b",
    re.IGNORECASE,
)
_HEDGED = DeferredPattern(
    r"\b(?:most|majority|many|several|some|average|overall|generally|typically|except|apart\s+from|excluding|other\s+than|not|no|never|"
    r"n't|fails?|respectively|if|whether|would|could|expect\w*|hypothes\w*|predict\w*|while|whereas|but|although|than\s+(?:the\s+)?others?|all)\b",
    re.IGNORECASE,
)
# Where the compared row's name ends: the next clause or a qualifier ("on CIFAR", "in Table 2").
# The other side as the table's one Baseline row: "the baseline", "the baseline model" (the plural is every other row).
_THE_BASELINE = DeferredPattern(r"^\s*the\s+baseline(?:\s+(?:model|method|system|approach))?\W*$", re.IGNORECASE)
_BASELINE_ROW = DeferredPattern(r"^\W*baseline\b", re.IGNORECASE)
# Another line of the author's own ("LPT-EI (Ours)"): a variant, not one of the methods "the baselines" names.
_OWN = DeferredPattern(r"\bours\b", re.IGNORECASE)
_OBJECT_END = DeferredPattern(r"[,;:()]|\b(?:on|in|for|across|by|with|at|under|and|when|as|using|over)\b", re.IGNORECASE)
# The other side as a list of rows ("PiCO+ and DALI", "both M0 and M1", "A, B, and C"): the claim is made of each.
_LIST_END = DeferredPattern(r"[;:()]|\b(?:on|in|for|across|by|with|at|under|when|as|using|over)\b", re.IGNORECASE)
_LIST_SEPARATOR = DeferredPattern(r"\s*,\s*(?:and|or)\s+|\s*,\s*|\s+(?:and|or)\s+", re.IGNORECASE)
_LIST_LEAD = DeferredPattern(r"^\s*(?:both|either)\s+", re.IGNORECASE)
# Words that may stand beside a listed row's own ("the LEAP model"); any other word makes the item a clause.
_ITEM_FILLER = frozenset({"the", "a", "an", "model", "models", "method", "methods", "approach", "baseline", "variant"})


_AVERAGE_LINE = DeferredPattern(r"\b(?:avg|average|mean)\b", re.IGNORECASE)
_CUE_WORDS = ("than", "outperform", "beat", "surpass", "exceed", "improve", "superior", "inferior", "behind")


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _may_compare(text: str) -> bool:
    """Cached by block text: most paragraphs hold no comparison, and an edit leaves the others alone."""
    return may_match(text, _CUE_WORDS) and _COMPARISON.search(text) is not None


@dataclass(frozen=True, slots=True, eq=False)
class _Comparison:
    labels: tuple[str, ...]
    sentence: str
    claim: str
    sense: str  # "win", "loss", "up" or "down"
    subject: str  # the clause before the comparison
    other: str  # the words after it, to the next clause
    listed: tuple[str, ...]  # the other side's further items, when it is a list ("A and B"): each is claimed against
    universal: bool  # "consistently", "in all cases": every column is claimed
    nearby: bool  # the table is cited by the sentence's paragraph, not by the sentence
    sectioned: bool  # the paragraph cites nothing: the table is one its section cites or places
    contrasted: bool  # the sentence contrasts two clauses ("…, while …"), and this is one of them
    averaged: bool  # "on average": the claim is of the table's Average line


@dataclass(frozen=True, slots=True)
class _Contradiction:
    names: tuple[str, str]  # the subject's and the other's row (or column) header
    lines: str  # "columns" compared between two rows, "block columns" block by block, "rows" between two columns
    cells: list[tuple[str, Cell, Cell]]  # (line name, subject's cell, other's cell), each against the claim
    named: bool  # the sentence names the columns
    compared: int  # for a universal claim, the columns it covers; 0 otherwise
    presented: bool  # the better side was read from the prose presenting the table: the table says none


class _Written(NamedTuple):
    """A comparison and where it is written."""

    claim: _Comparison
    spot: Spot
    presented: tuple[tuple[str, int], ...]  # the direction its section's prose gives each table it presents


def _against_tables(
    ctx: RuleContext, by_label: Mapping[str, tuple[LabelledTable, ...]], place: int, section: Section, part: list[LabelledTable | _Written]
) -> Iterator[Finding]:
    """The section's comparisons against the tables they cite, wherever those sit: an edit re-reads the edited
    section's claims against the kept tables, and every section's only when a table changed (the engine's `Pairwise`)."""
    written = [item for item in part if isinstance(item, _Written)]
    if not written:
        return
    rule_macros = author_rule_macros(ctx)
    for claim, spot, presented in written:
        cited = [(label, table, dict(presented).get(label, 0)) for label, table in each_cited(claim.labels, by_label)]
        found = next(
            ((label, table, result) for label, table, told in cited if (result := _contradicting(table, claim, rule_macros, told))), None
        )
        if found is not None:
            finding = _report(ctx, claim, spot, *found)
            yield marked_by_number(finding) if named_by_number(found[0], by_label) else finding


@rule(
    "TAB007",
    "comparison-claim-contradicts-table",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_tables, cited_tables, _against_tables),
)
def comparison_claim_contradicts_table(ctx: RuleContext, section: Section) -> Iterator[LabelledTable | _Written]:
    """## What it does
    Flags a sentence that compares two rows of the table it (or its paragraph) cites ("X
    outperforms Y on F1 (Table 2)", "X has a lower error than Y") when every cell of the comparison says the
    opposite: Y is better (or higher, or lower) than X in each column the sentence names,
    beyond the rounding of both cells. Both rows must be named by their own words, one on
    each side of the comparison; hedged claims ("on most datasets", "on average", "except")
    are left alone. A claim made of every column ("consistently outperforms", "in all
    cases") is flagged when one column reverses it.

    ## Why is this bad?
    A reader takes the sentence's word for which method wins; when the cited table shows the
    reverse, either the sentence or the table is wrong, and the paper's conclusion rests on it.

    ## Example
    ```latex
    MixUp outperforms CutMix on CIFAR-10 (Table~\\ref{tab:main}).
    % tab:main: CutMix & 95.1 \\\\ MixUp & 94.3 \\\\
    ```

    ## Use instead
    ```latex
    CutMix outperforms MixUp on CIFAR-10 (Table~\\ref{tab:main}).
    ```

    ## Evidence
    "moderate: every named column contradicts the comparison" when the sentence names the
    columns; "weak: every column contradicts, none named" when it names none; "weak: a column
    against a claim made of every column" when a "consistently" claim has an exception. Each
    class read against a table cited by the paragraph, not the sentence, block by block in a
    table that stacks one block of the same methods per dataset, or against one item of a listed
    other side ("beats both A and B"), is its own weak class; so is a claim made of every column in
    a paragraph citing nothing, read against the tables its section cites, and a column whose better
    side only the prose presenting the table says ("Each row shows the mean accuracy").

    ## Fix safety
    No fix: the sentence or the table may be the one that is wrong.
    """
    yield from labelled_tables(ctx, section)
    in_section, presented = section_cited(section), presented_directions(section)
    for placed in section.blocks:
        if speaks_of_tables(placed) and _may_compare(placed.block.plain.text):
            cited = tuple(sorted(paragraph_tables(placed.block)))
            for start, end, claim in _comparisons(placed.block.plain.text, cited or in_section, not cited):
                yield _Written(claim, ctx.spot(placed, start, end), presented)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _comparisons(plain: str, around: tuple[str, ...], sectioned: bool) -> tuple[tuple[int, int, _Comparison], ...]:
    """The paragraph's sentences holding one unhedged comparison and citing a table (or, `sectioned`, in a paragraph
    that cites nothing, one its section cites), with where each comparison stands in the plain text: read once per
    paragraph text, so an edit re-reads the edited paragraph alone."""
    return tuple(_read_comparisons(plain, around, sectioned))


def _read_comparisons(plain: str, around: tuple[str, ...], sectioned: bool) -> Iterator[tuple[int, int, _Comparison]]:
    for start, sentence, labels in sentences_citing(plain, around):
        for begin, end, claim in _sentence_comparisons(sentence, labels, sectioned):
            yield start + begin, start + end, claim


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _sentence_comparisons(sentence: str, labels: tuple[str, ...], sectioned: bool) -> tuple[tuple[int, int, _Comparison], ...]:
    """A sentence's comparisons, with where each stands in it: kept by its text, so typing in a paragraph reads the
    sentence typed in alone."""
    clauses, nearby = contrast_clauses(sentence), not (referenced_labels(sentence) or literal_refs(sentence))
    found = []
    for offset, clause in clauses:
        if (read := _read_clause(clause, labels, nearby, len(clauses) > 1, sectioned)) is not None:
            (begin, end), claim = read
            found.append((offset + begin, offset + end, claim))
    return tuple(found)


def _read_clause(
    sentence: str, labels: tuple[str, ...], nearby: bool, contrasted: bool, sectioned: bool
) -> tuple[tuple[int, int], _Comparison] | None:
    """The clause's one unhedged comparison, with where it stands in the clause."""
    found = list(_COMPARISON.finditer(CONTRAST.sub(lambda match: " " * len(match.group(0)), sentence)))
    if len(found) != 1:
        return None
    match = found[0]
    # The last clause naming something: "the proposed model, LPT, outperforms" is LPT's.
    subject = next((part for part in reversed(re.split(r"[,;:()]", sentence[: match.start()])) if re.search(r"\w", part)), "")
    other = _OBJECT_END.split(sentence[match.end() :], maxsplit=1)[0]
    listed = _listed(sentence[match.end() :])
    if listed:
        other = listed[0]
    # "all" of "all other methods" names the other side, and hedges nothing; the contrast's own word hedges nothing either.
    rest = CONTRAST.sub(" ", sentence.replace(other, " ") if EVERY_OTHER.match(other) else sentence)
    # "On average" scopes the claim to the table's Average line, where it has one; any other hedge leaves it alone.
    # A referenced label's words ("tab:all-sinkhorn-runtimes") are no hedge of the author's.
    hedges = {match.group(0).lower() for match in _HEDGED.finditer(UNIVERSAL.sub(" ", without_refs(rest)))}
    if hedges - {"average"}:
        return None
    sense = next(name for name, value in match.groupdict().items() if value)
    universal = UNIVERSAL.search(without_refs(sentence)) is not None
    if sectioned and not universal:
        return None  # away from the paragraph citing it, only a claim made of every line is read against a table
    claim = _Comparison(
        labels,
        sentence,
        " ".join(match.group(0).split()),
        sense,
        subject,
        other,
        listed[1:],
        universal,
        nearby,
        sectioned,
        contrasted,
        bool(hedges),
    )
    return (match.start(), match.end()), claim


def _listed(after: str) -> tuple[str, ...]:
    """The other side's items when it is a list of two or more ("both M0 and M1", "A, B, and C"); else none."""
    items = tuple(item for item in _LIST_SEPARATOR.split(_LIST_LEAD.sub("", _LIST_END.split(after, maxsplit=1)[0])) if item.strip())
    return items if len(items) > 1 else ()


# Kept by the table and claim objects (the claim kept by its sentence, the table while the sections feed the same):
# an edit judges the edited section's claims again, and only those whose sentence or table changed read a grid.
@lru_cache(maxsize=256)
def _contradicting(cited: LabelledTable, claim: _Comparison, rule_macros: frozenset[str], told: int) -> _Contradiction | None:
    """The first pair of sides whose every compared line contradicts the claim (for a universal claim, a line that does);
    `told` is the better side the prose presenting the table gives (`presented_directions`), 0 when it gives none."""
    grid = Grid.of(cited.table, rule_macros, cited.notes)
    return next(
        (
            found
            for other in (claim.other, *claim.listed)
            for sides in _sides(grid, claim, other)
            if (found := _judged(sides, claim, grid, told))
        ),
        None,
    )


def _judged(sides: _Sides, claim: _Comparison, grid: Grid, told: int) -> _Contradiction | None:
    names, across, lines = sides
    rest = name_words(claim.sentence) - name_words(names[0]) - name_words(names[1])
    named = [line for line in lines if rest & name_words(line[0])]
    if claim.averaged and not (named := [line for line in lines if _AVERAGE_LINE.search(line[0])]):
        return None
    contradicting, presented = [], False
    for header, first, second in named or lines:
        sense = {"up": 1, "down": -1}.get(claim.sense, 0)
        if not sense:  # a win or a loss: read against the line's better side
            better = read_direction(header, grid.table.caption, grid.stated)[0]
            if not better and told:
                better, presented = told, True
            sense = better * (1 if claim.sense == "win" else -1)
        if not sense:
            return None  # a line whose better side neither the table nor the prose presenting it says
        if sense * (second.value - first.value) > slack(min(first.decimals, second.decimals)):  # type: ignore[operator]
            contradicting.append((" ".join(header.split()), first, second))
        elif not claim.universal:
            return None
    total = len(named or lines)
    if not contradicting or (len(contradicting) == total and not named and total < 2):
        return None
    return _Contradiction(names, across, contradicting, bool(named), 0 if len(contradicting) == total else total, presented)


# Two sides (the subject's and the other's header), what the lines are, and each line's pair of cells.
_Sides = tuple[tuple[str, str], str, list[tuple[str, Cell, Cell]]]


def _sides(grid: Grid, claim: _Comparison, other: str) -> list[_Sides]:
    """The two rows the sentence names, with each column's pair of cells (or the subject's row against
    each other row of its group, for "all other methods"), in each block of a table that repeats its
    rows block by block; else the two columns it names (methods or groups side by side, or the subject's
    column against each other one under its spanning header), with each row's pair. A further item of a
    listed other side is read only where its words are a row's (or column's) own: else it is a clause."""
    words = [(name_words(side), bool(OURS.search(side))) for side in (claim.subject, other)]
    rows = [row for row in grid.body_rows() if not grid.is_reference(row)]
    every_other = EVERY_OTHER.match(other) is not None
    mine, theirs = ([row for row in rows if names_row(grid.row_header(row), *side)] for side in words)
    if other != claim.other:
        theirs = [row for row in theirs if _item_names(words[1][0], grid.row_header(row))]
    if not theirs and _THE_BASELINE.match(other):
        theirs = [row for row in rows if _BASELINE_ROW.match(grid.row_header(row))]
    if mine and not set(mine) & set(theirs) and (found := _row_sides(grid, rows, mine, theirs, every_other)):
        return found
    columns = [column for column in grid.columns() if not grid.is_reference_column(column)]
    mine, theirs = ([column for column in columns if names_row(grid.own_header(column), *side)] for side in words)
    if other != claim.other:
        theirs = [column for column in theirs if _item_names(words[1][0], grid.own_header(column))]
    if len(mine) == 1 and every_other:  # each other column under the subject's spanning header, or of the table
        group = next((group for group in grid.groups() if mine[0] in group), columns)
        theirs = [column for column in columns if column in group and column != mine[0] and not _OWN.search(grid.own_header(column))]
    if len(mine) != 1 or not theirs or mine[0] in theirs or (len(theirs) > 1 and not every_other):
        return []
    return [
        (
            (grid.own_header(mine[0]), grid.own_header(other)),
            "rows",
            [(grid.row_header(row), *pair) for row in rows if (pair := _pair(grid, (row, mine[0]), (row, other)))],
        )
        for other in theirs
    ]


def _item_names(words: set[str], header: str) -> bool:
    """A listed item's words are the header's own, less the words that may stand beside a name ("the LEAP model")."""
    return words - _ITEM_FILLER <= name_words(header)


def _row_sides(grid: Grid, rows: list[int], mine: list[int], theirs: list[int], every_other: bool) -> list[_Sides]:
    """The subject's row against the other's (or each other row of its block), block by block: a table that
    stacks one block of the same methods per dataset or setting names the subject once in each block."""
    blocks = row_blocks(grid, rows)  # rows with a number; a title row holds none
    mine = [row for row in mine if row in blocks]
    if len(mine) != 1 and not stacked(grid, blocks, mine):
        return []  # the subject names two rows of one block, or variants in groups of their own
    pairs: dict[str, list[tuple[int, int]]] = {}
    for row in mine:
        block = [other for other in blocks if other != row and blocks[other] == blocks[row]]
        if every_other:
            others = [other for other in block if not _OWN.search(grid.row_header(other))]
        else:  # one subject row's other may sit in another group (the baselines above a rule, ours below)
            others = theirs if len(mine) == 1 else [other for other in theirs if other in block]
        if every_other or len(others) == 1:
            for other in others:
                pairs.setdefault(" ".join(grid.row_header(other).split()), []).append((row, other))
    titled = len(mine) > 1  # the lines of several blocks are told apart by the block's title
    return [
        (
            (grid.row_header(paired[0][0]), grid.row_header(paired[0][1])),
            "block columns" if titled else "columns",
            [
                (f"{blocks[row][1]} {grid.column_name(column)}" if titled else grid.column_name(column), *pair)
                for row, other in paired
                for column in grid.columns()
                if (pair := _pair(grid, (row, column), (other, column)))
            ],
        )
        for paired in pairs.values()
    ]


def _pair(grid: Grid, mine: tuple[int, int], theirs: tuple[int, int]) -> tuple[Cell, Cell] | None:
    first, second = grid.numeric(*mine), grid.numeric(*theirs)
    return (first, second) if first is not None and second is not None else None


def _report(ctx: RuleContext, claim: _Comparison, spot: Spot, label: str, cited: LabelledTable, found: _Contradiction) -> Finding:
    cells, printed = found.cells, ctx.index.printed
    violation = ComparisonContradicted(
        claim.claim,
        label,
        printed(" ".join(found.names[0].split())),
        printed(" ".join(found.names[1].split())),
        "; ".join(f"{printed(column)} {mine.text} vs {theirs.text}" for column, mine, theirs in cells),
        found.compared,
        found.lines,
    )
    if found.compared:
        kind = "weak: a column against a claim made of every column"
    elif found.named:
        kind = "moderate: every named column contradicts the comparison"
    else:
        kind = "weak: every column contradicts, none named"
    reason = (
        f"{len(cells)} of {found.compared} columns against the claim"
        if found.compared
        else f"{len(cells)} column(s) compared, each against the claim"
    )
    # New readings are their own weak classes until measured: the sides as columns (groups side by
    # side), and a table the paragraph cites (the sentence may speak of another experiment).
    qualifiers = [
        words
        for words, holds in (
            ("between two columns", found.lines == "rows"),
            ("block by block", found.lines == "block columns"),
            ("against each other row of its group", EVERY_OTHER.match(claim.other) is not None),
            ("against one of a list of rows", bool(claim.listed)),
            ("in one clause of a contrast", claim.contrasted),
            ("on the table's Average line", claim.averaged),
            ("in a table its paragraph cites", claim.nearby and not claim.sectioned),
            (SECTIONED, claim.sectioned),
            ("its better side read from the prose presenting the table", found.presented),
        )
        if holds
    ]
    if qualifiers:
        kind = ", ".join([f"weak: {kind.split(': ', 1)[1]}", *qualifiers])
    evidence = Evidence(kind=kind, reason=reason)
    return ctx.report_at(
        spot,
        violation.message,
        identity=violation.identity,
        related=[
            cited.related(ctx, cell, f"{role} value {cell.text}")
            for _, mine, theirs in cells[:1]
            for cell, role in ((mine, "claimed"), (theirs, "other"))
        ],
        evidence=evidence,
    )
