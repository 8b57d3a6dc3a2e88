"""Whether a manuscript announces one-tailed tests: "one-tailed", "one-sided" or "directional"
anywhere in its prose (statcheck's OneTailedTxt, whole document).

A fact of the text, read here below the rules: the statistics rules let a p that is consistent only
as a one-tailed test pass when the paper announces one, and the `one_tailed` facet digests it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .manuscript import Manuscript

_ONE_TAILED = re.compile(r"\bone[- ]?(?:tailed|sided)\b|(?<![\w-])directional\b", re.I)


def announces_one_tailed(manuscript: Manuscript) -> bool:
    return any(_announces(placed.block.plain.text) for section in manuscript.sections for placed in section.blocks)


@lru_cache(maxsize=8192)
def _announces(text: str) -> bool:
    return _ONE_TAILED.search(text) is not None
