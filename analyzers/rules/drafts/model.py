"""What a reader sees of a manuscript's drafting: placeholders left in its text, and the numbers
LaTeX gives its floats.

A draft placeholder ("Table X", "log2FC = X.XX", "(CITE)", "TODO") counts only where TeX prints
it: not in comments, code, math that names a variable, the never-taken branch of a conditional
(`\\iffalse`, a `\\newif` switch the project never sets true), an environment the comment package
excludes, or the argument of a command that prints nothing (`\\todo` of todonotes loaded with
`disable`, `\\newcommand{\\note}[1]{}`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import Enum
from functools import lru_cache

from pylatexenc import latexwalker as lw

from ....latex.dead_text import dead_spans, discarding_macros, excluded_environments, switch_values
from ....latex.deferred_pattern import DeferredPattern
from ....latex.macro_signatures import PARSE_CONTEXT
from ....latex.manuscript import PlacedBlock
from ....latex.model import BlockKind, MacroDef
from ....latex.project import Project
from ....latex.record import record
from ....latex.source import COMMENT, uncommented
from ....latex.walker import RunWalker
from ...memo import SECTION_CACHE_SIZE, TEXT_CACHE_SIZE, SectionKey


class PlaceholderKind(str, Enum):
    """What a placeholder stands for, and so how sure the rule is that nobody meant it."""

    MARKER = "draft marker"  # TODO, FIXME, TBD, TBA
    REFERENCE = "placeholder reference"  # Table X, Figure Xa, Section ??
    CITATION = "placeholder citation"  # (CITE), [ref], [citation needed]
    NUMBER = "placeholder number"  # X.XX, 0.XX, XX%
    NOTE = "draft note"  # !!! update this !!!, ??? reference ???
    CELL = "unfilled cell"  # a table cell holding only "?"
    QUESTION_MARKS = "question marks"  # ?? typed in the text
    TRIPLE_X = "XXX"  # also an anonymised name ("XXX University")

    @property
    def evidence(self) -> str:
        """The evidence class its findings are measured in (analyzers/precision.py)."""
        tier = {
            PlaceholderKind.MARKER: "strong",
            PlaceholderKind.REFERENCE: "strong",
            PlaceholderKind.CITATION: "strong",
            PlaceholderKind.NUMBER: "moderate",
            PlaceholderKind.NOTE: "moderate",
            PlaceholderKind.CELL: "moderate",
        }.get(self, "weak")
        return f"{tier}: {self.value}"


@record(slots=True)
class Placeholder:
    kind: PlaceholderKind
    text: str
    start: int  # in the plain text
    end: int
    # What a "Table X" names (table, figure, section, …): a roman ten is a real number once the paper has ten.
    names: str = ""


_REFERENCE_NAMES = {
    "table": "table",
    "tab": "table",
    "figure": "figure",
    "fig": "figure",
    "section": "section",
    "sec": "section",
    "appendix": "appendix",
    "equation": "equation",
    "eq": "equation",
    "algorithm": "algorithm",
    "theorem": "theorem",
    "lemma": "theorem",
}
# What a count's number stands before: "435 samples from NA individuals".
_COUNTED = "individuals|participants|patients|subjects|samples|respondents|cases|controls|people|animals|mice|studies|sites"
_PLACEHOLDERS = DeferredPattern(
    r"(?P<marker>(?<![\w-])(?:TODO|FIXME|TBD|TBA)(?![\w-]))"
    r"|(?P<triple_x>(?<![\w./-])XXX+(?![\w/-]))"
    # "Table X", "Figure Xa", "Sec. ??": a capital X (a roman ten only where the paper has ten) or question marks.
    r"|(?P<reference>(?<![\w\\])(?P<name>Tables?|Tab\.|Figures?|Figs?\.|Sections?|Sec\.|Appendix|Equations?|Eqs?\.|Algorithm|Theorem|Lemma)"
    r"[\s~]+(?:\((?:X{1,2}[a-z]?|[A-Z]?\?+)\)|X{1,2}[a-z]?(?![\w])|[A-Z]?\?\?+))"
    r"|(?P<citation>[\[(](?:CITE|[Cc]ite|REF|[Cc]itations? needed|CITATION)[\])]|\[(?:refs?|REFS?|\?)\])"
    # X.XX, x.xx, XX.X, 0.XX, .XX and XX%: the digits a result will take.
    # One X after a version's digits is a version ("Python 2.X"): a placeholder has two.
    r"|(?P<number>(?<![\w.])(?:[Xx]{1,3}\.[Xx]{1,4}|\d*\.XX{1,3}|XX?\s?%)(?![\w.]))"
    # A value slot: "Age = XX ± XX", R's missing value printed ("n = NA", "from NA individuals"), "OR = ( - )".
    r"|(?P<slot>(?:(?<=[=±≈])|(?<=[=±≈]\s))(?:XX|NA|NaN)(?![\w.])|(?<![\w.])XX(?=\s?±)"
    rf"|(?<![\w.])NA(?=\s(?:{_COUNTED})\b)|(?:(?<==)|(?<==\s))\(\s?[-–]\s?\))"
    r"|(?P<question_marks>(?<![?\w])\?\?(?![?\w]))"
    # An emphatic aside to a co-author: "!!! update with the new results !!!", "??? reference ???".
    r"|(?P<draft_note>(?<![!?])(?:!{3,}|\?{3,})(?![!?]))"
)


# A marker a class's own command prints, glued to its name in the plain text: "\cjournal{TBD}" reads "\cjournalTBD".
_GLUED = DeferredPattern(r"\\[A-Za-z@]+?[a-z](?P<marker>TODO|FIXME|TBD|TBA)(?![\w-])")


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def placeholders(text: str) -> tuple[Placeholder, ...]:
    """The draft placeholders in a block's plain text, before asking whether TeX prints them."""
    if not _HINT.search(text) or not _NEEDED.search(text):
        return ()
    found = []
    for match in sorted([*_PLACEHOLDERS.finditer(text), *_GLUED.finditer(text)], key=lambda match: match.start(match.lastgroup or 0)):
        group = match.lastgroup or ""
        name = match.groupdict().get("name")
        names = _REFERENCE_NAMES.get(name.lower().rstrip(".s"), "") if name else ""
        found.append(Placeholder(PlaceholderKind(_GROUP_KIND[group]), match.group(group), match.start(group), match.end(group), names))
    return tuple(found)


