"""What the author's argument-less macros print, read from their definitions, for messages that quote
a rendering ("row \\method" becomes "row SparseProbe")."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from pylatexenc import latexwalker as lw

from .conditionals import NEVER
from .deferred_pattern import DeferredPattern
from .macro_signatures import PARSE_CONTEXT
from .model import MacroDef
from .plaintext import InlineRenderer, PlainBuilder
from .walker import RunWalker

# A macro left as written by the rendering, with the empty group that ends its name: "\\method{}".
MACRO_CALL = DeferredPattern(r"\\([A-Za-z@]+)(?![A-Za-z@])(?:\{\})?")
# \xspace only decides on a following space, which the rendering of a message already has.
_PRINTS_NOTHING = frozenset({"xspace", "@"})


def printed_macros(definitions: Iterable[MacroDef]) -> dict[str, str]:
    """What each argument-less macro prints, for those whose body renders to text alone
    (`\\newcommand{\\method}{\\textsc{SparseProbe}\\xspace}` prints "SparseProbe"). A later
    definition wins, as in TeX; a body that calls another such macro is read through it."""
    bodies = {
        macro.name.lstrip("\\"): macro.body
        for macro in definitions
        if macro.arguments == 0 and not any(branch == NEVER for _, branch in macro.branch)
    }
    printed: dict[str, str] = {}
    for name, body in bodies.items():
        text = _rendered(body)
        for _ in range(3):  # a chain of a few definitions at most
            text = MACRO_CALL.sub(lambda call: _rendered(bodies[call.group(1)]) if call.group(1) in bodies else call.group(0), text)
        if text and "\\" not in text:
            printed[name] = text
    return printed


# Each index build asks again for every definition's rendering: a keystroke leaves the bodies as they were.
@lru_cache(maxsize=1024)
def _rendered(latex: str) -> str:
    try:
        nodes, _, _ = RunWalker(latex, PARSE_CONTEXT, tolerant_parsing=True).get_latex_nodes()
    except (RecursionError, lw.LatexWalkerError, IndexError, ValueError, AttributeError, TypeError):
        return latex
    out = PlainBuilder()
    InlineRenderer(on_macro=lambda node, _: node.macroname in _PRINTS_NOTHING).render(nodes, out)
    return out.build().text.strip()
