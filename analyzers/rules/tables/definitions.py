"""How a table's caption or notes define a derived column: "Δ L2FC is the log2 fold change of (5) minus (3)", read as
a difference or a ratio of two operand columns in the order the words fix, with the columns it names."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ....latex.deferred_pattern import DeferredPattern
from ....latex.record import record
from .model import DERIVATIONS, DERIVED_HEADER, Derivation, Grid

# A number a paper gives an analysis, model or column of its own, "(3)", by which its notes name the column headed with it.
_NUMBER_TAG = r"\(\s*[0-9]{1,2}\s*\)"
_WORD = r"[^\s,;:()=]*[^\s,;:()=.]"  # a word of a name; one that ends a sentence ("region.") is no part of it
_OPERAND = rf"{_NUMBER_TAG}|{_WORD}(?:\s+{_WORD}){{0,3}}"
_SUBJECT = rf"(?P<name>{_WORD}(?:\s+{_WORD}){{0,3}})"
_IS = r"\s+(?:is|are|denotes|represents|indicates|gives|shows|refers\s+to|(?:is\s+|are\s+)?defined\s+as|=)\s+"
# A definition of a quantity as an operation on two named operands, as a caption or note writes it: "Δ L2FC is the log2
# fold change of (5) minus (3)", "Speed-up is the runtime of A divided by that of B", "ratio of (2) to (1)". The
# operator word fixes the order: "minus", "divided by", "over", "subtracted from", "ratio of … to …".
_DEFINED = DeferredPattern(
    _SUBJECT
    + _IS
    + r"(?:the\s+)?(?P<what>(?:[^\s.;:()]+\s+){0,6}?)(?:of\s+|between\s+|in\s+)?"
    + rf"(?P<left>{_OPERAND})\s+(?P<op>minus|divided\s+by|over|subtracted\s+from|to|[−–-]|/)\s+(?:that\s+of\s+|the\s+)?"
    + rf"(?P<right>{_OPERAND})",
    re.IGNORECASE,
)
# One of these is in every text `_DEFINED` reads: "to" and "over" define only "the ratio of …", "the fold change of …".
_OPERATOR_WORDS = ("minus", "divided", "subtracted", "ratio", "fold")
_SPACED_OPERATOR = DeferredPattern(r"\s[−–/-]\s")
_TAG = DeferredPattern(_NUMBER_TAG)
_LETTERS = DeferredPattern(r"[a-z0-9]+")
_FILLER = frozenset({"the", "of", "that", "a", "an", "our", "those", "values"})


@record(slots=True)
class StatedDerivation:
    """A derived quantity its table's caption or note defines from two operands, in the order the operator gives."""

    start: int  # the definition's span in its text
    end: int
    name: str  # the quantity defined: "Δ L2FC"
    left: str  # the operand written first in the formula: "(5)"
    right: str  # "(3)"
    derivation: Derivation


def stated_derivations(text: str) -> list[StatedDerivation]:
    """The definitions of a difference or a ratio in a caption's or note's text (see `_DEFINED`)."""
    lowered = text.lower()
    if not any(operator in lowered for operator in _OPERATOR_WORDS) and not _SPACED_OPERATOR.search(text):
        return []
    found = []
    for match in _DEFINED.finditer(text):
        operator = " ".join(match.group("op").lower().split())
        what = text[match.start("what") : match.start("op")].lower()  # the words of the operation before its operator
        left, right = match.group("left"), match.group("right")
        if operator in ("to", "over") and not ("ratio" in what or "fold" in what):
            continue  # "the change from A to B", "the improvement of A over B": no operation whose order they fix
        if operator == "subtracted from":
            left, right = right, left
        derivation = DERIVATIONS[0] if operator in ("divided by", "over", "to", "/") else DERIVATIONS[1]
        found.append(StatedDerivation(match.start(), match.end(), match.group("name"), left, right, derivation))
    return found


def operand_column(grid: Grid, operand: str, others: Iterable[int], first: bool) -> int | None:
    """The one column (not among `others`) an operand names: by the number the paper gives it ("(5)", in its header),
    else by every distinctive word of the operand's words nearest the operator in its header (`first`: the operand
    written before the operator)."""
    if _TAG.fullmatch(operand.strip()):
        number = re.sub(r"\D", "", operand)
        headers = {column: grid.column_header(column) for column in grid.columns() if column not in others}
        named = [column for column, header in headers.items() if re.search(rf"\(\s*{number}\s*\)", header)]
        # "Δ (3) vs (5)" heads the derived column: the operand's column is headed by its number alone.
        named = [column for column in named if len(_TAG.findall(headers[column])) == 1]
        return named[0] if len(named) == 1 else None
    words = operand.split()
    # The operand's words nearest the operator name it ("the runtime of the baseline" names the column "Baseline").
    phrases = [words[start:] for start in range(len(words))] if first else [words[:end] for end in range(len(words), 0, -1)]
    for phrase in phrases:
        wanted = _plain_words(" ".join(phrase))
        named = [
            column for column in grid.columns() if column not in others and wanted and wanted <= _plain_words(grid.column_header(column))
        ]
        if len(named) == 1:
            return named[0]
    return None


def _plain_words(text: str) -> set[str]:
    """The lower-case words of an operand or a header, every one of them: "baseline" and "ours" name columns too,
    though `name_words` drops them as too common to tie a sentence to a row."""
    return set(_LETTERS.findall(text.lower())) - _FILLER


def defined_column(grid: Grid, name: str, operands: tuple[int, int]) -> int | None:
    """The one column whose header holds every distinctive word of a defined quantity's name ("Δ L2FC" over
    "Δ (3) vs (5) L2FC"), or, where the name has none ("Δ"), the one derived column (`DERIVED_HEADER`)."""
    words = _plain_words(name)
    columns = [column for column in grid.columns() if column not in operands]
    if words:
        named = [column for column in columns if words <= _plain_words(grid.column_header(column))]
    else:
        named = [column for column in columns if DERIVED_HEADER.search(name) and DERIVED_HEADER.search(grid.column_header(column))]
    return named[0] if len(named) == 1 else None
