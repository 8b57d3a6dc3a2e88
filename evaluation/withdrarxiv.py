"""The WithdrarXiv-Check release (Zhang & Abernethy) read as it is, for replaying HR@k and AP@k.

The release (github.com/tianmai-zhang/WithdrarXiv-Check) holds, under `LLM_outputs/`:
- `checker_problems/checker_problems_<Checker>[_tex].json`: per test paper, an entry with
  `entry_id`, `paper_id`, `retraction_comment`, `checker_model` and `problems`, a list of
  `{"Problem", "Location", "Explanation"}` (PDF input, or `_tex` for LaTeX);
- `eval_hit/eval_hit_<Checker>[_tex]_<Judge>.json` and `eval_tp/eval_tp_<Checker>_<Judge>.json`:
  per judged problem, `entry_id`, `problem_id` (the index in `problems`), `judge_model`,
  `judge_response` (the raw answer) and the verdict `hit` or `true_positive`. A paper with no
  problem has one hit entry with `problem_id` null, which says nothing and is dropped.

Entries are matched by `entry_id`, as the authors' notebook does. A paper id that repeats in a
checker file (the release's Gemini 2.5 Pro PDF file holds entry 127's paper again as entry 128)
stays a separate paper, as the paper's tables count it, under the id `<paper_id>@entry<N>`, and
a note says so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from .critical import CheckedPaper, Question, VerdictRecord
from .predictions import Prediction

CHECKER_DIR, HIT_DIR, TP_DIR = "checker_problems", "eval_hit", "eval_tp"
CHECKER_NAMES = {
    "GeminiPro": "Gemini 2.5 Pro",
    "GeminiFlash": "Gemini 2.5 Flash",
    "o3": "o3",
    "o4mini": "o4-mini",
    "Claude": "Claude 3.7 Sonnet",
}
_CHECKER_FILE = re.compile(r"checker_problems_(?P<checker>.+?)(?P<tex>_tex)?\.json$")


class ReleaseError(ValueError):
    """A file that is not what the release holds; the message names it."""


def _load(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ReleaseError(f"{path}: cannot read ({error.strerror})") from error
    except json.JSONDecodeError as error:
        raise ReleaseError(f"{path}: not valid JSON (line {error.lineno}: {error.msg})") from error


def is_checker_file(data: object) -> TypeGuard[list[dict[str, Any]]]:
    return isinstance(data, list) and bool(data) and all(isinstance(e, dict) and "problems" in e and "entry_id" in e for e in data)


def is_verdict_file(data: object) -> TypeGuard[list[dict[str, Any]]]:
    return (
        isinstance(data, list)
        and bool(data)
        and all(isinstance(e, dict) and "judge_model" in e and ("hit" in e or "true_positive" in e) for e in data)
    )


def release_root(path: Path) -> Path | None:
    """The release folder at `path` (or `path/LLM_outputs` itself), else None."""
    for root in (path, path.parent):
        if (root / "LLM_outputs" / CHECKER_DIR).is_dir():
            return root
    return None


def _problem(raw: object, index: int) -> Prediction:
    fields = raw if isinstance(raw, dict) else {"Problem": str(raw)}
    return Prediction(
        title=str(fields.get("Problem") or ""),
        section=str(fields.get("Location") or "") or None,
        explanation=str(fields.get("Explanation") or ""),
        rank=index,
    )


@dataclass(frozen=True)
class CheckerOutputs:
    """One checker file: its papers, keyed so that the verdict files' `entry_id`s find them."""

    checker: str  # the checker model, as the entries name it
    papers: list[CheckedPaper]
    paper_of_entry: dict[int, str]  # entry_id -> paper_id used here
    notes: list[str] = field(default_factory=list)


def checker_outputs(entries: Sequence[Mapping[str, Any]], source: str) -> CheckerOutputs:
    """The release's checker entries as checked papers; a repeated paper id gets `@entry<N>`."""
    papers: list[CheckedPaper] = []
    paper_of_entry: dict[int, str] = {}
    first_entry: dict[str, int] = {}
    notes = []
    names = [str(e.get("checker_model") or "") for e in entries]
    for entry in entries:
        problems = entry.get("problems") or []
        if not isinstance(problems, list):
            raise ReleaseError(f"{source}: entry {entry.get('entry_id')}: 'problems' is not a list")
        entry_id = int(entry["entry_id"])
        paper_id = str(entry.get("paper_id") or entry_id)
        if paper_id in first_entry:
            notes.append(
                f"{source}: entry {entry_id} repeats paper {paper_id} of entry {first_entry[paper_id]}; "
                "kept as a separate paper, as the published tables count it"
            )
            paper_id = f"{paper_id}@entry{entry_id}"
        first_entry.setdefault(paper_id, entry_id)
        paper_of_entry[entry_id] = paper_id
        papers.append(
            CheckedPaper(
                paper_id=paper_id,
                retraction_comment=str(entry.get("retraction_comment") or ""),
                problems=[_problem(problem, index) for index, problem in enumerate(problems)],
            )
        )
    checker = max(set(names), key=names.count) if names else ""
    return CheckerOutputs(checker=checker, papers=papers, paper_of_entry=paper_of_entry, notes=notes)


