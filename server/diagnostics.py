"""What the client shows: the findings published per document, and publishing what changed.

The findings of every source (rules, online verification, the LLM audit) arrive merged by
the session's one rule (analyzers/policy.py `merged`); this store remembers what was sent,
so a publish sends only the documents whose findings changed (and every edited one, whose
positions the client may have moved), and [] for documents that left every project.
Code actions, hovers and the report read the findings from here: what the user sees.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from ..analyzers.finding import Finding, Severity
from . import convert

if TYPE_CHECKING:
    from ..analyzers.session import Session

Diagnostics = dict[str, tuple[Path, list[Finding]]]  # URI → (its folder, its findings)


def by_uri(session: Session) -> Diagnostics:
    """A session's findings per file (before it is opened: its record's), keyed by URI."""
    return {file_uri(session.folder, file): (session.folder, findings) for file, findings in session.findings_by_file().items()}


@lru_cache(maxsize=4096)
def file_uri(folder: Path, file: str) -> str:
    """The URI of a folder's file, made once: each stage of every keystroke names every file of the project."""
    return (folder / file).as_uri()


class Published:
    def __init__(self, send: Callable[[lsp.PublishDiagnosticsParams], None]) -> None:
        self.send = send
        self.findings: dict[str, list[Finding]] = {}  # URI → what the client currently shows
        self.folder_of_uri: dict[str, Path] = {}
        self.touched: set[str] = set()  # URIs edited since their last publish

    def update(self, diagnostics: Diagnostics) -> None:
        """Send what changed since the last publish (and every edited file), [] for files gone."""
        touched, self.touched = self.touched, set()
        for uri in [uri for uri in self.findings if uri not in diagnostics]:
            del self.findings[uri]
            self.send(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        for uri, (folder, findings) in diagnostics.items():
            if uri in touched or self.findings.get(uri) != findings:
                self.findings[uri] = findings
                self.folder_of_uri[uri] = folder
                shown = [convert.diagnostic(finding, folder) for finding in findings]
                self.send(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=shown))

    def count(self) -> int:
        """The findings published above hint severity: what VS Code's Problems panel lists, and so what the status bar counts."""
        return sum(1 for findings in self.findings.values() for finding in findings if finding.severity is not Severity.HINT)

    def overlapping(self, uri: str, where: lsp.Range) -> list[Finding]:
        return [finding for finding in self.findings.get(uri, []) if convert.overlaps(finding.range, where)]

    def at(self, uri: str, line: int, character: int) -> list[Finding]:
        return [finding for finding in self.findings.get(uri, []) if convert.contains(finding.range, line, character)]

    def of_folder(self, folder: Path | None) -> list[Finding]:
        """Every finding shown in `folder` (None: everywhere)."""
        return [
            finding for uri, shown in self.findings.items() for finding in shown if folder is None or self.folder_of_uri.get(uri) == folder
        ]

    def with_fingerprint(self, uri: str, fingerprint: object) -> Finding | None:
        return next((finding for finding in self.findings.get(uri, []) if finding.fingerprint == fingerprint), None)
