"""Prompt units and the manuscript as prompt data.

The paper reaches a model only as data: `PaperData.lines` writes one JSON object per block,
`{"index", "section", "latex"}` (a table: its caption and float text as "latex", its
cells as "rows", one list per row, in order; "section" only where it changes), placed
between `<paper>` tags by the templates. "latex" is the block's source as the compiler reads it, math intact: comments removed, the
branches TeX never takes removed (`\\iffalse`, `\\if0`, and a `\newif` switch that nothing sets
true), the spans the SEC rules flag (hidden text, instructions to AI reviewers) removed, and the
author's macros expanded (`latex.expansion`). Section titles are expanded the same way; the
bibliography is a compact list of the cited entries (`PaperData.bibliography`). Of the preamble only
what a reader sees is sent: an abstract a class typesets from there, and the `\\title{...}` alone.

Every other string that comes from the paper or from a model (section titles, index facts,
rule messages quoting the paper, memories and tasks a model wrote) goes through `data_line`
or `untrusted` too: JSON escaping keeps it on one line and inside its string, and `<` before
a letter or `/` is written `\u003c`, so nothing can open or close a tag of the prompt.

`index` is `PlacedBlock.index`, the global reading-order index that answers quote back as
`block_index` and that anchoring resolves.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ...latex.conditionals import NEVER, branch_paths
from ...latex.deferred_pattern import DeferredPattern
from ...latex.expansion import MacroTable, strip_comments
from ...latex.macro_signatures import PRINTED_ARGUMENT
from ...latex.manuscript import Manuscript, PlacedBlock, Section
from ...latex.model import BlockKind, Cell, MacroDef, SectionKind
from ...latex.project import Project
from ..finding import Finding, Severity

# What a references section holds that is under audit: the floats a paper places after its bibliography.
_FLOATS = (BlockKind.TABLE, BlockKind.FIGURE, BlockKind.CAPTION)
# A legend written as a paragraph, as pandoc and many journal templates set them after the reference list:
# "\textbf{Figure 5: …", "Table S2. …".
_LEGEND = DeferredPattern(
    r"^(?:\\(?:noindent|textbf|textit|emph|bf|it)\b\s*\{?\s*)*(?:Supplementary\s+)?(?:Figure|Fig\.|Table)\s*S?\d+[A-Za-z]?\s*[:.]"
)
# One block longer than this is cut: a giant table or verbatim dump says nothing a model needs twice.
MAX_BLOCK_CHARS = 6000
# Prose is what the audit reads: a long paragraph (a 7,600-character introduction paragraph in the corpus) is cut only past this.
MAX_PROSE_CHARS = 24_000
MAX_KNOWN = 40
# Codes of the rules that flag text meant for machines, not readers: never sent to a model.
MANIPULATION_CODES = ("SEC001", "SEC002")
_INJECTION_CODE = "SEC002"
_TAG_START = DeferredPattern(r"<(?=[/A-Za-z!?])")
_HEADING = DeferredPattern(r"\\(?:part|chapter|(?:sub)*section|(?:sub)?paragraph)\*?\s*(?:\[[^\]]*\])?\{")
_NEWIF = DeferredPattern(r"\\newif\s*\\if([A-Za-z@]+)")
_BIB_FIELDS = ("author", "title", "year")
BIB_FIELD_CHARS = 80
_WORD = DeferredPattern(r"[A-Za-z][\w-]{3,}|\d+(?:\.\d+)?")
RARE = 3  # a term in at most this many blocks names something specific: a model, a dataset, a result
_BEGIN_DOCUMENT = DeferredPattern(r"^[^%\n]*?\\begin\s*\{document\}", re.MULTILINE)
# The title a class typesets from the preamble (`\title[Short]{Long}`): the paper's first claim, sent alone.
_TITLE = DeferredPattern(r"\\title\s*(?:\[[^\]]*\]\s*)?(?=\{)")
_COMMENT_MARK = DeferredPattern(r"(?<!\\)%")
_SENTENCE_SPLIT = DeferredPattern(r"(?<=[.!?])\s+")
_SENTENCE_END = DeferredPattern(r"[.!?](?=[\s}])|\n\s*\n")
# The rules between a tabular's rows: no cell of their own.
# A macro whose body is typesetting machinery (TeX internals, boxes, spacing, math-style choices) reads
# better by its name than expanded, and costs less: the book's `\\ct` grows eighteenfold into a `\\mathchoice`.
_MACHINERY = DeferredPattern(r"@|\\(?:mathchoice|raisebox|[hv]box|makebox|parbox|[hv]space|ifnextchar|kern|mkern|phantom)(?![A-Za-z])")
# Wrappers that only typeset: the expansion keeps what they wrap.
_TYPESETTING_ONLY = DeferredPattern(r"\\(?:ensuremath|xspace)(?![A-Za-z])")
_RULES = DeferredPattern(r"\\(?:toprule|midrule|bottomrule|hline|cline|cmidrule)(?:\([^)]*\))?(?:\{[^}]*\})?")


@dataclass
class Unit:
    """One LLM call's worth of work; `id` is stable across edits elsewhere."""

    id: str
    kind: str  # fast | memory | section | planner | specialist | merge | verify | critical
    label: str  # for progress and failure reports
    sections: list[Section] = field(default_factory=list)
    blocks: list[PlacedBlock] = field(default_factory=list)