_HINT = DeferredPattern(r"TODO|FIXME|TB[DA]|X|\?\?|\.x|CITE|[Cc]ite|REF|[Cc]itation|\[refs?\]|\[\?\]|NA|\?\)|!!!|=\s?\(")
# What every placeholder holds, where _HINT lets most prose through: a capital X only where a reference's or a
# number's may stand ("Table X", "(X)", "X.XX", "XX", "X%"), not inside a word ("LaTeX"); "cite" after a bracket.
_NEEDED = DeferredPattern(
    r"TODO|FIXME|TB[DA]|XX|[\s~(]X|[Xx]\.[Xx]|X\s?%|\?\?|\?\)|[\[(](?:CITE|[Cc]ite|REF|[Cc]itation|CITATION|refs?\]|\?\])|NA|NaN|=\s?\(|!!!"
)
_GROUP_KIND = {
    "marker": PlaceholderKind.MARKER.value,
    "triple_x": PlaceholderKind.TRIPLE_X.value,
    "reference": PlaceholderKind.REFERENCE.value,
    "citation": PlaceholderKind.CITATION.value,
    "number": PlaceholderKind.NUMBER.value,
    "slot": PlaceholderKind.NUMBER.value,
    "draft_note": PlaceholderKind.NOTE.value,
    "question_marks": PlaceholderKind.QUESTION_MARKS.value,
}


# What introduces a word the paper mentions instead of uses: quotes, \texttt, \verb.
_MENTION_BEFORE = DeferredPattern(r"(?:``|`|'|\"|“|‘|\\texttt\s*\{|\\verb\s*.|\\lstinline\s*.|\\code\s*\{)\s*$")
# A marker in a list of markers ("task annotations (e.g., TODO, FIXME)") is a word the paper discusses.
_MARKER_LIST = DeferredPattern(r"(?:TODO|FIXME|TBD|TBA|XXX|HACK|BUG|NOTE)(?:,|\s+(?:and|or))\s+(?:TODO|FIXME|TBD|TBA|XXX|HACK|BUG|NOTE)\b")


