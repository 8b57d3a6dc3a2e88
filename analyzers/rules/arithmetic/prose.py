"""Where the arithmetic family reads: the prose a reader reads, and how it quotes it."""

from __future__ import annotations

from ....latex.manuscript import PlacedBlock, Section
from ....latex.model import BlockKind
from ...context import RuleContext
from ...finding import Statement

PROSE = (BlockKind.PARAGRAPH, BlockKind.CAPTION, BlockKind.FOOTNOTE)


def prose_blocks(section: Section) -> list[PlacedBlock]:
    return [placed for placed in section.blocks if placed.kind in PROSE]


def quoted(ctx: RuleContext, placed: PlacedBlock, plain_start: int, plain_end: int, role: str) -> Statement:
    """The statement a finding rests on: the words of the block from `plain_start` to `plain_end`."""
    related = ctx.related_block(placed, plain_start, plain_end, role)
    return Statement(file=related.file, range=related.range, quote=placed.block.plain.text[plain_start:plain_end], role=role)
