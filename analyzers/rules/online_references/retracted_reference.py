"""BIB004: a cited work that has been retracted."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ....latex.record import record
from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import Scope, rule
from .model import CitedViolation, documented, flag_cited

if TYPE_CHECKING:  # the offline path never imports the HTTP layer
    from ...scholarly.cited_references import Cited
    from ...scholarly.work import Verdict


@record
class RetractedReference(CitedViolation):
    title: str  # the indexed work's
    retracted_by: str  # the index that says so

    @property
    def message(self) -> str:
        return f'`{self.key}` ("{self.title}") has been retracted, according to {self.retracted_by}'

    @property
    def about(self) -> str:
        return "retracted"


@rule("BIB004", "retracted-reference", Category.REFERENCE_FABRICATION, Severity.ERROR, reads=(), scope=Scope.ONLINE)
@documented
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
        yield flag_cited(ctx, cited, RetractedReference(cited.reference.key, verdict.work.title, verdict.retracted_by))
