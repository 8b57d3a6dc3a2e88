"""DIS001: an empirical paper that discusses no limitation."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import Section
from ....latex.model import SectionKind
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import EMPIRICAL_SECTIONS, any_text, finder, flag_heading

_LIMITATIONS = DeferredPattern(
    r"\b(?:limitations?|shortcomings?|drawbacks?|caveats?|weakness(?:es)?|fails? to|does not (?:handle|scale|apply))\b", re.I
)
_limitations_in = finder(_LIMITATIONS, ("limitation", "shortcoming", "drawback", "caveat", "weakness", "fail", "does not"))


@violation_type
class MissingLimitations(Violation):
    @property
    def message(self) -> str:
        return "the paper does not discuss its limitations (no limitations section or paragraph)"

    @property
    def identity(self) -> str:
        return "DIS001"  # once per paper


class _Limitations(NamedTuple):
    empirical: bool
    discussed: bool  # a limitations section, heading or sentence
    closing: bool  # a conclusion or discussion
    anchor: Finding | None  # at the heading of a closing or empirical section


def _no_limitations(ctx: RuleContext, parts: list[tuple[Section, list[_Limitations]]]) -> Iterator[Finding]:
    evidence = [part for _, (part,) in parts]
    if not any(part.empirical for part in evidence) or any(part.discussed for part in evidence):
        return
    anchors = [part.anchor for part in evidence if part.closing] or [part.anchor for part in evidence if part.empirical]
    anchor = anchors[-1]
    assert anchor is not None  # closing and empirical sections carry one
    yield anchor


@rule(
    "DIS001",
    "missing-limitations",
    Category.ETHICAL_OMISSION,
    Severity.INFORMATION,
    reads=("blocks", "structure"),
    scope=Scope.SECTION,
    combine=_no_limitations,
    placed_parts=True,  # flags and the heading's finding
)
def missing_limitations(ctx: RuleContext, section: Section) -> list[_Limitations]:
    """## What it does
    Notes an empirical paper (one with an experiments or results section) that has no
    limitations section and no sentence discussing a limitation, shortcoming or failure case.

    ## Why is this bad?
    Most venues (NeurIPS, ICML, ACL, …) ask for a limitations discussion, and reviewers read
    its absence as overclaiming.

    ## Example
    A paper whose conclusion only restates its gains.

    ## Use instead
    ```latex
    \\paragraph{Limitations} Our method assumes … and does not scale to …
    ```

    ## Options
    Switch it off for venues that do not ask for limitations:
    `[rules] ignore = ["DIS001"]` in `.auditex.toml`.
    """
    empirical = section.kind in EMPIRICAL_SECTIONS
    closing = section.kind in (SectionKind.CONCLUSION, SectionKind.DISCUSSION)
    discussed = (
        section.kind is SectionKind.LIMITATIONS
        or bool(_LIMITATIONS.search(section.title))
        or any_text(section, _limitations_in, skip=(SectionKind.RELATED_WORK,))
    )
    anchor = flag_heading(ctx, section, MissingLimitations()) if empirical or closing else None
    return [_Limitations(empirical, discussed, closing, anchor)]
