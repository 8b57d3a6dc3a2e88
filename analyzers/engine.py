"""The rule engine: runs enabled rules, caches their results by what they read.

A project-scope rule's result is a pure function of the memory facets it
declares, so it is reused while their digests are unchanged. A section-scope
rule's result is keyed by the section's content and position, so an edit
re-runs it only on the section it touched.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import Counter
from dataclasses import dataclass, field

from ..latex.manuscript import Section
from ..latex.project import Project
from .config import Config
from .context import RuleContext
from .dismissals import Dismissals
from .finding import Finding, Severity
from .registry import FACETS, Registry, Rule, Scope, default_registry
from .suppression import is_suppressed, suppressed_lines

log = logging.getLogger(__name__)


@dataclass
class CheckStats:
    rules_run: int = 0
    rules_cached: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)


class Engine:
    def __init__(self, registry: Registry | None = None, config: Config | None = None,
                 dismissals: Dismissals | None = None) -> None:
        self.registry = registry or default_registry()
        self.config = config or Config()
        self.dismissals = dismissals
        self._cache: dict[tuple, list[Finding]] = {}
        self._suppressions: dict[str, tuple[str, dict[int, frozenset[str]]]] = {}
        self.last_stats = CheckStats()

    def configure(self, config: Config) -> None:
        self.config = config

    @property
    def enabled_rules(self) -> list[Rule]:
        return self.registry.select(self.config.rules.select, self.config.rules.ignore)

    def check(self, project: Project) -> list[Finding]:
        started = time.perf_counter()
        stats = CheckStats()
        live_keys: set[tuple] = set()
        findings: list[Finding] = []
        section_keys: list[tuple] = []  # filled on the first section-scope rule, shared by the others
        for rule in self.enabled_rules:
            for key, run in self._units(project, rule, section_keys):
                live_keys.add(key)
                cached = self._cache.get(key)
                if cached is None:
                    cached = self._run(rule, run, stats)
                    self._cache[key] = cached
                    stats.rules_run += 1
                else:
                    stats.rules_cached += 1
                findings.extend(cached)
        # Results of units that no longer exist would only grow the cache.
        self._cache = {key: value for key, value in self._cache.items() if key in live_keys}
        result = self._finish(project, findings)
        stats.seconds = time.perf_counter() - started
        self.last_stats = stats
        return result

    def _units(self, project: Project, rule: Rule, section_keys: list[tuple]):
        context = RuleContext(project, rule, self.config)
        if rule.scope is Scope.PROJECT:
            facets = tuple(_digest(project, facet) for facet in rule.reads)
            yield (rule.code, project.root_file, facets), lambda: list(rule.check(context))
            return
        # A section rule reads its own section's blocks and kind: those go into its key, not the
        # project-wide "blocks"/"structure" digests that any edit anywhere changes.
        facets = tuple(_digest(project, facet) for facet in rule.reads if facet not in _SECTION_FACETS)
        if not section_keys:
            section_keys += [(section, _section_key(project, section)) for section in project.manuscript.sections]
        for section, section_key in section_keys:
            yield (rule.code, project.root_file, section_key, facets), (lambda section=section: list(rule.check(context, section)))

    def _run(self, rule: Rule, run, stats: CheckStats) -> list[Finding]:
        try:
            return [finding.with_fingerprint() for finding in run()]
        except Exception:  # a rule bug must not take the audit down
            log.exception("rule %s failed", rule.code)
            stats.failures.append(rule.code)
            return []

    def _finish(self, project: Project, findings: list[Finding]) -> list[Finding]:
        result: list[Finding] = []
        seen: Counter[str] = Counter()
        for finding in sorted(findings, key=_position_key):
            if self.config.is_excluded(finding.file):
                continue
            if is_suppressed(finding.code, finding.range.start.line, self._suppressed(project, finding.file)):
                continue
            severity = self.config.severity_for(finding.code, finding.severity)
            seen[finding.fingerprint] += 1
            if seen[finding.fingerprint] > 1:
                # Same identity twice in a file: keep both, distinguishably.
                finding = finding.model_copy(update={"fingerprint": f"{finding.fingerprint}-{seen[finding.fingerprint]}"})
            if severity is not finding.severity:
                finding = finding.model_copy(update={"severity": severity})
            if self.dismissals is not None and self.dismissals.is_dismissed(finding.fingerprint):
                continue
            result.append(finding)
        return result

    def _suppressed(self, project: Project, file: str) -> dict[int, frozenset[str]]:
        if file in project.documents:
            source = project.documents[file].source
        elif file in project.bibliographies:
            source = project.bibliographies[file].source
        else:
            return {}
        cached = self._suppressions.get(file)
        if cached is None or cached[0] != source.hash:
            cached = (source.hash, suppressed_lines(source))
            self._suppressions[file] = cached
        return cached[1]


# Facets the memory digests itself; the others are digested from the project's files.
_MEMORY_FACETS = FACETS - {"problems", "comments"}


_SECTION_FACETS = frozenset({"blocks", "structure"})


def _section_key(project: Project, section: Section) -> tuple:
    """What a section rule's findings depend on: the section's text and kind, and where its blocks sit."""
    positions = tuple((placed.file, placed.block.start, placed.block.end, project.documents[placed.file].source.line_of(placed.block.start))
                      for placed in section.blocks)
    return (section.id, section.hash, section.kind, section.in_appendix, hash(positions))


def _digest(project: Project, facet: str) -> str:
    if facet in _MEMORY_FACETS:
        return project.memory.digest(facet)
    if facet == "problems":
        return hashlib.blake2b(repr(project.problems).encode(), digest_size=12).hexdigest()
    # "comments" and anything else file-level: the text of every file.
    basis = [(path, document.hash) for path, document in project.documents.items()]
    return hashlib.blake2b(repr(basis).encode(), digest_size=12).hexdigest()


def _position_key(finding: Finding) -> tuple:
    return (finding.file, finding.range.start.line, finding.range.start.character, finding.code, finding.message)


def severity_at_least(finding: Finding, threshold: Severity) -> bool:
    return finding.severity.rank >= threshold.rank
