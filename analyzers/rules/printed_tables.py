"""A table named by its printed number ("Table 3", "Tab. 2", "Tables 2 and 4") cites the table float that prints it.

A sentence's own `\\ref` says which table it speaks of. A paper that types the number instead says the
same, as long as the number names one table: the table float whose numbered caption LaTeX numbers so,
counted as DRF003 counts (drafts/float_numbers.py; a `\\caption*` note below the caption does not
count). A sentence's literal mention is kept as a key of its own, the printed number `3` (a message's
"Table 3" then reads as the paper prints it). The key reads from the text alone, so a section's part
holding it stays valid whatever the rest of the paper does; the table it names is found where the
paper's tables are gathered, from the whole manuscript's numbering (`with_printed`).

The STAT and ARI rules read their tables through `with_printed`; the TAB rules through `cited_tables` and
`citing_sentences` (tables/model.py), NUM001 through `sentence_pointing` and `bound_pointing`. A finding
read against a table its number names carries `BY_NUMBER` in its evidence class, which the measured-precision
gate measures apart from a `\\ref`'s.

A sentence's own `\\ref`s come first; its numbers come before its paragraph's citations, which stay
behind them: a number that binds to no table leaves the sentence reading as it did without it.

Nothing is bound where the number is uncertain or wrong: a number DRF008 finds typed for another table (its
sentence describes another caption) binds nowhere in the paper; a kind the numbering cannot follow (per chapter, a
`\\thetable` printed otherwise, a counter added to), a file the walk could not reach, a float the parse
missed, a number two labelled tables print or an unlabelled one prints, a label two tables bear, a number past the last table,
a number with a second level ("Table 2.1"), and a sentence that may name another work's table ("Table 1
of [12]", "in Smith et al.", the supplement, an appendix).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import replace
from typing import TypeVar

from ...latex.deferred_pattern import DeferredPattern
from ...latex.manuscript import Section
from ...latex.model import Block, Table
from ...latex.sentences import sentence_spans
from ..context import RuleContext
from ..finding import Finding
from ..quantities import Pointing, ShownTable, block_refs, referenced_labels, tables_by_label, tables_part
from .drafts import described_float
from .drafts import model as drafts
from .drafts.float_numbers import numbered_floats

T = TypeVar("T")
S = TypeVar("S")


def literal_key(number: str) -> str:
    """The key a literal mention of table `number` cites, until the paper's numbering says which table it is:
    the number as printed, which no label of the paper is taken to be."""
    return number


def sentence_tables(sentence: str, paragraph: Iterable[str]) -> tuple[str, ...]:
    """What a sentence cites: its own `\\ref`s, else the tables it names by number followed by `paragraph`'s
    citations. Those stay: a number the paper's numbering cannot bind cites nothing, and the sentence then
    reads as it did without it."""
    return tuple(sorted(referenced_labels(sentence))) or tuple(dict.fromkeys([*sorted(literal_refs(sentence)), *sorted(paragraph)]))


def printed_key(key: str) -> bool:
    """Whether a cited key is a printed number (`literal_key`), which may bind to no table."""
    return _PRINTED_KEY.fullmatch(key) is not None


def paragraph_tables(block: Block) -> frozenset[str]:
    """What a block cites for its sentences that cite nothing: its `\\ref`s (a caption, its float) and the
    tables it names by number."""
    return block_refs(block) | literal_refs(block.plain.text)


@functools.lru_cache(maxsize=4096)
def literal_refs(text: str) -> frozenset[str]:
    """The keys (`literal_key`) of the tables `text` names by number, outside sentences about another work."""
    if "Tab" not in text:
        return frozenset()
    keys: set[str] = set()
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        mentions = [
            mention for mention in drafts.HAND_NUMBERED.finditer(sentence) if drafts.mentioned_kind(mention.group("name")) == "table"
        ]
        if not mentions or drafts.elsewhere(sentence):
            continue
        for mention in mentions:
            numbers = drafts.hand_numbers(mention.group("numbers"))
            keys.update(literal_key(str(top)) for top, sub in numbers if sub is None)
    return frozenset(keys)


def printed_tables(ctx: RuleContext) -> dict[str, str]:
    """Each literal key (`literal_key`) that names exactly one labelled table float, with that float's label;
    empty where the paper's table numbering cannot be followed."""
    project = ctx.whole_project  # the files' texts and include graph, which "blocks" covers
    if any(inclusion.target is None for inclusion in project.inclusions if inclusion.site.kind == "tex"):
        return {}
    manuscript = ctx.manuscript
    tables = [
        placed
        for placed in manuscript.blocks
        if placed.kind in drafts.FLOAT_BLOCKS and drafts.float_type(placed.block.environment or "") == "table"
    ]
    if not tables:
        return {}
    texts = {path: ctx.source(path).text for path in project.files}
    if drafts.float_environments(texts.values(), "table") > len(tables) or drafts.numbered_by_chapter(texts.values(), "table"):
        return {}  # a table environment the parse did not read (the count would run short), or "Table 4.1"
    macros = ctx.index.macros
    numbered = [
        found
        for found in numbered_floats(manuscript, texts, drafts.unprinted(project, macros), macros, noted=True)
        if found.kind == "table"
    ]
    printed: dict[str, list[tuple[str, ...]]] = {}
    for found in numbered:
        labels = found.labels or ((found.placed.block.table.label,) if found.placed.block.table and found.placed.block.table.label else ())
        printed.setdefault(found.number, []).append(labels)
    misnumbered = {found.mention.group("number") for found in described_float.misnumbered(ctx) if found.kind == "table"}
    # A label two table floats bear names either: the rules read both floats under it, not the number's alone.
    borne = Counter(label for placed in tables for label in set(placed.block.labels))
    return {
        literal_key(number): labels[0][0]
        for number, labels in printed.items()
        if len(labels) == 1 and labels[0] and borne[labels[0][0]] <= 1 and number not in misnumbered
    }


