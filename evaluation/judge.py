"""LLM judges for the benchmarks: the completer seam, the papers' prompts, robust answer parsing.

No SDK is called here. A judge is an async function that takes a `TextCompleter`
(the provider layer plugs one in through an adapter) and returns a `JudgeAnswer`.
An answer we cannot parse becomes the conservative default (No, no match, no
score) with `parsed=False`, so every metric can report its `judge_failures`.
Exceptions raised by the completer itself propagate: an outage is not a verdict.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Generic, Protocol, TypeVar

from ..analyzers.llm.templates import ChatTemplate, parse_template

T = TypeVar("T")


class TextCompleter(Protocol):
    """One chat turn: a system and a user message in, the assistant's text out."""

    async def __call__(self, system: str, user: str) -> str: ...


@dataclass(frozen=True)
class JudgeAnswer(Generic[T]):
    value: T
    parsed: bool
    raw: str = ""


@cache
def load_prompt(name: str) -> ChatTemplate:
    """Load `prompts/judge_<name>.md`."""
    text = resources.files("auditex.prompts").joinpath(f"judge_{name}.md").read_text(encoding="utf-8")
    return parse_template(text, f"judge_{name}.md")


async def ask(completer: TextCompleter, prompt_name: str, **values: str) -> str:
    system, user = load_prompt(prompt_name).render(**values)
    return await completer(system, user)


# --- answer parsing -----------------------------------------------------------

# The answers a prompt mandates, by prompt: (phrase, verdict). Zhang & Abernethy's true-positive
# judge must "clearly indicate" one of two sentences (App. A); the hit judge answers a bare Yes/No.
MANDATED_ANSWERS: dict[str, tuple[tuple[str, bool], ...]] = {
    "critical_true_positive": (("Yes, it is a true problem", True), ("No, it is a false alarm", False)),
}
# Looser wordings of the same verdicts, read only when no mandated phrase nor a Yes/No settles it:
# "the issue raised is a **false alarm**". A negated one ("not a false alarm") is no verdict.
LOOSE_ANSWERS: dict[str, tuple[tuple[str, bool], ...]] = {
    "critical_true_positive": (("a true problem", True), ("a genuine problem", True), ("a false alarm", False)),
}

_UNDERSCORES = re.compile(r"(?<!\w)_+|_+(?!\w)")  # _emphasis_, not snake_case
_LINE_MARKS = re.compile(r"^[ \t]*(?:#+|>+)[ \t]*", re.MULTILINE)  # headings and quotes
_QUOTES = "\"'“”‘’«»"
_LEADING = re.compile(rf"^[\s{_QUOTES}(\[]*(yes|no)\b(?!/)", re.IGNORECASE)
_FINAL_ANSWER = re.compile(
    r"\b(?:final\s+(?:answer|verdict|decision)\W{0,10}|(?:answer|verdict|decision)\s*:\W{0,6})(yes|no)\b", re.IGNORECASE
)
_BARE_LINE = re.compile(rf"^[\s{_QUOTES}.!:(\[]*(yes|no)[\s{_QUOTES}.!:)\]]*$", re.IGNORECASE | re.MULTILINE)
_WORD_YES_NO = re.compile(r"(?<!/)\b(yes|no)\b(?!/)", re.IGNORECASE)
_NEGATION = re.compile(r"(?:\bnot|n't|\bnever)\s*$", re.IGNORECASE)


def plain_answer(text: str) -> str:
    """The answer without markdown emphasis: `**Yes**`, `_No_`, `# Yes` and `> No` read as Yes and No."""
    text = text.replace("*", "").replace("`", "")
    if "_" in text:
        text = _UNDERSCORES.sub("", text)
    if "#" in text or ">" in text:
        text = _LINE_MARKS.sub("", text)
    return text


@cache
def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    """A phrase's words in order, with any spacing and optional commas, as whole words."""
    words = [re.escape(word) for word in re.findall(r"[\w'-]+", phrase)]
    return re.compile(r"\b" + r"[\s,]+".join(words) + r"\b", re.IGNORECASE)


def _phrase_hits(text: str, phrases: Sequence[tuple[str, bool]], quoted_too: bool) -> list[tuple[int, bool]]:
    """Where the phrases occur, in text order, with the verdict each says.

    A phrase in quotation marks is a mention ('answer "Yes, it is a true problem" or ...'),
    kept only when `quoted_too`; a negated one ("not a false alarm") is never kept.
    """
    hits = []
    lowered = text.lower()
    for phrase, verdict in phrases:
        if phrase.lower().split()[-1] not in lowered:  # a cheap test first: most answers hold one phrase
            continue
        for match in _phrase_pattern(phrase).finditer(text):
            before = text[max(0, match.start() - 40) : match.start()]
            if _NEGATION.search(before.rstrip(_QUOTES + " ")):
                continue
            if not quoted_too and before.rstrip(" ").endswith(tuple(_QUOTES)):
                continue
            hits.append((match.start(), verdict))
    return sorted(hits)


