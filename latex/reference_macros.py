"""Citations written through the author's own macros, shown in a block's plain text as the `\\ref` they stand for.

A paper that defines `\\newcommand{\\tableref}[1]{Table~\\ref{tab:#1}}` and writes "as \\tableref{res} shows"
cites the table labelled `tab:res`. The parse cannot know that (it reads each chunk without the preamble),
so its plain text shows the use as the macro's name glued to its argument: `\\tablerefres`. Placing a
block in its project, where the definitions are known, replaces each such use by `\\ref{tab:res}`, which
every reader of a block's references understands. A macro the project uses but never defines (a class
file's `\\tableref{tab:res}` or `\\figureref{fig:x}`) cites its argument as it stands, when its name says
it refers and its argument reads as a label (`tab:res`, `Peaks:Parameters`).

Labels set through the author's macros are placed the same way: a float that writes `\\figurelabel{sho}` for
`\\label{fig:sho}` is labelled `fig:sho`, as its `\\label` would label it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import replace

from .deferred_pattern import DeferredPattern
from .key_wrappers import key_wrappers, wrapped_uses
from .macro_signatures import REF_COMMANDS
from .model import Block, BlockKind, MacroDef, PlainText
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
    # The macros that set a label, name → ("label", prefix, suffix) as key_wrappers gives them.
    labelling: tuple[tuple[str, tuple[str, str, str]], ...] = ()

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
    wrapping = key_wrappers(macros)
    wrappers = {name: (prefix, suffix) for name, (kind, prefix, suffix) in wrapping.items() if kind == "ref"}
    # A label macro that steps a counter of its own (`\\refstepcounter{ALC@line}\\label`) labels that counter, not a float.
    stepping = {macro.name.lstrip("\\") for macro in macros if "\\refstepcounter" in macro.body}
    labelling = tuple(sorted((name, wrapper) for name, wrapper in wrapping.items() if wrapper[0] == "label" and name not in stepping))
    referring = {macro.name.lstrip("\\") for macro in macros if _REFERRING_NAME.fullmatch(macro.name.lstrip("\\"))}
    return ReferenceMacros(tuple(sorted(wrappers.items())), frozenset(referring - set(wrappers)), labelling)


# The blocks a label names: a float's own, and a caption's, which describes its float.
_LABELLED = (BlockKind.FIGURE, BlockKind.TABLE, BlockKind.ALGORITHM, BlockKind.CAPTION)


def with_macro_labels(block: Block, text: str, references: ReferenceMacros) -> Block:
    """`block` with the labels the author's macros cite (with_cited_labels) and, for a float or a caption, set."""
    return with_set_labels(with_cited_labels(block, text, references), text, references)


def with_set_labels(block: Block, text: str, references: ReferenceMacros) -> Block:
    """A float or caption `block` with the labels the author's label macros set within it (`\\figurelabel{sho}`):
    the parse reads no preamble, so it left them out."""
    if not references.labelling or block.kind not in _LABELLED:
        return block
    uses = wrapped_uses(text[block.start : block.end], dict(references.labelling), "label")
    keys = [use.key for use in uses if use.key not in block.labels]
    if not keys:
        return block
    labels = [*block.labels, *keys]
    if block.kind is BlockKind.CAPTION:
        return replace(block, labels=labels, describes=[*block.describes, *keys])
    table = block.table
    if table is not None and table.label is None:
        table = replace(table, label=labels[0])
    return replace(block, labels=labels, table=table)


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
