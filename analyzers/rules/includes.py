"""INC and SUB: the project's file graph, and the archive it was submitted in."""

from __future__ import annotations

from collections.abc import Iterator

from ..context import RuleContext
from ..finding import Category, Finding, Severity
from ..registry import rule


def _problems(ctx: RuleContext, *kinds: str, severity: Severity | None = None) -> Iterator[Finding]:
    for problem in ctx.project.problems:
        if problem.kind in kinds:
            # The identity is what the problem is about, never where: a fingerprint survives edits above it.
            about = problem.target or ctx.problem_text(problem) or problem.message
            yield ctx.report(
                problem.file, problem.start, problem.end, problem.message, identity=f"{problem.kind}:{about}", severity=severity
            )


@rule("INC001", "missing-include", Category.LATEX, Severity.WARNING, reads=("problems",))
def missing_include(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags `\\input`, `\\include`, `\\subfile`, `\\import` and bibliography commands whose file is not in the project.

    ## Why is this bad?
    The compiled paper silently lacks that part, or the build fails; a reviewer reading the
    sources cannot see what the authors saw. Generated files (`vc.tex`, `version.tex`) are
    common culprits in arXiv sources.

    ## Example
    ```latex
    \\input{sections/results}   % sections/results.tex does not exist
    ```

    ## Use instead
    Ship every included file with the sources (`sections/results.tex`), generated ones too,
    or remove the `\\input`.
    """
    yield from _problems(ctx, "missing_file", "missing_bibliography")


@rule("INC002", "include-cycle", Category.LATEX, Severity.ERROR, reads=("problems",))
def include_cycle(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags an include that leads back to a file already being included.

    ## Why is this bad?
    LaTeX recurses until it runs out of memory or the input stack overflows.

    ## Example
    ```latex
    % a.tex
    \\input{b}
    % b.tex
    \\input{a}
    ```

    ## Use instead
    Include each file from one place only, or move what both share into a third file that
    includes nothing back:
    ```latex
    % main.tex
    \\input{a}
    \\input{b}
    % a.tex and b.tex
    \\input{details}
    ```
    """
    yield from _problems(ctx, "include_cycle")


@rule("INC003", "path-outside-project", Category.LATEX, Severity.ERROR, reads=("problems",))
def path_outside_project(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags includes, bibliographies and every other command that reads a file (`\\import`,
    `\\subimport`, `\\includegraphics`, `\\lstinputlisting`, `\\verbatiminput`, `\\inputminted`,
    `\\includepdf`) that point outside the project: absolute paths, `../` escapes and symbolic
    links. auditex refuses to read them (an error).

    A folder inside a git work tree may read the whole work tree, since for an author the
    repository is the project: `\\includegraphics{../figures/a}` from `paper/` is then a warning,
    because a submission archive of `paper/` would not contain the figure. A submitted archive
    never reads beyond itself.

    ## Why is this bad?
    The manuscript does not build from its own sources, and a submitted archive that reads
    `/etc/passwd` or `~/.ssh` is hostile. Nothing outside the project ever reaches a report
    or an LLM prompt.

    ## Example
    ```latex
    \\input{/etc/passwd}
    \\bibliography{../../secrets}
    \\lstinputlisting{/etc/shadow}
    ```

    ## Use instead
    Paths relative to the project, to files inside it:
    ```latex
    \\input{sections/method}
    \\bibliography{bib/refs}
    ```
    """
    yield from _problems(ctx, "outside_root")
    yield from _problems(ctx, "outside_folder", severity=Severity.WARNING)


@rule("INC004", "unreadable-source", Category.LATEX, Severity.WARNING, reads=("problems",))
def unreadable_source(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags project files that could not be read cleanly: invalid UTF-8, NUL bytes, files too
    large, or passages the parser could only read as plain text.

    ## Why is this bad?
    Findings in those places may be incomplete; the author should know which parts auditex
    could not fully see.

    ## Example
    A Latin-1 encoded `intro.tex` with `é` stored as byte 0xE9.

    ## Use instead
    Save every source file as UTF-8 (`é` as the bytes 0xC3 0xA9), free of NUL bytes, with its
    braces balanced.
    """
    yield from _problems(ctx, "unreadable", "unparsable", "unbalanced")


@rule("SUB001", "unsafe-archive-member", Category.LATEX, Severity.ERROR, reads=("problems",))
def unsafe_archive_member(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Reports members of a submitted archive that auditex refused to extract: absolute
    paths, `..` traversal (zip-slip), symbolic and hard links, device files, and archives
    past the size, file-count or compression-ratio limits (zip bombs).

    ## Why is this bad?
    A manuscript archive has no reason to contain any of these; they are how a hostile
    submission reads or overwrites files on the reviewer's machine. Nothing refused is
    ever written or read.

    ## Example
    A `.tar.gz` with a member named `../../.bashrc`, or `figures -> /etc`.

    ## Use instead
    An archive of the project folder itself: regular files and folders under relative paths
    (`main.tex`, `sections/intro.tex`), with copies of what a link pointed to.
    """
    yield from _problems(ctx, "archive_refusal")
