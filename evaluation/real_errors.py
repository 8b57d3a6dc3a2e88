"""Recall on real errors: auditex's findings matched to the careful-reader ledger (tests/real_errors/).

The ledger holds what readers verified wrong in each corpus paper, one TOML file per paper (see
tests/real_errors/README.md). A finding catches a ledger problem when it lies in the problem's file
(or the file of its other side) within `LINE_SLACK` lines of it, and its code is one that the
problem's kind maps to (`KIND_CODES`; an LLM finding may catch any kind). Recall is counted per
kind, at information-or-above and at warning-or-above, for all problems, for those marked
decidable by a deterministic check, and for the held-out fifth apart.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..analyzers.finding import Finding, Severity
from ..analyzers.llm.source import LLMAuditSource, audit_results
from ..analyzers.path_check import check_path
from ..analyzers.session import Session

LINE_SLACK = 2

# Which codes can catch a problem of each kind: a code prefix (a family) or a whole code. An audit's
# findings (LLM-*) catch any kind; kinds that only an audit can judge map to nothing else.
KIND_CODES: dict[str, tuple[str, ...]] = {
    # STAT019: a Mean (or Median) column or row of a descriptive-statistics table outside its row's Min and Max
    "table-aggregate": ("TAB001", "TAB008", "ARI", "STAT019"),
    "derived-value": ("ARI", "NUM003", "NUM016", "TAB004", "TAB015"),  # TAB015: a derived column against its note's definition
    "parts-vs-total": ("ARI", "STAT005", "NUM003", "TAB005"),
    "confusion-matrix": ("ARI",),
    "prose-vs-table": (
        "ARI004",  # a gap the prose states between two rows that the table's cells do not give
        "CNT006",  # a whole count the prose states against the table's N or Total
        "NUM001",
        "NUM004",
        "NUM007",
        "NUM008",
        "NUM010",
        "NUM011",
        "NUM013",
        "NUM014",
        "NUM015",
        "NUM016",  # a range or an "up to" of the gains the prose states against the cited table's rows
        "NUM017",  # a range or an extreme of a variable against its row of summary statistics (Min, Max, SD)
        "NUM019",  # a mean of a line of a cited table or figure, beside another mean of the sentence that is its line's
        "NUM020",  # a bound stated of every value of a cited table's column ("none of ... log BF < 0") that a cell breaks
        "NUM022",  # a value the prose gives a symbol against the cell the symbol and the sentence's other header name
        "TAB003",
        "TAB007",
        "TAB008",
        "TAB009",
        "TAB013",  # a caption's claim that every result is significant against the table's p-values
    ),
    "prose-vs-figure-or-list": ("NUM001", "NUM019", "CNT001", "ARI004"),  # ARI004: a factor between two plotted points (pgfplots)
    "count-claim": ("CNT", "NUM006"),  # a count against the items it names, or against the same count restated
    # NUM021: a rate stated under one name of a complementary pair and its table's complement ("failure" against "Success Rate");
    # NUM022: a value the prose gives a symbol against the cell the symbol keys; NUM023: one setting of one float's experiment
    # stated with two values; STAT018: the analysed sample stated in the prose against the one a test's degrees of freedom give;
    # NUM024: a training setting stated in the prose against the settings table's row for it
    "same-quantity-two-values": (
        "NUM002",
        "NUM005",
        "NUM006",
        "NUM008",
        "NUM009",
        "NUM018",
        "NUM021",
        "NUM022",
        "NUM023",
        "NUM024",
        "CNT006",
        "STAT018",
    ),
    # ARI019: an abstract's relative effect that the body's regression tables over their control means do not give
    "abstract-vs-body": ("NUM002", "NUM005", "NUM006", "NUM008", "NUM014", "CNT006", "ARI019"),
    "bold-not-best": ("TAB002", "TAB006", "TAB016"),
    "direction-claim": ("TAB002", "TAB003", "TAB007", "TAB009", "TAB010", "TAB011", "TAB012", "TAB014", "TAB017", "STAT014"),
    "interval": ("STAT",),
    "significance-wording": ("STAT", "TAB013"),
    "statistic-p-mismatch": ("STAT001", "STAT002", "STAT011", "STAT013"),
    "statistic-format": ("STAT",),
    "placeholder": ("DRF",),
    "label-before-caption": ("DRF",),
    "hardcoded-reference": ("DRF",),
    "acronym-inconsistent": ("NOT",),
    "notation-inconsistent": ("NOT",),
    # a unit of the wrong dimension; a written computation that does not recompute; a formula whose braces do not pair;
    # a sum or set whose bound index its formula never writes; a normal density without its minus; a derived column's
    # definition that its rows reverse
    "equation-error": ("NOT009", "NOT011", "NOT012", "ARI010", "INC004", "TAB015"),
    "claim-contradiction": ("TAB003", "TAB007", "TAB010", "TAB014", "TAB017"),  # a claim made of every line that one line reverses
    "citation-misuse": ("DRF011",),  # a work credited by name to the author of another entry
    # a caption copied onto another float; a difference stated against its own test; floats paired "respectively" in swapped
    # order; a reference whose sentence describes another float
    "other": ("DRF010", "DRF012", "DRF013", "STAT016"),
}
KINDS = tuple(KIND_CODES)
LLM_PREFIX = "LLM-"


class LedgerError(ValueError):
    """A ledger file that does not say what the format asks, with the file and the field."""


@dataclass(frozen=True)
class Problem:
    paper: str
    file: str
    line: int  # 1-based, as a reader writes it
    kind: str
    evidence: str
    decidable: bool
    other: str = ""  # "file:line" of the other side, when there is one
    # Found by a second reading, after the rules were written: no rule was built for it, and none may be.
    after_rules: bool = False

    @property
    def places(self) -> list[tuple[str, int]]:
        places = [(self.file, self.line)]
        file, _, line = self.other.rpartition(":")
        if file and line.isdigit():
            places.append((file, int(line)))
        return places

    def caught_by(self, finding: Finding) -> bool:
        if not _may_catch(self.kind, finding.code):
            return False
        line = finding.range.start.line + 1
        return any(finding.file == file and abs(line - at) <= LINE_SLACK for file, at in self.places)


def _may_catch(kind: str, code: str) -> bool:
    return code.startswith(LLM_PREFIX) or any(code.startswith(prefix) for prefix in KIND_CODES[kind])


@dataclass
class Ledger:
    papers: dict[str, list[Problem]] = field(default_factory=dict)  # every paper read, with its problems
    held_out: frozenset[str] = frozenset()

    @property
    def problems(self) -> list[Problem]:
        return [problem for problems in self.papers.values() for problem in problems]


def load_ledger(folder: Path) -> Ledger:
    """Every `<paper>.toml` of `folder` and its `held_out.txt`; a malformed file raises LedgerError naming it."""
    ledger = Ledger()
    for path in sorted(folder.glob("*.toml")):
        ledger.papers[path.stem] = _paper_problems(path)
    held_out = folder / "held_out.txt"
    if held_out.is_file():
        lines = (line.strip() for line in held_out.read_text(encoding="utf-8").splitlines())
        ledger.held_out = frozenset(line for line in lines if line and not line.startswith("#"))
    return ledger


def _paper_problems(path: Path) -> list[Problem]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise LedgerError(f"{path.name}: not valid TOML: {error}") from error
    if data.get("paper") != path.stem:
        raise LedgerError(f"{path.name}: paper = {data.get('paper')!r}, but the file is named for {path.stem!r}")
    problems = []
    for number, raw in enumerate(data.get("problem", []), 1):
        where = f"{path.name}, problem {number}"
        missing = [key for key in ("file", "line", "kind", "evidence", "decidable") if key not in raw]
        if missing:
            raise LedgerError(f"{where}: missing {', '.join(missing)}")
        if raw["kind"] not in KIND_CODES:
            raise LedgerError(f"{where}: kind {raw['kind']!r} is not one of the ledger's kinds ({', '.join(KINDS)})")
        if not isinstance(raw["line"], int) or raw["line"] < 1:
            raise LedgerError(f"{where}: line must be a 1-based line number, not {raw['line']!r}")
        problems.append(
            Problem(
                path.stem,
                raw["file"],
                raw["line"],
                raw["kind"],
                raw["evidence"],
                bool(raw["decidable"]),
                raw.get("other", ""),
                bool(raw.get("after_rules", False)),
            )
        )
    return problems


@dataclass(frozen=True)
class Recall:
    problems: int
    informed: int  # caught by a finding at information or above
    warned: int  # caught by a warning or an error

    def plus(self, other: Recall) -> Recall:
        return Recall(self.problems + other.problems, self.informed + other.informed, self.warned + other.warned)

    @staticmethod
    def share(part: int, whole: int) -> float | None:
        return part / whole if whole else None


NO_RECALL = Recall(0, 0, 0)


def catching(problem: Problem, findings: Iterable[Finding], floor: Severity) -> Finding | None:
    """The most severe finding at `floor` or above that catches `problem`."""
    caught = [finding for finding in findings if finding.severity.rank >= floor.rank and problem.caught_by(finding)]
    return max(caught, key=lambda finding: finding.severity.rank, default=None)


def recall_of(problems: Iterable[Problem], findings: Mapping[str, list[Finding]]) -> Recall:
    total = NO_RECALL
    for problem in problems:
        paper = findings.get(problem.paper, [])
        informed = catching(problem, paper, Severity.INFORMATION) is not None
        warned = catching(problem, paper, Severity.WARNING) is not None
        total = total.plus(Recall(1, int(informed), int(warned)))
    return total


def recall_table(ledger: Ledger, findings: Mapping[str, list[Finding]]) -> dict[str, object]:
    """Recall per kind and overall, for all problems, the decidable ones, and the seen and held-out papers; and
    apart, for the problems a second reading found after the rules were written (none of them counts above)."""
    read = [problem for problem in ledger.problems if problem.paper in findings]
    checked = [problem for problem in read if not problem.after_rules]
    second = [problem for problem in read if problem.after_rules]
    groups = {
        "all": checked,
        "decidable": [problem for problem in checked if problem.decidable],
        "seen": [problem for problem in checked if problem.paper not in ledger.held_out],
        "held_out": [problem for problem in checked if problem.paper in ledger.held_out],
        **({"second_reading": second, "second_reading_decidable": [problem for problem in second if problem.decidable]} if second else {}),
    }
    per_kind = {
        kind: _row(recall_of([problem for problem in checked if problem.kind == kind], findings))
        for kind in KINDS
        if any(problem.kind == kind for problem in checked)
    }
    return {
        "papers": len(findings),
        "problems": len(checked),
        "overall": {name: _row(recall_of(group, findings)) for name, group in groups.items()},
        "per_kind": per_kind,
    }


def _row(recall: Recall) -> dict[str, object]:
    return {
        "problems": recall.problems,
        "informed": recall.informed,
        "warned": recall.warned,
        "information_or_above": Recall.share(recall.informed, recall.problems),
        "warning_or_above": Recall.share(recall.warned, recall.problems),
    }


def seen_misses(ledger: Ledger, findings: Mapping[str, list[Finding]], kinds: Iterable[str]) -> list[Problem]:
    """The problems of `kinds` on papers outside the held-out fifth that no finding catches at information or
    above: what rule work may read. The held-out papers' problems are never listed, nor a second reading's."""
    wanted = set(kinds)
    return [
        problem
        for problem in ledger.problems
        if problem.paper in findings
        and problem.paper not in ledger.held_out
        and not problem.after_rules
        and (not wanted or problem.kind in wanted)
        and catching(problem, findings[problem.paper], Severity.INFORMATION) is None
    ]


def caught_problems(ledger: Ledger, findings: Mapping[str, list[Finding]]) -> list[tuple[Problem, Finding]]:
    """Each problem caught at information or above, with the finding that catches it."""
    pairs = []
    for problem in ledger.problems:
        finding = catching(problem, findings.get(problem.paper, []), Severity.INFORMATION)
        if finding is not None:
            pairs.append((problem, finding))
    return pairs


async def bench_real_errors(
    ledger_folder: Path, corpus: Path, audit: Callable[[Session], LLMAuditSource] | None = None
) -> dict[str, object]:
    """`auditex bench real-errors`: each paper the ledger read, checked (and, given `audit`, audited by the
    source it makes for the paper's session), its findings matched to the ledger's problems."""
    if not corpus.is_dir():
        raise LedgerError(f"no corpus folder at {corpus}: pass --corpus, the folder holding the papers the ledger names")
    ledger = load_ledger(ledger_folder)
    if not ledger.papers:
        raise LedgerError(f"{ledger_folder} holds no ledger file (<paper>.toml)")
    findings: dict[str, list[Finding]] = {}
    for paper in ledger.papers:
        if not (corpus / paper).is_dir():
            continue
        session = check_path(corpus / paper)
        if audit is not None:
            async for _ in audit_results(session, audit(session)):
                pass
        findings[paper] = session.findings
    missing = len(ledger.papers) - len(findings)
    table = recall_table(ledger, findings)
    return {"benchmark": "real-errors", **table, **({"papers_missing_from_corpus": missing} if missing else {})}
