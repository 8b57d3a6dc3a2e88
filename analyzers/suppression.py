"""`% auditex: ignore[CODE]` comments, on the finding's line or the line above."""

from __future__ import annotations

import re

from ..latex.source import SourceText

ALL_CODES = "*"
# The look-behind after the '%': led by it, the pattern would be tried at every offset of the file.
_SUPPRESSION = re.compile(r"%(?<!\\%)[^\n]*?\bauditex:\s*ignore(?:\[([A-Za-z0-9_,\s]*)\])?")


def suppressed_lines(source: SourceText) -> dict[int, frozenset[str]]:
    """Line → codes suppressed on it ({'*'} for all)."""
    lines: dict[int, set[str]] = {}
    if "auditex:" not in source.text:  # nearly every file: a scan of a large one costs every keystroke
        return {}
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