# Journal metadata the publisher fills in ("\\cvol{2023;TBD}", a DOI of X's): the template's slot, not the author's draft.
_METADATA_SLOT = DeferredPattern(
    r"\\(?:c?vol(?:ume)?|issue|doi|pages|received|revised|accepted|published|jvol|jnum|jyear|copyrightyear|acm(?:Volume|Number|Article|Year|DOI)"
    r"|articlenumber|editor|issn|isbn|pubyear|firstpage|lastpage)\s*\{[^{}]*$"
)


# An argument TeX does not print as text: a citation or label key, a URL.
_KEY_ARGUMENT = DeferredPattern(r"\\(?:[a-zA-Z]*cite[a-zA-Z]*|label|[a-zA-Z]*ref|url|href|slink)\*?\s*(?:\[[^\]]*\]\s*)*\{[^{}]*$")
# A linguistic example's acceptability judgement: "\ex. ??Taroo-wa …", "\a. ???The man …".
_JUDGEMENT = DeferredPattern(r"\\(?:ex|a|b|c|d|e|f|ag|bg|cg|dg|exi|ea|eg|item)\.?(?:\s*\\[a-z]+\.)*\s*$")


def not_text(source: str, start: int) -> bool:
    """The text at `start` is a key or URL the reader never reads as text, or an example's judgement."""
    before = source[max(0, start - 120) : start]
    return _KEY_ARGUMENT.search(before) is not None or _JUDGEMENT.search(before[-24:]) is not None


def publisher_slot(source: str, start: int) -> bool:
    """The text at `start` is inside a journal metadata command's argument."""
    return _METADATA_SLOT.search(source[max(0, start - 80) : start]) is not None


def mentioned(source: str, start: int, end: int) -> bool:
    """The word at `source[start:end]` is quoted, set as code, or listed with other markers: the paper speaks of it."""
    if _MENTION_BEFORE.search(source[max(0, start - 12) : start]) is not None:
        return True
    around = source[max(0, start - 12) : end + 12]
    return any(match.start() <= start - max(0, start - 12) < match.end() for match in _MARKER_LIST.finditer(around))


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def math_spans(latex: str) -> tuple[tuple[int, int], ...]:
    """The spans of `latex` that are math, inline or displayed."""
    try:
        nodes, _, _ = RunWalker(latex, PARSE_CONTEXT, tolerant_parsing=True).get_latex_nodes()
    except (RecursionError, lw.LatexWalkerError, IndexError, ValueError, AttributeError, TypeError):
        return ()
    spans: list[tuple[int, int]] = []
    _collect_math(nodes, spans)
    return tuple(spans)


def _collect_math(nodes: Iterable[lw.LatexNode | None], spans: list[tuple[int, int]]) -> None:
    for node in nodes:
        if node is None:
            continue
        if isinstance(node, lw.LatexMathNode) or (isinstance(node, lw.LatexEnvironmentNode) and node.environmentname in _MATH):
            spans.append((node.pos, node.pos + node.len))
        elif isinstance(node, (lw.LatexGroupNode, lw.LatexEnvironmentNode)):
            _collect_math(node.nodelist, spans)
        if isinstance(node, (lw.LatexMacroNode, lw.LatexEnvironmentNode)) and node.nodeargd is not None:
            _collect_math(node.nodeargd.argnlist or (), spans)


_MATH = frozenset({"equation", "equation*", "align", "align*", "gather", "gather*", "multline", "multline*", "eqnarray", "math"})


def in_math_naming_a_variable(placeholder: Placeholder, latex: str, offset: int) -> bool:
    """Whether the placeholder at `offset` of `latex` is math that may be a variable: a number
    placeholder stays one after an equals sign (`$p = X.XX$`), anything else in math is the math's."""
    if not any(start <= offset < end for start, end in math_spans(latex)):
        return False
    return placeholder.kind is not PlaceholderKind.NUMBER or not re.search(r"=\s*\{?\s*$", latex[max(0, offset - 8) : offset])


