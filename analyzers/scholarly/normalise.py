"""Identifiers, names and titles made plain: what the indexes really send, before it is compared or
written to a `.bib` (and the identifiers of a cited entry). Text only: the offline rules use it too.

Crossref titles carry JATS markup (`<i>KRAS</i>`, `<sub>2</sub>`, line breaks), DBLP and
Europe PMC titles HTML entities (`&apos;`, `&amp;`); OpenAlex numbers homonymous authors
("Mihai G Netea (15649)") and sometimes lists an affiliation as an author (",LAGEP,
Université de Lyon"); Semantic Scholar gives some names in two scripts ("Kyriacos,
Κυριάκος, Athanasiou, Αθανασίου").
"""

from __future__ import annotations

import html
import re
import unicodedata
from html.parser import HTMLParser

from ...latex.deferred_pattern import DeferredPattern

_DISAMBIGUATION = DeferredPattern(r"\s*\(\d+\)\s*$")
# A tag: <i>, </sub>, <jats:italic>, <mml:math xmlns="…">, <br/>; attributes only as name=value.
_TAG = DeferredPattern(r"""</?(?:[a-z]+:)?[a-z][a-z0-9]*(?:\s+[\w:.-]+=(?:"[^"]*"|'[^']*'|[^\s<>]+))*\s*/?>""")
_INSTITUTION = DeferredPattern(
    r"\b(univ\w*|institut\w*|laborat\w*|labs?|department|dept|school|college|hospital|cent(er|re)|faculty|academy|"
    r"cnrs|inserm|inria|gmbh|corporation|ministry)\b",
    re.IGNORECASE,
)


class _TextOf(HTMLParser):
    """The character data of a fragment: tags dropped, entities and character references decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def plain_text(value: str) -> str:
    """A title or venue as text: JATS/HTML tags removed, entities decoded, spacing collapsed.

    Only text with a real tag goes through the HTML parser: a URL in angle brackets ("<http://…>")
    or a comparison ("a<b") is text."""
    if _TAG.search(value):
        parser = _TextOf()
        parser.feed(value)
        parser.close()
        value = "".join(parser.parts)
    elif "&" in value:
        value = html.unescape(value)
    return " ".join(value.split())


def person_name(value: str) -> str | None:
    """An author's name as "First Last", or None when the string is not a person's name (an affiliation)."""
    name = _DISAMBIGUATION.sub("", plain_text(value)).strip(" ,;")
    if not name or _INSTITUTION.search(name):
        return None
    parts = [part.strip() for part in name.split(",") if part.strip()]
    if len(parts) > 2 and len({_script(part) for part in parts}) > 1:
        # The same name in two scripts, interleaved: keep the script the name starts in.
        first = _script(parts[0])
        return " ".join(part for part in parts if _script(part) == first)
    return name if len(name.split()) <= 8 else None


def _script(text: str) -> str:
    """The Unicode script of the first letter ("LATIN", "GREEK", "CYRILLIC", "CJK", ...)."""
    letter = next((char for char in text if char.isalpha()), "")
    return unicodedata.name(letter, "UNKNOWN").split()[0] if letter else ""


def person_names(values: list[str]) -> list[str]:
    return [name for value in values if (name := person_name(value))]


def clean_doi(value: str) -> str:
    value = value.strip()
    value = re.sub(r"^(https?://(dx\.)?doi\.org/|doi:\s*)", "", value, flags=re.IGNORECASE)
    return value.strip().rstrip(".").lower()


PREPRINT_VENUES = DeferredPattern(
    r"\b(arxiv|corr|biorxiv|medrxiv|ssrn|preprints?|research square|techrxiv|chemrxiv|psyarxiv|osf preprints)\b", re.IGNORECASE
)


def is_preprint_venue(venue: str) -> bool:
    return bool(PREPRINT_VENUES.search(venue or ""))


ARXIV_ID = DeferredPattern(r"(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?", re.IGNORECASE)


def bare_id(value: str) -> str:
    """`arXiv:1706.03762v5`, an abs/pdf URL or a bare id → `1706.03762`."""
    match = ARXIV_ID.search(value or "")
    return match.group(1).lower() if match else ""
