"""CIT: citations and bibliography entries."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rapidfuzz import fuzz, process

from ...latex.bibliography import BibEntry, is_printed_field
from ..context import RuleContext
from ..finding import Category, Finding, Severity
from ..registry import rule
from ..scholarly.cited_references import split_authors, to_text
from ..scholarly.matching import normal, surname
from ..scholarly.normalise import clean_doi
from ..wording import counted


def _known_keys(ctx: RuleContext) -> set[str]:
    return set(ctx.index.bib_entries) | set(ctx.index.bibitems)


def _cited_keys(ctx: RuleContext) -> set[str]:
    return {cite.key for _, cite in ctx.index.cites}


def _is_cited(key: str, cited: set[str]) -> bool:
    return key in cited or "*" in cited  # \nocite{*} puts every entry in the bibliography


def _missing_bibliography_files(ctx: RuleContext) -> list[str]:
    targets = [problem.target for problem in ctx.project.problems if problem.kind == "missing_bibliography" and problem.target]
    return [target if target.endswith(".bib") else f"{target}.bib" for target in targets]


@rule("CIT001", "undefined-citation", Category.REFERENCE_FABRICATION, Severity.ERROR, reads=("cites", "bibliography", "problems"))
def undefined_citation(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags `\\cite`-like keys (natbib's `\\citep`, `\\citet`, …; biblatex's `\\parencite`, `\\textcite`,
    `\\autocite`, the multi-citations `\\cites(pre)(post)[pre][post]{a}{b}`, …; apacite's
    `\\cite<e.g.>[p.~3]{a}`, `\\citeA`, `\\citeNP`, …) that no bibliography entry or `\\bibitem` defines.
    A key that matches an entry only up to letter case is reported as a case mismatch.

    ## Why is this bad?
    The reader sees "[?]" and cannot check the source behind the claim; an invented or
    mistyped reference is exactly what reviewers flag as fabricated support. BibTeX stops
    with a "case mismatch" error on a key whose case differs, and biber does not find it.

    ## Example
    ```latex
    as shown by \\citet{vaswani2017attnetion}
    ```

    ## Use instead
    ```latex
    as shown by \\citet{vaswani2017attention}
    ```

    ## Fix safety
    The fix changes the key to the closest bibliography key; check that it is the same work.

    When a named `.bib` file is missing from the project, the key may be defined there: the
    finding is then information that says so. An entry BibTeX reads despite a slip (a repeated
    field, a syntax error after its key) counts as defined; CIT003 and CIT006 report the slip.
    """
    known = _known_keys(ctx)
    if not known:
        return  # no bibliography at all is reported once, by CIT005
    missing = _missing_bibliography_files(ctx)
    severity = Severity.INFORMATION if missing else None
    unknown_source = f" (it may be defined in the missing `{missing[0]}`)" if missing else ""
    choices = sorted(known)
    by_lowercase = {key.lower(): key for key in choices}
    for file, cite in ctx.index.cites:
        if cite.key in known or cite.key == "*":
            continue
        same_but_case = by_lowercase.get(cite.key.lower())
        closest: str | None
        if same_but_case:
            closest, message = (
                same_but_case,
                f"citation key `{cite.key}` differs only in letter case from the bibliography key `{same_but_case}`",
            )
        else:
            match = process.extractOne(cite.key, choices, score_cutoff=75)
            closest = match[0] if match else None
            message = f"citation key `{cite.key}` is not in the bibliography{unknown_source}"
        fixes = (
            [ctx.fix(f"Replace `{cite.key}` with `{closest}`", ctx.edit(file, cite.start, cite.end, closest), safe=False)]
            if closest
            else []
        )
        yield ctx.report(file, cite.start, cite.end, message, identity=cite.key, fixes=fixes, severity=None if same_but_case else severity)


