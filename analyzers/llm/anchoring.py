"""From an LLM answer to located Findings: quotes become source ranges.

A quote is looked up, in order (the hinted block first, then the whole paper):
1. exact, in a block's plain text or in its LaTeX source;
2. normalised: white space collapsed, quotes/dashes unified, case folded, and
   LaTeX markup stripped from the quote (models sometimes quote the source);
3. rapidfuzz alignment of the normalised quote, above `fuzzy_threshold`.
Plain-text matches map back to the source with `PlainText.source_span`.

Matching is length-aware: a quote longer than the block it best matches is not that
block's text, so it does not anchor (an invented quote that contains a real sentence
would otherwise pass as the whole block).

A finding none of whose quotes anchors stays at section level (`anchored=False`) and is
shown at information at most. A finding whose quotes all score below `absent_threshold`
everywhere, or whose quotes are longer than any block they match, quotes nothing in the
paper: it is *unsupported* and returned separately, never shown as a finding.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field
from rapidfuzz import fuzz, process

from ...latex.deferred_pattern import DeferredPattern
from ...latex.manuscript import PlacedBlock, Section
from ...latex.project import Project
from ...latex.record import record
from ..finding import Category, Finding, Fix, Range, Related, Severity, Source, TextEdit
from .codes import code_for
from .detection_prompts import error_type
from .schema import Evidence, Importance, LLMFinding, Verdict
from .units import block_at, section_label

_MARKUP = [
    (re.compile(r"\\(?:cite\w*|ref|eqref|autoref|cref|Cref|label|footnote)\*?(?:\[[^\]]*\])*\{[^}]*\}"), ""),
    (re.compile(r"\\[a-zA-Z]+\*?(?:\[[^\]]*\])?\{([^{}]*)\}"), r"\1"),
    (re.compile(r"\\[a-zA-Z]+\*?"), " "),
    (re.compile(r"\\(.)"), r"\1"),
]
_FOLD = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-", "~": " ", "`": "'", "\u00a0": " "}
)
_DROPPED = set("{}$")
_REPLACE = DeferredPattern(
    r"""(?:replace|change)\s+["“](?P<old>.+?)["”]\s+(?:with|to|by)\s+["“](?P<new>.+?)["”]\s*\.?\s*$""", re.IGNORECASE | re.DOTALL
)
# A quote at most this much longer than a block may be that block paraphrased; a longer one is not its text.
_LONGER_QUOTE = 1.1
_BLOCK_RANGE = DeferredPattern(r"^\s*blocks?\s*(\d+)(?:\s*[-–]\s*(\d+))?\s*$", re.IGNORECASE)


def strip_markup(text: str) -> str:
    return _stripped(text, list(range(len(text))))[0]


def _stripped(text: str, where: list[int]) -> tuple[str, list[int]]:
    """`text` without LaTeX markup, keeping for each character its index in the original."""
    for pattern, replacement in _MARKUP:
        parts: list[str] = []
        kept: list[int] = []
        last = 0
        for match in pattern.finditer(text):
            parts.append(text[last : match.start()])
            kept += where[last : match.start()]
            if replacement == " ":
                parts.append(" ")
                kept.append(where[match.start()])
            elif replacement:  # the command's argument or the escaped character survives
                parts.append(match.group(1))
                kept += where[match.start(1) : match.end(1)]
            last = match.end()
        parts.append(text[last:])
        kept += where[last:]
        text, where = "".join(parts), kept
    return text, where


def normalise(text: str) -> tuple[str, list[int]]:
    """Markup stripped and characters folded, with, per folded character, its index in `text`.

    Applied alike to block text and quotes, so either may carry markup the other lacks.
    """
    stripped, origin = _stripped(text, list(range(len(text))))
    out: list[str] = []
    where: list[int] = []
    for index, char in zip(origin, stripped.translate(_FOLD)):
        if char in _DROPPED:
            continue
        if char.isspace():
            if not out or out[-1] == " ":
                continue
            char = " "
        out.append(char.lower())
        where.append(index)
    while out and out[-1] == " ":
        out.pop()
        where.pop()
    return "".join(out), where


def normalised_key(text: str) -> str:
    return normalise(text)[0]


AnchorMethod = Literal["exact", "source", "normalised", "fuzzy", "block"]


@record
class Anchor:
    file: str
    start: int  # source offsets
    end: int
    block: PlacedBlock | None
    method: AnchorMethod
    verbatim: bool  # the source range reads exactly the quote: safe to replace


@dataclass
class _BlockIndex:
    placed: PlacedBlock
    plain: str
    folded: str
    folded_at: list[int]


@dataclass
class AnchorStats:
    quotes: int = 0
    by_method: dict[str, int] = field(default_factory=dict)
    absent: int = 0


class Anchorer:
    def __init__(self, project: Project, fuzzy_threshold: float = 85.0, absent_threshold: float = 60.0) -> None:
        self.project = project
        self.fuzzy_threshold = fuzzy_threshold
        self.absent_threshold = absent_threshold
        self.stats = AnchorStats()
        self._blocks: list[_BlockIndex] = []
        self._by_index: dict[int, _BlockIndex] = {}
        for placed in project.manuscript.blocks:
            plain = placed.block.plain.text
            if not plain.strip():
                continue
            folded, at = normalise(plain)
            entry = _BlockIndex(placed, plain, folded, at)
            self._blocks.append(entry)
            self._by_index[placed.index] = entry
        self._folded = [entry.folded for entry in self._blocks]
        # Every block's text joined once, so a lookup is one C-speed find, not a loop over blocks.
        self._plain_joined, self._plain_starts = _joined([entry.plain for entry in self._blocks])
        self._folded_joined, self._folded_starts = _joined(self._folded)

    def anchor(self, quote: str, block_hint: int | None = None) -> Anchor | Literal[False] | None:
        """The quote's source range; None when it cannot be pinned down; False when the paper does not contain it."""
        self.stats.quotes += 1
        result = self._anchor(quote.strip().strip('"“”'), block_hint)
        if result is False:
            self.stats.absent += 1
        elif result is not None:
            self.stats.by_method[result.method] = self.stats.by_method.get(result.method, 0) + 1
        return result

    def _anchor(self, quote: str, block_hint: int | None) -> Anchor | Literal[False] | None:
        ranged = _BLOCK_RANGE.match(quote)
        if ranged:
            return self._block_range(int(ranged.group(1)), int(ranged.group(2) or ranged.group(1)))
        hinted = [self._by_index[block_hint]] if block_hint in self._by_index else []
        found = self._lookup(quote, hinted, folded=False)
        if found is not None:
            return self._from_plain(found[0], found[1], found[1] + len(quote), "exact", quote)
        in_source = self._in_source(quote)
        if in_source is not None:
            return in_source
        folded = normalised_key(quote)
        if not folded:
            return None
        found = self._lookup(folded, hinted, folded=True)
        if found is not None:
            return self._from_folded(found[0], found[1], found[1] + len(folded), "normalised", quote)
        return self._fuzzy(folded, quote, hinted)

    def _in_source(self, quote: str) -> Anchor | None:
        """The quote in a file's LaTeX, white space matched loosely: models quote the source they were shown."""
        words = quote.split()
        if not words:
            return None
        pattern = re.compile(r"\s+".join(map(re.escape, words)))
        for file, document in self.project.documents.items():
            found = pattern.search(document.text)
            if found is not None:
                start, end = found.span()
                return Anchor(file, start, end, block_at(self.project, file, start), "source", found.group(0) == quote)
        return None

    def _lookup(self, needle: str, hinted: list[_BlockIndex], folded: bool) -> tuple[_BlockIndex, int] | None:
        """The hinted block first, then the first block of the paper containing `needle`."""
        for entry in hinted:
            position = (entry.folded if folded else entry.plain).find(needle)
            if position >= 0:
                return entry, position
        joined, starts = (self._folded_joined, self._folded_starts) if folded else (self._plain_joined, self._plain_starts)
        found = _find(joined, starts, needle)
        return (self._blocks[found[0]], found[1]) if found is not None else None

    def _fuzzy(self, folded: str, quote: str, hinted: list[_BlockIndex]) -> Anchor | Literal[False] | None:
        best = process.extract(folded, self._folded, scorer=fuzz.partial_ratio, limit=3)
        choices = [self._blocks[i] for _, score, i in best if score >= self.fuzzy_threshold]
        choices = [entry for entry in hinted if entry in choices] + choices
        for entry in choices:
            if len(folded) > _LONGER_QUOTE * len(entry.folded):  # the block is inside the quote, not the quote inside the block
                continue
            alignment = fuzz.partial_ratio_alignment(folded, entry.folded, score_cutoff=self.fuzzy_threshold)
            if alignment is None:
                continue
            if len(folded) <= len(entry.folded):
                start, end = alignment.dest_start, alignment.dest_end
            else:  # the whole block, paraphrased
                start, end = 0, len(entry.folded)
            return self._from_folded(entry, start, end, "fuzzy", quote)
        if (
            not best
            or best[0][1] < self.absent_threshold
            or (choices and all(len(folded) > _LONGER_QUOTE * len(e.folded) for e in choices))
        ):
            return False
        return None

    def _block_range(self, first: int, last: int) -> Anchor | None:
        entries = [self._by_index[i] for i in range(first, last + 1) if i in self._by_index]
        if not entries or entries[0].placed.file != entries[-1].placed.file:
            return None
        return Anchor(
            entries[0].placed.file, entries[0].placed.block.start, entries[-1].placed.block.end, entries[0].placed, "block", False
        )

    def _from_folded(self, entry: _BlockIndex, start: int, end: int, method: AnchorMethod, quote: str) -> Anchor:
        plain_start = entry.folded_at[start]
        plain_end = entry.folded_at[end - 1] + 1 if end > start else plain_start
        return self._from_plain(entry, plain_start, plain_end, method, quote)

    def _from_plain(self, entry: _BlockIndex, start: int, end: int, method: AnchorMethod, quote: str) -> Anchor:
        src_start, src_end = entry.placed.block.plain.source_span(start, end)
        text = self.project.source(entry.placed.file).text
        return Anchor(entry.placed.file, src_start, src_end, entry.placed, method, text[src_start:src_end] == quote)


