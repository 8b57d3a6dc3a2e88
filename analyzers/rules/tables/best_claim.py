"""TAB003: a sentence claiming the best value that the table it cites contradicts.

## How it decides
The sentence must cite the table, or sit in a paragraph that does (a class of its own until
measured), or, a claim made of every line ("the best accuracy on all datasets") in a paragraph citing
nothing, speak of a table its section cites or places (another class of its own), and name the claimed row by its own words (or "our method" for a row marked "Ours").
The rows a claim is won against ("compared to the baseline methods", "outperforming the previous
best") are no subset it is scoped to. Where the sentence's words name several columns alike (a dataset's "r" and
"ρ", or its column at corpus and at sentence level under spanning headers it does not name), any
of them may be the one meant: the claim is contradicted only where each of them denies it.
"The best performance" or "the best results" that names no column and is not hedged ("overall",
"most", "all but one") is a claim of the whole table: read against each column whose better side
the table says, a class of its own until measured. The columns read are those the sentence names (a metric, a dataset). A claim
made of every column ("the best results on all datasets", "the lowest error in both settings",
"in every case") that names none is read against each column whose better side the header or the
caption says (not the claim's word: "highest" says nothing of a Params column); one column where
another row is better contradicts it, a class of its own until measured.

A claim of "the best" in a column it names whose better side the table does not say (no ↑/↓, no metric's name, no
note; "highest" and "lowest" say it by their own word) still fails where other rows sit on both sides of the claimed
one beyond rounding: whichever side is better, one of them beats it. A class of its own until measured.

A table that stacks one block of the same methods per dataset or setting (a title row or a rule between
blocks, each block holding the same other rows) names the claimed row once in each block: each block's
claimed row is read against its own block's rows, not against the other datasets' numbers, and a block
where another row is better contradicts "the best on both datasets", a class of its own until measured.
Rows of the author's in groups of their own ("Ours-small" above a rule, "Ours-large" below) are no
blocks: the table is read whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import Cell
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...prefilter import may_match
from ...quantities import block_refs, each_cited, name_words, sentence_refs, speaks_of_tables, without_refs
from ...registry import Pairwise, Scope, rule
from ...violation import Violation, violation_type
from .blocks import contests
from .citing import SECTIONED, section_cited
from .model import (
    CONTRAST,
    DIRECTION_WEIGHT,
    EITHER_SIDE,
    SET_APART,
    UNIVERSAL,
    WITHIN_SPREAD,
    Grid,
    LabelledTable,
    author_rule_macros,
    beaten,
    cited_tables,
    fed_tables,
    labelled_tables,
    spread_overlaps,
)
from .row_naming import OURS, names_row

_OURS_WEIGHT = 0.9  # "our method" read as the row marked "Ours", not named by its own words


@violation_type
class BestClaimContradicted(Violation):
    word: str  # "best", "highest", "lowest", ...
    table: str  # the cited label
    header: str  # the column's header, as written
    column: str  # the column's header, as printed
    claimed_row: str
    claimed: str  # the claimed row's cell as written
    better_row: str
    better: str

    @property
    def message(self) -> str:
        return (
            f"the text claims the {self.word} {self.column} for {self.claimed_row} ({self.claimed}),"
            f" but Table {self.table} has {self.better} for {self.better_row}"
        )

    @property
    def identity(self) -> str:
        return f"{self.table} {self.header} {self.claimed} {self.better}"


_SUPERLATIVE = DeferredPattern(r"\b(best|highest|lowest|state-of-the-art|sota)\b", re.IGNORECASE)
# A superlative scoped to a subset ("the best among the baselines", "second best"), a comparison that claims no
# win ("performs comparably to state-of-the-art methods", "on par with the best", "within 0.5 points of the best"), or a phrase that is no claim
# ("to the best of our knowledge").
_SCOPED = DeferredPattern(
    r"\b(second|third|runner|except|excluding|among\s+(?!all\b)|other\s+than|baselines?|prior|previous|"
    r"not|no|nor|fails?|close\s+to|comparabl[ey]|competitive(?:ly)?|on\s+par|par\s+with|similar(?:ly)?\s+to|"
    r"approach(?:es|ing)?\s+(?:the\s+)?(?:best|state)|within\s+(?:\S+\s+){1,3}?of\s+(?:the\s+)?(?:best|highest|lowest|state|sota)|"
    r"rival\w*|best\s+of\s+(?:our|my)\s+knowledge)\b",
    re.IGNORECASE,
)
# A claim made of every column: "on all datasets", "in both settings", "across every benchmark", "in each case";
# "on all but one" scopes it.
_EVERY_COLUMN = DeferredPattern(
    r"\b(?:on|in|across|for|over)\s+(?:all|both|every|each)(?!\s+(?:but|except|save)\b)(?:\s+(?:of\s+)?(?:the\s+)?(?:\w+\s+)?[\w-]+)?\b",
    re.IGNORECASE,
)
# The rows a claim is won against, not a subset it is scoped to: "compared to the baseline methods", "outperforming
# the previous best", "than all prior work".
_COMPETING = DeferredPattern(
    r"\b(?:compared\s+(?:to|with)|than|over|against|versus|vs\.?|outperform\w*|surpass\w*)\s+(?:all\s+)?(?:the\s+)?"
    r"(?:(?:other|previous|prior|existing)\s+)?(?:best|baselines?|methods|approaches|works?|state[- ]of[- ]the[- ]art)"
    r"(?:\s+(?:methods?|models?|approaches|results?))?\b",
    re.IGNORECASE,
)
# "The best performance" that names no column and is not hedged ("overall", "most"): a claim of the whole table.
_WHOLE_TABLE = DeferredPattern(r"the\s+best\s+(?:performance|results?)\b", re.IGNORECASE)
_GENERALLY = DeferredPattern(
    r"\b(?:overall|most|mostly|generally|average|majority|many|often|some|several|but|save|respectively)\b", re.IGNORECASE
)
_EVERY_COLUMN_WEIGHT = 0.6  # a column the sentence does not name, read because it claims every one
# "state-of-the-art methods" names the competitors, not a result.
_SOTA_COMPETITORS = DeferredPattern(
    r"\b(?:state[- ]of[- ]the[- ]art|sota)\s+(?:\w+\s+)?(?:methods?|models?|baselines?|approaches|"
    r"systems?|techniques?|works?|algorithms?|competitors?|alternatives?|solutions?|detectors?|"
    r"trackers?|architectures?|networks?|frameworks?)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _has_superlative(text: str) -> bool:
    """Cached by block text: the pre-filter is most of this rule's time on a book, and the words before it most of the pre-filter's."""
    return may_match(text, ("best", "highest", "lowest", "state-of-the-art", "sota")) and _SUPERLATIVE.search(text) is not None


@dataclass(frozen=True, slots=True, eq=False)
class _BestClaim:
    """A sentence claiming the best value and citing tables; `finding` is its anchor."""

    labels: tuple[str, ...]
    sentence: str
    word: str
    finding: Finding
    nearby: bool  # the tables are those its paragraph cites: the sentence cites none
    subject: str  # the words that name the claimed row: the sentence's, or before the superlative when `nearby`
    sectioned: bool  # a claim made of every line in a paragraph citing nothing: the tables are those its section cites


def _claims_against_tables(
    ctx: RuleContext,
    by_label: Mapping[str, tuple[LabelledTable, ...]],
    place: int,
    section: Section,
    part: list[LabelledTable | _BestClaim],
) -> Iterator[Finding]:
    """The section's claims against the tables they cite, wherever those sit (each tabular of a float): an edit
    re-reads the edited section's claims against the kept tables, and every section's only when a table changed
    (the engine's `Pairwise`)."""
    claims = [item for item in part if isinstance(item, _BestClaim)]
    if not claims:
        return
    rule_macros = author_rule_macros(ctx)
    for claim in claims:
        for label, cited in each_cited(claim.labels, by_label):
            found = _contradicted(cited, claim.sentence, claim.subject, claim.word, rule_macros)
            if found is None:
                continue
            claimed, better, header, grid, confidence, every, blockwise, either = found
            violation = BestClaimContradicted(
                claim.word,
                label,
                header,
                ctx.index.printed(header),
                _row_name(ctx, grid, claimed),
                claimed.text,
                _row_name(ctx, grid, better),
                better.text,
            )
            yield claim.finding.model_copy(
                update={
                    "message": violation.message,
                    "identity": violation.identity,
                    "related": [
                        cited.related(ctx, better, f"better value {better.text}"),
                        cited.related(ctx, claimed, f"claimed value {claimed.text}"),
                    ],
                    "confidence": confidence,
                    **_evidence(every, blockwise, either, claim.nearby, claim.sectioned),
                }
            )
            break


def _evidence(every: str, blockwise: bool, either: bool, nearby: bool, sectioned: bool) -> dict[str, Evidence]:
    """New readings are weak classes of their own until measured: a column read because the claim is made of
    every one (or of the whole table, naming none), a stacked table read block by block, a column whose better
    side is unsaid, and a table the paragraph cites, not the sentence."""
    readings = (
        ("a column of a best claim made of every column", every.endswith("every column")),
        ("a column of a best claim that names none", every.endswith("names no column")),
        ("read block by block", blockwise),
        ("rows on both sides, its better side unsaid", either),
        ("in a table its paragraph cites", nearby and not sectioned),
        (SECTIONED, sectioned),
    )
    kinds = [kind for kind, holds in readings if holds]
    reason = every or (
        "the claimed row in each block"
        if blockwise
        else "rows on both sides of the claimed one"
        if either
        else "the sentence cites no table; its paragraph does"
    )
    return {"evidence": Evidence(kind="weak: " + ", ".join(kinds), reason=reason)} if kinds else {}


def _whole_table(sentence: str) -> re.Match[str] | None:
    """ "The best performance", unhedged: a claim of every column of the table, though it names none."""
    return None if _GENERALLY.search(without_refs(sentence)) else _WHOLE_TABLE.search(sentence)


def _row_name(ctx: RuleContext, grid: Grid, cell: Cell) -> str:
    return ctx.index.printed(" ".join(grid.row_header(cell.row).split()))


@rule(
    "TAB003",
    "best-claim-contradicts-table",
    Category.CLAIM_DISTORTION,
    Severity.WARNING,
    reads=("blocks", "macros"),
    scope=Scope.SECTION,
    combine=Pairwise(fed_tables, cited_tables, _claims_against_tables),
    placed_parts=True,  # a table's cells are read from where its block starts now, a claim holds a finding's range
)
def best_claim_contradicts_table(ctx: RuleContext, section: Section) -> Iterator[LabelledTable | _BestClaim]:
    """## What it does
    Flags a sentence that claims a method achieves the best (highest, lowest,
    state-of-the-art) value on a metric while the table it cites shows another row better.
    The sentence must reference the table (`\\ref{tab:…}`), name the method as written in a
    row header (user macros such as `\\method` count as names; "our method" matches a row
    marked "Ours") and name the column (metric or dataset). The direction comes from ↑/↓ or
    the metric's name, else from the claim's own word ("highest", "lowest"). Claims scoped
    to a subset ("best among the baselines", "second best"), comparisons that claim no win
    ("performs comparably to state-of-the-art methods", "competitive with", "on par with",
    "close to the best"), "state-of-the-art methods" naming the competitors, and "to the best
    of our knowledge" are left alone; so are oracle, teacher and extra-data rows.

    ## Why is this bad?
    "X achieves the best accuracy" is the sentence reviewers quote. When the cited table
    shows a competitor ahead, the claim overstates the evidence: PaperAudit files it as
    claim distortion.

    ## Example
    ```latex
    Ours achieves the highest accuracy on CIFAR-10 (Table~\\ref{tab:main}).
    % tab:main: Baseline & 91.3 \\\\ Ours & 90.8 \\\\
    ```

    ## Use instead
    ```latex
    Ours is within 0.5 points of the best accuracy on CIFAR-10 (Table~\\ref{tab:main}).
    ```

    ## Confidence
    1.0 when the sentence names the row by its own words and ↑/↓ in the column header gives
    the direction; times 0.95 when the metric's name in the header gives it, 0.9 a caption or
    note that says which side is better ("lower is better"), 0.85 the metric's name in the
    caption, 0.7 only the claim's word ("highest"); times 0.9 when "our method" is read as
    the row marked "Ours"; times 0.85 when the gap is within the cells' ± spreads; times 0.6
    when a ✓/✗ column sets the better row apart (another setting); times 0.6 when the sentence
    names no column and the column is read because it claims every one ("on all datasets").
    A table that stacks one block of the same methods per dataset is read block by block: the
    claimed row against its own block's rows, a weak class of its own until measured. A claim made
    of every line in a paragraph citing nothing reads the tables its section cites, a weak class too.
    "The best" in a named column whose better side the table does not say is read as denied when
    other rows sit on both sides of the claimed one (0.6), a weak class of its own until measured.
    """
    yield from labelled_tables(ctx, section)
    in_section = section_cited(section)
    for placed in section.blocks:
        if speaks_of_tables(placed) and _has_superlative(placed.block.plain.text):
            yield from _best_claims(ctx, placed, in_section)


def _best_claims(ctx: RuleContext, placed: PlacedBlock, in_section: tuple[str, ...]) -> Iterator[_BestClaim]:
    """The paragraph's sentences that claim the best value, unscoped, and cite a table; in a paragraph citing nothing,
    a claim made of every line ("the best accuracy on all datasets") reads the tables its section cites."""
    plain = placed.block.plain.text
    for start, end in sentence_spans(plain):
        sentence = plain[start:end]
        claim = _superlative(sentence)
        if claim is None:
            continue
        own, cited = sentence_refs(sentence, placed.block), tuple(sorted(block_refs(placed.block)))
        sectioned = not cited and UNIVERSAL.search(without_refs(sentence)) is not None
        labels = own or cited or (in_section if sectioned else ())
        if labels:
            begin, finish, word = claim
            # A turn to a contrast after the claim begins another claim, of its own row and columns ("X is the best on
            # fluency, however Y is best on semantics").
            turn = CONTRAST.search(sentence, finish)
            sentence = sentence[: turn.start()] if turn else sentence
            anchor = ctx.report_block(placed, start + begin, start + finish, "")
            # Read against a table the sentence does not cite, or as a claim of the whole table, the claimed row is
            # the one the superlative's own clause names before it: words after it may name the table's other
            # variables ("the highest prevalence of X"), and another clause another subject ("(which gave the best …)").
            clause = re.split(r"[,;:()]", sentence[:begin])[-1]
            subject = sentence if own and not _whole_table(sentence) else clause
            yield _BestClaim(labels, sentence, word, anchor, not own, subject, sectioned)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _superlative(sentence: str) -> tuple[int, int, str] | None:
    """The sentence's first superlative that names no competitors, unless the sentence scopes it (where it stands and
    its word, lower-case): kept by its text, so typing in a paragraph reads the sentence typed in alone."""
    prose = without_refs(sentence)  # a label's words ("fig:eval:best", "tab:baselines") neither claim nor scope
    competitors = [match.span() for match in _SOTA_COMPETITORS.finditer(prose)]
    claim = next(
        (match for match in _SUPERLATIVE.finditer(prose) if not any(left <= match.start() < right for left, right in competitors)),
        None,
    )
    if claim is None or _SCOPED.search(_COMPETING.sub(" ", prose)):
        return None
    return claim.start(), claim.end(), claim.group(1).lower()


def _contradicted(
    cited: LabelledTable, sentence: str, subject: str, word: str, rule_macros: frozenset[str]
) -> tuple[Cell, Cell, str, Grid, float, str, bool, bool] | None:
    """(the claimed row's best cell, a better cell of another row, the column's header, the grid,
    the confidence, for a claim of every column the scope that made it read, whether the table
    was read block by block, and whether the column's better side is unsaid), or None."""
    grid = Grid.of(cited.table, rule_macros, cited.notes)
    words, subject_words = name_words(sentence), name_words(subject)
    ours = bool(OURS.search(subject))
    rows = [row for row in grid.body_rows() if not grid.is_reference(row)]
    named = {row for row in rows if names_row(grid.row_header(row), subject_words, False)}
    claimed_rows = named | {row for row in rows if names_row(grid.row_header(row), subject_words, ours)}
    if not claimed_rows or len(claimed_rows) == len(rows):
        return None
    naming = {column: by for column in grid.columns() if (by := _named_by(grid, words, column))}
    named_columns = list(naming)
    every = (_EVERY_COLUMN.search(without_refs(sentence)) or _whole_table(sentence)) if not named_columns else None
    for column in named_columns or (grid.columns() if every else ()):
        contest = _column_contest(grid, column, rows, claimed_rows, word, every is not None)
        # The sentence's words name its twins as well ("SEEDA-S": its r and its ρ, at corpus and at sentence level):
        # any of them may be the one meant, so each must deny the claim.
        twins = [other for other in named_columns if other != column and naming[other] == naming.get(column)]
        if contest is None or any(_column_contest(grid, other, rows, claimed_rows, word, False) is None for other in twins):
            continue
        (claimed, better), source, blockwise = contest
        confidence = (
            DIRECTION_WEIGHT[source]
            * (1.0 if named else _OURS_WEIGHT)
            * (WITHIN_SPREAD if spread_overlaps(claimed, better) else 1.0)
            * (SET_APART if grid.row_set(better.row)[1] != grid.row_set(claimed.row)[1] else 1.0)
            * (_EVERY_COLUMN_WEIGHT if every else 1.0)
        )
        scope = f'"{every.group(0)}" {"names no column" if _WHOLE_TABLE.match(every.group(0)) else "claims every column"}' if every else ""
        header = " ".join(grid.own_header(column).split()).replace("↑", "").replace("↓", "").strip()
        return claimed, better, header, grid, round(confidence, 3), scope, blockwise, source == EITHER_SIDE
    return None


def _named_by(grid: Grid, words: set[str], column: int) -> set[str]:
    """The sentence's words that name the column, in its own header or a spanning one."""
    return words & (name_words(grid.own_header(column)) | name_words(grid.column_header(column)))


def _column_contest(
    grid: Grid, column: int, rows: list[int], claimed_rows: set[int], word: str, every: bool
) -> tuple[tuple[Cell, Cell], str, bool] | None:
    """The claimed rows' cell and a better one of the column (with where its direction comes from, and whether
    the table was read block by block), when another row beats the claim there, or, where the column's better side
    is unsaid, rows on both sides of it do."""
    sense, source = grid.direction(column)
    if not sense and not every:
        # "Highest" or "lowest" says the better side; "the best" in a column the table says nothing of is denied by
        # rows on both sides of the claimed one (`beaten`), whichever side is better.
        sense = {"highest": 1, "lowest": -1}.get(word, 0)
        source = "claim" if sense else EITHER_SIDE
    cells = [cell for row in rows if (cell := grid.numeric(row, column))]
    if not source or not any(cell.row in claimed_rows for cell in cells):
        return None
    groups = contests(grid, rows, claimed_rows, cells)
    found = next((pair for group in groups if (pair := beaten(group, claimed_rows, sense))), None)
    return (found, source, len(groups) > 1) if found is not None else None
