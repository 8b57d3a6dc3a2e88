"""CIT001: a cited key the bibliography does not define."""

from __future__ import annotations

from collections.abc import Iterator

from rapidfuzz import process

from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from ...violation import MisspelledKey, violation_type
from .model import known_keys, missing_bibliography_files


@violation_type
class UndefinedCitation(MisspelledKey):
    key: str
    closest: str | None  # the bibliography key the fix puts in its place
    case_only: bool  # `closest` differs from the key in letter case alone
    missing_file: str | None  # a named .bib file the project lacks, where the key may be defined

    @property
    def message(self) -> str:
        if self.case_only:
            return f"citation key `{self.key}` differs only in letter case from the bibliography key `{self.closest}`"
        unknown_source = f" (it may be defined in the missing `{self.missing_file}`)" if self.missing_file else ""
        return f"citation key `{self.key}` is not in the bibliography{unknown_source}"


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
    known = known_keys(ctx)
    if not known:
        return  # no bibliography at all is reported once, by CIT005
    missing = missing_bibliography_files(ctx)
    severity = Severity.INFORMATION if missing else None
    choices = sorted(known)
    by_lowercase = {key.lower(): key for key in choices}
    for file, cite in ctx.index.cites:
        if cite.key in known or cite.key == "*":
            continue
        same_but_case = by_lowercase.get(cite.key.lower())
        closest: str | None
        if same_but_case:
            closest = same_but_case
        else:
            match = process.extractOne(cite.key, choices, score_cutoff=75)
            closest = match[0] if match else None
        violation = UndefinedCitation(cite.key, closest, bool(same_but_case), missing[0] if missing else None)
        edits = [ctx.edit(file, cite.start, cite.end, closest)] if closest else []
        yield ctx.flag(violation, file, cite.start, cite.end, edits=edits, severity=None if same_but_case else severity)
