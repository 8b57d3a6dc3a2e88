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
from dataclasses import field, fields
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..latex.record import record
from ..latex.source import value_hash
from .finding import Severity
from .plain_model import PlainModel
from .work_budget import WORK_LIMIT

if TYPE_CHECKING:
    from pydantic import ValidationError

CONFIG_FILE = ".auditex.toml"


class ConfigError(ValueError):
    """`.auditex.toml` is unreadable or invalid; the message names the key and a likely fix."""


class InvalidSettings(ValueError):
    """Settings that do not validate; the message is the first error as the user wrote it."""


# pydantic's configuration of each table: a key no field reads is an error, not ignored.
_FORBID_EXTRA = {"extra": "forbid"}


@record
class RulesConfig(PlainModel):
    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    severity: dict[str, Severity] = field(default_factory=dict)
    exclude: list[str] = field(default_factory=list)
    min_severity: Severity | None = None
    # Items one unit of a rule may compare before the rule is skipped for the project (LIM001).
    work_limit: int = WORK_LIMIT
    __pydantic_config__ = _FORBID_EXTRA

    def __post_init__(self) -> None:
        if self.work_limit < 1:
            raise ValueError(f"work-limit is at least 1, not {self.work_limit}")


@record
class ProjectConfig(PlainModel):
    """[project]: which root files are checked, when detection would pick others."""

    root: str | None = None
    roots: list[str] = field(default_factory=list)
    __pydantic_config__ = _FORBID_EXTRA

    def named_roots(self) -> list[str]:
        return [*([self.root] if self.root else []), *(name for name in self.roots if name != self.root)]


class OneTailed(str, Enum):
    """When a one-tailed test may explain a reported p (STAT001)."""

    ANNOUNCED = "announced"  # when the text says "one-tailed", "one-sided" or "directional" anywhere
    ALWAYS = "always"  # every t, r and z test is one-tailed
    NEVER = "never"  # every test is two-tailed


@record
class StatisticsConfig(PlainModel):
    """`[statistics]`: how reported p-values are read (documented in `auditex rule STAT001`)."""

    alpha: float = 0.05
    p_equal_alpha_significant: bool = True
    one_tailed: OneTailed = OneTailed.ANNOUNCED
    __pydantic_config__ = _FORBID_EXTRA

    def __post_init__(self) -> None:
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha is between 0 and 1, not {self.alpha}")


@record
class RuleOptions:
    """`--select`, `--ignore` and `--min-severity`: the command line's word on `[rules]`."""

    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    min_severity: Severity | None = None


@record
class Config(PlainModel):
    project: ProjectConfig = field(default_factory=ProjectConfig)
    rules: RulesConfig = field(default_factory=RulesConfig)
    statistics: StatisticsConfig = field(default_factory=StatisticsConfig)
    # Sections read by other layers (the LLM pipeline, the server) as raw tables.
    llm: dict[str, Any] = field(default_factory=dict)
    online: dict[str, Any] = field(default_factory=dict)  # [online]: reference verification (analyzers/scholarly/resolver.py)
    # Problems found while loading, reported as findings rather than raised.
    problems: list[str] = field(default_factory=list)
    __pydantic_config__ = _FORBID_EXTRA
    never_dumped = frozenset({"problems"})

    @classmethod
    def of_settings(cls, data: dict[str, Any]) -> Config:
        """`data` (a `.auditex.toml` or the editor's settings) as a Config; InvalidSettings names its first error."""
        from pydantic import ValidationError  # only settings to read pay for pydantic

        try:
            return cls.model_validate(_field_names(data))
        except ValidationError as error:
            raise InvalidSettings(_first_error(error)) from None

    def is_excluded(self, file: str) -> bool:
        return any(fnmatch.fnmatch(file, pattern) for pattern in self.rules.exclude)

    def rule_settings(self) -> str:
        """The settings rules read (`[statistics]`, the work limit), as a digest: part of every cached rule result's key."""
        statistics = self.statistics
        return value_hash(((statistics.alpha, statistics.p_equal_alpha_significant, statistics.one_tailed.value), self.rules.work_limit))

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
            return Config.of_settings(data)
        except InvalidSettings as error:
            return self.model_copy(update={"problems": [*self.problems, f"invalid auditex settings: {error}"]})


# The tables whose keys are fields, written in the file with hyphens ("min-severity", "work-limit").
_TABLES: dict[str, type[PlainModel]] = {"rules": RulesConfig, "project": ProjectConfig, "statistics": StatisticsConfig}


def _field_name(key: str) -> str:
    return key.replace("-", "_")


def _written(name: str) -> str:
    """A field's name as `.auditex.toml` writes it."""
    return name.replace("_", "-")


def _field_names(data: dict[str, Any]) -> dict[str, Any]:
    """`data` with the keys of its tables spelled as their fields ("min-severity" is `min_severity`); the raw
    tables ([llm], [online]) and the keys inside a field's value (a code in `severity`) are left as written."""
    return {
        key: {_field_name(name): value for name, value in table.items()} if key in _TABLES and isinstance(table, dict) else table
        for key, table in data.items()
    }


def load_config(folder: Path, strict: bool = False) -> Config:
    """Read `.auditex.toml`. A broken file raises ConfigError when `strict` (the CLI: a usage
    error); otherwise (the editor, mid-typing) it yields defaults plus a problem."""
    path = folder / CONFIG_FILE
    if not path.is_file():
        return Config()
    try:
        text = path.read_text(encoding="utf-8")
        return Config.of_settings(tomllib.loads(text))
    except tomllib.TOMLDecodeError as error:
        problem = f"{CONFIG_FILE} could not be read: {_toml_problem(text, str(error))}"
    except (OSError, UnicodeDecodeError) as error:
        problem = f"{CONFIG_FILE} could not be read: {error}"
    except InvalidSettings as error:
        problem = f"{CONFIG_FILE} is invalid: {error}"
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
    location = [_written(str(part)) if index < 2 else str(part) for index, part in enumerate(first.get("loc", ()))]
    key = location[-1] if location else ""
    if first.get("type") in ("extra_forbidden", "unexpected_keyword_argument"):
        model = _TABLES.get(location[0], Config) if len(location) > 1 else Config
        known = [_written(each.name) for each in fields(model) if each.name != "problems"]  # type: ignore[arg-type]  # a dataclass
        where = f"key '{key}' in [{'.'.join(location[:-1])}]" if len(location) > 1 else f"table [{key}]"
        return f"unknown {where}{did_you_mean(key, known)}; known: {', '.join(known)}"
    if first.get("type") == "enum":
        value = str(first.get("input"))
        kind, choices = (
            ("setting", [t.value for t in OneTailed]) if location[:1] == ["statistics"] else ("severity", [s.value for s in Severity])
        )
        return f"{'.'.join(location)}: '{value}' is not a {kind}{did_you_mean(value.lower(), choices)}; use one of {', '.join(choices)}"
    message = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
    return f"{'.'.join(location)}: {message}"


def did_you_mean(word: str, choices: list[str]) -> str:
    """' (did you mean 'x'?)' for the closest choice, or '' when none is close."""
    import difflib  # only a misspelt setting pays for it

    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
