"""Numbers in prose, with the context a reader uses to know what they measure."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from .sentences import sentence_spans

# `(?!\.?\d)`: no piece of a version ("JASP 0.16.3") or of a longer digit run is a quantity.
_NUMBER = re.compile(
    r"(?<![\w.\\{:/-])([-−]?)(\d{1,3}(?:,\d{3})+(?!\.?\d)|\d+(?:\.\d+)?(?!\.?\d)|\.\d+(?!\.?\d))"
    r"(?:\s?(%|\\%|percent\b|pp\b|points?\b|×|x\b|[kKMB]\b|million\b|billion\b))?"
)
# Inside these the digits are identifiers, not quantities.
_OPAQUE = re.compile(
    r"\\(?:ref|eqref|autoref|cref|Cref|pageref|cite\w*|parencite|textcite|autocite|label|url|href)\*?(?:\[[^\]]*\])*\{[^}]*\}"
)
_STRUCTURAL_BEFORE = re.compile(
    r"(?:\b(?:Table|Tab|Figure|Fig|Figs|Section|Sec|Chapter|Eq|Equation|Eqs|Appendix|Algorithm|Alg|Line|Lines|Theorem|Lemma|Corollary|Proposition|Definition|Step|Stage|Phase|Version|v|Page|pp|Example|Remark|Assumption|Problem|Exercise|Item|Part|Row|Column|Task|Round|Level|Layer|Block)\.?|[A-Za-z]-|#)\s*\(?$",
)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-+]*")
_STOPWORDS = frozenset(
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


class Role(str, Enum):
    """What a number does in its sentence, read from the words around it. Only a VALUE states
    a measured quantity outright; the others set, bound, span or round one."""

    VALUE = "value"
    LISTED = "listed"  # one of a list or set of values: a grid, a sweep ("p ∈ {0.05, 0.1, 0.2}", "1.0, 1.5 and 2.0 mm")
    RANGE = "range"  # an end of a range ("15%–20%", "between 2 and 5", "ranging from 0.5 to 3")
    BOUND = "bound"  # a threshold something is compared with ("above 85%", "p < .05", "at least 3")
    # A value given to a parameter or picked as an example: "λ = 0.005", "Normal(0, 0.05)", "a target of 90%",
    # "steps of 0.05", "targets like 80%".
    SETTING = "setting"
    APPROXIMATE = "approximate"  # "about 10%", "≈ 3.2"


_NUM = r"(?<![\w.])[-−]?(?:\d+(?:\.\d+)?|\.\d+)(?:e[-−]?\d+)?(?:\s?(?:%|[A-Za-zμΩ]{1,3}\b))?"
# Three or more numbers joined by commas, "and", "or" ("0.4, 0.6, 0.8 and 1.0 mm"); a set in braces.
_ENUMERATION = re.compile(_NUM + r"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)" + _NUM + r"){2,}")
_SET = re.compile(r"\{[^{}]*\d[^{}]*,[^{}]*\}")
_RESPECTIVELY = re.compile(r"\brespectively\b", re.IGNORECASE)
_RANGE = re.compile(
    _NUM
    + r"\s*(?:-{1,3}|–|—)\s*"
    + _NUM
    + r"|\[\s*"
    + _NUM
    + r"\s*,\s*"
    + _NUM
    + r"\s*\]"
    + r"|\bbetween\s+"
    + _NUM
    + r"\s+and\s+"
    + _NUM
    + r"|\b(?:rang\w*|var(?:y|ies|ied|ying)|sweep\w*|spann?\w*)\s+(?:\w+\s+){0,3}?from\s+"
    + _NUM
    + r"\s+to\s+"
    + _NUM
    + r"|\bfrom\s+"
    + _NUM
    + r"\s+to\s+"
    + _NUM
    + r"(?=[^.;]{0,30}?\b(?:in|by|with)\s+(?:\w+\s+)?(?:steps?|increments?|intervals?)\b)",
    re.IGNORECASE,
)
_BOUND_BEFORE = re.compile(
    r"(?:\b(?:above|below|beyond|over|under|exceed\w*|surpass\w*|at\s+(?:least|most)|up\s+to"
    r"|(?:no\s+)?(?:more|less|fewer|greater|higher|lower)\s+than)"
    r"|[<>≤≥⩽⩾≪≫])\s*$",
    re.IGNORECASE,
)
_APPROXIMATE_BEFORE = re.compile(
    r"(?:\b(?:about|around|approximately|approx\.?|roughly|nearly|almost|circa|ca\.)|[~∼≈≃])\s*$", re.IGNORECASE
)
# "λ = 0.005", "Normal(0, 0.05": a symbol given a value, the arguments of a distribution or function.
_ASSIGNED_BEFORE = re.compile(r"(?:=|\b[A-Za-z][\w,=.]*\((?:[^()]*,)?)\s*$")
_COUNT_BEFORE = re.compile(r"(?<![A-Za-z])[nN]\s*=\s*$")  # a count ("n = 62") is a result, not a setting
_SETTING_BEFORE = re.compile(
    r"\b(?:thresholds?|cut-?offs?|targets?|alpha|α|(?:significance|confidence|credib\w*|alpha)\s+levels?|steps?(?:\s+sizes?)?"
    r"|increments?|set\s+(?:to|at)|fixed\s+(?:to|at)|chosen\s+as)\s+(?:of\s+|at\s+|to\s+|is\s+|was\s+|=\s*)?$"
    r"|\b(?:like|e\.g\.,?|for\s+(?:example|instance),?|such\s+as)\s*$",
    re.IGNORECASE,
)
_SETTING_AFTER = re.compile(
    r"^[\s~]*(?:[\w-]+[\s~]+)?(?:thresholds?|cut-?offs?|targets?|levels?|(?:significance|confidence|credib\w*)\s+(?:levels?|intervals?)|CL|CI)\b",
    re.IGNORECASE,
)


def _roles(sentence: str) -> dict[int, Role]:
    """The role of each number in `sentence` that a list, a set or a range takes, by its start."""
    roles: dict[int, Role] = {}
    for match in _RANGE.finditer(sentence):
        for number in _NUMBER.finditer(sentence, match.start(), match.end()):
            roles[number.start()] = Role.RANGE
    listed = [*_SET.finditer(sentence)]
    if not _RESPECTIVELY.search(sentence):  # "43.1, 38.6 and 60.2, respectively" are results
        listed += _ENUMERATION.finditer(sentence)
    for match in listed:
        for number in _NUMBER.finditer(sentence, match.start(), match.end()):
            roles[number.start()] = Role.LISTED
    return roles


def _role(sentence: str, start: int, end: int, spans: dict[int, Role]) -> Role:
    """The role of the number at sentence[start:end], given the `_roles` of its sentence."""
    if start in spans:
        return spans[start]
    before = sentence[max(0, start - 40) : start]
    if _BOUND_BEFORE.search(before):
        return Role.BOUND
    assigned = _ASSIGNED_BEFORE.search(before) and not _COUNT_BEFORE.search(before)
    if assigned or _SETTING_BEFORE.search(before) or _SETTING_AFTER.match(sentence[end : end + 40]):
        return Role.SETTING
    if _APPROXIMATE_BEFORE.search(before):
        return Role.APPROXIMATE
    return Role.VALUE


@dataclass(slots=True)
class NumberMention:
    value: float
    text: str  # as written, e.g. "48.66%"
    decimals: int
    percent: bool
    unit: str
    plain_start: int  # in the block's plain text
    plain_end: int
    sentence: str
    sentence_start: int  # in the block's plain text
    context: tuple[str, ...]  # content words of the sentence, lower-case
    is_year: bool = False
    role: Role = Role.VALUE


def find_numbers(plain: str) -> list[NumberMention]:
    """Quantities in a block's plain text; identifiers, years stay marked."""
    opaque = [match.span() for match in _OPAQUE.finditer(plain)]
    mentions: list[NumberMention] = []
    for start, end in sentence_spans(plain):
        sentence = plain[start:end]
        context = tuple(word.lower() for word in _WORD.findall(sentence) if word.lower() not in _STOPWORDS)
        spans = _roles(sentence)
        for match in _NUMBER.finditer(sentence):
            absolute = start + match.start()
            if any(a <= absolute < b for a, b in opaque):
                continue
            if _STRUCTURAL_BEFORE.search(sentence[max(0, match.start() - 14) : match.start()]):
                continue
            sign, digits, unit = match.groups()
            value = float(digits.replace(",", ""))
            if sign:
                value = -value
            unit = (unit or "").replace("\\%", "%").replace("percent", "%")
            decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
            is_year = decimals == 0 and not unit and 1900 <= value <= 2100 and "," not in digits
            mentions.append(
                NumberMention(
                    value,
                    match.group(0),
                    decimals,
                    unit == "%",
                    unit,
                    absolute,
                    start + match.end(),
                    sentence,
                    start,
                    context,
                    is_year,
                    _role(sentence, match.start(), match.end(), spans),
                )
            )
    return mentions
