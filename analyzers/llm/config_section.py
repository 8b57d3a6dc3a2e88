"""`[llm]` configuration (from `.auditex.toml`, flags or editor settings) as LLM settings and severity policy.

Shared by the CLI commands and the language server, so both read a config the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from .anchoring import SeverityPolicy
from .settings import LLMSettings

# Settings a config may give; the key never (LLMSettings.from_env refuses it).
CONFIGURABLE = frozenset(LLMSettings.model_fields) - {"api_key"}


# The editor's setting names (camelCase, vscode-client/contract.json), merged into `[llm]` by the server.
EDITOR_NAMES = {"baseUrl": "base_url", "budgetUsd": "budget_usd"}


def settings_from_config(config_llm: Mapping[str, Any], env: Mapping[str, str] | None = None, **overrides: Any) -> LLMSettings:
    """The one layering of LLM settings: `overrides` (flags; None = not given) over `[llm]` config (with the
    editor's settings in it) over defaults, the key from `env`.

    Raises ValueError with a readable message for an invalid value.
    """
    named = {EDITOR_NAMES.get(key, key): value for key, value in config_llm.items()}
    fields = {key: value for key, value in named.items() if key in CONFIGURABLE}
    fields.update({key: value for key, value in overrides.items() if value is not None})
    try:
        return LLMSettings.from_env(env, **fields)
    except ValidationError as error:
        first = error.errors()[0]
        raise ValueError(f"invalid LLM setting {'.'.join(map(str, first['loc']))}: {first['msg']}") from None


def severity_policy(config_llm: Mapping[str, Any]) -> SeverityPolicy:
    """`[llm.severity]`: levels = {major|moderate|minor = severity}, cap = {type = severity}."""
    try:
        return SeverityPolicy.model_validate(config_llm.get("severity", {}))
    except ValidationError as error:
        first = error.errors()[0]
        raise ValueError(f"invalid [llm.severity] setting {'.'.join(map(str, first['loc']))}: {first['msg']}") from None
