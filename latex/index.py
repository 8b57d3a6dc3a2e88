"""The index: the project-wide, deterministic record of definitions, uses and claims.

Built from the per-file parses (cached by content hash) and the manuscript;
rebuilding it is a walk over already-parsed facts, never a re-parse.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .bibliography import BibEntry, BibProblem
from .conditionals import branch_paths, path_at
from .dead_text import DeadText, Unread, dead_text
from .deferred_pattern import DeferredPattern
from .key_wrappers import key_wrappers, rewrapped, wrapped_uses
from .manuscript import Manuscript, PlacedBlock, Section
from .model import Acronym, BlockKind, KeyUse, MacroDef, SectionKind, StyledText
from .numbers import NumberMention, find_numbers
from .option_labels import label_setting_commands, option_label_uses
from .printed_macros import MACRO_CALL, printed_macros
from .record import record
from .sentences import sentence_spans
from .source import SourceText, value_hash
from .tables import rule_macros

if TYPE_CHECKING:
    from .chunk_parser import Store
    from .document import Document
    from .files import ProjectFiles

# "large language models (LLMs)"; in brackets within parentheses, as APA nests them: "(e.g., response time [RT])".
_INLINE_ACRONYM = DeferredPattern(
    r"\b((?:[A-Z][\w\-]*\s+|[a-z][\w\-]*\s+){1,7}?[A-Za-z][\w\-]*)\s+[(\[]([A-Z][A-Za-z0-9\-]*[A-Z][A-Za-z0-9\-]*s?)[)\]]"
)
_CLAIM_WORDS = DeferredPattern(
    r"\b(outperform\w*|better|best|higher|highest|lower|lowest|improv\w*|surpass\w*|state[- ]of[- ]the[- ]art|first|novel|superior|significant\w*|faster|fastest|larger|smaller|more|fewer|reduc\w*|increas\w*|beat\w*)\b",
    re.I,
)
_CLAIM_SECTIONS = (SectionKind.ABSTRACT, SectionKind.INTRODUCTION, SectionKind.CONCLUSION)
_PROSE_KINDS = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM)


@dataclass(slots=True)
class LabelEntry:
    key: str
    file: str
    start: int
    end: int
    kind: str


@dataclass(slots=True)
class NumberInContext:
    mention: NumberMention
    block: PlacedBlock
    section_kind: SectionKind


@dataclass(slots=True)
class Claim:
    text: str
    block: PlacedBlock
    plain_start: int
    plain_end: int
    section_kind: SectionKind
    numbers: list[NumberMention] = field(default_factory=list)


@dataclass
class Index:
    labels: dict[str, list[LabelEntry]]
    refs: list[tuple[str, KeyUse]]
    cites: list[tuple[str, KeyUse]]
    bib_entries: dict[str, list[tuple[str, BibEntry]]]
    bib_problems: list[tuple[str, BibProblem]]
    bibitems: dict[str, list[tuple[str, KeyUse]]]
    macros: list[tuple[str, MacroDef]]
    acronyms: list[tuple[str, Acronym]]
    inline_acronyms: list[tuple[PlacedBlock, Acronym]]
    styled: list[tuple[str, StyledText]]
    numbers: list[NumberInContext]
    claims: list[Claim]
    tables: list[PlacedBlock]
    theorems: list[PlacedBlock]
    manuscript: Manuscript
    sources: dict[str, SourceText]  # every file's text, for positions
    # Facet → file → the items it contributes, and file → what they are a function of: digests are
    # taken per file and reused, so a keystroke re-digests one file.
    file_items: dict[str, dict[str, list[Any]]]
    versions: dict[str, _Version]
    cache: IndexCache
    digests_before: dict[_DigestKey, str]  # the per-file digests of the previous build (cache.digests holds this build's)

    def file_digest(self, name: str) -> str:
        """A digest of one of `file_items`' fields, for rule result caching (see analyzers.facets).

        Digests are taken per file and reused between builds: a keystroke re-digests one file.
        Positions enter as (line, column): typing on one line leaves the digests of
        everything on other lines, and the findings cached on them, unchanged.
        """
        parts = []
        for path, items in self.file_items[name].items():
            key = (name, path, self.versions[path])
            value = self.cache.digests.get(key) or self.digests_before.get(key) or value_hash([self.stable(path, item) for item in items])
            self.cache.digests[key] = value
            parts.append((path, value))
        return value_hash(parts)

    def stable(self, path: str, item: Any) -> tuple[object, ...]:
        """`item` (a slots dataclass with start and end offsets in `path`) with its
        offsets replaced by line, column and the text they span."""
        return stable_item(self.sources.get(path), path, item)

    def printed(self, text: str) -> str:
        """`text` (a rendering such as a table header) with the argument-less macros the paper defines
        spelled as they print, for messages: "row \\method" becomes "row SparseProbe"."""
        return MACRO_CALL.sub(lambda call: self._printed_macros.get(call.group(1), call.group(0)), text)

    @cached_property
    def _printed_macros(self) -> dict[str, str]:
        return printed_macros(macro for _, macro in self.macros)

    @cached_property
    def rule_macros(self) -> frozenset[str]:
        """The author's macros that draw table rules: the table rules ask for every section, once per build."""
        return rule_macros(macro for _, macro in self.macros)


