"""LLM work in the editor: `auditex.audit` and `auditex.review` in the background, and the
audit's findings kept on the sections whose text has not changed since.

An audit reads a private copy of each project (the live ones belong to the analysis
thread), so every LLM finding is anchored to the text the audit read. Each of its
ranges is remembered relative to its section (id and content hash): when the section
is unchanged the range moves with it, when it changed the finding is dropped, and an
undo brings it back. The findings policy (analyzers/policy.py) applies to LLM findings as to
rule findings, so suppression comments, `[rules]` and the usual code actions work on them too.

The LLM stack is imported on first use: `auditex serve` starts without it.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from ..analyzers.finding import Finding, Range, Source
from ..analyzers.policy import distinct, report_order

if TYPE_CHECKING:  # the model and the workspace: imported when a check runs, not at start-up
    from ..analyzers.llm.audit import AuditResult
    from ..analyzers.llm.settings import LLMSettings
    from ..latex.manuscript import Section
    from ..latex.project import Project
    from .workspace import FolderState, Workspace

log = logging.getLogger(__name__)
AUDIT_MODES = ("fast", "standard", "deep", "critical")
REVIEW_MODES = (*AUDIT_MODES, "none")
# Editor setting names (camelCase, vscode-client/contract.json) → LLMSettings fields.
EDITOR_KEYS = {"baseUrl": "base_url", "budgetUsd": "budget_usd"}
RELATED_WORK_KEYS = ("relatedWork", "related_work")  # off unless set: the review then searches the web
Diagnostics = dict[str, tuple[Path, list[Finding]]]


# Keeping findings across edits


@dataclass(frozen=True)
class Anchor:
    """A range relative to the section (or, outside every section, the file) that holds it."""

    file: str
    section: str | None  # section id; None: the range is tied to the whole file
    digest: str  # that section's content hash (or the file's)
    start: int  # offsets from the section's origin in `file`
    end: int
    text: str  # the source text of the range when audited


@dataclass(frozen=True)
class KeptFinding:
    finding: Finding
    anchors: tuple[Anchor, ...]  # the range, then each related range, then each fix edit's


@dataclass
class LLMState:
    """The last audit's LLM findings per folder and root file (fingerprint → finding).

    Written on the event loop, read on the analysis thread: each update replaces a
    whole mapping instead of changing one in place.
    """

    kept: dict[Path, dict[str, dict[str, KeptFinding]]] = field(default_factory=dict)
    running: set[Path] = field(default_factory=set)  # folders being audited
    publishing: asyncio.Future | None = None  # a pending publish of partial results

    def findings_of(self, folder: Path, root: str) -> dict[str, KeptFinding]:
        return self.kept.get(folder, {}).get(root, {})

    def keep(self, folder: Path, root: str, findings: dict[str, KeptFinding]) -> None:
        self.kept[folder] = {**self.kept.get(folder, {}), root: findings}

    def merged(self, workspace: Workspace) -> Diagnostics:
        """The workspace's rule findings with the LLM findings that still hold (analysis thread)."""
        diagnostics = workspace.diagnostics()
        for folder, roots in list(self.kept.items()):
            state = workspace.folders.get(folder)
            if state is None:
                continue
            for finding in _current(state, roots):
                uri = (folder / finding.file).as_uri()
                if uri not in diagnostics:
                    continue
                shown = diagnostics[uri][1]
                if not any(_same(finding, other) for other in shown):
                    diagnostics[uri] = (folder, sorted([*shown, finding], key=report_order))
        return diagnostics


def anchored(project: Project, findings: list[Finding]) -> dict[str, KeptFinding]:
    """Findings of an audit of `project`, each with its ranges tied to their sections."""
    result = {}
    for finding in findings:
        files = [finding.file, *(r.file for r in finding.related), *(e.file for fix in finding.fixes for e in fix.edits)]
        anchors = [_anchor(project, file, range_) for file, range_ in zip(files, _ranges(finding))]
        if all(anchor is not None for anchor in anchors):
            result[finding.fingerprint] = KeptFinding(finding, tuple(anchors))  # type: ignore[arg-type]
    return result


def _anchor(project: Project, file: str, range_: Range) -> Anchor | None:
    document = project.documents.get(file)
    if document is None:
        return None
    source = document.source
    start = source.offset(range_.start.line, range_.start.character)
    end = source.offset(range_.end.line, range_.end.character)
    section = _section_at(project, file, start)
    origin = _origin(section, file) if section is not None else None
    if section is None or origin is None:
        return Anchor(file, None, source.hash, start, end, source.text[start:end])
    return Anchor(file, section.id, section.hash, start - origin, end - origin, source.text[start:end])


def _section_at(project: Project, file: str, offset: int) -> Section | None:
    manuscript = project.manuscript
    for placed in manuscript.blocks:
        if placed.file == file and placed.block.start <= offset <= placed.block.end:
            return manuscript.sections[placed.section]
    before = [section for section in manuscript.sections if section.file == file and section.start <= offset]
    return before[-1] if before else None


def _origin(section: Section, file: str) -> int | None:
    """Where the section begins in `file`: its first block there, else its heading."""
    starts = [placed.block.start for placed in section.blocks if placed.file == file]
    if starts:
        return min(starts)
    return section.start if section.file == file else None


def _current(state: FolderState, roots: dict[str, dict[str, KeptFinding]]) -> list[Finding]:
    """The kept findings that still hold in the folder's current text, moved with their sections,
    through the folder's policy (suppression comments, `[rules]`, dismissals) as rule findings are."""
    projects = {project_state.project.root_file: project_state for project_state in state.projects}
    result: list[Finding] = []
    for root, kept in roots.items():
        project_state = projects.get(root)
        if project_state is None:
            continue
        project = project_state.project
        sections = {section.id: section for section in project.manuscript.sections}
        relocated = [finding for finding in (_relocated(project, sections, item) for item in kept.values()) if finding is not None]
        result += project_state.engine.policy.apply(project, relocated)
    return distinct(result)


