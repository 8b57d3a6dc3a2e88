"""Slips in numbers, tables, counts and statistics that the error-injection benchmark plants: one
planter per kind, each yielding every site where the paper allows that slip."""

from __future__ import annotations

import re
from collections.abc import Iterator

from planting import Edit, append_to_paragraph, late_paragraphs, prose_blocks, replaced, uncommented

from auditex.analyzers.quantities import (
    CellAt,
    CellIndex,
    agreeing_spellings,
    agrees,
    body_cells,
    exact_spellings,
    referenced_labels,
    rounded_spellings,
    spelled,
    tie,
)
from auditex.analyzers.rules.numbers.model import headline, window
from auditex.analyzers.rules.tables.model import Grid, adds_up, direction
from auditex.latex.index import NumberInContext
from auditex.latex.manuscript import PlacedBlock
from auditex.latex.model import Cell, SectionKind
from auditex.latex.project import Project


class _Tables:
    """The paper's tables by label, and their numeric body cells by spelling (as the NUM rules match them)."""

    def __init__(self, tables: list[PlacedBlock]) -> None:
        self.by_label: dict[str, PlacedBlock] = {}
        self.cells: CellIndex[CellAt] = CellIndex()
        for placed in tables:
            table = placed.block.table
            if table is None:
                continue
            for label in [table.label, *placed.block.labels]:
                if label:
                    self.by_label[label] = placed
            for cell in body_cells(table):
                if cell.value is not None:
                    self.cells.add(
                        CellAt(placed, cell), rounded_spellings(cell.value, cell.decimals), exact_spellings(cell.value, cell.decimals)
                    )

    def agreeing(self, value: float, decimals: int) -> list[CellAt]:
        """Cells this prose number could be a rounding of."""
        return self.cells.agreeing(agreeing_spellings(value, decimals))


def _bump(digits: str) -> str:
    """Change the leading non-zero digit: 38.66 → 48.66, 0.95 → 0.75."""
    for i, char in enumerate(digits):
        if char.isdigit() and char != "0":
            new = str(int(char) + 1) if char not in "89" else str(int(char) - 2)
            if i == 0 and new == "0":
                new = "2"
            return digits[:i] + new + digits[i + 1 :]
    return digits


def _source_of(project: Project, placed: PlacedBlock, plain_start: int, plain_end: int) -> tuple[int, int, str]:
    start, end = placed.block.plain.source_span(plain_start, plain_end)
    return start, end, project.source(placed.file).text[start:end]


def _changed_number(project: Project, number: NumberInContext, what: str) -> Edit | None:
    """The prose number with its leading digit changed; `what` describes the site, "{old}" and "{new}" filled in."""
    mention = number.mention
    start, _, written = _source_of(project, number.block, mention.plain_start, mention.plain_end)
    digits = re.match(r"[\d.]+", written)
    if digits is None:
        return None
    new = _bump(digits.group(0))
    return replaced(
        project, number.block.file, start, start + digits.end(), new, what.replace("{old}", digits.group(0)).replace("{new}", new)
    )


def _context_words(number: NumberInContext) -> set[str]:
    """The content words near a prose number: two statements sharing `_SHARED` of them state the same quantity."""
    mention = number.mention
    words, _ = window(mention.sentence, mention.plain_start - mention.sentence_start, mention.plain_end - mention.sentence_start)
    return words


_SHARED = 2
# Before a number that is part of a name ("Table 3", "SciPy 1.0", "M^2", "24/7"), after one glued to a word ("3D").
_NAMED_BEFORE = re.compile(r"(?:[A-Z][\w-]*|[\^_/\\-])[\s~]*$")
_GLUED_AFTER = re.compile(r"[A-Za-wyz/]")
_COUNTED_AFTER = re.compile(r"\s+[a-z]|\s*[%x×]")


def _stated_quantity(number: NumberInContext) -> bool:
    """A number of running prose a reader takes for a measured or counted quantity: a percentage, a decimal,
    or an integer of 10 or more before a lower-case word ("57 studies", "340 fps"); not a year nor a name's number.
    Written here, not taken from the NUM rules, so the sample does not inherit what they leave out."""
    mention = number.mention
    if mention.is_year or number.block.kind.value != "paragraph":
        return False
    at, end = mention.plain_start - mention.sentence_start, mention.plain_end - mention.sentence_start
    before, after = mention.sentence[:at], mention.sentence[end:]
    if _NAMED_BEFORE.search(before) or _GLUED_AFTER.match(after):
        return False
    return mention.percent or mention.decimals >= 1 or (abs(mention.value) >= 10 and bool(_COUNTED_AFTER.match(after)))


