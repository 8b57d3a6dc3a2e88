"""The references a manuscript cites, as the metadata verification may send (no manuscript text).

A `.bib` entry gives its fields; a `\\bibitem` (in the `.tex` or a `.bbl`) gives formatted
text, split at `\\newblock` into authors, title and the rest (what natbib and BibTeX styles
write), or guessed from its sentences otherwise. LaTeX is turned into text first.
"""

from __future__ import annotations

import hashlib
import html
import re
from dataclasses import field
from functools import lru_cache
from typing import TYPE_CHECKING

from pylatexenc.latex2text import LatexNodes2Text

from ...latex.deferred_pattern import DeferredPattern
from ...latex.project import Project
from ...latex.record import record
from .normalise import bare_id, clean_doi, is_preprint_venue

if TYPE_CHECKING:  # a check reads names and text here (CIT rules); only the online check builds a Reference
    from .work import Kind, Reference

_TO_TEXT = LatexNodes2Text(math_mode="verbatim", strict_latex_spaces=False)
_YEAR = DeferredPattern(r"(?<!\d)(1[6-9]\d\d|20\d\d)(?!\d)")
_DOI = DeferredPattern(r"\b(10\.\d{4,9}/[^\s,;}\"']+)")
_AND = DeferredPattern(r"\s+and\s+", re.IGNORECASE)
_NEXT_ITEM = DeferredPattern(r"\\bibitem\b|\\end\s*\{thebibliography\}")
_URL = DeferredPattern(r"https?://[^\s{}\\]+")
_WORK_VENUE = DeferredPattern(r"\b(?:In|Proc\w*|Journal|Conference|Transactions|Symposium|Workshop|pages)\b|\b(?:vol|pp)\.")
# BibTeX and biblatex entry types whose works scholarly indexes mostly do not hold.
KIND_OF_TYPE: dict[str, Kind] = {
    "software": "software",
    "codemeta": "software",
    "manual": "software",
    "online": "web",
    "www": "web",
    "webpage": "web",
    "electronic": "web",
    "url": "web",
    "dataset": "dataset",
    "data": "dataset",
    "techreport": "report",
    "report": "report",
}


@record
class Cited:
    """One cited entry: what is sent (`reference`) and where findings go."""

    reference: Reference
    file: str  # the .bib, .bbl or .tex holding the entry
    start: int  # the entry head's offsets in that file
    end: int
    cites: tuple[tuple[str, int, int], ...] = ()  # each \cite of it: (file, start, end)
    is_bib: bool = False  # a .bib entry: "Replace with verified metadata" can rewrite it
    digest: str = field(default="")  # the reference's content: a verdict is reused while it is unchanged


@lru_cache(maxsize=16384)
def to_text(latex: str) -> str:
    if "\\" not in latex and "{" not in latex and "$" not in latex and "~" not in latex:
        return " ".join(latex.split())
    try:
        text = _TO_TEXT.latex_to_text(latex)
    except Exception:  # pylatexenc on broken input: keep the letters
        text = re.sub(r"[{}\\]", "", latex)
    return " ".join(text.replace("~", " ").split())


def split_authors(value: str) -> tuple[list[str], bool]:
    """BibTeX `author` (names joined by `and` at brace depth 0) → ["First Last", ...], and whether it ends in "others"."""
    names: list[str] = []
    current: list[str] = []
    depth = i = 0
    while i < len(value):
        char = value[i]
        depth += char == "{"
        depth -= char == "}"
        separator = _AND.match(value, i) if depth == 0 and char.isspace() else None
        if separator is not None:
            names.append("".join(current))
            current = []
            i = separator.end()
            continue
        current.append(char)
        i += 1
    names.append("".join(current))
    result, more = [], False
    for name in (to_text(n).strip() for n in names):
        if not name:
            continue
        if name.lower() in ("others", "et al.", "et al"):
            more = True
            continue
        if "," in name:
            # "Last, First" or BibTeX's "Last, Jr, First" ("Busch,, Michael"); the Jr part is no surname.
            parts = [part.strip() for part in name.split(",")]
            name = f"{parts[-1]} {parts[0]}".strip()
        result.append(name)
    return result, more


def from_bib(key: str, entry_type: str, fields: dict[str, str]) -> Reference:
    lower = {name.lower(): value for name, value in fields.items()}
    authors, more = split_authors(lower.get("author", "") or lower.get("editor", ""))
    year_match = _YEAR.search(lower.get("year", "") or lower.get("date", ""))
    venue = to_text(
        lower.get("journal", "")
        or lower.get("journaltitle", "")
        or lower.get("booktitle", "")
        or (lower.get("howpublished", "") if "http" not in lower.get("howpublished", "") else "")
    )
    doi = clean_doi(lower.get("doi", ""))
    if not doi:
        match = _DOI.search(lower.get("url", "")) if "doi.org" in lower.get("url", "") else None
        doi = clean_doi(match.group(1)) if match else ""
    arxiv = ""
    eprint_type = (lower.get("archiveprefix", "") or lower.get("eprinttype", "")).lower()
    if lower.get("eprint") and (eprint_type == "arxiv" or not eprint_type):
        arxiv = bare_id(lower["eprint"])
    for name in ("journal", "url", "note", "howpublished", "volume"):
        if not arxiv and "arxiv" in lower.get(name, "").lower():
            arxiv = bare_id(lower[name])
    where = " ".join(
        lower.get(name, "") for name in ("journal", "journaltitle", "booktitle", "howpublished", "publisher", "note", "institution")
    )
    preprint = is_preprint_venue(venue) or (not venue and (bool(arxiv) or is_preprint_venue(where)))
    url_match = _URL.search(lower.get("url", "") or lower.get("howpublished", "") or lower.get("note", ""))
    url = url_match.group(0) if url_match else ""
    from .work import Reference

    kind = KIND_OF_TYPE.get(entry_type.lower(), "work")
    if kind == "work" and url and not (venue or doi or arxiv or lower.get("publisher") or lower.get("school")):
        kind = "web"  # a reference that gives only a URL
    return Reference(
        key=key,
        title=html.unescape(to_text(lower.get("title", ""))).strip(" ."),  # "El Ni&#xf1;o", pasted from a web page
        authors=authors,
        more_authors=more,
        year=int(year_match.group(1)) if year_match else None,
        venue=venue,
        doi=doi,
        arxiv=arxiv,
        is_preprint=preprint,
        pmid=lower.get("pmid", "").strip(),
        kind=kind,
        url=url,
    )


