"""`auditex check PATH`: the deterministic, offline audit."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..analyzers.codes import code_names
from ..analyzers.finding import Finding, Severity
from ..analyzers.llm.errors import LLMError
from ..analyzers.p_values import ResultRow, result_rows
from ..analyzers.path_check import checked_input
from ..analyzers.policy import at_least, unknown_codes
from ..analyzers.project_config import Config, RuleOptions
from ..analyzers.projects import InputError, is_submission_archive, project_folder
from ..analyzers.registry import is_selected
from ..analyzers.reports.json_contract import to_json
from ..analyzers.reports.paths import Paths
from ..analyzers.reports.text import statistics_table, text_report
from ..analyzers.session import Session
from ..analyzers.wording import counted
from ..latex.discovery import unfound_magic_root
from .output import write_output
from .progress import ProgressLine

if TYPE_CHECKING:
    from ..analyzers.fixes import AppliedEdit

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
    parser.add_argument(
        "--project-root", type=Path, help="the project: roots are found in it and nothing outside it is read (default: detected)"
    )


def _codes(value: str) -> list[str]:
    return [code.strip().upper() for code in value.split(",") if code.strip()]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], commands: dict[str, tuple[str, str]]) -> None:
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
    parser.add_argument("--fix", action="store_true", help="apply the safe fixes (the editor's preferred quick fixes), then report")
    parser.add_argument(
        "--unsafe-fixes", action="store_true", help="with --fix, also apply the fixes that need the author's judgment (implies --fix)"
    )
    parser.add_argument("--watch", action="store_true", help="check again whenever a source file or .auditex.toml changes")
    parser.add_argument(
        "--statistics",
        action="store_true",
        help="text output: also list every test result read (test, reported p, recomputed p, verdict), as statcheck does",
    )
    add_output_options(parser)
    parser.set_defaults(run=run)


def run_on_input(arguments: argparse.Namespace, body: Callable[[argparse.Namespace, Session], int]) -> int:
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
            for problem in [*checked.config.problems, *unknown_codes(checked.config, code_names())]:
                print(f"auditex: warning: {problem}", file=sys.stderr)
            return body(arguments, checked)
    except (InputError, ValueError, LLMError) as error:
        progress.close()
        print(f"auditex: error: {error}", file=sys.stderr)
        return 2
    finally:
        progress.close()


def run(arguments: argparse.Namespace) -> int:
    if not arguments.watch:
        return _check_once(arguments)
    if is_submission_archive(arguments.path) or not arguments.path.exists():
        print("auditex: error: --watch needs a folder or a .tex file that exists (an archive does not change)", file=sys.stderr)
        return 2
    from .watch_mode import watch

    return watch(project_folder(arguments.path, arguments.project_root), lambda: _check_once(arguments))


def _check_once(arguments: argparse.Namespace) -> int:
    if arguments.fix or arguments.unsafe_fixes:
        code = run_on_input(arguments, _fix)
        if code != 0:
            return code
    return run_on_input(arguments, _report)


def _fix(arguments: argparse.Namespace, result: Session) -> int:
    """Apply the fixes of the checked findings; the report that follows is of the fixed files."""
    if is_submission_archive(arguments.path):
        raise InputError("--fix edits files, and a submitted archive is read-only: extract it to a folder and check that")
    from ..analyzers.fixes import apply_fixes  # only --fix writes files

    outcome = apply_fixes(result.folder, result.findings, unsafe=arguments.unsafe_fixes)
    for refusal in outcome.refused:
        print(f"auditex: warning: {refusal}", file=sys.stderr)
    line = f"auditex: fixed {counted(outcome.applied, 'finding')} in {counted(len(outcome.files), 'file')}"
    if outcome.unsafe_left:
        line += f"; {counted(outcome.unsafe_left, 'more finding')} {'has' if outcome.unsafe_left == 1 else 'have'} unsafe fixes (--unsafe-fixes applies them)"
    print(line + (":" if outcome.edits else ""), file=sys.stderr)
    for edit in (edit for edit in outcome.edits if not edit.unsafe):
        print(_edit_line(edit), file=sys.stderr)
    rewritten = [edit for edit in outcome.edits if edit.unsafe]
    if rewritten:  # these change what the paper says: the author reads each again
        print("auditex: --unsafe-fixes rewrote what the text says here; read each again:", file=sys.stderr)
        for edit in rewritten:
            print(f"{_edit_line(edit)} ({edit.fix_title})", file=sys.stderr)
    return 0


def _edit_line(edit: AppliedEdit) -> str:
    """`  file:line: CODE before -> after`, as a diff's summary shows an edit."""
    return f"  {edit.file}:{edit.line + 1}: {edit.code} {_excerpt(edit.before)} -> {_excerpt(edit.after)}"


