"""The physical dimension of a unit as LaTeX writes it: siunitx's macros (`\\si{\\kilo\\hertz}`,
`\\per\\second`, `\\nm`), the units package's text (`m\\textsuperscript{3}s\\textsuperscript{-1}`) and
plain math (`\\mathrm{s^{-1}}`, `atoms/s`). A dimension is a sorted tuple of (base, exponent): a
prefix changes the scale, not the dimension, so ms and s, nm and cm compare equal."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from ....latex.deferred_pattern import DeferredPattern

Dimension = tuple[tuple[str, int], ...]

# Each unit in base dimensions: T time, L length, M mass, K temperature, I current, N amount.
_UNITS: dict[str, dict[str, int]] = {
    "s": {"T": 1},
    "min": {"T": 1},
    "h": {"T": 1},
    "Hz": {"T": -1},
    "m": {"L": 1},
    "g": {"M": 1},
    "K": {"K": 1},
    "A": {"I": 1},
    "mol": {"N": 1},
    "J": {"M": 1, "L": 2, "T": -2},
    "eV": {"M": 1, "L": 2, "T": -2},
    "W": {"M": 1, "L": 2, "T": -3},
    "V": {"M": 1, "L": 2, "T": -3, "I": -1},
    "T": {"M": 1, "T": -2, "I": -1},
    "G": {"M": 1, "T": -2, "I": -1},
    "Pa": {"M": 1, "L": -1, "T": -2},
    "N": {"M": 1, "L": 1, "T": -2},
    "L": {"L": 3},
    "rad": {},
}
# siunitx's names of the units above.
_NAMES = {
    "second": "s",
    "minute": "min",
    "hour": "h",
    "hertz": "Hz",
    "metre": "m",
    "meter": "m",
    "gram": "g",
    "kelvin": "K",
    "ampere": "A",
    "mole": "mol",
    "joule": "J",
    "electronvolt": "eV",
    "watt": "W",
    "volt": "V",
    "tesla": "T",
    "gauss": "G",
    "pascal": "Pa",
    "newton": "N",
    "litre": "L",
    "liter": "L",
    "radian": "rad",
}
_PREFIXES = ("yocto", "zepto", "atto", "femto", "pico", "nano", "micro", "milli", "centi", "deci", "kilo", "mega", "giga", "tera", "mu")
_PREFIX_LETTERS = "yzafpnuµμmcdkMGT"
# siunitx's abbreviations (`\nm`, `\kHz`, `\meV`) are a prefix letter before a unit's symbol.
_SHORT = DeferredPattern(rf"^[{_PREFIX_LETTERS}]?(?:s|m|g|K|Hz|eV|J|W|V|A|T|L|mol|Pa|N)$")
_TOKEN = DeferredPattern(
    r"(?:\^|\\textsuperscript)\s*\{?\s*(?P<power>[-−–]?\d+)\s*\}?"
    r"|\\(?P<macro>[A-Za-z]+)"
    r"|(?P<word>[A-Za-zµμ]+)"
    r"|(?P<per>/)"
    r"|(?P<skip>[\s{}~.,;*·]|\\[,;: !])"
)
_POWERS = {"squared": 2, "cubed": 3}
_IGNORED = frozenset({"mathrm", "text", "textrm", "rm", "mbox", "unit", "si", "textnormal", "operatorname", "mathit", "cdot", "times"})


@lru_cache(maxsize=4096)
def dimension(unit: str) -> Dimension | None:
    """The dimension of a unit's LaTeX; None when some part of it is no unit this reads."""
    total: Counter[str] = Counter()
    last: dict[str, int] = {}
    sign, pending, position = 1, 1, 0
    for match in _TOKEN.finditer(unit):
        if match.start() != position:
            return None
        position = match.end()
        if match.group("skip") is not None:
            continue
        if match.group("per") is not None:
            sign = -1
        elif match.group("power") is not None:
            if not last:
                return None
            _add(total, last, int(match.group("power").replace("−", "-").replace("–", "-")) - 1)
        elif (macro := match.group("macro")) is not None:
            if macro == "per":
                pending = -1
            elif macro in _POWERS:
                _add(total, last, _POWERS[macro] - 1)
            elif macro in _PREFIXES or macro in _IGNORED:
                continue
            elif (read := _unit(macro)) is not None:
                last = {base: power * sign * pending for base, power in read.items()}
                _add(total, last, 1)
                pending = 1
            else:
                return None
        elif (read := _unit(match.group("word"))) is not None:
            last = {base: power * sign * pending for base, power in read.items()}
            _add(total, last, 1)
            pending = 1
        else:
            return None
    if position != len(unit) or not last:
        return None
    return tuple(sorted((base, power) for base, power in total.items() if power))


def _add(total: Counter[str], unit: dict[str, int], times: int) -> None:
    for base, power in unit.items():
        total[base] += power * times


def _unit(name: str) -> dict[str, int] | None:
    """A unit's dimension by its name or symbol, with or without a prefix."""
    name = _NAMES.get(name, name)
    if name in _UNITS:
        return _UNITS[name]
    if _SHORT.match(name) and name[1:] in _UNITS:
        return _UNITS[name[1:]]
    return None
