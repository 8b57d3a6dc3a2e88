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

_WORD_YES_NO = re.compile(r"\b(yes|no)\b", re.IGNORECASE)
_FINAL_ANSWER = re.compile(r"final answer\W{0,10}(yes|no)\b", re.IGNORECASE)


def parse_yes_no(text: str) -> bool | None:
    """Yes/No from a judge that may explain itself; None when it is ambiguous.

    Looked for in order: a leading Yes/No, an explicit "final answer: …", and
    otherwise a text that uses only one of the two words.
    """
    stripped = text.strip().lstrip("*#>\"' \t").lower()
    for word, verdict in (("yes", True), ("no", False)):
        if re.match(rf"{word}\b", stripped):
            return verdict
    final = _FINAL_ANSWER.findall(text)
    if final:
        return bool(final[-1].lower() == "yes")
    words = {w.lower() for w in _WORD_YES_NO.findall(text)}
    if len(words) == 1:
        return bool(words.pop() == "yes")
    return None


_LABELLED_SCORE = re.compile(r"(?:score|rating)\D{0,20}?(\d+)", re.IGNORECASE)
_OUT_OF = re.compile(r"(?:/|\bout of\b)\s*\d+", re.IGNORECASE)
_INTEGER = re.compile(r"(?<![\d.])\d+(?![\d.])")


def parse_score(text: str, low: int, high: int) -> int | None:
    """An integer score in [low, high]: a labelled one ("Score: 7") wins, else the first integer."""
    labelled = [int(s) for s in _LABELLED_SCORE.findall(text)]
    candidates = labelled or [int(s) for s in _INTEGER.findall(_OUT_OF.sub(" ", text))]
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
    verdict = parse_yes_no(raw)
    return JudgeAnswer(value=bool(verdict), parsed=verdict is not None, raw=raw)


async def judge_score(completer: TextCompleter, prompt_name: str, low: int, high: int, **values: str) -> JudgeAnswer[int | None]:
    raw = await ask(completer, prompt_name, **values)
    score = parse_score(raw, low, high)
    return JudgeAnswer(value=score, parsed=score is not None, raw=raw)
