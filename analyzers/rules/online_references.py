"""BIB: references verified against scholarly indexes (only with `auditex check --online` or the
`auditex.online` setting).

These rules never touch the network themselves: `analyzers/online_verification.py` resolves every
cited reference through `analyzers/scholarly/` and hands each rule the reference and the
indexes' verdict. What is sent is reference metadata only (a DOI, an arXiv id, a title, the
first author's surname), never manuscript text.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from ..context import RuleContext
from ..finding import Category, Finding, Fix, Severity
from ..registry import Scope, rule
from ..scholarly.bibtex_edit import bibtex_value, field_spans

if TYPE_CHECKING:  # the offline path never imports the HTTP layer
    from ..scholarly.cited_references import Cited
    from ..scholarly.work import Verdict, Work

# Text parsed out of a formatted \bibitem is a guess; its title and author comparisons inform only.
GUESSED = 0.6
_SEVERITY = {"title": Severity.WARNING, "authors": Severity.WARNING, "year": Severity.INFORMATION, "venue": Severity.INFORMATION}

_HOW = """
    ## How matching works
    Each index's candidates are compared with the cited entry after LaTeX, case, accents and
    punctuation are removed: a candidate is the same work when rapidfuzz's ratio of the two
    titles is at least 0.9 (0.8 when the first author's surname and the year, within one, agree
    too). Authors are compared by surname, the year within one, the venue by shared words or
    abbreviation. Titles and names are compared after the indexes' markup (JATS, HTML entities),
    OpenAlex's numbered names and affiliations listed as authors are removed. Resolution order:
    the DOI, the PMID, the arXiv id, then a title search (configurable: `[online] order` in
    `.auditex.toml`).

    ## What is sent
    Only reference metadata: the entry's DOI, PMID, arXiv id, title and first author's surname, to
    Crossref, OpenAlex, arXiv, Semantic Scholar, DBLP, DataCite and Europe PMC (base URLs
    overridable with `AUDITEX_CROSSREF_URL`, `AUDITEX_OPENALEX_URL`, `AUDITEX_ARXIV_URL`,
    `AUDITEX_S2_URL`, `AUDITEX_DBLP_URL`, `AUDITEX_DATACITE_URL`, `AUDITEX_EUROPEPMC_URL`), and one
    HEAD request to the own URL of a software or web entry no index holds. Never manuscript text.
    Nothing is sent unless `--online` or the `auditex.online` setting asks for it. Answers are
    cached (found 30 days, not found 1 day). A 404 from a search or batch endpoint, a service
    unreachable or rate limiting past its retries leaves the service out for the run: the
    references it might have answered for are unchecked, never "not found".
"""


_Check = TypeVar("_Check", bound=Callable[..., object])


def _documented(check: _Check) -> _Check:
    """Every BIB rule's docs end with how matching works and what is sent."""
    check.__doc__ = inspect.cleandoc(check.__doc__ or "") + "\n\n" + inspect.cleandoc(_HOW)
    return check


def _report(ctx: RuleContext, cited: Cited, message: str, identity: str, **kwargs: Any) -> Finding:
    related = [ctx.related(file, start, end, f"`\\cite` of `{cited.reference.key}`") for file, start, end in cited.cites[:5]]
    return ctx.report(cited.file, cited.start, cited.end, message, identity=f"{cited.reference.key}:{identity}", related=related, **kwargs)


def _described(work: Work) -> str:
    parts = [f'"{work.title}"']
    if work.authors:
        parts.append(", ".join(work.authors[:3]) + (" et al." if len(work.authors) > 3 else ""))
    if work.venue:
        parts.append(work.venue)
    if work.year:
        parts.append(str(work.year))
    return " · ".join(parts)


