"""REF001: a reference to a label that nothing defines.

## How it decides
A label that another root of the folder includes (a venue variant's appendix) is named, with the
file that defines it; with xr's `\\externaldocument` it is defined.

Labels that a loaded package defines (`LastPage` of lastpage) are known.

A key written in doubled braces (`\\cref{{sec:a}}`) asks for the label `{sec:a}`, which no
`\\label` defines wherever it lives: the finding says so, and its safe fix writes the key in single
braces when that label is defined.

When an included file is missing, the label may live there: the finding is then information
that says so. When that file is a generated labels file (`main.labels`, an `.aux`), the undefined
references are one finding, information, at its include, naming the keys (each reference is a
related location).
"""

from __future__ import annotations

from collections.abc import Iterator

from rapidfuzz import process

from ....latex.deferred_pattern import DeferredPattern
from ....latex.model import KeyUse
from ....latex.project import ProjectProblem
from ...context import RuleContext
from ...finding import Category, Finding, Related, Severity
from ...registry import rule
from ...violation import MisspelledKey, Violation, violation_type
from .model import LabelSources

# "Line~\ref{", "Lines \ref{a}--\ref{", "lines~\ref{a} to \ref{": the reference names a code line.
_CODE_LINE_BEFORE = DeferredPattern(r"\b[Ll]ines?[~\s]*(?:\\\w*ref\{[^{}]*\}[\s~]*(?:--|–|-|to|and|,)[\s~]*)?\\\w*ref\*?\{$")


@violation_type
class UndefinedReference(MisspelledKey):
    command: str
    key: str
    unread: str  # where the label may be defined after all, a clause of the message ("" when nowhere)
    missing: str | None = None  # a missing include that may define it
    closest: str | None = None  # the closest defined label, which the fix puts in the key's place

    @property
    def message(self) -> str:
        unknown_source = f" (it may be defined in the missing `{self.missing}`)" if self.missing else ""
        return f"`\\{self.command}{{{self.key}}}` refers to a label that is not defined{self.unread}{unknown_source}"


@violation_type
class KeyInDoubledBraces(Violation):
    """`\\cref{{key}}`: the key LaTeX reads keeps the inner braces, which no `\\label` defines, wherever it lives."""

    command: str
    key: str  # as written, braces included

    @property
    def message(self) -> str:
        return (
            f"`\\{self.command}{{{self.key}}}` has its key in doubled braces: it asks for the label `{self.key}`, which no \\label defines"
        )

    @property
    def fix_title(self) -> str:
        return f"Write `{self.key[1:-1]}` in single braces"

    @property
    def identity(self) -> str:
        return self.key


@violation_type
class UndefinedInGeneratedLabels(Violation):
    references: int
    keys: tuple[str, ...]
    target: str | None  # the missing generated labels file

    @property
    def message(self) -> str:
        keys = self.keys
        shown = ", ".join(f"`{key}`" for key in keys[:5]) + (f" and {len(keys) - 5} more" if len(keys) > 5 else "")
        return (
            f"{self.references} reference{'s' if self.references != 1 else ''} to {len(keys)} undefined label"
            f"{'s' if len(keys) != 1 else ''} ({shown}) may be defined in the missing `{self.target}`"
        )

    @property
    def identity(self) -> str:
        return f"missing:{self.target}"


@rule("REF001", "undefined-reference", Category.LATEX, Severity.ERROR, reads=("labels", "refs", "problems", "text"))
def undefined_reference(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags `\\ref`, `\\eqref`, `\\autoref`, `\\cref`, `\\pageref` and friends whose key no `\\label` defines.

    ## Why is this bad?
    The compiled paper shows "??" where the reader expects a number, and the claim that
    cites the missing table or equation loses its evidence.

    ## Example
    ```latex
    \\label{tab:results} ... see Table~\\ref{tab:result}.
    ```

    ## Use instead
    ```latex
    see Table~\\ref{tab:results}.
    ```

    ## Fix safety
    The fix replaces the key with the closest existing label. It is safe when that label is a
    near-certain typo of the key (90% similar or more: `sec:resluts` for `sec:results`): `check
    --fix` applies it and it is the editor's preferred action. A less similar label is offered
    only, and only `--unsafe-fixes` applies it.

    ## Confidence
    A `lstlisting`'s `label=` option defines its label. Full when the key appears nowhere else. Lowered below the warning threshold (information) when
    the label may be defined where auditex does not read: the key is passed to a command elsewhere
    (`\\mylisting{…}{lst:mpm}` whose class sets `label={#5}`), or the reference is to a code line (`Line~\\ref{ln:x}`), whose label sits inside a listing that escapes
    to LaTeX.
    """
    labels = LabelSources.of(ctx)
    unresolved: list[Related] = []
    unresolved_keys: dict[str, None] = {}
    for file, ref in ctx.index.refs:
        if ref.key not in labels.unresolved:
            continue
        if ref.key.startswith("{") and ref.key.endswith("}"):
            inner = ref.key[1:-1]
            edits = [ctx.edit(file, ref.start, ref.end, inner)] if labels.define(inner) else None
            yield ctx.flag(KeyInDoubledBraces(ref.command, ref.key), file, ref.start, ref.end, edits=edits, safe=True)
            continue
        confidence, unread = _where_it_may_be_defined(ctx, labels, file, ref)
        if labels.generated:
            unresolved.append(ctx.related(file, ref.start, ref.end, UndefinedReference(ref.command, ref.key, unread).message))
            unresolved_keys[ref.key] = None
            continue
        yield _undefined_reference(ctx, labels, file, ref, unread, confidence)
    if unresolved:
        site = labels.generated[0]
        violation = UndefinedInGeneratedLabels(len(unresolved), tuple(unresolved_keys), site.target)
        yield ctx.flag(violation, site.file, site.start, site.end, related=unresolved, severity=Severity.INFORMATION)


def _where_it_may_be_defined(ctx: RuleContext, labels: LabelSources, file: str, ref: KeyUse) -> tuple[float, str]:
    """The confidence that `ref`'s label is undefined, and where it may be defined after all (a clause of the message)."""
    mention = labels.mention(ctx, ref.key)
    if mention:
        line = ctx.source(mention[0]).position(mention[1])[0] + 1
        return 0.5, f" (the key appears at `{mention[0]}:{line}`, perhaps in a command that defines it)"
    if _CODE_LINE_BEFORE.search(ctx.source(file).text, max(0, ref.start - 60), ref.start):
        return 0.5, " (a code line: its label may sit inside a listing)"
    if ref.key in labels.elsewhere:
        # Several roots share this file: the label exists, in a file this root does not include.
        root = ctx.project.root_file
        return 1.0, f" in the build of `{root}` (`{labels.elsewhere[ref.key]}` defines it, and `{root}` does not include that file)"
    return 1.0, ""


def _undefined_reference(ctx: RuleContext, labels: LabelSources, file: str, ref: KeyUse, unread: str, confidence: float) -> Finding:
    closest = (
        process.extractOne(ref.key, list(labels.defined), score_cutoff=70) if labels.defined and ref.key not in labels.elsewhere else None
    )
    missing: ProjectProblem | None = labels.missing[0] if labels.missing else None
    violation = UndefinedReference(ref.command, ref.key, unread, missing.target if missing else None, closest[0] if closest else None)
    return ctx.flag(
        violation,
        file,
        ref.start,
        ref.end,
        edits=[ctx.edit(file, ref.start, ref.end, closest[0])] if closest else None,
        safe=closest is not None and closest[1] >= 90,
        severity=Severity.INFORMATION if missing else None,
        confidence=confidence,
    )
