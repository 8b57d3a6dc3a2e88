"""Tables as grids of cells, with numbers read through their decoration.

`93.4`, `\\textbf{93.4}`, `93.4$\\pm$0.2`, `93.4\\%`, `1.2e-3` and `--` are all
read; `\\multicolumn`, `\\multirow` and rules are tolerated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import pairwise
from typing import TypeGuard

from pylatexenc import latexwalker as lw

from .deferred_pattern import DeferredPattern
from .macro_signatures import MATH_ENVIRONMENTS, PARSE_CONTEXT, TABULAR_ENVIRONMENTS
from .model import Cell, MacroDef, RowPull, Table
from .numbers import TIMES_TEN_TO, scaled
from .plaintext import InlineRenderer, PlainBuilder, argument_nodes, argument_text, macro_arguments
from .row_keys import header_key
from .siunitx import QUANTITY_COMMANDS, RANGE_COMMANDS, UNIT_COMMANDS
from .walker import RunWalker

_ROW_ENDS = frozenset({"\\", "tabularnewline", "cr", "crcr"})
_LONGTABLE_PARTS = frozenset({"endfirsthead", "endhead", "endfoot", "endlastfoot"})
_CAPTION_ROW = frozenset({"caption", "label"})
_RULES = frozenset(
    {
        "hline",
        "midrule",
        "toprule",
        "bottomrule",
        "cline",
        "cmidrule",
        "hhline",
        "specialrule",
        "addlinespace",
        "Xhline",
        "noalign",
        "cdashline",
        "hdashline",
    }
)
# The arguments of the rules that take some ([ optional, ( trim, { mandatory), read off the source so
# that "\\toprule[1.5pt]" or "\\cmidrule(lr){2-3}" leaves no "[1.5pt]" or "(lr)2-3" in the next cell.
_RULE_ARGUMENTS = {
    "toprule": "[",
    "midrule": "[",
    "bottomrule": "[",
    "cmidrule": "[({",
    "cline": "{",
    "specialrule": "{{{",
    "addlinespace": "[",
    "Xhline": "{",
    "hhline": "{",
    "noalign": "{",
    "cdashline": "{",
    "hdashline": "[",
}
# deluxetable's commands around its rows, read off the source with their arguments: its caption, width and
# type size before \\startdata; after \\enddata, its notes.
_DELUXETABLE_ARGUMENTS = {
    "tablecaption": "{",
    "tablewidth": "{",
    "tabletypesize": "{",
    "tablenum": "[{",
    "tablecolumns": "{",
    "centerwidetable": "",
    "startdata": "",
}
_ARGUMENT = {"[": re.compile(r"\s*\[[^\]]*\]"), "(": re.compile(r"\s*\([^)]*\)"), "{": re.compile(r"\s*\{(?:[^{}]|\{[^{}]*\})*\}")}
# A definition whose body draws a rule makes its macro a rule: \\newcommand\\shline{\\noalign{…}\\hline…}.
_DRAWS_RULE = DeferredPattern(
    r"\\(?:hline|toprule|midrule|bottomrule|specialrule|cline|cmidrule|noalign|hhline|Xhline|cdashline|hdashline)(?![A-Za-z])"
)
# A path a paper's own command may read rows from: a folder or a TeX or text suffix, and a letter.
_PICTURE_FILE = DeferredPattern(r"\.(?:tikz|pgf|pdf_tex|pdftex_t|pstex_t|eps_tex|svg)$", re.IGNORECASE)
_ROWS_FILE = DeferredPattern(r"(?=[^{}]*[A-Za-z])[\w.-]*(?:/[\w.-]+)+|[\w./-]+\.(?:tex|txt)")
_ROW_INCLUDES = frozenset({"input", "include"})
_PARTIAL_RULES = frozenset({"cmidrule", "cline", "cdashline"})
_UNITS = QUANTITY_COMMANDS | RANGE_COMMANDS | UNIT_COMMANDS
_BOLD = frozenset({"textbf", "bf", "bfseries", "mathbf", "boldsymbol", "bm", "boldmath", "npboldmath", "best", "first"})
_UNDERLINE = frozenset({"underline", "uline", "ul", "second", "underbar"})
_ITALIC = frozenset({"textit", "itshape", "it", "emph", "textsl", "slshape"})
# Thousands grouped by commas ("13,433.67") or, where the source sets a thin space ("2\\,076"), by one.
_NUMBER = DeferredPattern(
    r"(?<![\w.])([-−–+]?)\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\u2009\d{3})+(?:\.\d+)?|\d*\.\d+|\d+)"
    + TIMES_TEN_TO
    + r"?(?![A-Za-z]{2})"
)
_THIN_SPACE_GROUPS = DeferredPattern(r"\d\s*\\[,;]\s*\d{3}(?!\d)")
_SPACE_BEFORE_GROUP = DeferredPattern(r"(?<=\d) (?=\d{3}(?!\d))")
_LEADING_MACROS = DeferredPattern(r"^(?:\s*\\[A-Za-z@]+\*?)+")
# siunitx's compact uncertainty, in units of the last digits written against them: "2.977(77)" is 2.977 ± 0.077.
_LAST_DIGITS_UNCERTAINTY = DeferredPattern(r"\((\d+)\)")
_POWER = DeferredPattern(r"\^\s*([-−]?\d+)")
_SEXAGESIMAL = DeferredPattern(r"\^[^\d\s]{1,2}\d")
_VERSION_GOES_ON = DeferredPattern(r"\.\d")  # after "3.3": "3.3.2" is a version
# The spread after a value, also after its percent sign or as its subscript or superscript: "93.4 ± 0.2",
# "19.7% +/- 6.1%", "$93.4_{\\pm 0.3}$", "$93.4^{\\pm 0.3}$", siunitx's "\\num{93.4 +- 0.3}", "4.5·10^-3 ± 1.5·10^-3".
_SPREAD = DeferredPattern(r"^\s*(?:\\?%\s*)?[_^]?\s*(?:±|\+/?-|\\pm)\s*(\d*\.?\d+)" + TIMES_TEN_TO + "?")
# "7.2 (0.3)", "9.4 [0.7]": a spread in parentheses, where the table says its parentheses hold spreads.
_PARENTHESIZED_SPREAD = DeferredPattern(r"^\s*[(\[]\s*(\d*\.?\d+)\s*[)\]]")
_SPREAD_WORD = r"(?:standard\s+(?:deviation|error)s?|\bS\.?[DE]\.?M?s?\b|\bstd\b\.?|\bSEM\b)"
# What a caption, a column's header or a row's says of its parentheses: "Standard errors in parentheses",
# "SEM … reported in brackets", "means (and standard deviations)", "Age, mean (SD)".
_DECLARES_SPREAD = DeferredPattern(
    rf"(?i){_SPREAD_WORD}[^.;]{{0,40}}\b(?:in|within)\s+(?:parenthes[ie]s|brackets)"
    rf"|(?:parenthes[ie]s|brackets)\s+(?:are|show|give|report|hold|denote|indicate)\s+(?:the\s+)?{_SPREAD_WORD}"
    rf"|\bmeans?\s*\((?:and\s+)?{_SPREAD_WORD}\)"
)
_DECLARES_SHARE = DeferredPattern(r"\b[nN]\s*\(\s*%\s*\)")  # "Women, n (%)": counts and their shares


def parse_table(
    node: lw.LatexEnvironmentNode,
    tabular: lw.LatexEnvironmentNode,
    renderer: InlineRenderer,
    caption: str | None = None,
    label: str | None = None,
) -> Table | None:
    """The table `tabular` typesets, placed at `node` (its float, or itself)."""
    rows_nodes, header_rows, raw_rules, raw_pulls = _split_rows(tabular.nodelist)
    rows, kept_before = _rows(rows_nodes, renderer)
    if not rows and not raw_pulls:
        return None
    hidden = hidden_columns(argument_text(next(iter(macro_arguments(tabular)[::-1]), None)))
    if hidden:
        rows = [_visible(row, hidden) for row in rows]
    kept_before.append(len(rows))
    rules = tuple((kept_before[raw], name) for raw, name in raw_rules)
    pulls = tuple(pull._replace(row=kept_before[pull.row]) for pull in raw_pulls)
    header_rows = _heading_rows(rows, rules, header_rows)
    table = Table(
        rows,
        node.pos,
        node.pos + node.len,
        node.environmentname,
        max(1, min(header_rows, len(rows) - 1) if len(rows) > 1 else 1),
        caption,
        label,
        rules,
        pulls,
    )
    _read_declared_spreads(table)
    return table


def _read_declared_spreads(table: Table) -> None:
    """Read "7.2 (0.3)" as 7.2 and its spread where the table says its parentheses hold spreads: its row's
    header ("Age, mean (SD)"), else its column's, else its caption. A row of counts and shares ("n (%)")
    holds no spread. Elsewhere a number in parentheses is anything: a count filtered out, a rank."""
    in_caption = bool(table.caption and _DECLARES_SPREAD.search(table.caption))
    in_column = {cell.column: bool(_DECLARES_SPREAD.search(table.column_header(cell.column))) for row in table.rows for cell in row}
    for row in table.rows[table.header_rows :]:
        named = row[0].text if row else ""
        if _DECLARES_SHARE.search(named):
            continue
        in_row = bool(_DECLARES_SPREAD.search(named))
        for cell in row[1:]:
            if cell.value is not None and cell.spread is None and (in_row or in_column[cell.column] or in_caption):
                read_cell_number(cell, parenthesized_spread=True)


def _rows(rows_nodes: list[list[list[lw.LatexNode]]], renderer: InlineRenderer) -> tuple[list[list[Cell]], list[int]]:
    """The rows with some text, as cells; and how many are kept before each raw row."""
    rows: list[list[Cell]] = []
    kept_before: list[int] = []
    for nodes_of_row in rows_nodes:
        kept_before.append(len(rows))
        cells: list[Cell] = []
        column = 0
        for nodes_of_cell in nodes_of_row:
            cell = _cell(nodes_of_cell, renderer, len(rows), column)
            cells.append(cell)
            column += cell.column_span
        if any(cell.text for cell in cells):
            rows.append(cells)
    return rows, kept_before


def bare_rows(text: str) -> tuple[list[list[Cell]], tuple[tuple[int, str], ...], int]:
    """The rows a file of bare rows (`a & b \\\\ \\midrule`) gives the tabular that reads it, its rules, and
    how many rows head it (when the file holds the header too); offsets count in `text`."""
    walker = RunWalker(text, PARSE_CONTEXT, tolerant_parsing=True)
    nodes, _, _ = walker.get_latex_nodes()
    rows_nodes, header_rows, raw_rules, _ = _split_rows(nodes)
    rows, kept_before = _rows(rows_nodes, InlineRenderer())
    kept_before.append(len(rows))
    rules = tuple((kept_before[raw], name) for raw, name in raw_rules)
    return rows, rules, _heading_rows(rows, rules, header_rows)


# A column spec's tokens: `*{3}{c}`, a modifier `@{…}` `>{…}` (no column), a column type with its
# arguments (`p{2cm}`, `S[table-format=2.1]`, `D{.}{.}{-1}`), or a separator (`|`, `:`).
_GROUP = r"\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"
_SPEC_TOKEN = DeferredPattern(rf"\*\s*\{{(\d+)\}}\s*({_GROUP})|[@!<>]\s*{_GROUP}|([A-Za-z])(?:\s*(?:\[[^\]]*\]|{_GROUP}))*|\S")
# The column type that typesets nothing, `\newcolumntype{H}{>{\setbox0=\hbox\bgroup}c<{\egroup}@{}}`: the
# usual idiom for a column kept in the source and hidden from the reader. LaTeX has no H of its own, so a
# table that uses it defined it.
_HIDDEN_TYPE = "H"


def column_types(spec: str) -> list[str]:
    """The type letter of each column of a tabular's column spec: "l*{2}{c}@{}H" gives l, c, c, H."""
    types: list[str] = []
    for token in _SPEC_TOKEN.finditer(spec):
        if token.group(1):
            types += column_types(token.group(2)[1:-1]) * int(token.group(1))
        elif token.group(3):
            types.append(token.group(3))
    return types