def plant_prose_vs_table(project: Project) -> Iterator[Edit]:
    """Change a decimal of running prose that quotes a table cell (`_quotes_cell`, roundings allowed), in a
    sentence tied to that table."""
    index = _Tables(project.index.tables)
    for number in project.index.numbers:
        mention = number.mention
        if mention.decimals < 1 or not _stated_quantity(number):
            continue
        cells = [c for c in index.agreeing(mention.value, mention.decimals) if _quotes_cell(number, c, rounded=True)]
        if not cells:
            continue
        if len({id(c.placed) for c in cells}) != 1 or not tie(cells[0], mention.sentence, number.block.block.plain.text):
            continue
        if edit := _changed_number(project, number, "{old} → {new} (table says " + cells[0].cell.text + ")"):
            yield edit


def _quotes_cell(number: NumberInContext, at: CellAt, rounded: bool = False) -> bool:
    """The prose number writes the cell as the table does, with its sign and all its figures (or a fraction cell
    as a percentage: 91.2% for 0.912), or with `rounded` a rounding of it that keeps two or more figures (0.77 for
    0.767); and the cell is a value, not the label that opens its row. A coarser rounding ("around 0.8" and
    0.78419, 0.5 and 0.45) or an integer that merely equals an identifier ("11 features" and the Id 11) is a
    coincidence of digits, not a quote: planting there measures nothing. A whole number quotes a cell whose row
    or column names what it counts ("64 hosts" and a column "Hosts")."""
    mention, cell = number.mention, at.cell
    if cell.value is None or cell.column == 0 or (mention.value < 0) != (cell.value < 0):
        return False
    written = spelled(mention.value, mention.decimals)
    shown = [(cell.value, cell.decimals)] + ([(cell.value * 100, cell.decimals - 2)] if mention.percent else [])
    if rounded and _significant(written) >= 2:
        quoted = any(agrees(abs(mention.value), mention.decimals, abs(value)) for value, _ in shown)
    else:
        quoted = any(written == spelled(value, places) for value, places in shown)
    if not quoted:
        return False
    if mention.decimals or mention.percent:
        return True
    after = mention.sentence[mention.plain_end - mention.sentence_start :].split()
    counted = after[0].strip(".,;:()").lower().rstrip("s") if after else ""
    return len(counted) > 2 and counted in " ".join(at.headers()).lower()


def _significant(written: str) -> int:
    """Significant figures as written: "0.77" 2, "0.5" 1, "13.96" 4."""
    return len(written.replace(".", "").lstrip("0"))


def plant_cited_table_number(project: Project) -> Iterator[Edit]:
    """Change a number of a prose sentence that cites a table (\\ref to its label) and quotes a body cell of
    that table as written (`_quotes_cell`): the author retypes a result while writing about it."""
    index = _Tables(project.index.tables)
    for number in project.index.numbers:
        mention = number.mention
        if not _stated_quantity(number):
            continue
        cited = {index.by_label[label].block.start for label in referenced_labels(mention.sentence) if label in index.by_label}
        cells = [c for c in index.agreeing(mention.value, mention.decimals) if c.placed.block.start in cited and _quotes_cell(number, c)]
        if cells and (
            edit := _changed_number(
                project, number, "{old} → {new} (the cited " + cells[0].describe() + " holds " + cells[0].cell.text + ")"
            )
        ):
            yield edit


