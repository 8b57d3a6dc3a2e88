"""REF: cross-references between \\ref-like commands and \\label."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz import process

from ...latex.index import LabelEntry
from ...latex.model import KeyUse
from ...latex.project import ProjectProblem
from ..context import RuleContext
from ..finding import Category, Finding, Related, Severity
from ..registry import rule


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

    ## Confidence
    A `lstlisting`'s `label=` option defines its label. Full when the key appears nowhere else. Lowered below the warning threshold (information) when
    the label may be defined where auditex does not read: the key is passed to a command elsewhere
    (`\\mylisting{…}{lst:mpm}` whose class sets `label={#5}`), or the reference is to a code line (`Line~\\ref{ln:x}`), whose label sits inside a listing that escapes
    to LaTeX.
    """
    labels = _LabelSources.of(ctx)
    unresolved: list[Related] = []
    unresolved_keys: dict[str, None] = {}
    for file, ref in ctx.index.refs:
        if labels.define(ref.key):
            continue
        if ref.key.startswith("{") and ref.key.endswith("}"):
            yield _doubled_braces(ctx, labels, file, ref)
            continue
        confidence, unread = _where_it_may_be_defined(ctx, labels, file, ref)
        message = f"`\\{ref.command}{{{ref.key}}}` refers to a label that is not defined{unread}"
        if labels.generated:
            unresolved.append(ctx.related(file, ref.start, ref.end, message))
            unresolved_keys[ref.key] = None
            continue
        yield _undefined_reference(ctx, labels, file, ref, message, confidence)
    if unresolved:
        yield _undefined_in_generated_labels(ctx, labels.generated[0], unresolved, list(unresolved_keys))


@dataclass(frozen=True, slots=True)
class _LabelSources:
    """Where the labels of a build may come from besides its own `\\label`s."""

    defined: dict[str, list[LabelEntry]]  # the build's labels
    missing: list[ProjectProblem]  # includes not in the project, which may hold labels
    generated: list[ProjectProblem]  # of those, generated labels files (main.labels, .aux), which surely do
    elsewhere: dict[str, str]  # undefined keys another root's file labels -> that file
    external: bool  # xr's \externaldocument reads the labels of the other document's build
    packages: set[str]  # the packages loaded, some of which define labels (lastpage)
    uses: set[tuple[str, int]]  # where the references stand: a key there is a use, not a definition
    # Key → where it stands outside the references, looked for once per key (a key may have thousands of references).
    mentions: dict[str, tuple[str, int] | None] = field(default_factory=dict)

    @classmethod
    def of(cls, ctx: RuleContext) -> _LabelSources:
        missing = [p for p in ctx.project.problems if p.kind == "missing_file" and p.target]
        undefined = {ref.key for _, ref in ctx.index.refs if ref.key not in ctx.index.labels}
        elsewhere = _labels_outside_the_build(ctx, undefined) if undefined else {}
        external = bool(elsewhere) and _EXTERNAL_DOCUMENT.search("\n".join(ctx.source(path).text for path in ctx.project.files)) is not None
        return cls(
            defined=ctx.index.labels,
            missing=missing,
            generated=[p for p in missing if (p.target or "").endswith(_GENERATED_LABEL_FILES)],
            elsewhere=elsewhere,
            external=external,
            packages={
                site.target for path in ctx.project.files for site in ctx.project.documents[path].parsed.includes if site.kind == "package"
            },
            uses={(file, ref.start) for file, ref in ctx.index.refs},
        )

    def define(self, key: str) -> bool:
        """Whether `key` is defined for the build: labelled, a macro's parameter, a package's, or the external document's."""
        if key in self.defined or "#" in key or _PACKAGE_LABELS.get(key) in self.packages:
            return True
        return key in self.elsewhere and self.external


def _where_it_may_be_defined(ctx: RuleContext, labels: _LabelSources, file: str, ref: KeyUse) -> tuple[float, str]:
    """The confidence that `ref`'s label is undefined, and where it may be defined after all (a clause of the message)."""
    if ref.key not in labels.mentions:
        labels.mentions[ref.key] = _mention_outside_references(ctx, ref.key, labels.uses)
    mention = labels.mentions[ref.key]
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


def _doubled_braces(ctx: RuleContext, labels: _LabelSources, file: str, ref: KeyUse) -> Finding:
    """`\\cref{{key}}`: the key LaTeX reads keeps the inner braces, which no `\\label` defines, wherever it lives."""
    inner = ref.key[1:-1]
    message = f"`\\{ref.command}{{{ref.key}}}` has its key in doubled braces: it asks for the label `{ref.key}`, which no \\label defines"
    fix = ctx.fix(f"Write `{inner}` in single braces", ctx.edit(file, ref.start, ref.end, inner), safe=True)
    return ctx.report(file, ref.start, ref.end, message, identity=ref.key, fixes=[fix] if labels.define(inner) else [])


def _undefined_reference(ctx: RuleContext, labels: _LabelSources, file: str, ref: KeyUse, message: str, confidence: float) -> Finding:
    fixes = []
    closest = (
        process.extractOne(ref.key, list(labels.defined), score_cutoff=70) if labels.defined and ref.key not in labels.elsewhere else None
    )
    if closest:
        fixes.append(
            ctx.fix(f"Replace `{ref.key}` with `{closest[0]}`", ctx.edit(file, ref.start, ref.end, closest[0]), safe=closest[1] >= 90)
        )
    unknown_source = f" (it may be defined in the missing `{labels.missing[0].target}`)" if labels.missing else ""
    return ctx.report(
        file,
        ref.start,
        ref.end,
        message + unknown_source,
        identity=f"{ref.key}",
        fixes=fixes,
        severity=Severity.INFORMATION if labels.missing else None,
        confidence=confidence,
    )


