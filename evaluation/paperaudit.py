"""PaperAudit-Bench: Error Coverage, Finding Precision and Macro-F1 (§5.1).

Per paper i, with GT errors and findings matched by a conservative judge (Table 21):

    EC_i = #matched GT errors / #GT errors      FP_i = #matched findings / #all findings
    F1_i = 2 EC_i FP_i / (EC_i + FP_i)          Macro-F1 = mean over papers of F1_i

EC and FP are reported as means of the paper-level values. A paper with no findings
has FP_i = 0, and F1_i = 0 when EC_i + FP_i = 0. Papers without GT errors have no
EC_i and are left out. The paper breaks EC down by error type (Table 6) and by
section (Fig. 7); we break all three down the same way: restrict the paper to the
GT errors of the group (corruption_type, or location) and the findings that claim
it (type, or section), then average over the papers that have GT errors there.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .judge import TextCompleter, ask, parse_json_object
from .predictions import Prediction

ERROR_TYPES = (
    "Evidence Manipulation (EM)",
    "Method Logic Errors (ML)",
    "Experiment Protocol Flaws (EP)",
    "Claim Distortion (CD)",
    "Context Misalignment (CM)",
    "Reference Fabrication (RF)",
    "Ethical Omission (EO)",
    "Rhetoric Bias (RB)",
)


# --- the dataset ---------------------------------------------------------------


class ContentBlock(BaseModel):
    model_config = ConfigDict(extra="ignore")
    index: int
    section: str = ""
    type: str = "text"
    text: str | None = None


class EditPatch(BaseModel):
    """One injected error, as the corruption generator emits it (Table 16)."""

    model_config = ConfigDict(extra="ignore")
    target_find: str
    replacement: str
    corruption_type: str
    location: str = ""
    error_explanation: str = ""


class PaperAuditPaper(BaseModel):
    paper_id: str
    content: list[ContentBlock]
    patches: list[EditPatch] = Field(default_factory=list)

    def corrupted_content(self) -> tuple[list[ContentBlock], list[EditPatch]]:
        """Apply each patch at the first verbatim match in the text blocks; also return the unapplied."""
        blocks = [block.model_copy() for block in self.content]
        unapplied: list[EditPatch] = []
        for patch in self.patches:
            target = next((b for b in blocks if b.text and patch.target_find in b.text), None)
            if target is None or not patch.target_find:
                unapplied.append(patch)
                continue
            target.text = target.text.replace(patch.target_find, patch.replacement, 1)  # type: ignore[union-attr]
        return blocks, unapplied

    def applied_patches(self) -> list[EditPatch]:
        """The ground truth: the patches that really changed the paper. A patch whose target text
        is not in the paper (or was already changed by an earlier patch) injected no error."""
        _, unapplied = self.corrupted_content()
        failed = {id(patch) for patch in unapplied}
        return [patch for patch in self.patches if id(patch) not in failed]


class DatasetError(ValueError):
    """A dataset file we cannot read; the message names the file and the problem."""


_PATCH_KEYS = ("edits", "patches", "ground_truth")


def load_paperaudit_paper(path: Path, patches_path: Path | None = None) -> PaperAuditPaper:
    """Read one paper: a JSON object with `content` blocks and its patches under
    `edits`/`patches`/`ground_truth`, or in a separate patches file."""
    data = read_json(path)
    if not isinstance(data, dict) or "content" not in data:
        raise DatasetError(f"{path}: expected a JSON object with a 'content' list of blocks")
    patch_source = read_json(patches_path) if patches_path else data
    if isinstance(patch_source, dict):
        patches: Any = next((patch_source[key] for key in _PATCH_KEYS if key in patch_source), [])
    else:
        patches = patch_source
    try:
        return PaperAuditPaper(paper_id=str(data.get("paper_id") or data.get("id") or path.stem), content=data["content"], patches=patches)
    except ValidationError as error:
        raise DatasetError(f"{path}: {error.error_count()} invalid field(s): {error.errors()[0]['msg']}") from error


def load_paperaudit_dir(directory: Path) -> list[PaperAuditPaper]:
    """Every `*.json` in the directory is one paper, in name order."""
    if not directory.is_dir():
        raise DatasetError(f"{directory}: not a directory")
    return [load_paperaudit_paper(path) for path in sorted(directory.glob("*.json"))]


def read_json(path: Path) -> object:
    """A dataset file's JSON; any problem is a DatasetError naming the file."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DatasetError(f"{path}: cannot read ({error.strerror})") from error
    except json.JSONDecodeError as error:
        raise DatasetError(f"{path}: not valid JSON (line {error.lineno}: {error.msg})") from error


