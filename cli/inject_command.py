"""`auditex inject PATH --patches patches.json --out DIR`: plant known errors in a copy of a paper."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..analyzers.projects import InputError
from ..evaluation.inject import MANIFEST_NAME, InjectError, inject, load_patches


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], commands: dict[str, tuple[str, str]]) -> None:
    parser = subparsers.add_parser(
        "inject",
        help=commands["inject"][1],
        description="Copy a LaTeX project and apply JSON edit patches (target_find -> "
        f"replacement) to the copy; the ground truth goes to DIR/{MANIFEST_NAME}.",
    )
    parser.add_argument("path", type=Path, help="a .tex file or a project folder")
    parser.add_argument("--patches", type=Path, required=True, help="JSON list of patches")
    parser.add_argument("--out", type=Path, required=True, help="a new folder for the corrupted copy")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    try:
        result = inject(arguments.path, load_patches(arguments.patches), arguments.out)
    except (InputError, InjectError) as error:
        print(f"auditex: error: {error}", file=sys.stderr)
        return 2
    for edit in result.edits:
        position = edit.range.start
        print(f"{edit.file}:{position.line + 1}:{position.character + 1}: patch {edit.index} ({edit.patch.corruption_type}) applied")
    for miss in result.unmatched:
        print(f"auditex: warning: patch {miss.index} ({miss.patch.corruption_type}) not applied: {miss.reason}", file=sys.stderr)
    print(
        f"Applied {len(result.edits)} of {len(result.edits) + len(result.unmatched)} patches; ground truth in {result.out / MANIFEST_NAME}"
    )
    return 1 if result.unmatched else 0