@rule("BIB001", "reference-not-found", Category.REFERENCE_FABRICATION, Severity.WARNING, reads=(), scope=Scope.ONLINE)
@_documented
def reference_not_found(ctx: RuleContext, cited: Cited, verdict: Verdict) -> Iterator[Finding]:
    """## What it does
    Flags a cited reference that no scholarly index knows: at least two indexes answered the
    title search, none returned a candidate above the match threshold (likely fabricated), and
    no index failed to answer. A reference that could not be checked (an index unreachable,
    misconfigured or rate limited, the time budget spent) is never reported; the run's summary
    counts it as unchecked. Software, web pages, datasets, reports and URL-only entries are
    never reported: indexes mostly lack them, so they are checked at DataCite and at their own
    URL instead, or counted as unchecked.

    ## Why is this bad?
    References invented by language models have reached accepted papers; a reader who looks
    one up finds nothing, and the claim it supports stands on air.

    ## Example
    ```bibtex
    @article{smith2021, title = {Quantum Gradient Widgets for Sparse Attention}, author = {Smith, J.}, year = {2021}}
    ```

    ## Use instead
    Cite the work you read, with its DOI; delete the citation if there is none.

    ## Fix safety
    No fix: only the author knows which work was meant.
    """
    if verdict.status == "not_found":
        searched = ", ".join(verdict.answered)
        yield _report(
            ctx,
            cited,
            f'`{cited.reference.key}` ("{cited.reference.title}") matches no work'
            f" in {searched}; "
            "it may be fabricated: check it and add its DOI",
            "not-found",
        )


@rule("BIB002", "reference-metadata-mismatch", Category.REFERENCE_FABRICATION, Severity.WARNING, reads=(), scope=Scope.ONLINE)
@_documented
def reference_metadata_mismatch(ctx: RuleContext, cited: Cited, verdict: Verdict) -> Iterator[Finding]:
    """## What it does
    Flags a cited reference whose metadata differs from the work the indexes hold: the title
    (beyond case and punctuation), the first author or missing or extra authors (warning), a
    year off by more than one, or the venue (information). The message shows what is cited
    and what was found.

    ## Why is this bad?
    A wrong author list or title makes the reference hard to find and misattributes the work;
    mis-dated and mis-attributed references are a common trace of references written from memory
    or by a language model.

    ## Example
    ```bibtex
    @inproceedings{vaswani2017, title = {Attention Is All You Need}, author = {Vaswani, Ashish and Bengio, Yoshua}, year = {2015}}
    ```

    ## Use instead
    The metadata of the published record (title, full author list, year, DOI).

    ## Fix safety
    "Replace with verified metadata" rewrites the `.bib` entry's title, authors, year and DOI with
    the index's values (its title shows them). Unsafe: check that the index found the work you
    meant.
    """
    work = verdict.work
    if work is None:
        return
    fixes = [_replace_fix(ctx, cited, work)] if cited.is_bib else []
    for mismatch in verdict.mismatches:
        found = f" ({mismatch.detail})" if mismatch.detail else ""
        confidence = 1.0 if cited.is_bib or mismatch.field in ("year", "venue") else GUESSED
        verb = "differ" if mismatch.field == "authors" else "differs"
        yield _report(
            ctx,
            cited,
            f"`{cited.reference.key}`: the {mismatch.field} {verb} from {work.source}{found}: "
            f'cited "{mismatch.cited}", found "{mismatch.found}"',
            mismatch.field,
            severity=_SEVERITY[mismatch.field],
            fixes=[fix for fix in fixes if fix is not None],
            confidence=confidence,
        )


@rule("BIB003", "identifier-mismatch", Category.REFERENCE_FABRICATION, Severity.WARNING, reads=(), scope=Scope.ONLINE)
@_documented
def identifier_mismatch(ctx: RuleContext, cited: Cited, verdict: Verdict) -> Iterator[Finding]:
    """## What it does
    Flags a reference whose DOI or arXiv id does not resolve (no index knows it), or resolves
    to a different work than the entry's title.

    ## Why is this bad?
    The identifier is what readers and tools follow: a wrong one sends them to another paper,
    and an identifier that exists nowhere is a sign of a fabricated reference.

    ## Example
    ```bibtex
    @article{he2016, title = {Deep Residual Learning for Image Recognition}, doi = {10.1038/nature14539}}
    ```

    ## Use instead
    The work's own DOI (`10.1109/CVPR.2016.90`).

    ## Fix safety
    "Replace with verified metadata" (offered by BIB002 when the title search found the work) writes
    the DOI of the work found by title. Unsafe.
    """
    if verdict.identifier_problem:
        yield _report(
            ctx,
            cited,
            f"`{cited.reference.key}`: {verdict.identifier_problem}",
            "identifier",
            fixes=[fix for fix in [_replace_fix(ctx, cited, verdict.work)] if fix is not None]
            if cited.is_bib and verdict.work is not None and verdict.work.doi
            else [],
        )


