"""APA-style test results in a block's plain text: `t(28) = 2.20, p = .036` and its variants.

What authors write, after the plain-text rendering of their LaTeX (`\\textit{p}`, `\\mathit`,
`\\text`, `{=}`, `\\,`, `\\leq`, siunitx's `\\num` and `\\SI` are already plain characters):

- the tests t, F, r, z, Q (`Q`, `Qb`, `Qw`, `Q_b`, `Q_{Between}`, `QWithin`, `Q-within`) and chi-square, spelt `χ²`, `χ^2`, `\\chi^2`,
  `X2`, `x2`, `chi2`, `chi_2`;
- a comparison sign on the statistic (`t(28) < 2.2`, `F(1, 24) < 1`);
- the letter l typed for the digit 1 in degrees of freedom (`F(l, 76)`);
- thousands separators (`N = 3,479`, `1{,}008`, `2,000.20`) and Unicode minus signs;
- ties (`~`) and thin spaces between the pieces;
- the p-value after a comma, a semicolon or in its own parentheses, or in the next cell of a table's
  row (`$F(1,267)=2.739$ & $p=.765$`), or "ns" in its place;
- an effect size, an MSE or a confidence interval between the statistic and its p-value.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..latex.deferred_pattern import DeferredPattern
from ..latex.record import record
from .memo import TEXT_CACHE_SIZE

_GAP = r"[\s~]*"  # white space and the tie `~`, which the plain text keeps
_SIGN = r"[-−–]?"
_DIGITS = r"(?:\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d*)?|\.\d+)"  # 3,479 / 2,000.20 / 2.20 / .32
_COMPARISON = r"<=|>=|[<>=≤≥⩽⩾]"
_P_NUMBER = r"(?:\d*\.\d+|\d+)(?:\s*(?:[×x·]|\\times|\\cdot)\s*10\^\{?[-−]\d+\}?|[eE][-−]\d+)?"
# A reported p-value: "p = .036", "p < .001", "\\textit{p}~=~.06", "p = 8.7 \\times 10^{-6}".
P_VALUE = rf"(?<![\w.])[pP]{_GAP}(?P<cmp>{_COMPARISON}){_GAP}(?P<p>{_P_NUMBER})"
# The test's name, as the plain text spells it in text and math mode.
_TEST = (
    r"(?P<test>t|F|r|z|Z|Q(?:[_-]?\{?(?:b|w|B|W|[Bb]etween|[Ww]ithin)\}?)?"
    r"|χ\s*\^?\s*\{?2\}?|χ²|χ_\{?2\}?|[Xx]\s*\^?\s*\{?2\}?|[Xx]²|chi\s*[\^_-]?\s*\{?2\}?|chi²)"
)
_DEGREES = (
    rf"\({_GAP}(?P<df1>\d+(?:\.\d+)?|l(?={_GAP},)){_GAP}"  # "F(l, 76)": the letter l typed for the digit 1
    rf"(?:,{_GAP}(?P<df2>\d{{1,3}}(?:,\d{{3}})+(?!\d)|\d+(?:\.\d+)?){_GAP})?"
    rf"(?:,{_GAP}[Nn]{_GAP}={_GAP}\d[\d,]*{_GAP})?\){_GAP}"
)
# What may stand between a statistic and its p-value: "MSE = 0.3", "d = 0.81", "η_p^2 = .03",
# "Cohen's d = 0.8", "95% CI [0.1, 1.5]", "two-tailed". Never another p.
_BETWEEN = (
    rf"(?:(?:Cohen['’]s{_GAP})?(?![pP]{_GAP}(?:{_COMPARISON}))[A-Za-zηωβΔ][\w^{{}}'’]{{0,10}}{_GAP}(?:{_COMPARISON}){_GAP}{_SIGN}{_DIGITS}"
    rf"|(?:\d+{_GAP}%{_GAP})?(?:CI|C\.I\.|confidence interval){_GAP}[:=]?{_GAP}[\[(][^\])]{{1,40}}[\])]"
    r"|(?:one|two)[- ](?:tailed|sided))"
)
# Each gap is followed by a character it cannot hold: one way to split the spaces, no backtracking storm.
# A table's plain text joins a row's cells with "&": a statistic's p may stand in the next cell.
_SEPARATOR = rf"{_GAP}(?:[,;:(&]{_GAP}){{0,2}}"
_RESULT = DeferredPattern(
    rf"(?<![\w^\\.'’]){_TEST}{_GAP}(?:{_DEGREES})?"
    rf"(?P<test_cmp>{_COMPARISON}){_GAP}(?P<value>(?:[-−–]{_GAP})?{_DIGITS})"
    rf"{_SEPARATOR}(?:{_BETWEEN}{_SEPARATOR}){{0,3}}"
    rf"(?:{P_VALUE}|(?P<ns>n\.\s?s\.?|ns|NS)(?!\w))"
)
# A statistic of squares written with a minus, which no data give: "F(1, 24) = -2.10", "χ²(2) = −5.3"
# (a difference Δχ² may be negative: the Δ is excluded).
NEGATIVE_STATISTIC = DeferredPattern(
    r"(?<![\w^\\.'’Δ])(?P<test>F|Q(?:[_-]?\{?(?:b|w|B|W|[Bb]etween|[Ww]ithin)\}?)?|χ\s*\^?\s*\{?2\}?|χ²|chi\s*[\^_-]?\s*\{?2\}?|chi²)"
    rf"{_GAP}{_DEGREES}={_GAP}(?P<value>[-−–]{_GAP}{_DIGITS})"
)
_EXPONENT = DeferredPattern(r"(?:\^\{?|[eE])([-−]\d+)")
_LESS = ("<", "<=", "≤", "⩽")
_MORE = (">", ">=", "≥", "⩾")
_SPELLED = {"<=": "≤", "⩽": "≤", ">=": "≥", "⩾": "≥"}
_ONE_DF = ("t", "r", "χ²", "Q")  # tests with one degree of freedom in the parentheses; z has none, F two


@record(slots=True)
class ReportedResult:
    """One result as written: `t(28) = 2.20, p = .036`, with where it sits in the plain text."""

    test: str  # t, F, r, z, χ² or Q
    df1: float | None
    df2: float | None
    test_comparison: str  # "=", "<" or ">" on the statistic
    value: float
    decimals: int  # of the statistic
    comparison: str  # "=", "<", ">" on p, or "ns"
    p: float | None  # None for "ns"
    p_half: float  # half a unit of the reported p's last digit
    statistic: str  # "t(28) = 2.20" as written, white space collapsed
    p_text: str  # the reported p as written (".036", "8.7 \\times 10^{-6}"), or "ns"
    p_sign: str  # the sign before p as written, in one spelling ("≤" for <=, \\leq and ⩽), or "" for "ns"
    start: int
    end: int

    @property
    def stated_p(self) -> str:
        """What the text says of p: "p = .036", "p < .001", "ns"."""
        return "ns" if self.comparison == "ns" else f"p {self.p_sign} {self.p_text}"

    @property
    def one_tailed_possible(self) -> bool:
        """t, r and z have a one-tailed form; F, χ² and Q are one-sided by construction."""
        return self.test in ("t", "r", "z")


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def read_results(text: str) -> tuple[ReportedResult, ...]:
    """Every APA-style result in a block's plain text; cached by text, so an edit re-reads one block."""
    if "=" not in text and "<" not in text and ">" not in text:
        return ()
    return tuple(result for match in _RESULT.finditer(text) if (result := _result(text, match)) is not None)


