"""NOT001: a macro redefined with another meaning after the text used the first."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ....latex.manuscript import Section
from ...context import RuleContext
from ...finding import Category, Finding, Related, Severity
from ...registry import Scope, rule
from ...violation import Violation, violation_type
from .model import (
    MacroPlaces,
    Redefinition,
    macro_redefinitions,
    printed_place,
    without_spaces,
)


@violation_type
class MacroRedefined(Violation):
    name: str
    first_body: str
    later_body: str

    @property
    def message(self) -> str:
        return f"`{self.name}` was defined as `{self.first_body}` and is redefined here as `{self.later_body}` after the text used it"

    @property
    def identity(self) -> str:
        return f"{self.name}:{without_spaces(self.later_body)}"


def _reading_cut(places: list[tuple[int, MacroPlaces]], number: int) -> tuple[int, int] | None:
    """Where redefinition `number` falls in reading order, as (section ordinal, block index):
    after the last block of its file that starts before it, else before the file's first block."""
    after = [(ordinal, last + 1) for ordinal, part in places if (last := part.cuts[number][0]) is not None]
    if after:
        return after[-1]
    return next(((ordinal, first) for ordinal, part in places if (first := part.cuts[number][1]) is not None), None)


def _first_use_before(places: list[tuple[int, MacroPlaces]], name: str, cut: tuple[int, int]) -> Related | None:
    for ordinal, part in places:
        use = part.uses.get(name)
        if use is not None and (ordinal, use[0]) < cut:
            return use[1]
    return None


@lru_cache(maxsize=256)
def _macro_use(name: str) -> re.Pattern[str]:
    return re.compile(re.escape(name) + r"(?![A-Za-z@])")


def _redefinitions_after_use(ctx: RuleContext, parts: list[tuple[Section, list[MacroPlaces]]]) -> Iterator[Finding]:
    places = [(ordinal, part) for ordinal, (_, section_parts) in enumerate(parts) for part in section_parts]
    if not places:
        return  # no redefinitions
    reported: set[str] = set()
    for number, redefinition in enumerate(macro_redefinitions(ctx)):
        if redefinition.name in reported:
            continue
        cut = _reading_cut(places, number)
        if cut is None:
            continue
        used = _first_use_before(places, redefinition.name, cut)
        if used is None:
            continue
        reported.add(redefinition.name)
        name, first, later = redefinition.name, redefinition.first, redefinition.later
        # Both meanings in print (a use in the redefining block or later) is the evidence of a change.
        after = any((ordinal, part.uses[name][2]) >= (cut[0], cut[1] - 1) for ordinal, part in places if name in part.uses)
        violation = MacroRedefined(name, first.body.strip(), later.body.strip())
        yield ctx.flag(
            violation,
            redefinition.file,
            later.start,
            later.end,
            related=[ctx.related(redefinition.first_file, first.start, first.end, f"first definition of `{name}`"), used],
            confidence=0.9 if after else 0.5,
        )


@rule(
    "NOT001",
    "macro-redefined",
    Category.CONTEXT_MISALIGNMENT,
    Severity.WARNING,
    reads=("macros", "blocks"),
    scope=Scope.SECTION,
    combine=_redefinitions_after_use,
    placed_parts=True,  # block indices within the section, cut by line and column; uses by their ranges
)
def macro_redefined(ctx: RuleContext, section: Section) -> Iterator[MacroPlaces]:
    """## What it does
    Flags a macro the author defined (`\\newcommand`, `\\def`, `\\DeclareMathOperator`) and
    later redefines with a different body (`\\renewcommand`, `\\def`) after the text has
    already used it.

    ## Why is this bad?
    The same command then prints different notation in different parts of the paper: a
    symbol means one thing in the method and another in the appendix.

    ## Example
    ```latex
    \\newcommand{\\loss}{\\mathcal{L}}
    ... $\\loss$ ...
    \\renewcommand{\\loss}{\\ell}
    ```

    ## Use instead
    Give the second meaning its own macro (`\\newcommand{\\lossi}{\\ell}`).

    ## Fix safety
    No fix: the right name for the second meaning is the author's choice.

    ## Options
    Not flagged: `\\providecommand`, redefinitions of commands the project never defined
    (`\\renewcommand{\\arraystretch}`), identical bodies (a wrapper such as
    `\\newcommand{\\eqlabel}[1]{\\label{eq:#1}}` defined in two files), redefinitions before the
    text uses the macro (template macro files adjusted in the preamble), switching a
    macro off with an empty body (`\\renewcommand{\\todo}[1]{}`) or an identity body
    (`\\renewcommand{\\new}[1]{#1}` for `\\textcolor{red}{#1}`), recolouring a highlight, and
    definitions in the branches of a conditional (`\\ifdraft … \\else … \\fi`, `\\iffalse`,
    `\\if@twocolumn`, `\\ifx\\foo\\undefined`, `\\ifdefined`, `\\ifbool{…}{…}{…}`,
    `\\IfFileExists{…}{…}{…}`), which are alternatives, not a redefinition.

    ## Confidence
    0.9 when the text prints both meanings: a use before the redefinition and one in its
    paragraph or after it. 0.5 (information) when no use follows, so the second meaning is
    never printed.
    """
    redefinitions = macro_redefinitions(ctx)
    if redefinitions:
        yield _places(ctx, section, redefinitions)


def _places(ctx: RuleContext, section: Section, redefinitions: tuple[Redefinition, ...]) -> MacroPlaces:
    """Where `section`'s blocks sit around each redefinition (one in a file that prints nothing sits at the `\\input`
    of its file), and its first block using each redefined macro. The
    blocks and the redefinition are compared by line and column, which a part kept by its section's text and place
    keeps, as the macros' digest keeps the redefinition's."""
    cuts = []
    for redefinition in redefinitions:
        file, offset = printed_place(ctx, redefinition.file, redefinition.later.start)
        of_file = [number for number, placed in enumerate(section.blocks) if placed.file == file]
        source = ctx.source(file)
        at = source.position(offset)
        before = [number for number in of_file if source.position(section.blocks[number].block.start) < at]
        cuts.append((before[-1] if before else None, of_file[0] if of_file else None))
    uses = {}
    for name in dict.fromkeys(redefinition.name for redefinition in redefinitions):
        pattern = _macro_use(name)
        using = [
            number
            for number, placed in enumerate(section.blocks)
            if pattern.search(ctx.source(placed.file).text, placed.block.start, placed.block.end)
        ]
        if using:
            related = ctx.related_block(section.blocks[using[0]], 0, 0, f"`{name}` used with its first meaning")
            uses[name] = (using[0], related, using[-1])
    return MacroPlaces(tuple(cuts), uses)
