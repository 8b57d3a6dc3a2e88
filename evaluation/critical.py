"""Zhang & Abernethy: critical-problem checkers scored by HR@k and AP@k with LLM judges.

§2.3, as the authors' notebook computes it:
- Hits are voted per paper. Each judge reads the checker's problems one by one (App. A,
  "exactly the same problem" as the retraction comment, default No) and stops at its first
  Yes; a judge votes that the checker hit the paper when it said Yes to any of the first k
  problems. The paper is a hit when the panel's votes pass the rule: all judges (the paper's
  setting, m = 2) or a strict majority. The judges need not pick the same problem.
  HR@k is the share of papers that are hits; a paper with no reported problem is a miss.
- Precision is voted per problem: a problem is a true positive when the judges' votes on
  it ("Yes, it is a true problem", App. A) pass the rule. A paper's precision is the share
  of true positives among its first k problems that every judge judged; AP@k is the mean of
  the papers' precisions, and a paper with no judged problem (none reported) is skipped.
Several runs per paper (n_c > 1, MHR@k / MAP@k) are passed as separate papers; several
answers of one judge to one question (n_j > 1) are reduced to their majority.

Verdicts come from live judges (`evaluate_checker`) or from recorded files (`VerdictRecord`,
replayed by `judged_papers` + `score_checker`); both go through the same scoring. A problem a
judge never saw is "not judged", apart from an answer that was read but says nothing
("unreadable", counted as No).
"""

from __future__ import annotations

import asyncio
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from .judge import TextCompleter, ask, read_verdict
from .predictions import Prediction

VoteRule = Literal["all", "majority"]
Question = Literal["hit", "true_positive"]
PROMPTS: Mapping[Question, str] = {"hit": "critical_hit", "true_positive": "critical_true_positive"}


@dataclass(frozen=True)
class CheckedPaper:
    paper_id: str
    retraction_comment: str  # the ground-truth problem statement
    problems: Sequence[Prediction]  # the checker's output; ranked by `rank`, then by list order
    paper_text: str = ""  # what the true-positive judge reads


def ranked(problems: Sequence[Prediction]) -> list[int]:
    """The problems' list indices, most critical first (a stable sort on `rank`)."""
    return sorted(range(len(problems)), key=lambda i: problems[i].rank)


# --- verdicts ------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """One judge's verdict on one problem. An unreadable answer is a No, flagged."""

    yes: bool
    readable: bool = True


UNREADABLE = Verdict(yes=False, readable=False)

# Per judge, one entry per problem in rank order; None where the judge did not judge it.
Marks = Sequence[Verdict | None]


@dataclass(frozen=True)
class JudgedPaper:
    paper_id: str
    n_problems: int
    hit: Mapping[str, Marks] = field(default_factory=dict)  # judge -> marks
    true_positive: Mapping[str, Marks] = field(default_factory=dict)


class VerdictRecord(BaseModel):
    """One recorded judgement: a judge's verdict on one problem of one paper, or its raw answer.

    `problem` is the 0-based index into the paper's `problems` list as given. `verdict` is the
    recorded Yes/No; `answer` the judge's text, read with auditex's reader when there is no
    verdict (or when replaying with `reread`). Neither, or an answer that says nothing, is
    "unreadable".
    """

    model_config = ConfigDict(extra="ignore", frozen=True)

    paper_id: str
    problem: int = Field(ge=0)
    judge: str
    question: Question
    verdict: bool | None = None
    answer: str | None = None


def record_verdict(record: VerdictRecord, reread: bool = False) -> Verdict:
    if record.answer is not None and (reread or record.verdict is None):
        value = read_verdict(record.answer, PROMPTS[record.question])
        return UNREADABLE if value is None else Verdict(value)
    return UNREADABLE if record.verdict is None else Verdict(record.verdict)


