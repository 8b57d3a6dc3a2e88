"""Parse one chunk of LaTeX into blocks, headings and semantic facts.

Tolerant by construction: pylatexenc runs in tolerant mode, and anything it
still raises (deep nesting blows the recursion limit) degrades the chunk to
one raw paragraph plus a recorded problem. Parsing never raises.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from pylatexenc import latexwalker as lw

from . import macro_signatures as cmd
from .chunk_facts import FactCollector, collect_declarations
from .chunks import brace_slips
from .deferred_pattern import DeferredPattern
from .model import Block, BlockKind, Heading, KeyUse, Marker, PlainText, Table
from .parsed_chunk import ParsedChunk
from .plaintext import InlineRenderer, PlainBuilder, argument_nodes, argument_text, macro_arguments, printed_chars
from .plot_data import plotted_tables
from .tables import parse_table, tabulars
from .walker import RunWalker

_BLANK_LINE = DeferredPattern(r"\n[ \t]*\n")
# A listing's label given among its options: `\begin{lstlisting}[caption=…, label={lst:x}]`.
_LISTING_LABEL = DeferredPattern(r"\\begin\s*\{lstlisting\}\s*\[[^\]]*?\blabel\s*=\s*(\{\s*)?(?P<key>[^,{}\]\s][^,{}\]]*?)\s*[,}\]]")
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
_TABLES = cmd.FLOAT_TABLE_ENVIRONMENTS | cmd.TABULAR_ENVIRONMENTS
_DEFINITIONS = cmd.MACRO_DEFINITIONS | cmd.DOCUMENT_COMMAND_DEFINITIONS | {"newenvironment", "renewenvironment"}
_PAGE_MATERIAL = _TABLES | {"abstract"}


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
        collect_declarations(nodes, result)
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
    # The author's slips, not the parser's: TeX itself stops at them.
    result.problems.extend((offset, offset + 1, "unbalanced", message) for offset, message in brace_slips(text))
    result.blocks.sort(key=lambda block: block.start)
    return result


class _ChunkWalker(FactCollector):
    """Forms the chunk's blocks and headings, collecting the facts of what it meets on the way."""

    def __init__(self, result: ParsedChunk) -> None:
        super().__init__(result)
        self.renderer = InlineRenderer(on_macro=self._inline_macro)
        self.paragraph_start = 0
        self.paragraph_end = 0
        self.depth = 0
        # The captions a float sets within its columns or groups, while its body renders: their own blocks hold them.
        self.captions_apart: frozenset[int] = frozenset()

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
            elif isinstance(node, lw.LatexGroupNode) and (_holds(node.nodelist, _PAGE_MATERIAL) or _holds_heading(node.nodelist)):
                # A table, the abstract or a heading in the argument of a macro the parser does not know (the
                # author's `\revised{…}{R2-3}`, IEEEtran's `\IEEEtitleabstractindextext{…}`, pandoc's
                # `\hypertarget{id}{\section{…}}`): material of the page, not a phrase.
                self.flush()
                self.flow(node.nodelist)
            elif isinstance(node, lw.LatexMacroNode) and node.macroname == "hypertarget" and _group_at(nodes, index + 1):
                index += 1  # hyperref prints a target's text, never its name
            elif isinstance(node, lw.LatexMacroNode) and node.macroname in cmd.TEX_DEFINITIONS:
                index = self.tex_definition(node, nodes, index)
            elif isinstance(node, lw.LatexMacroNode) and _boxed_tables(node):
                # A box around a tabular outside a float (`\resizebox{\linewidth}{!}{…}` in the file of
                # rows a float inputs): the page's material, as the tabular alone would be.
                self.flush()
                for boxed in _boxed_tables(node):
                    self.flow(boxed)

            elif isinstance(node, lw.LatexMacroNode) and node.macroname == "label" and self.paragraph is None:
                self.collect(node)  # a label after a heading belongs to the section
            elif not (isinstance(node, lw.LatexMacroNode) and self._flow_macro(node)):
                self._inline(node)
            index += 1
        self.flush()
        self.depth -= 1

    def _flow_chars(self, node: lw.LatexCharsNode) -> None:
        position = 0
        chars = printed_chars(node.chars)
        for blank in _BLANK_LINE.finditer(chars):
            self._inline_text(chars[position : blank.start()], node.pos + position)
            self.flush()
            position = blank.end()
        self._inline_text(chars[position:], node.pos + position)

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
            self._abstract(start, start + len("\\begin{abstract}"), lambda: self._flow_inside(name, node), end)
            return
        if name in ("thebibliography", "CSLReferences"):
            self.flush()
            self.result.markers.append(Marker("thebibliography", start))
            self.collect_within(node.nodelist)
            self.result.markers.append(Marker("end_thebibliography", end))
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
            self._with_environment(name, lambda: self._tables_of(node, self._float(node, name, BlockKind.FIGURE)))
            return
        if name in cmd.ALGORITHM_ENVIRONMENTS:
            self.flush()
            self._with_environment(name, lambda: self._tables_of(node, self._float(node, name, BlockKind.ALGORITHM)))
            return
        if name in ("comment",):
            return
        if name == "tikzpicture" and "\\addplot" in node.latex_verbatim():  # a plot outside a float: a file a figure reads
            for plotted in plotted_tables(node.parsing_state.s, start, end):
                self._table_block(plotted)
        if name in cmd.PICTURE_ENVIRONMENTS:  # drawn, not written: its coordinates and options are no prose
            self.flush()
            self._with_environment(name, lambda: self._block(BlockKind.FIGURE, node, node.nodelist, name))
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

    def _abstract(self, start: int, head_end: int, flow_text: Callable[[], object], end: int) -> None:
        """The abstract, as an environment or a command: a section of its own, up to `end`."""
        self.flush()
        self.result.headings.append(Heading(2, "Abstract", True, start, head_end))
        flow_text()
        self.result.markers.append(Marker("end_abstract", end))

    def _with_environment(self, name: str, action: Callable[[], object]) -> None:
        self.environments.append(name)
        try:
            action()
        finally:
            self.environments.pop()

    def _float(self, node: lw.LatexEnvironmentNode, name: str, kind: BlockKind) -> Block:
        body, captions = _split_captions(node.nodelist)
        self.captions_apart = frozenset(map(id, captions))
        try:
            block = self._block(kind, node, body, name)
        finally:
            self.captions_apart = frozenset()
        caption_blocks = [self._block(BlockKind.CAPTION, caption, argument_nodes(_caption_argument(caption)), name) for caption in captions]
        for caption_block in caption_blocks:
            block.labels.extend(caption_block.labels)
        for caption_block in caption_blocks:
            caption_block.describes = block.labels
        return block

    def _table(self, node: lw.LatexEnvironmentNode, name: str) -> None:
        self._tables_of(node, self._float(node, name, BlockKind.TABLE))

    def _tables_of(self, node: lw.LatexEnvironmentNode, block: Block) -> None:
        """Each tabular of a float as a table, captioned and labelled by its subfloat or else by the float.
        A table float's own block holds its first table; any other gets a block of its own, without text
        (the float's block holds it) and named after its tabular, so that no rule counts it as a float.
        In a figure, a tabular without a row of numbers only lays out its panels."""
        captions = [b for b in self.result.blocks if b.kind is BlockKind.CAPTION and node.pos <= b.start < node.pos + node.len]
        caption = captions[0].plain.text if captions else _nested_caption(node.nodelist)
        label = block.labels[0] if block.labels else None
        for tabular, subfloat in tabulars(node):
            own_caption = _subfloat_caption(subfloat) if subfloat is not None and subfloat is not node else None
            table_caption = own_caption or caption
            table_label = (self._label_within(subfloat) if own_caption is not None else None) or label
            if block.kind is BlockKind.TABLE and block.table is None:
                # A plain renderer: the cells' facts were collected when the body was rendered.
                block.table = parse_table(node, tabular, InlineRenderer(), table_caption, table_label)
                continue
            table = parse_table(tabular, tabular, InlineRenderer(), table_caption, table_label)
            if table is not None and (block.kind is BlockKind.TABLE or _holds_numbers(table)):
                self._table_block(table)
        source, end = node.parsing_state.s, node.pos + node.len
        if block.kind is BlockKind.FIGURE and "\\addplot" in source[node.pos : end]:
            for plotted in plotted_tables(source, node.pos, end):
                plotted.caption, plotted.label = caption, label
                self._table_block(plotted)

    def _table_block(self, table: Table) -> None:
        """A block of its own for a table the float's block does not hold."""
        labels = [table.label] if table.label else []
        self.result.blocks.append(Block(BlockKind.TABLE, table.start, table.end, PlainText("", []), table.environment, labels, table))

    def _label_within(self, node: lw.LatexNode | None) -> str | None:
        if node is None:
            return None
        return next((use.key for use in self.result.labels if node.pos <= use.start < node.pos + node.len), None)

    # Macros seen in flow; returns True when fully handled.

    def _flow_macro(self, node: lw.LatexMacroNode) -> bool:
        name: str = node.macroname
        if name in cmd.SECTION_LEVELS:
            self.flush()
            self._heading(node)
            return True
        if name in cmd.INCLUDE_COMMANDS or name in cmd.BIB_COMMANDS:
            self.flush()
            self.collect(node)
            return True
        if name == "appendix":
            self.flush()
            self.result.markers.append(Marker("appendix", node.pos))
            return True
        if name in cmd.ABSTRACT_COMMANDS:  # the abstract as a command (`\abstract{…}`: papaja, jss, many journal classes)
            arguments = macro_arguments(node)
            text = arguments[-1] if arguments else None
            if not (isinstance(text, lw.LatexGroupNode) and text.delimiters[0] == "{"):
                return False
            end = node.pos + node.len
            self._abstract(node.pos, text.pos + 1, lambda: self._with_environment("abstract", lambda: self.flow(text.nodelist)), end)
            return True
        if name == "captionof":  # set outside a float (a `center` around a longtable): a caption of its counter, not prose
            self.flush()
            counter = argument_text(next(iter(macro_arguments(node)[1:2]), None)).strip()
            caption = self._block(BlockKind.CAPTION, node, argument_nodes(_caption_argument(node)), counter or None)
            caption.describes = caption.labels
            return True
        if name in ("par", "item", "bibitem"):
            self.flush()
            if name == "bibitem":
                self.collect(node)
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
        if id(node) in self.captions_apart:
            return True
        if name in ("footnote", "footnotetext"):
            arguments = macro_arguments(node)
            self._block(BlockKind.FOOTNOTE, node, argument_nodes(arguments[-1] if arguments else None), name)
            return True
        if name in ("color", "fontsize", "transparent") or name in cmd.SECTION_LEVELS:
            return True  # declarations are collected by collect_declarations
        if name in cmd.STYLE_COMMANDS:
            self.styled(node)
            return False
        return self.collect(node)


