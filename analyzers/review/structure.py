"""A review's Markdown read back into structure: sections, bulleted points, anchors, scores.

The baseline prompt (Table 25) fixes the shape: five headings, unnumbered bullets with
bold titles and sub-points, and a Score list such as `- Overall (10): 6 - ...`. Models
drift (numbered headings, bold instead of `##`), so matching is tolerant. A point is
anchored when it or one of its sub-points names a section, table, figure, equation,
page or appendix, or says that no direct evidence was found.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from ...latex.deferred_pattern import DeferredPattern

SECTIONS = ("Summary", "Strengths", "Weaknesses", "Suggestions for Improvement", "Score")
SCORE_SCALES = {"overall": 10, "novelty": 10, "technical_quality": 10, "clarity": 10, "confidence": 5}

_HEADING = DeferredPattern(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*)?\s*(?:\d+[.)]\s*)?(?P<name>Summary|Strengths|Weaknesses|Suggestions for Improvement|Scores?)"
    r"\s*(?:\*\*)?\s*:?\s*$",
    re.IGNORECASE,
)
_BULLET = DeferredPattern(r"^(?P<indent>\s*)(?:[-*•–]|\d+[.)])\s+(?P<text>.*)$")
_BOLD_TITLE = DeferredPattern(r"^\*\*(?P<title>[^*]+?)\*\*\s*[:.\-–—]?\s*(?P<rest>.*)$")
_ANCHOR = DeferredPattern(
    r"\b(?i:Sections?|Sec\.|§|Tables?|Tab\.|Figures?|Fig\.|Equations?|Eqs?\.|Appendix|Appendices|Pages?|p\.|Algorithm|Theorem|Lemma)"
    r"\s*~?\(?(?:[A-Z]?\d[\w.\-]*|[A-Z]\b(?:\.\d[\w.\-]*)?|[a-z]+:[\w:\-]+)\)?",
)
_NO_EVIDENCE = "no direct evidence found in the manuscript"
_SCORE_LINE = DeferredPattern(
    r"(?P<name>Overall|Novelty|Technical Quality|Clarity|Confidence)\s*(?:\(\s*\d+\s*\))?\s*\**\s*:?\s*\**\s*(?P<value>\d+(?:\.\d+)?)",
    re.IGNORECASE,
)


class Point(BaseModel):
    title: str = ""
    text: str
    subpoints: list[str] = Field(default_factory=list)
    anchors: list[str] = Field(default_factory=list)
    anchored: bool


class Scores(BaseModel):
    overall: float | None = None
    novelty: float | None = None
    technical_quality: float | None = None
    clarity: float | None = None
    confidence: float | None = None


class StructuredReview(BaseModel):
    summary: str = ""
    strengths: list[Point] = Field(default_factory=list)
    weaknesses: list[Point] = Field(default_factory=list)
    suggestions: list[Point] = Field(default_factory=list)
    scores: Scores = Field(default_factory=Scores)
    score_justifications: dict[str, str] = Field(default_factory=dict)
    missing_sections: list[str] = Field(default_factory=list)

    @property
    def unanchored(self) -> list[Point]:
        return [p for p in (*self.strengths, *self.weaknesses, *self.suggestions) if not p.anchored]


def anchors_in(text: str) -> list[str]:
    return [m.group(0).strip().rstrip(".") for m in _ANCHOR.finditer(text)]


def _split_sections(markdown: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in markdown.splitlines():
        heading = _HEADING.match(line)
        if heading:
            name = heading.group("name").lower()
            key = "score" if name.startswith("score") else name
            current = sections.setdefault(key, [])
            continue
        if current is not None:
            current.append(line)
    return sections


def _points(lines: list[str]) -> list[Point]:
    raw: list[tuple[str, list[str]]] = []
    top_indent: int | None = None
    for line in lines:
        bullet = _BULLET.match(line)
        if bullet is None:
            if raw and line.strip():
                head, subs = raw[-1]
                if subs:
                    subs[-1] += " " + line.strip()
                else:
                    raw[-1] = (head + " " + line.strip(), subs)
            continue
        indent = len(bullet.group("indent").expandtabs(4))
        if top_indent is None or indent <= top_indent or not raw:
            top_indent = indent if top_indent is None else min(top_indent, indent)
            raw.append((bullet.group("text").strip(), []))
        else:
            raw[-1][1].append(bullet.group("text").strip())
    points = []
    for head, subpoints in raw:
        titled = _BOLD_TITLE.match(head)
        title, text = (titled.group("title").strip(), titled.group("rest").strip()) if titled else ("", head)
        whole = " ".join([head, *subpoints])
        anchors = anchors_in(whole)
        points.append(
            Point(title=title, text=text, subpoints=subpoints, anchors=anchors, anchored=bool(anchors) or _NO_EVIDENCE in whole.lower())
        )
    return points


def parse_review(markdown: str) -> StructuredReview:
    sections = _split_sections(markdown)
    scores: dict[str, float] = {}
    justifications: dict[str, str] = {}
    for line in sections.get("score", []):
        match = _SCORE_LINE.search(line)
        if match is None:
            continue
        key = match.group("name").lower().replace(" ", "_")
        value = float(match.group("value"))
        if key not in scores and 0 <= value <= SCORE_SCALES[key]:
            scores[key] = value
            justifications[key] = line[match.end() :].strip(" -–—:*")
    return StructuredReview(
        summary="\n".join(sections.get("summary", [])).strip(),
        strengths=_points(sections.get("strengths", [])),
        weaknesses=_points(sections.get("weaknesses", [])),
        suggestions=_points(sections.get("suggestions for improvement", [])),
        scores=Scores(**scores),
        score_justifications=justifications,
        missing_sections=[name for name in SECTIONS if name.lower() not in sections],
    )