def _consensus(verdicts: Sequence[Verdict]) -> Verdict:
    """n_j > 1: the judge's most self-consistent answer; a tie (or nothing readable) is unreadable."""
    if len(verdicts) == 1:
        return verdicts[0]
    readable = [v.yes for v in verdicts if v.readable]
    yes, no = sum(readable), len(readable) - sum(readable)
    return UNREADABLE if yes == no else Verdict(yes > no)


def judged_papers(papers: Sequence[CheckedPaper], records: Iterable[VerdictRecord], reread: bool = False) -> list[JudgedPaper]:
    """The papers with every judge's marks, from recorded verdicts; a record naming an unknown
    paper or problem is a ValueError (the verdicts do not belong to these checker outputs)."""
    index = {paper.paper_id: i for i, paper in enumerate(papers)}
    if len(index) != len(papers):
        raise ValueError("paper_id must be unique among the checker outputs")
    grouped: dict[tuple[Question, str, int, int], list[Verdict]] = defaultdict(list)
    for record in records:
        position = index.get(record.paper_id)
        if position is None:
            raise ValueError(f"a verdict names paper {record.paper_id!r}, which is not among the checker outputs")
        if record.problem >= len(papers[position].problems):
            raise ValueError(
                f"a verdict names problem {record.problem} of paper {record.paper_id!r}, "
                f"which has {len(papers[position].problems)} problem(s)"
            )
        grouped[(record.question, record.judge, position, record.problem)].append(record_verdict(record, reread))
    judges: dict[Question, list[str]] = {"hit": [], "true_positive": []}
    for question, judge, _, _ in grouped:
        if judge not in judges[question]:
            judges[question].append(judge)
    result = []
    for position, paper in enumerate(papers):
        order = ranked(paper.problems)
        marks: dict[Question, dict[str, list[Verdict | None]]] = {
            question: {
                judge: [_consensus(verdicts) if (verdicts := grouped.get((question, judge, position, i))) else None for i in order]
                for judge in names
            }
            for question, names in judges.items()
        }
        result.append(JudgedPaper(paper.paper_id, len(paper.problems), marks["hit"], marks["true_positive"]))
    return result


def recorded_judges(records: Iterable[VerdictRecord]) -> list[str]:
    """The judges the records name, in order of first appearance."""
    return list(dict.fromkeys(record.judge for record in records))


# --- the metrics ---------------------------------------------------------------------


def votes_pass(votes: Sequence[bool | None], rule: VoteRule = "all") -> bool:
    """Whether the panel's votes make a Yes; None is a judge that did not vote.

    "all": every judge said Yes; "majority": strictly more than half of the panel did. No votes never pass.
    """
    if not votes:
        return False
    yes = sum(vote is True for vote in votes)
    return yes == len(votes) if rule == "all" else yes * 2 > len(votes)


def judge_paper_vote(marks: Marks, k: int) -> bool | None:
    """One judge's vote that the checker hit the paper: Yes to any of the first k problems.

    No when it said No (or nothing readable) to those it judged; None when it judged none of them.
    """
    top = marks[:k]
    if any(mark is not None and mark.yes for mark in top):
        return True
    return False if any(mark is not None for mark in top) else None


def paper_hit(paper: JudgedPaper, judges: Sequence[str], k: int, rule: VoteRule = "all") -> bool:
    if paper.n_problems == 0:
        return False
    return votes_pass([judge_paper_vote(paper.hit.get(judge, ()), k) for judge in judges], rule)


def problem_true_positive(paper: JudgedPaper, judges: Sequence[str], position: int, rule: VoteRule = "all") -> bool | None:
    """The panel's verdict on the problem at this rank; None unless every judge judged it."""
    marks = [paper.true_positive.get(judge, ())[position : position + 1] for judge in judges]
    if not judges or any(not mark or mark[0] is None for mark in marks):
        return None
    return votes_pass([mark[0].yes for mark in marks if mark[0] is not None], rule)


def paper_precision(paper: JudgedPaper, judges: Sequence[str], k: int, rule: VoteRule = "all") -> float | None:
    """The share of true positives among the paper's first k problems that every judge judged."""
    decided = [
        tp for position in range(min(k, paper.n_problems)) if (tp := problem_true_positive(paper, judges, position, rule)) is not None
    ]
    return sum(decided) / len(decided) if decided else None