def _undefined_in_generated_labels(ctx: RuleContext, site: ProjectProblem, unresolved: list[Related], keys: list[str]) -> Finding:
    """The references to undefined labels as one finding at the include of the missing generated labels file."""
    shown = ", ".join(f"`{key}`" for key in keys[:5]) + (f" and {len(keys) - 5} more" if len(keys) > 5 else "")
    return ctx.report(
        site.file,
        site.start,
        site.end,
        f"{len(unresolved)} reference{'s' if len(unresolved) != 1 else ''} to {len(keys)} undefined label"
        f"{'s' if len(keys) != 1 else ''} ({shown}) may be defined in the missing `{site.target}`",
        identity=f"missing:{site.target}",
        related=unresolved,
        severity=Severity.INFORMATION,
    )


# Files a build generates that define labels: xr-hyper's or a book's own `\\input{main.labels}`.
_GENERATED_LABEL_FILES = (".labels", ".aux")


# Labels a package defines at the end of the document: \pageref{LastPage} with lastpage.
_PACKAGE_LABELS = {"LastPage": "lastpage", "VeryLastPage": "lastpage", "TotPages": "totpages"}
# "Line~\ref{", "Lines \ref{a}--\ref{", "lines~\ref{a} to \ref{": the reference names a code line.
_CODE_LINE_BEFORE = re.compile(r"\b[Ll]ines?[~\s]*(?:\\\w*ref\{[^{}]*\}[\s~]*(?:--|–|-|to|and|,)[\s~]*)?\\\w*ref\*?\{$")
# A use of a key by a reference command we may not know (\hyperref[key], \zcref{key}): not a definition.
_REFERENCE_BEFORE = re.compile(r"\\\w*ref\w*\*?\s*[\[{](?:[^{}\[\]]*,)?\s*$")


_EXTERNAL_DOCUMENT = re.compile(r"^[^%\n]*\\externaldocument\s*(?:\[[^\]]*\])?\s*\{", re.M)
_LABEL = re.compile(r"^[^%\n]*?\\label\s*\{([^{}]+)\}", re.M)


def _labels_outside_the_build(ctx: RuleContext, keys: set[str]) -> dict[str, str]:
    """Which of `keys` the other .tex files of the folder label (another root's appendix), and where."""
    found: dict[str, str] = {}
    folder = ctx.project.root.folder
    for path in sorted(folder.rglob("*.tex")):
        relative = path.relative_to(folder).as_posix()
        if relative in ctx.project.documents:
            continue
        for key in _labels_in(ctx.project.root.read(relative).text):
            if key in keys:
                found.setdefault(key, relative)
    return found


@lru_cache(maxsize=64)  # the other roots' files: REF001 re-runs as the text changes, they rarely do
def _labels_in(text: str) -> tuple[str, ...]:
    return tuple(match.group(1).strip() for match in _LABEL.finditer(text))


@lru_cache(maxsize=64)
def _comment_starts(text: str) -> list[int]:
    """Where each comment (an unescaped `%`) starts, in order."""
    return [match.start() for match in re.finditer(r"(?<!\\)%", text)]


def _mention_outside_references(ctx: RuleContext, key: str, uses: set[tuple[str, int]]) -> tuple[str, int] | None:
    """Where `key` stands as a whole argument or option value (`{key}`, `label=key`) outside the
    references and comments: a command auditex does not read may define it there."""
    for path in ctx.project.files:
        source = ctx.source(path)
        text = source.text
        comments = _comment_starts(text)
        position = text.find(key)
        while position != -1:
            end = position + len(key)
            before, after = text[max(0, position - 20) : position].rstrip()[-1:], text[end : end + 20].lstrip()[:1]
            # Line starts and comments looked up, not scanned for: a file of one long line has many mentions.
            line_start = source.line_starts[source.line_of(position)]
            comment = bisect.bisect_left(comments, line_start)
            if (
                before in ("{", "=", ",")
                and after in ("}", ",", "]")
                and (path, position) not in uses
                and not (comment < len(comments) and comments[comment] < position)
                and not _REFERENCE_BEFORE.search(text, max(line_start, position - 80), position)
            ):
                return path, position
            position = text.find(key, end)
    return None


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
    for key, entries in ctx.index.labels.items():
        if len(entries) < 2:
            continue
        first = entries[0]
        for entry in entries[1:]:
            yield ctx.report(
                entry.file,
                entry.start,
                entry.end,
                f"label `{key}` is already defined in `{first.file}`",
                identity=key,
                related=[ctx.related(first.file, first.start, first.end, f"first definition of `{key}`")],
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

    ## Use instead
    Refer to the figure where the text discusses it, or drop its label:
    ```latex
    \\begin{figure}...\\label{fig:architecture}\\end{figure}
    Figure~\\ref{fig:architecture} shows the model.
    ```
    """
    used = {ref.key for _, ref in ctx.index.refs}
    for key, entries in ctx.index.labels.items():
        if key in used:
            continue
        for entry in entries:
            yield ctx.report(entry.file, entry.start, entry.end, f"label `{key}` is never referenced", identity=key)