def _holds_numbers(table: Table) -> bool:
    """A row of two numbers or more: data, not panels ("\\rotatebox{90}{…}" reads as one number)."""
    return any(sum(1 for cell in row if cell.value is not None) >= 2 for row in table.rows)


def _holds_table(nodes: list[lw.LatexNode]) -> bool:
    return _holds(nodes, _TABLES)


def _holds_heading(nodes: list[lw.LatexNode]) -> bool:
    """Whether `nodes` hold a sectioning command, within groups too."""
    return any(
        (isinstance(node, lw.LatexMacroNode) and node.macroname in cmd.SECTION_LEVELS)
        or (isinstance(node, lw.LatexGroupNode) and _holds_heading(node.nodelist))
        for node in nodes
    )


def _group_at(nodes: list[lw.LatexNode], index: int) -> bool:
    return index < len(nodes) and isinstance(nodes[index], lw.LatexGroupNode)


def _holds(nodes: list[lw.LatexNode], environments: frozenset[str]) -> bool:
    """Whether `nodes` hold one of `environments`, within groups too."""
    return any(
        (isinstance(node, lw.LatexEnvironmentNode) and node.environmentname.strip() in environments)
        or (isinstance(node, lw.LatexGroupNode) and _holds(node.nodelist, environments))
        for node in nodes
    )


