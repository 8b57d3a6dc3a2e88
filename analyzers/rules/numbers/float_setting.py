"""NUM023: one setting of one table's or figure's experiment stated twice with two values ("Sinkhorn runtime to
reach a marginal error of $10^{-2}$" in the table's caption, "\\cref{tab:runtime} reports the runtime to reach
... a tolerance of $10^{23}$" in the appendix).

## How it decides
A setting is a number a sentence says an experiment is run with, named in words (`setting_subject`): a
threshold, tolerance or cut-off ("an error threshold of $10^{-2}$"), a hyperparameter ("a learning rate of
1e-4", "batch size = 16": its subject is the hyperparameter's name), or what a run goes until ("to reach a
marginal error of $10^{-2}$"). A symbol set alone ("σ = 0.5", "μ = 10 meV") is not read: one figure shows
several panels' settings that way, and the corpus's pairs of them tied to one float differ by design. A
setting belongs to the experiment of each float its sentence cites; a sentence citing none, to the one float
its paragraph cites; in a caption, to the float the caption describes. Two statements of one float's
setting, in two blocks, whose subjects are the same (both name one, and one names all the other does:
"marginal error" and "marginal error below a tolerance"), with values that differ beyond rounding (0.01 and
0.010 agree), are reported on the later one. A subject the paper states for one float with three or more
values is a sweep, not a slip, and is left alone. Information (0.6); the evidence class is "one float's
setting, two values".
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...memo import TEXT_CACHE_SIZE
from ...quantities import referenced_labels
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import PROSE_KINDS, mentions, stem
from .restated import Earlier, Found, Pair, Stated, block_stated, reported, restatements
from .settings import setting_subject

_SWEEP = 3  # values of one subject for one float: a sweep of the setting


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _block_settings(text: str, describes: tuple[str, ...]) -> tuple[Found, ...]:
    """The settings a block's text states, one per float each is tied to, keyed by the float's label; kept by text."""
    found: list[Found] = []
    cited = referenced_labels(text)
    paragraph_float = cited if len(cited) == 1 else frozenset()
    for mention in mentions(text):
        subject = frozenset(stem(word) for word in setting_subject(mention))
        if not subject:
            continue
        line = " ".join(mention.sentence.split())
        for label in sorted((referenced_labels(mention.sentence) or paragraph_float) | set(describes)):
            values = (mention.value, float(mention.decimals))
            found.append((mention.plain_start, mention.plain_end, label, values, mention.text, subject, line, frozenset()))
    return tuple(found)


def _same_setting(statement: Stated, other: Stated) -> bool:
    """Two blocks state one subject of one float's setting with values that differ at the precision both give."""
    if statement.block == other.block or not (statement.words and other.words):
        return False
    if not (statement.words <= other.words or other.words <= statement.words):
        return False
    (value, decimals), (other_value, other_decimals) = statement.values, other.values
    places = int(min(decimals, other_decimals))
    return round(value, places) != round(other_value, places)


class _Settings(Earlier):
    """Every section's float settings, and how many values each float's subject is given: three or more make a sweep."""

    def contradicted(self, statement: Stated, place: int, before: list[Stated], same: Callable[[Stated, Stated], bool]) -> Pair | None:
        values = {
            other.values[0]
            for _, other in self.by_key.get(statement.key, ())
            if other.words <= statement.words or statement.words <= other.words
        }
        return None if len(values) >= _SWEEP else super().contradicted(statement, place, before, same)


@violation_type
class FloatSettingRestated(Violation):
    """`slip` here and `told` in the section `where` for one setting of the float `label`."""

    slip: str
    told: str
    where: str
    label: str

    @property
    def message(self) -> str:
        return f"{self.slip} for a setting of `{self.label}` here, but {self.told} in {self.where}"

    @property
    def identity(self) -> str:
        return f"float setting {self.label} {self.slip} {self.told}"


def _reported(pair: Pair) -> Finding:
    violation = FloatSettingRestated(pair.slip.written, pair.told.written, pair.told.where, pair.slip.key)
    reason = f"both name one setting of the experiment of {pair.slip.key} in the same words, with two values"
    return reported(pair, violation, "one float's setting, two values", reason, "setting", 0.6)


@rule(
    "NUM023",
    "float-setting-restated",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("blocks",),
    scope=Scope.SECTION,
    combine=restatements(_same_setting, _reported, _Settings),
)
def float_setting_restated(ctx: RuleContext, section: Section) -> list[list[Stated]]:
    """## What it does
    Flags one setting of one table's or figure's experiment stated twice with two values: the
    caption says the table reports "Sinkhorn runtime to reach a marginal error of $10^{-2}$", and
    the appendix says the same table "reports the runtime of Sinkhorn to reach ... the marginal
    error being below a tolerance of $10^{23}$". A setting is a threshold, tolerance, cut-off,
    hyperparameter ("learning rate", "batch size") or target a run goes until, named in words; it
    belongs to each float its sentence cites, or to the float its caption describes. A subject
    stated for one float with three or more values is a sweep and is left alone.

    ## Why is this bad?
    The float's numbers were produced with one setting; with two, the reader cannot tell which,
    nor reproduce them, and one of the two sentences is stale or mistyped.

    ## Example
    ```latex
    \\caption{Sinkhorn runtime to reach a marginal error of $10^{-2}$.}\\label{tab:runtime}
    ...
    \\cref{tab:runtime} reports the runtime to reach the marginal error being below a tolerance of $10^{23}$.
    ```

    ## Use instead
    One value of the setting in both places (or say which part of the float each describes).

    ## Fix safety
    No fix: which value the experiment used is the author's to say.
    """
    return [
        [
            statement
            for placed in section.blocks
            if placed.kind in PROSE_KINDS
            for statement in block_stated(ctx, section, placed, _block_settings(placed.block.plain.text, tuple(placed.block.describes)))
        ]
    ]