def hit_rate_at_k(papers: Sequence[JudgedPaper], judges: Sequence[str], k: int, rule: VoteRule = "all") -> float:
    """HR@k: the share of papers the panel votes a hit (0 for no papers)."""
    if not papers:
        return 0.0
    return sum(paper_hit(paper, judges, k, rule) for paper in papers) / len(papers)


def average_precision_at_k(papers: Sequence[JudgedPaper], judges: Sequence[str], k: int, rule: VoteRule = "all") -> float | None:
    """AP@k: the mean of the papers' precisions; None when no paper has one."""
    precisions = [p for paper in papers if (p := paper_precision(paper, judges, k, rule)) is not None]
    return sum(precisions) / len(precisions) if precisions else None


# --- the report ------------------------------------------------------------------------


@dataclass(frozen=True)
class Scores:
    hit_rate: float
    average_precision: float | None  # None when no problem was judged for precision
    papers_with_precision: int
    true_positives: int | None  # problems among the first k voted true positives; None when none was decided


@dataclass(frozen=True)
class JudgingCounts:
    """How one judge's verdicts on the first k problems came out, for one question.

    `not_judged` counts problems the judge never saw where their verdict could matter: for hits,
    those of papers where it said no Yes (a judge stops at its first Yes, so later problems are
    not needed); for precision, all of them. An unreadable answer counts as No.
    """

    judged: int
    unreadable: int
    not_judged: int


@dataclass(frozen=True)
class ProblemCounts:
    """The numbers of problems the checker reported per paper (Table 2's "# Prob. Found")."""

    mean: float
    q1: float
    q3: float
    papers_without_problems: int


@dataclass(frozen=True)
class CheckerReport:
    k: int
    rule: VoteRule
    judges: list[str]
    n_papers: int
    problems: ProblemCounts
    hit_rate: float  # the panel's HR@k
    average_precision: float | None  # the panel's AP@k
    true_positives: int | None  # the panel's
    by_judge: dict[str, Scores]  # each judge alone (Table 3)
    hit_judging: dict[str, JudgingCounts]
    precision_judging: dict[str, JudgingCounts]


def _scores(papers: Sequence[JudgedPaper], judges: Sequence[str], k: int, rule: VoteRule) -> Scores:
    precisions = [paper_precision(paper, judges, k, rule) for paper in papers]
    true_positives = sum(
        bool(problem_true_positive(paper, judges, position, rule)) for paper in papers for position in range(min(k, paper.n_problems))
    )
    return Scores(
        hit_rate=hit_rate_at_k(papers, judges, k, rule),
        average_precision=average_precision_at_k(papers, judges, k, rule),
        papers_with_precision=sum(p is not None for p in precisions),
        true_positives=true_positives if any(p is not None for p in precisions) else None,
    )


def _judging(papers: Sequence[JudgedPaper], judge: str, k: int, question: Question) -> JudgingCounts:
    judged = unreadable = not_judged = 0
    for paper in papers:
        marks = list((paper.hit if question == "hit" else paper.true_positive).get(judge, ()))
        top = (marks + [None] * paper.n_problems)[: min(k, paper.n_problems)]
        said_yes = any(mark is not None and mark.yes for mark in top)
        for mark in top:
            if mark is None:
                not_judged += question == "true_positive" or not said_yes
            elif mark.readable:
                judged += 1
            else:
                unreadable += 1
    return JudgingCounts(judged=judged, unreadable=unreadable, not_judged=not_judged)


def problem_counts(counts: Sequence[int]) -> ProblemCounts:
    if not counts:
        return ProblemCounts(0.0, 0.0, 0.0, 0)
    q1, q3 = np.quantile(np.asarray(counts, dtype=float), [0.25, 0.75])
    return ProblemCounts(
        mean=float(np.mean(counts)), q1=float(q1), q3=float(q3), papers_without_problems=sum(count == 0 for count in counts)
    )


