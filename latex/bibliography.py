"""Bibliography entries from .bib files (bibtexparser 2) and .bbl files.

Read as BibTeX reads them: an entry with a repeated field, a repeated key or a syntax
error still exists for BibTeX (it warns or complains, then keeps what it read), so it
exists here too, and the slip itself becomes a problem that says what and where.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

import bibtexparser
from bibtexparser.model import DuplicateBlockKeyBlock, DuplicateFieldKeyBlock, Entry, ParsingFailedBlock

from .chunk_parser import Store
from .deferred_pattern import DeferredPattern
from .document import parse_document
from .source import SourceText, content_hash

# bibtexparser logs every failed block; auditex reports them as findings.
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)

_ENTRY_HEAD = DeferredPattern(r"\s*@\s*(\w+)\s*[{(]\s*([^,\s{}()=\"#%']+)\s*,")
# Fields that no bibliography style prints: reference-manager bookkeeping.
_UNPRINTED_FIELDS = frozenset(
    {
        "abstract",
        "annote",
        "annotation",
        "keywords",
        "file",
        "timestamp",
        "biburl",
        "bibsource",
        "owner",
        "groups",
        "comment",
        "comments",
        "mendeley-tags",
        "mendeley-groups",
        "rating",
        "read",
        "priority",
        "langid",
        "language",
        "shorttitle",
        "urldate",
        "pmid",
        "pmcid",
        "copyright",
        "readstatus",
        "qualityassured",
        "bdsk-url-1",
        "bdsk-url-2",
        "date-added",
        "date-modified",
        "added-at",
        "interhash",
        "intrahash",
        "citeulike-article-id",
        "local-url",
    }
)


def is_printed_field(name: str) -> bool:
    """Whether a style may print the field; `__author`-style names are fields switched off by hand."""
    name = name.lower()
    return not name.startswith("_") and name not in _UNPRINTED_FIELDS


def unwrapped(value: str) -> str:
    """A raw field value without its delimiters, as bibtexparser's library entries hold it."""
    value = value.strip()
    if value[:1] == '"' and value[-1:] == '"' and len(value) >= 2:
        return value[1:-1]
    if value[:1] == "{" and _closing_brace(value) == len(value) - 1:
        return value[1:-1]
    return value


def _closing_brace(value: str) -> int:
    depth = 0
    for index, char in enumerate(value):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            return index
    return -1


