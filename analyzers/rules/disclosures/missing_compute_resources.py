"""DIS002: experiments that train or simulate but never state the compute they used."""

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

_TRAINING = DeferredPattern(r"\b(?:train(?:ed|ing)?|fine-?tun\w*|optimi[sz]ed|epochs?|simulations?|benchmark(?:ed|s)?)\b", re.I)
_COMPUTE = DeferredPattern(
    r"\b(?:[GT]PUs?|CPUs?|cores?|A100|V100|H100|A6000|P100|T4|RTX|Titan|NVIDIA|Xeon|cluster|hardware|compute|computational (?:cost|budget|resources?)|"
    r"wall[- ]?clock|run[- ]?times?|(?:GPU|CPU|core|node)[- ]hours?|hours?|minutes|seconds|days|machine with|laptop|workstation|FLOPs?)\b",
    re.I,
)
_training_in, _compute_in = finder(_TRAINING), finder(_COMPUTE)


@violation_type
class MissingComputeResources(Violation):
    @property
    def message(self) -> str:
        return "the experiments do not state the compute used (hardware, run time)"

    @property
    def identity(self) -> str:
        return "DIS002"  # once per paper


class _Compute(NamedTuple):
    anchor: Finding | None  # at the heading of an empirical section


def _no_compute(ctx: RuleContext, parts: list[tuple[Section, list[_Compute]]]) -> Iterator[Finding]:
    # The text is searched only for a paper with an empirical section, and for compute only when it trains.
    anchors = [part.anchor for _, (part,) in parts if part.anchor is not None]
    if (
        anchors
        and any(any_text(section, _training_in, only=EMPIRICAL_SECTIONS + (SectionKind.METHOD,)) for section, _ in parts)
        and not any(any_text(section, _compute_in) for section, _ in parts)
    ):
        yield anchors[0]


@rule(
    "DIS002",
    "missing-compute-resources",
    Category.ETHICAL_OMISSION,
    Severity.INFORMATION,
    reads=("blocks", "structure"),
    scope=Scope.SECTION,
    combine=_no_compute,
    placed_parts=True,  # flags and the heading's finding
)
def missing_compute_resources(ctx: RuleContext, section: Section) -> list[_Compute]:
    """## What it does
    Notes an empirical paper that trains, fine-tunes or simulates but never states the
    compute it used (hardware such as GPUs or CPUs, or run time in hours).

    ## Why is this bad?
    Without the compute budget, readers cannot judge the cost of reproducing the results or
    compare efficiency fairly; reproducibility checklists ask for it.

    ## Example
    "We train for 100 epochs with Adam." and no word on hardware or time anywhere.

    ## Use instead
    ```latex
    All models were trained on 4 NVIDIA A100 GPUs for about 12 hours.
    ```

    ## Options
    Switch it off for venues that do not ask for compute resources:
    `[rules] ignore = ["DIS002"]` in `.auditex.toml`.
    """
    anchor = flag_heading(ctx, section, MissingComputeResources()) if section.kind in EMPIRICAL_SECTIONS else None
    return [_Compute(anchor)]