def hidden_columns(spec: str) -> frozenset[int]:
    return frozenset(index for index, kind in enumerate(column_types(spec)) if kind == _HIDDEN_TYPE)


def _visible(row: list[Cell], hidden: frozenset[int]) -> list[Cell]:
    """The cells a reader sees, numbered by the columns a reader sees."""
    kept = []
    for cell in row:
        covered = range(cell.column, cell.column + cell.column_span)
        shown = sum(1 for column in covered if column not in hidden)
        if shown:
            cell.column -= sum(1 for column in hidden if column < cell.column)
            cell.column_span = shown
            kept.append(cell)
    return kept


def _heading_rows(rows: list[list[Cell]], rules: tuple[tuple[int, str], ...], header_rows: int) -> int:
    """How many rows head the table, from the rows before its first inner rule: past partial rules, and past
    the rows right under the header that name its columns by number."""
    numbering = {at for at, row in enumerate(rows) if _numbers_columns(row)}
    for at in numbering:
        for cell in rows[at]:
            cell.value = None  # "(3)" names the third column; it measures nothing
    header_rows = _past_header_rows_under_partial_rules(rows, rules, header_rows)
    while header_rows < len(rows) - 1 and (header_rows in numbering or _names_groups_columns(rows, header_rows)):
        header_rows += 1
    return header_rows


