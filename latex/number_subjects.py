"""What a number in prose measures: the content words of the phrase that names it (`subject_words`), and the
words and spans a reader skips to find them."""

from __future__ import annotations

import re

from .deferred_pattern import DeferredPattern
from .macro_signatures import REFERENCE_COMMAND

# Inside these the digits are identifiers, not quantities: a reference or citation with all its arguments, a label, a URL.
OPAQUE = DeferredPattern(rf"{REFERENCE_COMMAND.pattern}|\\(?:label|url|href)\*?(?:\[[^\]]*\])*\{{[^}}]*\}}")

WORD = DeferredPattern(r"[A-Za-z][A-Za-z0-9\-+]*")
STOPWORDS = frozenset(
    {
        "the",
        "a",
        "an",
        "of",
        "on",
        "in",
        "to",
        "and",
        "or",
        "for",
        "with",
        "by",
        "at",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "this",
        "that",
        "these",
        "those",
        "we",
        "our",
        "it",
        "its",
        "from",
        "than",
        "which",
        "while",
        "over",
        "into",
        "up",
        "achieves",
        "achieve",
        "reaches",
        "obtains",
        "shows",
        "show",
        "has",
        "have",
        "respectively",
        "about",
        "around",
        "approximately",
        "only",
        "also",
        "both",
        "all",
        "each",
        "per",
        "across",
        "using",
        "use",
        "used",
    }
)


# Where the phrase naming a quantity ends: a clause boundary, a conjunction, another number.
_CLAUSE = DeferredPattern(
    r"[,;:()\[\]{}]|\b(?:and|but|while|whereas|although|though|than|compared|versus|vs)\b|(?<![\w-])\d", re.IGNORECASE
)
_LINKING = frozenset(
    {
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "equal",
        "equals",
        "reached",
        "reach",
        "reaches",
        "at",
        "of",
        "to",
        "by",
        "on",
        "in",
        "for",
        "with",
        "a",
        "an",
        "the",
        "only",
        "just",
        "still",
        "now",
        "yields",
        "yield",
        "gives",
        "give",
        "achieves",
        "achieved",
        "obtains",
        "obtained",
        "attains",
        "attained",
        "scores",
        "scored",
        "remains",
        "remain",
        "remained",
        "stands",
        "stood",
        "amounts",
        "amount",
        "out",
    }
)


_CONTENT_WORD = (
    r"(?!(?:of|on|in|for|at|with|by|to|from|over|under|against|versus|vs|compared|relative|and|or|the|a|an|than|is|are|was|were"
    r"|respectively)\b)([A-Za-z][A-Za-z0-9-]+)"
)
_FOLLOWING = DeferredPattern(
    rf"\s*(?:{_CONTENT_WORD}(?:\s+{_CONTENT_WORD})?\s*)?(?:(?:on|in|for|at|with|from)\s+(?:the\s+)?([A-Za-z][\w-]+))?", re.IGNORECASE
)


def subject_words(sentence: str, start: int, end: int) -> tuple[str, ...]:
    """What the number at sentence[start:end] measures: the content words of its clause just before it
    ("the accuracy of Ours on ImageNet is 93.4") and the noun right after it ("57 studies", "12% accuracy"),
    lower-case, in order. Empty when the clause names nothing (", at −0.222")."""
    clause = OPAQUE.sub(" ", sentence[max(0, start - 80) : start])
    cuts = [match.end() for match in _CLAUSE.finditer(clause)]
    if cuts:
        clause = clause[cuts[-1] :]
    before = [word.lower() for word in WORD.findall(clause)]
    while before and before[-1] in _LINKING | STOPWORDS:  # "… is", "… of": the verb and preposition that lead to the number
        before.pop()
    words = [word for word in before if word not in STOPWORDS and word not in _LINKING][-4:]
    # After it: the noun it counts or measures ("57 studies", "12% accuracy"), and what a preposition names ("on ImageNet").
    following = _FOLLOWING.match(sentence, end)
    if following:
        words += [word.lower() for word in following.groups() if word and word.lower() not in words]
    return tuple(words)
