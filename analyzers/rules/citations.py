"""CIT: citations and bibliography entries."""

from __future__ import annotations

from collections.abc import Iterator

from rapidfuzz import process

from ..context import RuleContext
from ..finding import Category, Finding, Severity
from ..registry import rule


def _known_keys(ctx: RuleContext) -> set[str]:
    return set(ctx.memory.bib_entries) | set(ctx.memory.bibitems)


@rule("CIT001", "undefined-citation", Category.REFERENCE_FABRICATION, Severity.ERROR, reads=("cites", "bibliography"))
def undefined_citation(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags `\\cite`-like keys (`\\citep`, `\\citet`, `\\parencite`, `\\textcite`, `\\autocite`, …)
    that no bibliography entry or `\\bibitem` defines.

    ## Why is this bad?
    The reader sees "[?]" and cannot check the source behind the claim; an invented or
    mistyped reference is exactly what reviewers flag as fabricated support.

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
    """
    known = _known_keys(ctx)
    if not known:
        return  # no bibliography at all is reported once, by CIT005
    choices = sorted(known)
    for file, cite in ctx.memory.cites:
        if cite.key in known or cite.key == "*":
            continue
        closest = process.extractOne(cite.key, choices, score_cutoff=75)
        fixes = [ctx.fix(f"Change to '{closest[0]}'", ctx.edit(file, cite.start, cite.end, closest[0]), safe=False)] if closest else []
        suggestion = f"; did you mean '{closest[0]}'?" if closest else ""
        yield ctx.report(file, cite.start, cite.end, f"citation key '{cite.key}' is not in the bibliography{suggestion}",
                         identity=cite.key, fixes=fixes)


@rule("CIT002", "duplicate-bibliography-key", Category.LATEX, Severity.WARNING, reads=("bibliography",))
def duplicate_bibliography_key(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a bibliography key defined twice, in one `.bib` file or across several.

    ## Why is this bad?
    BibTeX keeps one of the two entries, possibly not the one the author checked.

    ## Example
    ```bibtex
    @article{smith2020, title={A}}
    @inproceedings{smith2020, title={B}}
    ```
    """
    for file, problem in ctx.memory.bib_problems:
        if problem.kind == "duplicate":
            yield ctx.report(file, problem.start, problem.end, problem.message, identity=problem.key or "")
    for key, places in ctx.memory.bib_entries.items():
        files = {file for file, _ in places}
        if len(places) > 1 and len(files) > 1:
            first_file, first = places[0]
            for file, entry in places[1:]:
                if file != first_file:
                    yield ctx.report(file, entry.start, entry.end, f"bibliography key '{key}' is also defined in {first_file}",
                                     identity=key, related=[ctx.related(first_file, first.start, first.end, "first definition")])


@rule("CIT003", "unparsable-bibliography-entry", Category.LATEX, Severity.WARNING, reads=("bibliography",))
def unparsable_bibliography_entry(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags `.bib` entries that cannot be parsed (an unclosed brace, a missing comma).

    ## Why is this bad?
    BibTeX skips or garbles the entry, and every citation of it breaks.

    ## Example
    ```bibtex
    @misc{key, title = {Unclosed
    ```
    """
    for file, problem in ctx.memory.bib_problems:
        if problem.kind == "unparsable":
            yield ctx.report(file, problem.start, problem.end, problem.message, identity=problem.message)


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
    """
    cited = {cite.key for _, cite in ctx.memory.cites}
    if "*" in cited:
        return
    for key, places in ctx.memory.bib_entries.items():
        if key in cited:
            continue
        for file, entry in places:
            if file.endswith(".bib"):
                yield ctx.report(file, entry.start, entry.end, f"bibliography entry '{key}' is never cited", identity=key)


@rule("CIT005", "missing-bibliography", Category.REFERENCE_FABRICATION, Severity.WARNING, reads=("cites", "bibliography"))
def missing_bibliography(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a manuscript that cites works but has no bibliography auditex can read
    (no `.bib`, no `.bbl`, no `thebibliography`).

    ## Why is this bad?
    No citation can be checked; every reference of the paper is unverifiable.

    ## Example
    ```latex
    \\cite{smith2020} ... \\bibliography{refs}   % refs.bib not shipped, no .bbl
    ```
    """
    if _known_keys(ctx) or not ctx.memory.cites:
        return
    file, first = ctx.memory.cites[0]
    yield ctx.report(file, first.start, first.end,
                     f"the manuscript cites {len(ctx.memory.cites)} keys but no bibliography (.bib, .bbl or thebibliography) was found",
                     identity="missing-bibliography")
