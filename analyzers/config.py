"""Project configuration: `.auditex.toml` at the project root, plus editor settings.

```toml
[rules]
select = ["REF", "CIT", "NUM"]   # code prefixes to run (default: all)
ignore = ["RHE001"]              # code prefixes never to run
severity = { DIS001 = "hint" }   # per-code severity override
exclude = ["old/*.tex"]          # files whose findings are dropped

[llm]
provider = "openai"
model = "gpt-4o-mini"
```
"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .finding import Severity

CONFIG_FILE = ".auditex.toml"


class RulesConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    select: list[str] = Field(default_factory=list)
    ignore: list[str] = Field(default_factory=list)
    severity: dict[str, Severity] = Field(default_factory=dict)
    exclude: list[str] = Field(default_factory=list)


class Config(BaseModel):
    model_config = ConfigDict(extra="ignore")
    rules: RulesConfig = Field(default_factory=RulesConfig)
    # Sections read by other layers (the LLM pipeline, the server) as raw tables.
    llm: dict[str, Any] = Field(default_factory=dict)
    online: dict[str, Any] = Field(default_factory=dict)  # [online]: reference verification (analyzers/scholarly/verify.py)
    # Problems found while loading, reported as findings rather than raised.
    problems: list[str] = Field(default_factory=list, exclude=True)

    def is_excluded(self, file: str) -> bool:
        return any(fnmatch.fnmatch(file, pattern) for pattern in self.rules.exclude)

    def severity_for(self, code: str, default: Severity) -> Severity:
        return self.rules.severity.get(code, default)

    def merged(self, overrides: dict[str, Any]) -> "Config":
        """This config with editor settings on top (lists replace, tables merge)."""
        data = self.model_dump()
        for section, values in overrides.items():
            if isinstance(values, dict) and isinstance(data.get(section), dict):
                data[section] = {**data[section], **{k: v for k, v in values.items() if v is not None}}
        try:
            merged = Config.model_validate(data)
        except ValidationError as error:
            merged = self.model_copy()
            merged.problems = [*self.problems, f"invalid auditex settings: {_first_error(error)}"]
        return merged


def load_config(folder: Path) -> Config:
    """Read `.auditex.toml`; a broken file yields defaults plus a problem, never an exception."""
    path = folder / CONFIG_FILE
    if not path.is_file():
        return Config()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return Config(problems=[f"{CONFIG_FILE} could not be read: {error}"])
    try:
        return Config.model_validate(data)
    except ValidationError as error:
        return Config(problems=[f"{CONFIG_FILE} is invalid: {_first_error(error)}"])


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    location = ".".join(str(part) for part in first.get("loc", ()))
    return f"{location}: {first.get('msg', 'invalid value')}"
