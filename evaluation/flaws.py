"""FLAWS (Xi, Rao, Payan, Shah): error localisation as Accuracy@k over ranked excerpts.

§4.1: a detector returns at most 10 excerpts, most serious first, each at most as
long as the longest ground-truth excerpt of the error. §4.2.1: an excerpt y
identifies the error when, for some ground-truth chunk x,

    S(x, y) = max( max_{s in CSS(x)} S_edit(s, y),  max_{t in CSS(y)} S_edit(x, t) ) > 0.5

with S_edit = 1 - word-level Levenshtein / max word count, and CSS the contiguous
sentence sub-spans. §4.2.2 / App. C: optionally an LLM judge (App. B.8) in OR.
Accuracy@k is the share of errors identified within the top k excerpts (§5.2).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from rapidfuzz.distance import Levenshtein

from .judge import JudgeAnswer, TextCompleter, ask
from .predictions import Prediction, top_k

MAX_EXCERPTS = 10
HIT_THRESHOLD = 0.5
DEFAULT_KS = (1, 3, 6, 10)

# The paper does not name its sentence splitter; a sentence ends at . ! or ?
# followed by whitespace, which is what LLM excerpts and LaTeX prose look like.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def words(text: str) -> list[str]:
    return text.split()


def sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text.strip()) if s]


def edit_similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """S_edit on word lists: 1 - Levenshtein(a, b) / max(|a|, |b|); 0 when both are empty."""
    longest = max(len(a), len(b))
    if longest == 0:
        return 0.0
    return 1.0 - Levenshtein.distance(a, b) / longest


def contiguous_sentence_spans(text: str) -> list[list[str]]:
    """CSS(text): the words of every run of consecutive sentences, the whole text included."""
    sentence_words = [words(s) for s in sentences(text)]
    spans: list[list[str]] = []
    for start in range(len(sentence_words)):
        span: list[str] = []
        for sentence in sentence_words[start:]:
            span = span + sentence
            spans.append(span)
    return spans


def subspan_similarity(ground_truth: str, excerpt: str) -> float:
    """S(x, y): the best S_edit between a sentence sub-span of one side and all of the other."""
    x, y = words(ground_truth), words(excerpt)
    from_x = max((edit_similarity(s, y) for s in contiguous_sentence_spans(ground_truth)), default=0.0)
    from_y = max((edit_similarity(x, t) for t in contiguous_sentence_spans(excerpt)), default=0.0)
    return max(from_x, from_y)


def cap_excerpt(excerpt: str, max_words: int) -> str:
    """Keep the first `max_words` words: the prompt's "at most {word limit} words"."""
    return " ".join(words(excerpt)[:max_words])


@dataclass(frozen=True)
class FlawsCase:
    """One inserted error: its ground-truth chunks and the detector's ranked excerpts."""

    error_id: str
    ground_truth: Sequence[str]
    predictions: Sequence[Prediction]

    def excerpts(self) -> list[str]:
        """The scored excerpts: top 10 by rank, each capped at the longest ground-truth chunk."""
        limit = max((len(words(x)) for x in self.ground_truth), default=0)
        return [cap_excerpt(p.quote, limit) for p in top_k(self.predictions, MAX_EXCERPTS)]


def levenshtein_hits(case: FlawsCase) -> list[bool]:
    """Per scored excerpt, whether it identifies the error by the Levenshtein criterion."""
    return [any(subspan_similarity(x, y) > HIT_THRESHOLD for x in case.ground_truth) for y in case.excerpts()]


def accuracy_at_k(hits_per_error: Sequence[Sequence[bool]], ks: Sequence[int] = DEFAULT_KS) -> dict[int, float]:
    """Share of errors with a hit among their first k excerpts; an error with no excerpts scores 0."""
    for k in ks:
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
    if not hits_per_error:
        return {k: 0.0 for k in ks}
    return {k: sum(any(hits[:k]) for hits in hits_per_error) / len(hits_per_error) for k in ks}


_VERDICT = re.compile(r"\b(IN)?CORRECTLY\s+IDENTIFIED\b", re.IGNORECASE)


def parse_identification(text: str, count: int) -> list[bool] | None:
    """The judge's CORRECTLY/INCORRECTLY IDENTIFIED labels in order, if there is one per excerpt."""
    verdicts = [match.group(1) is None for match in _VERDICT.finditer(text)]
    return verdicts if len(verdicts) == count else None


def _numbered(texts: Sequence[str]) -> str:
    return "\n".join(f"{number}. {text}" for number, text in enumerate(texts, start=1))


async def judge_identification(completer: TextCompleter, ground_truth: Sequence[str], excerpts: Sequence[str]) -> JudgeAnswer[list[bool]]:
    """App. B.8 judge: one verdict per excerpt; unparseable means every excerpt is incorrect."""
    if not excerpts:
        return JudgeAnswer(value=[], parsed=True)
    raw = await ask(
        completer,
        "flaws_identification",
        identified_errors=_numbered(excerpts),
        actual_errors=_numbered(ground_truth),
    )
    verdicts = parse_identification(raw, len(excerpts))
    if verdicts is None:
        return JudgeAnswer(value=[False] * len(excerpts), parsed=False, raw=raw)
    return JudgeAnswer(value=verdicts, parsed=True, raw=raw)


@dataclass(frozen=True)
class FlawsReport:
    n_errors: int
    accuracy: dict[int, float]  # k -> Accuracy@k
    judge_failures: int = 0
    hits: list[list[bool]] = field(default_factory=list)  # per case, per scored excerpt


async def evaluate_flaws(cases: Sequence[FlawsCase], completer: TextCompleter | None = None, ks: Sequence[int] = DEFAULT_KS) -> FlawsReport:
    """Accuracy@k with the Levenshtein criterion, OR the App. B.8 judge when a completer is given."""
    lexical = [levenshtein_hits(case) for case in cases]
    failures = 0
    if completer is not None:
        answers = await asyncio.gather(*(judge_identification(completer, case.ground_truth, case.excerpts()) for case in cases))
        failures = sum(not answer.parsed for answer in answers)
        lexical = [
            [by_words or by_judge for by_words, by_judge in zip(hits, answer.value, strict=True)]
            for hits, answer in zip(lexical, answers, strict=True)
        ]
    return FlawsReport(
        n_errors=len(cases),
        accuracy=accuracy_at_k(lexical, ks),
        judge_failures=failures,
        hits=lexical,
    )
