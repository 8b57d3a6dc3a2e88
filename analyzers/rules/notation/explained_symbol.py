"""NOT010: a "where" clause that explains a symbol its display does not hold, one letter off one it does.

## How it decides
A display followed by a paragraph that opens with "where", "with" or "in which" is read as a
formula and its key: the key's first sentence explains the display's symbols. Symbols with a named
subscript are read from both: up to three letters, or a Greek letter, and a subscript of two
letters or more ("BS_null", "S_model", "σ_tot"); a single-letter subscript is an index, which the
key may well explain in general ("x_i is the i-th input"). A symbol of the key is flagged when the
display never writes it, the display writes a symbol with the same subscript whose name is the key's
name with one letter more or fewer ("BS_null" for "S_null"), and the key never explains that one:
the key names the display's symbol with a letter lost or added, so the reader is sent to a
quantity the paper never defines (the survival function S rather than the Brier score BS).

An indexed Greek letter is read too when the key names it as the subject of its clause ("where ω_j
are mixture weights", "is", "denotes"): it is flagged when the display never writes it, the key writes
it once, and the display writes exactly one Greek letter with that index which the key's sentence
never writes ("α_j" in "q = ∑_k α_j t(·; μ_j, Σ_j)"). The key explains the display's
symbol under another letter, so the reader cannot tell what the display's symbol is.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from ....latex.manuscript import PlacedBlock
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...memo import SECTION_CACHE_SIZE, SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .model import ExplainedTwin, explained_twins

_ONE_LETTER_OFF = "moderate: the key explains a symbol one letter off the display's"
_RENAMED_LETTER = "moderate: the key explains the display's indexed symbol under another letter"


@violation_type
class ExplainedSymbolNotInDisplay(Violation):
    explained: str  # the symbol the key explains
    displayed: str  # the display's symbol it is one letter off

    @property
    def message(self) -> str:
        return f"the text after the equation explains {self.explained}, which the equation does not hold; it holds {self.displayed}"

    @property
    def identity(self) -> str:
        return f"{self.explained}:{self.displayed}"


class _Mismatch(NamedTuple):
    key: PlacedBlock  # the paragraph that explains the display
    twin: ExplainedTwin


@rule("NOT010", "explained-symbol-not-in-display", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks",))
def explained_symbol_not_in_display(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a "where" clause after a displayed equation that explains a symbol the equation does not
    hold, one letter off a symbol the equation does hold and the clause leaves unexplained:
    "IPA(t) = 1 − BS_model(t)/BS_null(t), where … S_null(t) represents the BS of the null model";
    or an indexed symbol under another letter: "q = ∑_k α_j t(·; μ_j, Σ_j), where ω_j are mixture weights".

    ## Why is this bad?
    The reader looks for S_null in the formula and does not find it, while BS_null stays undefined;
    S usually names another quantity (here the survival function), so the typo changes the meaning.

    ## Example
    ```latex
    \\[ \\mathrm{IPA}(t) = 1 - \\frac{BS_{model}(t)}{BS_{null}(t)}, \\]
    where $S_{null}(t)$ is the Brier score of the null model.
    ```

    ## Use instead
    ```latex
    where $BS_{null}(t)$ is the Brier score of the null model.
    ```

    ## Fix safety
    No fix: the key or the formula may hold the typo.

    ## Evidence
    "moderate: the key explains a symbol one letter off the display's"; "moderate: the key explains
    the display's indexed symbol under another letter" for an indexed letter the key names as its
    clause's subject ("where ω_j are mixture weights" under "q = ∑_k α_j t(·; μ_j, Σ_j)").
    """
    for section in ctx.manuscript.sections:
        for key, twin in _section_mismatches(SectionKey(section)):
            violation = ExplainedSymbolNotInDisplay(twin.explained, twin.displayed)
            evidence = Evidence(
                kind=_RENAMED_LETTER if twin.renamed_letter else _ONE_LETTER_OFF,
                reason=f"the display writes {twin.displayed} and never {twin.explained}; the key never explains {twin.displayed}",
            )
            yield ctx.flag_block(violation, key, twin.start, twin.end, evidence=evidence)


@lru_cache(maxsize=SECTION_CACHE_SIZE)
def _section_mismatches(key: SectionKey) -> tuple[_Mismatch, ...]:
    """Read once per Section the manuscript hands on."""
    blocks = key.section.blocks
    return tuple(
        _Mismatch(explaining, twin)
        for display, explaining in pairwise(blocks)
        if display.kind is BlockKind.MATH and explaining.kind is BlockKind.PARAGRAPH
        for twin in explained_twins(display.block.plain.text, explaining.block.plain.text)
    )
