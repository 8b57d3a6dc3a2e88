"""BIB005: a preprint cited while its peer-reviewed version exists."""

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
class PublishedPreprint(CitedViolation):
    where: str  # the venue of the published version, or its DOI
    year: int | None

    @property
    def message(self) -> str:
        year = f" ({self.year})" if self.year else ""
        return f"`{self.key}` is cited as a preprint, but it was published in {self.where}{year}"

    @property
    def about(self) -> str:
        return "published"


@rule("BIB005", "preprint-has-published-version", Category.REFERENCE_FABRICATION, Severity.HINT, reads=(), scope=Scope.ONLINE)
@documented
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
        yield flag_cited(ctx, cited, PublishedPreprint(cited.reference.key, published.venue or published.doi, published.year))
