"""One parsed file: its text, its chunks and what they contribute."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from itertools import chain
from operator import attrgetter

from .chunks import Chunk, resplit_chunks, split_chunks
from .parse import ParsedChunk, parse_chunk
from .source import SourceText, content_hash

_MERGED_FIELDS = [(item.name, attrgetter(item.name)) for item in fields(ParsedChunk) if item.name != "has_documentclass"]


@dataclass(slots=True)
class Document:
    path: str  # project-relative POSIX path
    source: SourceText
    parsed: ParsedChunk
    # Chunk hash → parse relative to the chunk; reused by the next version.
    chunk_cache: dict[str, ParsedChunk] = field(repr=False, default_factory=dict)
    read_problem: str | None = None
    # The text's chunks and, one per chunk, its hash and its parse placed where it sits: the next
    # version re-scans only around its edit, keeps the parses before it and moves those after it.
    chunks: list[Chunk] = field(repr=False, default_factory=list)
    placed: list[tuple[str, ParsedChunk]] = field(repr=False, default_factory=list)

    @property
    def text(self) -> str:
        return self.source.text

    @property
    def hash(self) -> str:
        return self.source.hash


def parse_document(path: str, text: str, previous: Document | None = None, read_problem: str | None = None) -> Document:
    """Parse `text`, re-parsing only the chunks that `previous` did not have."""
    old_cache = previous.chunk_cache if previous is not None else {}
    cache: dict[str, ParsedChunk] = {}

    def place(chunk: Chunk) -> tuple[str, ParsedChunk]:
        key = content_hash(chunk.text)
        relative = cache.get(key) or old_cache.get(key) or parse_chunk(chunk.text)
        cache[key] = relative
        return key, relative.shifted(chunk.start)

    if previous is None or not previous.placed:
        chunks = split_chunks(text)
        placed = [place(chunk) for chunk in chunks]
    else:
        resplit = resplit_chunks(previous.text, previous.chunks, text)
        chunks = resplit.chunks
        placed = [
            *previous.placed[:resplit.kept],
            *(place(chunk) for chunk in resplit.scanned),
            *((key, part.shifted(resplit.delta)) for key, part in previous.placed[resplit.resumed:]),
        ]
        for key, _ in placed:
            if key not in cache:
                cache[key] = old_cache[key]
    return Document(path, SourceText(text), merge_chunks([part for _, part in placed]), cache, read_problem, chunks, placed)


def merge_chunks(parts: list[ParsedChunk]) -> ParsedChunk:
    merged = ParsedChunk(has_documentclass=any(part.has_documentclass for part in parts))
    for name, of in _MERGED_FIELDS:
        setattr(merged, name, list(chain.from_iterable(map(of, parts))))
    return merged
