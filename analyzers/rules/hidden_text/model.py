"""What the SEC rules share: how an instruction aimed at an AI reviewer is recognised.

These rules guard reviewers who point auditex (or an LLM) at an untrusted
submission, so their codes sort first and they are errors.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ...context import paragraphs
from ...memo import TEXT_CACHE_SIZE

INJECTION = DeferredPattern(
    r"\b(?:"
    r"(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|preceding|earlier|foregoing|other)\s+"
    r"(?:instructions?|prompts?|directions?|guidelines?|rules)"
    r"|(?:give|write|provide|output|produce|generate|return)\s+(?:this\s+(?:paper|submission|manuscript|work)\s+)?(?:an?\s+|only\s+)?"
    r"(?:(?:very|highly|strongly|extremely|overwhelmingly)\s+)?(?:positive|favou?rable|glowing|excellent|strong\s+accept)\s+"
    r"(?:reviews?|ratings?|scores?|assessments?|evaluations?|recommendations?|feedback)"
    r"|(?:rate|score|grade|rank)\s+(?:this|the)\s+(?:paper|submission|manuscript|work)\s+(?:very\s+)?(?:highly|high|as\s+(?:an?\s+)?(?:strong\s+)?accept|with\s+(?:an?\s+)?(?:high|top|maximum|perfect))"
    r"|recommend(?:ing)?\s+(?:the\s+)?(?:acceptance\s+of\s+this|accept(?:ing)?\s+this)\s+(?:paper|submission|manuscript|work)"
    r"|do\s+not\s+(?:mention|highlight|point\s+out|discuss|list|report|raise|criticize|criticise)\s+(?:any\s+)?(?:the\s+)?(?:\w+\s+)?"
    r"(?:weakness(?:es)?|limitations?|flaws?|shortcomings?|negatives?|criticisms?|concerns?)"
    r"|(?:as\s+an?|you\s+are\s+an?)\s+(?:ai|llm|large\s+language\s+model|language\s+model)\s+(?:reviewer|assistant|model|agent)"
    r"|(?:for|to|attention)\s+(?:all\s+)?(?:ai|llm|automated|language[- ]model)\s+reviewers?\s*[:,]"
    r")",
    re.I,
)
# Every injection pattern contains one of these; str.find over them is far cheaper than the
# full pattern over a 2 MB book, so the pattern only runs in windows around them.
_INJECTION_ANCHORS = (
    "ignore",
    "disregard",
    "forget",
    "override",
    "positive",
    "favorable",
    "favourable",
    "glowing",
    "excellent",
    "strong accept",
    "this paper",
    "the paper",
    "this submission",
    "the submission",
    "this manuscript",
    "the manuscript",
    "this work",
    "the work",
    "recommend",
    "do not",
    " ai",
    "llm",
    "language model",
)
_ANCHOR_WINDOW = 160


def injections(text: str) -> tuple[re.Match[str], ...]:
    """The instructions to AI reviewers in `text`, in order."""
    found: dict[int, re.Match[str]] = {}
    for position in _anchor_positions(text):
        start, end = max(0, position - _ANCHOR_WINDOW), min(len(text), position + _ANCHOR_WINDOW)
        for match in INJECTION.finditer(text, start, end):
            if match.start() <= position < match.end():
                found.setdefault(match.start(), match)
    return tuple(found[start] for start in sorted(found))


def _anchor_positions(text: str) -> list[int]:
    """Where the anchors occur, anchor by anchor. No anchor spans a blank line, so they are found
    paragraph by paragraph, cached by text: typing re-reads one paragraph. A paragraph is searched only
    for the anchors the whole text holds: a book's text holds a few of them."""
    lowered = text.lower()
    present = tuple(anchor for anchor, word in enumerate(_INJECTION_ANCHORS) if word in lowered)
    if not present:
        return []
    occurrences = sorted(
        (anchor, offset + position) for offset, paragraph in paragraphs(text) for anchor, position in _paragraph_anchors(paragraph, present)
    )
    return [position for _, position in occurrences]


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def _paragraph_anchors(paragraph: str, present: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    lowered = paragraph.lower()
    found = []
    for anchor in present:
        word = _INJECTION_ANCHORS[anchor]
        position = lowered.find(word)
        while position != -1:
            found.append((anchor, position))
            position = lowered.find(word, position + len(word))
    return tuple(found)