@dataclass
class IndexCache:
    """What one index build hands to the next, keyed by content; each build keeps only what it used."""

    # (file, hash, wrappers) → _FileFacts; ("label-setting", a file's text) → its definitions
    derived: dict[object, Any] = field(default_factory=dict)
    # id of a Section → its _SectionContribution, which holds its blocks' contributions and facts
    sections: dict[int, _SectionContribution] = field(default_factory=dict)
    digests: dict[_DigestKey, str] = field(default_factory=dict)  # (facet, file, version) → digest of the file's items
    bibliographies: dict[tuple[object, ...], _BibliographyFacts] = field(default_factory=dict)  # (file, hash, read problem)s → facts


# What a file's items are a function of (its content hash first); with a facet and file it keys a digest.
_Version = tuple[object, ...]
_DigestKey = tuple[str, str, _Version]


def stable_item(source: SourceText | None, path: str, item: Any) -> tuple[object, ...]:
    """A slots dataclass with its `start`/`end` offsets as (path, line, column, the text they span, other fields)."""
    values = tuple(getattr(item, name) for name in item.__slots__ if name not in ("start", "end"))
    if source is None:
        return (path, item.start, item.end, *values)
    return (path, *source.position(item.start), source.text[item.start : item.end], *values)


@record(slots=True)
class _BlockFacts:
    """What the index derives from one block's text alone; reused while the text is unchanged."""

    mentions: list[NumberMention]
    acronyms: list[tuple[str, str, int, int]]  # short, long, plain span of the short form
    claim_spans: list[tuple[int, int]]


def _block_facts(text: str) -> _BlockFacts:
    mentions = find_numbers(text)
    acronyms = []
    for match in _INLINE_ACRONYM.finditer(text):
        long_form = _trim_long_form(match.group(1), match.group(2))
        if long_form:
            acronyms.append((match.group(2), long_form, match.start(2), match.end(2)))
    claim_spans = [(start, end) for _, start, end in _sentences_with_claims(text, mentions)]
    return _BlockFacts(mentions, acronyms, claim_spans)


@dataclass(slots=True)
class _FileFacts:
    """What one file contributes to the index, given the key wrappers; reused while both are unchanged."""

    labels: list[KeyUse]  # parsed and read through wrappers
    refs: list[KeyUse]
    cites: list[KeyUse]
    label_entries: list[LabelEntry]
    pairs: dict[str, list[tuple[str, Any]]]  # refs, cites, macros, acronyms, styled as (file, item)
    macros: list[MacroDef]  # with the conditional branch each sits in


@dataclass(slots=True)
class _BlockContribution:
    """What one placed block contributes; reused while the manuscript keeps the same PlacedBlock."""

    placed: PlacedBlock
    section_kind: SectionKind
    facts: _BlockFacts  # kept with its section's contribution while the block is reused
    numbers: list[NumberInContext]
    acronyms: list[Acronym]
    claims: list[Claim]


# The facets whose (file, item) pairs the index lists across files.
_PAIRED_FACETS = ("refs", "cites", "macros", "acronyms", "styled")


def build_index(project: ProjectFiles, manuscript: Manuscript, cache: IndexCache | None = None, store: Store | None = None) -> Index:
    """The index of `project`; `cache` carries derived facts and digests between builds.

    A first build also reads the block facts an earlier run kept in `store`, and keeps its own there.
    """
    cache = cache if cache is not None else IndexCache()
    file_items: dict[str, dict[str, list[Any]]] = {facet: {} for facet in _FILE_FACETS}
    versions: dict[str, _Version] = {}
    live: dict[object, Any] = {}  # the files' facts this build uses: the cache's next `derived`
    sources = _SourceFacts.read(project, manuscript, cache.derived, live, file_items, versions)
    bibliographies = _BibliographyFacts.read(project, cache, file_items, versions)
    prose = _ProseFacts.read(manuscript, project.files, cache, store, live, file_items)
    digests_before, cache.digests = cache.digests, {}
    texts = {path: project.source(path) for path in project.files}
    texts.update((path, project.source(path)) for path in project.bibliography_files)
    return Index(
        sources.labels,
        sources.pairs["refs"],
        sources.pairs["cites"],
        bibliographies.entries,
        bibliographies.problems,
        sources.bibitems,
        sources.pairs["macros"],
        sources.pairs["acronyms"],
        prose.inline_acronyms,
        sources.pairs["styled"],
        prose.numbers,
        prose.claims,
        prose.tables,
        prose.theorems,
        manuscript,
        texts,
        file_items,
        versions,
        cache,
        digests_before,
    )


