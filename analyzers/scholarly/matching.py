"""Does a candidate from an index describe the cited work, and where do they differ?

Titles are compared after LaTeX is turned into text and case, accents, punctuation and
spacing are dropped (rapidfuzz's ratio over the normalised strings); a candidate is the
same work when its title scores at least `MATCH` (or `SUPPORTED_MATCH` when the first
author's surname and the year agree too). Authors are compared by surname (accents
and case dropped, fuzzy within `SURNAME`), the year within one, the venue by token
overlap with abbreviations (NeurIPS ~ Advances in Neural Information Processing Systems)
allowed.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from ...latex.record import record
from .normalise import is_preprint_venue

if TYPE_CHECKING:
    from .work import Reference, Work

MATCH = 0.9
SUPPORTED_MATCH = 0.8
SURNAME = 85
_STOP = {
    "a",
    "an",
    "the",
    "of",
    "on",
    "in",
    "and",
    "for",
    "to",
    "with",
    "at",
    "by",
    "from",
    "proceedings",
    "proc",
    "conference",
    "international",
    "annual",
    "journal",
    "transactions",
    "workshop",
    "symposium",
    "meeting",
    "acm",
    "ieee",
    "j",
    "conf",
    "int",
    "th",
    "st",
    "nd",
    "rd",
    "advances",
}


@lru_cache(maxsize=65536)
def normal(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(char for char in text if not unicodedata.combining(char))
    text = re.sub(r"[^\w\s]", " ", text.casefold()).replace("_", " ")  # casefold: "Stoß" is "STOSS"
    return " ".join(text.split())


def title_score(cited: str, found: str) -> float:
    a, b = normal(cited), normal(found)
    if not a or not b:
        return 0.0
    return fuzz.ratio(a, b) / 100


def surname(name: str) -> str:
    name = name.strip()
    if "," in name:
        return normal(name.split(",", 1)[0])
    parts = normal(name).split()
    # Particles belong to the surname ("van der Maaten"): keep the last word, the one indexes always have.
    return parts[-1] if parts else ""


def same_surname(a: str, b: str) -> bool:
    return bool(a and b) and (a == b or fuzz.ratio(a, b) >= SURNAME or a.replace(" ", "") == b.replace(" ", ""))


def score(reference: Reference, work: Work) -> float:
    """How well `work` stands for the cited reference: its title score, or 0 below the threshold."""
    value = title_score(reference.title, work.title)
    if value >= MATCH:
        return value
    if (
        value >= SUPPORTED_MATCH
        and reference.authors
        and work.authors
        and same_surname(surname(reference.authors[0]), surname(work.authors[0]))
        and reference.year
        and work.year
        and abs(reference.year - work.year) <= 1
    ):
        return value
    return 0.0


def best(reference: Reference, candidates: list[Work]) -> Work | None:
    """The matching candidate that agrees most: title first, then first author and year (two works
    may share a title: "Deep learning" is a Nature review and a book), the published version first."""
    scored = [(score(reference, work), work) for work in candidates]
    scored = [(value, work) for value, work in scored if value > 0]
    if not scored:
        return None
    return max(scored, key=lambda item: (round(item[0], 2), _agreement(reference, item[1]), not item[1].is_preprint))[1]


def _agreement(reference: Reference, work: Work) -> int:
    agree = 0
    if reference.authors and work.authors and same_surname(surname(reference.authors[0]), surname(work.authors[0])):
        agree += 2
    if reference.year and work.year and abs(reference.year - work.year) <= 1:
        agree += 1
    return agree


@record
class Mismatch:
    field: str  # "title", "authors", "year", "venue"
    cited: str
    found: str
    detail: str = ""


def mismatches(reference: Reference, work: Work) -> list[Mismatch]:
    result = []
    if reference.title and work.title and normal(reference.title).replace(" ", "") != normal(work.title).replace(" ", ""):
        result.append(Mismatch("title", reference.title, work.title))
    result += _author_mismatches(reference, work)
    if reference.year and work.year and abs(reference.year - work.year) > 1:
        result.append(Mismatch("year", str(reference.year), str(work.year)))
    if (
        reference.venue
        and work.venue
        and not reference.is_preprint
        and not work.is_preprint
        and not same_venue(reference.venue, work.venue)
    ):
        result.append(Mismatch("venue", reference.venue, work.venue))
    return result


def _author_mismatches(reference: Reference, work: Work) -> list[Mismatch]:
    cited_names, found_names = _people(reference.authors), _people(work.authors)
    cited, found = [surname(name) for name in cited_names], [surname(name) for name in found_names]
    if not cited or not found or _corporate(reference.authors) or _corporate(work.authors):
        return []  # "OpenAI", "The Pandas Development Team": no surnames to compare
    if not same_surname(cited[0], found[0]) and not any(same_surname(cited[0], other) for other in found[:1]):
        return [
            Mismatch(
                "authors", _names(reference.authors), _names(work.authors), f"first author {reference.authors[0]}, found {work.authors[0]}"
            )
        ]
    missing = [name for name, key in zip(found_names, found) if not any(same_surname(key, other) for other in cited)]
    extra = [name for name, key in zip(cited_names, cited) if not any(same_surname(key, other) for other in found)]
    if reference.more_authors:
        missing = []  # "and others": the cited list is a prefix by design
    if len(work.authors) >= 100:
        extra = []  # indexes truncate very long author lists
    if missing or extra:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(missing[:3]) + (" and more" if len(missing) > 3 else ""))
        if extra:
            parts.append("not an author of the found work: " + ", ".join(extra[:3]))
        return [Mismatch("authors", _names(reference.authors), _names(work.authors), "; ".join(parts))]
    return []


def _people(names: list[str]) -> list[str]:
    """The names without "others" / "et al." ("many others." in a package's author list)."""
    return [name for name in names if surname(name) not in ("others", "al")]


def _corporate(names: list[str]) -> bool:
    return len(names) == 1 and (
        len(names[0].split()) == 1
        or bool(
            re.search(
                r"\b(team|group|consortium|collaboration|project|inc|ltd|foundation|association|society|organization|committee)\b",
                names[0],
                re.IGNORECASE,
            )
        )
    )


def _names(names: list[str]) -> str:
    return ", ".join(names[:4]) + (" et al." if len(names) > 4 else "")


def same_venue(cited: str, found: str) -> bool:
    a, b = normal(cited), normal(found)
    if not a or not b or is_preprint_venue(cited) or is_preprint_venue(found):
        return True
    if fuzz.token_set_ratio(a, b) >= 70 or a in b or b in a:
        return True
    words_a = [w for w in a.split() if w not in _STOP and not w.isdigit()]
    words_b = [w for w in b.split() if w not in _STOP and not w.isdigit()]
    if set(words_a) & set(words_b):
        return True
    return _acronym(words_a, words_b) or _acronym(words_b, words_a)


def _acronym(short: list[str], long: list[str]) -> bool:
    """`neurips` ~ `neural information processing systems`, `cvpr` ~ `computer vision and pattern recognition`."""
    initials = "".join(word[0] for word in long if word)
    return any(len(word) >= 2 and (word in initials or initials in word or fuzz.partial_ratio(word, initials) >= 75) for word in short)
