"""What auditex knows about LaTeX commands: argument shapes and roles.

pylatexenc only parses the arguments of macros it knows, so every command
whose arguments matter to us is declared here once.
"""

from __future__ import annotations

import re
from typing import Any

from pylatexenc import latexwalker, macrospec
from pylatexenc.latex2text import get_default_latex_context_db as _text_context_db

REF_COMMANDS = frozenset(
    {
        "ref",
        "eqref",
        "autoref",
        "cref",
        "Cref",
        "pageref",
        "nameref",
        "vref",
        "Vref",
        "cpageref",
        "Cpageref",
        "subref",
        "labelcref",
        "crefrange",
        "Crefrange",
    }
)
# The reference commands that take a comma-separated list (cleveref's); the others take one key, commas and all.
LIST_REF_COMMANDS = frozenset({"cref", "Cref", "cpageref", "Cpageref", "labelcref"})
# \cite-like commands of LaTeX, natbib, biblatex and apacite (and the ACL/ICML/ACM styles' own):
# [pre][post]{keys}, with apacite's <prenote> first.
_SINGLE_CITE_COMMANDS = frozenset(
    {
        "cite",
        "Cite",
        "nocite",
        "citep",
        "citet",
        "Citep",
        "Citet",
        "citealp",
        "citealt",
        "Citealp",
        "Citealt",
        "citeauthor",
        "Citeauthor",
        "citefullauthor",
        "citeyear",
        "citeyearpar",
        "citenum",
        "citen",
        "citeposs",
        "newcite",
        "yrcite",
        "parencite",
        "Parencite",
        "textcite",
        "Textcite",
        "autocite",
        "Autocite",
        "footcite",
        "footcitetext",
        "smartcite",
        "Smartcite",
        "supercite",
        "fullcite",
        "footfullcite",
        "citetitle",
        "Citetitle",
        "citedate",
        "citeurl",
        "citeA",
        "citeNP",
        "citeANP",
        "citeauthorNP",
        "citeyearNP",
        "citeN",
        "shortcite",
        "shortciteA",
        "shortciteNP",
        "shortciteANP",
        "shortciteN",
        "shortciteauthor",
        "shortciteauthorNP",
        "fullciteA",
        "fullciteNP",
        "fullciteauthor",
        "fullciteauthorNP",
        "nocitemeta",
        "citeasnoun",
        "possessivecite",
        "citeonline",
        # pandoc's (R Markdown, Quarto): \citeproc{ref-key}{(Author 2020)}, the text it prints after the keys.
        "citeproc",
    }
)
# biblatex's multi-citations: (pre)(post) for the whole list, then [pre][post]{keys} repeated.
MULTICITE_COMMANDS = frozenset(
    {
        "cites",
        "Cites",
        "parencites",
        "Parencites",
        "footcites",
        "footcitetexts",
        "smartcites",
        "Smartcites",
        "textcites",
        "Textcites",
        "supercites",
        "autocites",
        "Autocites",
    }
)
CITE_COMMANDS = _SINGLE_CITE_COMMANDS | MULTICITE_COMMANDS
SECTION_LEVELS = {
    "part": 0,
    "chapter": 1,
    "section": 2,
    "subsection": 3,
    "subsubsection": 4,
    "paragraph": 5,
    "subparagraph": 6,
}
INCLUDE_COMMANDS = frozenset(
    {"input", "include", "subfile", "import", "subimport", "inputfrom", "subinputfrom", "includefrom", "subincludefrom"}
)
# Commands that read a file the paper shows as it is (a figure, a listing, a PDF page): its
# path is held to the project like an \input's, but it is no LaTeX source to follow.
FILE_READING_COMMANDS = frozenset({"includegraphics", "lstinputlisting", "verbatiminput", "VerbatimInput", "inputminted", "includepdf"})
BIB_COMMANDS = frozenset({"bibliography", "addbibresource", "addglobalbib", "addsectionbib"})
MACRO_DEFINITIONS = frozenset(
    {"newcommand", "renewcommand", "providecommand", "DeclareMathOperator", "DeclareRobustCommand", "newrobustcmd"}
)
TEX_DEFINITIONS = frozenset({"def", "gdef", "edef", "xdef"})
DOCUMENT_COMMAND_DEFINITIONS = frozenset({"NewDocumentCommand", "RenewDocumentCommand", "ProvideDocumentCommand", "DeclareDocumentCommand"})
ACRONYM_COMMANDS = frozenset({"newacronym", "acrodef", "newacro", "acro", "DeclareAcronym"})
# Commands whose argument is shown in a colour, size or not at all.
STYLE_COMMANDS = frozenset(
    {
        "textcolor",
        "color",
        "colorbox",
        "fontsize",
        "phantom",
        "hphantom",
        "vphantom",
        "resizebox",
        "scalebox",
        "transparent",
        "texttransparent",
    }
)
FORMATTING_COMMANDS = frozenset(
    {
        "textbf",
        "textit",
        "emph",
        "texttt",
        "textsc",
        "textsf",
        "textrm",
        "textup",
        "textsl",
        "underline",
        "uline",
        "mathbf",
        "mathrm",
        "mathit",
        "mathsf",
        "mathtt",
        "mathcal",
        "mathbb",
        "boldsymbol",
        "bm",
        "text",
        "mbox",
        "textnormal",
        "operatorname",
        "mathnormal",
        "hbox",
        "makebox",
        "fbox",
        "ensuremath",
        "textsuperscript",
        "textsubscript",
        "mathbfit",
        "bf",
        "it",
        "small",
        "footnotesize",
        "scriptsize",
        "large",
        "Large",
        "cellcolor",
        "rowcolor",
        "best",
        "second",
        "highlight",
        "hl",
        "ul",
    }
)
FLOAT_TABLE_ENVIRONMENTS = frozenset(
    {"table", "table*", "sidewaystable", "sidewaystable*", "wraptable", "deluxetable", "deluxetable*", "subtable"}
)
TABULAR_ENVIRONMENTS = frozenset(
    {"tabular", "tabular*", "tabularx", "tabulary", "longtable", "longtable*", "supertabular", "tblr", "tabu", "array", "NiceTabular"}
)
FIGURE_ENVIRONMENTS = frozenset({"figure", "figure*", "wrapfigure", "subfigure", "SCfigure", "sidewaysfigure"})
MATH_ENVIRONMENTS = frozenset(
    {
        "equation",
        "equation*",
        "align",
        "align*",
        "gather",
        "gather*",
        "multline",
        "multline*",
        "eqnarray",
        "eqnarray*",
        "displaymath",
        "math",
        "flalign",
        "flalign*",
        "alignat",
        "alignat*",
        "dmath",
        "dmath*",
    }
)
ALGORITHM_ENVIRONMENTS = frozenset({"algorithm", "algorithm*", "algorithmic", "algorithm2e", "algorithmicx"})
CODE_ENVIRONMENTS = frozenset({"verbatim", "verbatim*", "lstlisting", "minted", "Verbatim", "alltt", "comment"})
THEOREM_ENVIRONMENTS = frozenset(
    {
        "theorem",
        "lemma",
        "corollary",
        "proposition",
        "definition",
        "remark",
        "example",
        "proof",
        "claim",
        "conjecture",
        "assumption",
        "fact",
        "observation",
        "hypothesis",
        "axiom",
        "notation",
        "problem",
        "question",
    }
)