def score_checker(papers: Sequence[JudgedPaper], judges: Sequence[str], k: int = 5, rule: VoteRule = "all") -> CheckerReport:
    """HR@k and AP@k of the panel and of each judge alone, with how the judging went."""
    if not judges:
        raise ValueError("HR@k needs at least one judge")
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    panel = _scores(papers, judges, k, rule)
    return CheckerReport(
        k=k,
        rule=rule,
        judges=list(judges),
        n_papers=len(papers),
        problems=problem_counts([paper.n_problems for paper in papers]),
        hit_rate=panel.hit_rate,
        average_precision=panel.average_precision,
        true_positives=panel.true_positives,
        by_judge={judge: _scores(papers, [judge], k, rule) for judge in judges},
        hit_judging={judge: _judging(papers, judge, k, "hit") for judge in judges},
        precision_judging={judge: _judging(papers, judge, k, "true_positive") for judge in judges},
    )


# --- live judges ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Judge:
    name: str
    complete: TextCompleter


def _problem_fields(problem: Prediction) -> dict[str, str]:
    return {
        "problem": problem.title or problem.explanation,
        "location": problem.section or "",
        "explanation": problem.explanation,
    }


async def _ask(judge: Judge, paper: CheckedPaper, index: int, question: Question) -> VerdictRecord:
    context = {"retraction_comment": paper.retraction_comment} if question == "hit" else {"paper": paper.paper_text}
    answer = await ask(judge.complete, PROMPTS[question], **_problem_fields(paper.problems[index]), **context)
    return VerdictRecord(
        paper_id=paper.paper_id,
        problem=index,
        judge=judge.name,
        question=question,
        verdict=read_verdict(answer, PROMPTS[question]),
        answer=answer,
    )


async def _hit_votes(judge: Judge, paper: CheckedPaper, k: int) -> list[VerdictRecord]:
    """The paper's protocol: one problem at a time, most critical first, up to the first Yes."""
    records = []
    for index in ranked(paper.problems)[:k]:
        record = await _ask(judge, paper, index, "hit")
        records.append(record)
        if record.verdict:
            break
    return records


async def judge_checker(
    papers: Sequence[CheckedPaper], judges: Sequence[Judge], k: int = 5, judge_precision: bool = True
) -> list[VerdictRecord]:
    """Every judge's verdicts on the checker's first k problems per paper, answers kept (replayable)."""
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    names = [judge.name for judge in judges]
    if len(set(names)) != len(names):
        raise ValueError(f"each judge needs its own name, got {names}")
    hits = await asyncio.gather(*(_hit_votes(judge, paper, k) for paper in papers for judge in judges))
    records = [record for group in hits for record in group]
    if judge_precision:
        records += await asyncio.gather(
            *(_ask(judge, paper, index, "true_positive") for paper in papers for index in ranked(paper.problems)[:k] for judge in judges)
        )
    return records


async def evaluate_checker(
    papers: Sequence[CheckedPaper],
    judges: Sequence[Judge],
    k: int = 5,
    rule: VoteRule = "all",
    judge_precision: bool = True,
) -> CheckerReport:
    """HR@k (and AP@k unless `judge_precision` is off) with live judges."""
    if not judges:
        raise ValueError("HR@k needs at least one judge")
    records = await judge_checker(papers, judges, k, judge_precision)
    return score_checker(judged_papers(papers, records), [judge.name for judge in judges], k, rule)


# --- a model judging its own output --------------------------------------------------------


def model_key(name: str) -> str:
    """A model name compared loosely: "o4-mini" = "o4mini", "Gemini 2.5 Pro" = "gemini-2.5-pro", a provider prefix dropped."""
    return re.sub(r"[^a-z0-9]", "", name.lower().split(":", 1)[-1])


def self_judging(judges: Iterable[str], producers: Iterable[str | None]) -> list[str]:
    """The judges whose model also produced what they judge."""
    produced = {model_key(name) for name in producers if name}
    return [judge for judge in judges if model_key(judge) in produced]
