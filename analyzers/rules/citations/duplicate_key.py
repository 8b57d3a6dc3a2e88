"""CIT002: a bibliography key defined twice."""

from __future__ import annotations

from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from ...violation import Violation, violation_type
from .model import cited_keys, differing_fields, is_cited


@violation_type
class DuplicateKey(Violation):
    key: str
    where: str  # the first definition: "in `other.bib`", "on line 12"
    differing: tuple[str, ...]  # what the second definition changes (empty for an identical copy)
    matters: bool  # it differs and the paper cites the key

    @property
    def message(self) -> str:
        if self.matters:
            differing = self.differing
            named = ", ".join(differing[:4]) + (f" and {len(differing) - 4} more fields" if len(differing) > 4 else "")
            return (
                f"bibliography key `{self.key}` is defined again with different {named}; "
                f"BibTeX keeps the first definition ({self.where}), which the paper cites"
            )
        why = "an identical copy" if not self.differing else "the paper does not cite it"
        return f"bibliography key `{self.key}` is also defined {self.where} ({why})"

    @property
    def identity(self) -> str:
        return self.key


@rule("CIT002", "duplicate-bibliography-key", Category.LATEX, Severity.WARNING, reads=("cite_keys", "bibliography"))
def duplicate_bibliography_key(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a bibliography key defined twice, in one `.bib` file or across several. A generated
    `.bbl` read beside the `.bib` files (for a `\\bibliography` file that is missing) repeats
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
    cited = cited_keys(ctx)
    for key, defined in ctx.index.bib_entries.items():
        # A .bbl is BibTeX's output of the .bib entries: its \bibitem of a key the .bib defines is that entry again.
        places = [place for place in defined if not place[0].endswith(".bbl")] or defined
        if len(places) < 2:
            continue
        first_file, first = places[0]
        for file, entry in places[1:]:
            differing = differing_fields(first, entry)
            matters = bool(differing) and is_cited(key, cited)
            where = f"in `{first_file}`" if file != first_file else f"on line {ctx.source(first_file).line_of(first.start) + 1}"
            yield ctx.flag(
                DuplicateKey(key, where, tuple(differing), matters),
                file,
                entry.start,
                entry.end,
                severity=None if matters else Severity.HINT,
                related=[ctx.related(first_file, first.start, first.end, "first definition, the one BibTeX keeps")],
            )
