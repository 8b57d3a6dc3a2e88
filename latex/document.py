"""One parsed file: its text, its chunks and what they contribute."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .chunks import split_chunks
from .parse import ParsedChunk, parse_chunk
from .source import SourceText, content_hash


@dataclass(slots=True)
class Document:
    path: str  # project-relative POSIX path
    source: SourceText
    parsed: ParsedChunk
    # Chunk hash → parse relative to the chunk; reused by the next version.
    chunk_cache: dict[str, ParsedChunk] = field(repr=False, default_factory=dict)
    read_problem: str | None = None
    # (chunk hash, offset) → the parse shifted to where the chunk sits: chunks before an edit keep theirs.
    placed_cache: dict[tuple[str, int], ParsedChunk] = field(repr=False, default_factory=dict)

    @property
    def text(self) -> str:
        return self.source.text

    @property
    def hash(self) -> str:
        return self.source.hash


def parse_document(path: str, text: str, previous: Document | None = None, read_problem: str | None = None) -> Document:
    """Parse `text`, re-parsing only the chunks that `previous` did not have."""
    old_cache = previous.chunk_cache if previous is not None else {}
    old_placed = previous.placed_cache if previous is not None else {}
    cache: dict[str, ParsedChunk] = {}
    placed: dict[tuple[str, int], ParsedChunk] = {}
    parts: list[ParsedChunk] = []
    for chunk in split_chunks(text):
        key = content_hash(chunk.text)
        part = old_placed.get((key, chunk.start))
        if part is None:
            parsed = cache.get(key) or old_cache.get(key)
            if parsed is None:
                parsed = parse_chunk(chunk.text)
            cache[key] = parsed
            part = parsed.shifted(chunk.start)
        else:
            cache[key] = old_cache[key]
        placed[(key, chunk.start)] = part
        parts.append(part)
    return Document(path, SourceText(text), merge_chunks(parts), cache, read_problem, placed)


def merge_chunks(parts: list[ParsedChunk]) -> ParsedChunk:
    merged = ParsedChunk()
    list_fields = [item.name for item in fields(ParsedChunk) if item.name != "has_documentclass"]
    for part in parts:
        for name in list_fields:
            getattr(merged, name).extend(getattr(part, name))
        merged.has_documentclass = merged.has_documentclass or part.has_documentclass
    return merged