def section_label(section: Section) -> str:
    if section.title:
        return section.title
    return "Front matter" if section.kind is SectionKind.FRONT else section.kind.value.replace("_", " ").title()


def _first_author(authors: str) -> str:
    """ "Agol, E. and Foreman-Mackey, D." as "Agol et al.": enough to tell one entry from another."""
    names = [name.strip() for name in re.split(r"\s+and\s+", " ".join(authors.split())) if name.strip()]
    first = names[0] if names else ""
    surname = first.split(",")[0] if "," in first else (first.split() or [""])[-1]
    return surname + (" et al." if len(names) > 1 else "")


def _caption_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Each `\\caption{...}` written within [start, end), braces balanced (a float of subtables has several)."""
    spans = []
    at = text.find("\\caption", start, end)
    while at >= 0:
        opening = text.find("{", at, end)
        closing = _closing_brace(text, opening, end) if opening >= 0 else None
        if closing is None:
            break
        spans.append((at, closing + 1))
        at = text.find("\\caption", closing, end)
    return spans


def _closing_brace(text: str, opening: int, end: int) -> int | None:
    """Where the group opened at `opening` closes, before `end`."""
    depth = 0
    for position in range(opening, end):
        depth += {"{": 1, "}": -1}.get(text[position], 0)
        if depth == 0:
            return position
    return None


def _heading_argument(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The argument of the sectioning command whose heading holds [start, end), or None."""
    line_start = text.rfind("\n", 0, start) + 1
    headings = list(_HEADING.finditer(text, line_start, start))
    heading = headings[-1] if headings else None
    closing = _closing_brace(text, heading.end() - 1, len(text)) if heading is not None else None
    return (heading.end(), closing) if heading is not None and closing is not None and closing >= end else None


def unread_spans(project: Project) -> dict[str, list[tuple[int, int]]]:
    """Per file, the branches TeX never takes: `\\iffalse`/`\\if0` bodies, the `\\else` of `\\iftrue`, and
    the true branch of a `\newif` switch that no file sets true (a checklist left switched off)."""
    texts = {file: project.source(file).text for file in project.files}
    everything = "\n".join(texts.values())
    never_true = {name for name in _NEWIF.findall(everything) if f"\\{name}true" not in everything}
    switch = re.compile(r"\\if(?:" + "|".join(map(re.escape, never_true)) + r")(?![A-Za-z@])") if never_true else None
    spans: dict[str, list[tuple[int, int]]] = {}
    for file, text in texts.items():
        # A never-true switch reads as \if0 (padded to its length, offsets kept), which branch_paths never takes.
        masked = switch.sub(lambda m: "\\if0" + " " * (len(m.group(0)) - 4), text) if switch else text
        if masked is not text:
            masked = re.sub(r"\\newif\s*\\if0 *", lambda m: " " * len(m.group(0)), masked)
        if "\\if" not in masked:
            continue
        starts, paths = branch_paths(masked)
        found = [
            (starts[n], starts[n + 1] if n + 1 < len(starts) else len(text))
            for n, path in enumerate(paths)
            if any(branch == NEVER for _, branch in path)
        ]
        if found:
            spans[file] = found
    return spans