@dataclass(slots=True)
class _SourceFacts:
    """What the project's LaTeX files define and use, gathered from each file's (cached) facts."""

    labels: dict[str, list[LabelEntry]] = field(default_factory=dict)
    pairs: dict[str, list[tuple[str, Any]]] = field(default_factory=lambda: {facet: [] for facet in _PAIRED_FACETS})
    bibitems: dict[str, list[tuple[str, KeyUse]]] = field(default_factory=dict)

    @classmethod
    def read(
        cls,
        project: ProjectFiles,
        manuscript: Manuscript,
        previous: dict[object, Any],
        live: dict[object, Any],
        file_items: dict[str, dict[str, list[Any]]],
        versions: dict[str, _Version],
    ) -> _SourceFacts:
        facts_of_files = cls()
        all_macros = [macro for path in project.files for macro in project.documents[path].parsed.macros]
        wrappers = key_wrappers(all_macros)
        unread = manuscript.unread
        labelling = label_setting_commands(
            [*project.definitions.values(), *(project.source(path).text for path in project.files)], previous, live
        )
        wrappers_key = (tuple(sorted(wrappers.items())), unread, labelling)  # what reading a file's keys depends on
        theorems_key = tuple(sorted(manuscript.theorem_environments))
        for path in project.files:
            document = project.documents[path]
            parsed = document.parsed
            # A file the manuscript never walks (`\input` only from dead text) prints none of its keys.
            printed = path in manuscript.layouts
            versions[path] = (document.hash, wrappers_key, theorems_key, printed)
            key = (path, document.hash, wrappers_key, printed)
            facts = live.get(key) or previous.get(key) or _file_facts(path, document, wrappers, unread, labelling, printed)
            live[key] = facts
            for entry in facts.label_entries:
                facts_of_files.labels.setdefault(entry.key, []).append(entry)
            for facet in _PAIRED_FACETS:
                facts_of_files.pairs[facet] += facts.pairs[facet]
            for item in parsed.bibitems:
                facts_of_files.bibitems.setdefault(item.key, []).append((path, item))
            for facet, items in (
                ("labels", facts.labels),
                ("refs", facts.refs),
                ("cites", facts.cites),
                ("macros", facts.macros),
                ("acronyms", parsed.acronyms),
                ("styled", parsed.styled),
                ("bibitems", parsed.bibitems),
            ):
                file_items[facet][path] = items
            file_items["inline_acronyms"][path] = []
        return facts_of_files


@dataclass(slots=True)
class _BibliographyFacts:
    """The entries and problems of the project's bibliography files."""

    entries: dict[str, list[tuple[str, BibEntry]]] = field(default_factory=dict)
    problems: list[tuple[str, BibProblem]] = field(default_factory=list)

    @classmethod
    def read(
        cls, project: ProjectFiles, cache: IndexCache, file_items: dict[str, dict[str, list[Any]]], versions: dict[str, _Version]
    ) -> _BibliographyFacts:
        """Gathered again only when a bibliography changed: a keystroke in a .tex file keeps a paper's hundreds of entries."""
        bibliographies = [(path, project.bibliographies[path]) for path in project.bibliography_files]
        key = tuple((path, bibliography.source.hash, bibliography.read_problem) for path, bibliography in bibliographies)
        facts = cache.bibliographies.get(key)
        if facts is None:
            facts = cls()
            for path, bibliography in bibliographies:
                for entry in bibliography.entries:
                    facts.entries.setdefault(entry.key, []).append((path, entry))
                facts.problems += [(path, problem) for problem in bibliography.problems]
        cache.bibliographies = {key: facts}
        for path, bibliography in bibliographies:
            versions[path] = (bibliography.source.hash,)
            file_items["bib_entries"][path] = bibliography.entries
            file_items["bib_problems"][path] = bibliography.problems
        return facts