def plant_table_quote(project: Project) -> Iterator[Edit]:
    """Quote a table cell in the prose with one digit changed (inserted after the paragraph citing the
    table): "On MMLU, Ours reaches 48.66 (Table~\\ref{tab:main})." where the cell holds 38.66."""
    paragraphs = prose_blocks(project)
    for placed in project.index.tables:
        table = placed.block.table
        label = table.label or (placed.block.labels[0] if placed.block.labels else "")  # type: ignore[union-attr]
        citing = [p for p in paragraphs if label and label in referenced_labels(p.block.plain.text)]
        grid = Grid.of(table)  # type: ignore[arg-type]
        for cell in body_cells(table):  # type: ignore[arg-type]
            column = " ".join(grid.own_header(cell.column).replace("↑", "").replace("↓", "").split())
            row = " ".join(table.row_header(cell.row).split())  # type: ignore[union-attr]
            if not citing or cell.value is None or cell.decimals < 1 or not (_NAME.fullmatch(column) and _NAME.fullmatch(row)):
                continue
            changed = _bump(spelled(cell.value, cell.decimals))
            yield append_to_paragraph(
                project,
                citing[0],
                f"On {column}, {row} reaches {changed} (Table~\\ref{{{label}}}).",
                f"inserted quote {changed} of the cell {cell.text}",
            )


def plant_same_quantity(project: Project) -> Iterator[Edit]:
    """Change the later of two prose statements of the same result-like number (not a table value),
    made in similar words (two content words shared near the numbers)."""
    index = _Tables(project.index.tables)
    seen: dict[str, list[tuple[PlacedBlock, set[str]]]] = {}
    for number in project.index.numbers:
        mention = number.mention
        if not headline(number) or index.agreeing(mention.value, mention.decimals):
            continue
        words = _context_words(number)
        earlier = seen.setdefault(mention.text, [])
        if any(block is not number.block and len(words & other) >= _SHARED for block, other in earlier) and (
            edit := _changed_number(project, number, "second statement {old} → {new}")
        ):
            yield edit
        earlier.append((number.block, words))


def plant_abstract_restated(project: Project) -> Iterator[Edit]:
    """Change a number of the abstract (a stated quantity) that the body restates: spelled the same, in a
    body sentence sharing context words with it (table values included: the abstract quotes them too)."""
    restated: dict[str, list[set[str]]] = {}
    abstract: list[NumberInContext] = []
    for number in project.index.numbers:
        if not _stated_quantity(number):
            continue
        if number.section_kind is SectionKind.ABSTRACT:
            abstract.append(number)
        elif number.section_kind is not SectionKind.FRONT:
            restated.setdefault(number.mention.text, []).append(_context_words(number))
    for number in abstract:
        words = _context_words(number)
        if any(len(words & other) >= _SHARED for other in restated.get(number.mention.text, ())) and (
            edit := _changed_number(project, number, "abstract {old} → {new} (the body restates {old})")
        ):
            yield edit


def _cell_number(project: Project, placed: PlacedBlock, cell: Cell) -> tuple[int, str] | None:
    """Source offset and spelling of a cell's main number."""
    written = spelled(cell.value, cell.decimals)  # type: ignore[arg-type]
    at = project.source(placed.file).text.find(written, cell.start, cell.end)
    return (at, written) if at >= 0 else None


# What a reader calls an aggregate: a header that starts with one of these words ("Avg.", "Mean F1", "Total (pb)"),
# not a label that introduces a group of rows ("mean: θ" over the parameters of a mean model).
# Written here, not taken from TAB001, so the sample does not inherit what the rule's own pattern leaves out.
_AGGREGATE_NAME = re.compile(r"^\W*(?:avg|average|mean|overall|total|sum)\b(?![-:])", re.IGNORECASE)


# Columns of descriptive statistics: a "Mean" beside them is the mean of the row's variable, not of these columns.
_DESCRIPTIVE = re.compile(r"^\W*(?:min|max|minimum|maximum|median|sd|s\.d\.|std|range|iqr|n)\b", re.IGNORECASE)
# A cell holding a range ("15.4 - 76.9"): two numbers, no value to recompute.
_RANGE_CELL = re.compile(r"\d\s*(?:-{1,3}|–|—)\s*\d")