# A regression table's column number: "(1)", "(2)", … above its models' estimates.
_COLUMN_NUMBER = DeferredPattern(r"\((\d+)\)")


def _numbers_columns(row: list[Cell]) -> bool:
    """A row whose cells past the first are "(1)", "(2)", "(3)"…: one after another."""
    numbers = [_COLUMN_NUMBER.fullmatch(cell.text) for cell in row[1:] if cell.text]
    if len(numbers) < 2 or not all(numbers):
        return False
    counted = [int(number.group(1)) for number in numbers if number]
    return all(later == earlier + 1 for earlier, later in pairwise(counted))


def _names_groups_columns(rows: list[list[Cell]], at: int) -> bool:
    """A row under group names that span columns (`& \\multicolumn{3}{c}{Face Detector}`) names the groups'
    columns when it fills every one of them with words or whole numbers (CuDNN and GILR; sessions 2, 3, 4;
    200 and 400 labels) and the row below measures: a decimal, a percentage or a spread. Whole numbers
    above whole numbers are the body's counts."""
    if at == 0 or at + 1 >= len(rows):
        return False
    groups = [cell for cell in rows[at - 1] if cell.text and cell.column > 0]
    if not groups or any(cell.column_span < 2 for cell in groups):
        return False
    covered = {column for cell in groups for column in range(cell.column, cell.column + cell.column_span)}
    named = [cell for cell in rows[at] if cell.column in covered]
    measured = [cell for cell in rows[at + 1] if cell.column in covered]
    return (
        len(named) == len(covered)
        and all(cell.text and not _measures(cell) for cell in named)
        and any(_measures(cell) for cell in measured)
    )