_EXTRA_MACROS = {
    # references and citations
    **{name: "*{" for name in REF_COMMANDS},
    "crefrange": "*{{",
    "Crefrange": "*{{",
    # structure and files
    **{name: "*[{" for name in SECTION_LEVELS},
    "include": "{",
    "subfile": "{",
    "import": "*{{",
    "subimport": "*{{",
    "inputfrom": "{{",
    "subinputfrom": "{{",
    "includefrom": "{{",
    "subincludefrom": "{{",
    "bibliography": "{",
    "addbibresource": "[{",
    "addglobalbib": "[{",
    "addsectionbib": "[{",
    "bibitem": "[{",
    "caption": "*[{",
    "captionof": "*{[{",
    "footnote": "[{",
    "footnotetext": "[{",
    "includegraphics": "*[[{",
    "lstinputlisting": "[{",
    "verbatiminput": "*{",
    "VerbatimInput": "[{",
    "inputminted": "[{{",
    "includepdf": "[{",
    "label": "{",
    "appendix": "",
    "documentclass": "[{",
    "usepackage": "[{",
    # definitions
    "newcommand": "*{[[{",
    "renewcommand": "*{[[{",
    "providecommand": "*{[[{",
    "DeclareRobustCommand": "*{[[{",
    "newrobustcmd": "*{[[{",
    "DeclareMathOperator": "*{{",
    "newtheorem": "*{[{[",
    # xparse's: \NewDocumentCommand\name{argument spec}{body}
    **{name: "{{{" for name in DOCUMENT_COMMAND_DEFINITIONS},
    "let": "{{",
    "global": "",
    "newacronym": "[{{{",
    "acrodef": "{[{",
    "newacro": "{[{",
    "acro": "{[{",
    "DeclareAcronym": "{{",
    **{
        name: "*{"
        for name in (
            "ac",
            "acs",
            "acl",
            "acf",
            "acp",
            "acsp",
            "aclp",
            "acfp",
            "gls",
            "Gls",
            "glspl",
            "Glspl",
            "acrshort",
            "acrlong",
            "acrfull",
        )
    },
    # styling that can hide text
    "textcolor": "[{{",
    "color": "[{",
    "colorbox": "[{{",
    "fontsize": "{{",
    "phantom": "{",
    "hphantom": "{",
    "vphantom": "{",
    "resizebox": "*{{{",
    "scalebox": "{[{",
    "transparent": "{",
    "texttransparent": "{{",
    # tables
    "multicolumn": "{{{",
    "multirow": "[{[{[{",
    "makecell": "[{",
    "thead": "[{",
    "cellcolor": "[{",
    "rowcolor": "[{",
    "tablehead": "{",
    "colhead": "[{",
    "tablecaption": "{",
    "tablenum": "[{",
    "num": "[{",
    "SI": "[{[{",
    "qty": "[{[{",
    "cmidrule": "[{",
    "cline": "{",
    "hl": "{",
    "ul": "{",
    "uline": "{",
    "underline": "{",
    "href": "[{{",
    "hyperref": "[{",
}


