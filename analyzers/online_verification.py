"""The online verification pass: cited references resolved against scholarly indexes, the
verdicts turned into BIB findings by the online rules (analyzers/rules/online_references/).

It runs only when asked (`auditex check --online`, the `auditex.online` setting) and apart
from the offline engine: the engine never waits on the network. Its findings go through the
findings policy (analyzers/policy.py: rule selection, `[rules] severity`, exclusions,
`% auditex: ignore[BIB001]`, dismissals) exactly like rule findings. Verdicts are remembered per reference content, so
editing one `.bib` entry re-resolves only that entry (and the answer cache makes a re-run of
an unchanged bibliography cost no request at all).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from ..latex.project import Project
from .context import RuleContext
from .finding import Finding
from .finding_source import FindingSource, SourceReport, SourceRun
from .policy import Policy
from .project_config import Config
from .registry import Registry, Rule, Scope
from .scholarly.cited_references import Cited, cited_references
from .scholarly.index_cache import AnswerCache
from .scholarly.resolver import OnlineSettings, Verifier
from .scholarly.work import Reference, Verdict
from .wording import counted

if TYPE_CHECKING:
    from .session import Session

ONLINE_SLOT = "online"


@dataclass
class Summary:
    """What the run's summary line reports."""

    cited: int = 0
    verified: int = 0
    with_findings: int = 0
    not_found: int = 0
    unchecked: int = 0
    requests: int = 0
    reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # services unavailable for the run, OpenAlex's spend

    def plus(self, other: Summary) -> Summary:
        """The account of two runs (two projects of one folder) as one: counts added, reasons and notes joined."""
        return Summary(**{item.name: getattr(self, item.name) + getattr(other, item.name) for item in fields(Summary)})

    def line(self) -> str:
        text = (
            f"references: {self.cited} checked online, {self.verified} verified, {self.with_findings} with findings, "
            f"{self.not_found} not found, {self.unchecked} unchecked ({self.requests} requests)"
        )
        unchecked = self.unchecked_sentence()
        text = f"{text}. {unchecked}" if unchecked else text
        if self.notes:
            text += (" " if unchecked else "; ") + "; ".join(dict.fromkeys(self.notes))
        return text

    def unchecked_sentence(self) -> str:
        """How many references went unverified and why, in one sentence ('' when every one was checked)."""
        if not self.unchecked and not self.reasons:
            return ""
        # A reason may hold several sentences ("OpenAlex could not be reached (…). Crossref …"): each once.
        causes = dict.fromkeys(
            sentence.strip().rstrip(".") for reason in self.reasons for sentence in re.split(r"(?<=\.)\s+", reason) if sentence.strip()
        )
        why = f": {'; '.join(causes)}" if causes else ""
        return (
            f"{self.unchecked} of {counted(self.cited, 'reference')} could not be checked, "
            f"so nothing is claimed about {'it' if self.unchecked == 1 else 'them'}{why}."
        )

    def as_dict(self) -> dict[str, Any]:
        unchecked = self.unchecked_sentence()
        return {
            "cited": self.cited,
            "verified": self.verified,
            "with_findings": self.with_findings,
            "not_found": self.not_found,
            "unchecked": self.unchecked,
            "requests": self.requests,
            **({"unchecked_because": unchecked} if unchecked else {}),
            "notes": list(dict.fromkeys(self.notes)),
        }


def online_rules(registry: Registry, config: Config) -> list[Rule]:
    return [rule for rule in registry.select(config.rules.select, config.rules.ignore) if rule.scope is Scope.ONLINE]


def settings_of(config: Config) -> tuple[OnlineSettings, str | None]:
    return OnlineSettings.from_config(config.online)


def findings_for(
    project: Project, config: Config, rules: Iterable[Rule], pairs: Iterable[tuple[Cited, Verdict]], at_cites: bool = False
) -> list[Finding]:
    """The online rules' findings on each entry (and, in the editor, on each `\\cite` of it)."""
    findings: list[Finding] = []
    pairs = list(pairs)
    for rule in rules:
        context = RuleContext(project, rule, config)
        for cited, verdict in pairs:
            for finding in rule.check(context, cited, verdict):
                findings.append(finding)
                if at_cites:
                    findings += _on_cites(context, cited, finding)
    return findings


def _on_cites(context: RuleContext, cited: Cited, finding: Finding) -> list[Finding]:
    entry = context.related(cited.file, cited.start, cited.end, f"the entry '{cited.reference.key}'")
    return [
        finding.model_copy(
            update={
                "file": file,
                "range": context.range(file, start, end),
                "related": [entry],
                "fixes": [],
                "identity": f"{finding.identity}@cite{index}",
                "fingerprint": "",
            }
        )
        for index, (file, start, end) in enumerate(cited.cites)
    ]