_TODONOTES_DISABLED = re.compile(r"\\usepackage\s*\[[^\]]*\bdisable\b[^\]]*\]\s*\{[^}]*\btodonotes\b")
# What todonotes' `disable` option silences.
_TODONOTES_COMMANDS = ("todo", "missingfigure")
# The changes package's deleted text: `\deleted{old}`, and the second argument of `\replaced{new}{old}`.
_GROUP = r"\{[^{}]*(?:\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}[^{}]*)*\}"
_DELETED = DeferredPattern(
    rf"\\deleted\s*(?:\[[^\]]*\])?\s*(?P<old>{_GROUP})|\\replaced\s*(?:\[[^\]]*\])?\s*{_GROUP}\s*(?P<old_replaced>{_GROUP})"
)


# Whole files' readings are memoised by their text: an edit re-reads the edited file alone, and what
# holds for the project is combined from the files' answers. Bounded by files, not blocks, since each
# entry holds a file's text.
_FILE_CACHE_SIZE = 256


@lru_cache(maxsize=_FILE_CACHE_SIZE)
def _holds(text: str) -> frozenset[str]:
    """Which of the project-wide searches (`_SEARCHES`) find something in a file, comments aside: one entry per
    file, so that a book's every file stays cached while each edit asks them all."""
    masked = uncommented(text)
    # Each search matches only where a command `_SEARCHED` names starts: one scan finds those places, and each
    # search is tried there alone (a search over the whole of a book's chapter costs 0.4 ms, nine on every edit).
    starts = [match.start() for match in _SEARCHED.finditer(masked)]
    return frozenset(name for name, pattern in _SEARCHES.items() if any(re.compile(pattern).match(masked, start) for start in starts))


def _anywhere(texts: Iterable[str], search: str) -> bool:
    """Whether some file, comments aside, holds what `_SEARCHES[search]` looks for."""
    if search not in _SEARCHES:
        raise KeyError(search)
    return any(search in _holds(text) for text in texts)


def silenced_commands(texts: Iterable[str], macros: list[MacroDef]) -> tuple[str, ...]:
    """Commands that print none of their arguments: the paper's own (`\\newcommand{\\note}[1]{}`),
    and todonotes' when the package is loaded with `disable`."""
    todonotes = _TODONOTES_COMMANDS if _anywhere(texts, "todonotes disabled") else ()
    return tuple(sorted({*discarding_macros(macros), *todonotes}))


def deleted_spans(text: str) -> list[tuple[int, int]]:
    """Text the changes package marks deleted: struck through in a draft, gone in the final version."""
    if "\\deleted" not in text and "\\replaced" not in text:
        return []
    return [match.span(match.lastgroup) for match in _DELETED.finditer(text) if match.lastgroup]


@record(slots=True)
class Unprinted:
    """For each file, the stretches TeX reads but never prints as text (see the module's docstring)."""

    spans: dict[str, tuple[tuple[int, int], ...]]

    def covers(self, file: str, offset: int) -> bool:
        return any(start <= offset < end for start, end in self.spans.get(file, ()))


def unprinted(project: Project, macros: list[tuple[str, MacroDef]]) -> Unprinted:
    """What of the project's files TeX never prints: never-taken branches, excluded environments, silenced and
    deleted text. `macros` are the project index's (`Index.macros`). Kept for that index, which every change of
    the project builds anew: the drafts rules each ask on every edit, one after the other."""
    return _unprinted(_IndexKey(project, macros))


class _IndexKey:
    """A project as a cache key: the same while it holds the same index, and the macros asked about are its."""

    __slots__ = ("index", "macros", "project")

    def __init__(self, project: Project, macros: list[tuple[str, MacroDef]]) -> None:
        self.project, self.index, self.macros = project, project.index, macros

    def __hash__(self) -> int:
        return id(self.index)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _IndexKey) and other.index is self.index and other.macros is self.macros


def printed_files(project: Project) -> list[str]:
    """The project's files the manuscript walks, in include order: a file `\\input` only from dead text (`\\iffalse`,
    an unused macro) prints nothing, so its marks, settings and switches are not the paper's."""
    walked = project.manuscript.layouts
    return [path for path in project.files if path in walked]


