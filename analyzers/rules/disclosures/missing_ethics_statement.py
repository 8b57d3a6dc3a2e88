"""DIS003: research with people or personal data and no word on ethics approval or consent."""

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
from .model import any_text, finder, text_blocks

_HUMAN_SUBJECTS = DeferredPattern(
    r"\b(?:human (?:subjects?|participants?|evaluators?|raters?|annotators?|study|evaluation)|crowd[- ]?workers?|"
    r"(?:Amazon )?Mechanical Turk|MTurk|Prolific|user stud(?:y|ies)|interviewees?|survey respondents|patients|participants were|"
    r"personal(?:ly identifiable)? (?:data|information)|medical records|(?:we )?recruited \d+)\b",
    re.I,
)
_ETHICS = DeferredPattern(
    r"\b(?:IRB|institutional review board|ethic(?:s|al)|informed consent|consent(?:ed)?|review board|approved by|anonymi[sz]\w*|"
    r"de-?identified|GDPR|HIPAA|compensat\w*|paid (?:at|above))\b",
    re.I,
)
_human_subjects_in = finder(
    _HUMAN_SUBJECTS,
    ("human ", "crowd", "turk", "prolific", "user stud", "interviewee", "survey respondents", "patients", "participants were")
    + ("personal", "medical records", "recruited "),
)
_ethics_in = finder(
    _ETHICS, ("irb", "ethic", "consent", "review board", "approved by", "anonymi", "identified", "gdpr", "hipaa", "compensat", "paid a")
)
_MIN_HUMAN_MENTIONS = 2


@violation_type
class MissingEthicsStatement(Violation):
    mention: str  # the first mention of human subjects or personal data

    @property
    def message(self) -> str:
        return f'the paper involves human subjects or personal data ("{self.mention}") but states no ethics approval or consent'

    @property
    def identity(self) -> str:
        return "ethics"  # once per paper


class _Ethics(NamedTuple):
    human_subjects: int  # mentions of human subjects or personal data
    first: Finding | None  # at the first of them


def _no_ethics(ctx: RuleContext, parts: list[tuple[Section, list[_Ethics]]]) -> Iterator[Finding]:
    evidence = [part for _, (part,) in parts]
    # An ethics statement is looked for only in a paper with human subjects: most papers have none.
    if sum(part.human_subjects for part in evidence) < _MIN_HUMAN_MENTIONS or any(_states_ethics(section) for section, _ in parts):
        return
    yield next(part.first for part in evidence if part.first is not None)


def _states_ethics(section: Section) -> bool:
    """An ethics section, or a sentence on approval, consent, anonymisation."""
    return section.kind is SectionKind.ETHICS or any_text(section, _ethics_in)


@rule(
    "DIS003",
    "missing-ethics-statement",
    Category.ETHICAL_OMISSION,
    Severity.INFORMATION,
    reads=("blocks", "structure"),
    scope=Scope.SECTION,
    combine=_no_ethics,
    placed_parts=True,  # a count and the first mention's finding
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
    blocks = text_blocks(section, skip=(SectionKind.RELATED_WORK, SectionKind.REFERENCES))
    mentions = [(placed, match) for placed in blocks for match in _human_subjects_in(placed.block.plain.text)]
    first = None
    if mentions:
        placed, match = mentions[0]
        first = ctx.flag_block(MissingEthicsStatement(match.group(0)), placed, match.start(), match.end())
    return [_Ethics(len(mentions), first)]
