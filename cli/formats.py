"""Report formats: text (compiler style), JSON contract, SARIF 2.1.0, Markdown."""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..analyzers.finding import Finding, Severity
from ..analyzers.llm.codes import llm_codes
from ..analyzers.p_values import ResultRow
from ..analyzers.policy import severity_order
from ..analyzers.policy import unknown_codes as unknown_in
from ..analyzers.project_config import Config
from ..analyzers.projects import InputError
from ..analyzers.registry import Registry, default_registry
from ..analyzers.report import summary_line, to_markdown  # noqa: F401  (re-exported for the CLI)

if TYPE_CHECKING:
    from rich.text import Text

JSON_VERSION = 1
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "note", Severity.HINT: "note"}


class Paths:
    """How reports write a project file: relative to the current directory (so a terminal or an
    editor opens it from where the command ran), or as in the project when `folder` is None.
    With `inside`, a project outside the current directory keeps project-relative paths, based
    at the project folder (SARIF: its URIs must not climb out of %SRCROOT%)."""

    def __init__(self, folder: Path | None, inside: bool = False) -> None:
        self.prefix, self.base = ".", folder
        if folder is not None:
            relative = Path(os.path.relpath(folder, Path.cwd())).as_posix()
            if not (inside and relative.startswith("..")):
                self.prefix, self.base = relative, Path.cwd()

    def __call__(self, file: str) -> str:
        return file if self.prefix == "." else f"{self.prefix}/{file}"

    def base_uri(self) -> str:
        """SARIF's %SRCROOT%: the folder the paths are relative to."""
        return self.base.resolve().as_uri() + "/" if self.base is not None else "file:///"


def to_text(findings: list[Finding], path: Paths | None = None) -> str:
    path = path or Paths(None)
    lines = [
        f"{path(f.file)}:{f.range.start.line + 1}:{f.range.start.character + 1}: {f.severity.value} {f.code} {f.message}" for f in findings
    ]
    lines.append(summary_line(findings))
    return "\n".join(lines) + "\n"


def text_report(
    findings: list[Finding], roots: list[str], path: Paths, hints: bool, fragments: list[str], notes: list[str], archive: str | None = None
) -> str:
    """The text report: most severe first, hints only when asked, a count per code, the root files checked
    (`fragments`: those that are no root file, checked alone; `archive`: the submission they came in),
    and `notes` on the run."""
    shown = sorted((f for f in findings if hints or f.severity is not Severity.HINT), key=severity_order)
    lines = to_text(shown, path).splitlines()[:-1]
    if shown:
        lines += ["", *rule_counts(shown)]
    checked = [path(root) + (" (a fragment no root file includes, checked on its own)" if root in fragments else "") for root in roots]
    within = f" in {archive}" if archive else ""
    lines += ["", f"Checked {', '.join(checked) or 'no root file'}{within}.", *notes]
    hidden = len(findings) - len(shown)
    note = f" {hidden} hint{'s' if hidden != 1 else ''} not shown (--hints shows them)." if hidden else ""
    lines.append(summary_line(findings) + note)
    return "\n".join(lines) + "\n"


def statistics_table(rows: list[ResultRow], path: Paths) -> str:
    """Every test result read, as statcheck lists them: where, the test, reported p, recomputed p, verdict."""
    if not rows:
        return "No test result (t, F, r, z, χ², Q with its p-value) read.\n"
    table = [("where", "test", "reported", "computed", "verdict")]
    table += [
        (
            f"{path(row.file)}:{row.line}",
            row.checked.reported.statistic,
            row.checked.reported.stated_p,
            row.checked.computed_text,
            row.verdict,
        )
        for row in rows
    ]
    widths = [max(len(cells[column]) for cells in table) for column in range(4)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=False)) + "  " + cells[4] for cells in table]
    flagged = sum(row.checked.verdict.flagged for row in rows)
    lines.append(f"{len(rows)} test result{'s' if len(rows) != 1 else ''} read, {flagged} flagged.")
    return "\n".join(lines) + "\n"


def rule_counts(findings: list[Finding]) -> list[str]:
    """One line per code, most frequent first: count, code, severity, name."""
    counts = Counter(f.code for f in findings)
    severities = {f.code: f.severity.value for f in findings}
    names = code_names()
    width = len(str(max(counts.values())))
    return [
        f"{count:>{width}}  {code:9} {severities[code]:11} {names.get(code, '')}".rstrip()
        for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    ]


def code_names() -> dict[str, str]:
    """Every code auditex reports (rules, LLM types) → its name."""
    return {**{rule.code: rule.name for rule in default_registry()}, **{code.code: code.name for code in llm_codes().values()}}


def unknown_codes(config: Config) -> list[str]:
    return unknown_in(config, code_names())