@lru_cache(maxsize=1)  # one check's drafts rules ask in turn; holding more would hold old indexes
def _unprinted(key: _IndexKey) -> Unprinted:
    project = key.project
    printed = printed_files(project)
    texts = [project.source(path).text for path in printed]
    excluded = excluded_environments(project)
    silenced = silenced_commands(texts, [macro for _, macro in key.macros])
    switches = switch_values(texts)
    settings = (excluded, silenced, tuple(sorted(switches.items())))
    spans = {path: _unprinted_spans(text, settings) for path, text in zip(printed, texts)}
    unwalked = {path: ((0, len(project.source(path).text)),) for path in project.files if path not in spans}
    return Unprinted({**spans, **unwalked})


@lru_cache(maxsize=_FILE_CACHE_SIZE)
def _unprinted_spans(
    text: str, settings: tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, bool], ...]]
) -> tuple[tuple[int, int], ...]:
    """One file's unprinted stretches under the project's excluded environments, silenced commands and switches."""
    excluded, silenced, switches = settings
    # A switch the file never tests leaves its branches as they are: without it, the index's reading of the file serves.
    tested = {name: value for name, value in switches if "\\" + name in text}
    return (*dead_spans(text, excluded, silenced, tested), *deleted_spans(text))


# The blocks whose text a reader sees as text: prose, captions, table cells (figure bodies are drawings).
READ_BLOCKS = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM, BlockKind.TABLE)


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def read_blocks(key: SectionKey) -> tuple[PlacedBlock, ...]:
    """A section's blocks that a reader reads as text, picked once per Section the manuscript hands on."""
    return tuple(placed for placed in key.section.blocks if placed.kind in READ_BLOCKS)


# Floats and their numbers: what `\caption` gives a `\label`, and how LaTeX counts.

# The blocks a float environment makes.
FLOAT_BLOCKS = (BlockKind.FIGURE, BlockKind.TABLE, BlockKind.ALGORITHM)
# The floats whose `\caption` steps a counter a `\label` then reads (deluxetable captions its own way).
FLOATS = frozenset(
    {"figure", "figure*", "wrapfigure", "SCfigure", "sidewaysfigure", "table", "table*", "sidewaystable", "sidewaystable*", "wraptable"}
    | {"algorithm", "algorithm*"}
)


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def section_floats(key: SectionKey) -> tuple[PlacedBlock, ...]:
    """A section's float blocks whose caption steps a counter (`FLOATS`), picked once per Section the manuscript hands on."""
    return tuple(placed for placed in key.section.blocks if placed.kind in FLOAT_BLOCKS and placed.block.environment in FLOATS)


# What makes LaTeX number a float type otherwise than 1, 2, 3 … through the paper: numbering per
# chapter or section, a counter set by hand, a caption outside a float, a continued float.
_OWN_NUMBERING = (
    r"\\(?:numberwithin|counterwithin\*?)\s*\{{{type}\}}|\\(?:setcounter|addtocounter)\s*\{{{type}\}}|\\(?:re)?newcommand\s*\{{?\\the{type}\b"
    r"|\\captionof\s*\{{{type}\}}|\\ContinuedFloat|\\chapter\b|\\documentclass\s*(?:\[[^\]]*\])?\s*\{{(?:book|report|memoir|scrbook|scrreprt)\}}"
)
FLOAT_TYPES = {"figure": "figure", "table": "table"}


def float_type(environment: str) -> str | None:
    """The counter a float environment steps: figure or table (None: another counter)."""
    base = environment.rstrip("*")
    if base in ("figure", "wrapfigure", "SCfigure", "sidewaysfigure"):
        return "figure"
    if base in ("table", "sidewaystable", "wraptable"):
        return "table"
    return None


def numbered_in_order(texts: Iterable[str], kind: str) -> bool:
    """Whether the paper's `kind` floats are numbered 1, 2, 3 … in the order of their captions."""
    return not _anywhere(texts, f"{kind} numbered otherwise")


