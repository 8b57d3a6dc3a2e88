"""pylatexenc's LatexWalker, reading plain text a run at a time and common tokens with one pattern.

pylatexenc makes one token per character of ordinary text, and its node loop
only concatenates consecutive character tokens into one text node: on prose
that loop is most of the parse. Here the loop gets the whole run of ordinary
characters as one token, which builds the same nodes about twice as fast.

Only the node loop may see a run. Argument readers take one character as a
whole argument (`\\frac12`, `x^23`) or look for a `*` or `[` after a macro,
so every other caller gets pylatexenc's own one-character tokens. The node
loop is recognised by how it asks: `include_brace_chars=None` given
explicitly, a parsing state, and nothing else (`get_latex_braced_group` asks
alike, and rejects any text token the same way whatever its length).

Every other token is read as pylatexenc reads it, but without its per-call
set-up (a closure, the brace pairs, a scan of every specials spec for each
character): white space and a macro's name by pattern. Tokens it would read
in a way of its own (an environment's name, an end of the text, a comment,
a state or a context other than the walker's) are left to pylatexenc.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pylatexenc import latexwalker

_NOT_GIVEN = object()
_WHITE_SPACE = re.compile(r"\s*")  # `\s` is str.isspace, as pylatexenc tests it
# A superset of str.isalpha (letters, and digits that are not decimal); a name that is not all letters is left to pylatexenc.
_LETTERS = re.compile(r"[^\W\d_]+")
_PARAGRAPH_BREAK = "\n\n"
_MATH_DELIMITERS = {"[": "mathmode_display", "]": "mathmode_display", "(": "mathmode_inline", ")": "mathmode_inline"}
_Token = latexwalker.LatexToken


class RunWalker(latexwalker.LatexWalker):  # type: ignore[misc]  # pylatexenc ships no types
    def __init__(self, s: str, latex_context: Any, **flags: Any) -> None:
        super().__init__(s, latex_context=latex_context, **flags)
        self._context = latex_context
        self._specials_starts, self._run = _context_patterns(latex_context)

    def get_token(
        self,
        pos: int,
        include_brace_chars: Any = _NOT_GIVEN,
        environments: bool = True,
        keep_inline_math: Any = None,
        parsing_state: Any = None,
        **kwargs: Any,
    ) -> Any:
        node_loop = include_brace_chars is None
        if include_brace_chars is _NOT_GIVEN:
            include_brace_chars = None
        if parsing_state is not None and not kwargs and parsing_state.latex_context is self._context:
            if node_loop and environments:
                run = self._run.match(self.s, pos)
                if run is not None:
                    return _Token(tok="char", arg=run.group(), pos=pos, len=run.end() - pos, pre_space="")
            token = self._token(pos, include_brace_chars, environments, parsing_state)
            if token is not None:
                return token
        return super().get_token(pos, include_brace_chars, environments, keep_inline_math, parsing_state, **kwargs)

    def _token(self, pos: int, include_brace_chars: Any, environments: bool, parsing_state: Any) -> Any:
        """The token at `pos` as pylatexenc's get_token makes it, or None for one it reads in a way of its own."""
        s = self.s
        if pos + 1 >= len(s):
            return None  # the last character: pylatexenc raises at the end of the text, and for a backslash there
        space = _white_space(s, pos) if s[pos].isspace() else ""
        start = pos + len(space)
        if space:
            paragraph = space.find(_PARAGRAPH_BREAK)
            if paragraph >= 0:
                return _Token(tok="char", arg=_PARAGRAPH_BREAK, pos=pos + paragraph, len=2, pre_space=space[:paragraph])
            if start + 1 >= len(s):
                return None
        char = s[start]
        if char == "\\":
            return self._macro(start, space, environments)
        if char == "%":
            return None
        if char == "{" or (include_brace_chars and char in [opening for opening, _ in include_brace_chars]):
            return _Token(tok="brace_open", arg=char, pos=start, len=1, pre_space=space)
        if char == "}" or (include_brace_chars and char in [closing for _, closing in include_brace_chars]):
            return _Token(tok="brace_close", arg=char, pos=start, len=1, pre_space=space)
        if char == "$":
            if s.startswith("$$", start) and not (parsing_state.in_math_mode and parsing_state.math_mode_delimiter == "$"):
                return _Token(tok="mathmode_display", arg="$$", pos=start, len=2, pre_space=space)
            return _Token(tok="mathmode_inline", arg="$", pos=start, len=1, pre_space=space)
        if char in self._specials_starts:
            specials = self._context.test_for_specials(s, start, parsing_state=parsing_state)
            if specials is not None:
                return _Token(tok="specials", arg=specials, pos=start, len=len(specials.specials_chars), pre_space=space)
        return _Token(tok="char", arg=char, pos=start, len=1, pre_space=space)

    def _macro(self, start: int, space: str, environments: bool) -> Any:
        s = self.s
        letters = _LETTERS.match(s, start + 1)
        if letters is None:
            name = s[start + 1]
            if name in _MATH_DELIMITERS:
                return _Token(tok=_MATH_DELIMITERS[name], arg="\\" + name, pos=start, len=2, pre_space=space)
            return _Token(tok="macro", arg=name, pos=start, len=2, pre_space=space, post_space="")
        name = letters.group()
        if not name.isalpha() or (environments and name in ("begin", "end")):
            return None
        after = _white_space(s, letters.end())
        # The white space after a named macro is its own, up to a paragraph break.
        post_space = after[: after.find(_PARAGRAPH_BREAK)] if _PARAGRAPH_BREAK in after else after
        return _Token(tok="macro", arg=name, pos=start, len=1 + len(name) + len(post_space), pre_space=space, post_space=post_space)


def _white_space(s: str, pos: int) -> str:
    match = _WHITE_SPACE.match(s, pos)
    assert match is not None  # `\s*` matches anywhere
    return match.group()


@cache
def _context_patterns(latex_context: Any) -> tuple[frozenset[str], re.Pattern[str]]:
    """The first characters of the context's specials, and its runs: read once per context, not once per chunk.

    A run is characters that are text whatever follows them: not a control
    sequence, comment, brace or math shift, not the start of a special (`&`),
    and no two line breaks in a row: those end a paragraph, which pylatexenc
    decides while skipping white space. Other white space joins the text node
    as it would.
    """
    specials_starts = frozenset(chars[0] for category in latex_context.category_list for chars in latex_context.d[category]["specials"])
    excluded = re.escape("".join(sorted({"\\", "%", "{", "}", "$", *specials_starts})))
    return specials_starts, re.compile(rf"(?:[^\n{excluded}]|\n(?!\n))+")
