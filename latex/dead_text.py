"""What of a file TeX never prints: the branches of a conditional it never takes (`\\iffalse`, `\\if0`, the
`\\else` of `\\iftrue`, the other branch of a `\\newif` switch the project sets once for all), the environments
the comment package excludes, and the arguments of macros that discard them. The manuscript reads its blocks,
headings and markers without it, and the index its labels, references and citations: the blocks' text, the
abstract, the captions, the tables and the quantity model read only what the paper prints."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from .conditionals import NEVER, branch_paths, group_end
from .deferred_pattern import DeferredPattern
from .model import Block, BlockKind, KeyUse, MacroDef, PlainText
from .source import uncommented

if TYPE_CHECKING:
    from .files import ProjectFiles

_EXCLUDE_COMMENT = DeferredPattern(r"^[^%\n]*?\\excludecomment\s*\{([^{}]+)\}", re.M)
# The control word a never-taken branch starts after (branch_paths starts it where the token ends).
_OPENING_TOKEN = DeferredPattern(r"\\[A-Za-z@]+$")
_LONGEST_TOKEN = 64
# `\newif\ifdraft`, and what sets it: `\drafttrue`, `\draftfalse`.
_NEWIF = DeferredPattern(r"\\newif\s*\\if([A-Za-z@]+)")


class Unread(NamedTuple):
    """What a project never prints, beyond `\\iffalse`: the environments it excludes, the macros that discard
    their arguments, and the value of each `\\newif` switch it sets once for all (a switch's other branch)."""

    excluded: tuple[str, ...] = ()
    discarding: tuple[str, ...] = ()
    switches: tuple[tuple[str, bool], ...] = ()


def project_unread(project: ProjectFiles, macros: list[MacroDef]) -> Unread:
    switches = switch_values(project.source(path).text for path in project.files)
    return Unread(excluded_environments(project), discarding_macros(macros), tuple(sorted(switches.items())))


def excluded_environments(project: ProjectFiles) -> tuple[str, ...]:
    """Environments the comment package drops in this root (`\\excludecomment{kdd}`): papers with one
    root per venue switch the venue's text with them, so their labels and references are not this root's."""
    return tuple(sorted({name for path in project.files for name in _excluded_in(project.source(path).text)}))


@lru_cache(maxsize=256)  # kept by a file's text: the drafts rules ask on every edit, and the other files are unchanged
def _excluded_in(text: str) -> frozenset[str]:
    return frozenset(name.strip() for name in _EXCLUDE_COMMENT.findall(text)) if "excludecomment" in text else frozenset()


@lru_cache(maxsize=256)
def _declared_switches(text: str) -> frozenset[str]:
    """The switches a file declares with `\\newif`, comments aside."""
    return frozenset(_NEWIF.findall(uncommented(text))) if "\\newif" in text else frozenset()


@lru_cache(maxsize=256)
def _switches_set(text: str, names: frozenset[str]) -> frozenset[tuple[str, bool]]:
    """How a file sets the switches `names` by hand (`\\drafttrue`, `\\draftfalse`), comments aside: only the
    declared ones are looked for, so a paper that declares none reads no file for them."""
    pattern = re.compile(r"\\(" + "|".join(map(re.escape, sorted(names))) + r")(true|false)(?![A-Za-z@])")
    return frozenset((name, value == "true") for name, value in pattern.findall(uncommented(text)))


def switch_values(texts: Iterable[str]) -> dict[str, bool]:
    """The `\\newif` switches the project sets once for all: `ifdraft` is False without `\\drafttrue`,
    True with it and no `\\draftfalse`; a switch set both ways is left out."""
    texts = list(texts)
    declared = frozenset[str]().union(*(_declared_switches(text) for text in texts))
    if not declared:
        return {}
    set_to = frozenset[tuple[str, bool]]().union(*(_switches_set(text, declared) for text in texts))
    return {f"if{name}": (name, True) in set_to for name in declared if not ((name, True) in set_to and (name, False) in set_to)}


def discarding_macros(macros: list[MacroDef]) -> tuple[str, ...]:
    """Macros that typeset none of their arguments: draft notes switched off (`\\newcommand{\\note}[1]{}`),
    and those that pass their arguments only to such macros (`\\newcommand{\\amit}[1]{\\note{Amit: #1}}`)."""
    return _discarding(tuple((macro.name.lstrip("\\"), macro.arguments, macro.body) for macro in macros))


@lru_cache(maxsize=64)  # kept by the definitions: the index and the drafts rules ask again on every edit
def _discarding(macros: tuple[tuple[str, int, str], ...]) -> tuple[str, ...]:
    definitions: dict[str, list[tuple[int, str]]] = {}
    for name, arguments, body in macros:
        definitions.setdefault(name, []).append((arguments, body))
    discarding: set[str] = set()
    for _ in range(3):  # a chain of a few wrappers at most
        calls = re.compile(r"\\(?:" + "|".join(map(re.escape, discarding)) + r")\s*\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}") if discarding else None
        found = {
            name
            for name, versions in definitions.items()
            if all(arguments > 0 and "#" not in (calls.sub("", body) if calls else body) for arguments, body in versions)
        }
        if found == discarding:
            break
        discarding = found
    return tuple(sorted(discarding))


def dead_spans(
    text: str, excluded: tuple[str, ...], discarding: tuple[str, ...], switches: Mapping[str, bool] = MappingProxyType({})
) -> list[tuple[int, int]]:
    """Stretches TeX never reads: branches of `\\iffalse … \\fi` or `\\if0 … \\fi` (and `\\else` of `\\iftrue`),
    the branch a `\\newif` switch of known value (`switches`, see conditionals.branch_paths) never takes,
    environments the comment package excludes, and the arguments of macros that discard them."""
    return list(_dead_spans(text, excluded, discarding, tuple(sorted(switches.items()))))


# Kept by a file's text and the project's settings: the manuscript, the index and the drafts rules each read
# every file's, the edited one's on every edit (a book's files and a few of its edited versions).
@lru_cache(maxsize=64)
def _dead_spans(
    text: str, excluded: tuple[str, ...], discarding: tuple[str, ...], switch_values: tuple[tuple[str, bool], ...]
) -> tuple[tuple[int, int], ...]:
    switches = dict(switch_values)
    spans = []
    if _holds_any(text, ("\\iffalse", "\\iftrue", "\\if0", "\\if 0", *("\\" + name for name in switches))):
        starts, paths = branch_paths(text, switches)
        for index, path in enumerate(paths):
            if any(branch == NEVER for _, branch in path):
                # The `\\iffalse`, `\\ifdraft` or `\\else` that opens the branch prints nothing either.
                opening = _OPENING_TOKEN.search(text, max(starts[index] - _LONGEST_TOKEN, 0), starts[index])
                start = opening.start() if opening else starts[index]
                spans.append((start, starts[index + 1] if index + 1 < len(starts) else len(text)))
    if excluded:
        pattern = re.compile(r"\\begin\{(" + "|".join(map(re.escape, excluded)) + r")\}.*?\\end\{\1\}", re.S)
        spans += [match.span() for match in pattern.finditer(text)]
    if discarding:  # one scan finds the calls, where a substring test of each name first cost a scan each
        pattern = re.compile(r"\\(?:" + "|".join(map(re.escape, discarding)) + r")(?![A-Za-z@])\s*\{")
        for match in pattern.finditer(text):
            end = group_end(text, match.end() - 1)
            if end is not None:
                spans.append((match.start(), end))
    return tuple(spans)


def _holds_any(text: str, needles: tuple[str, ...]) -> bool:
    """Whether `text` holds one of `needles`, in one scan: a substring test of each costs a scan each (0.3 ms for
    the conditionals and a paper's six note commands on a 17 kB file, which the index and the drafts rules both ask on every edit)."""
    return re.compile("|".join(map(re.escape, needles))).search(text) is not None


class DeadText:
    """A file's dead spans, joined where they touch and in order: whether an offset is dead is a search."""

    __slots__ = ("ends", "starts")

    def __init__(self, spans: tuple[tuple[int, int], ...]) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        for start, end in sorted(spans):
            if self.ends and start <= self.ends[-1]:
                self.ends[-1] = max(self.ends[-1], end)
            else:
                self.starts.append(start)
                self.ends.append(end)

    def __bool__(self) -> bool:
        return bool(self.starts)

    def covers(self, offset: int) -> bool:
        place = bisect.bisect_right(self.starts, offset) - 1
        return place >= 0 and offset < self.ends[place]

    def _clear(self, start: int, end: int) -> bool:
        """Whether no dead span meets [start, end) (nor starts at `start`, for an empty run)."""
        place = bisect.bisect_right(self.starts, start) - 1
        return (place < 0 or self.ends[place] <= start) and (place + 1 >= len(self.starts) or self.starts[place + 1] >= max(end, start + 1))

    def within(self, start: int, end: int) -> tuple[tuple[int, int], ...]:
        """The dead spans of [start, end), cut to it."""
        place = max(bisect.bisect_right(self.starts, start) - 1, 0)
        spans = []
        while place < len(self.starts) and self.starts[place] < end:
            if self.ends[place] > start:
                spans.append((max(self.starts[place], start), min(self.ends[place], end)))
            place += 1
        return tuple(spans)

    def live_pieces(self, start: int, end: int) -> list[tuple[int, int]]:
        """The stretches of [start, end) outside every dead span."""
        pieces = []
        for dead_start, dead_end in self.within(start, end):
            if start < dead_start:
                pieces.append((start, dead_start))
            start = dead_end
        return [*pieces, (start, end)] if start < end else pieces

    def printed(self, block: Block) -> Block | None:
        """`block` without the text TeX never prints: itself when none of it is dead, None when all of it is
        (or all its text, but for a float's: its image prints). A table keeps its cells: the table floats the corpus hides lie wholly in dead text."""
        dead = self.within(block.start, block.end)
        return _printed(_Same(block), dead) if dead else block

    def unprinted_labels(self, labels: Iterable[KeyUse]) -> frozenset[str]:
        """The keys of `labels` (a file's `\\label`s) that stand in dead text only: they label no float they sit in."""
        dead: set[str] = set()
        live: set[str] = set()
        for use in labels:
            (dead if self.covers(use.start) else live).add(use.key)
        return frozenset(dead - live)

    def printed_plain(self, plain: PlainText) -> PlainText:
        """`plain` without the characters whose source is dead, its runs of white space kept single."""
        parts: list[str] = []
        segments: list[tuple[int, int, int, int]] = []
        length = 0
        for plain_start, plain_end, source_start, source_end in plain.segments:
            start, end = plain.offset + source_start, plain.offset + source_end
            one_to_one = plain_end - plain_start == end - start
            if self._clear(start, end):  # most runs: one search, no pieces
                pieces = [(plain_start, start, end)]
            elif one_to_one:
                pieces = [(plain_start + live_start - start, live_start, live_end) for live_start, live_end in self.live_pieces(start, end)]
            else:  # a symbol or collapsed white space: dead when where it comes from starts dead
                pieces = [] if self.covers(start) else [(plain_start, start, end)]
            for piece_start, live_start, live_end in pieces:
                text = plain.text[piece_start : piece_start + live_end - live_start] if one_to_one else plain.text[plain_start:plain_end]
                if text[:1] == " " and (not parts or parts[-1].endswith((" ", "\n"))):
                    text = text[1:]
                    live_start += 1 if one_to_one else 0
                if text:
                    parts.append(text)
                    segments.append((length, length + len(text), live_start - plain.offset, live_end - plain.offset))
                    length += len(text)
        return PlainText("".join(parts), segments, plain.offset)


class _Same:
    """A value as a cache key: the same object, not an equal one."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value


_FLOATS = (BlockKind.FIGURE, BlockKind.TABLE, BlockKind.ALGORITHM)


# Kept by the parsed block and its dead spans: an edit leaves the blocks before it the same objects, and their
# printed versions must stay the same objects too, or the index would read them again on every keystroke.
@lru_cache(maxsize=1024)
def _printed(same: _Same, dead: tuple[tuple[int, int], ...]) -> Block | None:
    block = same.value
    assert isinstance(block, Block)
    if dead == ((block.start, block.end),):
        return None
    offset = block.plain.offset
    plain = _printed_plain(_Same(block.plain.segments), block.plain.text, tuple((start - offset, end - offset) for start, end in dead))
    # A float whose body's words are all dead still prints: its image, its caption (a block of its own).
    if block.plain.text.strip() and not plain.text.strip() and block.table is None and block.kind not in _FLOATS:
        return None
    return replace(block, plain=plain.shifted(offset))


def without_labels(block: Block, unprinted: frozenset[str]) -> Block:
    """`block` without the labels TeX never reads (`unprinted`): a float's, its table's, and those its caption describes."""
    if unprinted.isdisjoint(block.labels) and unprinted.isdisjoint(block.describes):
        return block
    return _without_labels(_Same(block), unprinted)


# Kept by the block, as `_printed`: an edit must hand the index the same objects for the blocks it leaves.
@lru_cache(maxsize=1024)
def _without_labels(same: _Same, unprinted: frozenset[str]) -> Block:
    block = same.value
    assert isinstance(block, Block)
    labels = [key for key in block.labels if key not in unprinted]
    table = block.table
    if table is not None and table.label in unprinted:
        table = replace(table, label=labels[0] if labels else None)
    return replace(block, labels=labels, describes=[key for key in block.describes if key not in unprinted], table=table)


# Kept by the parse's runs (which a moved block shares) and its dead spans where it stands: the blocks after an
# edit are moved copies, and cutting them again would cost every keystroke after a paragraph with dead text.
@lru_cache(maxsize=1024)
def _printed_plain(segments: _Same, text: str, dead: tuple[tuple[int, int], ...]) -> PlainText:
    runs = segments.value
    assert isinstance(runs, list)
    return DeadText(dead).printed_plain(PlainText(text, runs))


@lru_cache(maxsize=256)  # kept by a file's text and the project's settings: the manuscript and the index read every file's
def dead_text(text: str, unread: Unread) -> DeadText:
    """What of a file TeX never prints, given what its project never prints."""
    return DeadText(_dead_spans(text, unread.excluded, unread.discarding, unread.switches))