def _measures(cell: Cell) -> bool:
    return cell.value is not None and bool(cell.decimals or cell.percent or cell.spread is not None)


def _past_header_rows_under_partial_rules(rows: list[list[Cell]], rules: tuple[tuple[int, str], ...], header_rows: int) -> int:
    """A partial rule under spanning headers (`\\cmidrule{2-4}`) ends the header only when numbers follow it;
    a row of words after it ("Ours & Baseline") is a second header row, which runs to the next rule. So does
    any rule under rows of spanning group names alone (`& \\multicolumn{3}{c}{Results}`), which name no column."""
    while True:
        at_end = {name for at, name in rules if at == header_rows}
        later = [at for at, name in rules if at > header_rows and name != "bottomrule"]
        if not at_end or not later or not (at_end <= _PARTIAL_RULES or _groups_only(rows[:header_rows])):
            return header_rows
        if any(cell.value is not None for row in rows[header_rows : later[0]] for cell in row):
            return header_rows
        header_rows = later[0]


def _groups_only(rows: list[list[Cell]]) -> bool:
    """Rows whose every filled cell spans several columns: group names over the columns' own names."""
    filled = [cell for row in rows for cell in row if cell.text]
    return bool(filled) and all(cell.column_span > 1 for cell in filled)


def _is_tabular(node: lw.LatexNode) -> TypeGuard[lw.LatexEnvironmentNode]:
    return isinstance(node, lw.LatexEnvironmentNode) and (
        node.environmentname in TABULAR_ENVIRONMENTS or node.environmentname.startswith("deluxetable")
    )


