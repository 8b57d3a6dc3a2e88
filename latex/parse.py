"""Parse one chunk of LaTeX into blocks, headings and semantic facts.

Tolerant by construction: pylatexenc runs in tolerant mode, and anything it
still raises (deep nesting blows the recursion limit) degrades the chunk to
one raw paragraph plus a recorded problem. Parsing never raises.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from functools import cache
from operator import attrgetter
from typing import Any

from pylatexenc import latexwalker as lw

from . import macro_signatures as cmd
from .chunks import unclosed_brace
from .model import (
    Acronym,
    Block,
    BlockKind,
    Heading,
    IncludeSite,
    KeyUse,
    MacroDef,
    Marker,
    StyledText,
)
from .plaintext import InlineRenderer, PlainBuilder, argument_nodes, argument_text, macro_arguments
from .tables import parse_table
from .walker import RunWalker

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
# A listing's label given among its options: `\begin{lstlisting}[caption=…, label={lst:x}]`.
_LISTING_LABEL = re.compile(r"\\begin\s*\{lstlisting\}\s*\[[^\]]*?\blabel\s*=\s*(\{\s*)?(?P<key>[^,{}\]\s][^,{}\]]*?)\s*[,}\]]")
_LABEL_PREFIX_KINDS = {
    "sec": "section",
    "ssec": "section",
    "subsec": "section",
    "chap": "section",
    "ch": "section",
    "app": "section",
    "appendix": "section",
    "fig": "figure",
    "tab": "table",
    "tbl": "table",
    "eq": "equation",
    "eqn": "equation",
    "thm": "theorem",
    "lem": "theorem",
    "lemma": "theorem",
    "prop": "theorem",
    "cor": "theorem",
    "def": "theorem",
    "defn": "theorem",
    "alg": "algorithm",
    "algo": "algorithm",
}
_TRANSPARENT_ENVIRONMENTS = frozenset(
    {
        "center",
        "flushleft",
        "flushright",
        "minipage",
        "small",
        "footnotesize",
        "scriptsize",
        "itemize",
        "enumerate",
        "description",
        "adjustbox",
        "resizebox",
        "landscape",
        "multicols",
        "quote",
        "quotation",
        "spacing",
        "singlespace",
        "onehalfspace",
        "doublespace",
        "frame",
        "subequations",
        "savenotes",
        "threeparttable",
        "tablenotes",
        "sloppypar",
        "frontmatter",
        "mainmatter",
        "backmatter",
        "raggedright",
        "titlepage",
    }
)
_MAX_FLOW_DEPTH = 60
# Commands whose arguments are templates or declarations, not text: keys in them are not uses.
_DEFINING_COMMANDS = cmd.MACRO_DEFINITIONS | cmd.DOCUMENT_COMMAND_DEFINITIONS | {"newenvironment", "renewenvironment", "newtheorem"}


@dataclass(slots=True)
class ParsedChunk:
    """Everything one chunk contributes; offsets relative to the chunk."""

    blocks: list[Block] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    labels: list[KeyUse] = field(default_factory=list)
    refs: list[KeyUse] = field(default_factory=list)
    cites: list[KeyUse] = field(default_factory=list)
    bibitems: list[KeyUse] = field(default_factory=list)
    includes: list[IncludeSite] = field(default_factory=list)
    macros: list[MacroDef] = field(default_factory=list)
    theorem_environments: list[tuple[str, str]] = field(default_factory=list)
    acronyms: list[Acronym] = field(default_factory=list)
    styled: list[StyledText] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    problems: list[tuple[int, int, str, str]] = field(default_factory=list)  # start, end, kind, message
    has_documentclass: bool = False

    def shifted(self, delta: int) -> ParsedChunk:
        """The same facts `delta` characters later.

        Runs on every chunk after an edit, so it skips empty fields and shares what holds no offset;
        the views' source maps are shared too (PlainText.offset).
        """
        if delta == 0:
            return self
        return ParsedChunk(
            *[value if move is None else move(value, delta) if value else [] for move, value in zip(_MOVERS, _FIELD_VALUES(self))]
        )


def _shift_blocks(blocks: list[Block], delta: int) -> list[Block]:
    return [
        Block(
            block.kind,
            block.start + delta,
            block.end + delta,
            block.plain.shifted(delta),
            block.environment,
            block.labels,
            block.table.shifted(delta) if block.table else None,
        )
        for block in blocks
    ]


def _moved(items: list[Any], delta: int) -> list[Any]:
    """Copies of dataclasses (all of one type) with `start` and `end` moved by `delta`.

    dataclasses.replace is three times slower.
    """
    kind: type = type(items[0])
    values_of, start, end = _start_end_layout(kind)
    moved = []
    for item in items:
        values = list(values_of(item))
        values[start] += delta
        values[end] += delta
        moved.append(kind(*values))
    return moved


@cache
def _start_end_layout(kind: type) -> tuple[attrgetter[Any], int, int]:
    """A getter of all fields of a dataclass, and where its start and end are among them."""
    names = [item.name for item in fields(kind)]
    return attrgetter(*names), names.index("start"), names.index("end")


# One per field of ParsedChunk, in order: how to move its value; None shares it (it holds no offset).
_MOVERS: list[Callable[[Any, int], Any] | None] = [
    {
        "blocks": _shift_blocks,
        "markers": lambda markers, delta: [Marker(marker.kind, marker.offset + delta) for marker in markers],
        "problems": lambda problems, delta: [(start + delta, end + delta, kind, message) for start, end, kind, message in problems],
        "theorem_environments": None,
        "has_documentclass": None,
    }.get(item.name, _moved)
    for item in fields(ParsedChunk)
]
_FIELD_VALUES = attrgetter(*[item.name for item in fields(ParsedChunk)])


def parse_chunk(text: str) -> ParsedChunk:
    result = ParsedChunk()
    try:
        walker = RunWalker(text, cmd.PARSE_CONTEXT, tolerant_parsing=True)
        nodes, _, _ = walker.get_latex_nodes()
        chunk_walker = _ChunkWalker(result)
        chunk_walker.flow(nodes)
        chunk_walker.collect_unrendered(nodes)
        for uses in (result.labels, result.refs, result.cites):
            uses.sort(key=attrgetter("start"))
        _collect_declarations(nodes, result)
    except (RecursionError, lw.LatexWalkerError, IndexError, ValueError, AttributeError, TypeError) as error:
        # Keep whatever text there is: nothing is lost, and the author is told.
        result = ParsedChunk()
        builder = PlainBuilder()
        builder.add(text, 0, len(text))
        result.blocks.append(Block(BlockKind.PARAGRAPH, 0, len(text), builder.build()))
        reason = "it is nested too deeply" if isinstance(error, RecursionError) else f"of {type(error).__name__}"
        result.problems.append(
            (0, min(len(text), 200), "unparsable", f"this passage could not be parsed because {reason}; it is read as plain text")
        )
    unclosed = unclosed_brace(text)
    if unclosed is not None:
        # The author's slip, not the parser's: TeX itself stops with "\\end occurred inside a group".
        result.problems.append(
            (unclosed, unclosed + 1, "unbalanced", "this `{` is never closed, so everything after it is read as one group")
        )
    result.blocks.sort(key=lambda block: block.start)
    return result


class _ChunkWalker:
    def __init__(self, result: ParsedChunk) -> None:
        self.result = result
        self.renderer = InlineRenderer(on_macro=self._inline_macro)
        self.paragraph: PlainBuilder | None = None
        self.paragraph_start = 0
        self.paragraph_end = 0
        self.paragraph_labels: list[str] = []
        self.environments: list[str] = []
        self.depth = 0
        self.after_heading = False
        self.keyed_nodes: set[int] = set()  # ids of the \label, \ref and \cite nodes already collected
        self.definition_bodies: set[int] = set()  # ids of \def bodies: templates, not uses

    # Flow: top-level material that forms blocks.

    def flow(self, nodes: list[lw.LatexNode]) -> None:
        self.depth += 1
        if self.depth > _MAX_FLOW_DEPTH:
            raise RecursionError("environments nested too deeply")
        index = 0
        while index < len(nodes):
            node = nodes[index]
            if isinstance(node, lw.LatexCharsNode):
                self._flow_chars(node)
            elif isinstance(node, lw.LatexCommentNode):
                pass
            elif isinstance(node, lw.LatexMathNode) and node.displaytype == "display":
                self.flush()
                self._block(BlockKind.MATH, node, node.nodelist)
            elif isinstance(node, lw.LatexEnvironmentNode):
                self._flow_environment(node)
            elif isinstance(node, lw.LatexMacroNode) and node.macroname in cmd.TEX_DEFINITIONS:
                index = self._tex_definition(node, nodes, index)

            elif isinstance(node, lw.LatexMacroNode) and node.macroname == "label" and self.paragraph is None:
                self._collect(node)  # a label after a heading belongs to the section
            elif not (isinstance(node, lw.LatexMacroNode) and self._flow_macro(node)):
                self._inline(node)
            index += 1
        self.flush()
        self.depth -= 1

    def _flow_chars(self, node: lw.LatexCharsNode) -> None:
        position = 0
        for blank in _BLANK_LINE.finditer(node.chars):
            self._inline_text(node.chars[position : blank.start()], node.pos + position)
            self.flush()
            position = blank.end()
        self._inline_text(node.chars[position:], node.pos + position)

    def _inline_text(self, chars: str, start: int) -> None:
        if not chars.strip():
            if self.paragraph is not None:
                self.paragraph.add(chars, start, start + len(chars))
            return
        self._ensure_paragraph(start).add(chars, start, start + len(chars))
        self.paragraph_end = start + len(chars)

    def _ensure_paragraph(self, start: int) -> PlainBuilder:
        if self.paragraph is None:
            self.paragraph = PlainBuilder()
            self.paragraph_start = start
            self.paragraph_labels = []
        return self.paragraph

    def _inline(self, node: lw.LatexNode) -> None:
        self.renderer.render_node(node, self._ensure_paragraph(node.pos))
        self.paragraph_end = max(self.paragraph_end, node.pos + node.len)

    def flush(self) -> None:
        paragraph = self.paragraph
        self.paragraph = None
        if paragraph is None:
            return
        plain = paragraph.build()
        if plain.text.strip():
            environment = self.environments[-1] if self.environments else None
            kind = BlockKind.THEOREM if environment in cmd.THEOREM_ENVIRONMENTS else BlockKind.PARAGRAPH
            self.result.blocks.append(Block(kind, self.paragraph_start, self.paragraph_end, plain, environment, self.paragraph_labels))
            self.after_heading = False

    def _block(self, kind: BlockKind, node: lw.LatexNode, content: list[lw.LatexNode], environment: str | None = None) -> Block:
        builder = PlainBuilder()
        labels_before = len(self.result.labels)
        self.renderer.render(content, builder)
        block = Block(
            kind, node.pos, node.pos + node.len, builder.build(), environment, [label.key for label in self.result.labels[labels_before:]]
        )
        self.result.blocks.append(block)
        self.after_heading = False
        return block

    def _flow_environment(self, node: lw.LatexEnvironmentNode) -> None:
        name = node.environmentname.strip()
        start, end = node.pos, node.pos + node.len
        if name == "document":
            self.flush()
            self.result.markers.append(Marker("begin_document", start))
            self.flow(node.nodelist)
            self.result.markers.append(Marker("end_document", end))
            return
        if name in cmd.CODE_ENVIRONMENTS:
            self.flush()
            listing_label = _LISTING_LABEL.match(node.latex_verbatim())
            if listing_label:
                self.result.labels.append(
                    KeyUse("label", listing_label["key"], start + listing_label.start("key"), start + listing_label.end("key"), "listing")
                )
            builder = PlainBuilder()
            builder.add(node.latex_verbatim(), start, end)
            self.result.blocks.append(Block(BlockKind.CODE, start, end, builder.build(), name))
            return
        if name == "abstract":
            self.flush()
            self.result.headings.append(Heading(2, "Abstract", True, start, start + len("\\begin{abstract}")))
            self._flow_inside(name, node)
            self.result.markers.append(Marker("end_abstract", end))
            return
        if name in ("thebibliography", "CSLReferences"):
            self.flush()
            self.result.markers.append(Marker("thebibliography", start))
            self._collect_within(node.nodelist)
            return
        if name in cmd.MATH_ENVIRONMENTS:
            self.flush()
            self._with_environment(name, lambda: self._block(BlockKind.MATH, node, node.nodelist, name))
            return
        if name in cmd.FLOAT_TABLE_ENVIRONMENTS or name in cmd.TABULAR_ENVIRONMENTS:
            self.flush()
            self._with_environment(name, lambda: self._table(node, name))
            return
        if name in cmd.FIGURE_ENVIRONMENTS:
            self.flush()
            self._with_environment(name, lambda: self._float(node, name, BlockKind.FIGURE))
            return
        if name in cmd.ALGORITHM_ENVIRONMENTS:
            self.flush()
            self._with_environment(name, lambda: self._float(node, name, BlockKind.ALGORITHM))
            return
        if name in ("comment",):
            return
        # Theorem-like and unknown environments keep their name, so that
        # environments declared with \newtheorem elsewhere can be recognised.
        self.flush()
        self._flow_inside(name, node)

    def _flow_inside(self, name: str, node: lw.LatexEnvironmentNode) -> None:
        transparent = name in _TRANSPARENT_ENVIRONMENTS
        if not transparent:
            self.environments.append(name)
        try:
            self.flow(node.nodelist)
        finally:
            if not transparent:
                self.environments.pop()

    def _with_environment(self, name: str, action: Callable[[], object]) -> None:
        self.environments.append(name)
        try:
            action()
        finally:
            self.environments.pop()

    def _float(self, node: lw.LatexEnvironmentNode, name: str, kind: BlockKind) -> Block:
        body, captions = _split_captions(node.nodelist)
        block = self._block(kind, node, body, name)
        for caption in captions:
            caption_block = self._block(BlockKind.CAPTION, caption, argument_nodes(_caption_argument(caption)), name)
            block.labels.extend(caption_block.labels)
        return block

    def _table(self, node: lw.LatexEnvironmentNode, name: str) -> None:
        block = self._float(node, name, BlockKind.TABLE)
        captions = [b for b in self.result.blocks if b.kind is BlockKind.CAPTION and node.pos <= b.start < node.pos + node.len]
        caption = captions[0].plain.text if captions else _nested_caption(node.nodelist)
        # A plain renderer: the cells' facts were collected when the body was rendered.
        block.table = parse_table(node, InlineRenderer(), caption=caption, label=block.labels[0] if block.labels else None)

    # Macros seen in flow; returns True when fully handled.

    def _flow_macro(self, node: lw.LatexMacroNode) -> bool:
        name: str = node.macroname
        if name in cmd.SECTION_LEVELS:
            self.flush()
            self._heading(node)
            return True
        if name in cmd.INCLUDE_COMMANDS or name in cmd.BIB_COMMANDS:
            self.flush()
            self._collect(node)
            return True
        if name == "appendix":
            self.flush()
            self.result.markers.append(Marker("appendix", node.pos))
            return True
        if name in ("par", "item", "bibitem"):
            self.flush()
            if name == "bibitem":
                self._collect(node)
            return name != "item"
        return False

    def _heading(self, node: lw.LatexMacroNode) -> None:
        arguments = macro_arguments(node)
        starred = bool(arguments and arguments[0] is not None)
        title_node = arguments[-1] if arguments else None
        if not (isinstance(title_node, lw.LatexGroupNode) and title_node.delimiters[0] == "{"):
            return  # \let\origsection\section and friends: not a heading
        builder = PlainBuilder()
        self.renderer.render(argument_nodes(title_node), builder)
        self.result.headings.append(
            Heading(cmd.SECTION_LEVELS[node.macroname], builder.build().text, starred, node.pos, node.pos + node.len)
        )
        self.after_heading = True

    # Every macro anywhere passes through here (inline renderer callback).

    def _inline_macro(self, node: lw.LatexMacroNode, out: PlainBuilder) -> bool:
        name: str = node.macroname
        if name in ("footnote", "footnotetext"):
            arguments = macro_arguments(node)
            self._block(BlockKind.FOOTNOTE, node, argument_nodes(arguments[-1] if arguments else None), name)
            return True
        if name in ("color", "fontsize", "transparent") or name in cmd.SECTION_LEVELS:
            return True  # declarations are collected by _collect_declarations
        if name in cmd.STYLE_COMMANDS:
            self._styled(node)
            return False
        return self._collect(node)

    def _collect(self, node: lw.LatexMacroNode) -> bool:
        """Record the facts a macro carries; True when it renders as nothing."""
        name: str = node.macroname
        arguments = macro_arguments(node)
        if name == "label" or name in cmd.REF_COMMANDS or name in cmd.CITE_COMMANDS:
            if id(node) in self.keyed_nodes:
                return name == "label"
            self.keyed_nodes.add(id(node))
        if name == "label":
            for key, start, end in _keys(arguments[-1] if arguments else None, listed=False):
                self.result.labels.append(KeyUse(name, key, start, end, self._label_kind(key)))
                if self.paragraph is not None:
                    self.paragraph_labels.append(key)
            return True
        if name in cmd.REF_COMMANDS:
            for argument in arguments:
                if isinstance(argument, lw.LatexGroupNode):
                    listed = name in cmd.LIST_REF_COMMANDS
                    self.result.refs.extend(KeyUse(name, key, start, end) for key, start, end in _keys(argument, listed))
            return False
        if name in cmd.CITE_COMMANDS:
            for keys in cmd.citation_key_arguments(node):
                # "#1" is a parameter of a definition (pandoc's `\\citeproc` is `\\cite{#1}`), not a key.
                self.result.cites.extend(KeyUse(name, key, start, end) for key, start, end in _keys(keys) if "#" not in key)
            return False
        if name == "bibitem":
            self.result.bibitems.extend(KeyUse(name, key, start, end) for key, start, end in _keys(arguments[-1] if arguments else None))
            return True
        if name in cmd.INCLUDE_COMMANDS:
            self._include(node, arguments)
            return True
        if name in cmd.FILE_READING_COMMANDS:
            target_node = arguments[-1] if arguments else None
            target = argument_text(target_node).strip() if target_node is not None else ""
            # A macro body's `#1`, or a macro (`\includegraphics{\halftorus}`), names no file auditex can know.
            if target_node is not None and target and "#" not in target and not _MACRO_IN_PATH.search(target):
                start, end = _inner_span(target_node)
                self.result.includes.append(IncludeSite(name, target, start, end, "file"))
            return True
        if name in cmd.BIB_COMMANDS:
            for key, start, end in _keys(arguments[-1] if arguments else None):
                self.result.includes.append(IncludeSite(name, key, start, end, "bib"))
            if name == "bibliography":
                self.result.markers.append(Marker("bibliography", node.pos))
            return True
        if name in cmd.MACRO_DEFINITIONS:
            self._macro_definition(node, arguments)
            return True
        if name == "newtheorem":
            environment = argument_text(arguments[1] if len(arguments) > 1 else None).strip()
            title = argument_text(arguments[3] if len(arguments) > 3 else None).strip()
            if environment:
                self.result.theorem_environments.append((environment, title))
            return True
        if name in cmd.ACRONYM_COMMANDS:
            self._acronym(node, arguments)
            return True
        if name == "documentclass":
            self.result.has_documentclass = True
            # A class the project ships may define commands (labels set through `label={#5}`).
            for document_class, start, end in _keys(arguments[-1] if arguments else None):
                self.result.includes.append(IncludeSite(name, document_class, start, end, "class"))
            return True
        if name == "usepackage":
            # A package of the project's own may load the bibliography (\addbibresource in a .sty).
            for package, start, end in _keys(arguments[-1] if arguments else None):
                self.result.includes.append(IncludeSite(name, package, start, end, "package"))
            return True
        return name in ("newenvironment", "renewenvironment") or name in cmd.DOCUMENT_COMMAND_DEFINITIONS

    def collect_unrendered(self, nodes: list[lw.LatexNode]) -> None:
        """Collect the labels, references and citations the flow did not render, wherever the parser put
        them: optional arguments (`\\section[short]{…}`, `\\caption[…]`, `\\item[…]`), the arguments of
        environments (`\\begin{proof}[Proof of \\cref{…}]`) and of commands rendered in part.

        Definitions (`\\newcommand`, `\\def`) hold templates, and code and comments hold no LaTeX.
        """
        self.after_heading = False
        for node in nodes:
            if node is None or id(node) in self.definition_bodies:
                continue
            if isinstance(node, lw.LatexMacroNode):
                name = node.macroname
                if name == "label" or name in cmd.REF_COMMANDS or name in cmd.CITE_COMMANDS:
                    self._collect(node)
                    if name in cmd.CITE_COMMANDS:
                        keys = {id(argument) for argument in cmd.citation_key_arguments(node)}
                        self.collect_unrendered([a for a in macro_arguments(node) if id(a) not in keys])  # notes: `[see \ref{…}]`
                elif name not in _DEFINING_COMMANDS:
                    self.collect_unrendered(macro_arguments(node))
            elif isinstance(node, lw.LatexEnvironmentNode):
                name = node.environmentname.strip()
                if name not in cmd.CODE_ENVIRONMENTS:
                    self.environments.append(name)
                    self.collect_unrendered(macro_arguments(node))
                    self.collect_unrendered(node.nodelist)
                    self.environments.pop()
            elif isinstance(node, (lw.LatexGroupNode, lw.LatexMathNode)):
                self.collect_unrendered(node.nodelist)

    def _collect_within(self, nodes: list[lw.LatexNode]) -> None:
        """Visit nodes for facts only (bibliography lists)."""
        for index, node in enumerate(nodes):
            if isinstance(node, lw.LatexMacroNode) and node.macroname == "hypertarget":
                # Older pandoc's entries (`\\vadjust pre{\\hypertarget{ref-key}{}}`) are named by their anchor.
                following = nodes[index + 1] if index + 1 < len(nodes) else None
                anchor = following if isinstance(following, lw.LatexGroupNode) else None
                self.result.bibitems.extend(KeyUse("hypertarget", key, start, end) for key, start, end in _keys(anchor, listed=False))
            elif isinstance(node, lw.LatexMacroNode):
                self._collect(node)
            elif isinstance(node, (lw.LatexGroupNode, lw.LatexEnvironmentNode)):
                self._collect_within(node.nodelist)

    def _label_kind(self, key: str) -> str:
        for environment in reversed(self.environments):
            if environment in cmd.FLOAT_TABLE_ENVIRONMENTS or environment in cmd.TABULAR_ENVIRONMENTS:
                return "table"
            if environment in cmd.FIGURE_ENVIRONMENTS:
                return "figure"
            if environment in cmd.MATH_ENVIRONMENTS:
                return "equation"
            if environment in cmd.ALGORITHM_ENVIRONMENTS:
                return "algorithm"
            if environment in cmd.THEOREM_ENVIRONMENTS:
                return "theorem"
        prefix = key.split(":", 1)[0].lower() if ":" in key else ""
        if prefix in _LABEL_PREFIX_KINDS:
            return _LABEL_PREFIX_KINDS[prefix]
        if self.after_heading:
            return "section"
        if self.environments:
            return "theorem"  # an unknown named environment is usually theorem-like
        return "other"

    def _include(self, node: lw.LatexMacroNode, arguments: list[lw.LatexNode | None]) -> None:
        name: str = node.macroname
        groups = [argument for argument in arguments if isinstance(argument, (lw.LatexGroupNode, lw.LatexCharsNode))]
        if not groups:
            return
        target_node = groups[-1]  # a bare name for TeX's `\input file.tex`
        base_dir = argument_text(groups[0]).strip() if len(groups) > 1 else ""
        target = argument_text(target_node).strip()
        if target:
            start, end = _inner_span(target_node)
            self.result.includes.append(IncludeSite(name, target, start, end, "tex", base_dir))

    def _macro_definition(self, node: lw.LatexMacroNode, arguments: list[lw.LatexNode | None]) -> None:
        groups = [argument for argument in arguments if argument is not None]
        if len(groups) < 2:
            return
        name_node = arguments[1]
        name = argument_text(name_node).strip()
        count = 0
        if node.macroname != "DeclareMathOperator" and len(arguments) > 2 and arguments[2] is not None:
            digits = argument_text(arguments[2]).strip()
            count = int(digits) if digits.isdigit() else 0
        body = argument_text(arguments[-1])
        # newcommand's arguments: *, name, [count], [default of an optional #1], body
        optional = argument_text(arguments[3]) if count and len(arguments) > 4 and arguments[3] is not None else None
        if name.startswith("\\"):
            self.result.macros.append(MacroDef(node.macroname, name, count, body, node.pos, node.pos + node.len, optional=optional))
        self._bibliographies_within(argument_nodes(arguments[-1]))

    def _bibliographies_within(self, nodes: list[lw.LatexNode]) -> None:
        """\\newcommand{\\refs}{\\bibliography{refs}}: the files a macro body names are the project's too."""
        for node in nodes:
            if isinstance(node, lw.LatexMacroNode) and node.macroname in cmd.BIB_COMMANDS:
                arguments = macro_arguments(node)
                self.result.includes.extend(
                    IncludeSite(node.macroname, key, start, end, "bib")
                    for key, start, end in _keys(arguments[-1] if arguments else None)
                    if "#" not in key
                )
            elif isinstance(node, (lw.LatexGroupNode, lw.LatexEnvironmentNode)):
                self._bibliographies_within(node.nodelist)

    def _tex_definition(self, node: lw.LatexMacroNode, siblings: list[lw.LatexNode], index: int) -> int:
        """\\def\\name#1#2{body}: pylatexenc sees a macro, parameter text and a group.

        Returns the index of the last sibling the definition consumed.
        """
        if index + 1 >= len(siblings) or not isinstance(siblings[index + 1], lw.LatexMacroNode):
            return index
        name_node = siblings[index + 1]
        for position in range(index + 2, min(index + 6, len(siblings))):
            following = siblings[position]
            if isinstance(following, lw.LatexGroupNode):
                self.definition_bodies.add(id(following))
                parameters = "".join(n.latex_verbatim() for n in siblings[index + 2 : position])
                self.result.macros.append(
                    MacroDef(
                        node.macroname,
                        "\\" + name_node.macroname,
                        parameters.count("#"),
                        argument_text(following),
                        node.pos,
                        following.pos + following.len,
                    )
                )
                return position
        return index + 1

    def _acronym(self, node: lw.LatexMacroNode, arguments: list[lw.LatexNode | None]) -> None:
        texts = [argument_text(argument).strip() for argument in arguments if isinstance(argument, lw.LatexGroupNode)]
        if node.macroname == "DeclareAcronym" and len(texts) >= 2:
            options = dict(part.split("=", 1) for part in re.split(r",\s*(?![^{}]*\})", texts[1]) if "=" in part)
            short = options.get("short", "").strip(" {}")
            long = options.get("long", "").strip(" {}")
        elif node.macroname == "newacronym" and len(texts) >= 3:
            short, long = texts[1], texts[2]
        elif len(texts) >= 2:
            optional = [argument_text(a).strip() for a in arguments if a is not None and not isinstance(a, lw.LatexGroupNode)]
            short, long = (optional[0] if optional else texts[0]), texts[-1]
        else:
            return
        if short and long:
            self.result.acronyms.append(Acronym(short, long, node.pos, node.pos + node.len, node.macroname))

    def _styled(self, node: lw.LatexMacroNode) -> None:
        arguments = macro_arguments(node)
        groups = [argument for argument in arguments if isinstance(argument, lw.LatexGroupNode)]
        name: str = node.macroname
        if name in ("phantom", "hphantom", "vphantom"):
            style, content = name, groups[-1] if groups else None
        elif name in ("textcolor", "colorbox", "texttransparent", "fontsize", "scalebox", "resizebox"):
            style, content = argument_text(groups[0]).strip() if groups else "", groups[-1] if len(groups) > 1 else None
        else:
            return
        builder = PlainBuilder()
        InlineRenderer().render(argument_nodes(content), builder)
        text = builder.build().text
        if text.strip():
            self.result.styled.append(StyledText(name, style, text, node.pos, node.pos + node.len))