def parse_yes_no(text: str, mandated: Sequence[tuple[str, bool]] = (), loose: Sequence[tuple[str, bool]] = ()) -> bool | None:
    """Yes/No from a judge that may explain itself; None when it is unreadable or ambiguous.

    Markdown emphasis is ignored, and "yes" and "no" count only as whole words, so
    "Bayesian", "Mayes" or "eyes" are never a Yes. Looked for in order:
    1. the prompt's mandated answer phrases (`mandated`), anywhere, after a preamble too;
       the last one when there are several (a judge that reconsiders ends with its final
       answer, which is where the prompt asks for the phrase); quoted ones only when
       there is no other;
    2. an explicit "final answer: …" (the last one);
    3. a leading Yes/No;
    4. a line that is only Yes or No (the last one);
    5. the `loose` phrases, when they say only one verdict;
    6. a text that uses only one of the two words.
    """
    plain = plain_answer(text)
    if mandated:
        hits = _phrase_hits(plain, mandated, quoted_too=False) or _phrase_hits(plain, mandated, quoted_too=True)
        if hits:
            return hits[-1][1]
    lowered = plain.lower()
    final = _FINAL_ANSWER.findall(plain) if "answer" in lowered or "verdict" in lowered or "decision" in lowered else []
    if final:
        return bool(final[-1].lower() == "yes")
    leading = _LEADING.match(plain)
    if leading:
        return leading.group(1).lower() == "yes"
    bare = _BARE_LINE.findall(plain)
    if bare:
        return bool(bare[-1].lower() == "yes")
    said = {verdict for _, verdict in _phrase_hits(plain, loose, quoted_too=True)}
    if len(said) == 1:
        return said.pop()
    words = {w.lower() for w in _WORD_YES_NO.findall(plain)}
    if len(words) == 1:
        return bool(words.pop() == "yes")
    return None


def read_verdict(text: str, prompt_name: str) -> bool | None:
    """A judge's Yes/No to one of our prompts, with that prompt's mandated and loose answer phrases."""
    return parse_yes_no(text, MANDATED_ANSWERS.get(prompt_name, ()), LOOSE_ANSWERS.get(prompt_name, ()))


# A scale or range is not a score: "Score (1-9): 7", "on a scale of 1 to 9", "7/9", "7 out of 9".
_RANGE = re.compile(r"[(\[]?\s*\b\d+\s*(?:-|–|—|to)\s*\d+\b\s*[)\]]?", re.IGNORECASE)
_OUT_OF = re.compile(r"(?:/|\bout\s+of\b)\s*\d+", re.IGNORECASE)
_LABELLED_SCORE = re.compile(r"\b(?:score|rating|rated|rate)\b[^\d\n]{0,25}?(?<![\d.])(\d+)(?![\d.]|\.\d)", re.IGNORECASE)
_INTEGER = re.compile(r"(?<![\d.])\d+(?![\d]|\.\d)")


def parse_score(text: str, low: int, high: int) -> int | None:
    """An integer score in [low, high]: a labelled one ("Score: 7", "Score (1-9): 7") wins, else the first integer.

    Scales and ranges ("(1-9)", "1 to 9", "/9", "out of 9") are never read as the score;
    a decimal ("3.5") is not an integer score.
    """
    cleaned = _OUT_OF.sub(" ", _RANGE.sub(" ", plain_answer(text)))
    labelled = [int(s) for s in _LABELLED_SCORE.findall(cleaned)]
    candidates = labelled or [int(s) for s in _INTEGER.findall(cleaned)]
    for value in candidates:
        if low <= value <= high:
            return value
    return None


_CODE_FENCE = re.compile(r"```(?:json)?", re.IGNORECASE)


def parse_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in the text, tolerating code fences and chatter around it."""
    cleaned = _CODE_FENCE.sub("", text)
    decoder = json.JSONDecoder()
    for start, char in enumerate(cleaned):
        if char != "{":
            continue
        try:
            candidate, _ = decoder.raw_decode(cleaned, start)
        except json.JSONDecodeError:
            continue
        if isinstance(candidate, dict):
            return candidate
    return None


# --- the two simplest judges, shared by several benchmarks ---------------------


async def judge_yes_no(completer: TextCompleter, prompt_name: str, **values: str) -> JudgeAnswer[bool]:
    raw = await ask(completer, prompt_name, **values)
    verdict = read_verdict(raw, prompt_name)
    return JudgeAnswer(value=bool(verdict), parsed=verdict is not None, raw=raw)


async def judge_score(completer: TextCompleter, prompt_name: str, low: int, high: int, **values: str) -> JudgeAnswer[int | None]:
    raw = await ask(completer, prompt_name, **values)
    score = parse_score(raw, low, high)
    return JudgeAnswer(value=score, parsed=score is not None, raw=raw)