def _joined(texts: list[str]) -> tuple[str, list[int]]:
    starts, offset = [], 0
    for text in texts:
        starts.append(offset)
        offset += len(text) + 1
    return "\x00".join(texts), starts


def _find(joined: str, starts: list[int], needle: str) -> tuple[int, int] | None:
    """(block number, offset in that block) of the first occurrence; never across blocks (\x00)."""
    position = joined.find(needle)
    if position < 0 or "\x00" in needle:
        return None
    block = bisect.bisect_right(starts, position) - 1
    return block, position - starts[block]


class SeverityPolicy(BaseModel):
    """Severity of a verified LLM finding from the verifier's verdict, capped per type. When in doubt, lower.

    A finding that is not anchored, or that the manuscript alone cannot settle, informs at most. The levels are
    measured as the rules' classes are (a class warns at 90% genuine): the fast audit of the real-errors ledger's
    held-out papers, a strong model detecting and verifying (benchmarks/real_errors_relay.py), triaged finding by
    finding: moderate 25 of 27 genuine (2 acceptable, none false), minor 97 of 108 (3 false). "Minor" says what an
    error costs the paper (a mistyped table value), not how sure the finding is: it informs.
    """

    levels: dict[Importance, Severity] = Field(
        default_factory=lambda: {
            Importance.MAJOR: Severity.WARNING,
            Importance.MODERATE: Severity.WARNING,
            Importance.MINOR: Severity.INFORMATION,
        }
    )
    cap: dict[Category, Severity] = Field(default_factory=lambda: {Category.RHETORIC_BIAS: Severity.INFORMATION})

    def severity(self, category: Category, verdict: Verdict, anchored: bool) -> Severity:
        severity = self.levels.get(verdict.severity, Severity.HINT)
        caps = [self.cap.get(category)]
        if not anchored or not verdict.settled_by_manuscript:
            caps.append(Severity.INFORMATION)
        for cap in caps:
            if cap is not None and severity.rank > cap.rank:
                severity = cap
        return severity