def _split_captions(nodes: list[lw.LatexNode]) -> tuple[list[lw.LatexNode], list[lw.LatexMacroNode]]:
    body: list[lw.LatexNode] = []
    captions: list[lw.LatexMacroNode] = []
    for node in nodes:
        if isinstance(node, lw.LatexMacroNode) and node.macroname in ("caption", "captionof", "tablecaption"):
            captions.append(node)
        else:
            body.append(node)
    return body, captions


def _nested_caption(nodes: list[lw.LatexNode]) -> str | None:
    """The plain text of a caption written inside a group or a minipage of the float, which the
    float's own captions do not hold: what a table's caption says about its columns."""
    for node in nodes:
        if isinstance(node, lw.LatexMacroNode) and node.macroname in ("caption", "captionof", "tablecaption"):
            out = PlainBuilder()
            InlineRenderer().render(argument_nodes(_caption_argument(node)), out)
            return out.build().text
        if isinstance(node, (lw.LatexGroupNode, lw.LatexEnvironmentNode)) and node.nodelist:
            found = _nested_caption(node.nodelist)
            if found is not None:
                return found
    return None


def _caption_argument(node: lw.LatexMacroNode) -> lw.LatexNode | None:
    arguments = macro_arguments(node)
    return arguments[-1] if arguments else None


