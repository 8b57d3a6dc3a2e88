"""DRF011: a work cited under a name that is another cited work's author.

## How it decides
A citation command typed right after one or two capitalised names ("Settles~\\cite{…}",
"Zhou et al.~\\cite{…}", "Kim and Lee~\\cite{…}") credits the cited work to them. The names are
compared with the surnames of the people the cited `.bib` entry lists as its authors and editors,
accents and case aside. A name is judged only when it is the surname of someone another entry of
the bibliography lists, and the paper never writes it in lower case: a capitalised word before a
citation is as often a method or a dataset ("BERT~\\cite{…}"), a body ("the Project~\\cite{…}",
where "{The Mouse Genomes Project}" wrote another entry) or a word that opens the sentence
("The~\\cite{…}", where P. S. The did) as an author. The citation is flagged when one of its names
is none of its own entry's people and no work cited in the rest of the sentence lists it either
("Our proof follows Wolf \\cite{a}, \\cite{wolf}" names the author of the list the citations make).
A `\\cite` of several keys, and an entry without authors (a `.bbl`'s `\\bibitem`), are not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.bibliography import BibEntry
from ....latex.model import KeyUse
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...memo import Same
from ...registry import rule
from ...scholarly.cited_references import split_authors, to_text
from ...scholarly.matching import normal, surname
from ...violation import Violation, violation_type
from .model import unprinted

# One or two capitalised names right before the citation command, with "et al." after them.
_NAME = r"[A-Z][a-z'\-]+"
_NAMED = re.compile(rf"(?P<names>{_NAME}(?:\s+(?:and|\\&)\s+{_NAME})?)(?:\s+et\s*~?\s*al\.?,?)?\s*~?\s*$")
_NAME_JOIN = re.compile(r"\s+(?:and|\\&)\s+")
_LOWER_WORD = re.compile(r"\b[a-z][a-z'\-]+\b")
# A whole file's text is a cache key here: a project's files and a few edited versions of them, no more.
_FILE_CACHE_SIZE = 256
# How far before the command the names are looked for, and after it the sentence's other citations.
_BEFORE = 80
_SENTENCE_AFTER = 600


@violation_type
class CitationNamesAnotherAuthor(Violation):
    key: str
    name: str  # the name the text gives the work
    other_key: str  # a bibliography entry of which that name is an author

    @property
    def message(self) -> str:
        return (
            f"the text credits `\\cite{{{self.key}}}` to {self.name}, who is not among its authors but is an author of `{self.other_key}`"
        )

    @property
    def identity(self) -> str:
        return f"{self.name} \\cite{{{self.key}}}"


@rule(
    "DRF011",
    "citation-names-another-author",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks", "macros", "cites", "bibliography"),
)
def citation_names_another_author(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a citation credited by name to someone who is not among the cited work's authors but is
    an author of another work in the bibliography: "Settles~\\cite{zhou2017fine} defines measures of
    entropy and diversity", where `zhou2017fine` is by Zhou et al. and Settles wrote `settles2009active`.

    ## Why is this bad?
    The reader attributes the idea to the wrong people, or looks up the wrong work: either the name
    or the key is the wrong one, often a key picked from the neighbouring entry.

    ## Example
    ```latex
    Settles~\\cite{zhou2017fine} defines measures of entropy and diversity.
    ```

    ## Use instead
    ```latex
    Zhou et al.~\\cite{zhou2017fine} define measures of entropy and diversity.
    ```

    ## Fix safety
    No fix: the name or the key may be the wrong one.

    ## Evidence
    "moderate: the name is another entry's author".
    """
    for file, use, start, stranger, other_key, own in _misattributed(ctx):
        end = ctx.source(file).text.find("}", use.end) + 1 or use.end
        quote = ctx.source(file).text[start:end]
        other_file, other = ctx.index.bib_entries[other_key][0]
        evidence = Evidence(
            kind="moderate: the name is another entry's author",
            statements=[Statement(file=file, range=ctx.range(file, start, end), quote=quote, role="citation")],
            reason=f"the people of `{use.key}`: {', '.join(sorted(own))}",
        )
        related = [ctx.related(other_file, other.start, other.end, f"the entry `{other_key}`, by {stranger}")]
        violation = CitationNamesAnotherAuthor(use.key, stranger, other_key)
        yield ctx.flag(violation, file, start, end, related=related, evidence=evidence)


