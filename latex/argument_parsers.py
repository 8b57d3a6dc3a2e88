"""Argument parsers for the commands whose arguments pylatexenc's standard specs misread: citations
with pre- and post-notes, TeX's bare `\\input file`, and definitions whose bodies are raw."""

from __future__ import annotations

from typing import Any

from pylatexenc import latexwalker, macrospec

from .deferred_pattern import DeferredPattern

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


_BARE_FILE_NAME = DeferredPattern(r"[ \t]*([^\s%{}\\]+)")


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


class CommandDefinitionArgsParser(macrospec.MacroStandardArgsParser):  # type: ignore[misc]  # pylatexenc ships no types
    """`\\newcommand{\\name}[count][default]{body}`; a body that opens an environment it does not close
    (`\\newcommand{\\be}{\\begin{equation}}`) is read as raw text: parsed as LaTeX, the environment would run
    on to the next `\\end{equation}` and swallow the definitions after it."""

    def __init__(self) -> None:
        super().__init__(argspec="*{[[{")
        self._head = macrospec.MacroStandardArgsParser(argspec="*{[[")

    def parse_args(self, w: Any, pos: int, parsing_state: Any = None) -> tuple[Any, int, int]:
        parsing_state = parsing_state or w.make_parsing_state()
        head, _, length = self._head.parse_args(w, pos, parsing_state)
        raw = _raw_group(w, pos + length, parsing_state)
        if raw is None or not _opens_or_closes_alone(raw[0].chars):
            # Every other body as before, to the letter: an unclosed one still runs to the end of its chunk.
            standard: tuple[Any, int, int] = super().parse_args(w, pos, parsing_state)
            return standard
        arguments = _Arguments(pos + length)
        arguments.spec, arguments.nodes = head.argspec, list(head.argnlist)
        arguments.take("{", raw)
        return arguments.parsed(pos)


_BLANK_LINE = DeferredPattern(r"\n[ \t]*\n")


def _opens_or_closes_alone(body: str) -> bool:
    """A definition's body that begins an environment it does not end, or the reverse; within one paragraph, since
    a group that only closes after a blank line or `\\begin{document}` is an unclosed brace, not a body."""
    return body.count("\\begin{") != body.count("\\end{") and "\\begin{document}" not in body and _BLANK_LINE.search(body) is None


# Spaces and comments before a group: pandoc writes `[2] % #1 hanging-indent` before the begin code.
_SPACE_AND_COMMENTS = DeferredPattern(r"(?:\s|%[^\n]*)*")


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
