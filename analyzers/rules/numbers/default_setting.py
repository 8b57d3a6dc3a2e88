"""NUM009: one setting declared the default twice with two values ("trained with γ = 0.95 unless stated otherwise",
"we used the discount factor γ = 0.99 unless specified otherwise").

## How it decides
A default is a setting a sentence declares to hold wherever the paper says nothing else: "unless stated
(specified, noted, mentioned, indicated) otherwise", "unless noted differently", "by default", "the default
value", "as the default". Each symbol that sentence sets to a number ("γ = 0.95", "N = 50", "\\lambda=9") is a default, keyed by
the symbol. Two defaults of one symbol, in two paragraphs, with two values, are reported on the later one:
a paper has one default for a setting, so one of the two sentences is stale (a setting changed after one
section was written). Settings of two methods are two settings: when both sentences name things next to the
symbol (capitalised names: "By default, SBRL sets λ = 9", "By default, CORELS uses λ = 0.01") and no name is
shared, they are left alone. A setting that one sentence sets to several values ("γ = 0.9, 0.95 and 0.99")
is a sweep, not a default. Information (0.6); the evidence class is "moderate: one setting, two defaults".
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...prefilter import may_match
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .restated import NUMBER, Pair, Stated, reported, restatements, section_statements, value_of

_DEFAULT = DeferredPattern(
    r"\bunless\s+(?:otherwise\s+)?(?:stated|specified|noted|mentioned|indicated)(?:\s+otherwise)?\b|\bunless\s+noted\s+differently\b"
    r"|\bby\s+default\b|\bdefaults?\s+(?:values?|settings?|configuration)\b|\b(?:as|is)\s+(?:the\s+|our\s+)?default\b",
    re.IGNORECASE,
)
# A symbol set to one number: "γ=0.95", "\lambda = 9", "m_eff = 0.02", "N=50"; not one of a list ("γ = 0.9, 0.95").
_SET = DeferredPattern(
    r"(?<![\w\\])(\\?[A-Za-zα-ωΑ-Ω][A-Za-z]*(?:_\{?\w+\}?)?)\s*=\s*(" + NUMBER + r")(?!\s*,\s*\d|\s*(?:and|or)\s+\d|\.?\d)"
)
_NOT_SYMBOLS = frozenset({"p", "\\p", "n", "df"})  # a p-value, a sample's size: results, not settings
_KEY = "the default "


def _may_declare(text: str) -> bool:
    """A quick look before a block's sentences are split: most declare no default."""
    return may_match(text, ("default", "unless"))


def defaults(sentence: str) -> Iterator[tuple[int, int, str, tuple[float, ...], str, frozenset[str]]]:
    """The settings a sentence declares the default, keyed by their symbol."""
    if not _DEFAULT.search(sentence):
        return
    for match in _SET.finditer(sentence):
        symbol = match.group(1).replace("{", "").replace("}", "")
        if symbol.lower() in _NOT_SYMBOLS:
            continue
        yield match.start(), match.end(), _KEY + symbol, (value_of(match.group(2)),), " ".join(match.group(0).split()), frozenset()


def _two_defaults(statement: Stated, other: Stated) -> bool:
    """Two paragraphs declare one setting's default, and their sentences do not name two things it belongs to."""
    if statement.block == other.block:
        return False
    return not (statement.names and other.names and not statement.names & other.names)


@violation_type
class DefaultRestated(Violation):
    slip: str
    told: str
    where: str

    @property
    def message(self) -> str:
        return f'the default "{self.slip}" here, but "{self.told}" in {self.where}'

    @property
    def identity(self) -> str:
        return f"default {self.slip} {self.told}"


def _reported(pair: Pair) -> Finding:
    violation = DefaultRestated(pair.slip.written, pair.told.written, pair.told.where)
    reason = f"both sentences declare {pair.slip.key.removeprefix(_KEY)} the default, with two values"
    return reported(pair, violation, "moderate: one setting, two defaults", reason, "setting", 0.6)


@rule(
    "NUM009",
    "default-restated",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=restatements(_two_defaults, _reported),
)
def default_restated(ctx: RuleContext, section: Section) -> list[list[Stated]]:
    """## What it does
    Flags a setting declared the default twice with two values: "Unless stated otherwise, we
    assume that the agent is trained with $\\gamma=0.95$" in one section and "We used the discount
    factor $\\gamma=0.99$ unless specified otherwise" in another. A default is a symbol set to one
    number in a sentence that says it holds "unless stated otherwise", "by default" or as "the
    default value"; two such sentences, in two paragraphs, that set one symbol to two values
    disagree. Defaults of two methods (sentences naming two different methods beside the symbol)
    and sweeps ("γ = 0.9, 0.95 and 0.99") are left alone.

    ## Why is this bad?
    Every result the paper reports without naming its setting was run with the default; with two
    defaults, the reader cannot tell which setting produced them, nor reproduce them.

    ## Example
    ```latex
    Unless stated otherwise, the model is trained with $\\gamma=0.95$.
    ...
    We used the discount factor $\\gamma=0.99$ unless specified otherwise.
    ```

    ## Use instead
    One default for the setting in both places (or say where each holds).

    ## Fix safety
    No fix: which value the experiments used is the author's to say.
    """
    return [section_statements(ctx, section, defaults, _may_declare)]
