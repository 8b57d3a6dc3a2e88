"""`auditex review PATH`: the error-aware review (PaperAudit-Review), as Markdown or JSON."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from ..analyzers.llm.answer_cache import LLMCache
from ..analyzers.review import run_review
from ..analyzers.review.workflow import NO_DETECTION_MODE
from ..analyzers.scholarly.related import SEARCH_NAMES, make_search
from ..analyzers.session import Session
from .audit_command import add_llm_options, llm_settings
from .check_command import run_on_input

EXIT_OK, EXIT_INCOMPLETE = 0, 2


def print_progress(stage: str, done: int, total: int) -> None:
    print(f"auditex: review: {stage} ({done}/{total})", file=sys.stderr)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], commands: dict[str, tuple[str, str]]) -> None:
    parser = subparsers.add_parser(
        "review",
        help=commands["review"][1],
        description="Write a PaperAudit-style review: memory, baseline review, integrity and "
        "novelty reports, then a minimal-edit refinement.",
    )
    parser.add_argument("path", type=Path, help="a .tex file, a project folder, or a submission archive")
    parser.add_argument(
        "--mode",
        default="standard",
        help="detection mode for the integrity report (see `auditex audit`), or none for the deterministic rules only (default: standard)",
    )
    parser.add_argument("--format", choices=("markdown", "json"), default="markdown", help="output format (default: markdown)")
    parser.add_argument("--output", "-o", type=Path, help="write the review to FILE instead of stdout")
    parser.add_argument(
        "--project-root", type=Path, help="the project: roots are found in it and nothing outside it is read (default: detected)"
    )
    parser.add_argument(
        "--related-work",
        choices=SEARCH_NAMES,
        default="auto",
        help="scholarly search for the novelty report (default: auto = Semantic Scholar, then OpenAlex)",
    )
    parser.add_argument("--related-work-url", help="base URL of a mirror of the chosen scholarly service")
    add_llm_options(parser)
    parser.set_defaults(run=run)


def check_mode(mode: str) -> None:
    from ..analyzers.llm.audit_modes import MODES

    if mode not in (*MODES, NO_DETECTION_MODE):
        raise ValueError(f"unknown mode '{mode}'; choose one of {', '.join((*MODES, NO_DETECTION_MODE))}")


def run(arguments: argparse.Namespace) -> int:
    try:
        check_mode(arguments.mode)
    except ValueError as error:
        print(f"auditex: error: {error}", file=sys.stderr)
        return 2
    return run_on_input(arguments, _review)


def _review(arguments: argparse.Namespace, checked: Session) -> int:
    config = checked.config
    settings = llm_settings(arguments, config.llm)
    settings.key_for_sdk()  # no key: a setup error (exit 2) before anything runs, not an empty review
    search = make_search(arguments.related_work, arguments.related_work_url)
    snapshots = checked.snapshots()
    if len(snapshots) > 1:
        print(f"auditex: warning: {len(snapshots)} root files found; reviewing {snapshots[0].root}", file=sys.stderr)
    cache = None if arguments.no_cache else LLMCache()
    try:
        review = asyncio.run(
            run_review(checked, settings, arguments.mode, snapshot=snapshots[0], cache=cache, search=search, on_progress=print_progress)
        )
    finally:
        if cache is not None:
            cache.close()
    text = json.dumps(review.to_json(), indent=2, ensure_ascii=False) + "\n" if arguments.format == "json" else review.markdown
    if arguments.output:
        arguments.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    print(f"auditex: {review.stats.summary()}", file=sys.stderr)
    if review.stopped:
        print(f"auditex: error: {review.stopped}", file=sys.stderr)
        return EXIT_INCOMPLETE
    return EXIT_OK