def _result(text: str, match: re.Match[str]) -> ReportedResult | None:
    test = _test_name(match.group("test"))
    df1 = (1.0 if match.group("df1") == "l" else number(match.group("df1"))) if match.group("df1") else None
    df2 = number(match.group("df2")) if match.group("df2") else None
    if test in _ONE_DF and df2 is not None and re.fullmatch(r"\d{3}", match.group("df2")) and re.fullmatch(r"\d{1,3}", match.group("df1")):
        # t(1,008): a thousands separator in a single degree of freedom
        df1, df2 = number(match.group("df1") + match.group("df2")), None
    if (test in _ONE_DF and (df1 is None or df2 is not None)) or (test == "F" and df2 is None) or (test == "z" and df1 is not None):
        return None
    if (df1 is not None and df1 <= 0) or (df2 is not None and df2 <= 0):
        return None
    value = number(match.group("value"))
    if (test == "r" and abs(value) > 1) or (test in ("F", "χ²", "Q") and value < 0):
        return None
    p_sign = _SPELLED.get(match.group("cmp"), match.group("cmp"))
    if match.group("ns"):
        comparison, p, p_half, p_text, p_sign = "ns", None, 0.0, "ns", ""
    else:
        p_text = match.group("p")
        p = p_number(p_text)
        if p is None or p > 1:
            return None
        exponent = _EXPONENT.search(p_text)
        p_half = 0.5 * 10 ** -decimals(p_text) * (10 ** int(exponent.group(1).replace("−", "-")) if exponent else 1)
        comparison = _normal_comparison(match.group("cmp"))
    return ReportedResult(
        test=test,
        df1=df1,
        df2=df2,
        test_comparison=_normal_comparison(match.group("test_cmp")),
        value=value,
        decimals=decimals(match.group("value")),
        comparison=comparison,
        p=p,
        p_half=p_half,
        statistic=" ".join(text[match.start() : match.end("value")].replace("~", " ").split()),
        p_text=p_text,
        p_sign=p_sign,
        start=match.start(),
        end=match.end(),
    )


def _test_name(written: str) -> str:
    if written[0] == "Q":
        return "Q"
    if written in ("t", "F", "r"):
        return written
    return "z" if written in ("z", "Z") else "χ²"


def _normal_comparison(sign: str) -> str:
    return "<" if sign in _LESS else ">" if sign in _MORE else "="


def number(text: str) -> float:
    return float(re.sub(r"[\s~,]", "", text).replace("−", "-").replace("–", "-"))


def p_number(text: str) -> float | None:
    text = text.replace("−", "-").replace("\\times", "×").replace("\\cdot", "×")
    match = re.fullmatch(r"(\d*\.?\d+)\s*(?:[×x·]\s*10\^\{?(-\d+)\}?|[eE](-\d+))?", text.strip())
    if not match:
        return None
    exponent = match.group(2) or match.group(3)
    return float(match.group(1)) * (10 ** int(exponent) if exponent else 1)


def decimals(text: str) -> int:
    mantissa = re.split(r"[×x·eE\\]", text)[0]
    return len(mantissa.split(".")[1].strip()) if "." in mantissa else 0
