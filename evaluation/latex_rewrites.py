"""Meaning-preserving rewrites of a paper's LaTeX: the idioms other authors use for the same content.

Each rewrite is a small named function over one file's text that keeps every line where it was (a
construct moved or wrapped stays on its own lines), so a ledger problem's `file:line` still names the
same sentence or cell after it. The one rewrite that moves text to another file (a table into its
own file, `\\input`) says where each moved line went. A rewrite that changes nothing in a paper does
not apply to it. evaluation/variants.py checks each rewritten paper and asks whether the problems the
rules caught are still caught.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

Place = tuple[str, int]  # (file, 1-based line)


@dataclass
class Rewritten:
    """A paper's files after a rewrite (every file, changed or not, plus any new one) and where moved lines went."""

    files: dict[str, str]
    moved: dict[Place, Place] = field(default_factory=dict)

    def place(self, file: str, line: int) -> Place:
        return self.moved.get((file, line), (file, line))


TextRewrite = Callable[[str], str]

TABULAR = re.compile(r"\\begin\{tabular\}(?:\[[^\]]*\])?(\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})(.*?)\\end\{tabular\}", re.S)
TABLE_FLOAT = re.compile(r"\\begin\{table\*?\}.*?\\end\{table\*?\}", re.S)
_REF = r"\\ref\{([^{}]+)\}"
_TABLE_REF = re.compile(r"\b(?:Table|Tab\.)(~|[ \t])" + _REF)  # on one line: a rewrite keeps lines
_NUMBER = r"-?\d+(?:\.\d+)?"


def _in_tabulars(text: str, body: TextRewrite) -> str:
    """`body` applied to the inside of every tabular (after its column spec)."""
    return TABULAR.sub(lambda match: match.group(0).replace(match.group(2), body(match.group(2)), 1), text)


# References to a table: the same target, spelled as other papers spell it.


def ref_abbreviated(text: str) -> str:
    """`Table~\\ref{x}` → `Tab.~\\ref{x}`."""
    return _TABLE_REF.sub(lambda m: f"Tab.{m.group(1)}\\ref{{{m.group(2)}}}", text)


def ref_cref(text: str) -> str:
    """`Table~\\ref{x}` → `\\cref{x}` (cleveref names the float)."""
    return _TABLE_REF.sub(lambda m: f"\\cref{{{m.group(2)}}}", text)


def ref_autoref(text: str) -> str:
    """`Table~\\ref{x}` → `\\autoref{x}` (hyperref names the float)."""
    return _TABLE_REF.sub(lambda m: f"\\autoref{{{m.group(2)}}}", text)


def ref_spaced(text: str) -> str:
    """`Table~\\ref{x}` → `Table \\ref{x}`."""
    return re.sub(r"\b(Tables?|Tab\.)~\\ref\{", r"\1 \\ref{", text)


def ref_spelled_out(text: str) -> str:
    """`\\cref{x}`, `\\autoref{x}`, `Tab.~\\ref{x}` → `Table~\\ref{x}` for a table's label (the reverse idiom)."""
    tables = {label for table in TABLE_FLOAT.findall(text) for label in re.findall(r"\\label\{([^{}]+)\}", table)}
    text = re.sub(r"\bTab\.(~|[ \t])\\ref\{", r"Table\1\\ref{", text)
    return re.sub(
        r"\\(?:[cC]ref|autoref)\{([^{},]+)\}",
        lambda m: f"Table~\\ref{{{m.group(1)}}}" if m.group(1) in tables else m.group(0),
        text,
    )


def tilde_to_space(text: str) -> str:
    """A tie `~` → a space (not `\\~`, nor on a line with a URL)."""
    lines = text.split("\n")
    return "\n".join(line if "url" in line or "http" in line else re.sub(r"(?<![\\/])~", " ", line) for line in lines)


# Table rules, bold and size.


def rules_swapped(text: str) -> str:
    """`\\hline` → booktabs `\\toprule`/`\\midrule`/`\\bottomrule`, or booktabs → `\\hline`."""

    def swap(body: str) -> str:
        if re.search(r"\\(?:top|mid|bottom)rule\b", body):
            return re.sub(r"\\(?:top|mid|bottom)rule\b(?:\[[^\]]*\])?", r"\\hline", body)
        count = len(re.findall(r"\\hline\b", body))
        names = iter(["\\toprule", *["\\midrule"] * max(count - 2, 0), "\\bottomrule"] if count > 1 else ["\\midrule"])
        return re.sub(r"\\hline\b", lambda _: next(names), body)

    return _in_tabulars(text, swap)


