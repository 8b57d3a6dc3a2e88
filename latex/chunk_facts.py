"""The facts a chunk's macros carry: labels, references, citations, included files, macro and
acronym definitions, styled text. The flow of blocks (parse.py) hands every macro it meets here."""

from __future__ import annotations

import re

from pylatexenc import latexwalker as lw

from . import macro_signatures as cmd
from .deferred_pattern import DeferredPattern
from .model import Acronym, IncludeSite, KeyUse, MacroDef, Marker, StyledText
from .parsed_chunk import ParsedChunk
from .plaintext import InlineRenderer, PlainBuilder, argument_nodes, argument_text, macro_arguments

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
# Commands whose arguments are templates or declarations, not text: keys in them are not uses.
# What collect() hands on: the commands that name keys, and those that name files.
_KEYED_COMMANDS = frozenset({"label", "bibitem"}) | cmd.REF_COMMANDS | cmd.CITE_COMMANDS
_FILE_COMMANDS = cmd.INCLUDE_COMMANDS | cmd.FILE_READING_COMMANDS | cmd.BIB_COMMANDS | frozenset({"documentclass", "usepackage"})
_DEFINING_COMMANDS = cmd.MACRO_DEFINITIONS | cmd.DOCUMENT_COMMAND_DEFINITIONS | {"newenvironment", "renewenvironment", "newtheorem"}


class FactCollector:
    def __init__(self, result: ParsedChunk) -> None:
        self.result = result
        # The paragraph being built, when the collector forms blocks too: a \label in it names it.
        self.paragraph: PlainBuilder | None = None
        self.paragraph_labels: list[str] = []
        self.environments: list[str] = []
        self.after_heading = False
        self.keyed_nodes: set[int] = set()  # ids of the \label, \ref and \cite nodes already collected
        self.definition_bodies: set[int] = set()  # ids of \def bodies: templates, not uses

    def collect(self, node: lw.LatexMacroNode) -> bool:
        """Record the facts a macro carries; True when it renders as nothing."""
        name: str = node.macroname
        arguments = macro_arguments(node)
        if name in _KEYED_COMMANDS:
            return self._collect_keys(node, arguments)
        if name in _FILE_COMMANDS:
            self._collect_file(node, arguments)
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
        return name in ("newenvironment", "renewenvironment") or name in cmd.DOCUMENT_COMMAND_DEFINITIONS

    def _collect_keys(self, node: lw.LatexMacroNode, arguments: list[lw.LatexNode | None]) -> bool:
        """A label, a reference, a citation or a bibliography item: the keys it names."""
        name: str = node.macroname
        if name != "bibitem":
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
        self.result.bibitems.extend(KeyUse(name, key, start, end) for key, start, end in _keys(arguments[-1] if arguments else None))
        return True

    def _collect_file(self, node: lw.LatexMacroNode, arguments: list[lw.LatexNode | None]) -> None:
        """A file the chunk includes, reads or loads: a chapter, a figure, a bibliography, a class or a package."""
        name: str = node.macroname
        if name in cmd.INCLUDE_COMMANDS:
            self._include(node, arguments)
        elif name in cmd.FILE_READING_COMMANDS:
            target_node = arguments[-1] if arguments else None
            target = argument_text(target_node).strip() if target_node is not None else ""
            # A macro body's `#1`, or a macro (`\includegraphics{\halftorus}`), names no file auditex can know.
            if target_node is not None and target and "#" not in target and not _MACRO_IN_PATH.search(target):
                start, end = _inner_span(target_node)
                self.result.includes.append(IncludeSite(name, target, start, end, "file"))
        elif name in cmd.BIB_COMMANDS:
            for key, start, end in _keys(arguments[-1] if arguments else None):
                self.result.includes.append(IncludeSite(name, key, start, end, "bib"))
            if name == "bibliography":
                self.result.markers.append(Marker("bibliography", node.pos))
        elif name == "documentclass":
            self.result.has_documentclass = True
            # A class the project ships may define commands (labels set through `label={#5}`).
            for document_class, start, end in _keys(arguments[-1] if arguments else None):
                self.result.includes.append(IncludeSite(name, document_class, start, end, "class"))
        else:
            # A package of the project's own may load the bibliography (\addbibresource in a .sty).
            for package, start, end in _keys(arguments[-1] if arguments else None):
                self.result.includes.append(IncludeSite(name, package, start, end, "package"))

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
                    self.collect(node)
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

    def collect_within(self, nodes: list[lw.LatexNode]) -> None:
        """Visit nodes for facts only (bibliography lists)."""
        for index, node in enumerate(nodes):
            if isinstance(node, lw.LatexMacroNode) and node.macroname == "hypertarget":
                # Older pandoc's entries (`\\vadjust pre{\\hypertarget{ref-key}{}}`) are named by their anchor.
                following = nodes[index + 1] if index + 1 < len(nodes) else None
                anchor = following if isinstance(following, lw.LatexGroupNode) else None
                self.result.bibitems.extend(KeyUse("hypertarget", key, start, end) for key, start, end in _keys(anchor, listed=False))
            elif isinstance(node, lw.LatexMacroNode):
                self.collect(node)
            elif isinstance(node, (lw.LatexGroupNode, lw.LatexEnvironmentNode)):
                self.collect_within(node.nodelist)

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

    def tex_definition(self, node: lw.LatexMacroNode, siblings: list[lw.LatexNode], index: int) -> int:
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

    def styled(self, node: lw.LatexMacroNode) -> None:
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


_MACRO_IN_PATH = DeferredPattern(r"\\[A-Za-z@]")


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


def collect_declarations(nodes: list[lw.LatexNode], result: ParsedChunk) -> None:
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
                    collect_declarations(argument.nodelist, result)
        elif isinstance(node, (lw.LatexGroupNode, lw.LatexEnvironmentNode, lw.LatexMathNode)):
            collect_declarations(node.nodelist, result)
