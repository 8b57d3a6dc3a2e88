"""TAB: tables that contradict themselves (aggregates, best-value marks) or the claims about them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ...latex.manuscript import PlacedBlock, Section
from ...latex.model import BlockKind, Cell, Table
from ...latex.sentences import sentence_spans
from ..context import TEXT_CACHE_SIZE, RuleContext
from ..finding import Category, Finding, Related, Severity
from ..quantities import name_words, referenced_labels, slack, spelled
from ..registry import Scope, rule

# The whole header names the aggregate ("Avg.", "Mean acc.", "Total"), not a method ("Mean-Teacher").
_AGGREGATE = re.compile(r"^\W*(avg|average|mean|overall|total|sum)\b(?!-)[\s.]*(acc\.?|accuracy|score|\(%\)|%)?[\W_]*$",
                        re.IGNORECASE)
_HIGHER = re.compile(
    r"↑|\\uparrow|\b(acc|accuracy|f1|auc|auroc|precision|recall|bleu|rouge\S*|map|miou|iou|psnr|ssim|success|sr|win|"
    r"top-?[15]|ndcg|hit|reward|return|score)\b", re.IGNORECASE)
_LOWER = re.compile(
    r"↓|\\downarrow|\b(error|errors|err|loss|perplexity|ppl|fid|kid|mse|rmse|mae|ece|lpips|chamfer|cd|latency|"
    r"wer|cer|distance|regret)\b", re.IGNORECASE)
# Rows that are references, not competitors: nobody bolds the oracle.
_REFERENCE_ROW = re.compile(r"\b(oracle|upper[- ]bound|human|ground[- ]truth|gt|fully[- ]supervised|supervised|random|chance|topline)\b",
                            re.IGNORECASE)


@dataclass(slots=True)
class _Grid:
    """A table's cells addressed by (row, column), header rows excluded from `body`."""

    table: Table
    cells: dict[tuple[int, int], Cell]

    @classmethod
    def of(cls, table: Table) -> "_Grid":
        return cls(table, {(cell.row, cell.column): cell for row in table.rows for cell in row})

    def body_rows(self) -> range:
        return range(self.table.header_rows, len(self.table.rows))

    def columns(self) -> range:
        return range(1, max((cell.column + cell.column_span for row in self.table.rows for cell in row), default=1))

    def own_header(self, column: int) -> str:
        """The lowest header cell over a column: "Avg" under a spanning "Accuracy (%)"."""
        for row in reversed(self.table.rows[: self.table.header_rows]):
            for cell in row:
                if cell.column <= column < cell.column + cell.column_span and cell.text.strip():
                    return cell.text
        return ""

    def groups(self) -> list[range]:
        """Column ranges under a spanning header cell ("CIFAR-10N" over its four columns)."""
        return [range(cell.column, cell.column + cell.column_span)
                for row in self.table.rows[: self.table.header_rows] for cell in row if cell.column_span > 1]

    def numeric(self, row: int, column: int) -> Cell | None:
        cell = self.cells.get((row, column))
        return cell if cell is not None and cell.value is not None and cell.column_span == 1 else None


