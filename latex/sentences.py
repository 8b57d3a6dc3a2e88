"""Sentence boundaries in plain text, aware of abbreviations and decimals."""

from __future__ import annotations

import re
from functools import lru_cache

from .deferred_pattern import DeferredPattern

_ABBREVIATIONS = (
    "e.g",
    "i.e",
    "et al",
    "etc",
    "vs",
    "cf",
    "Fig",
    "Figs",
    "Eq",
    "Eqs",
    "Tab",
    "Sec",
    "Secs",
    "Ref",
    "Refs",
    "resp",
    "approx",
    "ca",
    "Exp",
    "Expt",
    "No",
    "Dr",
    "Prof",
    "Mr",
    "Ms",
    "St",
    "Thm",
    "Lem",
    "Def",
    "Prop",
    "Cor",
    "App",
    "Alg",
    "w.r.t",
    "a.k.a",
)
_BOUNDARY = DeferredPattern(r"[.!?](?:[\"”’')\]]*)\s+(?=[A-Z0-9\\“\"(\[$])|\n")
# An abbreviation listed, an initial ("J. Smith"), or letters with dots between ("s.e. 0.5", "s.d.", "p.m.").
# Abbreviations that end no sentence before a number: a page ("p. 66", "pp. 3--5"), an issue ("no. 5"), a volume, a
# version ("v. 1.2", "ver. 3").
_NUMBERING_END = DeferredPattern(r"\b(?:p|pp|no|vol|v|ver)$", re.IGNORECASE)
_ABBREVIATION_END = DeferredPattern(r"(?:\b(?:" + "|".join(re.escape(a) for a in _ABBREVIATIONS) + r")|\b[A-Z]|\b[a-z]\.[a-z])$")


@lru_cache(maxsize=8192)  # kept by a block's text: the index and a dozen rules split the same blocks
def sentence_spans(text: str) -> tuple[tuple[int, int], ...]:
    """(start, end) of each sentence in `text`, trimmed of outer white space."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        end = match.start() + 1
        before = text[max(0, match.start() - 8) : match.start()]
        if text[match.start()] == "." and (
            _ABBREVIATION_END.search(before) or (text[match.end() : match.end() + 1].isdigit() and _NUMBERING_END.search(before))
        ):
            continue
        _append(text, start, end, spans)
        start = match.end()
    _append(text, start, len(text), spans)
    return tuple(spans)


def _append(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        spans.append((start, end))