# A citation credited to a stranger: its file, its key, where the names start, the stranger's name as
# written, the entry that lists them and the cited entry's own people.
_Misattributed = tuple[str, KeyUse, int, str, str, frozenset[str]]


def _misattributed(ctx: RuleContext) -> Iterator[_Misattributed]:
    """The single-key citations whose typed name is another entry's person and none of their own entry's."""
    people, author_of = _bibliography_people(Same(ctx.index.bib_entries))
    if not author_of:
        return
    hidden = unprinted(ctx.whole_project, ctx.index.macros)
    cites_by_file: dict[str, list[tuple[int, str]]] = {}
    spans_by_file: dict[str, list[tuple[int, int]]] = {}
    for file, use in ctx.index.cites:
        cites_by_file.setdefault(file, []).append((use.start, use.key))
        spans_by_file.setdefault(file, []).append((use.start, use.end))
    credited_in = {file: _credited_in(ctx.source(file).text, tuple(spans)) for file, spans in spans_by_file.items()}
    for file, use in ctx.index.cites:
        own = people.get(use.key)
        if not own or hidden.covers(file, use.start):
            continue
        credited = credited_in[file].get((use.start, use.end))
        if credited is None:
            continue
        start, written, command_start, sentence_end = credited
        in_sentence = {key for at, key in cites_by_file[file] if command_start < at < sentence_end}
        for name in written:
            person = normal(name)
            if person not in author_of or person in own or any(person in people.get(key, ()) for key in in_sentence):
                continue
            # A surname the paper also writes in lower case is a word ("The", "Project", "Data"), not a name.
            if not any(person in _lower_words(ctx.source(other).text) for other in cites_by_file):
                yield file, use, start, name, author_of[person], own
                break


# Kept by the bibliography's entries, which the index hands on while no `.bib` file changes: splitting every
# entry's names is most of what the rule would otherwise do on each keystroke.
@lru_cache(maxsize=4)
def _bibliography_people(entries: Same[dict[str, list[tuple[str, BibEntry]]]]) -> tuple[dict[str, frozenset[str]], dict[str, str]]:
    """Each entry's people, and for each person the first entry that lists them."""
    people = {key: _people(places[0][1]) for key, places in entries.value.items()}
    author_of: dict[str, str] = {}
    for key, names in people.items():
        for name in names:
            author_of.setdefault(name, key)
    return people, author_of


def _people(entry: BibEntry) -> frozenset[str]:
    """The normalised surnames of the people an entry lists as its authors and editors."""
    return frozenset(surname(to_text(name)) for field in ("author", "editor") for name in split_authors(entry.fields.get(field, ""))[0])


@lru_cache(maxsize=_FILE_CACHE_SIZE)
def _lower_words(text: str) -> frozenset[str]:
    return frozenset(_LOWER_WORD.findall(text))


def _sentence_end(source: str, start: int) -> int:
    """Where the sentence that holds `start` ends (looked for in the text after it)."""
    after = source[start : start + _SENTENCE_AFTER]
    spans = sentence_spans(after)
    return start + (spans[0][1] if spans else len(after))


# Kept by the file's text and its citations' places: every citation of the paper is read on each keystroke.
@lru_cache(maxsize=_FILE_CACHE_SIZE)
def _credited_in(source: str, spans: tuple[tuple[int, int], ...]) -> dict[tuple[int, int], tuple[int, tuple[str, ...], int, int]]:
    """The citations of a file (their keys' spans) typed right after names, each with what `_credited` reads."""
    return {span: credited for span in spans if (credited := _credited(source, *span)) is not None}


def _credited(source: str, key_start: int, key_end: int) -> tuple[int, tuple[str, ...], int, int] | None:
    """For a single-key citation typed right after names: where the names start, the names as written, where the
    command starts and where its sentence ends."""
    command_start = source.rfind("\\", 0, key_start)
    if source[command_start:key_start].count(",") or source[key_end : source.find("}", key_end)].strip():
        return None  # a citation of several keys
    before = max(0, command_start - _BEFORE)
    named = _NAMED.search(source[before:command_start])
    if named is None:
        return None
    names = tuple(_NAME_JOIN.split(named.group("names")))
    return before + named.start("names"), names, command_start, _sentence_end(source, command_start)