@dataclass(slots=True)
class _ProseFacts:
    """What the manuscript's blocks state (numbers, claims, inline acronyms), and its tables and theorems."""

    numbers: list[NumberInContext] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    inline_acronyms: list[tuple[PlacedBlock, Acronym]] = field(default_factory=list)
    tables: list[PlacedBlock] = field(default_factory=list)
    theorems: list[PlacedBlock] = field(default_factory=list)

    @classmethod
    def read(
        cls,
        manuscript: Manuscript,
        files: Iterable[str],
        cache: IndexCache,
        store: Store | None,
        live: dict[object, Any],
        file_items: dict[str, dict[str, list[Any]]],
    ) -> _ProseFacts:
        """Each section's contribution, reused from `cache` while the manuscript keeps the same Section (an edit
        re-reads the edited section alone); in it each prose block's, reused while the block is the same object.
        A first build also reuses the block facts kept in `store`, and keeps its own."""
        prose = cls()
        first_build = not cache.sections
        previous = cache.derived
        if first_build and store is not None:
            previous = {text: facts for path in files for text, facts in store.load("block_facts", path, _BlockFacts).items()}
            previous.update(cache.derived)
        kept = {
            id(section): contribution
            for section in manuscript.sections
            if (contribution := cache.sections.get(id(section))) is not None
            and contribution.section is section
            and contribution.blocks == len(section.blocks)
        }
        # A section read again finds its blocks' contributions and facts among those of the sections it replaces
        # (an edit's one or two), not in a table of every block of the paper rebuilt on every edit.
        replaced = [contribution for key, contribution in cache.sections.items() if kept.get(key) is not contribution]
        blocks = {key: block for contribution in replaced for key, block in contribution.contributions.items()}
        if replaced:
            previous = previous | {text: facts for contribution in replaced for text, facts in contribution.facts.items()}
        live_sections: dict[int, _SectionContribution] = {}
        new_facts_in: set[str] = set()  # the files with blocks whose facts this build derived
        for section in manuscript.sections:
            contribution = kept.get(id(section)) or _SectionContribution.read(section, blocks, previous, new_facts_in)
            live_sections[id(section)] = contribution
            for field_name in ("numbers", "claims", "inline_acronyms", "tables", "theorems"):
                getattr(prose, field_name).extend(getattr(contribution.prose, field_name))
            for placed, acronym in contribution.prose.inline_acronyms:
                file_items["inline_acronyms"][placed.file].append(acronym)
        cache.derived, cache.sections = live, live_sections
        if first_build and store is not None:
            facts_of = {text: facts for contribution in live_sections.values() for text, facts in contribution.facts.items()}
            for path in new_facts_in:
                texts = {placed.block.plain.text for placed in manuscript.blocks if placed.file == path and placed.kind in _PROSE_KINDS}
                store.save("block_facts", path, {text: facts_of[text] for text in texts})
        return prose


@dataclass(slots=True)
class _SectionContribution:
    """What one section's blocks contribute; reused while the manuscript keeps the same Section."""

    section: Section
    blocks: int  # how many blocks it held
    prose: _ProseFacts
    contributions: dict[int, _BlockContribution]  # id of a PlacedBlock → its contribution
    facts: dict[object, Any]  # its blocks' texts → their facts: where a section that replaces it finds them

    @classmethod
    def read(
        cls, section: Section, blocks: dict[int, _BlockContribution], previous: dict[object, Any], new_facts_in: set[str]
    ) -> _SectionContribution:
        read = cls(section, len(section.blocks), _ProseFacts(), {}, {})
        prose = read.prose
        for placed in section.blocks:
            kind = placed.kind
            if kind is BlockKind.TABLE and placed.block.table is not None:
                prose.tables.append(placed)
            elif kind is BlockKind.THEOREM:
                prose.theorems.append(placed)
            if kind not in _PROSE_KINDS:
                continue
            contribution = blocks.get(id(placed))
            if contribution is None or contribution.placed is not placed or contribution.section_kind is not section.kind:
                if placed.block.plain.text not in read.facts and placed.block.plain.text not in previous:
                    new_facts_in.add(placed.file)
                contribution = _contribution(placed, section.kind, read.facts, previous)
            else:
                read.facts[placed.block.plain.text] = contribution.facts
            read.contributions[id(placed)] = contribution
            prose.numbers += contribution.numbers
            prose.claims += contribution.claims
            prose.inline_acronyms += [(placed, acronym) for acronym in contribution.acronyms]
        return read


