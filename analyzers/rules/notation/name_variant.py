"""NOT007: a name written once that differs by one part from a name the paper writes throughout.

## How it decides
A name is a word of two or three capitalised parts, joined ("LambdaMart", "RankBoost") or
hyphenated ("Long-Nested"), read in every block of the paper: prose, captions and tables. One
followed by another capitalised word is part of a longer name ("Long-Short Term Memory") and is
not read. A name is a variant of another when both have as many parts and differ in exactly one
place. It is flagged when:

- it is written once, in the body prose or a caption outside the related work, and no citation
  follows it in its sentence (a cited method is another work's, named on purpose);
- the other name is written three times or more;
- every part of it stands in another name of the paper: it recombines the paper's own names
  ("LambdaRank" from LambdaMart and AdaRank, "Short-Long" from Short-Nested and Long-Nested),
  which a slip of the pen does and a new name seldom does.

Of several names it varies, the one written most is named.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock
from ....latex.model import BlockKind, SectionKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...memo import SECTION_CACHE_SIZE, TEXT_CACHE_SIZE, SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .model import is_body_section

# Two or three capitalised parts, joined or hyphenated, not inside a key or a path, nor before another capitalised word.
_NAME = DeferredPattern(r"(?<![\w\\{:/.@-])(?:(?:[A-Z][a-z]+){2,3}|[A-Z][a-z]+(?:-[A-Z][a-z]+){1,2})(?![\w}:/@-]|[ \t~]+[A-Z][a-z])")
_PART = DeferredPattern(r"[A-Z][a-z]+")
_CITED = DeferredPattern(r"[^.;]{0,80}?\\cite")
_WRITTEN = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.THEOREM, BlockKind.CAPTION)
_THROUGHOUT = 3  # times the paper writes the name a variant differs from


class _Use(NamedTuple):
    parts: tuple[str, ...]
    placed: PlacedBlock
    start: int
    end: int
    lone: bool  # in the body's prose or a caption, outside the related work, with no citation after it


@violation_type
class NameVariant(Violation):
    written: str
    usual: str
    uses: int

    @property
    def message(self) -> str:
        return f"{self.written} is written once and never cited; the paper writes {self.usual} {self.uses} times"

    @property
    def identity(self) -> str:
        return f"{self.written}:{self.usual}"


@rule("NOT007", "name-variant", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks",))
def name_variant(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a method, dataset or condition name written once that differs by one part from a name
    the paper writes throughout ("LambdaRank" once, where the paper evaluates RankBoost, AdaRank
    and LambdaMart), when its parts all come from the paper's own names and no citation
    introduces it.

    ## Why is this bad?
    The reader looks for a method or condition that the paper never defines or evaluates, or
    takes the sentence to speak of another one than the author meant.

    ## Example
    ```latex
    For the best-performing RankBoost and LambdaRank methods the drop is minor.
    % the paper evaluates RankBoost, AdaRank and LambdaMart
    ```

    ## Use instead
    ```latex
    For the best-performing RankBoost and LambdaMart methods the drop is minor.
    ```

    ## Fix safety
    No fix: the variant may name another method on purpose.

    ## Evidence
    "moderate: a name written once, one part from a name written throughout".
    """
    uses = [use for section in ctx.manuscript.sections for use in _section_names(SectionKey(section))]
    written = Counter(use.parts for use in uses)
    names_with = Counter(part for parts in written for part in set(parts))  # names the paper writes that hold each part
    for use in uses:
        if not use.lone or written[use.parts] != 1 or not all(names_with[part] > 1 for part in use.parts):
            continue
        usual = max((other for other in written if _one_apart(use.parts, other)), key=lambda other: written[other], default=None)
        if usual is None or written[usual] < _THROUGHOUT:
            continue
        name, usual_name = use.placed.block.plain.text[use.start : use.end], _joined(usual, uses)
        evidence = Evidence(
            kind="moderate: a name written once, one part from a name written throughout",
            reason=f"{name} recombines parts of the paper's names and differs from {usual_name} in one",
        )
        yield ctx.flag_block(NameVariant(name, usual_name, written[usual]), use.placed, use.start, use.end, evidence=evidence)


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _section_names(key: SectionKey) -> tuple[_Use, ...]:
    """The names a section's blocks write, in reading order: gathered once per Section the manuscript hands on."""
    section = key.section
    body = is_body_section(section.kind, section.title) and section.kind is not SectionKind.RELATED_WORK
    return tuple(
        _Use(parts, placed, start, end, body and placed.kind in _WRITTEN and not cited)
        for placed in section.blocks
        for parts, start, end, cited in _names_in(placed.block.plain.text)
    )


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _names_in(text: str) -> tuple[tuple[tuple[str, ...], int, int, bool], ...]:
    """A block's names: (parts, start, end, whether a citation follows). Searched once per block text, so a section
    an edit moved, not changed, is gathered again without re-reading its blocks."""
    return tuple(
        (tuple(_PART.findall(match.group())), match.start(), match.end(), _CITED.match(text, match.end()) is not None)
        for match in _NAME.finditer(text)
    )


def _one_apart(parts: tuple[str, ...], other: tuple[str, ...]) -> bool:
    return len(parts) == len(other) and sum(mine != theirs for mine, theirs in zip(parts, other, strict=True)) == 1


def _joined(parts: tuple[str, ...], uses: list[_Use]) -> str:
    """A name as the paper writes it, joined or hyphenated."""
    use = next(use for use in uses if use.parts == parts)
    return use.placed.block.plain.text[use.start : use.end]