# A parsed argument: its node, where it starts and how long it is.
_Group = tuple[Any, int, int]


class CitationArgsParser(macrospec.MacroStandardArgsParser):  # type: ignore[misc]  # pylatexenc ships no types
    """Arguments of a citation command: `*`, apacite's `<prenote>`, biblatex's multi-citation
    `(pre)(post)` and repeated `[pre][post]{keys}`, and `[pre][post]{keys}`.

    The parsed `argspec` has one character per argument (`*<([{`), so `{` marks every key list.
    """

    def __init__(self, multicite: bool) -> None:
        super().__init__(argspec="*[[{")
        self.multicite = multicite

    def parse_args(self, w: Any, pos: int, parsing_state: Any = None) -> tuple[Any, int, int]:
        parsing_state = parsing_state or w.make_parsing_state()
        arguments = _Arguments(pos)
        arguments.take("*", _star(w, arguments.position, parsing_state))
        arguments.take("<", _delimited(w, arguments.position, "<", ">", parsing_state))
        if self.multicite:
            for _ in range(2):
                arguments.take("(", _delimited(w, arguments.position, "(", ")", parsing_state))
        while True:
            for _ in range(2):
                arguments.take("[", _delimited(w, arguments.position, "[", "]", parsing_state))
            if not arguments.take("{", _delimited(w, arguments.position, "{", "}", parsing_state)) or not self.multicite:
                break
            if w.s[arguments.position : arguments.position + 1] not in ("[", "{"):
                break  # a group after a space is more likely text than one more key list
        return arguments.parsed(pos)


class _Arguments:
    """A macro's arguments read one after another: a spec character and a node each, and where the next starts."""

    def __init__(self, pos: int) -> None:
        self.spec = ""
        self.nodes: list[Any] = []
        self.position = pos

    def take(self, kind: str, found: _Group | None) -> bool:
        if found is None:
            return False
        node, start, length = found
        self.spec += kind
        self.nodes.append(node)
        self.position = start + length
        return True

    def parsed(self, pos: int) -> tuple[Any, int, int]:
        return macrospec.ParsedMacroArgs(argspec=self.spec, argnlist=self.nodes), pos, self.position - pos


