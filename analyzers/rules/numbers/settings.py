"""The NUM family's reading of settings: which prose numbers state what an experiment is set to, and what they set."""

from __future__ import annotations

import re

from ....latex.deferred_pattern import DeferredPattern
from ....latex.numbers import NumberMention, Role
from ...prefilter import may_match
from .model import stem
from .restated import content_stems

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


# The hyperparameters a paper states in its prose and again in a settings table, each under one name; a setting a
# count is written before ("20 epochs", "5 random seeds") is in `_COUNTED`.
_HYPERPARAMETERS = {
    "learning_rate": r"learning[- ]rates?|LR",
    "batch_size": r"(?:mini-?)?batch[- ]?sizes?",
    "epochs": r"epochs?",
    "dropout": r"dropout(?:\s+(?:rates?|probabilit(?:y|ies)))?",
    "weight_decay": r"weight[- ]decay",
    "warmup_steps": r"warm-?up\s+(?:steps|iterations|updates)",
    "momentum": r"momentum",
    "seeds": r"(?:random\s+)?seeds",
    "layers": r"layers",
    "attention_heads": r"(?:attention\s+)?heads",
    "hidden_size": r"hidden\s+(?:size|dim(?:ension)?s?|units)",
    "embedding_size": r"embedding\s+(?:size|dim(?:ension)?s?)",
    "sequence_length": r"context\s+(?:length|size|window)|(?:max(?:imum)?\s+)?sequence\s+length",
    "temperature": r"temperature",
    "gradient_clipping": r"gradient\s+clipping|(?:max(?:imum)?\s+)?grad(?:ient)?\.?\s+norm",
    "label_smoothing": r"label\s+smoothing",
    "beam_size": r"beam\s+(?:size|width)",
    "training_steps": r"(?:training|optimi[sz]ation|gradient)\s+(?:steps|iterations|updates)|iterations",
}
_COUNTED = frozenset({"epochs", "warmup_steps", "seeds", "layers", "attention_heads", "training_steps"})
# A word every name of `_HYPERPARAMETERS` holds, looked for before the pattern.
_HYPERPARAMETER_WORDS = (
    *("learning", "lr", "batch", "epoch", "dropout", "decay", "warm", "momentum", "seeds", "layers", "heads", "hidden"),
    *("embedding", "context", "sequence", "temperature", "grad", "smoothing", "beam", "steps", "iterations", "updates"),
)
_HYPERPARAMETER = DeferredPattern(
    r"(?<![\w-])(?:" + "|".join(f"(?P<{name}>{pattern})" for name, pattern in _HYPERPARAMETERS.items()) + r")(?![\w-])", re.IGNORECASE
)
# What joins a hyperparameter's name to its value: "a learning rate of", "the batch size is set to", "dropout =", "LR:".
_NAME_THEN_VALUE = DeferredPattern(
    r"(?:\s*\([^()]{1,12}\))?\s*(?:(?:of|is|was|are|were|to|set|fixed|at|equal|as|be|=|:)\s*)*\$?\s*", re.IGNORECASE
)
# A count named before its value: "the number of training epochs is 20", "the total number of seeds: 5".
_NUMBER_OF = DeferredPattern(r"\bnumber\s+of\s+(?:training\s+|random\s+)?$", re.IGNORECASE)
# What a count is written before: "20 epochs", "5 random seeds", "48 Transformer layers", "1M training steps".
# Not an ordinal ("the 40th epoch") nor two numbers joined ("epoch 0 and epoch 4").
_VALUE_THEN_NAME = DeferredPattern(
    r"\s*(?:(?!(?:and|or|of|to|by|in|at|for|from|the|than|vs|st|nd|rd|th)\b)[A-Za-z][\w-]*\s+)?", re.IGNORECASE
)
# A count of a schedule's point or part, not of the whole run: "after 5 epochs", "every 10 epochs", "the first 3 epochs".
# And a part of a whole: "24 of 34 layers are layer norms".
_POINT_OF_RUN = DeferredPattern(r"\b(?:after|at|every|within|first|last|per|each|until|before|\d+\s+of)\s*$", re.IGNORECASE)
# Qualifiers that leave a setting what it is: "Base learning rate", "Number of training epochs", "Max Length".
_SAME_SETTING = frozenset(
    stem(word) for word in ("number", "num", "base", "initial", "init", "peak", "total", "training", "max", "maximum", "value")
)
_STATED_ROLES = frozenset({Role.VALUE, Role.SETTING, Role.COUNT})


def names_hyperparameter(text: str) -> bool:
    """A quick look before a paragraph's numbers or a table's rows are read: most name no hyperparameter."""
    return may_match(text, _HYPERPARAMETER_WORDS) and _HYPERPARAMETER.search(text) is not None


def hyperparameter(key: str) -> tuple[str, frozenset[str]] | None:
    """The hyperparameter a settings table's row key names in full ("Base learning rate": learning_rate), and the
    stems of the words it qualifies it by ("Discriminator learning rate": discriminator); None for a key naming none
    or two ("Learning rate / batch size")."""
    found = list(_HYPERPARAMETER.finditer(key))
    if len(found) != 1:
        return None
    match = found[0]
    rest = key[: match.start()] + " " + key[match.end() :]
    return str(match.lastgroup), frozenset(content_stems(rest)) - _SAME_SETTING


def counted(name: str) -> bool:
    """A hyperparameter whose value counts something ("epochs", "seeds"), written before its name."""
    return name in _COUNTED


def stated_hyperparameter(mention: NumberMention) -> str | None:
    """The hyperparameter a prose number states, named next to it: after its name ("a learning rate of 3e-4",
    "the batch size is set to 64", "dropout = 0.1") or, for a count, before it ("20 epochs", "5 random seeds")
    or after "number of" ("the number of epochs is 20").
    None for a number of a list, a range or a bound, or named otherwise ("epoch 4" is an epoch, not a count)."""
    if mention.role not in _STATED_ROLES:
        return None
    at, end = mention.plain_start - mention.sentence_start, mention.plain_end - mention.sentence_start
    sentence = mention.sentence
    for match in _HYPERPARAMETER.finditer(sentence, max(0, at - 60), at):
        counts = match.lastgroup in _COUNTED and not _NUMBER_OF.search(sentence, max(0, match.start() - 20), match.start())
        if not counts and _NAME_THEN_VALUE.fullmatch(sentence, match.end(), at):
            return match.lastgroup
    after = _HYPERPARAMETER.search(sentence, end, end + 40)
    if (
        after is not None
        and after.lastgroup in _COUNTED
        and _VALUE_THEN_NAME.fullmatch(sentence, end, after.start())
        and not _POINT_OF_RUN.search(sentence, max(0, at - 12), at)
    ):
        return after.lastgroup
    return None
