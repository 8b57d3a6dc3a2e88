from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from operator import attrgetter

from ....latex.manuscript import PlacedBlock
from ...context import RuleContext
from ...finding import Category, Evidence, Finding, Severity, Statement
from ...memo import SectionKey
from ...registry import rule
from ...violation import Violation, violation_type
from .model import NoteCommand, in_definition, note_commands, note_uses, printed_files, read_blocks, unprinted

# Where a block starts in its file: what a note's offset is bisected against.
_START = attrgetter("block.start")


@violation_type
class PrintedAuthorNote(Violation):
    command: str
    times: int  # in this passage
    before: str  # the words before the first, which tell two passages apart

    @property
    def message(self) -> str:
        again = f", {self.times} times in this passage" if self.times > 1 else ""
        return f"the note `\\{self.command}` to a co-author is printed in the text{again}"

    @property
    def identity(self) -> str:
        return f'\\{self.command} after "{self.before}"'


@rule("DRF004", "printed-author-note", Category.CONTEXT_MISALIGNMENT, Severity.WARNING, reads=("blocks", "macros"))
def printed_author_note(ctx: RuleContext) -> Iterator[Finding]:
    """## What it does
    Flags a note to a co-author that TeX prints: a `\\todo` of todonotes (unless the package is
    loaded with `disable` or the command is redefined to print nothing), or a use of the paper's
    own note command, one whose every definition colours its argument and reads as a note: it is
    named as one (`\\todo`, `\\fixme`, `\\note`, `\\comment`, `\\tbd`) or writes who speaks before
    the argument (`\\newcommand{\\YL}[1]{\\textcolor{blue}{YL: #1}}`). Uses in comments, in a
    never-taken branch or in the preamble are left alone.

    ## Why is this bad?
    The reader sees "[DP] name-of-metrics" or "YL: @Alessandra" in the paper: an exchange between
    the authors, and often a result or a name still to be written.

    ## Example
    ```latex
    \\newcommand{\\YL}[1]{\\textcolor{blue}{YL: #1}}
    …
    Sixty-one students took part \\YL{add their ages}.
    ```

    ## Use instead
    ```latex
    Sixty-one students (mean age 22.4) took part.
    ```

    ## Fix safety
    No fix: the note may stand for text still to be written.

    ## Evidence
    "strong: todonotes note" for todonotes' `\\todo`; "moderate: own note command" for the paper's
    own command.
    """
    project = ctx.whole_project
    texts = [ctx.source(path).text for path in printed_files(project)]
    macros = [macro for _, macro in ctx.index.macros]
    commands = note_commands(texts, macros)
    if not commands:
        return
    hidden = unprinted(project, ctx.index.macros)
    for file, placed_blocks in _read_blocks_by_file(ctx).items():
        starts = [placed.block.start for placed in placed_blocks]
        source = ctx.source(file).text
        printed: dict[tuple[int, str], list[tuple[int, int, NoteCommand]]] = {}
        for start, end, command in note_uses(source, commands):
            at = bisect_right(starts, start) - 1
            if at < 0 or start >= placed_blocks[at].block.end or hidden.covers(file, start):
                continue
            if in_definition(source, start):
                continue  # a command defined through the note command: its own uses are what prints
            printed.setdefault((at, command.name), []).append((start, end, command))
        for (at, name), uses in printed.items():
            start, end, command = uses[0]
            before = " ".join(source[placed_blocks[at].block.start : start].split()[-4:])
            where = Statement(file=file, range=ctx.range(file, start, end), quote=source[start:end], role="note")
            kind = "strong: todonotes note" if command.package else "moderate: own note command"
            evidence = Evidence(kind=kind, statements=[where], reason=f"`\\{name}` prints its argument in the text")
            yield ctx.flag(PrintedAuthorNote(name, len(uses), before), file, start, end, evidence=evidence)


def _read_blocks_by_file(ctx: RuleContext) -> dict[str, list[PlacedBlock]]:
    """Each file's blocks a reader reads, in source order: a note's offset finds its block by bisection."""
    blocks: dict[str, list[PlacedBlock]] = {}
    for section in ctx.manuscript.sections:
        for placed in read_blocks(SectionKey(section)):
            blocks.setdefault(placed.file, []).append(placed)
    for placed_blocks in blocks.values():
        placed_blocks.sort(key=_START)
    return blocks