# What keeps a chaptered document's floats from being numbered "chapter.n": a counter set or printed otherwise.
_NOT_BY_CHAPTER = (
    r"\\counterwithout\*?\s*\{{{type}\}}|\\(?:setcounter|addtocounter)\s*\{{{type}\}}|\\(?:re)?newcommand\s*\{{?\\the{type}\b"
    r"|\\captionof\s*\{{{type}\}}|\\ContinuedFloat|\\numberwithin\s*\{{{type}\}}\s*\{{(?!chapter)"
)
_CHAPTER = re.compile(r"\\chapter\s*(?:\[[^\]]*\]\s*)?\{")
# "Table 4", "Table I": a float named by a single number, arabic or roman.
SINGLE_NUMBERED = DeferredPattern(r"(?<![\w\\])(?P<name>Figures?|Figs?\.|Tables?|Tabs?\.)[\s~]*(?P<number>\d+|[IVX]{1,4})(?![\w]|[.,]\d)")


def numbered_by_chapter(texts: Iterable[str], kind: str) -> bool:
    """Whether the paper's `kind` floats are numbered within its chapters ("4.1"), as LaTeX's book and report do."""
    texts = list(texts)
    return _anywhere(texts, "chapters") and not _anywhere(texts, f"{kind} not by chapter")


def float_environments(texts: Iterable[str], kind: str) -> int:
    """How many `kind` float environments the LaTeX begins, comments aside: what the manuscript's blocks must hold."""
    return sum(_float_environments_in(text, kind) for text in texts)


@lru_cache(maxsize=_FILE_CACHE_SIZE)
def _float_environments_in(text: str, kind: str) -> int:
    """One file's count, kept by its text: an edit counts the edited file's alone."""
    names = "|".join(re.escape(name) for name in FLOATS if float_type(name) == kind)
    return len(re.findall(rf"\\begin\s*\{{(?:{names})\}}", uncommented(text)))


# A float or section named by its number in the text: "Figure 5", "Fig. 3a", "Tables 2 and 4", "Section 3.2".
HAND_NUMBERED = DeferredPattern(
    r"(?<![\w\\])(?P<name>Figures?|Figs?\.|Tables?|Tabs?\.|Sections?|Secs?\.)[\s~]*"
    r"(?P<numbers>\d+(?:\.\d+)?[a-z]?(?:\s*(?:,|and|&|–|-|to)\s*\d+(?:\.\d+)?[a-z]?)*)(?![\w.]*\d|\.\d)"
)
# A number this far past the paper's last one names another document's object (a statute's section, a cited figure).
FAR_BEYOND = 3
# What numbers its figures apart from the paper's own: another work, the supplement, an appendix of its own.
_ELSEWHERE = DeferredPattern(
    r"supplement|suppl\.|extended data|\bSI\b|online|appendix|additional file|\\cite|et al\.|\[\d+(?:[,–-]\s*\d+)*\]|\bof\s+\[|\bin\s+\[|'s\s+(?:paper|work|study)|\btheir\b|\boriginal\b",
    re.I,
)
_NUMBERED_SECTION = DeferredPattern(r"\\(?P<command>section|subsection)\s*(?:\[[^\]]*\]\s*)?\{")


def mentioned_kind(name: str) -> str:
    """The counter a mention's name reads: "Fig." → figure, "Sections" → section."""
    return "figure" if name.startswith("Fig") else "table" if name.startswith("Tab") else "section"


def numbered_heading(latex: str) -> str | None:
    """ "section" or "subsection" for a numbered `\\section{…}` or `\\subsection{…}` at the start of `latex`; None otherwise."""
    match = _NUMBERED_SECTION.match(latex)
    return match.group("command") if match else None


def elsewhere(sentence: str) -> bool:
    """The sentence may number a float of another document: a cited work's, the supplement's."""
    return _ELSEWHERE.search(sentence) is not None


def hand_numbers(numbers: str) -> list[tuple[int, int | None]]:
    """The numbers a mention names, with their second level: "2 and 4" → [(2, None), (4, None)]; "3.2" → [(3, 2)]."""
    return [(int(top), int(sub) if sub else None) for top, sub in re.findall(r"(\d+)(?:\.(\d+))?", numbers)]