@rule("BIB004", "retracted-reference", Category.REFERENCE_FABRICATION, Severity.ERROR, reads=(), scope=Scope.ONLINE)
@_documented
def retracted_reference(ctx: RuleContext, cited: Cited, verdict: Verdict) -> Iterator[Finding]:
    """## What it does
    Flags a cited work that has been retracted: OpenAlex marks it `is_retracted`, or Crossref
    records an update of type retraction.

    ## Why is this bad?
    A retracted result is not evidence; building on it without saying so misleads the reader.

    ## Example
    ```latex
    as shown by \\citet{wakefield1998}
    ```

    ## Use instead
    Drop the citation, or cite it explicitly as retracted.

    ## Fix safety
    No fix.
    """
    if verdict.retracted_by and verdict.work is not None:
        yield _report(
            ctx,
            cited,
            f'`{cited.reference.key}` ("{verdict.work.title}") has been retracted, according to {verdict.retracted_by}',
            "retracted",
        )


@rule("BIB005", "preprint-has-published-version", Category.REFERENCE_FABRICATION, Severity.HINT, reads=(), scope=Scope.ONLINE)
@_documented
def preprint_has_published_version(ctx: RuleContext, cited: Cited, verdict: Verdict) -> Iterator[Finding]:
    """## What it does
    Points at a preprint (arXiv, bioRxiv, …) cited while a peer-reviewed version exists.

    ## Why is this bad?
    The reviewed version may differ from the preprint, and venues ask for the version of record.

    ## Example
    ```bibtex
    @article{kingma2014, title = {Adam: A Method for Stochastic Optimization}, journal = {arXiv preprint arXiv:1412.6980}}
    ```

    ## Use instead
    ```bibtex
    @inproceedings{kingma2015, title = {Adam: A Method for Stochastic Optimization}, booktitle = {ICLR}, year = {2015}}
    ```

    ## Fix safety
    No fix: which version to cite is the author's call.
    """
    published = verdict.published
    if published is not None:
        where = published.venue or published.doi
        year = f" ({published.year})" if published.year else ""
        yield _report(ctx, cited, f"`{cited.reference.key}` is cited as a preprint, but it was published in {where}{year}", "published")


def _replace_fix(ctx: RuleContext, cited: Cited, work: Work | None) -> Fix | None:
    """Rewrite title, author, year and doi of the `.bib` entry with the index's values (unsafe)."""
    if work is None:
        return None
    text = ctx.source(cited.file).text
    located = field_spans(text, cited.start)
    if located is None:
        return None
    spans, closing = located
    values = {
        "title": work.title,
        "author": " and ".join(_bibtex_name(name) for name in work.authors),
        "year": str(work.year) if work.year else "",
        "doi": work.doi,
    }
    edits, shown = [], []
    for name, value in values.items():
        if not value:
            continue
        span = spans.get(name)
        new = bibtex_value(value)
        if span is not None:
            if text[span.start : span.end] != new:
                edits.append(ctx.edit(cited.file, span.start, span.end, new))
        else:
            last = closing
            while last > 0 and text[last - 1].isspace():
                last -= 1
            separator = "" if text[last - 1] == "," else ","
            edits.append(ctx.edit(cited.file, last, last, f"{separator}\n  {name} = {{{new}}}"))
        shown.append(f"{name}: {value if len(value) < 80 else value[:77] + '…'}")
    if not edits:
        return None
    return ctx.fix("Replace with verified metadata (" + "; ".join(shown) + ")", *edits, safe=False)


def _bibtex_name(name: str) -> str:
    parts = name.split()
    return f"{parts[-1]}, {' '.join(parts[:-1])}" if len(parts) > 1 else name
