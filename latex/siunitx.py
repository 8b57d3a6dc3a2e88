"""siunitx's quantities as the reader sees them printed.

`\\qty{3}{\\milli\\second}` prints "3 ms", `\\SI{35}{\\percent}` "35 %", `\\SIrange{1}{5}{\\percent}`
"1 % to 5 %" (siunitx repeats the unit and says "to" by default), `\\unit{\\metre\\per\\second}`
"m/s" and `\\ang{30}` "30°". A unit macro siunitx does not predefine is one the author declared
(`\\DeclareSIUnit\\px{px}`): its name is what it most likely prints.
"""

from __future__ import annotations

from pylatexenc import latexwalker as lw

UNIT_COMMANDS = frozenset({"si", "unit"})
QUANTITY_COMMANDS = frozenset({"SI", "qty"})
RANGE_COMMANDS = frozenset({"SIrange", "qtyrange", "numrange"})
SIGNATURES = {
    "si": "[{",
    "unit": "[{",
    "SIrange": "[{{[{",  # siunitx 2 allows a pre-unit before the unit
    "qtyrange": "[{{{",
    "numrange": "[{{",
    "ang": "[{",
}
RANGE_PHRASE = " to "

_UNITS = {
    "percent": "%",
    "degree": "°",
    "arcminute": "′",
    "arcsecond": "″",
    "degreeCelsius": "°C",
    "celsius": "°C",
    "ohm": "Ω",
    "metre": "m",
    "meter": "m",
    "second": "s",
    "gram": "g",
    "kilogram": "kg",
    "ampere": "A",
    "kelvin": "K",
    "mole": "mol",
    "candela": "cd",
    "hertz": "Hz",
    "newton": "N",
    "pascal": "Pa",
    "joule": "J",
    "watt": "W",
    "coulomb": "C",
    "volt": "V",
    "farad": "F",
    "siemens": "S",
    "weber": "Wb",
    "tesla": "T",
    "henry": "H",
    "lumen": "lm",
    "lux": "lx",
    "becquerel": "Bq",
    "gray": "Gy",
    "sievert": "Sv",
    "katal": "kat",
    "radian": "rad",
    "steradian": "sr",
    "litre": "L",
    "liter": "L",
    "minute": "min",
    "hour": "h",
    "day": "d",
    "hectare": "ha",
    "tonne": "t",
    "electronvolt": "eV",
    "dalton": "Da",
    "bel": "B",
    "decibel": "dB",
    "neper": "Np",
    "bit": "bit",
    "byte": "B",
    "molar": "M",
    "angstrom": "Å",
    "bar": "bar",
    "partspermillion": "ppm",
    "electronmass": "mₑ",
    "astronomicalunit": "au",
    "atomicmassunit": "u",
    "gauss": "G",
    # siunitx's abbreviations
    "m": "m",
    "s": "s",
    "g": "g",
    "kg": "kg",
    "mm": "mm",
    "cm": "cm",
    "km": "km",
    "nm": "nm",
    "um": "µm",
    "ms": "ms",
    "us": "µs",
    "ns": "ns",
    "ps": "ps",
    "Hz": "Hz",
    "kHz": "kHz",
    "MHz": "MHz",
    "GHz": "GHz",
    "mg": "mg",
    "ug": "µg",
    "mL": "mL",
    "ml": "ml",
    "uL": "µL",
    "ul": "µl",
    "eV": "eV",
    "keV": "keV",
    "MeV": "MeV",
    "GeV": "GeV",
    "TeV": "TeV",
    "kJ": "kJ",
    "kW": "kW",
    "mW": "mW",
    "mV": "mV",
    "kV": "kV",
    "mA": "mA",
    "mol": "mol",
    "mmol": "mmol",
    "mM": "mM",
    "uM": "µM",
    "nM": "nM",
    "dB": "dB",
    "kPa": "kPa",
    "MPa": "MPa",
    "GPa": "GPa",
}
_PREFIXES = {
    "yocto": "y",
    "zepto": "z",
    "atto": "a",
    "femto": "f",
    "pico": "p",
    "nano": "n",
    "micro": "µ",
    "milli": "m",
    "centi": "c",
    "deci": "d",
    "deca": "da",
    "deka": "da",
    "hecto": "h",
    "kilo": "k",
    "mega": "M",
    "giga": "G",
    "tera": "T",
    "peta": "P",
    "exa": "E",
    "zetta": "Z",
    "yotta": "Y",
    "kibi": "Ki",
    "mebi": "Mi",
    "gibi": "Gi",
    "tebi": "Ti",
}
_POWER_BEFORE = {"square": "²", "cubic": "³"}
_POWER_AFTER = {"squared": "²", "cubed": "³"}


def unit_text(node: lw.LatexNode | None) -> str:
    """The printed form of a unit argument: `{\\kilo\\gram\\per\\cubic\\metre}` → "kg/m³"."""
    if node is None:
        return ""
    pieces: list[str] = []
    pending_prefix, pending_power = "", ""
    for child in _flatten(node):
        if isinstance(child, lw.LatexCharsNode):
            pieces.append(child.chars.strip())
            continue
        if not isinstance(child, lw.LatexMacroNode):
            continue
        name = child.macroname
        if name in _PREFIXES:
            pending_prefix += _PREFIXES[name]
        elif name in _POWER_BEFORE:
            pending_power = _POWER_BEFORE[name]
        elif name in _POWER_AFTER:
            pieces.append(_POWER_AFTER[name])
        elif name == "per":
            pieces.append("/")
        elif name in ("cdot", "times"):
            pieces.append("·")
        elif name == "textsuperscript":  # a unit written by hand (the units package's `s\\textsuperscript{-1}`): "s^-1"
            pieces.append("^")
        elif name.isalpha():
            pieces.append(pending_prefix + _UNITS.get(name, name) + pending_power)
            pending_prefix, pending_power = "", ""
    if pending_prefix:  # "\micro" alone is the symbol µ
        pieces.append(pending_prefix)
    return "".join(pieces)


def _flatten(node: lw.LatexNode) -> list[lw.LatexNode]:
    """A unit's tokens in order, through braces (`{\\kilo\\gram}`)."""
    if isinstance(node, lw.LatexGroupNode):
        return [token for child in node.nodelist for token in _flatten(child)]
    return [node]