@dataclass(slots=True)
class BibEntry:
    key: str
    start: int  # offsets in the bibliography file
    end: int
    entry_type: str = ""
    fields: dict[str, str] = field(default_factory=dict)  # names lowercased; the first of repeated fields (BibTeX's)

    def content(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        """What the reference shows: its type and printed fields, normalised."""
        return (
            self.entry_type.lower(),
            tuple(sorted((name, " ".join(value.split())) for name, value in self.fields.items() if is_printed_field(name))),
        )


@dataclass(slots=True)
class BibProblem:
    kind: str  # "repeated_field" or "unparsable"
    key: str | None
    start: int
    end: int
    message: str
    field: str = ""  # repeated_field: the field name
    differs: bool = False  # repeated_field: the copies have different values


@dataclass(slots=True)
class Bibliography:
    path: str
    source: SourceText
    entries: list[BibEntry]  # in file order; a repeated key appears once per definition
    problems: list[BibProblem]
    read_problem: str | None = None

    @property
    def hash(self) -> str:
        return self.source.hash


def kept_bibliography(path: str, text: str, read_problem: str | None, store: Store | None) -> Bibliography:
    """`parse_bibliography`, served by `store` when an earlier run kept the parse of this very text, and kept there."""
    if store is None:
        return parse_bibliography(path, text, read_problem)
    key = content_hash(text)
    kept = store.load("bibliography", path, Bibliography).get(key)
    if isinstance(kept, Bibliography) and kept.read_problem == read_problem:
        return kept
    parsed = parse_bibliography(path, text, read_problem)
    store.save("bibliography", path, {key: parsed})
    return parsed


def parse_bibliography(path: str, text: str, read_problem: str | None = None) -> Bibliography:
    source = SourceText(text)
    if path.endswith(".bbl"):
        return _parse_bbl(path, source, read_problem)
    try:
        library = bibtexparser.parse_string(text)  # type: ignore[attr-defined]  # exported, but bibtexparser has no __all__
    except Exception as error:  # the parser is third-party; a file must never crash us
        problem = BibProblem("unparsable", None, 0, min(len(text), 80), f"the bibliography could not be parsed ({type(error).__name__})")
        return Bibliography(path, source, [], [problem], read_problem)
    entries = [_entry(source, entry, raw_values=False) for entry in library.entries]
    problems = []
    for block in library.failed_blocks:
        start, end = _block_span(source, block.start_line)
        if isinstance(block, DuplicateBlockKeyBlock):
            if isinstance(block.ignore_error_block, Entry):  # a repeated @string abbreviation is harmless
                entries.append(_entry(source, block.ignore_error_block, raw_values=True))
        elif isinstance(block, DuplicateFieldKeyBlock) and isinstance(block.ignore_error_block, Entry):
            entry = block.ignore_error_block
            entries.append(_entry(source, entry, raw_values=True))
            problems += _repeated_fields(entry, start, end, raw_values=True)
        elif isinstance(block, ParsingFailedBlock):
            head = _ENTRY_HEAD.match(block.raw or "")
            if head:  # BibTeX keeps the entry up to the error: its citations still resolve
                entries.append(BibEntry(head.group(2), start, end, head.group(1).lower()))
            problems.append(BibProblem("unparsable", head.group(2) if head else None, start, end, _unparsable_message(source, block, head)))
    entries.sort(key=lambda entry: entry.start)
    problems += _case_repeated_fields(library.entries, source)
    problems.sort(key=lambda problem: problem.start)
    return Bibliography(path, source, entries, problems, read_problem)


def _entry(source: SourceText, entry: Entry, raw_values: bool) -> BibEntry:
    """`raw_values`: the entry comes from a failed block, which bibtexparser's middleware did not unwrap."""
    start, end = _block_span(source, entry.start_line)
    fields: dict[str, str] = {}
    for item in entry.fields:
        value = str(item.value)
        fields.setdefault(item.key.lower(), unwrapped(value) if raw_values else value)  # BibTeX keeps the first of repeated fields
    return BibEntry(entry.key, start, end, entry.entry_type, fields)


def _repeated_fields(entry: Entry, start: int, end: int, raw_values: bool) -> list[BibProblem]:
    """One problem per field name that occurs twice or more (BibTeX ignores field-name case)."""
    values: dict[str, list[str]] = {}
    for item in entry.fields:
        value = unwrapped(str(item.value)) if raw_values else str(item.value)
        values.setdefault(item.key.lower(), []).append(" ".join(value.split()))
    problems = []
    for name, copies in values.items():
        if len(copies) < 2:
            continue
        times = "twice" if len(copies) == 2 else f"{len(copies)} times"
        differs = len(set(copies)) > 1
        detail = f"; BibTeX keeps the first value ({_short(copies[0])}) and ignores the rest" if differs else " with the same value"
        problems.append(
            BibProblem(
                "repeated_field", entry.key, start, end, f"field `{name}` appears {times} in entry `{entry.key}`{detail}", name, differs
            )
        )
    return problems


def _case_repeated_fields(entries: list[Entry], source: SourceText) -> list[BibProblem]:
    """`Year` and `year` are one field for BibTeX; bibtexparser tells them apart."""
    problems = []
    for entry in entries:
        if len({item.key.lower() for item in entry.fields}) < len(entry.fields):
            start, end = _block_span(source, entry.start_line)
            problems += _repeated_fields(entry, start, end, raw_values=False)
    return problems


def _short(value: str, limit: int = 40) -> str:
    return f"`{value}`" if len(value) <= limit else f"`{value[:limit]}…`"


def _unparsable_message(source: SourceText, block: ParsingFailedBlock, head: re.Match[str] | None) -> str:
    what = f"bibliography entry `{head.group(2)}`" if head else "this bibliography entry"
    reason = getattr(block.error, "abort_reason", "") or str(block.error)
    where_index = getattr(block.error, "end_index", None)
    if not reason:
        first = (block.raw or "").strip().splitlines()
        return f"{what} could not be parsed: {first[0][:60] if first else 'empty entry'}"
    where = f" (line {source.line_of(where_index) + 1})" if isinstance(where_index, int) else ""
    reason = reason.strip().rstrip(".").replace("field-value", "field value").replace("after entry key", "after a field name")
    return f"{what} could not be parsed{where}: {reason[0].lower()}{reason[1:]}"


def _block_span(source: SourceText, start_line: int | None) -> tuple[int, int]:
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