def _top_level_split(text: str, separator: str) -> list[str]:
    """`text` split at `separator` outside braces (rows at `\\\\`, a row's cells at `&`; `\\&` and `\\{` are characters)."""
    pieces, depth, start, position = [], 0, 0, 0
    while position < len(text):
        if depth == 0 and text.startswith(separator, position):
            pieces.append(text[start:position])
            position += len(separator)
            start = position
        elif text[position] == "\\":
            position += 2
        else:
            depth += {"{": 1, "}": -1}.get(text[position], 0)
            position += 1
    return [*pieces, text[start:]]


def _excerpt(record: dict[str, Any], terms: set[str]) -> dict[str, Any] | None:
    """The record with only the sentences of its text that hold one of `terms` (no rows), or None."""
    sentences = [sentence for sentence in _SENTENCE_SPLIT.split(record["latex"]) if terms & {w.lower() for w in _WORD.findall(sentence)}]
    if not sentences:
        return None
    return {"index": record["index"], "section": record["section"], "latex": " [...] ".join(sentences)}


def data_line(record: dict[str, Any]) -> str:
    """One JSON line that cannot open or close a delimiter tag."""
    return _TAG_START.sub(r"\\u003c", json.dumps(record, ensure_ascii=False))


def untrusted(text: str) -> str:
    """A string from the paper or a model as a JSON string literal: one line, no tag, no forged quote."""
    return _TAG_START.sub(r"\\u003c", json.dumps(text, ensure_ascii=False))


def block_at(project: Project, file: str, offset: int) -> PlacedBlock | None:
    for placed in project.manuscript.blocks:
        if placed.file == file and placed.block.start <= offset < max(placed.block.end, placed.block.start + 1):
            return placed
    return None


def manipulation_spans(project: Project, findings: Iterable[Finding]) -> dict[str, list[tuple[int, int]]]:
    """Per file, the source spans the SEC rules flag; an instruction to AI reviewers with its whole sentence."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for finding in findings:
        if finding.code not in MANIPULATION_CODES or finding.file not in project.documents:
            continue
        source = project.source(finding.file)
        start = source.offset(finding.range.start.line, finding.range.start.character)
        end = source.offset(finding.range.end.line, finding.range.end.character)
        if finding.code == _INJECTION_CODE:
            # In a heading, the heading's argument: the section's body is still audited.
            start, end = _heading_argument(source.text, start, end) or _sentence_around(source.text, start, end)
        spans.setdefault(finding.file, []).append((start, end))
    return {file: sorted(found) for file, found in spans.items()}


def _sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence holding [start, end); it starts after a heading it would otherwise swallow."""
    before = [m.end() for m in _SENTENCE_END.finditer(text, max(0, start - 400), start)]
    after = _SENTENCE_END.search(text, end, end + 400)
    sentence_start = before[-1] if before else max(0, start - 400)
    headings = list(_HEADING.finditer(text, sentence_start, start))
    closing = _closing_brace(text, headings[-1].end() - 1, start) if headings else None
    return (closing + 1 if closing is not None else sentence_start), (after.end() if after else min(len(text), end + 400))


def _printed_argument(name: str, spec: str, printed: int | None) -> MacroDef:
    """A command of `PRINTED_ARGUMENT` as a definition the expansion reads: its optional argument is #1, and its body
    the argument the page prints."""
    optional = "" if spec.startswith("[") else None
    body = "" if printed is None else f"#{printed + 1 + (optional is not None)}"
    return MacroDef("newcommand", f"\\{name}", len(spec), body, 0, 0, optional=optional)


# Read before the author's definitions, which replace them (a paper's own `\added`).
PRINTED = tuple(_printed_argument(name, spec, printed) for name, (spec, printed) in PRINTED_ARGUMENT.items())


def readable_macros(definitions: Iterable[MacroDef]) -> MacroTable:
    """The author's macros a reader needs expanded (after the commands whose printed text is an argument): not
    those that are typesetting machinery, and without the wrappers that only typeset."""
    return MacroTable(
        replace(definition, body=_TYPESETTING_ONLY.sub("", definition.body))
        for definition in (*PRINTED, *definitions)
        if not _MACHINERY.search(definition.body)
    )