def _file_facts(
    path: str,
    document: Document,
    wrappers: dict[str, tuple[str, str, str]],
    unread: Unread,
    labelling: tuple[tuple[str, bool, int], ...],
    printed: bool,
) -> _FileFacts:
    parsed = document.parsed
    labels = [*parsed.labels, *wrapped_uses(document.text, wrappers, "label"), *option_label_uses(document.text, labelling)]
    refs = [*(rewrapped(ref, wrappers) for ref in parsed.refs), *wrapped_uses(document.text, wrappers, "ref")]
    cites = parsed.cites
    dead = dead_text(document.text, unread)
    if not printed:
        labels, refs, cites = [], [], []
    elif dead:
        labels, refs, cites = (_outside(uses, dead) for uses in (labels, refs, cites))
    entries = [LabelEntry(label.key, path, label.start, label.end, label.kind) for label in labels]
    macros = _with_branches(document.text, parsed.macros)
    items: dict[str, list[Any]] = {"refs": refs, "cites": cites, "macros": macros, "acronyms": parsed.acronyms, "styled": parsed.styled}
    return _FileFacts(labels, refs, cites, entries, {facet: [(path, item) for item in items[facet]] for facet in _PAIRED_FACETS}, macros)


def _outside(uses: list[KeyUse], dead: DeadText) -> list[KeyUse]:
    """The uses that start outside every dead span."""
    return [use for use in uses if not dead.covers(use.start)]


def _with_branches(text: str, macros: list[MacroDef]) -> list[MacroDef]:
    """The definitions with the conditional branches they sit in (\\ifdraft … \\else … \\fi)."""
    if not macros:
        return macros
    starts, paths = branch_paths(text)
    return [replace(macro, branch=path_at(starts, paths, macro.start)) for macro in macros]


def _contribution(placed: PlacedBlock, kind: SectionKind, live: dict[object, Any], previous: dict[object, Any]) -> _BlockContribution:
    plain = placed.block.plain
    facts = live.get(plain.text) or previous.get(plain.text) or _block_facts(plain.text)
    live[plain.text] = facts
    acronyms = []
    for short, long_form, plain_start, plain_end in facts.acronyms:
        start, end = plain.source_span(plain_start, plain_end)
        acronyms.append(Acronym(short, long_form, start, end, "inline"))
    claims = []
    if kind in _CLAIM_SECTIONS:
        claims = [
            Claim(plain.text[start:end], placed, start, end, kind, [m for m in facts.mentions if start <= m.plain_start < end])
            for start, end in facts.claim_spans
        ]
    return _BlockContribution(placed, kind, facts, [NumberInContext(m, placed, kind) for m in facts.mentions], acronyms, claims)


# The fields digested file by file (see Index.file_digest).
_FILE_FACETS = ("labels", "refs", "cites", "macros", "acronyms", "styled", "bibitems", "inline_acronyms", "bib_entries", "bib_problems")


def _sentences_with_claims(text: str, mentions: list[NumberMention]) -> Iterator[tuple[str, int, int]]:
    numbers = [mention.plain_start for mention in mentions if not mention.is_year]  # in text order: found sentence by sentence
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        first = bisect.bisect_left(numbers, start)
        has_number = first < len(numbers) and numbers[first] < end
        if has_number or _CLAIM_WORDS.search(sentence):
            yield sentence, start, end


def _trim_long_form(candidate: str, short: str) -> str | None:
    """Keep the last words of `candidate` whose initials spell the acronym."""
    words = candidate.split()
    letters = [c for c in short.rstrip("s") if c.isupper() or c.isdigit()]
    if not letters or (len(words) < 2 and len(letters) > 1):
        return None
    count = len(letters)
    for size in range(min(len(words), count + 3), 0, -1):
        tail = words[-size:]
        parts = [part for word in tail for part in word.split("-") if part]
        # "adaptive mixtures of importance sampling (AMIS)", "signal-to-noise ratio (SNR)": small
        # joining words, alone or inside a hyphenated word, may carry no letter.
        spellings = {_initials(tail), _initials(parts), _initials(tail, skip=JOINING_WORDS), _initials(parts, skip=JOINING_WORDS)}
        if "".join(letters) in spellings and tail[0].lower() not in JOINING_WORDS:
            return " ".join(tail)
    return None


def _initials(words: list[str], skip: frozenset[str] = frozenset()) -> str:
    return "".join(word[0].upper() for word in words if word[0].isalnum() and word.lower() not in skip)


# Words an acronym skips ("Bureau of Labor Statistics (BLS)").
JOINING_WORDS = frozenset({"of", "and", "for", "the", "in", "on", "to", "with", "a", "an"})
