"""DIS: disclosures a venue expects (limitations, compute, ethics), reported as information.

Each rule reports at most once per paper. Venues differ in what they require, so
each is meant to be switched off per venue in `.auditex.toml`:

```toml
[rules]
ignore = ["DIS002"]   # this venue does not ask for compute resources
```
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import NamedTuple

from ...latex.manuscript import PlacedBlock, Section
from ...latex.model import BlockKind, SectionKind
from ..context import RuleContext
from ..finding import Category, Finding, Severity
from ..memo import TEXT_CACHE_SIZE
from ..registry import Scope, rule

_TEXT_KINDS = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.TABLE)
_EMPIRICAL_SECTIONS = (SectionKind.EXPERIMENTS, SectionKind.RESULTS)
_LIMITATIONS = re.compile(
    r"\b(?:limitations?|shortcomings?|drawbacks?|caveats?|weakness(?:es)?|fails? to|does not (?:handle|scale|apply))\b", re.I
)
_TRAINING = re.compile(r"\b(?:train(?:ed|ing)?|fine-?tun\w*|optimi[sz]ed|epochs?|simulations?|benchmark(?:ed|s)?)\b", re.I)
_COMPUTE = re.compile(
    r"\b(?:[GT]PUs?|CPUs?|cores?|A100|V100|H100|A6000|P100|T4|RTX|Titan|NVIDIA|Xeon|cluster|hardware|compute|computational (?:cost|budget|resources?)|"
    r"wall[- ]?clock|run[- ]?times?|(?:GPU|CPU|core|node)[- ]hours?|hours?|minutes|seconds|days|machine with|laptop|workstation|FLOPs?)\b",
    re.I,
)
_HUMAN_SUBJECTS = re.compile(
    r"\b(?:human (?:subjects?|participants?|evaluators?|raters?|annotators?|study|evaluation)|crowd[- ]?workers?|"
    r"(?:Amazon )?Mechanical Turk|MTurk|Prolific|user stud(?:y|ies)|interviewees?|survey respondents|patients|participants were|"
    r"personal(?:ly identifiable)? (?:data|information)|medical records|(?:we )?recruited \d+)\b",
    re.I,
)
_ETHICS = re.compile(
    r"\b(?:IRB|institutional review board|ethic(?:s|al)|informed consent|consent(?:ed)?|review board|approved by|anonymi[sz]\w*|"
    r"de-?identified|GDPR|HIPAA|compensat\w*|paid (?:at|above))\b",
    re.I,
)
_MIN_HUMAN_MENTIONS = 2


def _finder(pattern: re.Pattern[str]) -> Callable[[str], tuple[re.Match[str], ...]]:
    """`pattern`'s matches in a block's text, cached by the text: a keystroke searches only the
    edited block of its section again. One cache per pattern: hashing a pattern costs more than a lookup."""

    @lru_cache(maxsize=TEXT_CACHE_SIZE)
    def matches(text: str) -> tuple[re.Match[str], ...]:
        return tuple(pattern.finditer(text))

    return matches


_limitations_in, _training_in, _compute_in, _human_subjects_in, _ethics_in = map(
    _finder, (_LIMITATIONS, _TRAINING, _COMPUTE, _HUMAN_SUBJECTS, _ETHICS)
)


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
    empirical = section.kind in _EMPIRICAL_SECTIONS
    closing = section.kind in (SectionKind.CONCLUSION, SectionKind.DISCUSSION)
    discussed = (
        section.kind is SectionKind.LIMITATIONS
        or bool(_LIMITATIONS.search(section.title))
        or _any_text(section, _limitations_in, skip=(SectionKind.RELATED_WORK,))
    )
    anchor = (
        _report_at_heading(ctx, section, "the paper does not discuss its limitations (no limitations section or paragraph)")
        if empirical or closing
        else None
    )
    return [_Limitations(empirical, discussed, closing, anchor)]


class _Compute(NamedTuple):
    trains: bool  # an empirical or method section that trains, fine-tunes or simulates
    states_compute: bool
    anchor: Finding | None  # at the heading of an empirical section


def _no_compute(ctx: RuleContext, parts: list[tuple[Section, list[_Compute]]]) -> Iterator[Finding]:
    evidence = [part for _, (part,) in parts]
    anchors = [part.anchor for part in evidence if part.anchor is not None]
    if anchors and any(part.trains for part in evidence) and not any(part.states_compute for part in evidence):
        yield anchors[0]


@rule(
    "DIS002",
    "missing-compute-resources",
    Category.ETHICAL_OMISSION,
    Severity.INFORMATION,
    reads=("blocks", "structure"),
    scope=Scope.SECTION,
    combine=_no_compute,
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
    anchor = (
        _report_at_heading(ctx, section, "the experiments do not state the compute used (hardware, run time)")
        if section.kind in _EMPIRICAL_SECTIONS
        else None
    )
    return [
        _Compute(
            _any_text(section, _training_in, only=_EMPIRICAL_SECTIONS + (SectionKind.METHOD,)), _any_text(section, _compute_in), anchor
        )
    ]


class _Ethics(NamedTuple):
    human_subjects: int  # mentions of human subjects or personal data
    first: Finding | None  # at the first of them
    statement: bool  # an ethics section or a sentence on approval, consent, anonymisation


def _no_ethics(ctx: RuleContext, parts: list[tuple[Section, list[_Ethics]]]) -> Iterator[Finding]:
    evidence = [part for _, (part,) in parts]
    if sum(part.human_subjects for part in evidence) < _MIN_HUMAN_MENTIONS or any(part.statement for part in evidence):
        return
    yield next(part.first for part in evidence if part.first is not None)


@rule(
    "DIS003",
    "missing-ethics-statement",
    Category.ETHICAL_OMISSION,
    Severity.INFORMATION,
    reads=("blocks", "structure"),
    scope=Scope.SECTION,
    combine=_no_ethics,
)
def missing_ethics_statement(ctx: RuleContext, section: Section) -> list[_Ethics]:
    """## What it does
    Notes a paper that involves human subjects or personal data (participants,
    crowdworkers, a user study, patients, personal data) but says nothing about ethics
    approval, consent, anonymisation or compensation.

    ## Why is this bad?
    Research with people needs review-board approval or an exemption, and informed consent;
    venues desk-reject papers that omit the statement.

    ## Example
    "We recruited 40 participants on Prolific to rate the summaries."

    ## Use instead
    ```latex
    The study was approved by our institutional review board; all participants gave
    informed consent and were paid above minimum wage.
    ```

    ## Options
    Switch it off for venues without an ethics requirement:
    `[rules] ignore = ["DIS003"]` in `.auditex.toml`.
    """
    blocks = _text_blocks(section, skip=(SectionKind.RELATED_WORK, SectionKind.REFERENCES))
    mentions = [(placed, match) for placed in blocks for match in _human_subjects_in(placed.block.plain.text)]
    first = None
    if mentions:
        placed, match = mentions[0]
        first = ctx.report_block(
            placed,
            match.start(),
            match.end(),
            f'the paper involves human subjects or personal data ("{match.group(0)}") but states no ethics approval or consent',
            identity="ethics",
        )
    return [_Ethics(len(mentions), first, section.kind is SectionKind.ETHICS or _any_text(section, _ethics_in))]


def _text_blocks(section: Section, only: tuple[SectionKind, ...] = (), skip: tuple[SectionKind, ...] = ()) -> Iterator[PlacedBlock]:
    if (only and section.kind not in only) or section.kind in skip:
        return
    for placed in section.blocks:
        if placed.kind in _TEXT_KINDS:
            yield placed


def _any_text(
    section: Section,
    find: Callable[[str], tuple[re.Match[str], ...]],
    only: tuple[SectionKind, ...] = (),
    skip: tuple[SectionKind, ...] = (),
) -> bool:
    return any(find(placed.block.plain.text) for placed in _text_blocks(section, only, skip))


def _report_at_heading(ctx: RuleContext, section: Section, message: str) -> Finding:
    """A finding on the section's heading line (as far as the section's own text reaches)."""
    text = ctx.source(section.file).text
    line_end = text.find("\n", section.start)
    end = line_end if line_end != -1 else len(text)
    # Text past the section's own run (after an \\input on the heading line) is not in its key.
    end = next((min(end, run.end) for run in section.runs if run.file == section.file and run.start <= section.start < run.end), end)
    return ctx.report(section.file, section.start, end, message, identity=ctx.rule.code, section=section.title or section.kind.value)
