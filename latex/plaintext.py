"""Render LaTeX nodes to a plain-text view that maps back to the source."""

from __future__ import annotations

from collections.abc import Callable

from pylatexenc import latexwalker as lw

from .deferred_pattern import DeferredPattern
from .macro_signatures import CITE_COMMANDS, FORMATTING_COMMANDS, PRINTED_ARGUMENT, REF_COMMANDS, specials_text, symbol_text
from .model import PlainText
from .siunitx import QUANTITY_COMMANDS, RANGE_COMMANDS, RANGE_PHRASE, UNIT_COMMANDS, unit_text

# Commands that render as their last mandatory argument: the others set its colour, size or place.
_RENDERS_ITS_CONTENT = FORMATTING_COMMANDS | frozenset(
    {
        "textcolor",
        "colorbox",
        "resizebox",
        "scalebox",
        "adjustbox",
        "rotatebox",
        "raisebox",
        "href",
        "multicolumn",
        "multirow",
        "makecell",
        "thead",
        "url",
        "caption",
        "footnote",
        "textsuperscript",
        "textsubscript",
        "num",
    }
)
# Commands that produce no visible text.
SILENT_COMMANDS = frozenset(
    {
        "label",
        "hline",
        "toprule",
        "midrule",
        "bottomrule",
        "cline",
        "cmidrule",
        "addlinespace",
        "centering",
        "vspace",
        "hspace",
        "noindent",
        "linebreak",
        "pagebreak",
        "newpage",
        "clearpage",
        "maketitle",
        "small",
        "footnotesize",
        "scriptsize",
        "tiny",
        "large",
        "Large",
        "normalsize",
        "bfseries",
        "boldmath",
        "npboldmath",
        "itshape",
        "selectfont",
        "phantomsection",
        # A phantom's box is blank on the page: `5\phantom{.000}` reads 5, not 5.000.
        "phantom",
        "hphantom",
        "vphantom",
        "vskip",
        "hskip",
        "smallskip",
        "medskip",
        "bigskip",
        "protect",
        "index",
        "rowcolor",
        "cellcolor",
        "color",  # its argument names a colour: a cell "\color{red} 416" reads 416
        "arraystretch",
        "setlength",
        "addcontentsline",
        "FloatBarrier",
        "raggedright",
        "raggedleft",
        "arraybackslash",
        "par",
        "nonumber",
        "notag",
        "displaystyle",
        "textstyle",
        "scriptstyle",
        "scriptscriptstyle",
        "left",
        "right",
        "big",
        "Big",
        "bigg",
        "Bigg",
        "startdata",
        "enddata",
        "tablecomments",
        "specialrule",
        # Set-up: colours, listings, hyperlinks, column types, pictures' and captions' styles; a footnote's mark.
        "definecolor",
        "colorlet",
        "lstset",
        "hypersetup",
        "newcolumntype",
        "tikzset",
        "pgfplotsset",
        "captionsetup",
        "footnotemark",
        # A conditional's own tokens print nothing, whichever branch TeX takes (see dead_text for the branch it never takes).
        "if",
        "iffalse",
        "iftrue",
        "else",
        "fi",
    }
)


_FRACTIONS = frozenset({"frac", "dfrac", "tfrac", "cfrac", "nicefrac", "sfrac", "flatfrac"})

# A tabularray table writes its notes in its outer options (`note{}={* p < 0.05}`, `remark{Note}={N = 146.}`), as
# R's modelsummary and tinytable print them: text the reader sees under the table.
_TABULARRAY = frozenset({"tblr", "talltblr", "longtblr"})
_NOTE_KEY = DeferredPattern(r"(?:^|[,\s])(?:note|remark)\s*$")
# A run of white space or of anything else: `\s` is what str.isspace() calls white space.
_RUNS = DeferredPattern(r"\s+|\S+")
_WHITE_SPACE = DeferredPattern(r"\s")
_BREAKING_SPACE = DeferredPattern("[\n\t\r ]")
_WHITE_SPACE_PAIR = DeferredPattern(r"\s\s")
_DIGIT_GROUP = DeferredPattern(r"\d{3}(?!\d)")


def printed_chars(chars: str) -> str:
    """Characters as TeX prints them: a tie (`Table~3`, `4~GPUs`) is a space; `\\textasciitilde` is the tilde."""
    return chars.replace("~", " ") if "~" in chars else chars


