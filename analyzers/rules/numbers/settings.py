"""The NUM family's reading of settings: which prose numbers state what an experiment is set to, and what they set."""

from __future__ import annotations

import re

from ....latex.deferred_pattern import DeferredPattern
from ....latex.numbers import NumberMention, Role

# What a number is set to that an experiment is run with, named in words: a threshold or tolerance a run stops at,
# or a hyperparameter ("learning rate", "batch size"). A symbol alone ("σ = 0.5", "μ = 10 meV") is as often one
# panel's setting among several of one figure, so only a setting named in words is read.
_TARGET_WORDS = frozenset({"threshold", "thresholds", "tolerance", "tolerances", "cutoff", "cut-off", "cutoffs", "criterion"})
_SETTING_PHRASES = DeferredPattern(
    r"\b(?:learning rate|batch size|step size|weight decay|dropout(?: rate)?|temperature|momentum|warm-?up steps)\b", re.IGNORECASE
)
# "to reach a marginal error of", "until the residual falls below": what the run is stopped at, within the clause.
_RUN_TO = DeferredPattern(r"\b(?:to\s+reach|until|converges?\s+to)\b[^,;:()]*$", re.IGNORECASE)
_SETTING_ROLES = frozenset({Role.SETTING, Role.VALUE, Role.BOUND})


def setting_subject(mention: NumberMention) -> tuple[str, ...]:
    """What a number sets, when it states what a run is set to in words: a hyperparameter's name ("the learning rate
    is 10^-4": learning, rate), or the subject of a threshold or tolerance ("an error threshold of 10^-2"), or of
    what the run goes until ("runtime to reach a marginal error of 10^-2"). Empty for any other number, one of a
    list or a range (a sweep) or a statistic among them."""
    if mention.role not in _SETTING_ROLES or not mention.subject:
        return ()
    named = _SETTING_PHRASES.search(" ".join(mention.subject))
    if named:
        return tuple(named.group(0).lower().split())
    at = mention.plain_start - mention.sentence_start
    if _TARGET_WORDS.intersection(mention.subject) or _RUN_TO.search(mention.sentence, max(0, at - 60), at):
        return mention.subject
    return ()