def _excerpt(text: str, width: int = 60) -> str:
    """An edit's text on one line, quoted; cut in the middle when long, and "nothing" when empty."""
    if not text:
        return "nothing"
    shown = text.replace("\n", "⏎")
    if len(shown) > width:
        shown = shown[: width // 2 - 1] + "…" + shown[-(width // 2 - 1) :]
    return f"`{shown}`"


def _report(arguments: argparse.Namespace, result: Session) -> int:
    findings, extra, notes = result.findings, None, []
    if getattr(arguments, "online", False):
        import asyncio

        from ..analyzers.online_verification import verify_references  # the network stack loads only here

        with ProgressLine() as progress:
            summary = asyncio.run(verify_references(result, lambda done, total: progress(f"verifying references online: {done}/{total}")))
        findings = result.findings
        print(f"auditex: {summary.line()}", file=sys.stderr)
        extra = {"references": summary.as_dict()}
        notes = [sentence] if (sentence := summary.unchecked_sentence()) else []
    notes += _file_notes(Path(arguments.path), result)
    rows = None
    if arguments.statistics or (arguments.format == "json" and reads_statistics(result.config)):
        rows = [row for project in result.projects for row in result_rows(project, result.config.statistics)]
    emit_report(arguments, result, findings, extra=extra, notes=notes, statistics=rows)
    return exit_code(findings, arguments.fail_on)


def _file_notes(path: Path, result: Session) -> list[str]:
    """A sentence when the file checked is empty, or names by its magic comment a root that does not exist."""
    relative = result.root.relative(path) if path.is_file() else None
    if relative is None:
        return []
    if not result.root.read(relative).text.strip():
        return [f"{relative} is empty: there was nothing to check."]
    named = unfound_magic_root(result.root, relative)
    if named is None:
        return []
    how = "as a fragment, on its own" if relative in result.fragments else "under the root file that includes it"
    return [f"{relative}'s magic comment `% !TEX root = {named}` names no file in the project; it was checked {how}."]


def reads_statistics(config: Config) -> bool:
    """STAT001 or STAT002 runs: the JSON report then lists the results they read."""
    return any(is_selected(code, config.rules.select, config.rules.ignore) for code in ("STAT001", "STAT002"))


def emit_report(
    arguments: argparse.Namespace,
    checked: Session,
    findings: list[Finding],
    title: str = "auditex report",
    extra: dict[str, Any] | None = None,
    notes: list[str] | None = None,
    statistics: list[ResultRow] | None = None,
) -> None:
    """The report in the chosen format, to --output or stdout; `notes` (sentences on the run) go in every format,
    `statistics` (the test results read) into JSON and the text table."""
    notes = notes or []
    # Paths relative to where the command ran, so that they open from there; an extracted
    # archive's are kept as in the archive.
    folder = None if is_submission_archive(arguments.path) else checked.folder
    paths = Paths(folder)
    if statistics is not None:
        extra = {**(extra or {}), "statistics": [row.as_dict() for row in statistics]}
    if arguments.format == "json":
        # `fragments` (files checked alone) and `notes` appear when there are some: the contract's other keys stay as they were.
        described = {
            "roots": checked.roots,
            **({"fragments": checked.fragments} if checked.fragments else {}),
            **(extra or {}),
            **({"notes": notes} if notes else {}),
        }
        text = to_json(findings, checked.roots[0] if checked.roots else "", described)
    elif arguments.format == "sarif":  # SARIF and Markdown load only for their format
        from ..analyzers.reports.sarif import to_sarif

        text = to_sarif(findings, Paths(folder, inside=True), notes)
    elif arguments.format == "markdown":
        from ..analyzers.reports.markdown import to_markdown

        text = to_markdown(findings, title, notes)
    else:
        hints = arguments.hints or arguments.min_severity == Severity.HINT.value
        archive = str(arguments.path) if folder is None else None
        text = text_report(findings, checked.roots, paths, hints, checked.fragments, notes, archive)
        if statistics is not None:
            text = statistics_table(statistics, paths) + "\n" + text
    write_output(arguments.output, text, coloured=arguments.format == "text")


def exit_code(findings: list[Finding], fail_on: str) -> int:
    if fail_on == "never":
        return 0
    threshold = Severity(fail_on)
    return 1 if any(at_least(f, threshold) for f in findings) else 0
