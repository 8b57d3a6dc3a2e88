"""The facets a rule may read: the one table of what each covers and how it is digested.

A project rule's result is cached under the digests of the facets it declares
(`@rule(reads=...)`), so a rule that reads a fact outside them is stale in the
editor. Each facet names what a rule may read with it: fields of the index,
`project.<attribute>`, and `text` (a file's raw text, through `ctx.source`).
Digests carry positions as (line, column), so typing on one line leaves the
facets of everything on other lines unchanged. A section-local facet is what a
section rule reads of its own section: the section's key already covers it.

With `AUDITEX_CHECK_FACETS=1` (the test suite sets it), a rule's view of the
index and the project raises `UndeclaredFacet` on a read its facets do not
cover, so a stale-cache bug fails loudly instead of silently.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..latex.one_tailed import announces_one_tailed
from ..latex.record import record
from ..latex.source import SourceText, value_hash

if TYPE_CHECKING:
    from ..latex.index import Index
    from ..latex.project import Project

CHECK_ENV = "AUDITEX_CHECK_FACETS"


@record
class Facet:
    name: str
    covers: frozenset[str]  # index fields, `project.<attribute>`s and `text` that a rule may read with it
    digest: Callable[[Project], str]
    section_local: bool = False


def _per_file(*fields: str) -> Callable[[Project], str]:
    """The index's per-file digests of these fields (see Index.file_digest)."""
    return lambda project: value_hash([project.index.file_digest(field) for field in fields])


def _keys(field: str) -> Callable[[Project], str]:
    """Which keys are used, without where: enough for the "unused" rules."""
    return lambda project: value_hash(sorted({use.key for _, use in getattr(project.index, field)}))


def _structure(project: Project) -> str:
    index = project.index
    return value_hash(
        [
            (s.id, s.kind.value, s.title, s.file, index.sources[s.file].position(s.start) if s.file in index.sources else s.start)
            for s in index.manuscript.sections
        ]
    )


def _problems(project: Project) -> str:
    return value_hash([project.index.stable(problem.file, problem) for problem in project.problems])


def _texts(project: Project) -> str:
    return value_hash([(path, project.source(path).hash) for path in (*project.documents, *project.bibliographies)])


def _one_tailed(project: Project) -> str:
    return value_hash(announces_one_tailed(project.manuscript))


def _facet(name: str, covers: tuple[str, ...], digest: Callable[[Project], str], section_local: bool = False) -> tuple[str, Facet]:
    return name, Facet(name, frozenset(covers), digest, section_local)


# The blocks, their positions and sections are a function of the files' texts and the include graph
# (the manuscript's basis): reading them, a rule may read any file's text and parse, and the include sites, too.
_WHOLE_PAPER = (
    "manuscript",
    "numbers",
    "claims",
    "tables",
    "theorems",
    "sources",
    "text",
    "project.files",
    "project.documents",
    "project.inclusions",
)

FACETS: dict[str, Facet] = dict(
    [
        _facet("labels", ("labels",), _per_file("labels")),
        _facet("refs", ("refs",), _per_file("refs")),
        _facet("cites", ("cites",), _per_file("cites")),
        _facet("ref_keys", ("refs",), _keys("refs")),
        _facet("cite_keys", ("cites",), _keys("cites")),
        _facet("bibliography", ("bib_entries", "bib_problems", "bibitems"), _per_file("bib_entries", "bib_problems", "bibitems")),
        _facet("macros", ("macros", "printed", "rule_macros"), _per_file("macros")),
        _facet("acronyms", ("acronyms", "inline_acronyms"), _per_file("acronyms", "inline_acronyms")),
        _facet("styled", ("styled",), _per_file("styled")),
        _facet("blocks", _WHOLE_PAPER, lambda project: project.manuscript.basis, section_local=True),
        _facet("structure", ("manuscript",), _structure, section_local=True),
        _facet("problems", ("project.problems",), _problems),
        # The raw text of every file: comments, and what a rule looks up beyond the parse.
        _facet("text", ("sources", "text", "project.files", "project.documents"), _texts, section_local=True),
        # Whether the text anywhere announces one-tailed tests: a section's p-values depend on it (STAT001, STAT002).
        _facet("one_tailed", (), _one_tailed),
    ]
)


class UndeclaredFacet(AssertionError):
    """A rule read something its declared facets do not cover (raised only under AUDITEX_CHECK_FACETS)."""


def checking() -> bool:
    return os.environ.get(CHECK_ENV, "") not in ("", "0")


def allows(reads: tuple[str, ...], name: str) -> bool:
    return any(name in FACETS[facet].covers for facet in reads)


def _require(code: str, reads: tuple[str, ...], name: str) -> None:
    if not allows(reads, name):
        wanted = sorted(facet.name for facet in FACETS.values() if name in facet.covers) or ["(no facet)"]
        raise UndeclaredFacet(f"rule {code} reads {name} without declaring one of the facets {', '.join(wanted)}")


class CheckedIndex:
    """The index as one rule sees it under AUDITEX_CHECK_FACETS: a field outside its facets raises."""

    def __init__(self, index: Index, code: str, reads: tuple[str, ...]) -> None:
        self._index, self._code, self._reads = index, code, reads

    def __getattr__(self, name: str) -> Any:
        _require(self._code, self._reads, name)
        return getattr(self._index, name)


class CheckedProject:
    """The project as one rule sees it under AUDITEX_CHECK_FACETS: its root is free, the rest is a facet."""

    _FREE = frozenset({"root", "root_file"})

    def __init__(self, project: Project, code: str, reads: tuple[str, ...]) -> None:
        self._project, self._code, self._reads = project, code, reads

    def __getattr__(self, name: str) -> Any:
        if name not in self._FREE:
            _require(self._code, self._reads, f"project.{name}")
        return getattr(self._project, name)


class CheckedSource:
    """A file's source under AUDITEX_CHECK_FACETS: positions are free (findings need them), its text is a facet."""

    def __init__(self, source: SourceText, code: str, reads: tuple[str, ...]) -> None:
        self._source, self._code, self._reads = source, code, reads

    @property
    def text(self) -> str:
        _require(self._code, self._reads, "text")
        return self._source.text

    def __getattr__(self, name: str) -> Any:
        return getattr(self._source, name)
