"""What auditex knows about LaTeX commands: argument shapes and roles.

pylatexenc only parses the arguments of macros it knows, so every command
whose arguments matter to us is declared here once.
"""

from __future__ import annotations

from pylatexenc import latexwalker, macrospec
from pylatexenc.latex2text import get_default_latex_context_db as _text_context_db

from .argument_parsers import CitationArgsParser, CommandDefinitionArgsParser, EnvironmentDefinitionArgsParser, InputArgsParser
from .deferred_pattern import DeferredPattern
from .siunitx import SIGNATURES as SIUNITX_SIGNATURES

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


def _names(commands: frozenset[str]) -> str:
    return "|".join(sorted(commands, key=lambda name: (-len(name), name)))


# A reference or citation as a block's plain text keeps it (verbatim), with every argument: its keys, a range's second
# label, a citation's pre- and postnotes ("p.~12") and each list of a multi-citation. Its words and digits are
# identifiers, not prose: `\hyperref[tab:x]{the results}` prints its second argument, so only the label is one.
REFERENCE_COMMAND = DeferredPattern(
    rf"\\(?:(?:{_names(MULTICITE_COMMANDS)})(?:\s*\([^()]*\)){{0,2}}(?:\s*(?:\[[^\]]*\]\s*){{0,2}}\{{[^{{}}]*\}})+"
    rf"|(?:{_names(frozenset({'crefrange', 'Crefrange'}))})\*?\s*\{{[^{{}}]*\}}\s*\{{[^{{}}]*\}}"
    rf"|(?:{_names(REF_COMMANDS | _SINGLE_CITE_COMMANDS)})\*?(?:\s*<[^<>]*>)?(?:\s*\[[^\]]*\]){{0,2}}\s*\{{[^{{}}]*\}}"
    r"|hyperref\[[^\]]*\])"
)
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
    {
        "tabular",
        "tabular*",
        "tabularx",
        "tabulary",
        "longtable",
        "longtable*",
        "supertabular",
        "tblr",
        "talltblr",
        "longtblr",
        "tabu",
        "array",
        "NiceTabular",
    }
)
FIGURE_ENVIRONMENTS = frozenset({"figure", "figure*", "wrapfigure", "subfigure", "SCfigure", "sidewaysfigure"})
# Pictures drawn in the source (a figure's file often holds one alone): a figure's body wherever they stand.
PICTURE_ENVIRONMENTS = frozenset({"tikzpicture", "pspicture", "picture", "circuitikz", "forest"})
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

ABSTRACT_COMMANDS = frozenset({"abstract", "ABSTRACT"})

# Commands whose printed text is one of their mandatory arguments (its position; None: nothing is printed), with their
# signatures: a heading's TeX rather than its PDF bookmark's text, and the edits of the `changes` package as made
# (`\replaced[id=R1]{new}{old}`). The plain text and the LaTeX a model is sent read them alike.
PRINTED_ARGUMENT: dict[str, tuple[str, int | None]] = {
    "texorpdfstring": ("{{", 0),
    "replaced": ("[{{", 0),
    "added": ("[{", 0),
    "deleted": ("[{", None),
}
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
    # front matter: an author's or affiliation's mark is an option (`\author[1]{…}`, authblk's `\affil[2]{…}`)
    "author": "[{",
    "affil": "[{",
    "footnotemark": "[",
    # set-up that prints nothing (plaintext's SILENT_COMMANDS): its arguments are options, colours and column types
    "lstset": "{",
    "newcolumntype": "{[{",
    "tikzset": "{",
    "pgfplotsset": "{",
    "captionsetup": "[{",
    # fractions amsmath adds to \frac: their two arguments are the fraction's (plaintext prints "1/2")
    "dfrac": "{{",
    "tfrac": "{{",
    "cfrac": "[{{",
    # the abstract as a command (`\abstract[Summary]{…}`: Wiley's; `\ABSTRACT{…}`: INFORMS'); `\begin{abstract}` is the environment
    **{name: "[{" for name in ABSTRACT_COMMANDS},
    "documentclass": "[{",
    "usepackage": "[{",
    **{name: spec for name, (spec, _) in PRINTED_ARGUMENT.items()},
    # definitions (newcommand and its kin: CommandDefinitionArgsParser)
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
    "adjustbox": "{{",
    "rotatebox": "[{{",
    "raisebox": "{[[{",
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
    **SIUNITX_SIGNATURES,
    "cmidrule": "[{",
    "cline": "{",
    "hl": "{",
    "ul": "{",
    "uline": "{",
    "underline": "{",
    "href": "[{{",
    "hyperref": "[{",
}


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
            *(macrospec.MacroSpec(name, args_parser=CommandDefinitionArgsParser()) for name in MACRO_DEFINITIONS - {"DeclareMathOperator"}),
            *(macrospec.MacroSpec(name, args_parser=CitationArgsParser(multicite=name in MULTICITE_COMMANDS)) for name in CITE_COMMANDS),
        ],
        environments=[
            # [pos] aligns the tabular with the text around it: `\begin{tabular}[t]{lcc}`.
            macrospec.EnvironmentSpec("tabular", "[{"),
            macrospec.EnvironmentSpec("tabular*", "{[{"),
            macrospec.EnvironmentSpec("tabularx", "{[{"),
            macrospec.EnvironmentSpec("tabulary", "{[{"),
            macrospec.EnvironmentSpec("longtable", "[{"),
            macrospec.EnvironmentSpec("array", "[{"),
            macrospec.EnvironmentSpec("deluxetable", "{"),
            macrospec.EnvironmentSpec("deluxetable*", "{"),
            macrospec.EnvironmentSpec("wraptable", "[{{"),
            macrospec.EnvironmentSpec("wrapfigure", "[{[{"),
            macrospec.EnvironmentSpec("subfigure", "[{"),
            macrospec.EnvironmentSpec("subtable", "[{"),
            macrospec.EnvironmentSpec("minipage", "[[[{"),
            macrospec.EnvironmentSpec("adjustbox", "{"),
            macrospec.EnvironmentSpec("NiceTabular", "{"),
            # tabularray's tables: [outer keys]{inner keys, the column spec among them}.
            *(macrospec.EnvironmentSpec(name, "[{") for name in ("tblr", "talltblr", "longtblr")),
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
    # textcomp's signs, as a table written in text mode sets them ("\\textminus 3.2", "93.4 \\textpm 0.3").
    "textminus": "−",
    "textpm": "±",
    "texttimes": "×",
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
