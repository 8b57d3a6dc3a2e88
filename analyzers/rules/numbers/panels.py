"""A table's panels: the title rows inside its body ("Panel A. Criterion validity") that set its cells apart, and the
panels a sentence names ("As Panel A of Table 3 shows"), so that a sentence quoting one panel is read against it."""

from __future__ import annotations

import re

from ....latex.deferred_pattern import DeferredPattern

# A table's panel, as its title row inside the body names it ("Panel A. Criterion validity", "Panel B:"), and as a
# sentence names the panels it speaks of ("As Panel A of Table 3 shows", "panels B and C").
PANEL_TITLE = DeferredPattern(r"^\W*panel\s+([A-H])\b", re.IGNORECASE)
_PANELS_NAMED = DeferredPattern(r"\bpanels?\s+([A-H](?:(?:\s*,\s*|\s+and\s+|\s*[-–]+\s*)[A-H])*)\b", re.IGNORECASE)


def panels_named(sentence: str) -> frozenset[str]:
    """The panels a sentence names, in capitals: "Panel A" is {"A"}, "panels B and C" {"B", "C"}."""
    return frozenset(letter.upper() for match in _PANELS_NAMED.finditer(sentence) for letter in re.findall(r"\b[A-Ha-h]\b", match.group(1)))
