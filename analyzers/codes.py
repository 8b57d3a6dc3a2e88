"""Every code auditex reports, in one table: the rules' (registry.py) and the LLM's (llm/codes.py).

Whatever shows a code reads it here: `auditex rules` and `auditex rule CODE`, the text report's
count per code, SARIF's rule metadata, the editor's diagnostics and hovers, and the check of
`[rules]` codes in `.auditex.toml`.
"""

from __future__ import annotations

import re
import types
from collections.abc import Iterable, Iterator
from functools import cache
from typing import cast

from .. import __version__
from ..latex.record import record
from .finding import Category, Severity, Source
from .llm.codes import CRITICAL_CODE, CRITICAL_DEFINITION, CRITICAL_NAME, code_for
from .llm.detection_prompts import error_types
from .registry import Rule

PROJECT_URI = "https://github.com/auditex/auditex"


@record
class Code:
    code: str
    name: str
    category: Category | None  # None: critical mode's problems carry the type the model gave
    severity: Severity | None  # the default; None: an LLM finding's follows the verifier's verdict
    summary: str
    doc: str  # Markdown, in a rule docstring's sections: What it does, Why is this bad?, Example, Use instead
    help_uri: str  # where the code is defined, at this release
    rule: Rule | None = None  # the rule behind a rule code

    @property
    def source(self) -> Source:
        return Source.RULE if self.rule is not None else Source.LLM

    @property
    def family(self) -> str:
        """The letters a code starts with (REF, CIT, LLM), which `[rules] select` and `--ignore` take as a prefix."""
        return re.split(r"[^A-Z]", self.code, maxsplit=1)[0]


class CodeTable:
    def __init__(self, entries: Iterable[Code]) -> None:
        entries = list(entries)
        self._by_code = {entry.code: entry for entry in entries}
        self._by_name = {entry.name.lower(): entry for entry in entries}

    def __iter__(self) -> Iterator[Code]:
        """Rules by code, then the LLM codes."""
        return iter(self._by_code.values())

    def get(self, code_or_name: str) -> Code | None:
        """A code (any case) or a name ('undefined-reference', 'Claim Distortion')."""
        key = code_or_name.strip()
        return self._by_code.get(key.upper()) or self._by_name.get(key.lower())


@cache
def code_table() -> CodeTable:
    from .rules import default_registry  # on first use: importing every rule costs the server's start-up time

    return CodeTable([*(_of_rule(rule) for rule in default_registry()), *_llm_codes()])


@cache
def code_names() -> dict[str, str]:
    """Every code → its name, in the table's order, without the table's documentation: a check reads
    only the names (its report's counts, the check of `[rules]` codes), and each rule's doc is cleaned on reading."""
    from .rules import default_registry

    llm_names = [(code_for(kind.category), kind.name) for kind in error_types()]
    return dict([*((rule.code, rule.name) for rule in default_registry()), *llm_names, (CRITICAL_CODE, CRITICAL_NAME)])


def _of_rule(rule: Rule) -> Code:
    check = cast(types.FunctionType, rule.check)
    defined_in = f"{_repository_path(check.__module__)}#L{check.__code__.co_firstlineno}"
    return Code(rule.code, rule.name, rule.category, rule.severity, rule.summary, rule.doc, _help_uri(defined_in), rule)


def _llm_codes() -> Iterator[Code]:
    """One per PaperAudit error type, then critical mode's."""
    for kind in error_types():
        yield _llm_code(code_for(kind.category), kind.name, kind.category, kind.definition, "prompts/error_types.json")
    yield _llm_code(CRITICAL_CODE, CRITICAL_NAME, None, CRITICAL_DEFINITION, "analyzers/llm/codes.py")


def _llm_code(code: str, name: str, category: Category | None, definition: str, defined_in: str) -> Code:
    # In a rule docstring's sections, so that `auditex rule` and SARIF show both kinds alike.
    doc = f"""## What it does
{definition}

## Severity
From the verifier's verdict, per `[llm.severity] levels` in `.auditex.toml`: major is a warning,
moderate information, minor a hint; capped per error type (`cap`: rhetoric bias at information), and
at most information when the finding's quote does not anchor in the source or the manuscript alone
cannot settle it. A finding the verifier rejects is dropped.

## Options
Like rule codes: `[rules] ignore = ["{code}"]`, `--ignore {code}`, `[rules] severity`,
and `% auditex: ignore[{code}]` on the line or the line above."""
    return Code(code, name, category, None, definition, doc, _help_uri(defined_in))


def _repository_path(module: str) -> str:
    """'auditex.analyzers.rules.citations.undefined_citation' → 'analyzers/rules/citations/undefined_citation.py' (the repository root is the package)."""
    return module.removeprefix("auditex.").replace(".", "/") + ".py"


def _help_uri(defined_in: str) -> str:
    return f"{PROJECT_URI}/blob/v{__version__}/{defined_in}"
