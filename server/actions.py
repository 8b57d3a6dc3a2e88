"""What the editor offers on a finding: code actions (its fixes, the two suppressions, dismissal) and the hover."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from lsprotocol import types as lsp

from ..analyzers.finding import Finding, Fix
from ..analyzers.fixes import applicable
from ..analyzers.project_config import CONFIG_FILE
from ..analyzers.suppression import suppression_comment
from ..latex.source import BIBLIOGRAPHY_SUFFIXES
from . import convert
from .convert import LLM_SOURCE, lsp_range, uri_of
from .server import AuditexServer, path_of

DISMISS_COMMAND = "auditex.dismiss"
_TABLE_HEADER = re.compile(r"^\s*\[[^\]\n]*\]\s*(?:#.*)?$", re.MULTILINE)
_RULES_HEADER = re.compile(r"^\s*\[rules\]\s*(?:#.*)?$", re.MULTILINE)
_IGNORE = re.compile(r"^[ \t]*ignore[ \t]*=[ \t]*\[[^\]]*\][^\n]*", re.MULTILINE)


def fix_action(fix: Fix, diagnostic: lsp.Diagnostic, folder: Path) -> lsp.CodeAction:
    """A finding's fix as an edit. An LLM finding has one only when its proposal replaces the
    quoted span verbatim (see analyzers/llm/anchoring); any other advice stays in the hover."""
    changes: dict[str, list[lsp.TextEdit]] = {}
    for edit in fix.edits:
        changes.setdefault(uri_of(folder, edit.file), []).append(lsp.TextEdit(range=lsp_range(edit.range), new_text=edit.new_text))
    title = f"Apply proposed fix: {fix.title}" if diagnostic.source == LLM_SOURCE else fix.title
    return lsp.CodeAction(
        title=title,
        kind=lsp.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=lsp.WorkspaceEdit(changes=changes),
        is_preferred=applicable(fix, unsafe=False),  # what `auditex check --fix` applies
    )


def ignore_line_action(finding: Finding, diagnostic: lsp.Diagnostic, uri: str, line_text: str) -> lsp.CodeAction:
    """`% auditex: ignore[CODE]` at the end of a .tex line; on its own line above in a .bib,
    where a comment inside an entry would become part of a field."""
    comment = suppression_comment(finding.code)
    line = finding.range.start.line
    if finding.file.endswith(BIBLIOGRAPHY_SUFFIXES):
        indent = line_text[: len(line_text) - len(line_text.lstrip())]
        edit = lsp.TextEdit(range=_point(line, 0), new_text=f"{indent}{comment}\n")
    else:
        # The space keeps the line break's space: a comment swallows the newline.
        separator = "" if not line_text or line_text.endswith((" ", "\t")) else " "
        edit = lsp.TextEdit(range=_point(line, _utf16_length(line_text)), new_text=f"{separator}{comment}")
    return lsp.CodeAction(
        title=f"Ignore {finding.code} on this line",
        kind=lsp.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=lsp.WorkspaceEdit(changes={uri: [edit]}),
    )


def disable_in_project_action(finding: Finding, diagnostic: lsp.Diagnostic, folder: Path) -> lsp.CodeAction | None:
    path = folder / CONFIG_FILE
    uri = path.as_uri()
    try:
        current = path.read_text(encoding="utf-8") if path.is_file() else None
    except (OSError, UnicodeDecodeError):
        return None
    updated = config_ignoring(current, finding.code)
    if updated is None:
        return None
    title = f"Disable {finding.code} in this project"
    if current is None:
        edit = lsp.WorkspaceEdit(
            document_changes=[
                lsp.CreateFile(uri=uri, options=lsp.CreateFileOptions(ignore_if_exists=True)),
                lsp.TextDocumentEdit(
                    text_document=lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=None),
                    edits=[lsp.TextEdit(range=_point(0, 0), new_text=updated)],
                ),
            ]
        )
    else:
        lines = current.split("\n")
        whole = lsp.Range(
            start=lsp.Position(line=0, character=0), end=lsp.Position(line=len(lines) - 1, character=_utf16_length(lines[-1]))
        )
        edit = lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(range=whole, new_text=updated)]})
    return lsp.CodeAction(title=title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[diagnostic], edit=edit)


def dismiss_action(finding: Finding, diagnostic: lsp.Diagnostic, uri: str) -> lsp.CodeAction:
    arguments = [{"uri": uri, "fingerprint": finding.fingerprint}]
    return lsp.CodeAction(
        title="Dismiss this finding",
        kind=lsp.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        command=lsp.Command(title="Dismiss this finding", command=DISMISS_COMMAND, arguments=arguments),
    )


def config_ignoring(current: str | None, code: str) -> str | None:
    """The `.auditex.toml` text with `code` added to `[rules] ignore`; None if already
    ignored or the file cannot be edited safely (invalid TOML, unusual layout)."""
    if current is None:
        return f"[rules]\nignore = [{json.dumps(code)}]\n"
    try:
        ignored = tomllib.loads(current).get("rules", {}).get("ignore", [])
    except tomllib.TOMLDecodeError:
        return None
    if not isinstance(ignored, list) or code in ignored:
        return None
    line = "ignore = [" + ", ".join(json.dumps(item) for item in [*ignored, code]) + "]"
    header = _RULES_HEADER.search(current)
    if header is None:
        updated = current.rstrip("\n") + ("\n\n" if current.strip() else "") + f"[rules]\n{line}\n"
    else:
        body_end = next((m.start() for m in _TABLE_HEADER.finditer(current, header.end())), len(current))
        existing = _IGNORE.search(current, header.end(), body_end)
        if existing:
            updated = current[: existing.start()] + line + current[existing.end() :]
        else:
            updated = current[: header.end()] + f"\n{line}" + current[header.end() :]
    try:  # only offer an edit that provably does what it says
        if code not in tomllib.loads(updated).get("rules", {}).get("ignore", []):
            return None
    except tomllib.TOMLDecodeError:
        return None
    return updated


def _point(line: int, character: int) -> lsp.Range:
    position = lsp.Position(line=line, character=character)
    return lsp.Range(start=position, end=position)


def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def code_action(ls: AuditexServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    uri = params.text_document.uri
    folder = ls.published.folder_of_uri.get(uri)
    if folder is None:
        return []
    result: list[lsp.CodeAction] = []
    for finding in ls.published.overlapping(uri, params.range):
        diagnostic = convert.diagnostic(finding, folder)
        result += [fix_action(fix, diagnostic, folder) for fix in finding.fixes]
        result.append(ignore_line_action(finding, diagnostic, uri, _line_text(ls, uri, finding.range.start.line)))
        disable = disable_in_project_action(finding, diagnostic, folder)
        if disable is not None:
            result.append(disable)
        result.append(dismiss_action(finding, diagnostic, uri))
    return result


def hover(ls: AuditexServer, params: lsp.HoverParams) -> lsp.Hover | None:
    findings = ls.published.at(params.text_document.uri, params.position.line, params.position.character)
    if not findings:
        return None
    return lsp.Hover(
        contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=convert.hover_markdown(findings)),
        range=convert.lsp_range(findings[0].range),
    )


def _line_text(ls: AuditexServer, uri: str, line: int) -> str:
    text = ls.open_text(uri)
    if text is None:
        path = path_of(uri)
        try:
            text = path.read_text(encoding="utf-8", errors="replace") if path is not None else ""
        except OSError:
            text = ""
    lines = text.split("\n")
    return lines[line].rstrip("\r") if 0 <= line < len(lines) else ""


def register(server: AuditexServer) -> None:
    server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))(code_action)
    server.feature(lsp.TEXT_DOCUMENT_HOVER)(hover)
