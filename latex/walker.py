"""pylatexenc's LatexWalker, reading plain text a run at a time instead of a character at a time.

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
"""

from __future__ import annotations

import re
from typing import Any

from pylatexenc import latexwalker

_NOT_GIVEN = object()


class RunWalker(latexwalker.LatexWalker):  # type: ignore[misc]  # pylatexenc ships no types
    def __init__(self, s: str, latex_context: Any, **flags: Any) -> None:
        super().__init__(s, latex_context=latex_context, **flags)
        self._context = latex_context
        self._run = _run_pattern(latex_context)

    def get_token(
        self,
        pos: int,
        include_brace_chars: Any = _NOT_GIVEN,
        environments: bool = True,
        keep_inline_math: Any = None,
        parsing_state: Any = None,
        **kwargs: Any,
    ) -> Any:
        if include_brace_chars is _NOT_GIVEN:
            include_brace_chars = None
        elif (
            include_brace_chars is None
            and parsing_state is not None
            and environments
            and not kwargs
            and parsing_state.latex_context is self._context
        ):
            run = self._run.match(self.s, pos)
            if run is not None:
                return latexwalker.LatexToken(tok="char", arg=run.group(), pos=pos, len=run.end() - pos, pre_space="")
        return super().get_token(pos, include_brace_chars, environments, keep_inline_math, parsing_state, **kwargs)


def _run_pattern(latex_context: Any) -> re.Pattern[str]:
    """Characters that are text whatever follows them.

    Not a control sequence, comment, brace or math shift, not the start of a
    special (`&`), and no two line breaks in a row: those end a paragraph,
    which pylatexenc decides while skipping white space. Other white space
    joins the text node as it would.
    """
    specials = {chars[0] for category in latex_context.category_list for chars in latex_context.d[category]["specials"]}
    excluded = re.escape("".join(sorted({"\\", "%", "{", "}", "$", *specials})))
    return re.compile(rf"(?:[^\n{excluded}]|\n(?!\n))+")
