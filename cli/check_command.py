"""`auditex check PATH`: the deterministic, offline audit."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from ..analyzers.check import CheckResult, InputError, checked_input, is_submission_archive
from ..analyzers.config import RuleOptions
from ..analyzers.finding import Finding, Severity
from ..analyzers.llm.errors import LLMError
from ..analyzers.policy import at_least, distinct
from ..analyzers.registry import default_registry
from .formats import Paths, text_report, to_json, to_markdown, to_sarif, unknown_codes, write_output
from .progress import ProgressLine

FORMATS = ("text", "json", "sarif", "markdown")
SEVERITIES = [s.value for s in Severity]


def add_output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    parser.add_argument("--output", "-o", type=Path, help="write the report to FILE instead of stdout (folders are created)")
    parser.add_argument(
        "--fail-on",
        choices=[*SEVERITIES, "never"],
        default="warning",
        help="exit 1 when a finding is at or above this severity (default: warning)",
    )
    parser.add_argument(
        "--select", type=_codes, metavar="CODES", help="only these code prefixes, comma-separated (replaces [rules] select)"
    )
    parser.add_argument(
        "--ignore",
        type=_codes,
        action="extend",
        default=[],
        metavar="CODES",
        help="never these code prefixes, comma-separated (adds to [rules] ignore)",
    )
    parser.add_argument("--min-severity", choices=SEVERITIES, help="drop findings below this severity")
    parser.add_argument("--hints", action="store_true", help="text output: show hints too (hidden by default)")
    parser.add_argument("--project-root", type=Path, help="the folder auditex may read (default: detected)")


def _codes(value: str) -> list[str]:
    return [code.strip().upper() for code in value.split(",") if code.strip()]


def register(subparsers, commands: dict[str, tuple[str, str]]) -> None:
    parser = subparsers.add_parser("check", help=commands["check"][1], description="Run every deterministic rule on a LaTeX project.")
    parser.add_argument("path", type=Path, help="a .tex file, a project folder, or a submission archive")
    parser.add_argument(
        "--no-cache", action="store_true", help="neither read nor write the analysis cache (parses and rule results kept between runs)"
    )
    parser.add_argument(
        "--online",
        action="store_true",
        help="also verify every cited reference against Crossref, OpenAlex, arXiv, Semantic Scholar, DBLP, DataCite "
        "and Europe PMC, and a software or web reference none holds at its own URL "
        "(sends reference metadata only, never manuscript text)",
    )
    add_output_options(parser)
    parser.set_defaults(run=run)


def run_on_input(arguments: argparse.Namespace, body: Callable[[argparse.Namespace, CheckResult], int]) -> int:
    """Run a command's `body` on the checked PATH; an archive stays extracted meanwhile.

    Input, configuration, setting and LLM errors are one sentence on stderr and exit code 2. A check
    that takes more than a second shows a progress line on a terminal's stderr.
    """
    options = RuleOptions(
        select=getattr(arguments, "select", None),
        ignore=getattr(arguments, "ignore", []),
        min_severity=Severity(arguments.min_severity) if getattr(arguments, "min_severity", None) else None,
    )
    progress = ProgressLine()
    try:
        with checked_input(
            arguments.path, arguments.project_root, options, use_cache=not getattr(arguments, "no_cache", False), progress=progress
        ) as checked:
            progress.close()
            for problem in [*checked.config.problems, *unknown_codes(checked.config)]:
                print(f"auditex: warning: {problem}", file=sys.stderr)
            return body(arguments, checked)
    except (InputError, ValueError, LLMError) as error:
        progress.close()
        print(f"auditex: error: {error}", file=sys.stderr)
        return 2
    finally:
        progress.close()


def run(arguments: argparse.Namespace) -> int:
    return run_on_input(arguments, _report)


def _report(arguments: argparse.Namespace, result: CheckResult) -> int:
    findings, extra = result.findings, None
    if getattr(arguments, "online", False):
        findings, summary = verify_online(result)
        print(f"auditex: {summary.line()}", file=sys.stderr)
        extra = {"references": summary.as_dict()}
    emit_report(arguments, result, findings, extra=extra)
    return exit_code(findings, arguments.fail_on)


def verify_online(result: CheckResult):
    """The offline findings plus the BIB findings of every project (the network is imported only here)."""
    import asyncio

    from ..analyzers.policy import Policy
    from ..analyzers.verification import OnlineChecker, Summary

    checker = OnlineChecker()
    policy = Policy.of_folder(result.folder, result.config)
    found = list(result.findings)
    total = Summary()

    async def run_all() -> None:
        for project in result.projects:
            findings, summary = await checker.check(project, policy)
            found.extend(findings)
            for name in ("cited", "verified", "with_findings", "not_found", "unchecked", "requests"):
                setattr(total, name, getattr(total, name) + getattr(summary, name))
            total.reasons += summary.reasons
            total.notes += summary.notes

    try:
        asyncio.run(run_all())
    finally:
        checker.cache.close()
    return distinct(found), total


def emit_report(
    arguments: argparse.Namespace, checked: CheckResult, findings: list[Finding], title: str = "auditex report", extra: dict | None = None
) -> None:
    # Paths relative to where the command ran, so that they open from there; an extracted
    # archive's are kept as in the archive.
    folder = None if is_submission_archive(arguments.path) else checked.folder
    paths = Paths(folder)
    if arguments.format == "json":
        text = to_json(findings, checked.roots[0] if checked.roots else "", {"roots": checked.roots, **(extra or {})})
    elif arguments.format == "sarif":
        text = to_sarif(findings, default_registry(), Paths(folder, inside=True))
    elif arguments.format == "markdown":
        text = to_markdown(findings, title)
    else:
        hints = arguments.hints or arguments.min_severity == Severity.HINT.value
        text = text_report(findings, [paths(root) for root in checked.roots], paths, hints)
    write_output(arguments.output, text)


def exit_code(findings: list[Finding], fail_on: str) -> int:
    if fail_on == "never":
        return 0
    threshold = Severity(fail_on)
    return 1 if any(at_least(f, threshold) for f in findings) else 0