def _braced_arguments(text: str, command: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, argument) of each `\\command{argument}` with balanced braces."""
    for match in re.finditer(re.escape(command) + r"\{", text):
        depth, at = 1, match.end()
        while at < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[at], 0)
            at += 1
        if not depth:
            yield match.start(), at, text[match.end() : at - 1]


def _replace_command(text: str, command: str, spell: Callable[[str], str]) -> str:
    pieces, last = [], 0
    for start, end, argument in _braced_arguments(text, command):
        if start >= last:
            pieces += [text[last:start], spell(argument)]
            last = end
    return "".join(pieces) + text[last:]


def bold_declared(text: str) -> str:
    """In tables, `\\textbf{x}` → `{\\bf x}`."""
    return _in_tabulars(text, lambda body: _replace_command(body, "\\textbf", lambda arg: f"{{\\bf {arg}}}"))


def bold_math(text: str) -> str:
    """In tables, a bold number `\\textbf{0.52}` → `$\\mathbf{0.52}$`."""
    number = re.compile(rf"\s*{_NUMBER}\s*")

    def spell(argument: str) -> str:
        return f"$\\mathbf{{{argument.strip()}}}$" if number.fullmatch(argument) else f"\\textbf{{{argument}}}"

    return _in_tabulars(text, lambda body: _replace_command(body, "\\textbf", spell))


def sized_and_centred(text: str) -> str:
    """`\\small\\centering` added at the start of each table float (on its `\\begin{table}` line)."""
    return re.sub(r"(\\begin\{table\*?\}(?:\[[^\]]*\])?)", r"\1\\small\\centering ", text)


# The tabular's environment.


def resized(text: str) -> str:
    """Each tabular wrapped in `\\resizebox{\\linewidth}{!}{…}`."""
    return TABULAR.sub(lambda match: f"\\resizebox{{\\linewidth}}{{!}}{{{match.group(0)}}}", text)


def adjustboxed(text: str) -> str:
    """Each tabular inside `\\begin{adjustbox}{max width=\\linewidth}`."""
    return TABULAR.sub(lambda m: f"\\begin{{adjustbox}}{{max width=\\linewidth}}{m.group(0)}\\end{{adjustbox}}", text)


def tabular_star(text: str) -> str:
    """`tabular` → `tabular*` with a width and `\\extracolsep`."""

    def spell(match: re.Match[str]) -> str:
        spec = "{@{\\extracolsep{\\fill}}" + match.group(1)[1:]
        return f"\\begin{{tabular*}}{{\\linewidth}}{spec}{match.group(2)}\\end{{tabular*}}"

    return TABULAR.sub(spell, text)


def tabularx(text: str) -> str:
    """`tabular` → `tabularx` with a width (the column spec kept)."""
    return TABULAR.sub(lambda m: f"\\begin{{tabularx}}{{\\linewidth}}{m.group(1)}{m.group(2)}\\end{{tabularx}}", text)


def caption_moved(text: str) -> str:
    """A table's caption above its tabular moved below it, or below moved above (each line stays a line)."""

    def move(table: re.Match[str]) -> str:
        float_text = table.group(0)
        captions = list(_braced_arguments(float_text, "\\caption"))
        tabular = TABULAR.search(float_text)
        if len(captions) != 1 or tabular is None:
            return float_text
        start, end, _ = captions[0]
        caption = float_text[start:end]
        blanked = "\n".join("%" for _ in caption.split("\n"))
        flat = " ".join(re.sub(r"(?<!\\)%.*", "", line).strip() for line in caption.split("\n"))  # its comments end nothing now
        if end <= tabular.start():
            at = tabular.end()
            return float_text[:start] + blanked + float_text[end:at] + flat + float_text[at:]
        return float_text[: tabular.start()] + flat + float_text[tabular.start() : start] + blanked + float_text[end:]

    return TABLE_FLOAT.sub(move, text)


# Cells: a tabular body split at its top-level `\\` and `&`, each cell rewritten in place.


def _split_rows(body: str) -> list[list[str]]:
    """The body's rows, each a list of cells, split at top-level `\\\\` and `&` (their separators kept in the
    cells' text so that joining gives the body back)."""
    rows: list[list[str]] = [[]]
    cell, depth, at = "", 0, 0
    while at < len(body):
        char = body[at]
        if char == "\\" and body[at + 1 : at + 2] in ("\\", "&", "%", "{", "}"):
            pair = body[at : at + 2]
            cell += pair
            at += 2
            if pair == "\\\\" and depth == 0:
                rows[-1].append(cell)
                rows.append([])
                cell = ""
            continue
        if char == "%":  # a comment runs to the end of its line, whatever it holds
            end = body.find("\n", at)
            end = len(body) if end < 0 else end
            cell += body[at:end]
            at = end
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        cell += char
        at += 1
        if char == "&" and depth == 0:
            rows[-1].append(cell)
            cell = ""
    rows[-1].append(cell)
    return rows