@rule("CIT002", "duplicate-bibliography-key", Category.LATEX, Severity.WARNING, reads=("cite_keys", "bibliography"))
def duplicate_bibliography_key(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a bibliography key defined twice, in one `.bib` file or across several. A generated
    `.bbl` read beside the `.bib` files (for a `\bibliography` file that is missing) repeats
    their entries in BibTeX's output form: its copy of a key a `.bib` defines is not a duplicate.

    ## Why is this bad?
    BibTeX silently keeps the first entry, possibly not the one the author checked. That
    matters when the paper cites the key and the two entries differ (their type or a printed
    field, compared after normalising spacing and field-name case): a warning that names the
    differing fields. A duplicate the paper does not cite, or two identical copies (common in
    a shared library exported from a reference manager), is only a hint.

    ## Example
    ```bibtex
    @article{smith2020, title={A}, year={2020}}
    @inproceedings{smith2020, title={A}, year={2021}}
    ```

    ## Use instead
    One entry per key; a second work gets its own key, cited where it is meant.
    ```bibtex
    @article{smith2020, title={A}, year={2020}}
    @inproceedings{smith2021, title={A, Revisited}, year={2021}}
    ```
    """
    cited = _cited_keys(ctx)
    for key, defined in ctx.index.bib_entries.items():
        # A .bbl is BibTeX's output of the .bib entries: its \bibitem of a key the .bib defines is that entry again.
        places = [place for place in defined if not place[0].endswith(".bbl")] or defined
        if len(places) < 2:
            continue
        first_file, first = places[0]
        for file, entry in places[1:]:
            differing = _differing_fields(first, entry)
            matters = bool(differing) and _is_cited(key, cited)
            where = f"in `{first_file}`" if file != first_file else f"on line {ctx.source(first_file).line_of(first.start) + 1}"
            if matters:
                named = ", ".join(differing[:4]) + (f" and {len(differing) - 4} more fields" if len(differing) > 4 else "")
                message = (
                    f"bibliography key `{key}` is defined again with different {named}; "
                    f"BibTeX keeps the first definition ({where}), which the paper cites"
                )
            else:
                why = "an identical copy" if not differing else "the paper does not cite it"
                message = f"bibliography key `{key}` is also defined {where} ({why})"
            yield ctx.report(
                file,
                entry.start,
                entry.end,
                message,
                identity=key,
                severity=None if matters else Severity.HINT,
                related=[ctx.related(first_file, first.start, first.end, "first definition, the one BibTeX keeps")],
            )


def _differing_fields(first: BibEntry, second: BibEntry) -> list[str]:
    """Names of what differs between two entries as a reference shows them (empty when identical)."""
    if first.content() == second.content():
        return []
    differing = ["entry type"] if first.entry_type.lower() != second.entry_type.lower() else []
    names = sorted({name for name in (*first.fields, *second.fields) if is_printed_field(name)})
    differing += [name for name in names if " ".join(first.fields.get(name, "").split()) != " ".join(second.fields.get(name, "").split())]
    return [f"`{name}`" if name != "entry type" else name for name in differing]


@rule("CIT003", "unparsable-bibliography-entry", Category.LATEX, Severity.WARNING, reads=("bibliography",))
def unparsable_bibliography_entry(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags `.bib` entries that cannot be parsed (an unclosed brace, a missing comma), saying
    what the parser expected and on which line it gave up.

    ## Why is this bad?
    BibTeX reports an error and drops the rest of the entry: fields after the slip are lost,
    and the next entry may be swallowed. The entry itself still counts as defined for CIT001
    when its key could be read, as it does for BibTeX.

    ## Example
    ```bibtex
    @misc{key, title = {Unclosed
    ```

    ## Use instead
    ```bibtex
    @misc{key, title = {Closed}}
    ```
    """
    for file, problem in ctx.index.bib_problems:
        if problem.kind == "unparsable":
            yield ctx.report(file, problem.start, problem.end, problem.message, identity=problem.key or problem.message)


@rule("CIT004", "unused-bibliography-entry", Category.LATEX, Severity.HINT, reads=("cite_keys", "bibliography"), unnecessary=True)
def unused_bibliography_entry(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Marks `.bib` entries that the manuscript never cites.

    ## Why is this bad?
    Harmless for BibTeX, which drops them, but a `\\nocite{*}` or a shared file of
    thousands of entries hides which references the paper really relies on.

    ## Example
    ```bibtex
    @article{old2001, ...}   % never \\cite'd
    ```

    ## Use instead
    Cite the entry where the paper relies on it (`\\cite{old2001}`), or delete it from the `.bib`.
    """
    cited = _cited_keys(ctx)
    if "*" in cited:
        return
    for key, places in ctx.index.bib_entries.items():
        if key in cited:
            continue
        for file, entry in places:
            if file.endswith(".bib"):
                yield ctx.report(file, entry.start, entry.end, f"bibliography entry `{key}` is never cited", identity=key)


@rule("CIT005", "missing-bibliography", Category.REFERENCE_FABRICATION, Severity.WARNING, reads=("cites", "bibliography", "problems"))
def missing_bibliography(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a manuscript that cites works but has no bibliography auditex can read
    (no `.bib`, no `.bbl`, no `thebibliography`).

    ## Why is this bad?
    No citation can be checked; every reference of the paper is unverifiable. When no
    `\\bibliography`, `\\addbibresource` or `thebibliography` exists at all, the compiled paper
    shows "[?]" for every citation and has no reference list.

    ## Example
    ```latex
    \\cite{smith2020} ... \\bibliography{refs}   % refs.bib not shipped, no .bbl
    ```

    ## Use instead
    Ship `refs.bib` with the sources, or the `main.bbl` that BibTeX generated from it.
    """
    if _known_keys(ctx) or not ctx.index.cites:
        return
    file, first = ctx.index.cites[0]
    count = len({cite.key for _, cite in ctx.index.cites})
    missing = _missing_bibliography_files(ctx)
    reason = (
        f"its bibliography `{missing[0]}` is not in the project and no `.bbl` was found"
        if missing
        else "no bibliography (`\\bibliography`, `\\addbibresource`, a `.bbl` or `thebibliography`) was found"
    )
    yield ctx.report(
        file, first.start, first.end, f"the manuscript cites {counted(count, 'key')} but {reason}", identity="missing-bibliography"
    )


@rule("CIT006", "repeated-bibliography-field", Category.LATEX, Severity.WARNING, reads=("cite_keys", "bibliography"))
def repeated_bibliography_field(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a `.bib` entry that gives the same field twice (`year` or `doi` repeated, or `Year`
    and `year`), saying which field and in which entry.

    ## Why is this bad?
    BibTeX only warns in its log ("I'm ignoring x's extra "year" field") and keeps the first
    value, so a corrected value added below the old one never reaches the paper. That is a
    warning when the paper cites the entry, the copies differ and the field is one a style
    prints; otherwise (same value, bookkeeping fields like `keywords` or `annote`, an entry
    the paper does not cite) the reference is unaffected and it is a hint.

    ## Example
    ```bibtex
    @article{smith2020, title={A}, year={2019}, year={2020}}
    ```

    ## Use instead
    ```bibtex
    @article{smith2020, title={A}, year={2020}}
    ```
    """
    cited = _cited_keys(ctx)
    for file, problem in ctx.index.bib_problems:
        if problem.kind != "repeated_field":
            continue
        matters = problem.differs and is_printed_field(problem.field) and _is_cited(problem.key or "", cited)
        yield ctx.report(
            file,
            problem.start,
            problem.end,
            problem.message,
            identity=f"{problem.key}:{problem.field}",
            severity=None if matters else Severity.HINT,
        )


@rule("CIT007", "duplicate-reference", Category.LATEX, Severity.INFORMATION, reads=("cite_keys", "bibliography"))
def duplicate_reference(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Points at one work cited under two keys: two cited `.bib` entries with the same DOI, or with
    nearly the same title (rapidfuzz ratio of the normalised titles at least 95) and the same
    first author's surname, and years no more than one apart. Entries with different DOIs are
    different works, however alike their titles.

    ## Why is this bad?
    The bibliography lists the work twice (often once as the preprint and once as the
    published version, or once from each co-author's library), which readers and reviewers
    notice and which splits its citations.

    ## Example
    ```bibtex
    @inproceedings{vaswani2017, title={Attention Is All You Need}, author={Vaswani, Ashish}, year={2017}}
    @article{vaswani2017attention, title={Attention is all you need}, author={Vaswani, A.}, year={2017}}
    ```

    ## Use instead
    One entry, and one key in every `\\cite`.
    """
    cited = _cited_keys(ctx)
    first_of: dict[tuple[str, str], tuple[str, BibEntry]] = {}
    by_surname: dict[str, list[tuple[str, BibEntry, str, int | None, str]]] = {}
    for key, places in ctx.index.bib_entries.items():
        file, entry = places[0]
        if not _is_cited(key, cited) or not file.endswith(".bib"):
            continue
        doi = clean_doi(entry.fields.get("doi", ""))
        title = normal(to_text(entry.fields.get("title", "")))
        authors, _ = split_authors(entry.fields.get("author", ""))
        year_match = re.search(r"\d{4}", entry.fields.get("year", "") or entry.fields.get("date", ""))
        year = int(year_match.group(0)) if year_match else None
        same = first_of.get(("doi", doi)) if doi else None
        if same is None and len(title) >= 12 and authors:
            family = surname(authors[0])
            same = next(
                (
                    (other_file, other)
                    for other_file, other, other_title, other_year, other_doi in by_surname.get(family, [])
                    if not (doi and other_doi and doi != other_doi)
                    and (year is None or other_year is None or abs(year - other_year) <= 1)
                    and fuzz.ratio(title, other_title) >= 95
                    and not _numbered_apart(title, other_title)
                ),
                None,
            )
            by_surname.setdefault(family, []).append((file, entry, title, year, doi))
        if doi:
            first_of.setdefault(("doi", doi), (file, entry))
        if same is None:
            continue
        other_file, other = same
        if not (doi and clean_doi(other.fields.get("doi", "")) == doi):
            message = f"`{key}` and `{other.key}` look like the same work (nearly the same title and first author): cite it under one key"
        elif fuzz.ratio(title, normal(to_text(other.fields.get("title", "")))) >= 90:
            message = f"`{key}` and `{other.key}` are the same work (the same DOI, {doi}): cite it under one key"
        else:
            message = (
                f"`{key}` and `{other.key}` give the same DOI ({doi}) under different titles: "
                "one of them may have the wrong DOI, or they are parts of one work"
            )
        yield ctx.report(
            file,
            entry.start,
            entry.end,
            message,
            identity=f"{other.key}={key}",
            related=[ctx.related(other_file, other.start, other.end, f"the entry `{other.key}`")],
        )


def _numbered_apart(a: str, b: str) -> bool:
    """Titles that differ only in numbers or roman numerals: volumes or parts of one series ("Vol. I", "Vol. II")."""
    differing = set(a.split()) ^ set(b.split())
    return bool(differing) and all(re.fullmatch(r"\d+|[ivxlc]+", word) for word in differing)