# The parts of a float that hold one table each and may caption it: subcaption's and subfig's
# subtables, and the minipages set side by side.
_SUBFLOAT_ENVIRONMENTS = frozenset({"subtable", "subfigure", "minipage"})
_SUBFLOAT_MACROS = frozenset({"subfloat", "subcaptionbox", "subtable", "subfigure"})


def tabulars(node: lw.LatexNode) -> list[tuple[lw.LatexEnvironmentNode, lw.LatexNode | None]]:
    """Each outermost tabular within `node` (or `node` itself), with the innermost subfloat around it,
    if any: a float may set several tables side by side, each with its own caption."""
    found: list[tuple[lw.LatexEnvironmentNode, lw.LatexNode | None]] = []
    _collect_tabulars(node, None, found)
    return found


def _collect_tabulars(
    node: lw.LatexNode, subfloat: lw.LatexNode | None, found: list[tuple[lw.LatexEnvironmentNode, lw.LatexNode | None]]
) -> None:
    if _is_tabular(node):
        found.append((node, subfloat))
        return
    children: list[lw.LatexNode] = []
    if isinstance(node, lw.LatexEnvironmentNode) and node.environmentname not in MATH_ENVIRONMENTS:
        children = node.nodelist
        subfloat = node if node.environmentname in _SUBFLOAT_ENVIRONMENTS else subfloat
    elif isinstance(node, lw.LatexGroupNode):
        children = node.nodelist
    elif isinstance(node, lw.LatexMacroNode):
        children = [child for argument in macro_arguments(node) for child in argument_nodes(argument)]
        subfloat = node if node.macroname in _SUBFLOAT_MACROS else subfloat
    for child in children:
        _collect_tabulars(child, subfloat, found)