_CELL = re.compile(r"(\s*)(.*?)(\s*(?:&|\\\\)?\s*)", re.S)


def _map_cells(body: str, spell: Callable[[int, int, str], str]) -> str:
    """`spell(row, column, content)` for each cell; the content is the cell without its separator and outer space."""
    rows = _split_rows(body)
    out = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            match = _CELL.fullmatch(cell)
            assert match is not None
            opening, content, tail = match.groups()
            out.append(opening + (spell(r, c, content) if content else content) + tail)
    return "".join(out)


def _numeric_cells(spell: Callable[[str], str]) -> TextRewrite:
    number = re.compile(_NUMBER)
    return lambda text: _in_tabulars(
        text, lambda body: _map_cells(body, lambda _r, _c, cell: spell(cell) if number.fullmatch(cell) else cell)
    )


numbers_in_math = _numeric_cells(lambda cell: f"${cell}$")
numbers_in_math.__doc__ = "A table cell `0.52` → `$0.52$`."
numbers_as_num = _numeric_cells(lambda cell: f"\\num{{{cell}}}")
numbers_as_num.__doc__ = "A table cell `0.52` → siunitx `\\num{0.52}`."


def math_numbers_as_text(text: str) -> str:
    """A lone number in math `$0.52$` → `0.52`, in prose and tables."""
    return re.sub(rf"(?<![\\$])\$({_NUMBER})\$(?!\$)", r"\1", text)


def pm_tight(text: str) -> str:
    """`0.52 $\\pm$ 0.01` → `0.52$\\pm$0.01` and `0.52 \\pm 0.01` → `0.52\\pm0.01`."""
    text = re.sub(r"[ \t]*\$\\pm\$[ \t]*", r"$\\pm$", text)
    return re.sub(r"(?<=\d)[ \t]*\\pm[ \t]*(?=\d)", r"\\pm ", text)


def pm_in_math(text: str) -> str:
    """`0.52 $\\pm$ 0.01` → `$0.52 \\pm 0.01$`."""
    return re.sub(rf"(?<![\w.$])({_NUMBER})[ \t]*\$\\pm\$[ \t]*({_NUMBER})(?![\w.])", r"$\1 \\pm \2$", text)


def s_columns(text: str) -> str:
    """siunitx: the `c` and `r` columns of a tabular spec → `S`."""

    def spec(match: re.Match[str]) -> str:
        whole, columns = match.group(0), match.group(1)
        depth, out = 0, []
        for char in columns[1:-1]:
            out.append("S" if depth == 0 and char in "cr" else char)
            depth += {"{": 1, "}": -1}.get(char, 0)
        return whole.replace(columns, "{" + "".join(out) + "}", 1)

    return TABULAR.sub(spec, text)


_PERCENT_CELL = re.compile(rf"({_NUMBER})\s*\\%")


def percent_in_header(text: str) -> str:
    """Cells `52.1\\%` → `52.1` with ` (\\%)` added to their column's header (the tabular's first row)."""

    def body(body: str) -> str:
        rows = [row for row in _split_rows(body)]
        width = len(rows[0])
        columns = {
            c
            for row in rows[1:]
            if len(row) == width
            for c, cell in enumerate(row)
            if _PERCENT_CELL.search(cell) and "multicolumn" not in cell
        }
        if not columns or "multicolumn" in rows[0][0] + "".join(rows[0]):
            return body

        def spell(r: int, c: int, cell: str) -> str:
            if c not in columns or (r and len(rows[r]) != width):
                return cell
            return cell + " (\\%)" if r == 0 else _PERCENT_CELL.sub(r"\1", cell)

        return _map_cells(body, spell)

    return _in_tabulars(text, body)


def header_group(text: str) -> str:
    """A `\\multicolumn` header group over every column but the first, put above the tabular's first row."""

    def body(body: str) -> str:
        rows = _split_rows(body)
        if "multicolumn" in "".join(rows[0]) or len(rows[0]) < 3:
            return body
        rules = re.match(r"(\s*(?:\\(?:hline|toprule|midrule)\b(?:\[[^\]]*\])?\s*)*)", body)
        at = rules.end() if rules else 0
        n = len(rows[0])
        return body[:at] + f"& \\multicolumn{{{n - 1}}}{{c}}{{Results}} \\\\ \\cmidrule{{2-{n}}} " + body[at:]

    return _in_tabulars(text, body)


# Whole-paper rewrites: what one file defines or holds, another uses.

