"""LLM work in the editor: what `auditex.audit` and `auditex.review` need around the session.

An audit reads a private copy of each project's snapshot (the live ones belong to the analysis
thread); the session keeps its LLM findings on their sections (analyzers/kept_findings.py),
so they follow the text the author keeps typing, through the folder's findings policy.

The LLM stack is imported on first use: `auditex serve` starts without it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from ..analyzers.llm.audit_modes import MODES

if TYPE_CHECKING:  # the model and the workspace: imported when a check runs, not at start-up
    from ..analyzers.llm.audit import AuditResult
    from ..analyzers.llm.settings import LLMSettings
    from ..analyzers.scholarly.related import ScholarlySearch, SearchName
    from ..analyzers.session import Session
    from .workspace import Workspace

log = logging.getLogger(__name__)
REVIEW_MODES = (*MODES, "none")
RELATED_WORK_KEYS = ("relatedWork", "related_work")  # off unless set: the review then searches the web


@dataclass
class LLMState:
    """Written and read on the event loop."""

    running: set[Path] = field(default_factory=set)  # folders being audited
    publishing: asyncio.Future[None] | None = None  # a pending publish of partial results


# Settings


def llm_settings(config_llm: dict[str, Any]) -> LLMSettings:
    """`[llm]` of the folder's config (editor settings already merged in); ValueError when invalid."""
    from ..analyzers.llm.config_section import settings_from_config

    return settings_from_config(config_llm)


def related_work(config_llm: dict[str, Any], make_search: Callable[[SearchName], ScholarlySearch | None]) -> ScholarlySearch | None:
    """The scholarly search the settings enable (`llm.relatedWork`: auto, semantic-scholar, openalex); None by default."""
    name = next((config_llm[key] for key in RELATED_WORK_KEYS if config_llm.get(key)), "none")
    return make_search(cast("SearchName", name)) if name in ("auto", "semantic-scholar", "openalex") else None


def redacted(message: str, settings: LLMSettings | None) -> str:
    secret = settings.secret if settings is not None else None
    return message.replace(secret, "[redacted]") if secret else message


def folders_for(workspace: Workspace, path: Path | None) -> list[tuple[Session, str | None]]:
    """The folder holding `path` (with its relative path), or every folder (analysis thread)."""
    if path is not None:
        located = workspace.locate(path)
        return [located] if located is not None else []
    return [(session, None) for session in workspace.folders.values()]


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


def show_message(ls: LanguageServer, message: str, kind: lsp.MessageType = lsp.MessageType.Error) -> None:
    ls.window_show_message(lsp.ShowMessageParams(type=kind, message=message))
