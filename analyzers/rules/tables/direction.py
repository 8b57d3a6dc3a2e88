"""Which side of a table's column is better: read from the table's own marks, never guessed.

An arrow in the column's header (↑/↓) says it; else the metric its header names (accuracy is
higher-better, error lower-better); else the caption or a note of the table saying it in words
("lower is better"); else the metric the caption names. A table that says nothing leaves the
direction unknown, and the rules that need it leave the column alone; a rule may then take it from
the prose presenting the table (`prose_direction`), as a reading of its own.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ...memo import TEXT_CACHE_SIZE

_HIGHER = DeferredPattern(
    r"↑|\\uparrow|\b(acc|accuracy|f1|auc|auroc|precision|recall|bleu|rouge\S*|map|miou|iou|psnr|ssim|success|sr|win|"
    r"top-?[15]|ndcg|hit|reward|return|score|correct(?:ness)?)\b",
    re.IGNORECASE,
)
_LOWER = DeferredPattern(
    r"↓|\\downarrow|\b(error|errors|err|loss|perplexity|ppl|fid|kid|mse|rmse|mae|ece|aurc|lpips|chamfer|cd|latency|"
    r"wer|cer|distance|regret|failures?|failure\s+rate|violations?|collisions?|crash(?:es)?|(?:epochs|steps)\s+to)\b",
    re.IGNORECASE,
)
# A caption or note that says which side is better in words: "(lower is better)", "the higher, the better".
_STATED_BETTER = DeferredPattern(
    r"\b(?:(?P<higher>higher|larger|greater|bigger)|(?P<lower>lower|smaller))(?:\s+(?:values?|scores?|numbers?))?"
    r"\s+(?:is|are|means?|indicates?)\s+better\b"
    r"|\bthe\s+(?:(?P<higher_the>higher|larger|greater|bigger)|(?P<lower_the>lower|smaller)),?\s+the\s+better\b",
    re.IGNORECASE,
)
# Evidence weights for a finding's confidence: where a column's direction was read; "either side" where it was not, a
# claim of the best being denied by rows on both sides of the claimed one whichever side is better (`beaten`).
EITHER_SIDE = "either side"
DIRECTION_WEIGHT = {"arrow": 1.0, "header": 0.95, "note": 0.9, "caption": 0.85, "claim": 0.7, EITHER_SIDE: 0.6}


def direction(header: str, caption: str | None) -> int:
    """+1 when higher is better, -1 when lower is better, 0 when the table does not say."""
    return read_direction(header, caption)[0]


def stated_direction(notes: str) -> int:
    """+1 when a table's caption or notes say in words that higher is better, -1 lower, 0 when they say neither
    or both ("MAE (lower is better) and accuracy (higher is better)": each column's own header must say)."""
    said = {("higher" if found.group("higher") or found.group("higher_the") else "lower") for found in _STATED_BETTER.finditer(notes)}
    return 0 if len(said) != 1 else (1 if "higher" in said else -1)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def read_direction(header: str, caption: str | None, stated: int = 0) -> tuple[int, str]:
    """The direction and where it was read: "arrow" (↑/↓ in the header), "header" (the metric's
    name in the header), "note" (the caption or notes say which side is better: `stated`) or "caption"
    (the metric's name in the caption); (0, "") when the table does not say. Kept by text: each rule
    reading a table's columns asks it again of each, with the same caption."""
    arrows = (bool(re.search(r"↑|\\uparrow", header)), bool(re.search(r"↓|\\downarrow", header)))
    if arrows[0] != arrows[1]:
        return (1 if arrows[0] else -1), "arrow"
    named = _named_direction(header)
    if named is not None:
        return (named, "header") if named else (0, "")
    if stated:
        return stated, "note"
    named = _named_direction(caption or "")
    return (named, "caption") if named else (0, "")


def prose_direction(prose: str) -> int:
    """+1 or -1 when prose about a table names metrics of one direction only ("Each row shows the mean accuracy"), else 0:
    what a table that names no metric of its own measures, as the paragraph presenting it says."""
    return _named_direction(prose) or 0


def _named_direction(text: str) -> int | None:
    """+1 or -1 when the text names a metric of one direction only, 0 when it names both, None when neither."""
    higher, lower = bool(_HIGHER.search(text)), bool(_LOWER.search(text))
    if higher != lower:
        return 1 if higher else -1
    return 0 if higher else None