PaperRewrite = Callable[[dict[str, str]], Rewritten]
_KEYED = re.compile(r"\\(?:label|[cC]?ref|autoref|eqref|cite\w*|input|include\w*|url|href|usepackage|begin|end)\{[^{}]*\}")


def each_file(rewrite: TextRewrite) -> PaperRewrite:
    """A text rewrite applied to every file of the paper."""
    return lambda files: Rewritten({name: rewrite(text) for name, text in files.items()})


def _table_names(text: str) -> list[str]:
    """The row names of a text's tables: each row's first cell when it is a plain name."""
    name = re.compile(r"[A-Z][\w-]{2,}")
    return [
        row[0].split("&")[0].strip()
        for match in TABULAR.finditer(text)
        for row in _split_rows(match.group(2))[1:]
        if name.fullmatch(row[0].split("&")[0].strip())
    ]


def method_shorthand(files: dict[str, str]) -> Rewritten:
    """The name of the row most often named in the tables and prose, defined once by `\\newcommand` in the
    preamble and used through it everywhere (outside labels, references and other keys)."""
    main = next((name for name, text in files.items() if "\\documentclass" in text), None)
    names = [name for text in files.values() for name in _table_names(text)]
    if main is None or not names:
        return Rewritten(dict(files))
    chosen = max(sorted(set(names)), key=lambda name: sum(text.count(name) for text in files.values()))
    word = re.compile(rf"(?<![\\\w-]){re.escape(chosen)}(?![\w-])")

    def use(text: str) -> str:
        keys = [match.span() for match in _KEYED.finditer(text)]

        def spell(match: re.Match[str]) -> str:
            in_key = any(start <= match.start() < end for start, end in keys)
            return match.group(0) if in_key else "\\variantname{}"

        return word.sub(spell, text)

    out = {name: use(text) for name, text in files.items()}
    body = out[main].find("\\begin{document}")
    if body < 0:
        return Rewritten(dict(files))
    preamble = files[main][: files[main].find("\\begin{document}")]
    define = f"\\newcommand{{\\variantname}}{{{chosen}}}"
    preamble = re.sub(r"(\\documentclass(?:\[[^\]]*\])?\{[^{}]*\})", lambda m: m.group(1) + define, preamble, count=1)
    out[main] = preamble + out[main][body:]
    return Rewritten(out)


TABLE_FOLDER = "variant_tables"


def tables_in_own_files(files: dict[str, str]) -> Rewritten:
    """Each table float moved to a file of its own under `variant_tables/` and `\\input` where it stood (its
    lines left as `%` so that the rest of the file keeps its line numbers)."""
    out = dict(files)
    moved: dict[Place, Place] = {}
    for name, text in files.items():
        pieces, last = [], 0
        for k, match in enumerate(TABLE_FLOAT.finditer(text), 1):
            target = f"{TABLE_FOLDER}/{name.replace('/', '_').removesuffix('.tex')}_{k}.tex"
            first = text.count("\n", 0, match.start()) + 1
            lines = match.group(0).count("\n")
            moved.update({(name, first + i): (target, 1 + i) for i in range(lines + 1)})
            out[target] = match.group(0) + "\n"
            pieces += [text[last : match.start()], f"\\input{{{target.removesuffix('.tex')}}}" + "\n%" * lines]
            last = match.end()
        out[name] = "".join(pieces) + text[last:]
    return Rewritten(out, moved)


REWRITES: dict[str, PaperRewrite] = {
    "ref-abbreviated": each_file(ref_abbreviated),
    "ref-cref": each_file(ref_cref),
    "ref-autoref": each_file(ref_autoref),
    "ref-spaced": each_file(ref_spaced),
    "ref-spelled-out": each_file(ref_spelled_out),
    "tilde-to-space": each_file(tilde_to_space),
    "rules-swapped": each_file(rules_swapped),
    "bold-declared": each_file(bold_declared),
    "bold-math": each_file(bold_math),
    "sized-and-centred": each_file(sized_and_centred),
    "resized": each_file(resized),
    "adjustboxed": each_file(adjustboxed),
    "tabular-star": each_file(tabular_star),
    "tabularx": each_file(tabularx),
    "caption-moved": each_file(caption_moved),
    "numbers-in-math": each_file(numbers_in_math),
    "math-numbers-as-text": each_file(math_numbers_as_text),
    "pm-tight": each_file(pm_tight),
    "pm-in-math": each_file(pm_in_math),
    "percent-in-header": each_file(percent_in_header),
    "header-group": each_file(header_group),
    "siunitx-num": each_file(numbers_as_num),
    "siunitx-s-columns": each_file(s_columns),
    "method-shorthand": method_shorthand,
    "table-in-own-file": tables_in_own_files,
}
