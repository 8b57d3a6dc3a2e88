"""Applying findings' fixes to the files on disk: `auditex check --fix` (and `--unsafe-fixes`).

The policy is the editor's (server/actions.py): a fix marked safe keeps the meaning and is
the preferred code action; any other needs the author's judgment, so only `--unsafe-fixes`
applies it. Each finding gets its first applicable fix; a fix whose edits overlap an edit
already taken waits for the next run. Only files of the project are written (never through a
link that leads out), never one that did not read back cleanly (invalid UTF-8 would be
rewritten), and each file is replaced whole and atomically.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..latex.record import record
from ..latex.sandbox import ProjectRoot
from ..latex.source import SourceText
from .finding import Finding, Fix


def applicable(fix: Fix, unsafe: bool) -> bool:
    """Whether a fix is applied without the author looking: the editor's preferred (safe) fixes, or every one with `unsafe`."""
    return fix.safe or unsafe


@record
class AppliedEdit:
    """One edit written: where (0-based line, as findings count), the text it replaced and the new text,
    and the finding it fixed (`unsafe`: a fix that needed the author's judgment, such as a claim rewritten)."""

    file: str
    line: int
    before: str
    after: str
    code: str
    fix_title: str
    unsafe: bool


@dataclass
class FixOutcome:
    applied: int = 0  # findings fixed (their files written)
    files: list[str] = field(default_factory=list)  # files written
    edits: list[AppliedEdit] = field(default_factory=list)  # every edit written, in file and text order
    unsafe_left: int = 0  # findings whose only fixes are unsafe, not applied
    refused: list[str] = field(default_factory=list)  # why some files were not written


def apply_fixes(folder: Path, findings: list[Finding], unsafe: bool = False) -> FixOutcome:
    """Apply the first applicable fix of each finding to the files under `folder`."""
    root = ProjectRoot(folder)
    outcome = FixOutcome()
    chosen: list[tuple[Finding, Fix]] = []
    for finding in findings:
        fix = next((fix for fix in finding.fixes if applicable(fix, unsafe)), None)
        if fix is not None:
            chosen.append((finding, fix))
        elif finding.fixes:
            outcome.unsafe_left += 1
    texts: dict[str, SourceText | None] = {}  # None: a file not to write
    spans: dict[str, list[tuple[int, int, str]]] = {}
    taken: list[set[str]] = []  # the files of each fix taken
    written: list[tuple[int, AppliedEdit]] = []  # each edit taken, after its start offset
    for finding, fix in chosen:
        planned: list[tuple[str, int, int, str]] = []
        told: list[tuple[int, AppliedEdit]] = []
        for edit in fix.edits:
            if edit.file not in texts:
                read = root.read(edit.file)
                texts[edit.file] = SourceText(read.text) if read.problem is None else None
                spans[edit.file] = []
                if read.problem is not None:
                    outcome.refused.append(f"{edit.file}: {read.problem}; not written")
            source = texts[edit.file]
            if source is None:
                break
            start = source.offset(edit.range.start.line, edit.range.start.character)
            end = source.offset(edit.range.end.line, edit.range.end.character)
            planned.append((edit.file, start, end, edit.new_text))
            before = source.text[start:end]
            told.append(
                (start, AppliedEdit(edit.file, source.line_of(start), before, edit.new_text, finding.code, fix.title, not fix.safe))
            )
        if len(planned) == len(fix.edits) and not any(_overlaps(spans[file], start, end) for file, start, end, _ in planned):
            for file, start, end, new_text in planned:
                spans[file].append((start, end, new_text))
            written += told
            taken.append({file for file, *_ in planned})
    for file, edits in spans.items():
        source = texts[file]
        if not edits or source is None:
            continue
        text = source.text
        for start, end, new_text in sorted(edits, reverse=True):
            text = text[:start] + new_text + text[end:]
        problem = _write(root, file, text)
        if problem:
            outcome.refused.append(problem)
        else:
            outcome.files.append(file)
    outcome.applied = sum(files <= set(outcome.files) for files in taken)
    ordered = sorted(written, key=lambda item: (item[1].file, item[0]))
    outcome.edits = [edit for _, edit in ordered if edit.file in outcome.files]
    return outcome


def _overlaps(taken: list[tuple[int, int, str]], start: int, end: int) -> bool:
    return any((start < other_end and other_start < end) or start == other_start for other_start, other_end, _ in taken)


def _write(root: ProjectRoot, file: str, text: str) -> str | None:
    """Replace a project file's text atomically; why not, when it would leave the project."""
    resolution = root.resolve(file)
    if resolution.relative is None:
        return f"{file}: {resolution.refusal}; not written"
    # A link inside the project is written through to the file it names, never replaced by a copy.
    target = Path(os.path.realpath(root.absolute(resolution.relative)))
    descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".auditex-fix")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.chmod(temporary, target.stat().st_mode & 0o7777)
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        return f"{file}: {error.strerror or error}; not written"
    return None
