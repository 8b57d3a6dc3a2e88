"""The rule engine: runs enabled rules, caches their results by what they read.

A project-scope rule's result is a pure function of the facets it
declares, so it is reused while their digests are unchanged. A section-scope
rule's result is keyed by the section's text and where it sits (line and
column, not offset), so typing re-runs it on the edited section only; a
section rule that combines its sections' parts re-runs just the combine.
Digests carry positions as (line, column) for the same reason: text typed on
one line moves nothing on the others. A section rule that reports findings
(no parts to combine) keys them by the section's text and columns alone: a
section that a new line above it moved keeps its findings, moved with it.
With an AnalysisCache, results missing from memory are looked up on disk under
the same keys, and `save` keeps the ones a check computed for the next run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain
from typing import Any

from ..latex.manuscript import Manuscript, Section
from ..latex.project import Project
from ..latex.record import record
from ..latex.source import content_hash, value_hash
from .analysis_cache import AnalysisCache
from .context import RuleContext
from .dismissals import Dismissals
from .facets import FACETS
from .finding import Finding, Range
from .policy import Policy
from .project_config import Config
from .registry import Pairwise, Registry, Rule, Scope
from .rule_units import CheckStats, Skipped, Units
from .rules import default_registry

# A section's source run as its key holds it: file, (line, column) of its start, content hash.
_RunKey = tuple[str, tuple[int, int], str]
# Where a section's runs lay when findings were computed: file, first line, last line of each.
_Lines = tuple[tuple[str, int, int], ...]
_AlignedKey = tuple[str, ...]


@record
class _SectionKeys:
    placed: str  # the section's text and where it sits: what a combining rule makes of its parts holds lines and columns
    moved: str  # the section's text and columns, not lines: findings follow a section that moved
    lines: _Lines
    part: str  # `placed` and the characters its runs start at: a combining rule's parts hold offsets into the file


@record
class _Aligned:
    """One rule's per-section units at its last check, by the position of their section (`tag`: what else their
    names held, the same for all)."""

    keys: list[_SectionKeys]
    names: list[str]
    values: list[list[Any]]
    tag: tuple[str, ...]


@dataclass
class RuleEngines:
    """The rules as the session's source: one `Engine` per project, over `registry` (every rule by
    default). The one place an `Engine` is built."""

    registry: Registry = field(default_factory=default_registry)

    def checker(self, policy: Policy, cache: AnalysisCache | None = None) -> Engine:
        return Engine(self.registry, policy.config, policy.dismissals, cache)


class Engine:
    def __init__(
        self,
        registry: Registry | None = None,
        config: Config | None = None,
        dismissals: Dismissals | None = None,
        cache: AnalysisCache | None = None,
    ) -> None:
        self.registry = registry or default_registry()
        self.config = config or Config()
        self.policy = Policy(self.config, dismissals)
        self.settings = self.config.rule_settings()  # digested once: it is part of every rule's key, on every check
        self.cache = cache
        # (root, rule, facet digests) → unit ("project", a section key, "combine…") → its findings
        # (or a section's parts, for a combining rule).
        self._units: dict[tuple[str, str, str], dict[str, list[Any]]] = {}
        # (file hash, start, end) of a section's source run → its key, so unchanged files are not re-hashed.
        self._run_keys: dict[tuple[str, int, int], _RunKey] = {}
        # id of a Section → (the Section, its keys), for the Section objects the next manuscript reuses.
        self._section_keys: dict[int, tuple[Section, _SectionKeys]] = {}
        # The last checks and the units they computed, for `save`: the keys on disk (which digest every file
        # of the folder) are taken only when saving, not on every keystroke.
        self._unsaved: list[tuple[_ProjectCheck, list[tuple[tuple[str, str, str], Rule]]]] = []
        self._checked_roots: set[str] = set()  # the disk serves a project's first check; memory the later ones
        # (root, rule) → (what the sections fed, the shared state built from it) of a split combine: kept while they feed the same.
        self._shared: dict[tuple[str, str], tuple[str, Any]] = {}
        # (root, rule, facet digests, what the unit names also hold) → the sections' keys, unit names and values by
        # position at the rule's last check: an edit looks up only the sections whose keys changed.
        self._aligned: dict[_AlignedKey, _Aligned] = {}
        # The facet digests of the last check and the manuscript they were taken of: every change of a project
        # builds it a new manuscript, so while it holds the same one, a staged check's second stage digests nothing.
        self._digests: tuple[Manuscript | None, dict[str, str]] = (None, {})
        # The rules a staged check's first stage selects (`only`), and their codes: selected once, not per keystroke.
        self._only: tuple[Callable[[str], bool], list[Rule], frozenset[str]] | None = None
        # code → the rule's context: it holds the project, the rule and the config, the same on every check of the project.
        self._contexts: dict[str, RuleContext] = {}
        self.last_stats = CheckStats()

    @cached_property  # the config is the engine's for its life: select once, not on every keystroke's two stages
    def enabled_rules(self) -> list[Rule]:
        """The selected offline rules (online ones run in the verification pass, never here)."""
        return [rule for rule in self.selected_rules if rule.scope not in (Scope.ONLINE, Scope.LIMIT)]

    @cached_property
    def digested_facets(self) -> dict[str, tuple[str, ...]]:
        """Each enabled rule's facets whose digests key its results. A section rule reads its own section's blocks,
        kind and text: those go into its sections' keys, not the project-wide digests that any edit anywhere changes."""
        return {
            rule.code: tuple(facet for facet in rule.reads if rule.scope is Scope.PROJECT or not FACETS[facet].section_local)
            for rule in self.enabled_rules
        }

    @cached_property
    def selected_rules(self) -> list[Rule]:
        return self.registry.select(self.config.rules.select, self.config.rules.ignore)

    def check(self, project: Project, only: Callable[[str], bool] | None = None) -> list[Finding]:
        """The findings of every enabled rule, or of those whose code `only` accepts: the others' kept
        results stay for the next check (a staged check runs the quick rules first, then all)."""
        started = time.perf_counter()
        run = _ProjectCheck(self, project)
        found: list[list[Finding]] = []  # by rule: the lists kept for the rules an edit did not reach are the same lists
        skipped: list[str] = []
        stats = run.stats
        rule_started = time.thread_time()
        for rule in self.enabled_rules if only is None else self._selected_by(only)[0]:
            facets_before = stats.facets_total
            try:
                found.append(run.findings_of(rule))
            except Skipped:
                skipped.append(rule.code)
            rule_started = stats.rule_cost(rule.code, rule_started, facets_before)
        if skipped:
            for rule in self.selected_rules:
                if rule.scope is Scope.LIMIT and (only is None or only(rule.code)):
                    found.append(_fingerprinted(rule.check(RuleContext(project, rule, self.config), skipped)))
        self._keep(run, only)
        result = self.policy.apply_grouped(project, found, partial=only is not None)
        run.stats.seconds = time.perf_counter() - started
        self.last_stats = run.stats
        return result

    def _selected_by(self, only: Callable[[str], bool]) -> tuple[list[Rule], frozenset[str]]:
        """The enabled rules whose code `only` accepts, and their codes (kept for the last `only` asked)."""
        if self._only is None or self._only[0] is not only:
            rules = [rule for rule in self.enabled_rules if only(rule.code)]
            self._only = (only, rules, frozenset(rule.code for rule in rules))
        return self._only[1], self._only[2]

    def context(self, project: Project, rule: Rule) -> RuleContext:
        """The rule's context on `project`, made once: the engine gives each unit a fresh budget, and a rule keeps nothing in it."""
        context = self._contexts.get(rule.code)
        if context is None or context.whole_project is not project:
            context = self._contexts[rule.code] = RuleContext(project, rule, self.config)
        return context

    def _keep(self, run: _ProjectCheck, only: Callable[[str], bool] | None) -> None:
        """Keep what `run` used for the next check. A full check keeps only that: results of units that no
        longer exist would only grow the caches. A partial one keeps the other rules' results beside it."""
        unsaved = [(run, run.computed)] if self.cache is not None else []
        if only is None:
            self._units, self._shared, self._unsaved = run.units_used, run.shared_used, unsaved
            # A combine kept whole reads no parts: their places stay for the check that reads them, to carry them by.
            self._aligned = {key: aligned for key, aligned in self._aligned.items() if key[:3] in run.units_used} | run.aligned_used
            self._run_keys, self._section_keys = run.run_keys, run.section_keys
        else:
            ran = self._selected_by(only)[1]
            self._units = {key: units for key, units in self._units.items() if key[1] not in ran} | run.units_used
            self._shared = {key: shared for key, shared in self._shared.items() if key[1] not in ran} | run.shared_used
            self._aligned = {key: aligned for key, aligned in self._aligned.items() if key[1] not in ran} | run.aligned_used
            self._unsaved += unsaved
            self._run_keys |= run.run_keys
            self._section_keys |= run.section_keys
        self._digests = (run.project.manuscript, run.digests)
        self._checked_roots.add(run.project.root_file)

    def save(self) -> None:
        """Keep the results the last check computed in the analysis cache, for the next run (before the project
        changes again: their keys on disk digest its files)."""
        if self.cache is not None:
            for run, computed in self._unsaved:
                for key, rule in computed:
                    self.cache.save_units(run.disk_key(key, rule), run.units_used[key])
        self._unsaved = []