def with_printed(tables: Mapping[str, T], ctx: RuleContext) -> Mapping[str, T]:
    """`tables` (by label) with each table also found under the literal key its printed number gives it."""
    return _WithPrinted(tables, ctx)


def shown_tables_by_label(ctx: RuleContext, feeding: list[tuple[int, Section, list[object]]]) -> Mapping[str, tuple[Table, ...]]:
    """The shared state of a `Pairwise` combine over sections' shown tables (`ShownTable`): every table of the
    paper under each of its labels (all the tabulars of a float), and under the number each prints."""
    shown = tables_by_label([(section, part) for _, section, part in feeding], ShownTable)
    return with_printed({label: tuple(item.table for item in items) for label, items in shown.items()}, ctx)


# What an evidence class adds when the table a claim is read against is named by a number typed by hand: the
# measured-precision gate measures these bindings apart from a `\ref`'s.
BY_NUMBER = "; table named by a hand-typed number"


def named_by_number(key: str, tables: Mapping[str, object]) -> bool:
    """Whether a cited key reaches its table by a printed number (`with_printed`) rather than by its label."""
    return isinstance(tables, _WithPrinted) and key not in tables.labelled and key in tables


def marked_by_number(finding: Finding) -> Finding:
    """The finding, its evidence class marked (`BY_NUMBER`): the table it was read against is named by a printed number."""
    if finding.evidence is None:
        return finding
    return finding.model_copy(update={"evidence": finding.evidence.model_copy(update={"kind": finding.evidence.kind + BY_NUMBER})})


