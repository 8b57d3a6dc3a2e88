"""Detection prompt templates, loaded from the `auditex.prompts` data files.

A template `prompts/detect_<name>.md` starts with a header comment naming its
version, then a `# System` part, an optional `# Shared` part and a `# User` part.
A whole-paper task (`detect_paper_<kind>.md`) has only its `# User` part: its system
prompt and shared part are `detect_paper.md`'s, the same for every call of a run.
`# Shared` holds what every call of a mode repeats byte for byte (the paper memory):
it is sent right after the system prompt, ahead of the per-call `# User` text, so
providers can serve the whole prefix from their prompt cache (see `provider`).
`{{placeholder}}`s are filled in one pass, so braces in the paper (or in the JSON
schemas) are never expanded.
Parts common to the templates: `{{rules}}` (detection_rules.md), `{{error_types}}` (error_types.json,
PaperAudit Table 9) and `{{schema}}` (the template's schema_*.json).

`Prompt.version` is "<name>/<header version>/<hash of every file used>", and goes
into each request's `prompt_version`, so editing a prompt file invalidates exactly
the cached answers that used it.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from importlib import resources

from ...latex.deferred_pattern import DeferredPattern
from ...latex.record import record
from ..finding import Category

_PLACEHOLDER = DeferredPattern(r"\{\{(\w+)\}\}")
_HEADER = DeferredPattern(r"<!--(.*?)-->", re.DOTALL)
_VERSION = DeferredPattern(r"version:\s*([\w.-]+)")

# Which JSON schema each template shows the model.
_SCHEMAS = {
    "fast": "schema_findings.json",
    "section": "schema_findings.json",
    "specialist": "schema_findings.json",
    "planner": "schema_tasks.json",
    "merge": "schema_merge.json",
    "critical": "schema_critical.json",
    "verify": "schema_verdicts.json",
    "paper_fast": "schema_findings.json",
    "paper_section": "schema_findings.json",
    "paper_specialist": "schema_findings.json",
    "paper_planner": "schema_tasks.json",
    "paper_merge": "schema_merge.json",
    "paper_critical": "schema_critical.json",
    "paper_verify": "schema_verdicts.json",
}


@record
class ErrorType:
    category: Category
    name: str
    abbreviation: str
    definition: str


@record
class Prompt:
    name: str
    version: str
    system: str
    shared: str
    user: str

    def render(self, **values: str) -> tuple[str, str, str]:
        """(system, shared, user) with the unit's values filled in; a missing value is a bug, so it raises."""
        return _fill(self.system, values, self.name), _fill(self.shared, values, self.name), _fill(self.user, values, self.name)


def _read(filename: str) -> str:
    return resources.files("auditex.prompts").joinpath(filename).read_text(encoding="utf-8")


@cache
def error_types() -> tuple[ErrorType, ...]:
    data = json.loads(_read("error_types.json"))
    return tuple(ErrorType(Category(item["type"]), item["name"], item["abbreviation"], item["definition"]) for item in data["types"])


def error_type(category: Category) -> ErrorType:
    return next(t for t in error_types() if t.category is category)


@cache
def load(name: str) -> Prompt:
    """The template `detect_<name>.md` with the parts common to all templates filled in."""
    filename = f"detect_{name}.md"
    raw = _read(filename)
    header = _HEADER.match(raw.lstrip())
    version = _VERSION.search(header.group(1)) if header else None
    if version is None:
        raise ValueError(f"prompt {filename} has no '<!-- ... version: N -->' header")
    body = _HEADER.sub("", raw, count=1).strip()
    head, separator, user = (body + "\n").partition("# User\n")
    if not separator:
        raise ValueError(f"prompt {filename} has no '# User' part")
    system, _, shared_part = head.partition("# Shared\n")
    used = [raw, _read("detection_rules.md"), _read("error_types.json")]
    common = {
        "rules": _HEADER.sub("", _read("detection_rules.md")).strip(),
        "error_types": "\n".join(f"- {t.category.value}: {t.definition}" for t in error_types()),
    }
    if name in _SCHEMAS:
        schema = _read(_SCHEMAS[name])
        common["schema"] = schema.strip()
        used.append(schema)
    digest = hashlib.sha256("\x1f".join(used).encode()).hexdigest()[:12]
    system, shared, user = (
        _fill(part, common, name, partial=True).strip() for part in (system.removeprefix("# System\n"), shared_part, user)
    )
    return Prompt(name, f"{name}/{version.group(1)}/{digest}", system, shared, user)


def _fill(template: str, values: dict[str, str], name: str, partial: bool = False) -> str:
    def substitute(match: re.Match[str]) -> str:
        key = match.group(1)
        if key in values:
            return values[key]
        if partial:
            return match.group(0)
        raise KeyError(f"prompt detect_{name} needs a value for {{{{{key}}}}}")

    return _PLACEHOLDER.sub(substitute, template)