def _star(w: Any, position: int, parsing_state: Any) -> _Group | None:
    try:
        token = w.get_token(position, parsing_state=parsing_state)
    except latexwalker.LatexWalkerEndOfStream:
        return None
    if token.tok == "char" and token.arg.startswith("*"):
        return w.make_node(latexwalker.LatexCharsNode, parsing_state=parsing_state, chars="*", pos=token.pos, len=1), token.pos, 1
    return None


def _delimited(w: Any, position: int, opening: str, closing: str, parsing_state: Any) -> _Group | None:
    """The group `opening … closing` that starts at `position` (after spaces), or None."""
    try:
        token = w.get_token(position, include_brace_chars=[(opening, closing)], environments=False, parsing_state=parsing_state)
    except latexwalker.LatexWalkerEndOfStream:
        return None
    if token.tok != "brace_open" or token.arg != opening:
        return None
    node, start, length = w.get_latex_braced_group(token.pos, brace_type=opening, parsing_state=parsing_state)
    # Tolerant parsing runs an unclosed group to the end of the text: better read no argument.
    return (node, start, length) if w.s[start + length - 1 : start + length] == closing else None


class InputArgsParser(macrospec.MacroStandardArgsParser):  # type: ignore[misc]  # pylatexenc ships no types
    """`\\input{file}`, and TeX's own `\\input file.tex`, whose name ends at a space, `%` or `\\`."""

    def __init__(self) -> None:
        super().__init__(argspec="{")

    def parse_args(self, w: Any, pos: int, parsing_state: Any = None) -> tuple[Any, int, int]:
        parsing_state = parsing_state or w.make_parsing_state()
        bare = None if _delimited(w, pos, "{", "}", parsing_state) else _BARE_FILE_NAME.match(w.s, pos)
        if bare is None:
            braced: _Group = super().parse_args(w, pos, parsing_state)
            return braced
        name = w.make_node(
            latexwalker.LatexCharsNode, parsing_state=parsing_state, chars=bare.group(1), pos=bare.start(1), len=len(bare.group(1))
        )
        return macrospec.ParsedMacroArgs(argspec="{", argnlist=[name]), pos, bare.end(1) - pos


_BARE_FILE_NAME = re.compile(r"[ \t]*([^\s%{}\\]+)")


class EnvironmentDefinitionArgsParser(macrospec.MacroStandardArgsParser):  # type: ignore[misc]  # pylatexenc ships no types
    """`\\newenvironment{name}[count][default]{begin code}{end code}`, the two codes read as raw text: the
    begin code often opens an environment that only the end code closes (`{\\begin{list}…}{\\end{list}}`,
    pandoc's CSLReferences), which parsed as LaTeX would swallow the rest of the document."""

    def __init__(self) -> None:
        super().__init__(argspec="*{[[{{")

    def parse_args(self, w: Any, pos: int, parsing_state: Any = None) -> tuple[Any, int, int]:
        parsing_state = parsing_state or w.make_parsing_state()
        arguments = _Arguments(pos)
        arguments.take("*", _star(w, arguments.position, parsing_state))
        if arguments.take("{", _delimited(w, arguments.position, "{", "}", parsing_state)):
            for _ in range(2):
                arguments.take("[", _delimited(w, arguments.position, "[", "]", parsing_state))
            for _ in range(2):
                arguments.take("{", _raw_group(w, arguments.position, parsing_state))
        return arguments.parsed(pos)


# Spaces and comments before a group: pandoc writes `[2] % #1 hanging-indent` before the begin code.
_SPACE_AND_COMMENTS = re.compile(r"(?:\s|%[^\n]*)*")


def _raw_group(w: Any, position: int, parsing_state: Any) -> _Group | None:
    """The balanced `{…}` at `position` (after spaces and comments) as one chars node of its raw text."""
    start = _SPACE_AND_COMMENTS.match(w.s, position).end()  # type: ignore[union-attr]  # the pattern matches empty text
    if w.s[start : start + 1] != "{":
        return None
    depth, index = 0, start
    while index < len(w.s):
        character = w.s[index]
        if character == "\\":
            index += 2
            continue
        if character == "%":
            index = w.s.find("\n", index)
            if index < 0:
                return None
            continue
        depth += {"{": 1, "}": -1}.get(character, 0)
        index += 1
        if depth == 0:
            inner = w.s[start + 1 : index - 1]
            node = w.make_node(latexwalker.LatexCharsNode, parsing_state=parsing_state, chars=inner, pos=start + 1, len=len(inner))
            return node, start, index - start
    return None


