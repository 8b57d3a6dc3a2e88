"""`auditex verify-revision OLD NEW`: what a revision resolved, what persists, what is new."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..analyzers.projects import InputError
from ..analyzers.reports.json_contract import JSON_VERSION
from ..analyzers.reports.markdown import to_markdown
from ..analyzers.reports.text import to_text
from ..analyzers.review.revision import RevisionComparison, verify_revision

GROUPS = ("resolved", "persisting", "new")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], commands: dict[str, tuple[str, str]]) -> None:
    parser = subparsers.add_parser(
        "verify-revision",
        help=commands["verify-revision"][1],
        description="Run the deterministic checks on OLD and NEW and report which findings "
        "were resolved, which persist and which are new (exit 1 if any are new).",
    )
    parser.add_argument("old", type=Path, help="the earlier version (a .tex file or a project folder)")
    parser.add_argument("new", type=Path, help="the revised version")
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text", help="output format (default: text)")
    parser.add_argument("--output", "-o", type=Path, help="write the report to FILE instead of stdout")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    try:
        comparison = verify_revision(arguments.old, arguments.new)
    except InputError as error:
        print(f"auditex: error: {error}", file=sys.stderr)
        return 2
    text = render(comparison, arguments.format, str(arguments.old), str(arguments.new))
    if arguments.output:
        arguments.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 1 if comparison.new else 0


def render(comparison: RevisionComparison, form: str, old: str, new: str) -> str:
    if form == "json":
        payload = {"version": JSON_VERSION, "old": old, "new": new, **comparison.contract()}
        return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    counts = ", ".join(f"{len(getattr(comparison, g))} {g}" for g in GROUPS)
    if form == "markdown":
        parts = [f"# Revision check: {old} → {new}", "", counts + ".", ""]
        for group in GROUPS:
            body = to_markdown(getattr(comparison, group), title=f"{group.capitalize()} ({len(getattr(comparison, group))})")
            parts.append("\n".join("#" + line if line.startswith("#") else line for line in body.splitlines()))
        return "\n".join(parts) + "\n"
    parts = []
    for group in GROUPS:
        findings = getattr(comparison, group)
        lines = to_text(findings).splitlines()[:-1]  # the summary line is replaced by the group header
        parts.append("\n".join([f"{group.capitalize()} ({len(findings)}):", *(f"  {line}" for line in lines)]))
    return "\n".join([*parts, counts + "."]) + "\n"
