"""A measured quantity a paper names and gives a value once ("a mass of 177 g"), and a percentage a sentence
states of such a quantity without its value ("a load of 50 g, which corresponds to 35.7% of its weight").

A careful reader who meets a share of a named quantity looks back for that quantity's value and redoes the
division. The readers below find both shapes in a block's plain text: a value with a unit of measure, and a
percentage "of its/the … <noun>" after it in the same clause, where the sentence writes no other value in that
unit (ARI015 reads a base written beside the percentage); and a named quantity given a value with a unit
("<noun> of/is/was N <unit>", "weighs N <unit>"). The two are paired by the noun and the unit as written:
a base in another unit ("1.2 kg" for "50 g") is not converted, as its rounding would have to be.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern
from ....latex.record import record
from ...memo import TEXT_CACHE_SIZE
from .model import PERCENT_SIGN, Written, may_write_percent

# Units of measure, each spelling under one name: a share and its base pair only in the same unit.
_UNITS = {
    "mg": r"mg|milligrams?",
    "g": r"g|grams?",
    "kg": r"kg|kilograms?",
    "t": r"tonnes?|tons?",
    "ms": r"ms|milliseconds?",
    "s": r"s|secs?|seconds?",
    "min": r"mins?|minutes?",
    "h": r"h|hrs?|hours?",
    "day": r"days?",
    "mm": r"mm|millimet(?:er|re)s?",
    "cm": r"cm|centimet(?:er|re)s?",
    "m": r"m|met(?:er|re)s?",
    "km": r"km|kilomet(?:er|re)s?",
    "KB": r"[kK]B|kilobytes?",
    "MB": r"MB|megabytes?",
    "GB": r"GB|gigabytes?",
    "TB": r"TB|terabytes?",
    "W": r"W|watts?",
    "kW": r"kW|kilowatts?",
    "MW": r"MW|megawatts?",
    "GW": r"GW|gigawatts?",
    "kWh": r"kWh",
    "MWh": r"MWh",
    "GWh": r"GWh",
    "TWh": r"TWh",
    "J": r"J|joules?",
    "kJ": r"kJ",
    "Hz": r"Hz",
    "kHz": r"kHz",
    "MHz": r"MHz",
    "GHz": r"GHz",
    "L": r"L|lit(?:er|re)s?",
    "mL": r"mL|ml|millilit(?:er|re)s?",
}
# A number with its unit, the unit case-sensitive ("MB" is not "mb"): "50g", "177 g", "2.7 hours".
_MEASURE = (
    r"(?<![\w.,^_{\\])(\d{1,3}(?:,\d{3})+(?!\d)|\d+)(\.\d+)?\s*(?:\\,|~)?\s*(?P<unit>"
    + "|".join(f"(?P<{re.sub(r'[^A-Za-z]', '_', name)}>{spellings})" for name, spellings in _UNITS.items())
    + r")(?![\w-])"
)
_MEASURE_PATTERN = DeferredPattern(_MEASURE)
_HEDGE = r"(?:about|roughly|approximately|nearly|almost|around|close\s+to|≈|~|\\approx|\\sim)"
# "a load of 50 g, which corresponds to 35.7% of its weight", "50 g (≈ 25% of its weight)": the value, at
# most a clause of words without a number, the percentage, and the noun after "of its/the" (two words may
# qualify it: "of the total weight"), the noun closing the phrase.
_SHARE = DeferredPattern(
    _MEASURE
    + r"[^\d;:]{0,60}?(?P<estimate>"
    + _HEDGE
    + r"\s*)?(?P<percent>\d+)(\.\d+)?"
    + PERCENT_SIGN
    + r"\s+of\s+(?:its|the|their|our|his|her|this|that|each)\s+(?:[a-z'’-]+\s+){0,2}?(?P<noun>[a-z]+)"
    + r"(?=\s*[,.;:)]|\s*$|\s+(?:and|or|in|at|for|which|when|while|to|as|with|on|from|by|during)\b)"
)
# "a mass of 177g", "the budget was 2.4 MW", "the robot weighs 1.2 kg": a named quantity given a value.
_NAMED = DeferredPattern(
    r"\b(?P<noun>[a-z]+)\s+(?:of|is|was|=|:|equals|totals?|amounts\s+to)\s+(?:" + _HEDGE + r"\s*)?" + _MEASURE,
)
_WEIGHS = DeferredPattern(r"\bweigh(?:s|ed|ing)?\s+(?:" + _HEDGE + r"\s*)?" + _MEASURE)
# A noun the paper may use for the same quantity: a vehicle's "weight" is its "mass".
_SAME_QUANTITY = {"weight": "mass"}
_SENTENCE_END = DeferredPattern(r"\.\s+(?=[A-Z])|[;:]|$")


def quantity_noun(noun: str) -> str:
    """The name a quantity is paired under: a noun in the singular, or the noun it stands for."""
    singular = noun.lower()[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun.lower()
    return _SAME_QUANTITY.get(singular, singular)


def _unit(match: re.Match[str]) -> str:
    return next(name for name in _UNITS if match.group(re.sub(r"[^A-Za-z]", "_", name)) is not None)


@record(slots=True)
class NamedShare:
    """A percentage stated of a named quantity (`noun`) whose value the sentence does not give: `value` in `unit`."""

    value: Written
    unit: str
    percent: Written
    noun: str
    noun_end: int
    estimate: bool


@record(slots=True)
class NamedValue:
    """A named quantity (`noun`) given a value in `unit`."""

    noun: str
    value: Written
    unit: str
    start: int
    end: int  # after the unit


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def named_shares(text: str) -> tuple[NamedShare, ...]:
    """Every percentage the text states of a named quantity, its value in a unit before it in the clause."""
    if not may_write_percent(text):
        return ()
    found = []
    for match in _SHARE.finditer(text):
        unit, value = _unit(match), Written.read(match, 1)
        sentence = text[: match.start()].rfind(". ") + 1, _SENTENCE_END.search(text, match.end("noun")).end()  # type: ignore[union-attr]  # "$" always matches
        others = [m for m in _MEASURE_PATTERN.finditer(text, *sentence) if _unit(m) == unit and m.start(1) != value.start]
        if others:
            continue  # the sentence gives another value in the unit: the base may be beside the share
        percent = Written.read(match, match.re.groupindex["percent"])
        found.append(NamedShare(value, unit, percent, quantity_noun(match.group("noun")), match.end("noun"), bool(match.group("estimate"))))
    return tuple(found)


@lru_cache(maxsize=TEXT_CACHE_SIZE)
def named_values(text: str) -> tuple[NamedValue, ...]:
    """Every named quantity the text gives a value with a unit."""
    found = [NamedValue(quantity_noun(m.group("noun")), Written.read(m, 2), _unit(m), m.start(), m.end()) for m in _NAMED.finditer(text)]
    found += [NamedValue("mass", Written.read(m, 1), _unit(m), m.start(), m.end()) for m in _WEIGHS.finditer(text)]
    return tuple(found)
