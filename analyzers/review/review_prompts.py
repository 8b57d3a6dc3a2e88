"""The review prompts (`prompts/review_<name>.md`): data files with a version header.

A file starts with `<!-- version: N · where it comes from -->`, then `# System` and
`# User` parts with `{name}` placeholders. The version goes into the LLM cache
key, so editing a prompt and bumping its version re-asks the model.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from ...latex.deferred_pattern import DeferredPattern
from ...latex.record import record
from ..llm.templates import ChatTemplate, parse_template

_VERSION = DeferredPattern(r"<!--\s*version:\s*(\w+)")


@record
class ReviewPrompt:
    name: str
    version: str
    template: ChatTemplate

    def render(self, **values: str) -> tuple[str, str]:
        return self.template.render(**values)


@cache
def load_review_prompt(name: str) -> ReviewPrompt:
    text = resources.files("auditex.prompts").joinpath(f"review_{name}.md").read_text(encoding="utf-8")
    version = _VERSION.search(text)
    if version is None:
        raise ValueError(f"prompt review_{name}.md has no '<!-- version: N -->' header")
    return ReviewPrompt(name=name, version=f"review_{name}/{version.group(1)}", template=parse_template(text, f"review_{name}.md"))
