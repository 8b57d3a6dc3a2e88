"""Numbers in prose, with the context a reader uses to know what they measure."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import pairwise

from .deferred_pattern import DeferredPattern
from .number_subjects import OPAQUE, STOPWORDS, WORD, subject_words
from .sentences import sentence_spans

# Scientific notation as printed (math prints `\times` as ×, `\cdot` as ·): a mantissa times a power of ten ("8×10^5",
# "1.1· 10^6", "3.4 \\cdot 10^{-8}") or its exponent after an e ("3e-4", "1.2E+5", "3e^{-4}"); table cells and prose read it alike.
_EXPONENT_DIGITS = r"[-−+]?\d+"


def _times_ten_to(exponent: str) -> str:
    # "3e^{-4}" as math writes a learning rate, "4e^6" a size; after a caret no power of 2 ("2e^2/h" is the electron's
    # charge) nor of 1. A times sign as code writes it ("65 * 10^8") multiplies too.
    return (
        r"(?:[eE](?:\^\{?(?=[-−]|[3-9]|[1-9]\d))?" + exponent + r"\}?(?!\w|\.\d)"
        r"|\s*(?:[×x·⋅*∗]|\\times|\\cdot|\\ast)\s*10\s?\^\{?" + exponent + r"\}?)"
    )


def _power_of_ten(exponent: str) -> str:
    return r"10\s?\^\{?" + exponent + r"\}?"


TIMES_TEN_TO = _times_ten_to(f"({_EXPONENT_DIGITS})")
# A power of ten alone ("10^-3", "∼ 10^6 steps"): the mantissa is 1.
POWER_OF_TEN = _power_of_ten(f"({_EXPONENT_DIGITS})")
# A number as written, in scientific notation or not ("0.5", "8×10^5", "10^-3"), without groups: for the patterns
# of a statement to take whole (atomic: "up to 8×10^5" is no "up to 8×"), and `written_value` to read.
WRITTEN_NUMBER = r"(?>[-−]?(?:" + _power_of_ten(_EXPONENT_DIGITS) + r"|\d+(?:\.\d+)?" + _times_ten_to(_EXPONENT_DIGITS) + "?))"
_WRITTEN = DeferredPattern(r"([-−]?)(?:" + POWER_OF_TEN + r"|([\d.,]+)" + TIMES_TEN_TO + "?)")


def scaled(digits: str, power: str | None) -> tuple[float, int]:
    """The value and decimal places of `digits` times ten to `power`: 3.5·10^-1 is 0.35, two places; 8×10^5 is 800000."""
    decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
    if not power:
        return float(digits.replace(",", "")), decimals
    scale = int(power.replace("−", "-"))
    return float(f"{digits.replace(',', '')}e{scale}"), max(0, decimals - scale)


def written_value(text: str) -> tuple[float, int]:
    """The value and decimal places of a `WRITTEN_NUMBER` ("−8×10^5" is −800000)."""
    match = _WRITTEN.fullmatch(text)
    if match is None:
        raise ValueError(f"not a number as written: {text!r}")
    sign, power_alone, digits, exponent, times_ten = match.groups()
    value, decimals = scaled(digits or "1", power_alone or exponent or times_ten)
    return -value if sign else value, decimals


# `(?!\.?\d)`: no piece of a version ("JASP 0.16.3") or of a longer digit run is a quantity, nor a metric's cut-off ("P@10"). After a slash only the
# second of two percentages is one ("74.0%/82.1% exact/fuzzy"): neither side of a fraction ("3/4 of the data", "5/5",
# "24/7") is a quantity alone, nor a DOI's piece.
# A number in scientific notation is one quantity; an exponent is none ("m^2", "x^3"), nor is the base of another
# power than ten's ("2^10"), nor an ordinal ("3rd", "the 95th percentile", "5^th") or a dimension ("3D", "2D data").
# A multiplier is "8×" ("8× faster"); "256×256" is a product, whose factors `_PRODUCT` reads.
_NUMBER = DeferredPattern(
    r"(?<![\w.\\{:^@-])(?<![^%]/)(?<!^/)([-−]?)(?:"
    + POWER_OF_TEN
    + r"|(\d{1,3}(?:,\d{3})+(?!\.?\d)|\d+(?:\.\d+)?(?!\.?\d)|\.\d+(?!\.?\d))(?:"
    + TIMES_TEN_TO
    + r"|(?!\^\{?[-−+]?\d|\^?\{?(?:st|nd|rd|th)\b|D\b|/\d)))"
    r"(?:\s?(%|\\%|percent\b|pp\b|percentage\s+points?\b|points?\b|×(?!\s*\d)|x\b(?!\s*\d)|[kKMB]\b|million\b|billion\b))?"
)


def _unit_name(written: str) -> str:
    """A `_NUMBER`'s unit as the mentions name it: a percentage "%" however written, percentage points "pp"."""
    if written.startswith("percentage"):
        return "pp"
    return "%" if written in ("\\%", "percent") else written


