"""DRF007: a sentence that cites panels of a figure for a subject its caption gives to other panels.

## How it decides
The caption of a float with one caption is read for its panels, each with its letters and its
subject: the head of its description, up to six words to the nearest break ("(b) short-read
alignment, 10 million pairs …" gives short-read alignment; "…, and the prostate cancer (Prostate)
case study (D, H)" gives prostate cancer study). Of a subject's words only those no other part of
the caption uses count (words every description may hold, such as performance, model, row, never
do), and its capitalised words after the first are its names. A sentence that cites panels of that
float ("Figure~\\ref{fig:main} C, G", "Figures~\\ref{fig:main}(d) and (e)") is judged when all
its references to the float cite panels of one subject. It is flagged when it (from the last colon or
semicolon before the first reference: the clause that cites) names exactly one other panel's subject (two of its words, or one of its names) and holds no word of the cited
panel's subject: "In the prostate case study, … (Figure~\\ref{fig:main} C, G)" where the caption
puts the prostate study in panels D and H. A caption whose marks mix both styles, or whose letters
repeat, is not read. Plurals count as their singular.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock
from ....latex.model import BlockKind
from ....latex.sentences import sentence_spans
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...memo import SECTION_CACHE_SIZE, TEXT_CACHE_SIZE, SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .float_numbers import float_captions
from .panels import Panel, caption_panels, cited_panels, sentence_words

_PROSE = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.THEOREM)
# A colon or semicolon of the prose, which a space follows (a label's colon, `fig:main`, has none).
_CLAUSE_BREAK = DeferredPattern(r"[:;]\s")


@violation_type
class PanelOfAnotherSubject(Violation):
    key: str
    cited: str  # the panel letters the sentence cites, as "C, G"
    subject: str  # the words naming the other panel's subject
    meant: str  # that panel's letters

    @property
    def message(self) -> str:
        return (
            f"the sentence cites panels {self.cited} of \\ref{{{self.key}}} for {self.subject}, "
            f"but the caption gives {self.subject} panels {self.meant}"
        )

    @property
    def identity(self) -> str:
        return f"{self.key} {self.cited} {self.meant}"


@rule("DRF007", "panel-of-another-subject", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks",))
def panel_of_another_subject(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a sentence that cites panels of a figure or table ("Figure~\\ref{fig:main} C, G") while
    naming the subject its caption gives to other panels: "In the prostate cancer study …
    (Figure~\\ref{fig:main} C, G)" where the caption reads "free light chain study (C, G) and
    prostate cancer study (D, H)". Only a sentence naming one other panel's subject (two of its
    words, or a name the caption capitalises), and nothing of the cited panels', is flagged.

    ## Why is this bad?
    Panel letters are typed by hand: when panels are added or reordered, the text keeps sending
    the reader to the old letters, and the reader reads another study's curves as this one's.

    ## Example
    ```latex
    \\caption{The FLC study (C, G) and the prostate cancer study (D, H).\\label{fig:main}}
    In the prostate cancer study the linear models win (Figure~\\ref{fig:main} C, G).
    ```

    ## Use instead
    ```latex
    In the prostate cancer study the linear models win (Figure~\\ref{fig:main} D, H).
    ```

    ## Fix safety
    No fix: the letters or the subject may be the wrong one.
    """
    panels = _captioned_panels(ctx)
    for section in ctx.manuscript.sections if panels else ():
        for placed in _citing_blocks(SectionKey(section)):
            for offset, sentence, citations in _panel_citations(placed.block.plain.text):
                yield from _sentence(ctx, placed, offset, sentence, citations, panels)


_Citation = tuple[str, frozenset[str], int, int]  # a float's key, the panel letters cited, where in the sentence


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _panel_citations(text: str) -> tuple[tuple[int, str, tuple[_Citation, ...]], ...]:
    """The sentences of a prose text that cite panels: (offset, sentence, its citations), kept by text so
    that an edit re-reads the edited paragraph alone."""
    found = []
    for start, end in sentence_spans(text):
        citations = cited_panels(text[start:end])
        if citations:
            found.append((start, text[start:end], tuple(citations)))
    return tuple(found)


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _citing_blocks(key: SectionKey) -> tuple[PlacedBlock, ...]:
    """A section's prose blocks that cite panels, picked once per Section the manuscript hands on."""
    return tuple(
        placed
        for placed in key.section.blocks
        if placed.kind in _PROSE and "ref" in placed.block.plain.text and _panel_citations(placed.block.plain.text)
    )


def _captioned_panels(ctx: RuleContext) -> dict[str, tuple[Panel, ...]]:
    """The panels of each labelled float with one caption that describes two panels or more."""
    found: dict[str, tuple[Panel, ...]] = {}
    for index, texts in float_captions(ctx.manuscript).items():  # in the order of their floats
        holder = ctx.manuscript.blocks[index]
        parts = caption_panels(texts[0]) if len(texts) == 1 else ()
        if parts:
            found.update(dict.fromkeys(holder.block.labels, parts))
    return found


def _sentence(
    ctx: RuleContext,
    placed: PlacedBlock,
    offset: int,
    sentence: str,
    citations: tuple[_Citation, ...],
    panels: dict[str, tuple[Panel, ...]],
) -> Iterator[Finding]:
    """The sentence's panel references whose float's caption gives the subject it names to other panels."""
    cited: dict[str, list[tuple[frozenset[str], int, int]]] = {}
    for key, letters, start, end in citations:
        if key in panels:
            cited.setdefault(key, []).append((letters, start, end))
    for key, references in cited.items():
        # The clause that cites the panels speaks of them: "… as follows: firstly, the model is fitted (Fig. 1B)"
        # cites B for the fitting, whatever the words before the colon name.
        clause = max((stop.end() for stop in _CLAUSE_BREAK.finditer(sentence, 0, references[0][1])), default=0)
        words = sentence_words(sentence[clause:])
        letters = frozenset().union(*(written for written, _, _ in references))
        holding = [panel for panel in panels[key] if panel.letters & letters]
        named = [panel for panel in panels[key] if panel.named_by(words)]
        if len(holding) != 1 or not letters <= holding[0].letters or holding[0].words & words or len(named) != 1:
            continue  # one cited subject, none of whose words the sentence holds, and one other named
        subject = " ".join(sorted(named[0].words & words, key=sentence.lower().find))  # in the order the sentence says them
        violation = PanelOfAnotherSubject(key, ", ".join(sorted(letters)), subject, ", ".join(sorted(named[0].letters)))
        _, start, end = references[0]
        evidence = Evidence(
            kind="moderate: the sentence names another panel's subject",
            reason=f"the caption describes panels {violation.meant} with {subject}",
        )
        yield ctx.flag_block(violation, placed, offset + start, offset + end, evidence=evidence, confidence=0.6)
