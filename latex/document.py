"""One parsed file: its text, its chunks and what they contribute."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from itertools import chain
from operator import attrgetter

from .chunk_parser import ChunkParser
from .chunks import Chunk, resplit_chunks, split_chunks
from .parsed_chunk import ParsedChunk
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

    def unchanged_before(self, previous: Document) -> int:
        """The offset before which this text is `previous`'s, chunks and parses alike: the start of
        the first chunk an edit made it re-scan (its length when it kept them all)."""
        pairs = enumerate(zip(self.placed, previous.placed))
        kept = next((place for place, (part, old) in pairs if part is not old), min(len(self.placed), len(previous.placed)))
        return self.chunks[kept].start if kept < len(self.chunks) else len(self.text)


def parse_document(
    path: str, text: str, previous: Document | None = None, read_problem: str | None = None, parser: ChunkParser | None = None
) -> Document:
    """Parse `text`, re-parsing only the chunks that `previous` did not have.

    Without `previous`, the `parser`'s store supplies the parses an earlier run kept
    of this file's chunks, and it keeps the new ones.
    """
    parser = parser or ChunkParser(workers=1)
    old_cache = previous.chunk_cache if previous is not None else {}
    cache: dict[str, ParsedChunk] = {}

    def placed_all(chunks: list[Chunk]) -> list[tuple[str, ParsedChunk]]:
        keys = [content_hash(chunk.text) for chunk in chunks]
        missing = {key: chunk.text for key, chunk in zip(keys, chunks) if key not in old_cache}
        cache.update((key, old_cache[key]) for key in keys if key in old_cache)
        if missing and previous is None:
            known = parser.known(path)
            cache.update((key, known[key]) for key in missing if key in known)
            missing = {key: text for key, text in missing.items() if key not in cache}
        cache.update(parser.parse(missing, path))
        if missing and previous is None:
            parser.keep(path, cache)
        return [(key, cache[key].shifted(chunk.start)) for key, chunk in zip(keys, chunks)]

    if previous is None or not previous.placed:
        chunks = split_chunks(text)
        placed = placed_all(chunks)
    else:
        resplit = resplit_chunks(previous.text, previous.chunks, text)
        chunks = resplit.chunks
        placed = [
            *previous.placed[: resplit.kept],
            *placed_all(resplit.scanned),
            *((key, part.shifted(resplit.delta)) for key, part in previous.placed[resplit.resumed :]),
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