def citation_key_arguments(node: latexwalker.LatexMacroNode) -> list[latexwalker.LatexGroupNode]:
    """The `{keys}` arguments of a citation command (several for biblatex's `\\cites`)."""
    parsed = node.nodeargd
    if parsed is None:
        return []
    return [argument for kind, argument in zip(parsed.argspec, parsed.argnlist) if kind == "{" and argument is not None]


def _build_context() -> macrospec.LatexContextDb:
    # Only the categories we read: the non-ASCII specials category alone
    # makes pylatexenc test dozens of specials at every token.
    default = latexwalker.get_default_latex_context_db()
    context = default.filter_context(keep_categories=["latex-base", "verbatim", "theorems", "enumitem", "natbib"])
    context.add_context_category(
        "auditex",
        prepend=True,
        macros=[
            *(macrospec.MacroSpec(name, args) for name, args in _EXTRA_MACROS.items()),
            macrospec.MacroSpec("input", args_parser=InputArgsParser()),
            *(macrospec.MacroSpec(name, args_parser=EnvironmentDefinitionArgsParser()) for name in ("newenvironment", "renewenvironment")),
            *(macrospec.MacroSpec(name, args_parser=CitationArgsParser(multicite=name in MULTICITE_COMMANDS)) for name in CITE_COMMANDS),
        ],
        environments=[
            macrospec.EnvironmentSpec("tabular", "{"),
            macrospec.EnvironmentSpec("tabular*", "{{"),
            macrospec.EnvironmentSpec("tabularx", "{{"),
            macrospec.EnvironmentSpec("tabulary", "{{"),
            macrospec.EnvironmentSpec("longtable", "[{"),
            macrospec.EnvironmentSpec("array", "[{"),
            macrospec.EnvironmentSpec("deluxetable", "{"),
            macrospec.EnvironmentSpec("deluxetable*", "{"),
            macrospec.EnvironmentSpec("wraptable", "[{{"),
            macrospec.EnvironmentSpec("wrapfigure", "[{[{"),
            macrospec.EnvironmentSpec("subfigure", "[{"),
            macrospec.EnvironmentSpec("subtable", "[{"),
            macrospec.EnvironmentSpec("minipage", "[[[{"),
            macrospec.EnvironmentSpec("NiceTabular", "{"),
            macrospec.EnvironmentSpec("thebibliography", "{"),
            # pandoc's reference list: {hanging indent}{entry spacing}.
            macrospec.EnvironmentSpec("CSLReferences", "{{"),
        ],
    )
    return context


PARSE_CONTEXT = _build_context()
_TEXT_CONTEXT = _text_context_db()
# Escapes and spacing commands, whose latex2text entries are functions.
_ESCAPED_TEXT = {
    "%": "%",
    "$": "$",
    "&": "&",
    "#": "#",
    "_": "_",
    "{": "{",
    "}": "}",
    ",": " ",
    ";": " ",
    ":": " ",
    " ": " ",
    "!": "",
    "\\": " ",
    "quad": " ",
    "qquad": " ",
    # Pandoc writes a text-mode < and > so ("\\(p\\) \\textless{} .001").
    "textless": "<",
    "textgreater": ">",
}
_SPECIAL_TEXT = {"~": " ", "--": "–", "---": "—", "``": "“", "''": "”", "!`": "¡", "?`": "¿", "&": " & "}


def symbol_text(macro_name: str) -> str | None:
    """Unicode text of an argument-less macro (\\alpha → α, \\% → %), if known."""
    if macro_name in _ESCAPED_TEXT:
        return _ESCAPED_TEXT[macro_name]
    spec = _TEXT_CONTEXT.get_macro_spec(macro_name)
    replacement = getattr(spec, "simplify_repl", None)
    # Strings with %-placeholders are templates over arguments, not symbols.
    if isinstance(replacement, str) and "%" not in replacement:
        return replacement
    return None


def specials_text(chars: str) -> str:
    return _SPECIAL_TEXT.get(chars, chars)
