from __future__ import annotations

import re
from collections.abc import Iterator

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity
from ...memo import SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .model import CLAIMING, SignificanceClaim, read_worded_claims, section_claims

# Within this many characters, the word and the p-value read as one statement ("significantly (p = .23)").
_ADJACENT = 40
# A level the text names anywhere ("* p < 0.1", "the 10% level"): "significant" may mean significant at it.
_LESS = ("<", "≤", "⩽", "<=")
_MORE = (">", "≥", "⩾", ">=")
_ANY_LEVEL = DeferredPattern(r"(?:p\s*[<≤]\s*|α\s*=\s*|alpha\s*=\s*)(0?\.\d+)|(\d{1,2})\s?%\s+(?:significance\s+)?level", re.I)


@violation_type
class SignificanceWordingContradicted(Violation):
    word: str
    p_text: str
    level: float
    says_significant: bool
    bound: bool = False  # "p < .13": a bound above the level, which shows no significance

    @property
    def message(self) -> str:
        level = f"{self.level:g}".lstrip("0")
        side = "no evidence of significance" if self.bound else "not significant" if self.says_significant else "significant"
        return f'the text says "{self.word}" but reports {self.p_text}, which is {side} at {level}'


@rule("STAT007", "significance-wording-contradicts-p", Category.CLAIM_DISTORTION, Severity.WARNING, reads=("blocks",))
def significance_wording_contradicts_p(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a significance word contradicted by the p-value it governs: "no significant
    correlation (r = −0.010, p = 0.046)", "significantly higher (p = .23)", "significantly
    higher (p < .13)" (a bound above the level shows nothing), and the words that stand for it:
    "no reliable difference (p = .03)", "did not differ (p = .01)", "credibly larger (p = .4)";
    "differ" and "difference" only when negated. The word governs the
    first p-value after it in its clause (not past a semicolon, "while", "whereas", "but" or
    another significance word, and within 120 characters). The significance level is the one
    the sentence states ("at the .10 level", "α = 0.01"), else `[statistics] alpha`; "significant"
    is not contradicted by a p below any level the paper names (a table legend's `* p < 0.1`).
    Hedged words ("marginally significant", "a trend towards significance"), a p-value given
    as a threshold ("significant at p < .05") and, for "not significant", a paragraph that
    corrects for multiple comparisons (Bonferroni, FDR, adjusted p) are left alone.

    ## Why is this bad?
    The sentence draws the opposite conclusion from the number it cites: either the word or
    the p-value is wrong, and the reader cannot tell which.

    ## Example
    ```latex
    There was no significant correlation between age and score ($r = -0.010$, $p = 0.046$).
    ```

    ## Use instead
    ```latex
    There was no significant correlation between age and score ($r = -0.010$, $p = 0.46$).
    ```

    ## Fix safety
    No fix: the word or the p-value may be the wrong one.

    ## Evidence
    "strong: word and p adjacent" when the p-value follows the word within 40 characters;
    "moderate: word and p in one clause" otherwise; "moderate: synonym and p in one clause" for
    the words that stand for significance; "moderate: bound above the level" for "p < .13".
    """
    alpha = ctx.config.statistics.alpha
    claimed = [claim for section in ctx.manuscript.sections for claim in section_claims(SectionKey(section), read_worded_claims)]
    if not claimed:
        return
    # The levels the paper names anywhere, tables' legends included.
    texts = (placed.block.plain.text for placed in ctx.manuscript.blocks if placed.kind in (*CLAIMING, BlockKind.TABLE))
    named = [float(level) if level else float(percent) / 100 for text in texts for level, percent in _ANY_LEVEL.findall(text)]
    for placed, claim in claimed:
        level = claim.level if claim.level is not None else alpha
        if _contradicts(claim, level, [value for value in named if value < 0.5]):
            bound = claim.says_significant and claim.comparison in _LESS
            violation = SignificanceWordingContradicted(claim.word, claim.p_text, level, claim.says_significant, bound)
            yield ctx.flag_block(violation, placed, claim.word_start, claim.p_end, evidence=_evidence(claim))


def _evidence(claim: SignificanceClaim) -> Evidence:
    """How sure the reading is: a synonym, or a bound that decides nothing, is less sure than the word and its p side by side."""
    if claim.synonym:
        kind = "moderate: synonym and p in one clause"
    elif claim.says_significant and claim.comparison in _LESS:
        kind = "moderate: bound above the level"
    elif claim.p_start - claim.word_start <= _ADJACENT + len(claim.word):
        kind = "strong: word and p adjacent"
    else:
        kind = "moderate: word and p in one clause"
    return Evidence(kind=kind, reason="a significance word states which side of the level its p-value is on")


def _contradicts(claim: SignificanceClaim, level: float, named: list[float]) -> bool:
    """Whether the p-value is on the other side of the level than the word says, whatever its rounding."""
    if claim.says_significant:
        # Significant at some level the paper names, unless the sentence names its own: a p of .07 is significant at .10.
        highest = level if claim.level is not None else max([level, *named])
        # "p < .13" bounds the p-value above every level it could be significant at: it supports nothing.
        return claim.p > highest or (claim.comparison in _MORE and claim.p >= highest)
    if claim.corrected or claim.comparison in _MORE:
        return False
    return claim.p < level or (claim.comparison in _LESS and claim.p <= level)