# A whole percentage spelled out ("three percent", "twenty-five per cent", "Five %"): no decimals, so its rounding is
# to the whole percent. Not a percentile ("the top one percentile"), nor a word inside another ("someone percent").
_UNITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_NUMBER_WORDS = {word: value for value, word in enumerate(_UNITS)} | {word: 10 + value for value, word in enumerate(_TEENS)}
_NUMBER_WORDS |= {word: 20 + 10 * value for value, word in enumerate(_TENS)} | {"hundred": 100}


def _alternatives(words: tuple[str, ...] | dict[str, int]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


# Its one group is the number's words, for `spelled_value`; a pattern reading a bound takes it beside a `WRITTEN_NUMBER`.
SPELLED_PERCENT = (
    rf"(?<![\w-])((?:(?:one|a)\s+)?hundred|(?:{_alternatives(_TENS)})(?:[-\s](?:{_alternatives(_UNITS[1:])}))?"
    rf"|{_alternatives(_TEENS)}|{_alternatives(_UNITS)})\s?(?:percent\b|per\s+cent\b|\\?%)"
)
_WORD_PERCENT = DeferredPattern(SPELLED_PERCENT, re.IGNORECASE)


def spelled_value(words: str) -> int:
    """The whole number `_WORD_PERCENT` reads spelled out: "twenty-five" is 25, "a hundred" 100."""
    return sum(_NUMBER_WORDS[word] for word in re.split(r"[-\s]+", words.lower()) if word in _NUMBER_WORDS)


# A dash between two numbers ("0.7--1.7", "15-20%") is a range: written as an en dash (padded to keep offsets),
# so the second end is read as a number and not as an identifier's suffix ("BERT-110") or a negative. Not a dash
# inside an identifier: after digits glued to a letter ("E5-2623", "CA184-024", "FA8750-14-2-0009") or to a word's dash
# ("RGPIN-2021-02618"), nor in a chain of three or more groups (a date "2020-03-15", an ORCID "0000-0002-1825-0097").
_RANGE_DASH = DeferredPattern(r"(?<![\w.])(?<!\w-)(\d+(?:\.\d+)?)(-{1,3})(?=\d+(?:\.\d+)?(?!\.?\d|-{1,3}\d))")
# A tie (`Table~3`, `Period~1`, `4~GPUs`) prints as a space: read as one, it is no "~" of an approximate value.
# A "~" after a space is one an author meant as "about" ("is ~3.2"), though TeX prints a space.
_TIE = DeferredPattern(r"(?<=[\w.)\]}])~")
# A capitalised name before a number makes it a name ("Table 3", "Experiment 2", "Model 1", "Columns 1"), not a quantity;
# so does a cross-reference typed in lower case ("see table 2", "figures 3 and 4", "p. 66") or a version ("version 2.1",
# "release 1.5", "v. 1.2"), though not an ordinary word ("in this study 120 children", "each layer 64 units").
_NAMES_MANY = (
    r"Tables|Figures|Figs|Sections|Chapters|Equations|Eqs|Appendices|Algorithms|Lines|Rows|Columns|Layers|Rounds|Rules|Steps"
    r"|Experiments|Studies|Models|Conditions|Hypotheses|(?i:tables|figures|figs|sections|chapters|equations|eqs|pages)"
)
_NAMES = (
    r"\b(?:Table|Tab|Figure|Fig|Section|Sec|Chapter|Eq|Equation|Appendix|Algorithm|Alg|Line|Theorem|Lemma|Corollary|Proposition|Definition|Step|Stage|Phase|Version|v|Page|pp|Example|Remark|Assumption|Problem|Exercise|Item|Part|Row|Column|Task|Round|Level|Layer|Block"
    r"|Experiment|Exp|Expt|Study|Model|Condition|Hypothesis|Prediction|Case|Scenario|Session|Wave|Cluster|Profile|Panel|Specification|Group|Question|Trial|Simulation|Rule"
    rf"|(?i:table|figure|fig|section|chapter|equation|eq|appendix|algorithm|theorem|lemma|page|version|release|ver)|{_NAMES_MANY})\.?|\bp\."
)
_STRUCTURAL_BEFORE = DeferredPattern(rf"(?:{_NAMES}|[A-Za-z]-|#)\s*\(?$")
# The further names of a list ("Tables 1 and 2", "Experiments 1, 2, and 3a", "Sections 3--5").
_NAMED_LIST_BEFORE = DeferredPattern(
    rf"\b(?:{_NAMES_MANY})\.?\s*\(?\d+[a-z]?\)?(?:\s*,\s*\(?\d+[a-z]?\)?)*\s*(?:,?\s*(?:and|or|&)|,|–|to)\s*\(?$"
)
# A list's marker ("(1) We disable …", "…; 4) assign …", "and (2) a sweep"): it counts nothing.
_MARKER_BEFORE = DeferredPattern(r"(?:(?:^|[:;.]|\b(?:and|or|then))\s*\(?|,\s*\()$")  # not "(0, 1) are"
_MARKER_AFTER = DeferredPattern(r"\)\s+[A-Za-z]")
_MONTHS = r"(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)"
# A day of a date ("August 2, 2012", "15 March"): no quantity, though its year is one.
_MONTH_BEFORE = DeferredPattern(rf"\b{_MONTHS}\.?\s*$")
_MONTH_AFTER = DeferredPattern(rf"\s*{_MONTHS}\b")


class Role(str, Enum):
    """What a number is in its sentence, read from the words around it: the quantity model's role.
    Only a VALUE states a measured result outright; the others set, bound, span, count, test or
    round one. Two statements are of the same quantity only when their roles agree. References
    (Table 3, Eq. 2, Section 4.1) are no quantities and never become mentions."""

    VALUE = "result"
    LISTED = "listed"  # one of a list or set of values: a grid, a sweep ("p ∈ {0.05, 0.1, 0.2}", "1.0, 1.5 and 2.0 mm")
    RANGE = "range"  # an end of a range ("15%–20%", "between 2 and 5", "ranging from 0.5 to 3")
    BOUND = "bound"  # a threshold something is compared with ("above 85%", "at least 3")
    # A value given to a parameter or picked as an example: "λ = 0.005", "Normal(0, 0.05)", "a target of 90%",
    # "steps of 0.05", "targets like 80%".
    SETTING = "setting"
    APPROXIMATE = "approximate"  # "about 10%", "≈ 3.2"
    YEAR = "year"  # "in 2019"
    COUNT = "count"  # an integer before what it counts: "57 studies", "three of 12 items"
    SAMPLE_SIZE = "sample size"  # "N = 120", "120 participants"
    INTERVAL_LEVEL = "interval level"  # "95% CI", "90\%CrI", "at the 95% confidence level"
    INTERVAL_BOUND = "interval bound"  # "95% CI [2.09, 2.62]", "CrI: 2,230-2,700"
    CHANGE = "relative change"  # "+65%", "improves by 12%", "a decrease of 15%"
    P_VALUE = "p-value"  # "p = .03", "p < .001"
    STATISTIC = "test statistic"  # "t(28) = 2.20", "F(1, 186) = 5.73", "z = 1.96", and the degrees of freedom
    COEFFICIENT = "coefficient"  # a coefficient or an effect size: "β = 0.31", "OR = 1.89", "d = 0.42", "the coefficient is −0.228"


# "3,479" is one number, as `_NUMBER` reads it: not a list of 3 and 479. Its unit is no "and" ("0.8 and 1.0 mm"),
# nor the e of an exponent ("1e-4" is no range).
_UNIT = r"(?:\s?(?:%|(?!(?:and|or)\b|[eE][-−+]?\d)[A-Za-zμΩ]{1,3}\b))?"
_NUM = (
    r"(?<![\w.^])[-−]?(?:"
    + POWER_OF_TEN
    + r"|(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?(?!,\d{3}(?!\d))|\.\d+)"
    + TIMES_TEN_TO
    + "?)"
    + _UNIT
)
# An end of an interval in brackets, whose comma is no thousands separator: "[20,120]", "[90%, 110%]".
_BRACKETED = r"(?<![\w.^])[-−]?(?:" + POWER_OF_TEN + r"|(?:\d+(?:\.\d+)?|\.\d+)" + TIMES_TEN_TO + "?)" + _UNIT
# Three or more numbers joined by commas, "and", "or" ("0.4, 0.6, 0.8 and 1.0 mm"); a set in braces.
_ENUMERATION = DeferredPattern(_NUM + r"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)" + _NUM + r"){2,}")
_SET = DeferredPattern(r"\{[^{}]*\d[^{}]*,[^{}]*\}")
# A product or a size ("256×256 images", "2 × 4 layers", "109×109×64"), not a power of ten: its factors are no results.
_FACTOR = r"\d+(?:\.\d+)?"
_PRODUCT = DeferredPattern(rf"(?<![\w.^]){_FACTOR}(?:\s*[×x]\s*(?!10\s?\^){_FACTOR}(?![\w^]|\.\d))+")
_RESPECTIVELY = DeferredPattern(r"\brespectively\b", re.IGNORECASE)
_RANGE = DeferredPattern(
    _NUM
    + r"\s*(?:-{1,3}|–|—)\s*"
    + _NUM
    + r"|\[\s*"
    + _BRACKETED
    + r"\s*,\s*"
    + _BRACKETED
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
# "up to approximately 256": a bound, however approximate; "averaged over 3 runs" counts the runs.
_BOUND_BEFORE = DeferredPattern(
    r"(?:\b(?:above|below|beyond|(?<!averaged )(?<!average )(?<!averages )(?<!mean )(?<!median )over|under|exceed\w*|surpass\w*|at\s+(?:least|most)|up\s+to"
    r"|(?:no\s+)?(?:more|less|fewer|greater|higher|lower|larger|smaller|bigger)\s+than)"
    r"|[<>≤≥⩽⩾≪≫≳≲⪆⪅])(?:\s+(?:about|around|approximately|roughly|nearly|almost))?\s*$",
    re.IGNORECASE,
)
_APPROXIMATE_BEFORE = DeferredPattern(
    r"(?:\b(?:about|around|approximately|approx\.?|roughly|nearly|almost|circa|ca\.)|[~∼≈≃])\s*$", re.IGNORECASE
)
# "λ = 0.005", "Normal(0, 0.05": a symbol given a value, the arguments of a distribution or function.
_ASSIGNED_BEFORE = DeferredPattern(r"(?:=|\b[A-Za-z][\w,=.]*\((?:[^()]*,)?)\s*$")
# A count ("n = 62") is a result, not a setting; an index ("∑_n=1^N", "{σ_n}_n=1") is neither.
_COUNT_BEFORE = DeferredPattern(r"(?<![A-Za-z_])[nN]\s*=\s*$")
_SETTING_BEFORE = DeferredPattern(
    r"\b(?:thresholds?|cut-?offs?|targets?|alpha|α|(?:significance|confidence|credib\w*|alpha)\s+levels?|steps?(?:\s+sizes?)?"
    r"|increments?|(?:set|fixed)\s+(?:[\w-]+\s+){0,4}?(?:to|at)|chosen\s+as)\s+(?:of\s+|at\s+|to\s+|is\s+|was\s+|=\s*)?$"
    r"|\b(?:like|e\.g\.,?|for\s+(?:example|instance),?|such\s+as)\s*$",
    re.IGNORECASE,
)
_SETTING_AFTER = DeferredPattern(
    r"^[\s~]*(?:[\w-]+[\s~]+)?(?:thresholds?|cut-?offs?|targets?|levels?|(?:significance|confidence|credib\w*)\s+(?:levels?|intervals?)|CL|CI)\b",
    re.IGNORECASE,
)


_P_BEFORE = DeferredPattern(
    r"(?<![A-Za-z])(?:p|p-value|p-values)\s*(?:[=<>≤≥⩽⩾]|\\[lg]eq?)\s*$|\bp-values?\s+(?:of|was|is)\s*$", re.IGNORECASE
)
# "t(28) = ", "F(1, 186) <", "χ2(2, N = 3,479) =", "z =", "Q(3) =": a test statistic, or (inside its parentheses) a degree of freedom.
_STATISTIC_BEFORE = DeferredPattern(
    r"(?<![A-Za-z])(?:t|F|z|Z|W|U|H|Q[bw]?|r|R\^?2|χ\^?2|χ²|chi\^?2|chi-square[d]?|X\^?2|x2)\s*"
    r"(?:\([^()]*\)\s*(?:[=<>≤≥]|\\[lg]eq?)\s*|(?:[=<>≤≥]|\\[lg]eq?)\s*|\((?:[^()]*,\s*)?(?:N\s*=\s*)?)$"
)
# An effect size is Cohen's d or Hedges' g in lower case: "D = 4" sets a dimension.
_COEFFICIENT_BEFORE = DeferredPattern(
    r"(?:(?<![A-Za-z])(?:β|beta|b|B|OR|HR|RR|IRR|AOR|aOR|γ|coef\.?|(?-i:d|g)|η\^?2|η²|ηp2|η_p\^?2|ω\^?2|ω²|BF(?:_?\{?[01]{2}\}?)?|R\^?2|R²)\s*[=<>]\s*"
    r"|\b(?:coefficients?|estimates?|elasticit(?:y|ies))\b(?:\s+[\w-]+){0,4}?\s+(?:is|was|are|were|of|equals?|at|=)\s*)$",
    re.IGNORECASE,
)
# A descriptive statistic is a result, though written as an assignment: "(M = 4.50, SD = 1.2)".
_DESCRIPTIVE_BEFORE = DeferredPattern(r"(?<![A-Za-z])(?:M|SD|SE|SEM|Mdn|mean|median)\s*=\s*$")
_SAMPLE_BEFORE = _COUNT_BEFORE
_SAMPLE_AFTER = DeferredPattern(
    r"^\s*(?:[\w-]+\s+)?(?:participants?|subjects?|respondents?|patients?|children|adults?|students?|individuals?|infants?"
    r"|volunteers?|people|persons?|households?|workers?|voters?|mice|rats|animals?|cases|controls)\b",
    re.IGNORECASE,
)
_INTERVAL_AFTER = DeferredPattern(
    r"^\s*(?:\\?%|percent)?\s*(?:CIs?|CrIs?|HDIs?|HPDs?|PIs?|UIs?|confidence|credib\w*|prediction|uncertainty|highest|compatibility)\b",
    re.IGNORECASE,
)
_INTERVAL_BEFORE = DeferredPattern(
    r"(?:\b(?:CIs?|CrIs?|HDIs?|HPDs?|UIs?|intervals?)\b[^.;()]{0,12}?[:=]?\s*[\[(]?\s*(?:[-−]?[\d.,]+\s*(?:,|-{1,2}|–|to)\s*)?)$",
    re.IGNORECASE,
)
_CHANGE_BEFORE = DeferredPattern(
    r"(?:\b(?:by|(?:increase|decrease|reduction|improvement|gain|drop|decline|rise|growth|change|boost|loss|fall|jump)s?\s+(?:of\s+)?(?:about\s+|around\s+)?)\s*"
    r"|(?<![\w)\]}])\+)$",  # a sign, not a sum's plus ("t+1", "N + 1", "G28.37+0.07")
    re.IGNORECASE,
)
# A change named after its size ("80.5% improvement from", "a 3x reduction in", "a 27% absolute increase"); not a "loss",
# which as often names a level ("2.31 loss"), nor a rate ("1× growth rate").
_CHANGE_AFTER = DeferredPattern(
    r"^\s*(?:(?:relative|absolute|average|overall|net)\s+)?(?:improvement|increase|decrease|reduction|gain|drop|decline|rise|growth"
    r"|change|boost|jump|fall|speed-?up|slowdown)s?\b(?!\s*rates?\b)",
    re.IGNORECASE,
)
# What a count counts: a plural noun, maybe after one word ("57 studies", "4 additional genes"); no verb or function word
# that ends in s ("2 was", "3 is", "38 as definite").
_NOT_NOUNS = r"(?!(?:is|was|has|does|as|us|its|this|thus|plus|versus|across|whereas|always|perhaps|less|unless)\b)"
_COUNTED_AFTER = DeferredPattern(rf"^\s*(?:out\s+of\s+\d+\s+)?(?:{_NOT_NOUNS}[a-z][a-z-]*\s+)?{_NOT_NOUNS}[a-z][a-z-]*s\b")
# Two numbers joined by "and" or "or" ("reduces the error by 48% and 56%", "N = 19 and 49", "above 85% and 90%"):
# the words before the first say what both are. A comma or any other word between them ends the pair ("by 5%, and 90% of").
_PAIRED = DeferredPattern(r"\s+(?:and|or)\s+")
# The roles the words before a number give it, which its pair's second number shares; the second's own words give
# it no role of its own but a count's ("over 43,281 and 60,297 frames").
_SHARED_ROLES = frozenset({Role.CHANGE, Role.BOUND, Role.APPROXIMATE, Role.SETTING, Role.SAMPLE_SIZE, Role.P_VALUE, Role.COEFFICIENT})
_SHARED_OVER = frozenset({Role.VALUE, Role.COUNT})


def _roles(sentence: str) -> dict[int, Role]:
    """The role of each number in `sentence` that a list, a set or a range takes, by its start."""
    roles: dict[int, Role] = {}
    for match in _RANGE.finditer(sentence):
        for number in _NUMBER.finditer(sentence, match.start(), match.end()):
            roles[number.start()] = Role.RANGE
    listed = [*_SET.finditer(sentence), *_PRODUCT.finditer(sentence)]
    if not _RESPECTIVELY.search(sentence):  # "43.1, 38.6 and 60.2, respectively" are results
        listed += _ENUMERATION.finditer(sentence)
    for match in listed:
        for number in _NUMBER.finditer(sentence, match.start(), match.end()):
            roles[number.start()] = Role.LISTED
    return roles


def _role(sentence: str, start: int, end: int, spans: dict[int, Role], year: bool, whole: bool) -> Role:
    """The role of the number at sentence[start:end], given the `_roles` of its sentence; only a `whole` number
    (an integer as written, no percentage) counts. What a statistic's notation says comes first; then intervals
    (an interval's ends are not a range of results); then what the sentence's structure and words say."""
    before, after = sentence[max(0, start - 40) : start], sentence[end : end + 40]
    if year:
        return Role.YEAR
    if _P_BEFORE.search(before):
        return Role.P_VALUE
    if _STATISTIC_BEFORE.search(before):
        return Role.STATISTIC
    if _INTERVAL_AFTER.match(after):
        return Role.INTERVAL_LEVEL
    if _INTERVAL_BEFORE.search(before):
        return Role.INTERVAL_BOUND
    if start in spans:
        return spans[start]
    if _BOUND_BEFORE.search(before):
        return Role.BOUND
    if _SAMPLE_BEFORE.search(before) or (whole and _SAMPLE_AFTER.match(after)):
        return Role.SAMPLE_SIZE
    if _COEFFICIENT_BEFORE.search(before):
        return Role.COEFFICIENT
    if _CHANGE_BEFORE.search(before) or _CHANGE_AFTER.match(after):
        return Role.CHANGE
    if _DESCRIPTIVE_BEFORE.search(before):
        return Role.VALUE
    assigned = _ASSIGNED_BEFORE.search(before) and not _COUNT_BEFORE.search(before)
    if assigned or _SETTING_BEFORE.search(before) or _SETTING_AFTER.match(after):
        return Role.SETTING
    if _APPROXIMATE_BEFORE.search(before):
        return Role.APPROXIMATE
    if whole and _COUNTED_AFTER.match(after):
        return Role.COUNT
    return Role.VALUE


def _paired_roles(sentence: str, mentions: list[NumberMention]) -> None:
    """Give the second number of each pair (see `_PAIRED`) the role the first has from its words, when both are
    written alike (both percentages or neither, in one unit): "n=144 or 73%" is a count and its share."""
    for first, second in pairwise(mentions):
        if (
            first.role in _SHARED_ROLES
            and second.role in _SHARED_OVER
            and (first.percent, first.unit) == (second.percent, second.unit)
            and _PAIRED.fullmatch(sentence, first.plain_end, second.plain_start)
        ):
            second.role = first.role


# Block texts whose numbers are kept: a large paper's blocks, with room for the edits of a session.
_TEXTS_KEPT = 8192


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
    role: Role = Role.VALUE
    # What it measures: the content words of the phrase that names it ("accuracy on ImageNet"),
    # empty where the sentence does not say (see `subject_words`).
    subject: tuple[str, ...] = ()

    @property
    def is_year(self) -> bool:
        return self.role is Role.YEAR


@lru_cache(maxsize=_TEXTS_KEPT)
def find_numbers(plain: str) -> list[NumberMention]:
    """Quantities in a block's plain text; identifiers, years stay marked. Kept by text, so the index and
    the rules that read a block's numbers read them once between them: the list is shared, never changed."""
    # Sorted and apart (finditer's matches): a number is inside one when the last span starting at or before it reaches past it.
    opaque = [match.span() for match in OPAQUE.finditer(plain)]
    opaque_starts = [start for start, _ in opaque]
    mentions: list[NumberMention] = []
    for start, end in sentence_spans(plain):
        # The opaque spans that reach into the sentence, cut to it and counted from its start.
        first = max(bisect.bisect_right(opaque_starts, start) - 1, 0)
        inside = tuple(
            (max(low, start) - start, high - start) for low, high in opaque[first : bisect.bisect_left(opaque_starts, end)] if high > start
        )
        mentions += [
            NumberMention(
                mention.value,
                mention.text,
                mention.decimals,
                mention.percent,
                mention.unit,
                start + mention.plain_start,
                start + mention.plain_end,
                mention.sentence,
                start,
                mention.context,
                mention.role,
                mention.subject,
            )
            for mention in _sentence_numbers(plain[start:end], inside)
        ]
    return mentions


@lru_cache(maxsize=_TEXTS_KEPT)
def _sentence_numbers(text: str, opaque: tuple[tuple[int, int], ...]) -> tuple[NumberMention, ...]:
    """The quantities of one sentence outside its `opaque` spans, placed from its start: kept by sentence, so
    typing in a paragraph reads again the sentence typed in alone."""
    opaque_starts = [start for start, _ in opaque]
    mentions: list[NumberMention] = []
    sentence = _RANGE_DASH.sub(lambda range_: range_.group(1) + "–".ljust(len(range_.group(2))), text)
    read = _TIE.sub(" ", sentence)  # what the patterns read; the mentions keep the sentence as written
    context = tuple(word.lower() for word in WORD.findall(read) if word.lower() not in STOPWORDS)
    spans = _roles(read)

    def hidden(start: int) -> bool:
        before = bisect.bisect_right(opaque_starts, start)
        return bool(before) and start < opaque[before - 1][1]

    for match in _NUMBER.finditer(read):
        if hidden(match.start()):
            continue
        if _STRUCTURAL_BEFORE.search(read, max(0, match.start() - 14), match.start()) or _NAMED_LIST_BEFORE.search(
            read, max(0, match.start() - 40), match.start()
        ):
            continue
        sign, power_alone, digits, exponent, times_ten, unit = match.groups()
        power = power_alone or exponent or times_ten
        value, decimals = scaled(digits or "1", power)
        if sign:
            value = -value
        unit = _unit_name(unit or "")
        after = read[match.end() : match.end() + 40]
        # "57", "3,479", "8×10^5": no sign, no decimals, no unit.
        whole = not sign and not unit and decimals == 0
        if whole and value <= 31 and (_MONTH_BEFORE.search(read, max(0, match.start() - 11), match.start()) or _MONTH_AFTER.match(after)):
            continue
        if whole and value <= 20 and _MARKER_AFTER.match(after) and _MARKER_BEFORE.search(read, max(0, match.start() - 8), match.start()):
            continue
        is_year = whole and not power and 1900 <= value <= 2100 and "," not in digits and not _COUNTED_AFTER.match(after)
        role = _role(read, match.start(), match.end(), spans, is_year, whole)
        mentions.append(_mention(sentence, read, match.span(), value, decimals, unit, context, role))
    for match in _WORD_PERCENT.finditer(read):  # a percentage spelled out: a whole number ("three percent")
        if not hidden(match.start()):
            role = _role(read, match.start(), match.end(), spans, False, False)
            mentions.append(_mention(sentence, read, match.span(), float(spelled_value(match.group(1))), 0, "%", context, role))
    mentions.sort(key=lambda mention: mention.plain_start)
    _paired_roles(read, mentions)
    return tuple(mentions)


def _mention(
    sentence: str, read: str, span: tuple[int, int], value: float, decimals: int, unit: str, context: tuple[str, ...], role: Role
) -> NumberMention:
    """The number at `span` of a sentence, placed from its start; `read` is the sentence as the patterns read it."""
    start, end = span
    return NumberMention(
        value, sentence[start:end], decimals, unit == "%", unit, start, end, sentence, 0, context, role, subject_words(read, start, end)
    )
