from __future__ import annotations

from collections.abc import Iterator

from ....latex.deferred_pattern import DeferredPattern
from ....latex.manuscript import PlacedBlock
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...memo import SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .model import float_type, named_before, section_floats, unprinted

# The reference commands that print the bare number, leaving the float's name to the text.
_BARE = ("ref", "ref*", "subref")
# A caption of another float type inside a float: `\captionof{table}`, `\captionsetup{type=table}`.
_RECAPTIONED = DeferredPattern(r"\\captionof|\\captionsetup\s*(?:\[[^\]]*\])?\s*\{[^}]*\btype\s*=")


@violation_type
class ReferenceNamesAnotherKind(Violation):
    key: str
    written: str  # the kind the text names
    labelled: str  # the kind of float the label is in

    @property
    def message(self) -> str:
        return f"the text calls `\\ref{{{self.key}}}` a {self.written}, but the label is in a {self.labelled}: it prints the {self.labelled}'s number"

    @property
    def identity(self) -> str:
        return f"{self.written} \\ref{{{self.key}}}"


@rule("DRF005", "reference-names-another-kind", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks", "macros", "refs"))
def reference_names_another_kind(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags "Figure~\\ref{…}" where the label is in a table, and "Table~\\ref{…}" where it is in a
    figure: `\\ref` prints only the number, so the text pairs one float's name with another
    float's number. Labels of a float that captions another kind (`\\captionof`), and a key
    labelled in more than one float, are left alone.

    ## Why is this bad?
    The reader reads "Figure 2" and turns to the second figure, while the text meant the second
    table.

    ## Example
    ```latex
    The first-row excitations in Figure~\\ref{tab:first-row} …   % the label is in a table
    ```

    ## Use instead
    ```latex
    The first-row excitations in Table~\\ref{tab:first-row} …
    ```

    ## Fix safety
    No fix: the name or the key may be the wrong one.

    ## Evidence
    "strong: named as another float".
    """
    hidden = unprinted(ctx.whole_project, ctx.index.macros)
    kinds: dict[str, set[str]] = {}
    for placed, kind in (float_kind for section in ctx.manuscript.sections for float_kind in _floats(SectionKey(section))):
        if _RECAPTIONED.search(ctx.source(placed.file).text[placed.block.start : placed.block.end]):
            continue  # a float that captions another kind of float in it
        for key in placed.block.labels:
            kinds.setdefault(key, set()).add(kind)
    definitions = {(file, macro.start, macro.end) for file, macro in ctx.index.macros}
    for file, use in ctx.index.refs:
        labelled = kinds.get(use.key)
        if use.command not in _BARE or labelled is None or len(labelled) != 1 or hidden.covers(file, use.start):
            continue
        source = ctx.source(file).text
        command_start = source.rfind("\\", 0, use.start)
        written = named_before(source, command_start)
        (kind,) = labelled
        if written is None or written == kind or any(f == file and low <= use.start < high for f, low, high in definitions):
            continue
        start, end = command_start, source.find("}", use.end) + 1 or use.end
        where = Statement(file=file, range=ctx.range(file, start, end), quote=source[start:end], role="reference")
        evidence = Evidence(
            kind="strong: named as another float", statements=[where], reason=f"`\\{use.command}` prints the {kind}'s number"
        )
        yield ctx.flag(ReferenceNamesAnotherKind(use.key, written, kind), file, start, end, evidence=evidence)


def _floats(key: SectionKey) -> Iterator[tuple[PlacedBlock, str]]:
    """A section's floats with the kind each is."""
    for placed in section_floats(key):
        kind = float_type(placed.block.environment or "")
        if kind is not None:
            yield placed, kind
