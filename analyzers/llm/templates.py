"""Chat prompt files with `{name}` placeholders: the review prompts and the benchmark judges.

A file has an optional `# System` part, then a `# User` part; HTML comments (version
headers, where a prompt comes from) are not sent. Placeholders are filled in one pass,
so braces inside the inserted texts (the paper, JSON) are never expanded again.
"""

from __future__ import annotations

import re

from ...latex.deferred_pattern import DeferredPattern
from ...latex.record import record

_PLACEHOLDER = DeferredPattern(r"\{(\w+)\}")
_HTML_COMMENT = DeferredPattern(r"<!--.*?-->\s*", re.DOTALL)


@record
class ChatTemplate:
    system: str
    user: str

    def render(self, **values: str) -> tuple[str, str]:
        """Fill `{name}` placeholders in one pass; every placeholder must be given."""
        return _fill(self.system, values), _fill(self.user, values)


def parse_template(text: str, filename: str) -> ChatTemplate:
    system, separator, user = _HTML_COMMENT.sub("", text).partition("# User\n")
    if not separator:
        raise ValueError(f"prompt {filename} has no '# User' part")
    return ChatTemplate(system=system.removeprefix("# System\n").strip(), user=user.strip())


def _fill(template: str, values: dict[str, str]) -> str:
    def substitute(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            raise ValueError(f"prompt needs a value for {{{name}}}")
        return values[name]

    return _PLACEHOLDER.sub(substitute, template)
