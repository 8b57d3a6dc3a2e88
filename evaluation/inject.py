"""Plant PaperAudit-style errors in a copy of a LaTeX project, and record where they went.

Each patch (`target_find`, `replacement`, `corruption_type`, `location`,
`error_explanation`) replaces the first verbatim occurrence of `target_find`,
searching the project's .tex files in include order and then its .bib files.
Patches apply in order, each to the text the previous ones left. The manifest gives
every replacement's range in the copy's final source (file + 0-based LSP positions),
which is what `auditex bench localisation` scores findings against. A patch that
matches nowhere is reported, never silently dropped.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..analyzers.finding import Range
from ..analyzers.projects import open_projects
from ..latex.source import SourceText
from .paperaudit import EditPatch

MANIFEST_NAME = "auditex-ground-truth.json"
MANIFEST_VERSION = 1
_PATCH_KEYS = ("edits", "patches", "ground_truth")


class InjectError(Exception):
    """The injection cannot run; the message is one sentence for the user."""


@dataclass(frozen=True)
class InjectedEdit:
    index: int  # position of the patch in the input
    patch: EditPatch
    file: str
    range: Range  # the replacement in the copy's final text


@dataclass(frozen=True)
class UnmatchedPatch:
    index: int
    patch: EditPatch
    reason: str


@dataclass
class InjectionResult:
    source: Path
    out: Path
    root_file: str
    edits: list[InjectedEdit] = field(default_factory=list)
    unmatched: list[UnmatchedPatch] = field(default_factory=list)

    def manifest(self) -> dict[str, Any]:
        return {
            "version": MANIFEST_VERSION,
            "source": str(self.source),
            "root": self.root_file,
            "edits": [{"index": e.index, "file": e.file, "range": e.range.model_dump(), **e.patch.model_dump()} for e in self.edits],
            "unmatched": [{"index": u.index, "reason": u.reason, **u.patch.model_dump()} for u in self.unmatched],
        }


def load_patches(path: Path) -> list[EditPatch]:
    """A JSON list of patches, or an object holding one under edits/patches/ground_truth."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise InjectError(f"cannot read the patches file '{path}' ({error.strerror})") from None
    except json.JSONDecodeError as error:
        raise InjectError(f"'{path}' is not valid JSON (line {error.lineno}: {error.msg})") from None
    if isinstance(data, dict):
        data = next((data[key] for key in _PATCH_KEYS if key in data), None)
    if not isinstance(data, list):
        raise InjectError(f"'{path}' must hold a list of patches (or an object with 'edits', 'patches' or 'ground_truth')")
    try:
        return [EditPatch.model_validate(item) for item in data]
    except ValidationError as error:
        first = error.errors()[0]
        raise InjectError(f"'{path}': patch field {'.'.join(map(str, first['loc']))}: {first['msg']}") from None


def inject(source: Path, patches: list[EditPatch], out: Path) -> InjectionResult:
    """Copy the project at `source` to `out`, apply `patches`, write the manifest into `out`."""
    folder, projects = open_projects(source)
    out = out.resolve()
    if out.exists() and any(out.iterdir()):
        raise InjectError(f"'{out}' already exists and is not empty; choose a new output folder")
    if out == folder or folder in out.parents:
        raise InjectError(f"the output folder '{out}' must lie outside the project folder '{folder}'")
    project = projects[0]
    shutil.copytree(folder, out, symlinks=True, dirs_exist_ok=True)
    order = [*project.files, *project.bibliography_files]
    texts = {name: _read(out / name) for name in order if (out / name).is_file()}
    spans: dict[int, tuple[str, int, int]] = {}  # patch index -> (file, start, end) in the current text
    result = InjectionResult(source=folder, out=out, root_file=project.root_file)
    for index, patch in enumerate(patches):
        target = patch.target_find
        name = next((n for n in texts if target and target in texts[n]), None)
        if name is None:
            reason = "target_find is empty" if not target else "target_find occurs verbatim in no source file"
            result.unmatched.append(UnmatchedPatch(index, patch, reason))
            continue
        start = texts[name].index(target)
        end = start + len(target)
        texts[name] = texts[name][:start] + patch.replacement + texts[name][end:]
        _shift(spans, name, start, end, len(patch.replacement))
        spans[index] = (name, start, start + len(patch.replacement))
    for name in {file for file, _, _ in spans.values()}:
        with (out / name).open("w", encoding="utf-8", newline="") as handle:
            handle.write(texts[name])
    for index, (name, start, end) in sorted(spans.items()):
        source_text = SourceText(texts[name])
        (start_line, start_char), (end_line, end_char) = source_text.position(start), source_text.position(end)
        result.edits.append(InjectedEdit(index, patches[index], name, Range.of(start_line, start_char, end_line, end_char)))
    (out / MANIFEST_NAME).write_text(json.dumps(result.manifest(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return result


def _read(path: Path) -> str:
    with path.open(encoding="utf-8", errors="replace", newline="") as handle:
        return handle.read()


def _shift(spans: dict[int, tuple[str, int, int]], name: str, start: int, end: int, length: int) -> None:
    """Keep earlier replacements' spans true after [start, end) of `name` became `length` characters."""
    delta = length - (end - start)
    for index, (file, s, e) in spans.items():
        if file != name or e <= start:
            continue
        if s >= end:
            spans[index] = (file, s + delta, e + delta)
        else:  # the new edit overlaps an earlier one: the earlier now covers the union
            spans[index] = (file, min(s, start), max(e + delta, start + length))