def judged_by_number(judge: Callable[[S, Mapping[str, T]], Iterable[Finding]]) -> Callable[[S, Mapping[str, T]], Iterator[Finding]]:
    """`judge` of a statement against tables that also answer to printed numbers (`with_printed`): the findings it
    gives only because a number named a table (judged against the tables by label, the statement gives none such)
    are `marked_by_number`."""

    def judged(stated: S, tables: Mapping[str, T]) -> Iterator[Finding]:
        found = list(judge(stated, tables))
        keys = getattr(stated, "labels", ())
        if not found or not isinstance(tables, _WithPrinted) or not any(named_by_number(key, tables) for key in keys):
            yield from found
            return
        by_label = {(finding.range, finding.identity) for finding in judge(stated, tables.labelled)}
        yield from (finding if (finding.range, finding.identity) in by_label else marked_by_number(finding) for finding in found)

    return judged


def paragraph_keys(text: str, describes: Iterable[str]) -> tuple[str, ...]:
    """What a paragraph's plain `text` cites, in order: its `\\ref`s, the tables it names by number, and (a caption)
    the float it describes; `paragraph_tables` read from the text alone, for the readings kept by text."""
    return tuple(sorted(referenced_labels(text) | literal_refs(text) | frozenset(describes)))


def sentence_pointing(sentence: str, block: Block, words: frozenset[str]) -> Pointing:
    """What ties a sentence of `block` to cells: its own references, else the tables it names by number; its
    paragraph's (`paragraph_tables`); the float a caption describes. Printed numbers stay keys (`literal_key`)
    until `bound_pointing` reads them against the paper's numbering."""
    refs = referenced_labels(sentence) or literal_refs(sentence)
    return Pointing(words, refs, paragraph_tables(block), frozenset(block.describes))


def bound_pointing(pointing: Pointing, labels: AbstractSet[str], ctx: RuleContext) -> Pointing:
    """`pointing` with each printed number it cites (a key that is no label of `labels`) read as the label of the
    one table the number names, and dropped where it names none; `by_number` holds the labels reached so."""
    numbers = [key for key in pointing.refs | pointing.paragraph_refs if key not in labels and printed_key(key)]
    if not numbers:
        return pointing
    printed = _printed(ctx)
    named = {key: printed[key] for key in numbers if printed.get(key) in labels}

    def bound(keys: frozenset[str]) -> frozenset[str]:
        return frozenset(named.get(key, key) for key in keys if key in named or key not in numbers)

    referenced = (pointing.refs | pointing.paragraph_refs).difference(numbers)
    by_number = frozenset(named.values()) - referenced
    return replace(pointing, refs=bound(pointing.refs), paragraph_refs=bound(pointing.paragraph_refs), by_number=by_number)


# What a literal key looks like: a printed number, with a supplement's letters.
_PRINTED_KEY = DeferredPattern(r"[A-Z]{0,2}\d+")


class _WithPrinted(Mapping[str, T]):
    """Tables by label that also answer to a printed number. The numbering is read only when a sentence cites one
    (it parses every float), and once per index; iterating gives the labels alone, so a reader that picks a table
    by its name meets each table once, under its label."""

    def __init__(self, tables: Mapping[str, T], ctx: RuleContext) -> None:
        self._tables, self._ctx = tables, ctx

    @property
    def labelled(self) -> Mapping[str, T]:
        """The tables by their labels alone."""
        return self._tables

    def __getitem__(self, key: str) -> T:
        if key in self._tables or not _PRINTED_KEY.fullmatch(key):
            tables = self._tables[key]
            return tables_part(key, tables) if isinstance(tables, tuple) else tables  # type: ignore[return-value]
        label = _printed(self._ctx).get(key)
        if label is None or label not in self._tables:
            raise KeyError(key)
        return self._tables[label]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)


_last: list[tuple[object, dict[str, str]]] = []  # the numbering of the last index asked about


def _printed(ctx: RuleContext) -> dict[str, str]:
    """`printed_tables`, kept for the project's current index: each rule of a check asks in turn."""
    index = ctx.whole_project.index
    if not _last or _last[0][0] is not index:
        _last[:] = [(index, printed_tables(ctx))]
    return _last[0][1]