# --- matching findings to ground truth -------------------------------------------


@dataclass(frozen=True)
class Matching:
    """Which GT errors and which findings the judge matched, by index."""

    matched_errors: frozenset[int]
    matched_findings: frozenset[int]
    parsed: bool = True


def parse_matching(text: str, n_errors: int, n_findings: int) -> Matching | None:
    """Table 21's `matches` list; a GT counts only with `matched: true` and a valid finding index.

    Out-of-range or non-integer indices are dropped. None when there is no `matches` list.
    """
    answer = parse_json_object(text)
    if answer is None or not isinstance(answer.get("matches"), list):
        return None
    errors: set[int] = set()
    findings: set[int] = set()
    for item in answer["matches"]:
        if not isinstance(item, dict) or item.get("matched") is not True:
            continue
        gt_index = item.get("gt_index")
        if not _is_index(gt_index, n_errors):
            continue
        indices = {i for i in item.get("matched_pred_indices") or [] if _is_index(i, n_findings)}
        if indices:
            errors.add(gt_index)
            findings |= indices
    return Matching(frozenset(errors), frozenset(findings))


def _is_index(value: object, size: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


def _finding_json(finding: Prediction) -> dict[str, str | None]:
    return {
        "type": finding.type,
        "section_location": finding.section,
        "error_location": finding.quote,
        "explanation": finding.explanation or finding.title,
    }


async def match_findings(completer: TextCompleter, patches: Sequence[EditPatch], findings: Sequence[Prediction]) -> Matching:
    """One Table 21 call per paper; an unparseable answer matches nothing."""
    if not patches or not findings:
        return Matching(frozenset(), frozenset())
    raw = await ask(
        completer,
        "paperaudit_matching",
        error_types=", ".join(ERROR_TYPES),
        ground_truth=json.dumps([p.model_dump() for p in patches], ensure_ascii=False, indent=1),
        predictions=json.dumps([_finding_json(f) for f in findings], ensure_ascii=False, indent=1),
    )
    matching = parse_matching(raw, len(patches), len(findings))
    return matching if matching is not None else Matching(frozenset(), frozenset(), parsed=False)


# --- the metrics -------------------------------------------------------------------


@dataclass(frozen=True)
class PaperScore:
    error_coverage: float
    finding_precision: float

    @property
    def f1(self) -> float:
        total = self.error_coverage + self.finding_precision
        return 0.0 if total == 0 else 2 * self.error_coverage * self.finding_precision / total


def paper_score(n_errors: int, n_matched_errors: int, n_findings: int, n_matched_findings: int) -> PaperScore:
    if n_errors <= 0:
        raise ValueError("EC is undefined for a paper without ground-truth errors")
    precision = n_matched_findings / n_findings if n_findings else 0.0
    return PaperScore(error_coverage=n_matched_errors / n_errors, finding_precision=precision)


@dataclass(frozen=True)
class DetectionScores:
    n_papers: int
    error_coverage: float
    finding_precision: float
    macro_f1: float


def average_scores(scores: Sequence[PaperScore]) -> DetectionScores:
    n = len(scores)
    if n == 0:
        return DetectionScores(0, 0.0, 0.0, 0.0)
    return DetectionScores(
        n_papers=n,
        error_coverage=sum(s.error_coverage for s in scores) / n,
        finding_precision=sum(s.finding_precision for s in scores) / n,
        macro_f1=sum(s.f1 for s in scores) / n,
    )


@dataclass(frozen=True)
class MatchedPaper:
    """One paper after judging: its ground truth, its findings, and the judge's matching."""

    patches: Sequence[EditPatch]
    findings: Sequence[Prediction]
    matching: Matching


def normalise_label(label: str | None) -> str:
    """Group key for types and sections: 'Method Logic', 'method_logic', '3 Method-Logic' agree."""
    text = re.sub(r"^[\d.\s]+", "", (label or "").strip().lower())
    return re.sub(r"[^a-z0-9]+", "_", text).strip("_")


def _group_score(
    paper: MatchedPaper,
    group: str,
    gt_key: Callable[[EditPatch], str | None],
    finding_key: Callable[[Prediction], str | None],
) -> PaperScore | None:
    errors = [i for i, p in enumerate(paper.patches) if normalise_label(gt_key(p)) == group]
    if not errors:
        return None
    findings = [i for i, f in enumerate(paper.findings) if normalise_label(finding_key(f)) == group]
    return paper_score(
        n_errors=len(errors),
        n_matched_errors=sum(i in paper.matching.matched_errors for i in errors),
        n_findings=len(findings),
        n_matched_findings=sum(i in paper.matching.matched_findings for i in findings),
    )


def scores_by_group(
    papers: Sequence[MatchedPaper],
    gt_key: Callable[[EditPatch], str | None],
    finding_key: Callable[[Prediction], str | None],
) -> dict[str, DetectionScores]:
    groups: Iterable[str] = sorted({normalise_label(gt_key(p)) for paper in papers for p in paper.patches})
    result: dict[str, DetectionScores] = {}
    for group in groups:
        scores = [s for paper in papers if (s := _group_score(paper, group, gt_key, finding_key)) is not None]
        result[group] = average_scores(scores)
    return result


@dataclass(frozen=True)
class PaperAuditReport:
    overall: DetectionScores
    by_type: dict[str, DetectionScores]
    by_section: dict[str, DetectionScores]
    skipped_without_ground_truth: int
    judge_failures: int


def score_matched(papers: Sequence[MatchedPaper]) -> PaperAuditReport:
    """EC / FP / Macro-F1 overall, per error type and per section, from judged papers."""
    with_gt = [p for p in papers if p.patches]
    overall = [
        paper_score(len(p.patches), len(p.matching.matched_errors), len(p.findings), len(p.matching.matched_findings)) for p in with_gt
    ]
    return PaperAuditReport(
        overall=average_scores(overall),
        by_type=scores_by_group(with_gt, lambda p: p.corruption_type, lambda f: f.type),
        by_section=scores_by_group(with_gt, lambda p: p.location, lambda f: f.section),
        skipped_without_ground_truth=len(papers) - len(with_gt),
        judge_failures=sum(not p.matching.parsed for p in papers),
    )


async def evaluate_paperaudit(
    papers: Sequence[PaperAuditPaper], findings_by_paper: dict[str, Sequence[Prediction]], completer: TextCompleter
) -> PaperAuditReport:
    """Judge every paper's findings against its applied patches (Table 21), then score (§5.1).

    A patch that failed to apply injected no error, so it is not in the ground truth: counting
    it would charge the detector with missing an error the paper does not contain.
    """
    ground_truth = [p.applied_patches() for p in papers]
    matchings = await asyncio.gather(
        *(match_findings(completer, truth, findings_by_paper.get(p.paper_id, ())) for p, truth in zip(papers, ground_truth, strict=True))
    )
    return score_matched(
        [MatchedPaper(truth, findings_by_paper.get(p.paper_id, ()), m) for p, truth, m in zip(papers, ground_truth, matchings, strict=True)]
    )