def _split_rows(nodes: list[lw.LatexNode]) -> tuple[list[list[list[lw.LatexNode]]], int, list[tuple[int, str]], list[RowPull]]:
    """Rows of cells of nodes; how many rows precede the first inner rule; (raw row, macro) for each
    rule, and each lone argument-less macro, that stands before a row's content; and the files of rows
    read where a row starts."""
    rows: list[list[list[lw.LatexNode]]] = []
    row: list[list[lw.LatexNode]] = [[]]
    header_rows = 0
    rules: list[tuple[int, str]] = []
    pulls: list[RowPull] = []
    skip_to = -1  # the end of a rule's arguments
    part_start, first_head = 0, False  # where longtable's part being read began; whether it had a first head
    flat = list(_flatten_cells(nodes))
    for index, node in enumerate(flat):
        if node.pos + node.len <= skip_to:
            continue
        if node.pos < skip_to:  # text that starts inside the arguments: keep what follows them
            node = _chars_from(node, skip_to)
        if not _has_content(row) and (pull := _row_pull(node, flat[index + 1 : index + 3], len(rows))):
            pulls.append(pull)
            skip_to = pull.end
        elif isinstance(node, lw.LatexSpecialsNode) and node.specials_chars == "&":
            row.append([])
        elif isinstance(node, lw.LatexMacroNode) and node.macroname in _ROW_ENDS:
            if not _caption_only(row):  # longtable's "\caption{…}\label{…}\\" is its caption, not a row
                rows.append(row)
            row = [[]]
        elif isinstance(node, lw.LatexMacroNode) and node.macroname in _LONGTABLE_PARTS:
            # longtable's head and feet end here: the (first) head heads the table; the head it repeats on
            # later pages and the feet it prints at page ends ("Continued on next page") are no rows of it.
            if node.macroname == "endfirsthead" or (node.macroname == "endhead" and not first_head):
                header_rows = sum(1 for r in rows if _has_content(r)) or header_rows
                first_head = first_head or node.macroname == "endfirsthead"
            else:
                del rows[part_start:]
                rules = [(at, name) for at, name in rules if at <= part_start]
                pulls = [pull for pull in pulls if pull.row <= part_start]
            part_start = len(rows)
        elif isinstance(node, lw.LatexMacroNode) and is_rule(name := _rule_name(node.macroname)):
            rules.append((len(rows), name))
            skip_to = _arguments_end(node, _RULE_ARGUMENTS.get(name, ""))
            completed = sum(1 for r in rows if _has_content(r))
            if header_rows == 0 and completed > 0 and name != "bottomrule":
                header_rows = completed
        elif isinstance(node, lw.LatexMacroNode) and node.macroname in _DELUXETABLE_ARGUMENTS:
            skip_to = _arguments_end(node, _DELUXETABLE_ARGUMENTS[node.macroname])
        elif isinstance(node, lw.LatexMacroNode) and node.macroname == "enddata":
            break
        elif isinstance(node, lw.LatexMacroNode) and node.macroname == "tablehead":
            # deluxetable: the header is the argument of \tablehead.
            head_rows, _, _, _ = _split_rows(argument_nodes(macro_arguments(node)[-1] if macro_arguments(node) else None))
            rows.extend(head_rows if head_rows else [])
            header_rows = len([r for r in rows if _has_content(r)])
        else:
            if isinstance(node, lw.LatexMacroNode) and not _has_content(row) and not macro_arguments(node):
                rules.append((len(rows), node.macroname))  # perhaps the author's own rule
            row[-1].append(node)
    if _has_content(row):
        rows.append(row)
    return rows, header_rows or 1, rules, pulls


def _caption_only(row: list[list[lw.LatexNode]]) -> bool:
    nodes = [node for cell in row for node in cell if not (isinstance(node, lw.LatexCharsNode) and not node.chars.strip())]
    return bool(nodes) and all(isinstance(node, lw.LatexMacroNode) and node.macroname in _CAPTION_ROW for node in nodes)


def _row_pull(node: lw.LatexNode, following: list[lw.LatexNode], row: int) -> RowPull | None:
    """The file of rows `node` reads where a row starts: an `\\input{rows}`, or a command LaTeX does not
    know given a path (`\\PlainInput{tables/rows}`), which the project follows only to a file it holds."""
    if not isinstance(node, lw.LatexMacroNode):
        return None
    arguments = macro_arguments(node)
    if node.macroname in _ROW_INCLUDES and arguments:
        target = argument_text(arguments[-1]).strip()
        if not target or _PICTURE_FILE.search(target):  # a tabular of pictures (`\input{a.tikz} & \input{b.tikz}`)
            return None
        return RowPull(row, node.macroname, target, node.pos, node.pos + node.len)
    if arguments:  # a command pylatexenc knows, with its own arguments
        return None
    group = next((n for n in following if not (isinstance(n, lw.LatexCharsNode) and not n.chars.strip())), None)
    if not isinstance(group, lw.LatexGroupNode):
        return None
    target = argument_text(group).strip()
    if not _ROWS_FILE.fullmatch(target):
        return None
    return RowPull(row, node.macroname, target, node.pos, group.pos + group.len)


def _rule_name(macroname: str) -> str:
    """ "cmidrule" from pylatexenc's "cmidrule(" (it reads a parenthesis into the name)."""
    return macroname.rstrip("(")


