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
from collections.abc import Iterator
from functools import lru_cache

from ...latex.manuscript import PlacedBlock, Section
from ...latex.model import BlockKind, SectionKind
from ..context import TEXT_CACHE_SIZE, RuleContext
from ..finding import Category, Finding, Severity
from ..registry import rule

_TEXT_KINDS = (BlockKind.PARAGRAPH, BlockKind.FOOTNOTE, BlockKind.CAPTION, BlockKind.TABLE)
_EMPIRICAL_SECTIONS = (SectionKind.EXPERIMENTS, SectionKind.RESULTS)
_LIMITATIONS = re.compile(r"\b(?:limitations?|shortcomings?|drawbacks?|caveats?|weakness(?:es)?|fails? to|does not (?:handle|scale|apply))\b", re.I)
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


@rule("DIS001", "missing-limitations", Category.ETHICAL_OMISSION, Severity.INFORMATION, reads=("blocks", "structure"))
def missing_limitations(ctx: RuleContext) -> Iterator[Finding]:
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
    sections = ctx.manuscript.sections
    if not any(section.kind in _EMPIRICAL_SECTIONS for section in sections):
        return
    if any(section.kind is SectionKind.LIMITATIONS or _LIMITATIONS.search(section.title) for section in sections):
        return
    if _any_text(ctx, _LIMITATIONS, skip=(SectionKind.RELATED_WORK,)):
        return
    anchor = _last_section(sections, (SectionKind.CONCLUSION, SectionKind.DISCUSSION)) or _last_section(sections, _EMPIRICAL_SECTIONS)
    yield _report_at_heading(ctx, anchor, "the paper does not discuss its limitations (no limitations section or paragraph)")


@rule("DIS002", "missing-compute-resources", Category.ETHICAL_OMISSION, Severity.INFORMATION, reads=("blocks", "structure"))
def missing_compute_resources(ctx: RuleContext) -> Iterator[Finding]:
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
    sections = ctx.manuscript.sections
    empirical = [section for section in sections if section.kind in _EMPIRICAL_SECTIONS]
    if not empirical or not _any_text(ctx, _TRAINING, only=_EMPIRICAL_SECTIONS + (SectionKind.METHOD,)):
        return
    if _any_text(ctx, _COMPUTE):
        return
    yield _report_at_heading(ctx, empirical[0], "the experiments do not state the compute used (hardware, run time)")


@rule("DIS003", "missing-ethics-statement", Category.ETHICAL_OMISSION, Severity.INFORMATION, reads=("blocks", "structure"))
def missing_ethics_statement(ctx: RuleContext) -> Iterator[Finding]:
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
    blocks = _text_blocks(ctx, skip=(SectionKind.RELATED_WORK, SectionKind.REFERENCES))
    mentions = [(placed, match) for placed in blocks for match in _matches(_HUMAN_SUBJECTS, placed.block.plain.text)]
    if len(mentions) < _MIN_HUMAN_MENTIONS:
        return
    if any(section.kind is SectionKind.ETHICS for section in ctx.manuscript.sections) or _any_text(ctx, _ETHICS):
        return
    placed, match = mentions[0]
    yield ctx.report_block(
        placed, match.start(), match.end(),
        f"the paper involves human subjects or personal data ('{match.group(0)}') but states no ethics approval or consent",
        identity="ethics",
    )


def _text_blocks(ctx: RuleContext, only: tuple[SectionKind, ...] = (), skip: tuple[SectionKind, ...] = ()) -> Iterator[PlacedBlock]:
    for placed in ctx.manuscript.blocks:
        if placed.kind not in _TEXT_KINDS:
            continue
        kind = ctx.section_of(placed).kind
        if (not only or kind in only) and kind not in skip:
            yield placed


def _any_text(ctx: RuleContext, pattern: re.Pattern, only: tuple[SectionKind, ...] = (), skip: tuple[SectionKind, ...] = ()) -> bool:
    return any(_matches(pattern, placed.block.plain.text) for placed in _text_blocks(ctx, only, skip))


@lru_cache(maxsize=4 * TEXT_CACHE_SIZE)
def _matches(pattern: re.Pattern, text: str) -> tuple[re.Match, ...]:
    """Cached by block text: after an edit only the edited block is searched again."""
    return tuple(pattern.finditer(text))


def _last_section(sections: list[Section], kinds: tuple[SectionKind, ...]) -> Section | None:
    matching = [section for section in sections if section.kind in kinds]
    return matching[-1] if matching else None


def _report_at_heading(ctx: RuleContext, section: Section, message: str) -> Finding:
    text = ctx.source(section.file).text
    line_end = text.find("\n", section.start)
    end = line_end if line_end != -1 else len(text)
    return ctx.report(section.file, section.start, end, message, identity=ctx.rule.code,
                      section=section.title or section.kind.value)