class _ProjectCheck:
    """One check of one project: which cached units it used, and the section keys it computed once."""

    def __init__(self, engine: Engine, project: Project) -> None:
        self.engine = engine
        self.project = project
        self.stats = CheckStats()
        self.units_used: dict[tuple[str, str, str], dict[str, list[Any]]] = {}
        self._units: list[tuple[tuple[str, str, str], Rule, Units]] = []
        self._files_digest: str | None = None
        self.run_keys: dict[tuple[str, int, int], _RunKey] = {}
        self.section_keys: dict[int, tuple[Section, _SectionKeys]] = {}
        self._sections: list[tuple[Section, _SectionKeys]] | None = None
        manuscript, digests = engine._digests
        # facet → its digest, taken once per check, and kept from the last check of the same manuscript
        self.digests = dict(digests) if manuscript is project.manuscript else {}
        self.shared_used: dict[tuple[str, str], tuple[str, Any]] = {}
        self.aligned_used: dict[_AlignedKey, _Aligned] = {}
        self._keys_list: list[_SectionKeys] | None = None
        self._changed: dict[int, list[int] | None] = {}  # id of an earlier check's keys → the positions changed since
        self._placed_digest: str | None = None
        self._part_names: dict[bool, frozenset[str]] = {}

    def findings_of(self, rule: Rule) -> list[Finding]:
        context = self.engine.context(self.project, rule)
        facets = "|".join(map(self.digest, self.engine.digested_facets[rule.code]))
        facets += "|" + self.engine.settings  # results under other settings are other results
        units = self.units(rule, facets, context)
        if rule.scope is Scope.PROJECT:
            return units.get("project", lambda: _fingerprinted(rule.check(context)))
        findings = self.section_findings(rule, context, units)
        units.finish()
        return findings

    def section_findings(self, rule: Rule, context: RuleContext, units: Units) -> list[Finding]:
        sections = self.sections()
        combine = rule.combine
        if combine is None:
            found = self.per_section(
                units,
                ("moved",),
                lambda place, keys: keys.moved,
                lambda place, section, keys: [keys.lines, _fingerprinted(rule.check(context, section))],
                lambda value, keys: value if value[0] == keys.lines else [keys.lines, _moved(value[1], value[0], keys.lines)],
            )
            return list(chain.from_iterable(findings for _, findings in found))

        # A section's part is read only where something is computed from it: typing earlier in its file moves its
        # offsets (not its lines), so a kept part is good for what was made of it, but not to make anything anew;
        # a rule whose parts hold no offsets keeps them by the section's text and place alone.
        placed_parts = rule.placed_parts

        def part_name(keys: _SectionKeys) -> str:
            return keys.placed if placed_parts else keys.part

        def part(section: Section, keys: _SectionKeys) -> Any:
            return units.get(part_name(keys), lambda: list(rule.check(context, section)))

        if rule.pairwise is not None:
            findings = self.pairwise(rule.pairwise, context, units, sections, part, part_name)
        else:
            # Every section's part, those of the sections an edit left as they were taken by position.
            def parts() -> list[Any]:
                return self.per_section(
                    units, ("parts",), lambda place, keys: part_name(keys), lambda place, section, keys: list(rule.check(context, section))
                )

            findings = self.whole(
                units,
                "combine" + self.placed_digest(),
                lambda: _fingerprinted(combine(context, [(section, value) for (section, _), value in zip(sections, parts())])),
            )
        units.keep(self.part_names(placed_parts))
        return findings

    def pairwise(
        self,
        split: Pairwise,
        context: RuleContext,
        units: Units,
        sections: list[tuple[Section, _SectionKeys]],
        part: Callable[[Section, _SectionKeys], Any],
        part_name: Callable[[_SectionKeys], str],
    ) -> list[Finding]:
        """A split combine: each section's findings under its own key and what the sections feed the shared
        state, so an edit recomputes only the pairs that involve the edited section."""
        # What each section feeds, digested under the section's key: an edit digests the edited section's alone.
        fed = [
            value[0]
            for value in self.per_section(
                units,
                ("feeds",),
                lambda place, keys: "feeds" + keys.placed,
                lambda place, section, keys: [_fed_digest(split.feeds(part(section, keys)))],
                parts=part_name,
            )
        ]
        feeds = value_hash([(place, digest) for place, digest in enumerate(fed) if digest is not None])
        key = (self.project.root_file, context.rule.code)
        kept = self.engine._shared.get(key)
        shared = [kept[1]] if kept is not None and kept[0] == feeds else []  # built only when fed otherwise and needed
        if shared:
            self.shared_used[key] = (feeds, shared[0])

        def against() -> Any:
            if not shared:
                feeding = [
                    (place, section, part(section, keys))
                    for place, ((section, keys), digest) in enumerate(zip(sections, fed))
                    if digest is not None
                ]
                shared.append(split.shared(context, feeding))
                self.shared_used[key] = (feeds, shared[0])
            return shared[0]

        # A section is named by what it feeds where that is all its findings read of it: typing that states nothing keeps them.
        found = self.per_section(
            units,
            ("each", feeds),
            lambda place, keys: "each" + value_hash((place, fed[place] if split.feeds_all else keys.placed, feeds)),
            lambda place, section, keys: _fingerprinted(split.each(context, against(), place, section, part(section, keys))),
        )
        return list(chain.from_iterable(found))

    def per_section(
        self,
        units: Units,
        names: tuple[str, ...],
        name_of: Callable[[int, _SectionKeys], str],
        compute: Callable[[int, Section, _SectionKeys], list[Any]],
        placed: Callable[[list[Any], _SectionKeys], list[Any]] = lambda value, keys: value,
        parts: Callable[[_SectionKeys], str] | None = None,
    ) -> list[list[Any]]:
        """Each section's unit (named by `name_of`; `names` says what else a name holds). Where a section's keys
        are those it had at the rule's last check, its unit is taken by position, without a look-up: an edit
        looks up the edited sections alone, where a walk over every section's units cost more than the rules.
        `placed` puts a unit looked up where its section now lies (and it is kept so). The names of units, and of
        `parts` (a combining rule's parts read elsewhere), that the changed sections had are retired."""
        sections = self.sections()
        key, tag = (*units.key, names[0]), names[1:]
        last = self.engine._aligned.get(key)
        changed: Sequence[int] | None = self.changed_since(last.keys) if last is not None and last.tag == tag else None
        if last is None or changed is None:
            changed = range(len(sections))
            unit_names: list[str] = [""] * len(sections)
            values: list[list[Any]] = [[]] * len(sections)
            if last is not None:
                units.retire(last.names)
                if parts is not None:
                    units.retire({parts(keys) for keys in last.keys} - {parts(keys) for keys in self.keys_list()})
        else:
            unit_names, values = list(last.names), list(last.values)
            if parts is not None:
                units.retire(parts(last.keys[place]) for place in changed if parts(last.keys[place]) != parts(sections[place][1]))
            units.retire(unit_names[place] for place in changed)
        for place in changed:
            section, keys = sections[place]
            unit_names[place] = name = name_of(place, keys)
            value = units.get(name, lambda place=place, section=section, keys=keys: compute(place, section, keys))
            values[place] = units.current[name] = placed(value, keys)
        units.reuse(unit_names, values, len(sections) - len(changed))
        self.aligned_used[key] = _Aligned(self.keys_list(), unit_names, values, tag)
        return values

    def whole(self, units: Units, name: str, compute: Callable[[], list[Any]]) -> list[Any]:
        """A unit of the whole paper (a combine of every section's parts), the one it replaces retired."""
        key = (*units.key, "whole")
        last = self.engine._aligned.get(key)
        if last is not None:
            units.retire(last.names)
        value = units.get(name, compute)
        self.aligned_used[key] = _Aligned([], [name], [value], ())
        return value

    def digest(self, facet: str) -> str:
        found = self.digests.get(facet)
        if found is None:
            started = time.thread_time()
            found = self.digests[facet] = FACETS[facet].digest(self.project)
            spent = self.stats.facet_seconds[facet] = time.thread_time() - started
            self.stats.facets_total += spent
        return found

    def units(self, rule: Rule, facets: str, context: RuleContext) -> Units:
        """The rule's cached results under these facet digests (from memory, else from the
        analysis cache); those this check uses are kept."""
        key = (self.project.root_file, rule.code, facets)
        previous = self.engine._units.get(key)
        carried = previous is not None
        if previous is None:
            first_check = self.project.root_file not in self.engine._checked_roots
            cache = self.engine.cache
            previous = cache.load_units(self.disk_key(key, rule)) if cache is not None and first_check else {}
        units = Units(key, rule, context, self.stats, previous, carried)
        self.units_used[key] = units.current
        self._units.append((key, rule, units))
        return units

    @property
    def computed(self) -> list[tuple[tuple[str, str, str], Rule]]:
        """The keys (and rules) under which this check computed some result."""
        return [(key, rule) for key, rule, units in self._units if units.computed]

    def disk_key(self, key: tuple[str, str, str], rule: Rule) -> tuple[str, ...]:
        """A unit's key in the analysis cache. A project rule may read more than its facets (the
        folder's other roots, a file's text): on disk, its key also holds every source file."""
        return (*key, self.files_digest()) if rule.scope is Scope.PROJECT else key

    def files_digest(self) -> str:
        """The project's texts and the size and time of every other .tex file in its folder."""
        if self._files_digest is None:
            project = self.project
            texts = [(path, document.hash) for path, document in project.documents.items()]
            texts += [(path, bibliography.source.hash) for path, bibliography in project.bibliographies.items()]
            others = []
            for path in sorted(project.root.folder.rglob("*.tex")):
                relative = path.relative_to(project.root.folder).as_posix()
                if relative not in project.documents and path.is_file():
                    status = path.stat()
                    others.append((relative, status.st_size, status.st_mtime_ns))
            self._files_digest = value_hash((texts, others))
        return self._files_digest

    def sections(self) -> list[tuple[Section, _SectionKeys]]:
        if self._sections is None:
            # The manuscript hands on the Section objects an edit did not touch: their keys stand.
            previous = self.engine._section_keys
            self._sections = []
            for section in self.project.manuscript.sections:
                known = previous.get(id(section))
                keys = known[1] if known is not None and known[0] is section else self.section_keys_of(section)
                self.section_keys[id(section)] = (section, keys)
                self._sections.append((section, keys))
        return self._sections

    def keys_list(self) -> list[_SectionKeys]:
        if self._keys_list is None:
            self._keys_list = [keys for _, keys in self.sections()]
        return self._keys_list

    def part_names(self, placed: bool) -> frozenset[str]:
        """Every section's part key (`placed`: by its text and place alone): what a combining rule carries over."""
        names = self._part_names.get(placed)
        if names is None:
            names = self._part_names[placed] = frozenset(keys.placed if placed else keys.part for keys in self.keys_list())
        return names

    def changed_since(self, before: list[_SectionKeys]) -> list[int] | None:
        """The positions whose section keys are not those of `before` (None: sections were added or removed)."""
        if id(before) not in self._changed:
            now = self.keys_list()
            same = len(now) == len(before)
            self._changed[id(before)] = (
                [place for place, (ours, theirs) in enumerate(zip(now, before)) if ours is not theirs] if same else None
            )
        return self._changed[id(before)]

    def placed_digest(self) -> str:
        """Every section's text and place, in order: what a combine of them all is kept under."""
        if self._placed_digest is None:
            self._placed_digest = value_hash([keys.placed for keys in self.keys_list()])
        return self._placed_digest

    def section_keys_of(self, section: Section) -> _SectionKeys:
        """What a section rule's results depend on: the section's raw text and where each run
        of it starts (line, UTF-16 column), its blocks within that text, its heading and kind."""
        runs = []
        lines = []
        origin: dict[str, int] = {}
        for run in section.runs:
            source = self.project.source(run.file)
            origin.setdefault(run.file, run.start)
            cache_key = (source.hash, run.start, run.end)
            key = self.engine._run_keys.get(cache_key) or self.run_keys.get(cache_key)
            if key is None:
                key = (run.file, source.position(run.start), content_hash(source.text[run.start : run.end]))
            self.run_keys[cache_key] = key
            runs.append(key)
            lines.append((run.file, key[1][0], source.line_of(max(run.start, run.end - 1))))
        blocks = [
            (placed.file, placed.block.start - origin.get(placed.file, 0), placed.block.end - placed.block.start, placed.kind.value)
            for placed in section.blocks
        ]
        heading = (section.id, section.title, section.level, section.kind.value, section.in_appendix)
        columns = [(file, position[1], text_hash) for file, position, text_hash in runs]
        placed = value_hash((*heading, runs, blocks))
        starts = [run.start for run in section.runs]
        return _SectionKeys(placed, value_hash((*heading, columns, blocks)), tuple(lines), value_hash((placed, starts)))


def _fed_digest(fed: object | None) -> str | None:
    return None if fed is None else value_hash(fed)


def _fingerprinted(findings: Iterable[Finding]) -> list[Finding]:
    return [finding.with_fingerprint() for finding in findings]


def _moved(findings: list[Finding], then: _Lines, now: _Lines) -> list[Finding]:
    """A section's findings computed where its runs lay `then`, at the lines they lie on `now` (same text)."""

    def shift(file: str, range_: Range) -> Range:
        for (run_file, first, last), (_, first_now, _) in zip(then, now):
            if run_file == file and first <= range_.start.line <= last:
                delta = first_now - first
                return Range.of(range_.start.line + delta, range_.start.character, range_.end.line + delta, range_.end.character)
        return range_

    return [finding.placed(shift) for finding in findings]