class PlainBuilder:
    """Accumulates plain text and its source segments, collapsing white space."""

    __slots__ = ("last_space", "length", "parts", "segments")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.segments: list[tuple[int, int, int, int]] = []
        self.length = 0
        self.last_space = True

    def add(self, text: str, src_start: int, src_end: int) -> None:
        """Append text rendered from source [src_start, src_end)."""
        if not text:
            return
        if text.isspace():
            self.space(src_start, src_end)
            return
        one_to_one = len(text) == src_end - src_start
        if one_to_one and _BREAKING_SPACE.search(text) is None:
            self._emit(text, src_start, src_end)
            self.last_space = text[-1] == " "
            return
        if one_to_one and _WHITE_SPACE_PAIR.search(text) is None:
            # Words apart by one white space character each (most prose, line breaks and all): each becomes one
            # space, so the words and the spaces between them are one 1:1 run; only one at either end may fall
            # away or end the text.
            first = 1 if text[0].isspace() else 0
            last = len(text) - 1 if text[-1].isspace() else len(text)
            if first:
                self.space(src_start, src_start + 1)
            self._emit(_WHITE_SPACE.sub(" ", text[first:last]), src_start + first, src_start + last)
            self.last_space = False
            if last < len(text):
                self.space(src_end - 1, src_end)
            return
        # Collapse runs of white space inside, keeping 1:1 runs in between (the runs found in C, not char by char).
        for run in _RUNS.finditer(text):
            start, end = run.span() if one_to_one else (0, src_end - src_start)
            if text[run.start()].isspace():
                self.space(src_start + start, src_start + end)
            else:
                self._emit(run.group(), src_start + start, src_start + end)
                self.last_space = False

    def newline(self, src_start: int, src_end: int) -> None:
        """A hard line break (table rows, \\\\), kept through collapsing."""
        if self.parts and self.parts[-1] == " ":
            self.parts.pop()
            self.segments.pop()
            self.length -= 1
        if self.parts:
            self._emit("\n", src_start, src_end)
        self.last_space = True

    def space(self, src_start: int, src_end: int) -> None:
        if self.last_space:
            return
        self._emit(" ", src_start, src_end)
        self.last_space = True

    def _emit(self, text: str, src_start: int, src_end: int) -> None:
        self.segments.append((self.length, self.length + len(text), src_start, src_end))
        self.parts.append(text)
        self.length += len(text)

    def build(self) -> PlainText:
        text = "".join(self.parts)
        segments = self.segments
        stripped = text.rstrip()
        if len(stripped) < len(text):
            text = stripped
            segments = [segment for segment in segments if segment[0] < len(text)]
        return PlainText(text, segments)


def macro_arguments(node: lw.LatexMacroNode | lw.LatexEnvironmentNode) -> list[lw.LatexNode | None]:
    parsed = node.nodeargd
    if parsed is None or not getattr(parsed, "argnlist", None):
        return []
    return list(parsed.argnlist)


def argument_text(node: lw.LatexNode | None) -> str:
    """Raw LaTeX inside an argument, without its braces."""
    if node is None:
        return ""
    if isinstance(node, lw.LatexGroupNode):
        return "".join(child.latex_verbatim() for child in node.nodelist)
    verbatim: str = node.latex_verbatim()
    return verbatim


def tabularray_notes(node: lw.LatexEnvironmentNode) -> list[lw.LatexNode]:
    """The values of a tabularray table's `note{…}={…}` and `remark{…}={…}` outer options, in order."""
    arguments = node.nodeargd.argnlist if node.nodeargd is not None else []
    options = next((argument for argument in arguments if isinstance(argument, lw.LatexGroupNode) and argument.delimiters[0] == "["), None)
    parts = options.nodelist if options is not None else []
    notes: list[lw.LatexNode] = []
    for key, name, equals, value in zip(parts, parts[1:], parts[2:], parts[3:], strict=False):
        if (
            isinstance(key, lw.LatexCharsNode)
            and _NOTE_KEY.search(key.chars)
            and isinstance(name, lw.LatexGroupNode)
            and isinstance(equals, lw.LatexCharsNode)
            and equals.chars.strip() == "="
            and isinstance(value, lw.LatexGroupNode)
        ):
            notes.append(value)
    return notes


def argument_nodes(node: lw.LatexNode | None) -> list[lw.LatexNode]:
    if node is None:
        return []
    if isinstance(node, lw.LatexGroupNode):
        return list(node.nodelist)
    return [node]


def last_mandatory_argument(node: lw.LatexMacroNode) -> lw.LatexNode | None:
    arguments = macro_arguments(node)
    spec = getattr(node.nodeargd, "argspec", "") or ""
    for kind, argument in zip(reversed(spec), reversed(arguments)):
        if kind == "{" and argument is not None:
            return argument
    return None


def _units_package_value(spec: str, arguments: list[lw.LatexNode | None]) -> lw.LatexNode | None:
    """The value of the units package's `\\unit[value]{unit}`: an optional argument that sets no siunitx
    option (those are all `key=value`)."""
    optional = next((argument for kind, argument in zip(spec, arguments) if kind == "["), None)
    return optional if optional is not None and "=" not in argument_text(optional) else None


