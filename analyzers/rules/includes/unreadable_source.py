"""INC004: a source file that cannot be read or parsed as written."""

from __future__ import annotations

from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Category, Finding, Severity
from ...registry import rule
from .model import project_problems


@rule("INC004", "unreadable-source", Category.LATEX, Severity.WARNING, reads=("problems",))
def unreadable_source(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags project files that could not be read cleanly: invalid UTF-8, NUL bytes, files too
    large, passages the parser could only read as plain text, and braces that do not pair: a `{`
    never closed, or a `}` that closes no group (`$\\frac{a-b}a+b}$`, where `{a+b}` was meant).

    ## Why is this bad?
    Findings in those places may be incomplete; the author should know which parts auditex
    could not fully see. A brace that does not pair stops TeX, and what surrounds it prints
    otherwise than written: a fraction loses its denominator.

    ## Example
    A Latin-1 encoded `intro.tex` with `é` stored as byte 0xE9.

    ## Use instead
    Save every source file as UTF-8 (`é` as the bytes 0xC3 0xA9), free of NUL bytes, with its
    braces balanced.
    """
    yield from project_problems(ctx, "unreadable", "unparsable", "unbalanced")