def plant_table_aggregate(project: Project) -> Iterator[Edit]:
    """Alter one cell of an Avg/Mean/Total column or row that, before the edit, recomputes from its cells
    (an average a reader can check; weighted averages stay out of the sample). Tables ruled with the
    paper's own macros (\\shline) count like any other. A "Mean" column beside Min/Max/SD columns, and a
    cell holding a range, recompute only by coincidence ((1 + 35) / 2 is the mean week 18): not planted."""
    for placed in project.index.tables:
        grid = Grid.of(placed.block.table)  # type: ignore[arg-type]
        rows, columns = grid.body_rows(), grid.columns()
        lines: list[tuple[Cell | None, list[Cell], bool]] = []
        for column in columns:
            if _AGGREGATE_NAME.match(grid.own_header(column)):
                others = [c for c in columns if c != column and not _AGGREGATE_NAME.match(grid.own_header(c))]
                if any(_DESCRIPTIVE.match(grid.own_header(c)) for c in others):
                    continue
                lines += [(grid.numeric(row, column), [c for c in (grid.numeric(row, o) for o in others) if c], False) for row in rows]
        for row in rows:
            if _AGGREGATE_NAME.match(grid.table.row_header(row)):
                others = [r for r in rows if r != row and not _AGGREGATE_NAME.match(grid.table.row_header(r))]
                lines += [
                    (grid.numeric(row, column), [c for c in (grid.numeric(r, column) for r in others) if c], True) for column in columns
                ]
        for total, peers, column_wise in lines:
            if total is None or len(peers) < 2 or _RANGE_CELL.search(total.text) or not adds_up(total, peers, column_wise, grid.groups()):
                continue
            found = _cell_number(project, placed, total)
            if found:
                at, written = found
                new = _bump(written)
                yield replaced(project, placed.file, at, at + len(written), new, f"aggregate {written} → {new}")


def plant_best_marker(project: Project) -> Iterator[Edit]:
    """Move \\textbf from the best cell of a column to the runner-up of the same column."""
    for placed in project.index.tables:
        table = placed.block.table
        grid = Grid.of(table)  # type: ignore[arg-type]
        text = project.source(placed.file).text
        for column in grid.columns():
            sense = direction(table.column_header(column), table.caption)  # type: ignore[union-attr]
            cells = [c for r in grid.body_rows() if (c := grid.numeric(r, column))]
            bold = [c for c in cells if c.bold]
            if not sense or len(bold) != 1 or len(cells) < 3:
                continue
            marked = bold[0]
            command = re.search(r"\\textbf\{", text[marked.start : marked.end])
            if command is None or re.search(r"\\[A-Za-z]*(?:best|first)", text[marked.start : marked.end]):
                continue  # a second highlight macro would keep the cell marked
            worse = sorted((c for c in cells if sense * (marked.value - c.value) > 0), key=lambda c: -sense * c.value)  # type: ignore[operator]
            found = _cell_number(project, placed, worse[0]) if worse else None
            if found is None:
                continue
            at, written = found
            yield Edit(
                placed.file,
                [(marked.start + command.start(), marked.start + command.end(), "{"), (at, at + len(written), "\\textbf{" + written + "}")],
                {text.count("\n", 0, at)},
                f"bold moved from {marked.text} to {worse[0].text}",
            )


_NAME = re.compile(r"\\[A-Za-z]+(?:\{\})?|[A-Za-z][\w .+-]{1,30}")  # a header safe to write back into the source
_CLAIMS = (
    "{row} achieves the {best} {column} (Table~\\ref{{{label}}}).",
    "As Table~\\ref{{{label}}} shows, {row} obtains the {best} {column} of all methods.",
    "{row} yields the {best} {column} in Table~\\ref{{{label}}}.",
)


def plant_best_claim(project: Project) -> Iterator[Edit]:
    """Claim in the prose that a row which is not the best of a column achieves the best value (inserted):
    "X achieves the highest Acc (Table~\\ref{tab:main})." after the paragraph that cites the table."""
    paragraphs = prose_blocks(project)
    for placed in project.index.tables:
        table = placed.block.table
        label = table.label or (placed.block.labels[0] if placed.block.labels else "")  # type: ignore[union-attr]
        citing = [p for p in paragraphs if label and label in referenced_labels(p.block.plain.text)]
        if not citing:
            continue
        grid = Grid.of(table)  # type: ignore[arg-type]
        for column in grid.columns():
            sense = direction(table.column_header(column), table.caption)  # type: ignore[union-attr]
            header = " ".join(grid.own_header(column).replace("↑", "").replace("↓", "").split())
            cells = [c for r in grid.body_rows() if (c := grid.numeric(r, column))]
            if not sense or len(cells) < 3 or not _NAME.fullmatch(header):
                continue
            best = max(c.value for c in cells) if sense > 0 else min(c.value for c in cells)  # type: ignore[type-var]
            for cell in cells:
                row = " ".join(table.row_header(cell.row).split())  # type: ignore[union-attr]
                if cell.value == best or not _NAME.fullmatch(row):
                    continue
                claim = _CLAIMS[(cell.row + column) % len(_CLAIMS)].format(
                    row=row, column=header, label=label, best="highest" if sense > 0 else "lowest"
                )
                yield append_to_paragraph(
                    project,
                    citing[0],
                    claim[0].upper() + claim[1:] if not row.startswith("\\") else claim,
                    f"inserted '{claim}' (best is {best})",
                )


