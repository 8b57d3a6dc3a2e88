"""How auditex reaches an LLM: provider, model, server, limits, budget.

Everything here may come from flags, `.auditex.toml` or the LSP settings, except the
API key: that comes from the environment only (`LLMSettings.from_env`), so it never
lands in a config file, a cache key, a log line or an error message.

Key lookup:
- official OpenAI: OPENAI_API_KEY; official Anthropic: ANTHROPIC_API_KEY;
- any other server (`base_url` set): AUDITEX_API_KEY, or no key at all. The official
  keys are deliberately not sent to third-party servers.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from .errors import MissingKey, display_url
from .pricing import Price

ProviderName = Literal["openai", "anthropic"]
Effort = Literal["minimal", "low", "medium", "high"]

# Per mode: cheap, fast, JSON-capable models for the passes over every section; the strongest
# reasoning models for deep and critical, where Zhang & Abernethy and PaperAudit found them best
# (claude-sonnet-4-5 reaches its end of life on 2026-11-30: the Anthropic SDK warns of it).
DEFAULT_MODELS: Mapping[ProviderName, Mapping[str, str]] = {
    "openai": {"fast": "gpt-4.1-mini", "standard": "gpt-4.1-mini", "deep": "gpt-5", "critical": "gpt-5"},
    "anthropic": {"fast": "claude-haiku-4-5", "standard": "claude-haiku-4-5", "deep": "claude-sonnet-4-6", "critical": "claude-sonnet-4-6"},
}
REASONING_MODES = frozenset({"deep", "critical"})
# What a defaulted reasoning model is given: OpenAI's effort, Anthropic's thinking budget.
DEFAULT_EFFORT: Effort = "medium"
DEFAULT_THINKING_BUDGET = 8000
# Reasoning tokens count against OpenAI's max_completion_tokens: each effort gets this much on
# top of the answer's own max_output_tokens (o3 thinks ~3.2k tokens per paper; Gemini 14-18k).
REASONING_ALLOWANCE: Mapping[str, int] = {"minimal": 1024, "low": 4096, "medium": 16384, "high": 32768}
OFFICIAL_URLS: Mapping[ProviderName, str] = {"openai": "https://api.openai.com/v1", "anthropic": "https://api.anthropic.com"}
KEY_ENV: Mapping[ProviderName, str] = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
LOCAL_KEY_ENV = "AUDITEX_API_KEY"
# Sent to keyless local servers: the SDKs insist on some key.
PLACEHOLDER_KEY = "not-needed"


class LLMSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: ProviderName = "openai"
    model: str = Field(default="", description="empty = DEFAULT_MODELS[provider][mode] (`for_mode`)")
    base_url: str | None = Field(default=None, description="None = the vendor's endpoint; else any compatible server")
    api_key: SecretStr | None = Field(default=None, exclude=True, repr=False)
    timeout_s: float = Field(default=120.0, gt=0, description="how long the server may stay silent (per read)")
    max_retries: int = Field(default=4, ge=0, description="retries after the first attempt")
    retry_base_s: float = Field(default=1.0, ge=0, description="first backoff delay; doubles per retry")
    overall_time_limit_s: float = Field(default=600.0, gt=0, description="per complete(), retries included")
    concurrency: int = Field(default=8, ge=1)
    budget_usd: float | None = Field(default=None, ge=0, description="None = unlimited")
    stream: bool = False
    temperature: float | None = Field(default=0.0, ge=0, le=2, description="None = the model's default")
    max_output_tokens: int = Field(default=4096, ge=1, description="the answer's own tokens; reasoning comes on top")
    reasoning_effort: Effort | None = Field(default=None, description="OpenAI reasoning models: sent as reasoning_effort")
    thinking_budget: int | None = Field(default=None, ge=1024, description="Anthropic: extended thinking's budget_tokens")
    verifier_provider: ProviderName | None = Field(default=None, description="None = provider")
    verifier_model: str = Field(default="", description="empty = the detecting model (another provider: its default)")
    verifier_base_url: str | None = Field(default=None, description="None = base_url for the same provider, else the vendor")
    max_findings_per_section: int = Field(default=3, ge=1, description="verified LLM findings kept per section, best first")
    json_response_format: bool | None = Field(
        default=None, description="send OpenAI response_format=json_object; None = only to the official endpoint"
    )
    prices: dict[str, Price] = Field(default_factory=dict, description="overrides of pricing.DEFAULT_PRICES")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **fields: Any) -> LLMSettings:
        """Settings from `fields` (flags, config) with the API key taken from `env` (default: os.environ)."""
        if "api_key" in fields:
            raise ValueError(f"API keys come from the environment only ({', '.join(key_env_names())}).")
        settings = cls(**fields)
        key = (os.environ if env is None else env).get(settings.key_env)
        return settings.model_copy(update={"api_key": SecretStr(key) if key else None})

    def for_mode(self, mode: str) -> LLMSettings:
        """These settings with the mode's default model (and its reasoning setting) when none was chosen."""
        if self.model:
            return self
        update: dict[str, Any] = {"model": DEFAULT_MODELS[self.provider][mode]}
        if mode in REASONING_MODES:
            if self.provider == "openai" and self.reasoning_effort is None:
                update["reasoning_effort"] = DEFAULT_EFFORT
            if self.provider == "anthropic" and self.thinking_budget is None:
                update["thinking_budget"] = DEFAULT_THINKING_BUDGET
        return self.model_copy(update=update)

    def verifier(self, mode: str, env: Mapping[str, str] | None = None) -> LLMSettings:
        """The settings of the verification stage: the detecting model unless another is named."""
        provider = self.verifier_provider or self.provider
        base_url = self.verifier_base_url or (self.base_url if provider == self.provider else None)
        if provider == self.provider and base_url == self.base_url and not self.verifier_model:
            return self.for_mode(mode)
        fields = self.model_dump(exclude={"api_key", "verifier_provider", "verifier_model", "verifier_base_url"})
        fields.update(provider=provider, base_url=base_url, model=self.verifier_model)
        if provider != self.provider:
            fields.update(reasoning_effort=None, thinking_budget=None)
        verifier = LLMSettings.from_env(env, **fields)
        if verifier.api_key is None and verifier.key_env == self.key_env:
            verifier = verifier.model_copy(update={"api_key": self.api_key})
        return verifier.for_mode(mode)

    @property
    def output_budget(self) -> int:
        """The output tokens a request may use: the answer's, plus what reasoning may spend first."""
        if self.provider == "anthropic":
            return self.max_output_tokens + (self.thinking_budget or 0)
        return self.max_output_tokens + (REASONING_ALLOWANCE[self.reasoning_effort] if self.reasoning_effort else 0)

    @field_validator("base_url", "verifier_base_url")
    @classmethod
    def _check_base_url(cls, url: str | None) -> str | None:
        if url is None or not url.strip():
            return None
        url = url.strip().rstrip("/")
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url must look like http://host:port/v1, got {display_url(url)!r}")
        return url

    @property
    def is_official(self) -> bool:
        """True when talking to the vendor itself rather than a compatible server."""
        if self.base_url is None:
            return True
        return urlsplit(self.base_url).hostname == urlsplit(OFFICIAL_URLS[self.provider]).hostname

    @property
    def endpoint(self) -> str:
        return self.base_url or OFFICIAL_URLS[self.provider]

    @property
    def key_env(self) -> str:
        return KEY_ENV[self.provider] if self.is_official else LOCAL_KEY_ENV

    def key_for_sdk(self) -> str:
        """The key to hand to the SDK; raises MissingKey when the vendor needs one and none is set."""
        if self.api_key is not None:
            return self.api_key.get_secret_value()
        if self.is_official:
            # Only whether another vendor's key is set is looked at, never its value.
            others = [
                f"--provider {name} (only {env} is set)" for name, env in KEY_ENV.items() if name != self.provider and os.environ.get(env)
            ]
            raise MissingKey(
                f"Set {self.key_env} in the environment to use the {self.provider} provider, "
                + "".join(f"pass {other}, " for other in others)
                + "or pass --base-url to use a local OpenAI-compatible server."
            )
        return PLACEHOLDER_KEY

    @property
    def secret(self) -> str | None:
        """The raw key, only for redacting it out of server messages."""
        return self.api_key.get_secret_value() if self.api_key is not None else None


def key_env_names() -> list[str]:
    return [*KEY_ENV.values(), LOCAL_KEY_ENV]
