"""The findings policy: what the user sees of what the detectors found, and in which order.

Rule findings, LLM findings and online BIB findings all pass through `Policy.apply`, in the
engine, the editor's LLM merge, `audit`, `review`, `bench` and reference verification, so
that `.auditex.toml`, the command-line options, `% auditex: ignore[CODE]` comments and
dismissals mean the same everywhere. The steps, in order:

1. exclude: findings in `[rules] exclude` files are dropped;
2. select/ignore: findings whose code is not selected, or is ignored, are dropped (rules
   that are not selected do not even run; this catches the LLM and online codes). A
   selection of rules alone leaves the LLM codes be: they are selected only by an `LLM` prefix;
3. suppression: `% auditex: ignore[CODE]` on the finding's line or the line above;
4. severity: the evidence's (`Finding.calibrated_severity`), then `[rules] severity`;
5. de-duplication: a second finding with one fingerprint gets a numbered one;
6. dismissals (`.auditex/dismissed.json`);
7. `min-severity`: findings below it are dropped (their fingerprints are already numbered,
   so filtering never renumbers what is shown).

`report_order` is the one order every output uses, and `merged` the one rule that puts the
findings of the three sources (rules, online verification, LLM audit) together.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Iterable
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from .dismissals import Dismissals
from .finding import Finding, Severity, Source
from .project_config import Config, did_you_mean, load_config
from .registry import is_selected
from .suppression import is_suppressed, suppressed_lines

if TYPE_CHECKING:
    from ..latex.project import Project

# Hidden instructions, unsafe archive members and reads outside the project lead every report.
LEADING_CODES = ("SEC", "SUB", "INC003")
LLM_PREFIX = "LLM"


_Order = tuple[bool, str, int, int, str, str]


def report_order(finding: Finding) -> _Order:
    """Leading codes first, then by file and position; code and message break ties."""
    start = finding.range.start
    return (not finding.code.startswith(LEADING_CODES), finding.file, start.line, start.character, finding.code, finding.message)


def in_report_order(ordered: list[Finding], more: list[Finding]) -> list[Finding]:
    """`sorted([*ordered, *more], key=report_order)` for `ordered` already in report order. A few more (what an
    edit's first stage adds to hundreds) are placed by bisection, without the order of every finding taken again."""
    size = len(ordered) + len(more)
    if len(more) * (1 + size.bit_length()) >= size:
        return sorted([*ordered, *more], key=report_order)
    placed = list(ordered)
    for finding in sorted(more, key=report_order):
        insort(placed, finding, key=report_order)  # after its equals: where the stable sort puts it
    return placed


def severity_order(finding: Finding) -> tuple[object, ...]:
    """Most severe first, then `report_order`: the text report's order."""
    return (-finding.severity.rank, *report_order(finding))


class Policy:
    """One folder's policy: its config and dismissals, and the suppression comments of its files."""

    def __init__(self, config: Config | None = None, dismissals: Dismissals | None = None) -> None:
        self.config = config or Config()
        self.dismissals = dismissals
        self._suppressions: dict[str, tuple[str, dict[int, frozenset[str]]]] = {}
        # id of a finding → what the settings and its file's comments make of it: the engine hands on the
        # findings of the rules and sections an edit did not reach, so a keystroke decides only the new ones.
        self._decided: dict[int, _Decision] = {}
        # id of a rule's list of findings → its findings decided: the engine hands on the lists of the rules whose
        # units an edit did not reach, so those are decided without a step per finding.
        self._groups: dict[int, _GroupDecision] = {}

    @classmethod
    def of_folder(cls, folder: Path, config: Config | None = None) -> Policy:
        """The policy a project folder declares: `.auditex.toml` (unless `config` is given) and its dismissals."""
        return cls(config or load_config(folder), Dismissals(folder))

    def apply(self, project: Project, findings: Iterable[Finding], partial: bool = False) -> list[Finding]:
        """`findings` of `project` as the user sees them, in `report_order`. A `partial` check's findings (a staged
        check's first stage) are decided beside the others' decisions, which the full check after it reads again."""
        return self.apply_grouped(project, [list(findings)], partial)

    def apply_grouped(self, project: Project, groups: Iterable[list[Finding]], partial: bool = False) -> list[Finding]:
        """`apply` to the findings of `groups` in turn. A group is one rule's findings as the engine keeps them: the
        same list at the next check is decided as a whole (a keystroke hands on most rules' lists as they were)."""
        suppressions: dict[str, dict[int, frozenset[str]]] = {}
        kept_groups: dict[int, _GroupDecision] = {}
        decided: dict[int, _Decision] = {}
        shown: list[tuple[_Order, Finding]] = []
        for group in groups:
            known = self._groups.get(id(group))
            if known is None or known.group is not group or not self._same_suppressions(project, known.suppressions, suppressions):
                known = self._decide(project, group, suppressions, decided)
            kept_groups[id(group)] = known
            shown += known.shown
        # A full check keeps only what it saw (findings of units gone are let go); a partial one keeps the rest too.
        self._decided = self._decided | decided if partial else decided
        self._groups = self._groups | kept_groups if partial else kept_groups
        shown.sort(key=itemgetter(0))
        return self._numbered(list(map(itemgetter(1), shown)))

    def _decide(
        self, project: Project, group: list[Finding], suppressions: dict[str, dict[int, frozenset[str]]], decided: dict[int, _Decision]
    ) -> _GroupDecision:
        """A group's findings decided one by one, each decision kept while the finding and its file's comments are."""
        shown: list[tuple[_Order, Finding]] = []
        files: dict[str, dict[int, frozenset[str]]] = {}
        for finding in group:
            finding = finding.with_fingerprint()
            lines = files.get(finding.file)
            if lines is None:
                lines = files[finding.file] = self._suppressions_of(project, finding.file, suppressions)
            known = self._decided.get(id(finding))
            if known is None or known.finding is not finding or known.suppressions is not lines:
                known = _Decision(finding, lines, report_order(finding), self._shown(finding, lines))
            decided[id(finding)] = known
            if known.shown is not None:
                shown.append((known.order, known.shown))
        return _GroupDecision(group, tuple(files.items()), shown)

    def _same_suppressions(
        self, project: Project, decided_under: tuple[tuple[str, dict[int, frozenset[str]]], ...], now: dict[str, dict[int, frozenset[str]]]
    ) -> bool:
        """Whether each file a group's findings lie in has the suppression comments the group was decided under."""
        return all(self._suppressions_of(project, file, now) is lines for file, lines in decided_under)

    def _suppressions_of(self, project: Project, file: str, now: dict[str, dict[int, frozenset[str]]]) -> dict[int, frozenset[str]]:
        lines = now.get(file)
        if lines is None:
            lines = now[file] = self._suppressed(project, file)
        return lines

    def _numbered(self, shown: list[Finding]) -> list[Finding]:
        """The shown findings less the dismissed and those below `min-severity`, a second finding with one
        fingerprint given a numbered one (same identity twice in a file: both kept, distinguishably). Counted
        without a step per finding: a keystroke's check shows hundreds, and repeats only a few."""
        fingerprints = list(map(attrgetter("fingerprint"), shown))
        counted = Counter(fingerprints)
        if len(counted) < len(shown):
            seen: dict[str, int] = {}
            for place in [place for place, fingerprint in enumerate(fingerprints) if counted[fingerprint] > 1]:
                times = seen[fingerprints[place]] = seen.get(fingerprints[place], 0) + 1
                if times > 1:
                    shown[place] = shown[place].model_copy(update={"fingerprint": f"{fingerprints[place]}-{times}"})
        dismissals, lowest = self.dismissals, self.config.rules.min_severity
        if dismissals:  # most folders dismiss nothing: no look-up per finding then
            shown = [finding for finding in shown if not dismissals.is_dismissed(finding.fingerprint)]
        if lowest is not None:
            shown = [finding for finding in shown if finding.severity.rank >= lowest.rank]
        return shown

    def _shown(self, finding: Finding, suppressions: dict[int, frozenset[str]]) -> Finding | None:
        """The finding with the severity it is shown at, or None when the settings or a comment leave it out."""
        rules = self.config.rules
        names_llm = any(prefix.upper().startswith(LLM_PREFIX) for prefix in rules.select)
        select = rules.select if names_llm or not finding.code.startswith(LLM_PREFIX) else ()
        if not is_selected(finding.code, select, rules.ignore) or self.config.is_excluded(finding.file):
            return None
        if is_suppressed(finding.code, finding.range.start.line, suppressions):
            return None
        severity = self.config.severity_for(finding.code, finding.calibrated_severity())
        return finding if severity is finding.severity else finding.model_copy(update={"severity": severity})

    def _suppressed(self, project: Project, file: str) -> dict[int, frozenset[str]]:
        if not project.contains(file):
            return {}
        source = project.source(file)
        cached = self._suppressions.get(file)
        if cached is None or cached[0] != source.hash:
            cached = (source.hash, suppressed_lines(source))
            self._suppressions[file] = cached
        return cached[1]


class _Decision(NamedTuple):
    finding: Finding
    suppressions: dict[int, frozenset[str]]  # its file's suppression comments it was decided under
    order: _Order  # its `report_order`
    shown: Finding | None  # as shown, its severity settled; None: left out


class _GroupDecision(NamedTuple):
    group: list[Finding]
    suppressions: tuple[tuple[str, dict[int, frozenset[str]]], ...]  # each of its files' comments it was decided under
    shown: list[tuple[_Order, Finding]]  # its findings shown, with their `report_order`


def distinct(findings: Iterable[Finding]) -> list[Finding]:
    """Findings of several projects of one folder, each once (shared files), in `report_order`."""
    unique: dict[str, Finding] = {}
    for finding in findings:
        unique.setdefault(finding.fingerprint, finding)
    return sorted(unique.values(), key=report_order)


def merged(
    rules: Iterable[Finding], others: Iterable[Finding] = (), judged: Iterable[Finding] = (), refuted: Iterable[str] = ()
) -> list[Finding]:
    """The findings of every source as one report, in `report_order`: what every front end shows.

    `others` are the other sources' own findings; `judged` are findings as a source that judges
    others reports them (an audit's verifier confirmed a rule finding), and `refuted` the
    fingerprints such a source rejected.
    1. The refuted findings are left out.
    2. One finding per fingerprint: a fingerprint names one finding whichever source reports it.
       A judged finding wins, since it carries the verdict.
    3. An LLM finding that repeats a rule or online finding (`repeats`) is left out: the
       deterministic one is reproducible and carries the fixes. An audit drops such repeats as it
       runs; here they are dropped again because the text, and so the rule findings, moved since.
    """
    left_out = set(refuted)
    chosen: dict[str, Finding] = {}
    for finding in (*judged, *rules, *others):
        if finding.fingerprint not in left_out:
            chosen.setdefault(finding.fingerprint, finding)
    deterministic = [finding for finding in chosen.values() if finding.source is not Source.LLM]
    kept = [
        finding
        for finding in chosen.values()
        if finding.source is not Source.LLM or not any(repeats(finding, known) for known in deterministic)
    ]
    return sorted(kept, key=report_order)


def repeats(finding: Finding, known: Finding) -> bool:
    """`finding` says what `known` says: same file and category, overlapping ranges."""
    if known.file != finding.file or known.category is not finding.category:
        return False
    a, b = finding.range, known.range
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (b.start.line, b.start.character) <= (
        a.end.line,
        a.end.character,
    )


def at_least(finding: Finding, threshold: Severity) -> bool:
    return finding.severity.rank >= threshold.rank


def unknown_codes(config: Config, known: Iterable[str]) -> list[str]:
    """Warnings for `[rules]` codes (select, ignore, severity) that name no known code: likely typos."""
    known = list(known)
    warnings = []
    for key, codes in (("select", config.rules.select), ("ignore", config.rules.ignore), ("severity", config.rules.severity)):
        for code in codes:
            if not any(name.startswith(code.upper()) for name in known):
                warnings.append(
                    f"unknown code '{code}' in {key}: no code starts with it{did_you_mean(code.upper(), known)}; `auditex rules` lists them"
                )
    return warnings