def from_bibitem(key: str, latex: str) -> Reference:
    """A formatted `\\bibitem`: authors, title and the rest at `\\newblock`, else guessed from its sentences."""
    blocks = [to_text(block).strip() for block in re.split(r"\\newblock\b", latex)]
    blocks = [block for block in blocks if block]
    text = " ".join(blocks)
    if len(blocks) >= 2:
        author_text, title, rest = blocks[0], blocks[1], " ".join(blocks[2:])
    else:
        parts = [p.strip() for p in re.split(r"(?<![A-Z])(?<!\b[A-Z][a-z])\.\s+", text) if p.strip()]
        quoted = re.search(r"[“\"](.+?)[”\"]", text)
        if quoted:
            title = quoted.group(1)
            author_text, rest = text[: quoted.start()], text[quoted.end() :]
        elif len(parts) >= 2:
            author_text, title, rest = parts[0], parts[1], " ".join(parts[2:])
        else:
            author_text, title, rest = "", "", text
    title = re.sub(r",\s*(1[6-9]\d\d|20\d\d)[a-z]?\.?$", "", title).strip(" .,")
    author_text = re.sub(r"\(\d{4}\)", "", author_text).strip(" .")
    more = bool(re.search(r"\bet al\b|\bothers\b", author_text))
    names = [n.strip() for n in re.split(r",\s*(?:and\s+)?|\s+and\s+|;\s*", author_text) if n.strip()]
    names = [n for n in names if not re.fullmatch(r"(et al\.?|others|Jr\.?)", n)]
    if names and all(len(n.replace(".", "").split()) == 1 for n in names) and len(names) % 2 == 0 and any(len(n) <= 3 for n in names[1::2]):
        names = [f"{first} {last}" for last, first in zip(names[::2], names[1::2])]  # "Smith, J., Jones, K."
    years = [int(y) for y in _YEAR.findall(rest) or _YEAR.findall(text)]
    doi_match = _DOI.search(latex)
    arxiv = bare_id(text) if "arxiv" in text.lower() else ""
    venue = rest
    doi = clean_doi(doi_match.group(1)) if doi_match else ""
    url_match = _URL.search(latex)
    url = url_match.group(0) if url_match else ""
    # A formatted item with a URL but no DOI, no arXiv id and nothing that names a venue: a web page or software.
    url_only = bool(url) and not doi and not arxiv and not _WORK_VENUE.search(rest)
    from .work import Reference

    return Reference(
        key=key,
        title=title,
        authors=names,
        more_authors=more,
        year=years[-1] if years else None,
        venue="",
        doi=doi,
        arxiv=arxiv,
        is_preprint=is_preprint_venue(venue) and not re.search(r"\bIn\b", venue),
        kind="web" if url_only else "work",
        url=url,
    )


def cited_references(project: Project) -> list[Cited]:
    """Every entry the manuscript cites (every entry under `\\nocite{*}`), each once, .bib before \\bibitem."""
    index = project.index
    cites: dict[str, list[tuple[str, int, int]]] = {}
    for file, use in index.cites:
        cites.setdefault(use.key, []).append((file, use.start, use.end))
    keys = list(cites)
    if "*" in cites:
        keys += [key for key in [*index.bib_entries, *index.bibitems] if key not in cites]
    result = []
    for key in dict.fromkeys(keys):
        if key == "*":
            continue
        places = tuple(cites.get(key, ()))
        bib = index.bib_entries.get(key)
        if bib:
            file, entry = bib[0]
            if file.endswith(".bib"):
                reference = from_bib(key, entry.entry_type, entry.fields)
                result.append(Cited(reference, file, entry.start, entry.end, places, True, _digest(reference)))
                continue
        item = index.bibitems.get(key)
        if item:
            file, use = item[0]
            text = _item_text(project, file, use.end)
            if text is not None:
                reference = from_bibitem(key, text)
                result.append(Cited(reference, file, use.start, use.end, places, False, _digest(reference)))
    return result


def _item_text(project: Project, file: str, after_key: int) -> str | None:
    if not project.contains(file):
        return None
    text = project.source(file).text
    close = text.find("}", after_key)
    start = close + 1 if close != -1 and close - after_key < 3 else after_key
    following = _NEXT_ITEM.search(text, start)
    return text[start : following.start() if following else min(len(text), start + 2000)]


def _digest(reference: Reference) -> str:
    return hashlib.blake2b(reference.model_dump_json().encode(), digest_size=12).hexdigest()
