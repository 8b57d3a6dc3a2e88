from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache

from ....latex.manuscript import PlacedBlock
from ....latex.model import BlockKind
from ....latex.record import record
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...memo import SECTION_CACHE_SIZE, TEXT_CACHE_SIZE, SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .float_layout import float_layout
from .model import (
    FAR_BEYOND,
    FLOAT_BLOCKS,
    FLOATS,
    HAND_NUMBERED,
    SINGLE_NUMBERED,
    Unprinted,
    elsewhere,
    float_environments,
    float_type,
    hand_numbers,
    mentioned_kind,
    numbered_by_chapter,
    numbered_heading,
    numbered_in_order,
    printed_files,
    unprinted,
)

_PROSE = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.THEOREM)


@violation_type
class HandNumberBeyondLast(Violation):
    written: str
    kind: str
    count: int
    within: int | None = None  # the section whose subsections the number goes past

    @property
    def message(self) -> str:
        plural = "" if self.count == 1 else "s"
        if self.within is not None:
            return f'"{self.written}" is numbered by hand, but section {self.within} has {self.count} numbered subsection{plural}'
        return f'"{self.written}" is numbered by hand, but the paper has {self.count} numbered {self.kind}{plural}'

    @property
    def identity(self) -> str:
        return f"{self.written} of {self.kind}s"


@violation_type
class HandNumberOutsideChapters(Violation):
    written: str
    kind: str

    @property
    def message(self) -> str:
        return f'"{self.written}" is numbered by hand with one number, but the paper numbers its {self.kind}s within chapters ("4.1")'

    @property
    def identity(self) -> str:
        return f"{self.written} of chaptered {self.kind}s"


