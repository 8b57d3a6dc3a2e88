"""REF: cross-references between \\ref-like commands and \\label."""

from __future__ import annotations

from collections.abc import Iterator

from rapidfuzz import process

from ..context import RuleContext
from ..finding import Category, Finding, Severity
from ..registry import rule


@rule("REF001", "undefined-reference", Category.LATEX, Severity.ERROR, reads=("labels", "refs", "problems"))
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
    The fix replaces the key with the closest existing label; it is safe only when that
    label is clearly the intended one, so it is offered, never applied automatically.

    When an included file is missing (a generated `main.labels`), the label may live
    there: the finding is then information that says so.
    """
    labels = list(ctx.memory.labels)
    missing = [p.target for p in ctx.project.problems if p.kind == "missing_file" and p.target]
    severity = Severity.INFORMATION if missing else None
    unknown_source = f" (it may be defined in the missing '{missing[0]}')" if missing else ""
    for file, ref in ctx.memory.refs:
        if ref.key in ctx.memory.labels or "#" in ref.key:
            continue
        fixes = []
        closest = process.extractOne(ref.key, labels, score_cutoff=70) if labels else None
        if closest:
            fixes.append(ctx.fix(f"Change to '{closest[0]}'", ctx.edit(file, ref.start, ref.end, closest[0]), safe=closest[1] >= 90))
        suggestion = f"; did you mean '{closest[0]}'?" if closest else ""
        yield ctx.report(file, ref.start, ref.end, f"\\{ref.command}{{{ref.key}}} refers to a label that is not defined{suggestion}{unknown_source}",
                         identity=f"{ref.key}", fixes=fixes, severity=severity)


@rule("REF002", "duplicate-label", Category.LATEX, Severity.ERROR, reads=("labels",))
def duplicate_label(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a `\\label` key defined more than once in the project.

    ## Why is this bad?
    LaTeX silently uses the last definition, so references point at the wrong figure,
    table or equation.

    ## Example
    ```latex
    \\label{fig:setup} ... \\label{fig:setup}
    ```

    ## Use instead
    Give each labelled object its own key (`fig:setup`, `fig:setup-ablation`).
    """
    for key, entries in ctx.memory.labels.items():
        if len(entries) < 2:
            continue
        first = entries[0]
        for entry in entries[1:]:
            yield ctx.report(
                entry.file, entry.start, entry.end, f"label '{key}' is already defined in {first.file}",
                identity=key, related=[ctx.related(first.file, first.start, first.end, f"first definition of '{key}'")],
            )


@rule("REF003", "unused-label", Category.LATEX, Severity.HINT, reads=("labels", "ref_keys"), unnecessary=True)
def unused_label(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Marks labels that no reference in the project uses.

    ## Why is this bad?
    Not wrong, but an unreferenced figure or table often means the text never discusses
    it, and dead labels clutter the source.

    ## Example
    ```latex
    \\begin{figure}...\\label{fig:unused}\\end{figure}   % never \\ref'd
    ```
    """
    used = {ref.key for _, ref in ctx.memory.refs}
    for key, entries in ctx.memory.labels.items():
        if key in used:
            continue
        for entry in entries:
            yield ctx.report(entry.file, entry.start, entry.end, f"label '{key}' is never referenced", identity=key)