# Notes to a co-author printed in the text: todonotes' `\todo` (unless the package is disabled), and
# the paper's own command that colours its argument and reads as a note ("\YL{…}" printing "YL: …").
_TODONOTES = re.compile(r"\\usepackage\s*(?:\[[^\]]*\])?\s*\{[^}]*\btodonotes\b")
_NOTE_NAME = DeferredPattern(r"todo|fixme|note|comment|tbd", re.I)
_COLOURS = DeferredPattern(r"\\(?:textcolor|color|colorbox|fcolorbox|hl|todo|marginpar|sethlcolor)\b")
# The body names who speaks or what the note is: "YL: #1", "[#1] #2", "TODO: #1".
_SPEAKER = DeferredPattern(r"[A-Za-z]{1,12}\s*:\s*\\?\S*#\d|\[#\d\]|TODO|FIXME")
# What the project-wide readings look for in each file (see `_holds`).
_SEARCHES: dict[str, str | re.Pattern[str]] = {
    "todonotes": _TODONOTES,
    "todonotes disabled": _TODONOTES_DISABLED,
    "chapters": _CHAPTER,
    **{f"{kind} numbered otherwise": _OWN_NUMBERING.format(type=kind) for kind in ("figure", "table", "section")},
    **{f"{kind} not by chapter": _NOT_BY_CHAPTER.format(type=kind) for kind in ("figure", "table", "section")},
}
# The commands every alternative of every search starts with.
_SEARCHED = DeferredPattern(
    r"\\(?:usepackage|chapter|numberwithin|counterwith|setcounter|addtocounter|newcommand|renewcommand|captionof|ContinuedFloat|documentclass)"
)


@record(slots=True)
class NoteCommand:
    """A command whose uses print a note to a co-author."""

    name: str
    package: bool  # todonotes' own `\todo`, not a command of the paper's


def note_commands(texts: Iterable[str], macros: list[MacroDef]) -> tuple[NoteCommand, ...]:
    """The commands that print draft notes in this project: each of the paper's own definitions must
    colour an argument and read as a note (a note's name, or a speaker before the argument), and
    none may print nothing."""
    texts = list(texts)
    silenced = set(silenced_commands(texts, macros))
    versions: dict[str, list[MacroDef]] = {}
    for macro in macros:
        versions.setdefault(macro.name.lstrip("\\"), []).append(macro)
    found = [
        NoteCommand(name, package=False)
        for name, defined in versions.items()
        if name not in silenced and all(_prints_a_note(name, macro) for macro in defined)
    ]
    if _anywhere(texts, "todonotes") and "todo" not in versions and "todo" not in silenced:
        found.append(NoteCommand("todo", package=True))
    return tuple(sorted(found, key=lambda command: command.name))


def _prints_a_note(name: str, macro: MacroDef) -> bool:
    if macro.arguments == 0 or "#" not in macro.body or not _COLOURS.search(macro.body):
        return False
    return _NOTE_NAME.search(name) is not None or _SPEAKER.search(macro.body) is not None


_DEFINITION = DeferredPattern(r"\\(?:(?:re)?newcommandx?|providecommand|def|DeclareRobustCommand|(?:New|Renew|Provide)DocumentCommand)\b")


def in_definition(source: str, offset: int) -> bool:
    """The command at `offset` is the name a definition defines, or in its body still open there (same paragraph)."""
    paragraph = source.rfind("\n\n", 0, offset)
    definitions = list(_DEFINITION.finditer(source, paragraph + 1, offset))
    if not definitions:
        return False
    if re.fullmatch(r"\*?\s*\{?\s*", source[definitions[-1].end() : offset]):
        return True  # `\newcommand\comment[1]{…}`: the name being defined
    between = re.sub(r"\\[{}]", "", COMMENT.sub("", source[definitions[-1].end() : offset]))
    return between.count("{") > between.count("}")


