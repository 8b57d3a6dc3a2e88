"""A rule fixture's JSON report as text a reviewer reads in a diff, in the shape of ruff's snapshots.

Every finding is its `file:line:col: CODE [severity] message`, a frame of the source lines its range
covers with the range underlined, then one `= ` line each for what else it carries: `note:` for a
related location, `evidence:` with the statements it quotes, `help:` for a fix title with the edits
below it. Lines and columns count from 1, columns in characters. Ranges that no source frames
(an archive member, a file the fixture does not write) are written out in full; so is every related
location and edit. Fingerprints are left out: the corpus ledger guards them.
"""

from __future__ import annotations

import re
from typing import Any

# A long range (a bibliography entry, a section) shows its first lines and its last.
FRAME_HEAD = 4


def render(report: dict[str, Any], files: dict[str, str | bytes]) -> str:
    sources = {name: _lines(content) for name, content in files.items()}
    return "\n".join(_finding(finding, sources) for finding in report["findings"])


def _finding(finding: dict[str, Any], sources: dict[str, list[str]]) -> str:
    lines = sources.get(finding["file"])
    start, end = finding["range"]["start"], finding["range"]["end"]
    out = [f"{finding['file']}:{_place(lines, start)}: {finding['code']} [{finding['severity']}] {finding['message']}"]
    # The notes line up with the frame's gutter, as in ruff's snapshots.
    if lines is not None and start["line"] < len(lines):
        gutter = " " * len(str(min(end["line"], len(lines) - 1) + 1))
        out += _frame(lines, start, end, gutter)
    else:
        gutter = " "
        if end != start:
            out.append(f"{gutter} = to {_place(lines, end)}")
    for name in ("confidence", "section", "explanation"):
        if finding.get(name) not in (None, 1.0):
            out.append(f"{gutter} = {name}: {finding[name]}")
    if not finding.get("anchored", True):
        out.append(f"{gutter} = not anchored to its place in the source")
    for related in finding.get("related", []):
        out.append(f"{gutter} = note: {_span(related, sources)}: {related['message']}")
    if finding.get("evidence"):
        out += _evidence(finding["evidence"], sources, gutter)
    for fix in finding.get("fixes", []):
        out.append(f"{gutter} = help: {fix['title']} ({'safe' if fix['safe'] else 'unsafe'})")
        out += [f"{gutter}         {_span(edit, sources)}: {_quoted(edit['new_text'])}" for edit in fix["edits"]]
    return "\n".join(out) + "\n"


def _evidence(evidence: dict[str, Any], sources: dict[str, list[str]], gutter: str) -> list[str]:
    out = [f"{gutter} = evidence: {evidence['kind']}"]
    if evidence.get("reason"):
        out.append(f"{gutter}   reason: {evidence['reason']}")
    for statement in evidence.get("statements", []):
        about = "; ".join(part for part in (statement.get("subject"), statement.get("role")) if part)
        out.append(f"{gutter}   {_span(statement, sources)}{f' [{about}]' if about else ''}: {_quoted(statement['quote'])}")
    return out


def _quoted(text: str) -> str:
    """`text` on one line, in double quotes; a line break shows as `\\n`."""
    return '"' + text.replace("\n", "\\n") + '"'


def _frame(lines: list[str], start: dict[str, int], end: dict[str, int], gutter: str) -> list[str]:
    """The source lines of the range, each underlined where the range covers it."""
    numbers = list(range(start["line"], min(end["line"], len(lines) - 1) + 1))
    shown = numbers if len(numbers) <= FRAME_HEAD + 1 else [*numbers[:FRAME_HEAD], None, numbers[-1]]
    out = [f"{gutter} |"]
    for number in shown:
        if number is None:
            out.append(f"{'…':>{len(gutter)}} |")
            continue
        text = lines[number]
        begin = _column(text, start["character"]) if number == start["line"] else 0
        stop = _column(text, end["character"]) if number == end["line"] else len(text)
        # Under a tab a tab, under any other character a space: the carets line up in any editor.
        indent = "".join("\t" if char == "\t" else " " for char in text[:begin])
        out.append(f"{number + 1:>{len(gutter)}} | {text}".rstrip())
        out.append(f"{gutter} | {indent}{'^' * max(1, stop - begin)}")
    return out


def _span(located: dict[str, Any], sources: dict[str, list[str]]) -> str:
    lines = sources.get(located["file"])
    start, end = located["range"]["start"], located["range"]["end"]
    return f"{located['file']}:{_place(lines, start)}-{_place(lines, end)}"


def _place(lines: list[str] | None, position: dict[str, int]) -> str:
    """`line:column` from 1, the column in characters (the report counts UTF-16 units, as LSP does)."""
    line, character = position["line"], position["character"]
    column = _column(lines[line], character) if lines is not None and line < len(lines) else character
    return f"{line + 1}:{column + 1}"


def _column(text: str, utf16: int) -> int:
    """The index of the character at UTF-16 offset `utf16` in `text`."""
    units = 0
    for index, char in enumerate(text):
        if units >= utf16:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(text)


def _lines(content: str | bytes) -> list[str]:
    """The file's lines as auditex reads them: UTF-8, undecodable bytes replaced, any line ending."""
    text = content.decode("utf-8", errors="replace") if isinstance(content, bytes) else content
    return re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff"))