class InlineRenderer:
    """Renders inline material; `on_macro` lets the caller see every macro."""

    def __init__(self, on_macro: Callable[[lw.LatexMacroNode, PlainBuilder], bool] | None = None) -> None:
        self.on_macro = on_macro

    def render(self, nodes: list[lw.LatexNode], out: PlainBuilder) -> None:
        for node in nodes:
            self.render_node(node, out)

    def render_node(self, node: lw.LatexNode | None, out: PlainBuilder) -> None:
        if node is None or isinstance(node, lw.LatexCommentNode):
            return
        start, end = node.pos, node.pos + node.len
        if isinstance(node, lw.LatexCharsNode):
            out.add(printed_chars(node.chars), start, end)
        elif isinstance(node, (lw.LatexGroupNode, lw.LatexMathNode)):
            self.render(node.nodelist, out)
        elif isinstance(node, lw.LatexSpecialsNode):
            out.add(specials_text(node.specials_chars), start, end)
        elif isinstance(node, lw.LatexMacroNode):
            self.render_macro(node, out)
        elif isinstance(node, lw.LatexEnvironmentNode):
            for note in tabularray_notes(node) if node.environmentname in _TABULARRAY else ():
                self.render(note.nodelist, out)
                out.add("\n", note.pos + note.len, note.pos + note.len)  # a note ends before the next begins
            self.render(node.nodelist, out)

    def render_macro(self, node: lw.LatexMacroNode, out: PlainBuilder) -> None:
        if self.on_macro is not None and self.on_macro(node, out):
            return
        name = node.macroname
        start, end = node.pos, node.pos + node.len
        if name in REF_COMMANDS or name in CITE_COMMANDS or name == "hyperref":
            # Kept verbatim: readers (and LLMs) understand it, quotes of it match the
            # source exactly, and `\hyperref[tab:x]{the results}` keeps the label it cites.
            out.add(node.latex_verbatim().strip(), start, end)
            out.last_space = False
            return
        if name in SILENT_COMMANDS:
            return
        if name in ("\\", "tabularnewline", "newline"):
            out.newline(start, end)
            return
        if name in QUANTITY_COMMANDS or name in RANGE_COMMANDS or name in UNIT_COMMANDS or name == "ang":
            self._render_quantity(node, out)
            return
        if name == "url" and isinstance(address := last_mandatory_argument(node), lw.LatexGroupNode):
            out.add(argument_text(address), address.pos + 1, address.pos + address.len - 1)  # as typed, its tildes too
            return
        if name in PRINTED_ARGUMENT:
            printed = PRINTED_ARGUMENT[name][1]
            mandatory = [
                argument for argument in macro_arguments(node) if isinstance(argument, lw.LatexGroupNode) and argument.delimiters[0] == "{"
            ]
            if printed is not None and printed < len(mandatory):
                self.render_node(mandatory[printed], out)
            return
        if name in _RENDERS_ITS_CONTENT:
            content = last_mandatory_argument(node)
            if content is not None:
                self.render_node(content, out)
            return
        arguments = macro_arguments(node)
        if not arguments or all(argument is None for argument in arguments):
            symbol = symbol_text(name)
            if symbol is not None and symbol.isspace():
                if name == "," and out.parts and out.parts[-1][-1:].isdigit() and _DIGIT_GROUP.match(node.parsing_state.s, end):
                    return  # a thin space between digit groups ("59\\,918") prints one number
                out.space(start, end)
                return
            if symbol is not None or not arguments:
                verbatim = node.latex_verbatim()
                out.add(verbatim.rstrip() if symbol is None else symbol, start, end)
                if verbatim[-1:].isspace():  # "\\method performs": the name stays a word of its own
                    out.space(end, end)
                return
        if name in _FRACTIONS:  # `\\frac{1}{4}`, `\\tfrac12` print a fraction: "1/4", not "14"
            numerator, denominator = arguments[-2:]
            self.render_node(numerator, out)
            if denominator is not None:
                out.add("/", denominator.pos, denominator.pos)
                self.render_node(denominator, out)
            return
        for argument in arguments:
            if isinstance(argument, lw.LatexGroupNode) and argument.delimiters[0] == "{":
                self.render_node(argument, out)

    def _render_quantity(self, node: lw.LatexMacroNode, out: PlainBuilder) -> None:
        """siunitx: `\\SI[options]{number}[prefix]{unit}` the number, then the unit as printed ("3 ms");
        `\\SIrange{1}{5}{\\percent}` "1 % to 5 %"; `\\unit{\\metre\\per\\second}` "m/s"; `\\ang{30}` "30°";
        the units package's `\\unit[1020]{Hz}` "1020 Hz"."""
        spec = getattr(node.nodeargd, "argspec", "") or ""
        mandatory = [argument for kind, argument in zip(spec, macro_arguments(node)) if kind == "{"]
        name = node.macroname
        unit = mandatory[-1] if mandatory and name not in ("numrange", "ang") else None
        numbers = mandatory[: 2 if name in RANGE_COMMANDS else 0 if name in UNIT_COMMANDS else 1]
        if name == "unit" and (value := _units_package_value(spec, macro_arguments(node))) is not None:
            numbers = [value]
        for index, number in enumerate(numbers):
            if number is None:
                continue
            if index:
                out.add(RANGE_PHRASE, number.pos, number.pos)
            self.render_node(number, out)
            if name == "ang":
                out.add("°", number.pos + number.len, number.pos + number.len)
            elif unit is not None:
                out.space(number.pos + number.len, number.pos + number.len)
                out.add(unit_text(unit), unit.pos, unit.pos + unit.len)
        if not numbers and unit is not None:
            out.add(unit_text(unit), unit.pos, unit.pos + unit.len)