def verdict_records(entries: Sequence[Mapping[str, Any]], paper_of_entry: Mapping[int, str] | None, source: str) -> list[VerdictRecord]:
    """The release's judge entries as verdict records (recorded verdict and raw answer both kept)."""
    records = []
    for entry in entries:
        if entry.get("problem_id") is None:  # a paper without problems: nothing was judged
            continue
        question: Question = "hit" if "hit" in entry else "true_positive"
        paper_id = str(entry.get("paper_id"))
        if paper_of_entry is not None:
            entry_id = int(entry["entry_id"])
            if entry_id not in paper_of_entry:
                raise ReleaseError(f"{source}: entry {entry_id} is not among the checker's entries")
            paper_id = paper_of_entry[entry_id]
        verdict = entry.get(question)
        answer = entry.get("judge_response")
        records.append(
            VerdictRecord(
                paper_id=paper_id,
                problem=int(entry["problem_id"]),
                judge=str(entry["judge_model"]),
                question=question,
                verdict=verdict if isinstance(verdict, bool) else None,
                answer=answer if isinstance(answer, str) else None,
            )
        )
    return records


@dataclass(frozen=True)
class ReleaseRun:
    """One configuration of Tables 2 and 3: a checker on PDF or LaTeX input, with its judges' verdicts."""

    name: str  # "o3", "o3_tex": the release's file stem
    checker: str  # "o3"
    input: str  # "PDF" or "LaTeX"
    papers: list[CheckedPaper]
    verdicts: list[VerdictRecord]
    files: list[str]  # the release files read, relative to the release folder
    notes: list[str] = field(default_factory=list)

    def replay_file(self) -> dict[str, Any]:
        """This configuration in auditex's replay format (see `runner.bench_critical`)."""
        return {
            "checker": self.checker,
            "input": self.input,
            "source": self.files,
            "papers": [
                {
                    "paper_id": p.paper_id,
                    "retraction_comment": p.retraction_comment,
                    "problems": [
                        {"title": q.title, "section": q.section, "explanation": q.explanation, "rank": q.rank} for q in p.problems
                    ],
                }
                for p in self.papers
            ],
            "verdicts": [record.model_dump(exclude_none=True) for record in self.verdicts],
        }


def load_release(root: Path) -> list[ReleaseRun]:
    """Every checker configuration the release holds, PDF ones first, in the tables' order."""
    outputs = root / "LLM_outputs"
    runs = []
    for path in sorted(
        (outputs / CHECKER_DIR).glob("checker_problems_*.json"),
        key=lambda p: (p.stem.endswith("_tex"), _table_order(p.stem)),
    ):
        match = _CHECKER_FILE.match(path.name)
        if match is None:
            continue
        stem = match.group("checker") + (match.group("tex") or "")
        entries = _load(path)
        if not is_checker_file(entries):
            raise ReleaseError(f"{path}: not a checker_problems file of the release")
        checker = checker_outputs(entries, path.name)
        files = [str(path.relative_to(root))]
        verdicts: list[VerdictRecord] = []
        for folder, prefix in ((HIT_DIR, "eval_hit"), (TP_DIR, "eval_tp")):
            for judge_file in sorted((outputs / folder).glob(f"{prefix}_{stem}_*.json")):
                judge_name = judge_file.stem[len(f"{prefix}_{stem}_") :]
                if judge_name.startswith("tex_") or "_" in judge_name:  # another configuration's file
                    continue
                data = _load(judge_file)
                if not is_verdict_file(data):
                    raise ReleaseError(f"{judge_file}: not an eval_hit/eval_tp file of the release")
                verdicts += verdict_records(data, checker.paper_of_entry, judge_file.name)
                files.append(str(judge_file.relative_to(root)))
        runs.append(
            ReleaseRun(
                name=stem,
                checker=checker.checker or CHECKER_NAMES.get(match.group("checker"), match.group("checker")),
                input="LaTeX" if match.group("tex") else "PDF",
                papers=checker.papers,
                verdicts=verdicts,
                files=files,
                notes=checker.notes,
            )
        )
    if not runs:
        raise ReleaseError(f"{outputs / CHECKER_DIR}: no checker_problems_*.json")
    return runs


def _table_order(stem: str) -> tuple[int, str]:
    base = stem.removeprefix("checker_problems_").removesuffix("_tex")
    order = list(CHECKER_NAMES)
    return (order.index(base) if base in order else len(order), base)