@rule("TAB001", "table-aggregate-mismatch", Category.EVIDENCE_MANIPULATION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def table_aggregate_mismatch(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Recomputes the cells of an Avg / Average / Mean / Overall / Total / Sum row or column
    and flags one that equals neither the mean nor the sum of the cells it summarises.
    Rounding of every cell is allowed for, `±std` parts are ignored, bold and `%` are read
    through, and empty cells are skipped. Because an average often covers only some of the
    columns, every run of adjacent cells next to the aggregate is tried before flagging.

    ## Why is this bad?
    An altered average is the cheapest way to inflate a result: readers look at the last
    column, not at the arithmetic. PaperAudit plants exactly this ("Table 7 average altered
    without split changes"); it is evidence manipulation.

    ## Example
    ```latex
    Method & A & B & Avg \\\\ \\midrule
    Ours   & 80.0 & 90.0 & 87.0 \\\\
    ```

    ## Use instead
    ```latex
    Ours   & 80.0 & 90.0 & 85.0 \\\\
    ```

    ## Fix safety
    The fix writes the recomputed mean of all the cells beside the aggregate. It is unsafe:
    the average may be weighted or cover other columns, and a wrong average may mean a
    wrong cell.
    """
    for placed in _tables(section):
        grid = _Grid.of(placed.block.table)  # type: ignore[arg-type]
        rows, columns = grid.body_rows(), grid.columns()
        for column in columns:
            if _AGGREGATE.match(grid.own_header(column)):
                others = [c for c in columns if c != column and not _AGGREGATE.match(grid.own_header(c))]
                line = [(grid.numeric(row, column), [grid.numeric(row, c) for c in others]) for row in rows]
                yield from _check_line(ctx, placed, line, column_wise=False, groups=grid.groups())
        for row in rows:
            if _AGGREGATE.match(grid.table.row_header(row)):
                others = [r for r in rows if r != row and not _AGGREGATE.match(grid.table.row_header(r))]
                line = [(grid.numeric(row, column), [grid.numeric(r, column) for r in others]) for column in columns]
                yield from _check_line(ctx, placed, line, column_wise=True)


def _tables(section: Section) -> list[PlacedBlock]:
    """The section's parsed tables (what the memory lists as tables, section by section)."""
    return [placed for placed in section.blocks if placed.kind is BlockKind.TABLE and placed.block.table is not None]


def _check_line(ctx: RuleContext, placed: PlacedBlock, line: list[tuple[Cell | None, list[Cell | None]]],
                column_wise: bool, groups: list[range] = ()) -> Iterator[Finding]:
    """Check every aggregate cell of one Avg column (or row); trust the line only if most of it adds up."""
    verdicts = []
    for total, peers in line:
        present = [cell for cell in peers if cell is not None]
        if total is not None and len(present) >= 2:
            verdicts.append((total, present, _adds_up(total, present, column_wise, groups)))
    matches = sum(1 for *_, ok in verdicts if ok)
    wrong = [(total, peers) for total, peers, ok in verdicts if not ok]
    if not wrong or matches == 0 or len(wrong) > max(1, matches // 2):
        return  # an "Avg" that never adds up is weighted, or is not an aggregate at all
    for total, peers in wrong:
        yield _report_aggregate(ctx, placed, total, peers, column_wise)


def _runs(total: Cell, peers: list[Cell], column_wise: bool, groups: list[range]) -> list[list[Cell]]:
    """The cells an aggregate may cover: all, all on one side (dropping at most half, for a leading
    "Params" column), or one spanning header group; the preferred candidate first."""
    position = (lambda cell: cell.row) if column_wise else (lambda cell: cell.column)
    before = [cell for cell in peers if position(cell) < position(total)]
    after = [cell for cell in peers if position(cell) > position(total)]
    runs = [before[drop:] for drop in range(0, len(before) // 2)]
    runs += [after[: len(after) - drop] for drop in range(0, len(after) // 2)]
    runs += [[cell for cell in peers if position(cell) in group] for group in groups]
    return [run for run in runs + [peers] if len(run) >= 2]


def _adds_up(total: Cell, peers: list[Cell], column_wise: bool, groups: list[range]) -> bool:
    return any(_summarises(total, run) for run in _runs(total, peers, column_wise, groups))


def _report_aggregate(ctx: RuleContext, placed: PlacedBlock, total: Cell, peers: list[Cell], column_wise: bool) -> Finding:
    chosen = _runs(total, peers, column_wise, [])[0]
    mean = sum(cell.value for cell in chosen) / len(chosen)  # type: ignore[misc]
    table = placed.block.table
    where = f"row {table.row_header(total.row)}" if not column_wise else f"column {_Grid.of(table).own_header(total.column)}"
    name = f"Table {table.label}" if table.label else "a table"
    recomputed = spelled(mean, total.decimals)
    return ctx.report(
        placed.file, total.start, total.end,
        f"{name} ({where}) gives the aggregate {total.text}, but the mean of its {len(chosen)} cells is {recomputed}"
        f" and their sum is {spelled(sum(cell.value for cell in chosen), total.decimals)}",  # type: ignore[misc]
        identity=f"{table.label} {total.text} {recomputed}",
        related=[ctx.related(placed.file, chosen[0].start, chosen[-1].end, "the cells it summarises")],
        fixes=[ctx.fix(f"Write the recomputed mean {recomputed}", ctx.edit(placed.file, *_number_span(ctx, placed.file, total), recomputed))],
    )


def _summarises(total: Cell, run: list[Cell]) -> bool:
    values = [cell.value for cell in run]
    rounding = max(slack(cell.decimals) for cell in run)
    mean = sum(values) / len(values)  # type: ignore[arg-type]
    if abs(mean - total.value) <= slack(total.decimals) + rounding:  # type: ignore[operator]
        return True
    return abs(sum(values) - total.value) <= slack(total.decimals) + rounding * len(values)  # type: ignore[arg-type, operator]


def _number_span(ctx: RuleContext, file: str, cell: Cell) -> tuple[int, int]:
    """The source span of the cell's main number, for a fix that keeps its decoration."""
    match = re.search(re.escape(spelled(cell.value, cell.decimals)), ctx.source(file).text[cell.start:cell.end])  # type: ignore[arg-type]
    return (cell.start + match.start(), cell.start + match.end()) if match else (cell.start, cell.end)


def direction(header: str, caption: str | None) -> int:
    """+1 when higher is better, -1 when lower is better, 0 when the table does not say."""
    for text in (header, caption or ""):
        higher, lower = bool(_HIGHER.search(text)), bool(_LOWER.search(text))
        if higher != lower:
            return 1 if higher else -1
        if higher and lower:
            return 0
    return 0


@rule("TAB002", "bold-not-best", Category.CLAIM_DISTORTION, Severity.WARNING, reads=("blocks",), scope=Scope.SECTION)
def bold_not_best(ctx: RuleContext, section: Section) -> Iterator[Finding]:
    """## What it does
    Flags a bold (or `\\best`-style highlighted) cell that is not the best value of its
    column. The direction comes from ↑/↓ in the header, else from the metric's name in the
    header or caption: accuracy, F1, AUC, BLEU are higher-better; error, loss, perplexity,
    FID, distances are lower-better. Columns whose direction is unknown, columns with
    several different bold values (best per group), and oracle / random / human rows are
    left alone.

    ## Why is this bad?
    Bold is a claim: "this is the best result". A bold that sits on a worse number moves
    the reader's eye to the wrong winner; it is claim distortion.

    ## Example
    ```latex
    Method & Acc.~$\\uparrow$ \\\\ \\midrule
    Baseline & 81.2 \\\\
    Ours & \\textbf{79.5} \\\\
    ```

    ## Use instead
    ```latex
    Baseline & \\textbf{81.2} \\\\
    Ours & 79.5 \\\\
    ```
    """
    for placed in _tables(section):
        table = placed.block.table
        grid = _Grid.of(table)  # type: ignore[arg-type]
        for column in grid.columns():
            sense = direction(grid.table.column_header(column), table.caption)  # type: ignore[union-attr]
            if not sense:
                continue
            cells = [cell for row in grid.body_rows() if (cell := grid.numeric(row, column))
                     and not _REFERENCE_ROW.search(grid.table.row_header(row))]
            bold = [cell for cell in cells if cell.bold]
            if not bold or len(bold) * 2 > len(cells) or len({cell.value for cell in bold}) > 1:
                continue
            best = max(cells, key=lambda cell: sense * cell.value)  # type: ignore[operator]
            marked = bold[0]
            margin = slack(min(marked.decimals, best.decimals))
            if sense * (best.value - marked.value) <= margin:  # type: ignore[operator]
                continue
            header = " ".join(grid.own_header(column).split()) or f"column {column + 1}"
            yield ctx.report(
                placed.file, marked.start, marked.end,
                f"{marked.text} is marked best in column {header}, but row {table.row_header(best.row)} has "  # type: ignore[union-attr]
                f"{best.text} ({'higher' if sense > 0 else 'lower'} is better)",
                identity=f"{table.label} {header} {marked.text} {best.text}",  # type: ignore[union-attr]
                related=[ctx.related(placed.file, best.start, best.end, f"better value {best.text}")],
            )


_SUPERLATIVE = re.compile(r"\b(best|highest|lowest|state-of-the-art|sota)\b", re.IGNORECASE)
# A superlative scoped to a subset ("the best among the baselines", "second best") claims no overall win.
_SCOPED = re.compile(r"\b(second|third|runner|except|excluding|among\s+(?!all\b)|other\s+than|baselines?|prior|previous|"
                     r"not|no|nor|fails?|close\s+to|comparable|competitive)\b", re.IGNORECASE)
_OURS = re.compile(r"\b(ours|our\s+(?:method|model|approach|framework|system))\b", re.IGNORECASE)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _has_superlative(text: str) -> bool:
    """Cached by block text: the pre-filter is most of this rule's time on a book."""
    return _SUPERLATIVE.search(text) is not None


@dataclass(frozen=True, slots=True, eq=False)
class _LabelledTable:
    """A table a claim can cite. Its cells' offsets count from where the block started when it was
    read; `origin` (line, column) says where it starts now."""

    labels: tuple[str, ...]
    table: Table
    file: str
    origin: tuple[int, int]
    block_start: int

    def related(self, ctx: RuleContext, cell: Cell, message: str) -> Related:
        shift = ctx.source(self.file).offset(*self.origin) - self.block_start
        return ctx.related(self.file, cell.start + shift, cell.end + shift, message)


@dataclass(frozen=True, slots=True, eq=False)
class _BestClaim:
    """A sentence claiming the best value and citing tables; `finding` is its anchor."""

    labels: tuple[str, ...]
    sentence: str
    word: str
    finding: Finding


def _claims_against_tables(ctx: RuleContext, parts: list[tuple[Section, list[_LabelledTable | _BestClaim]]]) -> Iterator[Finding]:
    """Each claim against the table it cites, wherever that table sits (the last one under a label)."""
    by_label = {label: item for _, items in parts for item in items if isinstance(item, _LabelledTable) for label in item.labels}
    for _, items in parts:
        for claim in items:
            if not isinstance(claim, _BestClaim):
                continue
            for label in claim.labels:
                cited = by_label.get(label)
                found = _contradicted(cited.table, claim.sentence, claim.word) if cited is not None else None
                if found is None:
                    continue
                claimed, better, header = found
                table = cited.table
                yield claim.finding.model_copy(update={
                    "message": f"the text claims the {claim.word} {header} for {' '.join(table.row_header(claimed.row).split())}"
                               f" ({claimed.text}), but Table {label} has {better.text} for {' '.join(table.row_header(better.row).split())}",
                    "identity": f"{label} {header} {claimed.text} {better.text}",
                    "related": [cited.related(ctx, better, f"better value {better.text}"),
                                cited.related(ctx, claimed, f"claimed value {claimed.text}")],
                })
                break


@rule("TAB003", "best-claim-contradicts-table", Category.CLAIM_DISTORTION, Severity.WARNING, reads=("blocks",),
      scope=Scope.SECTION, combine=_claims_against_tables)
def best_claim_contradicts_table(ctx: RuleContext, section: Section) -> Iterator[_LabelledTable | _BestClaim]:
    """## What it does
    Flags a sentence that claims a method achieves the best (highest, lowest,
    state-of-the-art) value on a metric while the table it cites shows another row better.
    The sentence must reference the table (`\\ref{tab:…}`), name the method as written in a
    row header (user macros such as `\\method` count as names; "our method" matches a row
    marked "Ours") and name the column (metric or dataset). The direction comes from ↑/↓ or
    the metric's name, else from the claim's own word ("highest", "lowest"). Claims scoped
    to a subset ("best among the baselines", "second best") are left alone.

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
    """
    for placed in _tables(section):
        labels = tuple(label for label in [placed.block.table.label, *placed.block.labels] if label)  # type: ignore[union-attr]
        if labels:
            origin = ctx.source(placed.file).position(placed.block.start)
            yield _LabelledTable(labels, placed.block.table, placed.file, origin, placed.block.start)  # type: ignore[arg-type]
    for placed in section.blocks:
        if placed.kind.value != "paragraph":
            continue
        plain = placed.block.plain.text
        if not _has_superlative(plain):
            continue
        for start, end in sentence_spans(plain):
            sentence = plain[start:end]
            claim = _SUPERLATIVE.search(sentence)
            if claim is None or _SCOPED.search(sentence):
                continue
            labels = tuple(referenced_labels(sentence))
            if labels:
                anchor = ctx.report_block(placed, start + claim.start(), start + claim.end(), "")
                yield _BestClaim(labels, sentence, claim.group(1).lower(), anchor)


def _contradicted(table: Table, sentence: str, word: str) -> tuple[Cell, Cell, str] | None:
    """(the claimed row's best cell, a better cell of another row, the column's header), or None."""
    grid = _Grid.of(table)
    words = name_words(sentence)
    ours = bool(_OURS.search(sentence))
    rows = [row for row in grid.body_rows() if not _REFERENCE_ROW.search(table.row_header(row))]
    claimed_rows = {row for row in rows if _names_row(table.row_header(row), words, ours)}
    if not claimed_rows or len(claimed_rows) == len(rows):
        return None
    for column in grid.columns():
        header = " ".join(grid.own_header(column).split())
        if not words & (name_words(header) | name_words(table.column_header(column))):
            continue
        sense = direction(table.column_header(column), table.caption) or {"highest": 1, "lowest": -1}.get(word, 0)
        cells = [cell for row in rows if (cell := grid.numeric(row, column))]
        mine = [cell for cell in cells if cell.row in claimed_rows]
        if not sense or not mine:
            continue
        claimed = max(mine, key=lambda cell: sense * cell.value)  # type: ignore[operator]
        others = [cell for cell in cells if cell.row not in claimed_rows]
        better = max(others, key=lambda cell: sense * cell.value, default=None)  # type: ignore[operator]
        if better is not None and sense * (better.value - claimed.value) > slack(min(claimed.decimals, better.decimals)):  # type: ignore[operator]
            return claimed, better, header.replace("↑", "").replace("↓", "").strip()
    return None


def _names_row(header: str, words: set[str], ours: bool) -> bool:
    """The sentence names this row: all of its distinctive words, or "our method" for an "Ours" row."""
    names = name_words(header)
    return bool(names) and names <= words or (ours and bool(re.search(r"\bours\b", header, re.IGNORECASE)))
