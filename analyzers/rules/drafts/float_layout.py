"""How a float's LaTeX lays out its captions and labels: how many numbered captions it gives its counter,
and which `\\label`s come before the caption that numbers them (read with pylatexenc, kept by text)."""

from __future__ import annotations

from functools import lru_cache

from pylatexenc import latexwalker as lw

from ....latex.macro_signatures import PARSE_CONTEXT
from ....latex.record import record
from ....latex.walker import RunWalker
from ...memo import TEXT_CACHE_SIZE
from .model import FLOATS

# Environments inside a float that number their own captions (subcaption's and subfig's).
_SUBFLOATS = frozenset({"subfigure", "subtable", "subfloat"})
# Commands that step the float's counter, so that a `\label` after them reads its number.
_CAPTIONS = frozenset({"caption", "captionof", "subcaption"})
# subfig's and subcaption's subfigures as commands, read as a command and the text after it
# (`\subfloat[Loss.\label{fig:a}]{…}`): they step the subfigure counter for the labels that follow.
_SUBFLOAT_COMMANDS = frozenset({"subfloat", "subcaptionbox", "subfigure"})


@record(slots=True)
class MisplacedLabel:
    """A `\\label` read before the caption that numbers its float: offsets in the float's LaTeX."""

    key: str
    start: int  # the `\label{…}` command
    end: int
    caption_end: int  # the end of the caption that follows it in the same group
    subfloat: bool  # within a subfigure: it prints the figure's number (or the section's), not the subfigure's


@record(slots=True)
class FloatLayout:
    """What one float's LaTeX holds: its numbered captions and its labels read before their caption."""

    environment: str
    captions: int  # numbered captions at the float's level (`\caption*` and subfigures' aside)
    misplaced: tuple[MisplacedLabel, ...]


def may_misplace_label(latex: str) -> bool:
    """Some `\\label` comes before some caption in a float's LaTeX: only then may a label be misplaced, so a
    float without one needs no parse."""
    label = latex.find("\\label")
    return label >= 0 and any(latex.rfind("\\" + caption) > label for caption in _CAPTIONS)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def float_layout(latex: str) -> FloatLayout | None:
    """The layout of a float environment's LaTeX (`\\begin{figure}…\\end{figure}`); None when it is no float."""
    try:
        nodes, _, _ = RunWalker(latex, PARSE_CONTEXT, tolerant_parsing=True).get_latex_nodes()
    except (RecursionError, lw.LatexWalkerError, IndexError, ValueError, AttributeError, TypeError):
        return None
    environment = next((node for node in nodes if isinstance(node, lw.LatexEnvironmentNode)), None)
    if environment is None or environment.environmentname not in FLOATS:
        return None
    misplaced: list[MisplacedLabel] = []
    _read_scope(environment.nodelist, stepped=False, subfloat=False, misplaced=misplaced)
    return FloatLayout(environment.environmentname, _count_captions(environment.nodelist), tuple(misplaced))


def _is_caption(node: lw.LatexNode) -> bool:
    """A caption that steps a counter: `\\caption{…}`, not `\\caption*{…}`."""
    if not isinstance(node, lw.LatexMacroNode) or node.macroname not in _CAPTIONS:
        return False
    arguments = node.nodeargd.argnlist if node.nodeargd is not None else []
    return not (arguments and arguments[0] is not None and node.macroname != "subcaption")


def _read_scope(nodes: list[lw.LatexNode], stepped: bool, subfloat: bool, misplaced: list[MisplacedLabel]) -> None:
    """Labels of this group read before any caption steps a counter in it or around it, with a caption after
    them in the same group. What a group steps stays in it, as in TeX: a subfigure starts unstepped."""
    captions = [index for index, node in enumerate(nodes) if _is_caption(node)]
    for index, node in enumerate(nodes):
        if _is_caption(node) or (isinstance(node, lw.LatexMacroNode) and node.macroname in _SUBFLOAT_COMMANDS):
            stepped = True
        elif isinstance(node, lw.LatexMacroNode) and node.macroname == "label" and not stepped:
            following = next((nodes[later] for later in captions if later > index), None)
            key = _label_key(node)
            if following is not None and key:
                misplaced.append(MisplacedLabel(key, node.pos, node.pos + node.len, following.pos + following.len, subfloat))
        elif isinstance(node, lw.LatexEnvironmentNode):
            inner = node.environmentname in _SUBFLOATS
            _read_scope(node.nodelist, False if inner else stepped, subfloat or inner, misplaced)
        elif isinstance(node, lw.LatexGroupNode):
            _read_scope(node.nodelist, stepped, subfloat, misplaced)


def _label_key(node: lw.LatexMacroNode) -> str:
    arguments = node.nodeargd.argnlist if node.nodeargd is not None else []
    group = arguments[-1] if arguments else None
    return "".join(child.latex_verbatim() for child in group.nodelist).strip() if isinstance(group, lw.LatexGroupNode) else ""


def _count_captions(nodes: list[lw.LatexNode]) -> int:
    """The numbered captions a float gives its own counter: those of its subfigures number them instead."""
    count = 0
    for node in nodes:
        if _is_caption(node) and node.macroname == "caption":
            count += 1
        elif (isinstance(node, lw.LatexEnvironmentNode) and node.environmentname not in _SUBFLOATS) or isinstance(node, lw.LatexGroupNode):
            count += _count_captions(node.nodelist)
    return count