class PaperData:
    """The manuscript's blocks as the prompts show them (see the module docstring)."""

    def __init__(self, project: Project, removed: dict[str, list[tuple[int, int]]] | None = None) -> None:
        self.project = project
        self.manuscript: Manuscript = project.manuscript
        unread = unread_spans(project)
        self.removed = {file: sorted((removed or {}).get(file, []) + unread.get(file, [])) for file in {*(removed or {}), *unread}}
        self._macros = readable_macros(definition for _, definition in project.index.macros)
        self._records: dict[int, dict[str, Any]] = {}
        self._preamble = self._preamble_spans()
        self._titles = self._preamble_titles()
        self._repeated_captions = self._captions_inside_floats()
        self._inputs = self._inputs_inside_tables()
        self._inlined = {place for found in self._inputs.values() for _, file in found for place in self.manuscript.places_of(file)}
        self._after_references = self._text_after_references()
        self._paper: str | None = None
        self._terms: dict[int, set[str]] | None = None

    def _preamble_spans(self) -> dict[str, int]:
        """Per file, where its part of the preamble ends: the root file's text before `\\begin{document}`, and
        every file included from there (its macros are expanded wherever the body uses them). None of it is sent."""
        begin = _BEGIN_DOCUMENT.search(self.project.source(self.project.root_file).text)
        if begin is None:
            return {}
        ends = {self.project.root_file: begin.start()}
        pending = [self.project.root_file]
        while pending:
            file = pending.pop()
            for inclusion in self.project.inclusions:
                if inclusion.file == file and inclusion.target and inclusion.target not in ends and inclusion.site.start < ends[file]:
                    ends[inclusion.target] = len(self.project.source(inclusion.target).text)
                    pending.append(inclusion.target)
        return ends

    def _captions_inside_floats(self) -> set[int]:
        """Caption blocks that their figure's or table's own block already holds: sent once, with the float."""
        floats = [placed for placed in self.manuscript.blocks if placed.kind in (BlockKind.TABLE, BlockKind.FIGURE)]
        return {
            caption.index
            for caption in self.manuscript.blocks
            if caption.kind is BlockKind.CAPTION
            and any(
                float_.file == caption.file and float_.block.start <= caption.block.start and caption.block.end <= float_.block.end
                for float_ in floats
            )
        }

    def _inputs_inside_tables(self) -> dict[int, list[tuple[int, str]]]:
        """Per table block, where it `\\input`s a file within its span and that file (its rows, or its tabular):
        sent inside the table, not after it as text of their own."""
        tables = [placed for placed in self.manuscript.blocks if placed.kind is BlockKind.TABLE]
        inputs: dict[int, list[tuple[int, str]]] = {}
        for inclusion in self.project.inclusions:
            site = inclusion.site.start
            host = next((t for t in tables if t.file == inclusion.file and t.block.start <= site < t.block.end and inclusion.target), None)
            if host is not None and inclusion.target:
                inputs.setdefault(host.index, []).append((site, inclusion.target))
        return inputs

    def _preamble_titles(self) -> dict[int, tuple[int, int]]:
        """Per preamble block that holds a `\\title{...}`, its span: what a reader sees of the preamble, an
        abstract aside. Found once, since whether a block is sent is asked again and again."""
        titles = {}
        for placed in self.manuscript.blocks:
            if not self.in_preamble(placed):
                continue
            text = self.project.source(placed.file).text
            for found in _TITLE.finditer(text, placed.block.start, placed.block.end):
                closing = _closing_brace(text, found.end(), placed.block.end)
                line = text[text.rfind("\n", 0, found.start()) + 1 : found.start()]
                commented = _COMMENT_MARK.search(line) is not None
                if closing is not None and not commented and not self.withheld(placed.file, found.start(), closing + 1):
                    titles[placed.index] = (found.start(), closing + 1)
                    break
        return titles

    def in_preamble(self, placed: PlacedBlock) -> bool:
        """Before `\\begin{document}`, but for an abstract that a class typesets from there (PNAS's)."""
        in_abstract = self.manuscript.sections[placed.section].kind is SectionKind.ABSTRACT
        return placed.block.start < self._preamble.get(placed.file, -1) and not in_abstract

    def withheld(self, file: str, start: int, end: int) -> bool:
        """[start, end) overlaps a span that is never sent (flagged by the SEC rules, or never read by TeX)."""
        return any(cut_start < end and start < cut_end for cut_start, cut_end in self.removed.get(file, ()))

    def latex(self, file: str, start: int, end: int, limit: int = MAX_BLOCK_CHARS) -> str:
        """The source of [start, end) as sent: flagged spans and comments removed, macros expanded, one line."""
        text = self.project.source(file).text
        pieces, position = [], start
        for cut_start, cut_end in self.removed.get(file, ()):
            if cut_end <= position or cut_start >= end:
                continue
            pieces.append(text[position : max(position, cut_start)])
            position = max(position, min(end, cut_end))
        pieces.append(text[position:end])
        cleaned = " ".join(self._macros.expand(strip_comments("".join(pieces))).split())
        return cleaned if len(cleaned) <= limit else cleaned[:limit] + " [...]"

    def record(self, placed: PlacedBlock) -> dict[str, Any]:
        """The block as one data record: {"index", "section", "latex"} and, for a table, "rows"."""
        cached = self._records.get(placed.index)
        if cached is not None:
            return cached
        block, file = placed.block, placed.file
        record: dict[str, Any] = {"index": placed.index, "section": self.title(self.manuscript.sections[placed.section])}
        table = block.table
        title = self._titles.get(placed.index)
        if title is not None:
            record["latex"] = self.latex(file, *title)
        elif table is None:
            record["latex"] = self.latex(
                file, block.start, block.end, MAX_PROSE_CHARS if placed.kind is BlockKind.PARAGRAPH else MAX_BLOCK_CHARS
            )
        else:  # the float's captions and label, then the cells row by row
            inside = [
                self.latex(file, *caption)
                for caption in _caption_spans(self.project.source(file).text, table.start, table.end)
                if not any(cell.start <= caption[0] < cell.end for row in table.rows for cell in row)
                and not self._in_other_table(placed, caption[0])
            ]  # written inside the table's own span: once, with the text around it
            around = [self.latex(file, block.start, table.start), *inside, self.latex(file, table.end, block.end)]
            record["latex"] = " ".join(part for part in around if part)
            record["rows"] = self._rows(placed)
        if table is None and placed.index in self._inputs:  # a float whose tabular is a file of its own
            record["rows"] = self._rows(placed)
        self._records[placed.index] = record
        return record

    def _in_other_table(self, placed: PlacedBlock, offset: int) -> bool:
        """`offset` lies in another table block of the float (a subtable), which sends what is written there."""
        return any(
            other.kind is BlockKind.TABLE
            and other.index != placed.index
            and other.file == placed.file
            and other.block.start <= offset < other.block.end
            for other in self.manuscript.blocks
        )

    def _rows(self, placed: PlacedBlock) -> list[list[str]]:
        """A table block's cells row by row, a file it `\\input`s in the place of the input; a block of bare
        rows (such a file) split at its row ends and ampersands."""
        table, file = placed.block.table, placed.file
        inputs = self._inputs.get(placed.index, [])
        if table is None and not inputs:
            return self._bare_rows(file, placed.block.start, placed.block.end)
        rows: list[list[str]] = []
        unplaced = list(range(len(inputs)))
        spans = Counter((cell.start, cell.end) for row in table.rows for cell in row) if table is not None else Counter()
        for row in table.rows if table is not None else ():
            here = [n for n, (site, _) in enumerate(inputs) if any(cell.start <= site < cell.end for cell in row)]
            # The rows a tabular reads from a file all sit on its `\input`: the file's own rows are sent once.
            rows += self._input_rows(inputs, [n for n in here if n in unplaced]) if here else [self._cells(file, row, spans)]
            unplaced = [n for n in unplaced if n not in here]
        return rows + self._input_rows(inputs, unplaced)

    def _cells(self, file: str, row: list[Cell], spans: Counter[tuple[int, int]]) -> list[str]:
        """A row's cells' LaTeX. The rows a tabular reads from a file by a command the project does not follow
        as an include (`\\PlainInput`) all sit on that command (`spans` counts the table's cells on each span),
        so their cells are sent as the text the parser read."""
        return [cell.text if spans[cell.start, cell.end] > 1 else self.latex(file, cell.start, cell.end) for cell in row]

    def _input_rows(self, inputs: list[tuple[int, str]], chosen: list[int]) -> list[list[str]]:
        """The rows of the files a table inputs: a tabular's blocks, or a file of bare rows (which places none)."""
        rows: list[list[str]] = []
        for file in (inputs[n][1] for n in chosen):
            blocks = [self._rows(self.manuscript.blocks[place]) for place in self.manuscript.places_of(file)]
            rows += [row for block in blocks for row in block] if blocks else self._bare_rows(file, 0, len(self.project.source(file).text))
        return rows

    def _bare_rows(self, file: str, start: int, end: int) -> list[list[str]]:
        """Rows written as source (`a & b \\\\`), split at their row ends and ampersands."""
        text = _RULES.sub(" ", self.latex(file, start, end))
        bare = [[" ".join(cell.split()) for cell in _top_level_split(row, "&")] for row in _top_level_split(text, "\\\\")]
        return [row for row in bare if any(row)]

    def size(self, placed: PlacedBlock) -> int:
        record = self.record(placed)
        return len(record["latex"]) + sum(len(cell) + 3 for row in record.get("rows", ()) for cell in row)

    def has_text(self, placed: PlacedBlock) -> bool:
        shown_elsewhere = placed.index in self._repeated_captions or placed.index in self._inlined
        bibliography = (
            self.manuscript.sections[placed.section].kind is SectionKind.REFERENCES
            and placed.kind not in _FLOATS
            and placed.index < self._after_references.get(placed.section, placed.index + 1)
        )
        sent = not self.in_preamble(placed) or placed.index in self._titles
        return sent and not shown_elsewhere and not bibliography and self.size(placed) > 0

    def _text_after_references(self) -> dict[int, int]:
        """Per reference section that text follows, the index of its first block that is no reference: a float,
        or a legend written as a paragraph. What follows is tables and legends a reader sees, not the list."""
        after: dict[int, int] = {}
        for placed in self.manuscript.blocks:
            in_references = self.manuscript.sections[placed.section].kind is SectionKind.REFERENCES
            if in_references and placed.section not in after:
                text = self.project.source(placed.file).text[placed.block.start : placed.block.end].lstrip()
                if placed.kind in _FLOATS or _LEGEND.match(text):
                    after[placed.section] = placed.index
        return after

    def lines(self, blocks: Iterable[PlacedBlock]) -> str:
        """One data line per block; "section" only where it changes, since the blocks come in reading order."""
        lines, section = [], None
        for placed in blocks:
            if not self.has_text(placed):
                continue
            record = self.record(placed)
            if record["section"] == section:
                record = {key: value for key, value in record.items() if key != "section"}
            section = record.get("section", section)
            lines.append(data_line(record))
        return "\n".join(lines)

    def title(self, section: Section) -> str:
        """The section's label with the author's macros expanded; a heading holding text that is never
        sent (an instruction to AI reviewers) is named by its place instead."""
        text = self.project.source(section.file).text if section.file in self.project.documents else ""
        line_end = text.find("\n", section.start)
        if section.title and self.withheld(section.file, section.start, line_end if line_end >= 0 else len(text)):
            return f"Section {self.manuscript.sections.index(section) + 1} (heading withheld: the SEC rules flagged it)"
        return " ".join(self._macros.expand(section_label(section)).split())

    def paper(self) -> str:
        """The whole paper as data lines, then the cited bibliography entries."""
        if self._paper is None:
            self._paper = "\n".join(part for part in (self.lines(self.blocks()), self.bibliography()) if part)
        return self._paper

    def bibliography(self) -> str:
        """The entries the paper cites, one compact data line each: key, authors, title, venue, year."""
        cited = {use.key for _, use in self.project.index.cites}
        lines = []
        for file in self.project.bibliography_files:
            bibliography = self.project.bibliographies.get(file)
            for entry in bibliography.entries if bibliography is not None else ():
                if entry.key not in cited:
                    continue
                cited.discard(entry.key)  # a repeated key: its first definition
                fields = {name: " ".join(entry.fields[name].split())[:BIB_FIELD_CHARS] for name in _BIB_FIELDS if entry.fields.get(name)}
                if "author" in fields:
                    fields["author"] = _first_author(entry.fields["author"])
                lines.append(data_line({"reference": entry.key, **fields}))
        return "\n".join(lines)

    def related(self, blocks: Iterable[PlacedBlock], budget: int, queries: Sequence[str] = ()) -> str:
        """Blocks elsewhere in the paper that share the most rare terms with `blocks`, within `budget`
        characters, in reading order, as data lines: the memory design's way to show a call what its
        part is compared with (the results a claim restates, the passage that explains a choice). A
        block too long for what is left is shown by its sentences that hold a shared term (a large
        table by the caption that names what the part quotes).

        With `queries` (the sentences each candidate of a verifier's batch quotes), each query gets an
        equal share of the budget and chooses by its own terms, the most of them weighted by rarity first:
        what resolves a candidate shares the words of its sentence ("epochs", "final model"), not the
        rare names of its whole paragraph, and one candidate's passages do not crowd out another's."""
        own = {placed.index for placed in blocks}
        chosen: dict[int, dict[str, Any]] = {}
        if not queries:
            terms = self._block_terms()
            self._choose(set().union(*(terms.get(index, set()) for index in own)), own, budget, chosen, by_rarest=True)
        for query in queries:
            self._choose({word.lower() for word in _WORD.findall(query)}, own, budget // len(queries), chosen, by_rarest=False)
        return "\n".join(data_line(chosen[index]) for index in sorted(chosen))

    def _choose(self, wanted: set[str], own: set[int], budget: int, chosen: dict[int, dict[str, Any]], by_rarest: bool) -> None:
        """Add to `chosen` the blocks sharing `wanted` terms, best first, within `budget`: by the rarest shared
        term (a name only the two passages use), then their sum; or by the sum, of terms in any number of blocks."""
        terms = self._block_terms()
        frequency = Counter(term for found in terms.values() for term in found)
        weight = {
            term: math.log(len(terms) / frequency[term]) for term in wanted if 0 < frequency[term] <= (RARE if by_rarest else len(terms))
        }
        scored = sorted(
            (
                (max(shared, default=0.0), sum(shared), index)
                for index, found in terms.items()
                if index not in own and index not in chosen
                for shared in [[weight[term] for term in found if term in weight]]
            ),
            key=lambda item: (-item[0], -item[1], item[2]) if by_rarest else (-item[1], -item[0], item[2]),
        )
        for rarest, _, index in scored:
            if rarest <= 0:
                break
            placed = self.manuscript.blocks[index]
            shown: dict[str, Any] | None = self.record(placed)
            size = self.size(placed)
            if size > budget:
                shown = _excerpt(self.record(placed), set(weight))
                size = len(data_line(shown)) if shown is not None else size
            if shown is None or size > budget:
                continue
            budget -= size
            chosen[index] = shown

    def _block_terms(self) -> dict[int, set[str]]:
        if self._terms is None:
            self._terms = {
                placed.index: {word.lower() for word in _WORD.findall(json.dumps(self.record(placed), ensure_ascii=False))}
                for placed in self.blocks()
            }
        return self._terms

    def sections(self) -> list[Section]:
        """Sections with text to audit, in reading order (of a references section, the floats placed after the bibliography)."""
        return [section for section in self.manuscript.sections if any(self.has_text(placed) for placed in section.blocks)]

    def blocks(self) -> list[PlacedBlock]:
        return [placed for section in self.sections() for placed in section.blocks if self.has_text(placed)]

    def chars(self, sections: Iterable[Section]) -> int:
        return sum(self.size(placed) for section in sections for placed in section.blocks if self.has_text(placed))

    def outline(self) -> str:
        """The sections with their block ranges, as data lines, for the planner."""
        lines = []
        for section in self.sections():
            indices = [placed.index for placed in section.blocks]
            lines.append(data_line({"section": self.title(section), "level": section.level, "blocks": f"{indices[0]}-{indices[-1]}"}))
        return "\n".join(lines)


def known_lines(project: Project, findings: Iterable[Finding], blocks: Iterable[PlacedBlock] | None) -> str:
    """Deterministic findings inside `blocks` (None: anywhere), as data lines, so the model does not repeat them.
    Hints ("entry never cited") are left out: the list is for problems a model might report again."""
    wanted = None if blocks is None else {placed.index for placed in blocks}
    lines = []
    for finding in sorted(findings, key=lambda f: -f.severity.rank):
        if finding.code in MANIPULATION_CODES or finding.severity is Severity.HINT:  # SEC: their messages quote the text never sent
            continue
        document = project.documents.get(finding.file)
        placed = None
        if document is not None:
            placed = block_at(project, finding.file, document.source.offset(finding.range.start.line, finding.range.start.character))
        if wanted is not None and (placed is None or placed.index not in wanted):
            continue
        lines.append(
            data_line({"block": placed.index if placed is not None else None, "type": finding.category.value, "message": finding.message})
        )
        if len(lines) >= MAX_KNOWN:
            break
    return "\n".join(lines)