class OnlineChecker:
    """Verifies projects' references; remembers verdicts per reference content across runs (the server keeps one)."""

    def __init__(
        self,
        registry: Registry,
        cache: AnswerCache | None = None,
        env: dict[str, str] | None = None,
        policies: dict[str, Any] | None = None,
        backoff_s: float = 0.5,
        check_urls: bool = True,
    ) -> None:
        self.registry = registry  # the online rules among them turn verdicts into findings
        self.cache = cache if cache is not None else AnswerCache()
        self.env = env
        self.policies = policies
        self.backoff_s = backoff_s
        self.check_urls = check_urls  # [online] urls applies too; the benchmark turns it off to stay on loopback
        self.verdicts: dict[str, Verdict] = {}  # reference digest → verdict (checked ones only)
        self.requests = 0
        self.notes: list[str] = []  # of the last resolve: services down for the run, OpenAlex's spend

    def pending(self, cited: Iterable[Cited]) -> list[Cited]:
        """The cited references without a verdict yet (one per content)."""
        return list({c.digest: c for c in cited if c.digest not in self.verdicts}.values())

    async def resolve(
        self, references: list[Reference], settings: OnlineSettings, on_verdict: Callable[[Verdict], None] | None = None
    ) -> tuple[list[Verdict], int]:
        """Ask the indexes about `references` (the network part); returns the verdicts and the requests made."""
        if not references:
            return [], 0
        async with Verifier(
            settings, self.cache, self.env, self.policies, backoff_s=self.backoff_s, check_urls=self.check_urls
        ) as verifier:
            verdicts = await verifier.verify(references, on_verdict)
            requests = verifier.requests
            self.notes = verifier.notes()
        self.requests += requests
        return verdicts, requests

    def remember(self, cited: Cited, verdict: Verdict) -> None:
        if verdict.checked:  # an unchecked reference is asked again next time
            self.verdicts[cited.digest] = verdict

    def findings(self, project: Project, policy: Policy, cited: list[Cited], at_cites: bool = False) -> list[Finding]:
        """The BIB findings of the references that have a verdict, through the policy (no network)."""
        config = policy.config
        rules = online_rules(self.registry, config)
        pairs = [(c, self.verdicts[c.digest]) for c in cited if c.digest in self.verdicts]
        return policy.apply(project, findings_for(project, config, rules, pairs, at_cites)) if rules else []

    async def check(
        self,
        project: Project,
        policy: Policy,
        at_cites: bool = False,
        on_findings: Callable[[list[Finding]], None] | None = None,
        cited: list[Cited] | None = None,
        on_answer: Callable[[int, int], None] | None = None,
    ) -> tuple[list[Finding], Summary]:
        """BIB findings of `project`, through the policy; `on_findings` hears the findings so far as verdicts arrive,
        `on_answer` how many of the references asked about have a verdict (for a progress line)."""
        config = policy.config
        rules = online_rules(self.registry, config)
        summary = Summary()
        if not rules:
            return [], summary
        cited = cited if cited is not None else cited_references(project)
        settings, problem = settings_of(config)
        if problem:
            summary.reasons.append(problem)
        summary.cited = len(cited)
        known = {c.digest: self.verdicts[c.digest] for c in cited if c.digest in self.verdicts}
        todo = [c for c in cited if c.digest not in known]
        by_key = {c.reference.key: c for c in todo}
        done: list[tuple[Cited, Verdict]] = [(c, known[c.digest]) for c in cited if c.digest in known]

        def heard(verdict: Verdict) -> None:
            done.append((by_key[verdict.key], verdict))
            if on_answer is not None:
                on_answer(len(done) - len(known), len(todo))
            if on_findings is not None:
                on_findings(policy.apply(project, findings_for(project, config, rules, done, at_cites)))

        if todo:
            _, summary.requests = await self.resolve([c.reference for c in todo], settings, heard)
            summary.notes = list(self.notes)
        for item, verdict in done:
            self.remember(item, verdict)
        findings = policy.apply(project, findings_for(project, config, rules, done, at_cites))
        flagged = {f.identity.rsplit(":", 1)[0] for f in findings}
        for item, verdict in done:
            if verdict.status == "unchecked":
                summary.unchecked += 1
                summary.reasons += verdict.unavailable[:1]
            elif verdict.status == "not_found":
                summary.not_found += 1
            elif item.reference.key not in flagged:
                summary.verified += 1
        summary.with_findings = len({key for key in flagged if key in {c.reference.key for c in cited}})
        return findings, summary


class OnlineSource(FindingSource):
    """The online verification as a source: each project's cited references resolved, their BIB findings
    in the "online" slot; the last report's account is the project's `Summary`."""

    slot = ONLINE_SLOT

    def __init__(self, checker: OnlineChecker, on_answer: Callable[[int, int], None] | None = None) -> None:
        self.checker = checker
        self.on_answer = on_answer

    async def run(self, run: SourceRun) -> AsyncIterator[SourceReport]:
        findings, summary = await self.checker.check(run.project, run.policy, on_answer=self.on_answer)
        yield SourceReport(run.snapshot.root, findings, account=summary)


def verdict_findings(session: Session, checker: OnlineChecker | None) -> list[Finding]:
    """The BIB findings `checker`'s verdicts give against the current text, on each `.bib` entry and on each
    `\\cite` of it (the editor: verdicts arrive while the author types); none without a checker."""
    if checker is None or not checker.verdicts:
        return []
    return [
        finding
        for project in session.projects
        for finding in checker.findings(project, session.policy, cited_references(project), at_cites=True)
    ]


async def verify_references(
    session: Session, on_answer: Callable[[int, int], None] | None = None, checker: OnlineChecker | None = None
) -> Summary:
    """Resolve every project's cited references into the session's online slot; `on_answer` hears how many
    references of a project have an answer. Returns the run's account."""
    own = checker is None
    checker = checker or OnlineChecker(session.registry)
    total = Summary()
    try:
        async for report in session.run(OnlineSource(checker, on_answer)):
            total = total.plus(report.account)
    finally:
        if own:
            checker.cache.close()
    return total