def _boxed_tables(node: lw.LatexMacroNode) -> list[list[lw.LatexNode]]:
    """The arguments of a macro that hold a table (a box's content), as node lists. A definition's body
    (`\\newcommand{\\specialcell}[2][c]{\\begin{tabular}[#1]{@{}c@{}}#2\\end{tabular}}`) is no table: its
    cells are the parameters of the macro, printed where the macro is used."""
    if node.macroname in _DEFINITIONS:
        return []
    arguments = (argument_nodes(argument) for argument in macro_arguments(node))
    return [nodes for nodes in arguments if _holds_table(nodes)]


_CAPTIONS = ("caption", "captionof", "tablecaption")
# The parts of a float whose `\caption` is a subcaption: the float's counter never steps for it.
_SUBCAPTIONED = frozenset({"subfigure", "subtable"})


def _split_captions(nodes: list[lw.LatexNode]) -> tuple[list[lw.LatexNode], list[lw.LatexMacroNode]]:
    """A float's body and its captions: those it sets itself and those it sets in its columns, minipages and
    groups (`\\captionof{table}` below each of two tables set in `multicols`), which LaTeX numbers alike."""
    body: list[lw.LatexNode] = []
    captions: list[lw.LatexMacroNode] = []
    for node in nodes:
        if isinstance(node, lw.LatexMacroNode) and node.macroname in _CAPTIONS:
            captions.append(node)
        else:
            body.append(node)
            captions.extend(_laid_out_captions(node))
    return body, captions


