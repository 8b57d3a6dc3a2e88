"""Whether a manuscript announces one-tailed tests: "one-tailed", "one-sided" or "directional"
anywhere in its prose (statcheck's OneTailedTxt, whole document).

A fact of the text, read here below the rules: the statistics rules let a p that is consistent only
as a one-tailed test pass when the paper announces one, and the `one_tailed` facet digests it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .deferred_pattern import DeferredPattern
from .manuscript import Manuscript, Section

_CACHE_SIZE = 8192  # texts and sections remembered, as the rules' per-text memos
_ONE_TAILED = DeferredPattern(r"\bone[- ]?(?:tailed|sided)\b|(?<![\w-])directional\b", re.I)


def announces_one_tailed(manuscript: Manuscript) -> bool:
    """Asked on every check (the `one_tailed` facet): a section the manuscript handed on unchanged (the same
    object) answers from its last reading, so an edit re-reads the edited section alone."""
    return any(_section_announces(section) for section in manuscript.sections)


# id of a Section → (the Section, whether its prose announces one-tailed tests); the Section is kept so its id stays its own.
_READ_SECTIONS: dict[int, tuple[Section, bool]] = {}


def _section_announces(section: Section) -> bool:
    known = _READ_SECTIONS.get(id(section))
    if known is not None and known[0] is section:
        return known[1]
    if len(_READ_SECTIONS) >= _CACHE_SIZE:
        _READ_SECTIONS.clear()
    answer = any(_announces(placed.block.plain.text) for placed in section.blocks)
    _READ_SECTIONS[id(section)] = (section, answer)
    return answer


@lru_cache(maxsize=_CACHE_SIZE)
def _announces(text: str) -> bool:
    return _ONE_TAILED.search(text) is not None