def _relocated(project: Project, sections: dict[str, Section], item: KeptFinding) -> Finding | None:
    ranges = []
    for anchor in item.anchors:
        range_ = _relocate(project, sections, anchor)
        if range_ is None:
            return None
        ranges.append(range_)
    return item.finding if ranges == _ranges(item.finding) else _moved(item.finding, ranges)


def _ranges(finding: Finding) -> list[Range]:
    """The finding's range, its related ranges, its fix edits' ranges: the order of `anchored`."""
    return [finding.range, *(r.range for r in finding.related), *(e.range for fix in finding.fixes for e in fix.edits)]


def _moved(finding: Finding, ranges: list[Range]) -> Finding:
    """`finding` at `ranges` (same order as `anchored`), fingerprint unchanged."""
    moved = iter(ranges[1:])
    related = [item.model_copy(update={"range": next(moved)}) for item in finding.related]
    fixes = [
        fix.model_copy(update={"edits": [edit.model_copy(update={"range": next(moved)}) for edit in fix.edits]}) for fix in finding.fixes
    ]
    return finding.model_copy(update={"range": ranges[0], "related": related, "fixes": fixes})


def _relocate(project: Project, sections: dict[str, Section], anchor: Anchor) -> Range | None:
    document = project.documents.get(anchor.file)
    if document is None:
        return None
    source = document.source
    if anchor.section is None:
        origin = 0 if source.hash == anchor.digest else None
    else:
        section = sections.get(anchor.section)
        origin = _origin(section, anchor.file) if section is not None and section.hash == anchor.digest else None
    if origin is None:
        return None
    start, end = origin + anchor.start, origin + anchor.end
    if start < 0 or source.text[start:end] != anchor.text:  # e.g. a comment edited inside the section
        return None
    return Range.of(*source.position(start), *source.position(end))


def _same(finding: Finding, other: Finding) -> bool:
    """A finding already shown: the same one, or a rule finding of its kind on the same text."""
    if finding.fingerprint == other.fingerprint:
        return True
    if other.source is Source.LLM or other.file != finding.file or other.category is not finding.category:
        return False
    a, b = finding.range, other.range
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (b.start.line, b.start.character) <= (
        a.end.line,
        a.end.character,
    )


# Settings


def llm_settings(config_llm: dict[str, Any]) -> LLMSettings:
    """`[llm]` of the folder's config (editor settings already merged in); ValueError when invalid."""
    from ..analyzers.llm.config_section import settings_from_config

    editor = {EDITOR_KEYS[key]: value for key, value in config_llm.items() if key in EDITOR_KEYS}
    return settings_from_config({**config_llm, **editor})


def related_work(config_llm: dict[str, Any], make_search):
    """The scholarly search the settings enable (`llm.relatedWork`: auto, semantic-scholar, openalex); None by default."""
    name = next((config_llm[key] for key in RELATED_WORK_KEYS if config_llm.get(key)), "none")
    return make_search(name) if name in ("auto", "semantic-scholar", "openalex") else None


def redacted(message: str, settings: LLMSettings | None) -> str:
    secret = settings.secret if settings is not None else None
    return message.replace(secret, "[redacted]") if secret else message


# Snapshots for a run


@dataclass
class Snapshot:
    root: str
    texts: dict[str, str]  # every file the project read, as the editor has it now
    rule_findings: list[Finding]


def snapshots(state: FolderState, relative: str | None = None) -> list[Snapshot]:
    """The folder's projects (those holding `relative`, if given) as of now (analysis thread)."""
    state.check()
    chosen = [p for p in state.projects if relative is None or p.project.contains(relative)] or state.projects
    return [
        Snapshot(
            p.project.root_file,
            {
                **{rel: d.text for rel, d in p.project.documents.items()},
                **{rel: b.source.text for rel, b in p.project.bibliographies.items()},
            },
            [f for f in p.findings if f.source is Source.RULE],
        )
        for p in chosen
    ]


async def private_project(state: FolderState, snapshot: Snapshot) -> Project:
    """A project of its own for a run: parsed off the analysis thread from the snapshot's texts."""
    from ..latex.project import Project

    return await asyncio.to_thread(Project, state.folder, snapshot.root, snapshot.texts)


def folders_for(workspace: Workspace, path: Path | None) -> list[tuple[FolderState, str | None]]:
    """The folder holding `path` (with its relative path), or every folder (analysis thread)."""
    if path is not None:
        located = workspace.locate(path)
        return [located] if located is not None else []
    return [(state, None) for state in workspace.folders.values()]


def audit_message(results: list[AuditResult]) -> str:
    if not results:
        return "auditex: no LaTeX project to audit."
    parts = [result.summary() + (f" {result.budget_stop}" if result.budget_stop else "") for result in results]
    return "auditex: " + " ".join(parts)


def missing_key(what: str, settings: LLMSettings) -> str:
    """MissingKey in an editor's words: the setting to change, where the command line names its flag."""
    return (
        f"auditex: {what} needs {settings.key_env} in the editor's environment, or the setting "
        "auditex.llm.baseUrl pointing at a local OpenAI-compatible server."
    )


def show_message(ls, message: str, kind: lsp.MessageType = lsp.MessageType.Error) -> None:
    ls.window_show_message(lsp.ShowMessageParams(type=kind, message=message))
