"""SUB001: an archive member refused on extraction."""

from __future__ import annotations

from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from .model import project_problems


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
    yield from project_problems(ctx, "archive_refusal")
