"""Citations written through the author's own macros, shown in a block's plain text as the `\\ref` they stand for.

A paper that defines `\\newcommand{\\tableref}[1]{Table~\\ref{tab:#1}}` and writes "as \\tableref{res} shows"
cites the table labelled `tab:res`. The parse cannot know that (it reads each chunk without the preamble),
so its plain text shows the use as the macro's name glued to its argument: `\\tablerefres`. Placing a
block in its project, where the definitions are known, replaces each such use by `\\ref{tab:res}`, which
every reader of a block's references understands. A macro the project uses but never defines (a class
file's `\\tableref{tab:res}` or `\\figureref{fig:x}`) cites its argument as it stands, when its name says
it refers and its argument reads as a label (`tab:res`, `Peaks:Parameters`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import replace

from .deferred_pattern import DeferredPattern
from .key_wrappers import key_wrappers
from .macro_signatures import REF_COMMANDS
from .model import Block, MacroDef, PlainText
from .record import record

# A macro whose name says it refers: \tableref, \figref, \secref, \reftable (but not \ref itself, kept verbatim).
_REFERRING_NAME = DeferredPattern(r"[A-Za-z]*[Rr]ef[A-Za-z]*")
# A use in the source: the name, an optional star and one braced argument.
_USE = DeferredPattern(r"\\([A-Za-z]+)\*?\s*\{([^{}]*)\}")
# A key that reads as a label: a namespace before a colon, as `tab:res` or `Peaks:Parameters` (not a URL).
_LABEL_LIKE = DeferredPattern(r"[\w.-]+:(?!//)[^\s,]+")


@record(slots=True)
class ReferenceMacros:
    """The author's macros that cite a label: name → the (prefix, suffix) completing its argument to the
    label; and the referring-named macros the project defines otherwise (they cite nothing)."""

    wrappers: tuple[tuple[str, tuple[str, str]], ...]
    defined: frozenset[str]

    def label(self, name: str, key: str) -> str | None:
        """The label a use `\\name{key}` cites, or None when it cites none."""
        affixes = dict(self.wrappers).get(name)
        if affixes is not None:
            return f"{affixes[0]}{key.strip()}{affixes[1]}"
        if name in self.defined or name in REF_COMMANDS or not _LABEL_LIKE.fullmatch(key.strip()):
            return None
        return key.strip()


def reference_macros(macros: Iterable[MacroDef]) -> ReferenceMacros:
    """What the project's definitions say about its reference macros."""
    macros = list(macros)
    wrappers = {name: (prefix, suffix) for name, (kind, prefix, suffix) in key_wrappers(macros).items() if kind == "ref"}
    referring = {macro.name.lstrip("\\") for macro in macros if _REFERRING_NAME.fullmatch(macro.name.lstrip("\\"))}
    return ReferenceMacros(tuple(sorted(wrappers.items())), frozenset(referring - set(wrappers)))


def with_cited_labels(block: Block, text: str, references: ReferenceMacros) -> Block:
    """`block` (of the file whose text is `text`) with each use of a reference macro shown as `\\ref{label}`;
    the block itself when it has none."""
    plain = block.plain
    if "\\" not in plain.text:
        return block
    cited: list[tuple[int, int, str, int, int]] = []
    for match in _candidates(tuple(name for name, _ in references.wrappers)).finditer(plain.text):
        source_start = plain.source_offset(match.start())
        use = _USE.match(text, source_start)
        label = references.label(use.group(1), use.group(2)) if use else None
        if use is None or label is None:
            continue
        cited.append((match.start(), _plain_end(plain, use.end()), f"\\ref{{{label}}}", source_start, use.end()))
    for start, end, shown, source_start, source_end in reversed(cited):
        plain = _replaced(plain, start, end, shown, (source_start - plain.offset, source_end - plain.offset))
    return replace(block, plain=plain) if cited else block


@functools.lru_cache(maxsize=16)
def _candidates(names: tuple[str, ...]) -> re.Pattern[str]:
    """Where a use may start in plain text, which shows a use as the macro's name glued to its argument
    (`\\tablerefres`); the source then says where the name ends."""
    builtin = "|".join(sorted(REF_COMMANDS - set(names)))  # kept verbatim, `\\ref{…}`: read as they stand
    return re.compile(r"\\(?!(?:" + builtin + r")\*?\{)(?:" + "|".join([*map(re.escape, names), _REFERRING_NAME.pattern]) + ")")


def _plain_end(plain: PlainText, source_end: int) -> int:
    """The end of the plain text rendered from source before `source_end`."""
    end = 0
    for plain_start, plain_end, src_start, src_end in plain.segments:
        if plain.offset + src_start >= source_end:
            break
        one_to_one = plain_end - plain_start == src_end - src_start
        end = plain_start + min(source_end - plain.offset - src_start, src_end - src_start) if one_to_one else plain_end
    return end


def _replaced(plain: PlainText, start: int, end: int, shown: str, source: tuple[int, int]) -> PlainText:
    """`plain` with its text [start, end) replaced by `shown`, which maps to the whole `source` span
    (relative to the plain text's offset, as its segments are)."""
    delta = len(shown) - (end - start)
    segments = [segment for segment in plain.segments if segment[1] <= start]
    segments.append((start, start + len(shown), *source))
    segments += [(a + delta, b + delta, c, d) for a, b, c, d in plain.segments if a >= end]
    return PlainText(plain.text[:start] + shown + plain.text[end:], segments, plain.offset)
