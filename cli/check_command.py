"""`auditex check PATH`: the deterministic, offline audit."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from ..analyzers.check import CheckResult, InputError, checked_input
from ..analyzers.llm.errors import LLMError
from ..analyzers.engine import severity_at_least
from ..analyzers.finding import Severity
from ..analyzers.registry import default_registry
from .formats import to_json, to_markdown, to_sarif, to_text
from .progress import ProgressLine

FORMATS = ("text", "json", "sarif", "markdown")


def add_output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    parser.add_argument("--output", "-o", type=Path, help="write the report to FILE instead of stdout")
    parser.add_argument("--fail-on", choices=[s.value for s in Severity] + ["never"], default="warning",
                        help="exit 1 when a finding is at or above this severity (default: warning)")
    parser.add_argument("--project-root", type=Path, help="the folder auditex may read (default: detected)")


def register(subparsers, commands: dict[str, tuple[str, str]]) -> None:
    parser = subparsers.add_parser("check", help=commands["check"][1],
                                   description="Run every deterministic rule on a LaTeX project.")
    parser.add_argument("path", type=Path, help="a .tex file, a project folder, or a submission archive")
    parser.add_argument("--no-cache", action="store_true",
                        help="neither read nor write the analysis cache (parses and rule results kept between runs)")
    parser.add_argument("--online", action="store_true",
                        help="also verify every cited reference against Crossref, OpenAlex, arXiv, Semantic Scholar and DBLP "
                             "(sends reference metadata only, never manuscript text)")
    add_output_options(parser)
    parser.set_defaults(run=run)


def run_on_input(arguments: argparse.Namespace, body: Callable[[argparse.Namespace, CheckResult], int]) -> int:
    """Run a command's `body` on the checked PATH; an archive stays extracted meanwhile.

    Input, setting and LLM errors are one sentence on stderr and exit code 2. A check that
    takes more than a second shows a progress line on a terminal's stderr.
    """
    progress = ProgressLine()
    try:
        with checked_input(arguments.path, arguments.project_root, use_cache=not arguments.no_cache, progress=progress) as checked:
            progress.close()
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
    for problem in result.config.problems:
        print(f"auditex: warning: {problem}", file=sys.stderr)
    findings, extra = result.findings, None
    if getattr(arguments, "online", False):
        findings, summary = verify_online(result)
        print(f"auditex: {summary.line()}", file=sys.stderr)
        extra = {"references": summary.as_dict()}
    emit_report(arguments, findings, result.roots[0] if result.roots else "", extra=extra)
    return exit_code(findings, arguments.fail_on)


def verify_online(result: CheckResult):
    """The offline findings plus the BIB findings of every project (the network is imported only here)."""
    import asyncio

    from ..analyzers.check import report_order
    from ..analyzers.dismissals import Dismissals
    from ..analyzers.engine import Engine
    from ..analyzers.verification import OnlineChecker, Summary

    checker = OnlineChecker()
    engine = Engine(checker.registry, result.config, Dismissals(result.folder))
    unique = {finding.fingerprint: finding for finding in result.findings}
    total = Summary()

    async def run_all() -> None:
        for project in result.projects:
            findings, summary = await checker.check(project, result.config, engine)
            for finding in findings:
                unique.setdefault(finding.fingerprint, finding)
            for name in ("cited", "verified", "with_findings", "not_found", "unchecked", "requests"):
                setattr(total, name, getattr(total, name) + getattr(summary, name))
            total.reasons += summary.reasons

    try:
        asyncio.run(run_all())
    finally:
        checker.cache.close()
    return sorted(unique.values(), key=report_order), total


def emit_report(arguments: argparse.Namespace, findings, root: str, title: str = "auditex report",
                extra: dict | None = None) -> None:
    if arguments.format == "json":
        text = to_json(findings, root, extra)
    elif arguments.format == "sarif":
        text = to_sarif(findings, default_registry())
    elif arguments.format == "markdown":
        text = to_markdown(findings, title)
    else:
        text = to_text(findings)
    if arguments.output:
        arguments.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def exit_code(findings, fail_on: str) -> int:
    if fail_on == "never":
        return 0
    threshold = Severity(fail_on)
    return 1 if any(severity_at_least(f, threshold) for f in findings) else 0