def _arguments_end(node: lw.LatexMacroNode, kinds: str) -> int:
    """Where the macro's arguments of these kinds end in the source (the node may not hold them all)."""
    source = node.parsing_state.s
    end: int = node.pos + 1 + len(_rule_name(node.macroname))
    for kind in kinds:
        if match := _ARGUMENT[kind].match(source, end):
            end = match.end()
    node_end: int = node.pos + node.len
    return max(end, node_end)


def _chars_from(node: lw.LatexNode, start: int) -> lw.LatexNode:
    if not isinstance(node, lw.LatexCharsNode):
        return node
    rest = node.chars[start - node.pos :]
    return lw.LatexCharsNode(parsing_state=node.parsing_state, chars=rest, pos=start, len=len(rest))


def rule_macros(definitions: Iterable[MacroDef]) -> frozenset[str]:
    """Names (without backslash) of the author's argument-less macros whose body draws a rule, directly or
    through another such macro: `\\newcommand\\shline{\\noalign{…}\\hline…}`, `\\def\\sep{\\midrule}`."""
    bodies = {
        definition.name.lstrip("\\"): definition.body
        for definition in definitions
        if definition.name.startswith("\\") and not definition.arguments
    }
    found = {name for name, body in bodies.items() if _DRAWS_RULE.search(body)}
    while True:
        more = {
            name
            for name, body in bodies.items()
            if name not in found and any(re.search(rf"\\{re.escape(other)}(?![A-Za-z])", body) for other in found)
        }
        if not more:
            return frozenset(found)
        found |= more


def is_rule(name: str) -> bool:
    # Papers define their own rules (\\shline, \\thickhline); any *line or *rule but \\newline counts.
    return name in _RULES or (name.endswith(("line", "rule")) and name != "newline" and name not in _UNDERLINE)


def _flatten_cells(nodes: list[lw.LatexNode]) -> Iterator[lw.LatexNode]:
    """Yield nodes, descending into bare groups that only wrap cells."""
    for node in nodes:
        if isinstance(node, lw.LatexCommentNode):
            continue
        yield node


def _has_content(row: list[list[lw.LatexNode]]) -> bool:
    return any(not (isinstance(node, lw.LatexCharsNode) and not node.chars.strip()) for cell in row for node in cell)


def read_cell(source: str, row: int, column: int) -> Cell:
    """The cell `source` writes, read alone (at row `row`, column `column`; its offsets count in `source`)."""
    nodes, _, _ = RunWalker(source, PARSE_CONTEXT, tolerant_parsing=True).get_latex_nodes()
    return _cell(nodes, InlineRenderer(), row, column)


def _cell(nodes: list[lw.LatexNode], renderer: InlineRenderer, row: int, column: int) -> Cell:
    span = 1
    content = nodes
    for node in nodes:
        if isinstance(node, lw.LatexMacroNode) and node.macroname == "multicolumn":
            arguments = macro_arguments(node)
            count = argument_text(arguments[0]).strip() if arguments else "1"
            span = int(count) if count.isdigit() else 1
    meaningful = [n for n in nodes if not (isinstance(n, lw.LatexCharsNode) and not n.chars.strip())]
    builder = PlainBuilder()
    renderer.render(content, builder)
    text = builder.build().text.strip()
    if meaningful:
        start, end = meaningful[0].pos, meaningful[-1].pos + meaningful[-1].len
        first, last = meaningful[0], meaningful[-1]
        if isinstance(first, lw.LatexCharsNode):  # the cell starts at its text, not at the space after "&"
            start += len(first.chars) - len(first.chars.lstrip())
        if isinstance(last, lw.LatexCharsNode):
            end -= len(last.chars) - len(last.chars.rstrip())
        if _THIN_SPACE_GROUPS.search(first.parsing_state.s, start, end):
            text = _SPACE_BEFORE_GROUP.sub("\u2009", text)  # "2\\,076" prints 2 076, one number
    else:
        start = end = nodes[0].pos if nodes else 0
    macros = set(_macro_names(nodes))
    runner_up = {macro for macro in macros if "second" in macro.lower()}  # \\secondbest marks the second best, not the best
    cell = Cell(
        row,
        column,
        text,
        start,
        end,
        column_span=span,
        bold=_marks(macros - runner_up, _BOLD, "best", "first"),
        underline=_marks(macros, _UNDERLINE, "second"),
        italic=bool(macros & _ITALIC),
    )
    read_cell_number(cell)
    return cell