@dataclass
class Located:
    """What `locate` makes of one answer finding."""

    finding: Finding | None  # None when unsupported
    unsupported: LLMFinding | None = None


class FindingMapper:
    """Turns validated answer findings into `Finding`s anchored in `project`."""

    def __init__(self, project: Project, policy: SeverityPolicy | None = None, anchorer: Anchorer | None = None) -> None:
        self.project = project
        self.policy = policy or SeverityPolicy()
        self.anchorer = anchorer or Anchorer(project)

    def locate(self, answer: LLMFinding, fallback: Section | None, code: str | None = None) -> Located:
        anchors: list[tuple[Evidence, Anchor]] = []
        absent = unpinned = 0
        for evidence in answer.quotes():
            result = self.anchorer.anchor(evidence.quote, evidence.block_index)
            if result is False:
                absent += 1
            elif result is None:
                unpinned += 1
            else:
                anchors.append((evidence, result))
        if absent and not anchors and not unpinned:
            return Located(None, unsupported=answer)
        section = self._section(answer.section_location, anchors, fallback)
        category = answer.type
        explanation = answer.explanation.strip()
        fixes: list[Fix] = []
        primary = anchors[0][1] if anchors else None
        if answer.proposed_fix.strip():
            fix = self._verbatim_fix(answer, primary)
            if fix is not None:
                fixes.append(fix)
            else:
                explanation = f"{explanation}\n\nProposed fix: {answer.proposed_fix.strip()}".strip()
        if primary is not None:
            file, start, end = primary.file, primary.start, primary.end
        else:
            file, start, end = self._section_span(section)
        related = [
            Related(file=a.file, range=self._range(a.file, a.start, a.end), message=f"Evidence: {e.quote.strip()[:160]}")
            for e, a in anchors[1:]
        ]
        identity_quote = answer.error_location or (answer.evidence[0].quote if answer.evidence else "")
        finding = Finding(
            code=code or code_for(category),
            category=category,
            severity=Severity.HINT,  # until the verifier rates it
            message=_message(error_type(category).name, answer.explanation),
            file=file,
            range=self._range(file, start, end),
            related=related,
            source=Source.LLM,
            confidence=answer.confidence,
            fixes=fixes,
            explanation=explanation or None,
            anchored=primary is not None,
            section=section_label(section) if section is not None else answer.section_location or None,
            identity=f"{category.value}|{normalised_key(identity_quote) or normalised_key(answer.explanation)[:200]}",
        )
        return Located(finding.with_fingerprint())

    def _verbatim_fix(self, answer: LLMFinding, primary: Anchor | None) -> Fix | None:
        """A Fix only when the proposal replaces exactly the anchored span, quoted verbatim."""
        match = _REPLACE.search(answer.proposed_fix.strip())
        if match is None or primary is None or not primary.verbatim:
            return None
        text = self.project.source(primary.file).text
        if text[primary.start : primary.end] != match.group("old"):
            return None
        edit = TextEdit(file=primary.file, range=self._range(primary.file, primary.start, primary.end), new_text=match.group("new"))
        return Fix(title=f"Replace with “{match.group('new')[:60]}”", edits=[edit], safe=False)

    def _section(self, name: str, anchors: list[tuple[Evidence, Anchor]], fallback: Section | None) -> Section | None:
        sections = self.project.manuscript.sections
        if anchors and anchors[0][1].block is not None:
            return sections[anchors[0][1].block.section]
        titled = [s for s in sections if s.title]
        if name.strip() and titled:
            best = process.extractOne(name, [s.title for s in titled], scorer=fuzz.WRatio, score_cutoff=80)
            if best is not None:
                return titled[best[2]]
        return fallback

    def _section_span(self, section: Section | None) -> tuple[str, int, int]:
        if section is None or not section.file:
            return self.project.root_file, 0, 0
        return section.file, section.start, section.end

    def _range(self, file: str, start: int, end: int) -> Range:
        source = self.project.source(file)
        return Range.of(*source.position(start), *source.position(max(start, end)))


def _message(type_name: str, explanation: str) -> str:
    sentence = re.split(r"(?<=[.!?])\s+", " ".join(explanation.split()), maxsplit=1)[0]
    if len(sentence) > 240:
        sentence = sentence[:237].rstrip() + "..."
    return f"{type_name}: {sentence}" if sentence else f"{type_name} (no explanation given)."