def write_output(output: Path | None, text: str, coloured: bool = False) -> None:
    """The report to `output` (its folders created) or stdout; a path that cannot be written is an input error.
    A `coloured` text report is shown in colour on a terminal (never in a pipe, a file, or with NO_COLOR set)."""
    if output is None:
        if coloured:
            from rich.console import Console  # only a text report bound for stdout pays for rich

            console = Console(highlight=False, soft_wrap=True, emoji=False)
            if console.is_terminal and not console.no_color:
                console.print(in_colour(text), end="")
                return
        sys.stdout.write(text)
        return
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text, encoding="utf-8")
    except (FileExistsError, NotADirectoryError):
        # mkdir met a file where a folder should be (`-o /etc/passwd/x.txt`): name it.
        blocking = next((parent for parent in reversed(output.parents) if parent.exists() and not parent.is_dir()), output.parent)
        raise InputError(f"cannot write the report to '{output}': '{blocking}' is a file, not a folder") from None
    except OSError as error:
        raise InputError(f"cannot write the report to '{output}': {error.strerror or error}") from None


# Severities as compilers and ruff show them: errors red, warnings yellow.
_SEVERITY_STYLES = {"error": "bold red", "warning": "yellow", "information": "blue", "hint": "dim"}
_LOCATED = re.compile(r"^(?P<location>\S.*?:\d+:\d+:) (?P<severity>error|warning|information|hint) (?P<code>\S+) ", re.MULTILINE)
_COUNTED = re.compile(r"^ *\d+  (?P<code>\S+) +(?P<severity>error|warning|information|hint) ", re.MULTILINE)


def in_colour(report: str) -> Text:
    """The text report with its locations, severities and codes styled."""
    from rich.text import Text

    text = Text(report)
    for pattern in (_LOCATED, _COUNTED):
        for match in pattern.finditer(report):
            if "location" in match.groupdict():
                text.stylize("bold", *match.span("location"))
            text.stylize(_SEVERITY_STYLES[match.group("severity")], *match.span("severity"))
            text.stylize("bold", *match.span("code"))
    return text


def json_contract(findings: list[Finding], root: str, extra: dict | None = None) -> dict:
    """The JSON report as data: `auditex check --format json` prints it, `auditex batch` keeps one per line."""
    payload = {"version": JSON_VERSION, "root": root, "findings": [f.contract() for f in findings]}
    if extra:
        payload.update(extra)
    return payload


def to_json(findings: list[Finding], root: str, extra: dict | None = None) -> str:
    return json.dumps(json_contract(findings, root, extra), indent=2, ensure_ascii=False) + "\n"


def to_sarif(findings: list[Finding], registry: Registry, path: Paths | None = None, notes: list[str] | None = None) -> str:
    """SARIF 2.1.0; `notes` on the run (references left unchecked) become the invocation's notifications."""
    path = path or Paths(None)
    used = sorted({f.code for f in findings})
    described = llm_codes()
    rules = []
    for code in used:
        rule, llm = registry.get(code), described.get(code)
        name = rule.name if rule else llm.name if llm else code
        summary = rule.summary if rule else llm.definition if llm else code
        doc = rule.doc if rule else summary
        rules.append(
            {
                "id": code,
                "name": name,
                "shortDescription": {"text": summary},
                "fullDescription": {"text": doc},
                "help": {"text": doc, "markdown": doc},
                "properties": {"category": rule.category.value if rule else "llm"},
            }
        )
    index = {code: position for position, code in enumerate(used)}
    results = []
    for f in findings:
        result = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _SARIF_LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [_sarif_location(path(f.file), f.range)],
            "partialFingerprints": {"auditex/v1": f.fingerprint},
            "properties": {"category": f.category.value, "source": f.source.value, "confidence": f.confidence},
        }
        if f.related:
            result["relatedLocations"] = [
                {**_sarif_location(path(r.file), r.range), "id": position, "message": {"text": r.message}}
                for position, r in enumerate(f.related)
            ]
        if f.fixes:
            result["fixes"] = [
                {
                    "description": {"text": fix.title},
                    "artifactChanges": [
                        {
                            "artifactLocation": {"uri": path(edit.file), "uriBaseId": "%SRCROOT%"},
                            "replacements": [{"deletedRegion": _sarif_region(edit.range), "insertedContent": {"text": edit.new_text}}],
                        }
                        for edit in fix.edits
                    ],
                }
                for fix in f.fixes
            ]
        results.append(result)
    run: dict[str, Any] = {
        "tool": {
            "driver": {"name": "auditex", "version": __version__, "informationUri": "https://github.com/auditex/auditex", "rules": rules}
        },
        "originalUriBaseIds": {"%SRCROOT%": {"uri": path.base_uri()}},
        "columnKind": "utf16CodeUnits",
        "results": results,
    }
    if notes:
        notifications = [{"level": "warning", "message": {"text": note}} for note in notes]
        run["invocations"] = [{"executionSuccessful": True, "toolExecutionNotifications": notifications}]
    sarif = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run]}
    return json.dumps(sarif, indent=2, ensure_ascii=False) + "\n"


def _sarif_region(range_) -> dict:
    return {
        "startLine": range_.start.line + 1,
        "startColumn": range_.start.character + 1,
        "endLine": range_.end.line + 1,
        "endColumn": range_.end.character + 1,
    }


def _sarif_location(file: str, range_) -> dict:
    return {"physicalLocation": {"artifactLocation": {"uri": file, "uriBaseId": "%SRCROOT%"}, "region": _sarif_region(range_)}}