def _marks(macros: set[str], names: frozenset[str], *fragments: str) -> bool:
    """A known highlight macro, or a paper's own one named like it (\\tablefirst, \\secondbest)."""
    return bool(macros & names) or any(fragment in macro.lower() for macro in macros for fragment in fragments)


def _macro_names(nodes: list[lw.LatexNode]) -> Iterator[str]:
    """The macros of a cell, but a unit's (`\\SI{1.5}{\\milli\\second}` marks no second best)."""
    for node in nodes:
        if isinstance(node, lw.LatexMacroNode):
            yield node.macroname
            if node.macroname in _UNITS:
                continue
            for argument in macro_arguments(node):
                yield from _macro_names(argument_nodes(argument))
        elif isinstance(node, (lw.LatexGroupNode, lw.LatexMathNode, lw.LatexEnvironmentNode)):
            yield from _macro_names(node.nodelist)


def read_number(text: str, parenthesized_spread: bool = False) -> tuple[float, int, float | None, bool] | None:
    """(value, decimals, spread, percent) of the first number in a cell text; with `parenthesized_spread`, a
    number in parentheses right after it is its spread."""
    text = _LEADING_MACROS.sub("", text)  # "\\tablefirst4.19": an unexpanded highlight macro
    if header_key(text):
        return None  # "(2,1,N)", "K=20, LF=5": a key names a row or setting, its leading 2 or 20 measures nothing
    match = _NUMBER.search(text)
    if match is None:
        return None
    sign, digits, exponent, times_ten = match.groups()
    before = text[: match.start()].strip()
    if re.search(r"[A-Za-z]{2,}", before):
        return None  # "BERT-base 110" is a label, not a number cell
    rest = text[match.end() :]
    if text[: match.start(1) if sign else match.start(2)].endswith(("/", "^")) or rest.lstrip().startswith("π"):
        return None  # "β=σ_0/2", "x∈R^9276", "ω = 2π × 500 Hz": an operand of a formula, not what the cell measures
    value, decimals = scaled(digits.replace("\u2009", ""), exponent or times_ten)
    if power := _POWER.match(rest):
        # "10^-3" is a thousandth; "2^10" is no 2. A mark raised after a number ("0.300^‡", "12^a") leaves it.
        if digits != "10" or exponent or times_ten:
            return None
        value, decimals = scaled("1", power.group(1))
        rest = rest[power.end() :]
    if _SEXAGESIMAL.match(rest):
        return None  # "5^h35^m23.30^s", "-5^∘07^'10.00^''": an angle in hours or degrees, minutes and seconds
    if sign in ("-", "−", "–"):
        value = -value
    if _VERSION_GOES_ON.match(rest):
        return None  # "3.3.2 GA", "1.7.0": a version names a release, it measures nothing
    spread_match = _SPREAD.match(rest) or (_PARENTHESIZED_SPREAD.match(rest) if parenthesized_spread else None)
    # its power of ten, when it is written in scientific notation ("± 1.5·10^-3")
    spread_power = next((group for group in spread_match.groups()[1:] if group), None) if spread_match else None
    spread = scaled(spread_match.group(1), spread_power)[0] if spread_match else None
    if spread is None and decimals and (uncertainty := _LAST_DIGITS_UNCERTAINTY.match(rest)):
        spread = round(int(uncertainty.group(1)) * 10.0**-decimals, decimals)
    percent = "%" in rest[:3]
    return value, decimals, spread, percent


def read_cell_number(cell: Cell, parenthesized_spread: bool = False) -> None:
    number = read_number(cell.text, parenthesized_spread)
    if number is None:
        return
    cell.value, cell.decimals, cell.spread, cell.percent = number