@rule("DRF003", "hand-numbered-reference", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks", "macros"))
def hand_numbered_reference(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a figure, table or section named by a number typed in the text ("Figure 5", "Tables 2
    and 4", "Section 3.2", abbreviated or not) where the paper has fewer numbered ones. They are
    counted as LaTeX numbers them: one number per `\\caption` of a figure or table environment
    (starred environments too), none for `\\caption*` or a subfigure's caption; one per
    `\\section` (and `\\subsection` within it) before the appendix, none for `\\section*`;
    skipping what TeX never reads. The rule stays silent for a kind whose numbering it cannot
    establish: per chapter or section, a counter set by hand, `\\captionof`, continued floats, a
    float it could not read, an include it could not follow. A sentence that may number another
    document's objects (a citation, "et al.", the supplement, an appendix), and a number more
    than three past the paper's last (a statute's "Section 230"), are left alone.

    In a document with chapters, where LaTeX numbers figures and tables within each chapter
    ("Table 4.1") unless a counter is set otherwise, a figure or table named by a single number,
    arabic or roman ("Table I", left over from a journal version), names none of them.

    ## Why is this bad?
    A number typed by hand does not follow the floats when they are added, removed or moved: the
    reader is sent to a figure that does not exist (or to the wrong one).

    ## Example
    ```latex
    As Figure 5 shows, the loss plateaus.  % the paper has four figures
    ```

    ## Use instead
    ```latex
    As Figure~\\ref{fig:loss} shows, the loss plateaus.
    ```

    ## Fix safety
    No fix: the rule cannot tell which figure was meant.

    ## Evidence
    "strong: beyond the last numbered float" (or section); "moderate: one number where floats are
    numbered by chapter".
    """
    project = ctx.whole_project  # the files' texts and include graph, which "blocks" covers
    if any(inclusion.target is None for inclusion in project.inclusions if inclusion.site.kind == "tex"):
        return
    readings = [_reading(SectionKey(section)) for section in ctx.manuscript.sections]
    mentioning = [placed for reading in readings for placed in reading.mentioning]
    if not mentioning:  # what LaTeX numbers is counted (each float parsed) only for a paper that types a number
        return
    texts = [ctx.source(path).text for path in printed_files(project)]
    hidden = unprinted(project, ctx.index.macros)
    typed = [typed for reading in readings for typed in reading.floats]
    yield from _outside_chapters(ctx, hidden, texts, typed, readings)
    counts, subsections = _numbered_counts(ctx, hidden, texts, typed)
    for placed in mentioning if counts else ():
        yield from _mentions_beyond_last(ctx, placed, counts, subsections)


@record(slots=True)
class _SectionReading:
    """What DRF003 reads of a section's blocks, whatever the rest of the paper holds: kept per Section the manuscript
    hands on, so an edit reads the edited sections' blocks alone (and the project's settings only where these are)."""

    mentioning: tuple[PlacedBlock, ...]  # prose that types a float or section number
    floats: tuple[tuple[PlacedBlock, str], ...]  # blocks in a float environment, with the counter it steps
    prose: tuple[PlacedBlock, ...]  # prose that names a float by one number ("Table I")


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _reading(key: SectionKey) -> _SectionReading:
    blocks = key.section.blocks
    return _SectionReading(
        tuple(placed for placed in blocks if placed.kind in _PROSE and _may_mention(placed.block.plain.text)),
        tuple((placed, kind) for placed in blocks if (kind := float_type(placed.block.environment or "")) is not None),
        tuple(placed for placed in blocks if placed.kind in _PROSE and _names_a_float(placed.block.plain.text)),
    )


def _mentions_beyond_last(ctx: RuleContext, placed: PlacedBlock, counts: Counter[str], subsections: list[int]) -> Iterator[Finding]:
    """A prose block's hand-typed numbers past the paper's last of their kind, outside sentences about another document."""
    text = placed.block.plain.text
    for mention in HAND_NUMBERED.finditer(text):
        kind = mentioned_kind(mention.group("name"))
        violation = _beyond(" ".join(mention.group(0).split()), kind, hand_numbers(mention.group("numbers")), counts, subsections)
        start, end = _sentence_around(text, mention.start())
        if violation is None or elsewhere(text[start:end]):
            continue
        reason = f"LaTeX numbers {counts[kind]} {kind}s in this paper"
        evidence = Evidence(kind=f"strong: beyond the last numbered {'section' if kind == 'section' else 'float'}", reason=reason)
        yield ctx.flag_block(violation, placed, mention.start(), mention.end(), evidence=evidence)


@lru_cache(maxsize=TEXT_CACHE_SIZE)  # by text: the sections after an edit, in its file, are new Sections of the same blocks
def _may_mention(text: str) -> bool:
    """Whether the text types a float or section number, by hand ("Table 4") or as one number ("Table I")."""
    return ("Fig" in text or "Tab" in text or "Sec" in text) and (HAND_NUMBERED.search(text) or SINGLE_NUMBERED.search(text)) is not None


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _names_a_float(text: str) -> bool:
    """Whether the text names a float by a single number, arabic or roman ("Table 4", "Table I")."""
    return ("Fig" in text or "Tab" in text) and SINGLE_NUMBERED.search(text) is not None


def _beyond(
    written: str, kind: str, numbers: list[tuple[int, int | None]], counts: Counter[str], subsections: list[int]
) -> HandNumberBeyondLast | None:
    """What a mention's numbers go past, if anything: the paper's last of its kind, or its section's last subsection."""
    count = counts.get(kind, 0)
    if not count or (kind != "section" and any(sub is not None for _, sub in numbers)):
        return None  # "Table 2.1": numbered otherwise than the rule counts
    for top, sub in numbers:
        if count < top <= count + FAR_BEYOND:
            return HandNumberBeyondLast(written, kind, count)
        if kind == "section" and sub is not None and top <= count and subsections[top - 1] < sub <= subsections[top - 1] + FAR_BEYOND:
            return HandNumberBeyondLast(written, kind, subsections[top - 1], within=top)
    return None


def _numbered_counts(
    ctx: RuleContext, hidden: Unprinted, texts: list[str], typed: list[tuple[PlacedBlock, str]]
) -> tuple[Counter[str], list[int]]:
    """How many of each kind LaTeX numbers, with each numbered section's count of numbered subsections."""
    counts = _float_counts(ctx, hidden, texts, typed)
    subsections = _section_counts(ctx, hidden)
    if subsections and numbered_in_order(texts, "section"):
        counts["section"] = len(subsections)
    return counts, subsections


def _sentence_around(text: str, offset: int) -> tuple[int, int]:
    """The span of the sentence a mention stands in, which may say it names another document's objects."""
    return next((span for span in sentence_spans(text) if span[0] <= offset < span[1]), (0, len(text)))


def _float_counts(ctx: RuleContext, hidden: Unprinted, texts: list[str], typed: list[tuple[PlacedBlock, str]]) -> Counter[str]:
    """How many figures and tables LaTeX numbers, for the kinds whose numbering the rule can establish."""
    counts: Counter[str] = Counter()
    environments: Counter[str] = Counter()
    for placed, kind in typed:
        if placed.kind not in FLOAT_BLOCKS or placed.block.environment not in FLOATS:
            continue
        environments[kind] += 1
        if not hidden.covers(placed.file, placed.block.start):
            layout = float_layout(ctx.source(placed.file).text[placed.block.start : placed.block.end])
            counts[kind] += layout.captions if layout else 0
    return Counter(
        {
            kind: count
            for kind, count in counts.items()
            if count and numbered_in_order(texts, kind) and float_environments(texts, kind) <= environments[kind]
        }
    )


def _section_counts(ctx: RuleContext, hidden: Unprinted) -> list[int]:
    """The numbered sections before the appendix, each with how many numbered subsections it has."""
    subsections: list[int] = []
    for section in ctx.manuscript.sections:
        if section.in_appendix or hidden.covers(section.file, section.start):
            continue
        command = numbered_heading(ctx.source(section.file).text[section.start : section.end])
        if command == "section":
            subsections.append(0)
        elif command == "subsection" and subsections:
            subsections[-1] += 1
    return subsections


def _outside_chapters(
    ctx: RuleContext, hidden: Unprinted, texts: list[str], typed: list[tuple[PlacedBlock, str]], readings: list[_SectionReading]
) -> Iterator[Finding]:
    """A figure or table named by one number ("Table I") in a paper that numbers them within chapters: it names none."""
    kinds = {kind for placed, kind in typed if not hidden.covers(placed.file, placed.block.start)}
    chaptered = {kind for kind in kinds if numbered_by_chapter(texts, kind)}
    for placed in (placed for reading in readings for placed in reading.prose) if chaptered else ():
        if hidden.covers(placed.file, placed.block.start):
            continue
        text = placed.block.plain.text
        for mention in SINGLE_NUMBERED.finditer(text):
            kind = mentioned_kind(mention.group("name"))
            start, end = _sentence_around(text, mention.start())
            if kind not in chaptered or elsewhere(text[start:end]):
                continue
            violation = HandNumberOutsideChapters(" ".join(mention.group(0).split()), kind)
            evidence = Evidence(
                kind="moderate: one number where floats are numbered by chapter", reason=f"LaTeX numbers {kind}s chapter by chapter here"
            )
            yield ctx.flag_block(violation, placed, mention.start(), mention.end(), evidence=evidence)