_MACRO_IN_PATH = re.compile(r"\\[A-Za-z@]")


def _inner_span(group: lw.LatexNode) -> tuple[int, int]:
    if isinstance(group, lw.LatexGroupNode) and group.len >= 2:
        return group.pos + 1, group.pos + group.len - 1
    return group.pos, group.pos + group.len


def _keys(group: lw.LatexNode | None, listed: bool = True) -> list[tuple[str, int, int]]:
    """Comma-separated keys of an argument with the span of each key; one key, commas and all, where
    the command takes one (`\\label{lem:S(h,K)}`, `\\ref{…}`: only cleveref's commands take lists)."""
    if group is None:
        return []
    inner_start, _ = _inner_span(group)
    raw = argument_text(group)
    keys = []
    for match in re.finditer(r"[^,\s][^,]*" if listed else r"\S(?:.*\S)?", raw, re.S):
        key = match.group(0).rstrip()
        if key:
            keys.append((key, inner_start + match.start(), inner_start + match.start() + len(key)))
    return keys


def _collect_declarations(nodes: list[lw.LatexNode], result: ParsedChunk) -> None:
    """\\color{white} or \\fontsize{..}{..}\\selectfont style the rest of their group."""
    for index, node in enumerate(nodes):
        if isinstance(node, lw.LatexMacroNode):
            if node.macroname in ("color", "fontsize", "transparent") and index + 1 < len(nodes):
                groups = [a for a in macro_arguments(node) if isinstance(a, lw.LatexGroupNode)]
                builder = PlainBuilder()
                InlineRenderer().render(nodes[index + 1 :], builder)
                text = builder.build().text
                if text.strip():
                    style = argument_text(groups[0]).strip() if groups else ""
                    last = nodes[-1]
                    result.styled.append(StyledText(node.macroname, style, text, node.pos, last.pos + last.len))
            for argument in macro_arguments(node):
                if isinstance(argument, lw.LatexGroupNode):
                    _collect_declarations(argument.nodelist, result)
        elif isinstance(node, (lw.LatexGroupNode, lw.LatexEnvironmentNode, lw.LatexMathNode)):
            _collect_declarations(node.nodelist, result)
