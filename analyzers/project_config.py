"""Project configuration: `.auditex.toml` at the project root, plus editor settings.

```toml
[project]
root = "main.tex"                # the root file (default: detected); `roots = [...]` for several

[rules]
select = ["REF", "CIT", "NUM"]   # code prefixes to run (default: all)
ignore = ["RHE001"]              # code prefixes never to run
severity = { DIS001 = "hint" }   # per-code severity override
exclude = ["old/*.tex"]          # files whose findings are dropped, and roots never checked
min-severity = "information"     # findings below this are dropped

[statistics]                     # how STAT001/STAT002 read reported p-values
alpha = 0.05
p-equal-alpha-significant = true
one-tailed = "announced"         # or "always", "never"

[llm]
provider = "openai"
model = "gpt-4o-mini"
```
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from dataclasses import field
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..latex.record import record
from ..latex.source import value_hash
from .finding import Severity
from .work_budget import WORK_LIMIT

CONFIG_FILE = ".auditex.toml"


class ConfigError(ValueError):
    """`.auditex.toml` is unreadable or invalid; the message names the key and a likely fix."""


class RulesConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    select: list[str] = Field(default_factory=list)
    ignore: list[str] = Field(default_factory=list)
    severity: dict[str, Severity] = Field(default_factory=dict)
    exclude: list[str] = Field(default_factory=list)
    min_severity: Severity | None = Field(default=None, alias="min-severity")
    # Items one unit of a rule may compare before the rule is skipped for the project (LIM001).
    work_limit: int = Field(default=WORK_LIMIT, ge=1, alias="work-limit")


class ProjectConfig(BaseModel):
    """[project]: which root files are checked, when detection would pick others."""

    model_config = ConfigDict(extra="forbid")
    root: str | None = None
    roots: list[str] = Field(default_factory=list)

    def named_roots(self) -> list[str]:
        return [*([self.root] if self.root else []), *(name for name in self.roots if name != self.root)]


class OneTailed(str, Enum):
    """When a one-tailed test may explain a reported p (STAT001)."""

    ANNOUNCED = "announced"  # when the text says "one-tailed", "one-sided" or "directional" anywhere
    ALWAYS = "always"  # every t, r and z test is one-tailed
    NEVER = "never"  # every test is two-tailed


class StatisticsConfig(BaseModel):
    """`[statistics]`: how reported p-values are read (documented in `auditex rule STAT001`)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)
    alpha: float = Field(default=0.05, gt=0, lt=1)
    p_equal_alpha_significant: bool = Field(default=True, alias="p-equal-alpha-significant")
    one_tailed: OneTailed = Field(default=OneTailed.ANNOUNCED, alias="one-tailed")


@record
class RuleOptions:
    """`--select`, `--ignore` and `--min-severity`: the command line's word on `[rules]`."""

    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    min_severity: Severity | None = None


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")
    project: ProjectConfig = Field(default_factory=ProjectConfig)
    rules: RulesConfig = Field(default_factory=RulesConfig)
    statistics: StatisticsConfig = Field(default_factory=StatisticsConfig)
    # Sections read by other layers (the LLM pipeline, the server) as raw tables.
    llm: dict[str, Any] = Field(default_factory=dict)
    online: dict[str, Any] = Field(default_factory=dict)  # [online]: reference verification (analyzers/scholarly/resolver.py)
    # Problems found while loading, reported as findings rather than raised.
    problems: list[str] = Field(default_factory=list, exclude=True)

    def is_excluded(self, file: str) -> bool:
        return any(fnmatch.fnmatch(file, pattern) for pattern in self.rules.exclude)

    def rule_settings(self) -> str:
        """The settings rules read (`[statistics]`, the work limit), as a digest: part of every cached rule result's key."""
        return value_hash((self.statistics.model_dump(mode="json"), self.rules.work_limit))

    def severity_for(self, code: str, default: Severity) -> Severity:
        return self.rules.severity.get(code, default)

    def with_options(self, options: RuleOptions) -> Config:
        """This config with command-line options on top: `select` replaces, `ignore` adds, `min_severity` replaces."""
        rules = self.rules.model_copy(
            update={
                "select": options.select if options.select is not None else self.rules.select,
                "ignore": [*self.rules.ignore, *options.ignore],
                "min_severity": options.min_severity or self.rules.min_severity,
            }
        )
        return self.model_copy(update={"rules": rules})

    def merged(self, overrides: dict[str, Any]) -> Config:
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


