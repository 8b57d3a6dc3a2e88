"""`% auditex: ignore[CODE]` comments, on the finding's line or the line above."""

from __future__ import annotations

from ..latex.deferred_pattern import DeferredPattern
from ..latex.source import SourceText

ALL_CODES = "*"
# One answer for every file without a suppression comment: the policy keeps its decisions for a file while
# its answer stays the same object, so typing in such a file decides only the findings that are new.
_NONE: dict[int, frozenset[str]] = {}
# The look-behind after the '%': led by it, the pattern would be tried at every offset of the file.
_SUPPRESSION = DeferredPattern(r"%(?<!\\%)[^\n]*?\bauditex:\s*ignore(?:\[([A-Za-z0-9_,\s]*)\])?")


def suppressed_lines(source: SourceText) -> dict[int, frozenset[str]]:
    """Line → codes suppressed on it ({'*'} for all)."""
    lines: dict[int, set[str]] = {}
    if "auditex:" not in source.text:  # nearly every file: a scan of a large one costs every keystroke
        return _NONE
    for match in _SUPPRESSION.finditer(source.text):
        codes = {code.strip().upper() for code in (match.group(1) or "").split(",") if code.strip()} or {ALL_CODES}
        line = source.line_of(match.start())
        # A comment alone on its line covers the next line too.
        own_line = source.line_text(line)
        covered = [line]
        if own_line.lstrip().startswith("%"):
            covered.append(line + 1)
        for target in covered:
            lines.setdefault(target, set()).update(codes)
    return {line: frozenset(codes) for line, codes in lines.items()}


def is_suppressed(code: str, line: int, suppressed: dict[int, frozenset[str]]) -> bool:
    codes = suppressed.get(line)
    if not codes:
        return False
    return ALL_CODES in codes or code in codes or any(code.startswith(prefix) for prefix in codes)


def suppression_comment(code: str) -> str:
    return f"% auditex: ignore[{code}]"
