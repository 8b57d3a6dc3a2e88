"""How a sentence states the extent of a set of values (NUM007, NUM016): a range's two ends ("between 0.648 and
0.659", "from 10% to 69%", "1.5--40%") and an upper bound ("by up to 22.4%", "by as much as 30%"), each end a
number with its decimals and whether it is a percentage."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ...quantities import spelled

NUMBER = r"([-−]?\d+(?:\.\d+)?)(\s*%)?"
_RANGE = re.compile(
    r"\bbetween\s+" + NUMBER + r"\s+and\s+" + NUMBER
    + r"|\bfrom\s+" + NUMBER + r"\s+to\s+" + NUMBER
    + r"|(?<![\w.,-])" + NUMBER + r"\s*(?:--|–|—|-)\s*" + NUMBER + r"(?![\w.,]|-\d)"
)  # fmt: skip
# "by up to 22.4%", "by as much as 30%", "up to 40x": a bound the set of values must reach, a percentage or a ratio.
_UP_TO = re.compile(r"\b(?:up\s+to|as\s+much\s+as)\s+([-−]?\d+(?:\.\d+)?)(?:(\s*%)|\s*(?:x|×|times|-?fold)\b)")
# "4-7x lower", "between 2.5 and 46.7 times faster", "a 2–3-fold reduction": a range of ratios.
_TIMES = r"\s*(?:x|×|times|-?fold)\b"
_RATIO_RANGE = re.compile(r"(?<![\w.,-])(\d+(?:\.\d+)?)\s*(?:x|×)?\s*(?:--|–|—|-|to|and)\s*(\d+(?:\.\d+)?)" + _TIMES)


@dataclass(frozen=True, slots=True)
class End:
    """One end of a stated extent: its value, its decimals and whether it is a percentage."""

    value: float
    decimals: int
    percent: bool
    times: bool = False  # a ratio: "4x", "2.5 times"

    @property
    def written(self) -> str:
        unit = "%" if self.percent else "x" if self.times else ""
        return ("-" if self.value < 0 else "") + spelled(self.value, self.decimals) + unit


def end_of(text: str, percent: bool) -> End:
    text = text.replace("−", "-")
    return End(float(text), len(text.partition(".")[2]), percent)


def stated_ranges(sentence: str) -> Iterator[tuple[int, int, End, End]]:
    """The ranges of `sentence`, low end first; a year span ("2005–2014") is none."""
    for match in _RANGE.finditer(sentence):
        groups = [group for group in match.groups()]
        pair = next(groups[i : i + 4] for i in (0, 4, 8) if groups[i] is not None)
        percent = bool(pair[1] or pair[3])
        ends = sorted((end_of(pair[0], percent), end_of(pair[2], percent)), key=lambda end: end.value)
        if all(end.decimals == 0 and 1900 <= end.value <= 2100 for end in ends):
            continue
        yield match.start(), match.end(), ends[0], ends[1]


def stated_bounds(sentence: str) -> Iterator[tuple[int, int, End]]:
    """The upper bounds of `sentence` stated as percentages ("by up to 22.4%") or ratios ("up to 40x")."""
    for match in _UP_TO.finditer(sentence):
        end = end_of(match.group(1), bool(match.group(2)))
        yield match.start(), match.end(), end if end.percent else End(end.value, end.decimals, False, times=True)


def stated_ratio_ranges(sentence: str) -> Iterator[tuple[int, int, End, End]]:
    """The ranges of ratios of `sentence` ("4-7x lower", "2.5 to 46.7 times faster"), low end first."""
    for match in _RATIO_RANGE.finditer(sentence):
        low, high = sorted((end_of(match.group(1), False), end_of(match.group(2), False)), key=lambda end: end.value)
        yield match.start(), match.end(), End(low.value, low.decimals, False, True), End(high.value, high.decimals, False, True)
