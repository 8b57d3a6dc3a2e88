"""Go-to-definition, find-references and the outline, from a project's index.

Keys link both ways: \\ref ↔ \\label and \\cite ↔ bibliography entry (or \\bibitem).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from lsprotocol import types as lsp

from ..latex.source import SourceText
from .server import AuditexServer

if TYPE_CHECKING:
    from ..analyzers.session import Session
    from ..latex.project import Project


@dataclass(frozen=True)
class Span:
    file: str
    start: int
    end: int


@dataclass(frozen=True)
class KeyAt:
    """The key under the cursor: a label/ref key or a citation/bib key."""

    family: str  # "label" or "cite"
    key: str


def key_at(project: Project, file: str, offset: int) -> KeyAt | None:
    index = project.index
    for where, use in index.refs:
        if where == file and use.start <= offset <= use.end:
            return KeyAt("label", use.key)
    for key, entries in index.labels.items():
        if any(entry.file == file and entry.start <= offset <= entry.end for entry in entries):
            return KeyAt("label", key)
    for where, use in index.cites:
        if where == file and use.start <= offset <= use.end:
            return KeyAt("cite", use.key)
    for key, placed_entries in index.bib_entries.items():
        if any(where == file and entry.start <= offset <= entry.end for where, entry in placed_entries):
            return KeyAt("cite", key)
    for key, items in index.bibitems.items():
        if any(where == file and use.start <= offset <= use.end for where, use in items):
            return KeyAt("cite", key)
    return None


def definitions(project: Project, key: KeyAt) -> list[Span]:
    index = project.index
    if key.family == "label":
        return [Span(entry.file, entry.start, entry.end) for entry in index.labels.get(key.key, [])]
    spans = [Span(where, entry.start, entry.end) for where, entry in index.bib_entries.get(key.key, [])]
    spans += [Span(where, use.start, use.end) for where, use in index.bibitems.get(key.key, [])]
    return spans


def references(project: Project, key: KeyAt, include_declaration: bool) -> list[Span]:
    index = project.index
    uses = index.refs if key.family == "label" else index.cites
    spans = [Span(where, use.start, use.end) for where, use in uses if use.key == key.key]
    return (definitions(project, key) if include_declaration else []) + spans


def location(project: Project, span: Span) -> lsp.Location | None:
    if not project.contains(span.file):
        return None
    return lsp.Location(uri=(project.root.folder / span.file).as_uri(), range=span_range(project.source(span.file), span.start, span.end))


def span_range(source: SourceText, start: int, end: int) -> lsp.Range:
    (start_line, start_char), (end_line, end_char) = source.position(start), source.position(end)
    return lsp.Range(start=lsp.Position(line=start_line, character=start_char), end=lsp.Position(line=end_line, character=end_char))


def outline(project: Project, file: str) -> list[lsp.DocumentSymbol]:
    """Sections of a .tex file, nested by level; entries of a bibliography."""
    if file in project.bibliographies:
        bibliography = project.bibliographies[file]
        return [
            lsp.DocumentSymbol(
                name=entry.key,
                detail=entry.entry_type,
                kind=lsp.SymbolKind.Key,
                range=span_range(bibliography.source, entry.start, entry.end),
                selection_range=span_range(bibliography.source, entry.start, entry.end),
            )
            for entry in bibliography.entries
        ]
    document = project.documents.get(file)
    if document is None:
        return []
    headings = sorted(document.parsed.headings, key=lambda heading: heading.start)
    roots: list[lsp.DocumentSymbol] = []
    stack: list[tuple[int, lsp.DocumentSymbol]] = []
    for index, heading in enumerate(headings):
        # A section runs to the next heading of the same or a higher level.
        end = next((later.start for later in headings[index + 1 :] if later.level <= heading.level), len(document.text))
        symbol = lsp.DocumentSymbol(
            name=heading.title or "(untitled)",
            kind=lsp.SymbolKind.Namespace if heading.level <= 1 else lsp.SymbolKind.Module,
            range=span_range(document.source, heading.start, max(end, heading.end)),
            selection_range=span_range(document.source, heading.start, heading.end),
            children=[],
        )
        while stack and stack[-1][0] >= heading.level:
            stack.pop()
        (cast(list[lsp.DocumentSymbol], stack[-1][1].children) if stack else roots).append(symbol)  # children=[] above
        stack.append((heading.level, symbol))
    return roots


async def definition(ls: AuditexServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
    def query(session: Session, relative: str) -> list[lsp.Location]:
        return _locations(session, relative, params.position, definitions)

    return await ls.with_project(params.text_document.uri, query, [])


async def references_of(ls: AuditexServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    declaration = params.context.include_declaration

    def query(session: Session, relative: str) -> list[lsp.Location]:
        return _locations(session, relative, params.position, lambda project, key: references(project, key, declaration))

    return await ls.with_project(params.text_document.uri, query, [])


async def document_symbol(ls: AuditexServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    def query(session: Session, relative: str) -> list[lsp.DocumentSymbol]:
        projects = session.projects_with(relative)
        return outline(projects[0], relative) if projects else []

    return await ls.with_project(params.text_document.uri, query, [])


def _locations(session: Session, relative: str, position: lsp.Position, find: Callable[[Project, KeyAt], list[Span]]) -> list[lsp.Location]:
    found: dict[tuple[str, int], lsp.Location] = {}
    for project in session.projects_with(relative):
        key = key_at(project, relative, project.source(relative).offset(position.line, position.character))
        if key is None:
            continue
        for span in find(project, key):
            place = location(project, span)
            if place is not None:
                found.setdefault((span.file, span.start), place)
    return list(found.values())


def register(server: AuditexServer) -> None:
    server.feature(lsp.TEXT_DOCUMENT_DEFINITION)(definition)
    server.feature(lsp.TEXT_DOCUMENT_REFERENCES)(references_of)
    server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(document_symbol)
