"""Bibliography entries from .bib files (bibtexparser 2) and .bbl files."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import bibtexparser
from bibtexparser.model import DuplicateBlockKeyBlock, ParsingFailedBlock

from .document import parse_document
from .source import SourceText

# bibtexparser logs every failed block; auditex reports them as findings.
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)


@dataclass(slots=True)
class BibEntry:
    key: str
    start: int  # offsets in the bibliography file
    end: int
    entry_type: str = ""
    fields: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class BibProblem:
    kind: str  # "duplicate" or "unparsable"
    key: str | None
    start: int
    end: int
    message: str


@dataclass(slots=True)
class Bibliography:
    path: str
    source: SourceText
    entries: list[BibEntry]
    problems: list[BibProblem]
    read_problem: str | None = None

    @property
    def hash(self) -> str:
        return self.source.hash


def parse_bibliography(path: str, text: str, read_problem: str | None = None) -> Bibliography:
    source = SourceText(text)
    if path.endswith(".bbl"):
        return _parse_bbl(path, source, read_problem)
    try:
        library = bibtexparser.parse_string(text)
    except Exception as error:  # the parser is third-party; a file must never crash us
        problem = BibProblem("unparsable", None, 0, min(len(text), 80), f"the bibliography could not be parsed ({type(error).__name__})")
        return Bibliography(path, source, [], [problem], read_problem)
    entries = []
    for entry in library.entries:
        start, end = _block_span(source, entry.start_line, entry.raw)
        fields = {name: str(value) for name, value in entry.fields_dict.items() for value in [value.value]}
        entries.append(BibEntry(entry.key, start, end, entry.entry_type, fields))
    problems = []
    for block in library.failed_blocks:
        start, end = _block_span(source, block.start_line, block.raw)
        if isinstance(block, DuplicateBlockKeyBlock) and block.raw.lstrip().lower().startswith("@string"):
            continue  # a repeated @string abbreviation is harmless
        if isinstance(block, DuplicateBlockKeyBlock):
            problems.append(BibProblem("duplicate", block.key, start, end, f"bibliography key '{block.key}' is defined more than once"))
        elif isinstance(block, ParsingFailedBlock):
            head = block.raw.strip().splitlines()[0][:60] if block.raw.strip() else "entry"
            problems.append(BibProblem("unparsable", None, start, end, f"this bibliography entry could not be parsed: {head}"))
    return Bibliography(path, source, entries, problems, read_problem)


def _block_span(source: SourceText, start_line: int | None, raw: str) -> tuple[int, int]:
    line = start_line or 0
    if line >= len(source.line_starts):
        return len(source.text), len(source.text)
    start = source.line_starts[line]
    # Point at the entry head, not the whole entry: a readable range.
    first_line_end = source.text.find("\n", start)
    end = first_line_end if first_line_end != -1 else len(source.text)
    return start, max(start, end)


def _parse_bbl(path: str, source: SourceText, read_problem: str | None) -> Bibliography:
    document = parse_document(path, source.text)
    entries = [BibEntry(item.key, item.start, item.end, "bibitem") for item in document.parsed.bibitems]
    return Bibliography(path, source, entries, [], read_problem)