def load_config(folder: Path, strict: bool = False) -> Config:
    """Read `.auditex.toml`. A broken file raises ConfigError when `strict` (the CLI: a usage
    error); otherwise (the editor, mid-typing) it yields defaults plus a problem."""
    path = folder / CONFIG_FILE
    if not path.is_file():
        return Config()
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
        return Config.model_validate(data)
    except tomllib.TOMLDecodeError as error:
        problem = f"{CONFIG_FILE} could not be read: {_toml_problem(text, str(error))}"
    except (OSError, UnicodeDecodeError) as error:
        problem = f"{CONFIG_FILE} could not be read: {error}"
    except ValidationError as error:
        problem = f"{CONFIG_FILE} is invalid: {_first_error(error)}"
    if strict:
        raise ConfigError(problem)
    return Config(problems=[problem])


def _toml_problem(text: str, error: str) -> str:
    """tomllib's error with the line it names quoted; a table declared twice names both of its lines."""
    at = re.search(r"\(at line (\d+), column \d+\)$", error)
    if at is None:
        return error
    line = int(at.group(1))
    lines = text.splitlines()
    quoted = f" `{lines[line - 1].strip()}`" if line <= len(lines) else ""
    twice = re.match(r"Cannot declare \((.*)\) twice", error)
    if twice is None:
        return f"line {line}{quoted}: {error[: at.start()].strip()}"
    table = ".".join(part.strip(" '\"") for part in twice.group(1).split(",") if part.strip())
    header = re.compile(rf"\s*\[\s*{re.escape(table)}\s*\]")
    first = next((number for number, written in enumerate(lines, 1) if header.match(written) and number != line), None)
    earlier = f" (first on line {first})" if first else ""
    return f"line {line}{quoted}: the table [{table}] is declared a second time{earlier}; keep its keys under one header"


def _first_error(error: ValidationError) -> str:
    """The first error as the user wrote it: the key's table and name, and what was probably meant."""
    first = error.errors()[0]
    location = [str(part) for part in first.get("loc", ())]
    key = location[-1] if location else ""
    if first.get("type") == "extra_forbidden":
        tables: dict[str, type[BaseModel]] = {"rules": RulesConfig, "project": ProjectConfig, "statistics": StatisticsConfig}
        model = tables.get(location[0], Config) if len(location) > 1 else Config
        known = [field.alias or name for name, field in model.model_fields.items() if name != "problems"]
        where = f"key '{key}' in [{'.'.join(location[:-1])}]" if len(location) > 1 else f"table [{key}]"
        return f"unknown {where}{did_you_mean(key, known)}; known: {', '.join(known)}"
    if first.get("type") == "enum":
        value = str(first.get("input"))
        kind, choices = (
            ("setting", [t.value for t in OneTailed]) if location[:1] == ["statistics"] else ("severity", [s.value for s in Severity])
        )
        return f"{'.'.join(location)}: '{value}' is not a {kind}{did_you_mean(value.lower(), choices)}; use one of {', '.join(choices)}"
    return f"{'.'.join(location)}: {first.get('msg', 'invalid value')}"


def did_you_mean(word: str, choices: list[str]) -> str:
    """' (did you mean 'x'?)' for the closest choice, or '' when none is close."""
    import difflib  # only a misspelt setting pays for it

    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
