"""Numbers in prose, with the context a reader uses to know what they measure."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .sentences import sentence_spans

_NUMBER = re.compile(
    r"(?<![\w.\\{:/-])([-−]?)(\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?|\.\d+)(?:\s?(%|\\%|percent\b|pp\b|points?\b|×|x\b|[kKMB]\b|million\b|billion\b))?"
)
# Inside these the digits are identifiers, not quantities.
_OPAQUE = re.compile(r"\\(?:ref|eqref|autoref|cref|Cref|pageref|cite\w*|parencite|textcite|autocite|label|url|href)\*?(?:\[[^\]]*\])*\{[^}]*\}")
_STRUCTURAL_BEFORE = re.compile(
    r"(?:\b(?:Table|Tab|Figure|Fig|Figs|Section|Sec|Chapter|Eq|Equation|Eqs|Appendix|Algorithm|Alg|Line|Lines|Theorem|Lemma|Corollary|Proposition|Definition|Step|Stage|Phase|Version|v|Page|pp|Example|Remark|Assumption|Problem|Exercise|Item|Part|Row|Column|Task|Round|Level|Layer|Block)\.?|[A-Za-z]-|#)\s*\(?$",
)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-+]*")
_STOPWORDS = frozenset({
    "the", "a", "an", "of", "on", "in", "to", "and", "or", "for", "with", "by", "at", "as", "is", "are", "was", "were",
    "be", "been", "this", "that", "these", "those", "we", "our", "it", "its", "from", "than", "which", "while", "over",
    "into", "up", "achieves", "achieve", "reaches", "obtains", "shows", "show", "has", "have", "respectively", "about",
    "around", "approximately", "only", "also", "both", "all", "each", "per", "across", "using", "use", "used",
})


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


def find_numbers(plain: str) -> list[NumberMention]:
    """Quantities in a block's plain text; identifiers, years stay marked."""
    opaque = [match.span() for match in _OPAQUE.finditer(plain)]
    mentions: list[NumberMention] = []
    for start, end in sentence_spans(plain):
        sentence = plain[start:end]
        context = tuple(word.lower() for word in _WORD.findall(sentence) if word.lower() not in _STOPWORDS)
        for match in _NUMBER.finditer(sentence):
            absolute = start + match.start()
            if any(a <= absolute < b for a, b in opaque):
                continue
            if _STRUCTURAL_BEFORE.search(sentence[max(0, match.start() - 14):match.start()]):
                continue
            sign, digits, unit = match.groups()
            value = float(digits.replace(",", ""))
            if sign:
                value = -value
            unit = (unit or "").replace("\\%", "%").replace("percent", "%")
            decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
            is_year = decimals == 0 and not unit and 1900 <= value <= 2100 and "," not in digits
            mentions.append(NumberMention(
                value, match.group(0), decimals, unit == "%", unit, absolute, start + match.end(),
                sentence, start, context, is_year,
            ))
    return mentions