@lru_cache(maxsize=_FILE_CACHE_SIZE)
def note_uses(latex: str, commands: tuple[NoteCommand, ...]) -> tuple[tuple[int, int, NoteCommand], ...]:
    """Where `latex` calls a note command, comments aside: the command's name, as offsets of `latex`. Kept by
    text: DRF004 runs on every edit, and masking every file's comments again cost it most of its time on a book."""
    by_name = {command.name: command for command in commands}
    if not by_name:
        return ()
    masked = COMMENT.sub(lambda match: " " * len(match.group(0)), latex)
    calls = re.compile(r"\\(" + "|".join(map(re.escape, by_name)) + r")(?![A-Za-z@])")
    return tuple((match.start(), match.end(), by_name[match.group(1)]) for match in calls.finditer(masked))


# The float a `\ref` is named as by the word before it: "Figure~\ref{…}", "Tab. \ref{…}".
_NAMED_BEFORE = DeferredPattern(r"(?<![\w\\])(?P<name>Figures?|Figs?\.|Tables?|Tabs?\.)[\s~]*(?:\(\s*)?$")


def named_before(source: str, command_start: int) -> str | None:
    """ "figure" or "table" when the words right before a reference command name that kind of float."""
    match = _NAMED_BEFORE.search(source[max(0, command_start - 16) : command_start])
    return mentioned_kind(match.group("name")) if match else None


# A running head or foot, or a watermark, that stamps every page: "\markboth{…}{DRAFT \today}".
_PAGE_MARK_COMMANDS = r"markboth|markright|fancyhead|fancyfoot|[lcr]head|[lcr]foot|SetWatermarkText"
_PAGE_MARK = DeferredPattern(
    rf"\\(?P<command>{_PAGE_MARK_COMMANDS})"
    r"\s*(?:\[[^\]]*\]\s*)?\{(?:[^{}]|\{[^{}]*\})*\}"
    r"(?:\s*\{(?:[^{}]|\{[^{}]*\})*\})?"
)
_PAGE_MARK_COMMAND = DeferredPattern(rf"\\(?:{_PAGE_MARK_COMMANDS})")
_DRAFT_WORD = DeferredPattern(r"\b(?:DRAFT|[Dd]raft)\b")


@lru_cache(maxsize=_FILE_CACHE_SIZE)
def draft_page_marks(latex: str) -> tuple[tuple[str, int, int], ...]:
    """Where `latex` (comments aside) sets a running head, foot or watermark that says "draft": the command, and the word's offsets."""
    if _PAGE_MARK_COMMAND.search(latex) is None:
        return ()  # most files set none: one scan, not the masking of every comment of a book's chapter first
    masked = COMMENT.sub(lambda match: " " * len(match.group(0)), latex)
    found = []
    for mark in _PAGE_MARK.finditer(masked):
        word = _DRAFT_WORD.search(mark.group(0))
        if word is not None:
            found.append((mark.group("command"), mark.start() + word.start(), mark.start() + word.end()))
    return tuple(found)


# Words that tell no subject from another: articles, pronouns, auxiliaries, the names of a paper's parts.
FUNCTION_WORDS = frozenset(
    """
the and for with from into onto that this these those their there then than they them its was were are has have had been
being which what when where while who whom whose how why not but nor yet also such each every all any both either neither
more most less least very much many some other another same own our ours out over under about above below after before
between through during without within upon can could may might must shall should will would does did doing done like
section sections chapter chapters figure figures table tables see shown described
""".split()
)


# Plurals whose singular is the word itself, and endings of singulars that end in "s" ("class", "corpus", "analysis").
_INVARIANT_PLURALS = frozenset({"series", "species"})
_SINGULAR_S = ("ss", "us", "is")
# A sibilant before the plural's "es": "suffixes", "patches", "meshes", "classes", "buzzes".
_SIBILANT_PLURAL = DeferredPattern(r"(?:x|ch|sh|ss|zz)es$")


def singular(word: str) -> str:
    """A lower-case word's singular: "accuracies" is "accuracy", "suffixes" is "suffix", "rewards" is "reward";
    a word of three letters or fewer, or one whose singular ends in "s", as written."""
    if len(word) <= 3 or word in _INVARIANT_PLURALS or word.endswith(_SINGULAR_S) or not word.endswith("s"):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if _SIBILANT_PLURAL.search(word):
        return word[:-2]
    return word[:-1]