def _laid_out_captions(node: lw.LatexNode) -> list[lw.LatexMacroNode]:
    """The captions set within a group or an environment of a float, a subfigure's or a subtable's left out."""
    if isinstance(node, lw.LatexEnvironmentNode) and node.environmentname.strip() in _SUBCAPTIONED:
        return []
    if not isinstance(node, (lw.LatexGroupNode, lw.LatexEnvironmentNode)) or not node.nodelist:
        return []
    return _split_captions(node.nodelist)[1]


def _nested_caption(nodes: list[lw.LatexNode]) -> str | None:
    """The plain text of a caption written inside a group or a minipage of the float, which the
    float's own captions do not hold: what a table's caption says about its columns."""
    for node in nodes:
        if isinstance(node, lw.LatexMacroNode) and node.macroname in _CAPTIONS:
            out = PlainBuilder()
            InlineRenderer().render(argument_nodes(_caption_argument(node)), out)
            return out.build().text
        if isinstance(node, (lw.LatexGroupNode, lw.LatexEnvironmentNode)) and node.nodelist:
            found = _nested_caption(node.nodelist)
            if found is not None:
                return found
    return None


def _subfloat_caption(node: lw.LatexNode) -> str | None:
    """A subtable's or minipage's own caption, or the caption `\\subfloat[…]` and `\\subcaptionbox{…}` take first."""
    if isinstance(node, lw.LatexMacroNode):
        arguments = [argument for argument in macro_arguments(node) if argument is not None]
        if len(arguments) < 2:
            return None
        out = PlainBuilder()
        InlineRenderer().render(argument_nodes(arguments[0]), out)
        return out.build().text.strip() or None
    return _nested_caption(node.nodelist) if isinstance(node, lw.LatexEnvironmentNode) else None


def _caption_argument(node: lw.LatexMacroNode) -> lw.LatexNode | None:
    arguments = macro_arguments(node)
    return arguments[-1] if arguments else None