_FROM_TO = re.compile(r"from\s*\$?\s*(\d+(?:\.\d+)?)\s*\\?%?\$?\s*(?:\\%)?\s*to\s*\$?\s*(\d+(?:\.\d+)?)")
_ARROW_DELTA = re.compile(r"(\d+(?:\.\d+)?)\s*\\(?:rightarrow|to)\s*(\d+(?:\.\d+)?)[^()\n]{0,40}\(\s*([+-−]?)(\d+(?:\.\d+)?)")


def plant_arithmetic(project: Project) -> Iterator[Edit]:
    """Break a stated difference: "from A to B (+C)", "A → B (+C)", or "by C% from A to B"."""
    for file in project.files:
        text = project.source(file).text
        for match in _ARROW_DELTA.finditer(text):
            start, end = match.span(4)
            # +3 on the leading digit: a one-unit change of a rounded integer delta is within rounding.
            new = _bump(_bump(_bump(match.group(4))))
            yield replaced(project, file, start, end, new, f"delta {match.group(4)} → {new} in '{match.group(0)[:50]}'")
        for match in _FROM_TO.finditer(text):
            window = text[max(0, match.start() - 120) : match.end() + 120]
            if re.search(r"\(\s*[+-]\s*\d|\bby\s+\$?\d", window):
                start, end = match.span(2)
                new = _bump(match.group(2))
                yield replaced(project, file, start, end, new, f"end point {match.group(2)} → {new}")


_COUNT_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
_COUNT = re.compile(
    r"\b(" + "|".join(_COUNT_WORDS) + r")\s+([a-z]+s)\s*(?::|\(|,\s*(?:namely|i\.e\.)|[^.:;\n]{0,80}?\.\s+(?=First))", re.IGNORECASE
)
# What a reader can count: a list, (1)/(i)/(a) markers, "First, … Second, …", or "A, B and C".
_ENUMERATION = re.compile(
    r"\s*(?:\\begin\{(?:itemize|enumerate|compactitem|compactenum)\}|\((?:1|i|a)\)|First\b|"
    r"[^.()]{1,80},[^.()]{1,80}\b(?:and|or)\b)"
)


def plant_count(project: Project) -> Iterator[Edit]:
    """Change a count word that announces a countable enumeration: "three datasets: A, B and C"."""
    for file in project.files:
        text = uncommented(project.source(file).text)
        for match in _COUNT.finditer(text):
            if not _ENUMERATION.match(text, match.end()):
                continue
            word = match.group(1)
            index = _COUNT_WORDS.index(word.lower())
            new = _COUNT_WORDS[index + 1] if index + 1 < len(_COUNT_WORDS) else _COUNT_WORDS[index - 1]
            new = new.capitalize() if word[0].isupper() else new
            yield replaced(project, file, *match.span(1), new, f"'{match.group(0)[:40]}' count {word} → {new}")


def plant_statistic(project: Project) -> Iterator[Edit]:
    """Break a reported t/F statistic's p-value, or insert an inconsistent one (inserted)."""
    stat = re.compile(r"\b([tF])\s*\(\s*\d+(?:\s*,\s*\d+)?\s*\)\s*=\s*\d+(?:\.\d+)?\s*,\s*\$?\s*p\s*([<=])\s*(0?\.\d+)")
    for file in project.files:
        text = project.source(file).text
        for match in stat.finditer(text):
            value = match.group(3)
            new = "0.50" if float(value) < 0.1 else "0.001"
            yield replaced(project, file, *match.span(3), new, f"p {value} → {new}")
    for placed in late_paragraphs(project, (SectionKind.RESULTS, SectionKind.EXPERIMENTS, SectionKind.DISCUSSION)):
        yield append_to_paragraph(
            project, placed, "The difference was significant, $t(28) = 0.45$, $p < .001$.", "inserted t(28) = 0.45, p < .001"
        )
