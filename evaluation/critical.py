"""Zhang & Abernethy: critical-problem checkers scored by HR@k and AP@k with LLM judges.

§2.3: m judges each vote on every reported problem. A problem is a hit when the
judges vote "exactly the same problem" as the authors' retraction comment (App. A,
default No) by the chosen rule: all of them (the paper's setting, m = 2) or a
majority. HR@k is the share of papers with a hit among the top k problems.
AP@k is the mean over papers of the share of true positives among the top k
problems, a true positive being voted "a true problem" by the judges given the
paper (App. A, second prompt); a paper with no reported problem is skipped.
Several runs per paper (n_c > 1, MHR@k / MAP@k) are passed as separate papers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .judge import JudgeAnswer, TextCompleter, judge_yes_no
from .predictions import Prediction, top_k

VoteRule = Literal["all", "majority"]


@dataclass(frozen=True)
class CheckedPaper:
    paper_id: str
    retraction_comment: str  # the ground-truth problem statement
    problems: Sequence[Prediction]  # the checker's output, most critical first
    paper_text: str = ""  # what the true-positive judge reads


def votes_pass(votes: Sequence[bool], rule: VoteRule = "all") -> bool:
    """No votes never pass; "majority" means strictly more than half."""
    if not votes:
        return False
    yes = sum(votes)
    return yes == len(votes) if rule == "all" else yes * 2 > len(votes)


def hit_rate_at_k(hits_per_paper: Sequence[Sequence[bool]], k: int) -> float:
    """HR@k: the share of papers with a hit among their first k problems (0 for no papers)."""
    if not hits_per_paper:
        return 0.0
    return sum(any(hits[:k]) for hits in hits_per_paper) / len(hits_per_paper)


def average_precision_at_k(true_positives_per_paper: Sequence[Sequence[bool]], k: int) -> float | None:
    """AP@k: mean per-paper precision of the first k problems; None when no paper reported any."""
    precisions = [sum(tp[:k]) / len(tp[:k]) for tp in true_positives_per_paper if tp[:k]]
    if not precisions:
        return None
    return sum(precisions) / len(precisions)


def _problem_fields(problem: Prediction) -> dict[str, str]:
    return {
        "problem": problem.title or problem.explanation,
        "location": problem.section or "",
        "explanation": problem.explanation,
    }


async def _panel_verdict(judges: Sequence[TextCompleter], rule: VoteRule, prompt_name: str, **values: str) -> tuple[bool, int]:
    answers: list[JudgeAnswer[bool]] = await asyncio.gather(*(judge_yes_no(judge, prompt_name, **values) for judge in judges))
    return votes_pass([a.value for a in answers], rule), sum(not a.parsed for a in answers)


@dataclass(frozen=True)
class CheckerReport:
    k: int
    n_papers: int
    hit_rate: float
    average_precision: float | None  # None when precision was not judged or no paper had problems
    hits: list[list[bool]]  # per paper, per top-k problem
    true_positives: list[list[bool]]
    judge_failures: int


async def evaluate_checker(
    papers: Sequence[CheckedPaper],
    judges: Sequence[TextCompleter],
    k: int = 5,
    rule: VoteRule = "all",
    judge_precision: bool = True,
) -> CheckerReport:
    """HR@k (and AP@k unless `judge_precision` is off) with every judge voting on every problem."""
    if not judges:
        raise ValueError("HR@k needs at least one judge")
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    failures = 0

    async def verdicts(checked: CheckedPaper, prompt_name: str, /, **context: str) -> list[bool]:
        nonlocal failures
        results = await asyncio.gather(
            *(_panel_verdict(judges, rule, prompt_name, **_problem_fields(problem), **context) for problem in top_k(checked.problems, k))
        )
        failures += sum(failed for _, failed in results)
        return [passed for passed, _ in results]

    hits = list(await asyncio.gather(*(verdicts(p, "critical_hit", retraction_comment=p.retraction_comment) for p in papers)))
    true_positives: list[list[bool]] = []
    if judge_precision:
        true_positives = list(await asyncio.gather(*(verdicts(p, "critical_true_positive", paper=p.paper_text) for p in papers)))
    return CheckerReport(
        k=k,
        n_papers=len(papers),
        hit_rate=hit_rate_at_k(hits, k),
        average_precision=average_precision_at_k(true_positives, k) if judge_precision else None,
        hits=hits,
        true_positives=true_positives,
        judge_failures=failures,
    )
