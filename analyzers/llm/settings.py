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
from .pricing import Price, price_for

ProviderName = Literal["openai", "anthropic"]
Effort = Literal["minimal", "low", "medium", "high"]

# Per mode: a cheap, fast model for the single pass; the strongest reasoning models for the rest,
# where Zhang & Abernethy and PaperAudit found them best (claude-sonnet-4-5 reaches its end of
# life on 2026-11-30). Standard, deep and critical share their model with the verifier, so every
# call of an audit reads the paper from one prompt cache (a cache holds one model's prefixes).
DEFAULT_MODELS: Mapping[ProviderName, Mapping[str, str]] = {
    "openai": {"fast": "gpt-4.1-mini", "standard": "gpt-5", "deep": "gpt-5", "critical": "gpt-5"},
    "anthropic": {
        "fast": "claude-haiku-4-5",
        "standard": "claude-sonnet-4-6",
        "deep": "claude-sonnet-4-6",
        "critical": "claude-sonnet-4-6",
    },
}
# The default verifier within one provider: a reasoning model, never the small fast model checking
# its own findings.
DEFAULT_VERIFIERS: Mapping[ProviderName, str] = {"openai": "gpt-5", "anthropic": "claude-sonnet-4-6"}
# Models that reason before they answer: OpenAI's o-series and gpt-5 family, and the Claude models
# with extended thinking. Others (a local server's model) say so with `reasoning = true`.
_REASONING_PREFIXES: Mapping[ProviderName, tuple[str, ...]] = {
    "openai": ("o1", "o3", "o4", "gpt-5"),
    "anthropic": ("claude-3-7-sonnet", "claude-sonnet-4", "claude-opus-4", "claude-haiku-4-5"),
}
# Context windows in tokens, by model name prefix (longest first wins); others: DEFAULT_CONTEXT_WINDOW.
CONTEXT_WINDOWS: Mapping[str, int] = {
    "gpt-4.1": 1_047_576,
    "gpt-5": 400_000,
    "o3": 200_000,
    "o4": 200_000,
    "o1": 200_000,
    "gpt-4o": 128_000,
    "claude": 200_000,
}
DEFAULT_CONTEXT_WINDOW = 128_000
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
    reasoning: bool | None = Field(default=None, description="the model reasons before answering; None = known by its name")
    context_window: int | None = Field(default=None, ge=1, description="the model's context window in tokens; None = known by name")
    verifier_provider: str | None = Field(default=None, description="one provider or several, comma-separated (a panel); None = provider")
    verifier_model: str = Field(
        default="", description="one model or several, comma-separated (a panel); empty = the provider's default verifier"
    )
    verifier_base_url: str | None = Field(default=None, description="None = base_url for the same provider, else the vendor")
    max_findings_per_unit: int = Field(
        default=5, ge=1, description="findings one detection call may return at least, best first (see AuditRun.allowed)"
    )
    max_findings_per_section: int = Field(default=3, ge=1, description="verified LLM findings kept per section, best first")
    max_findings: int = Field(default=10, ge=1, description="verified LLM findings kept per paper, best first")
    json_response_format: bool | None = Field(
        default=None, description="enforce JSON answers with OpenAI's response_format (json_schema, else json_object); False = never"
    )
    prices: dict[str, Price] = Field(default_factory=dict, description="overrides of pricing.DEFAULT_PRICES")
    list_prices: bool = Field(
        default=True, description="priced by pricing.DEFAULT_PRICES too; False: a model named by default at a base_url (prices alone)"
    )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **fields: Any) -> LLMSettings:
        """Settings from `fields` (flags, config) with the API key taken from `env` (default: os.environ)."""
        if "api_key" in fields:
            raise ValueError(f"API keys come from the environment only ({', '.join(key_env_names())}).")
        settings = cls(**fields)
        key = (os.environ if env is None else env).get(settings.key_env)
        return settings.model_copy(update={"api_key": SecretStr(key) if key else None})

    def for_mode(self, mode: str) -> LLMSettings:
        """These settings with the mode's default model when none was chosen, and a reasoning model's default budget."""
        settings = self if self.model else self.model_copy(update={"model": DEFAULT_MODELS[self.provider][mode], **self._defaulted()})
        return settings.with_reasoning_defaults()

    def _defaulted(self) -> dict[str, bool]:
        """What a model named by default changes: at a base_url the server serves its own model, whatever
        the name, so the vendor's list price is not its price."""
        return {"list_prices": False} if self.base_url is not None else {}

    def price(self) -> Price | None:
        return price_for(self.model, self.prices, self.list_prices)

    def with_reasoning_defaults(self) -> LLMSettings:
        """A reasoning model with no effort or thinking budget given gets the default one: without it, its
        own default reasoning spends an answer's budget and the answer is cut off."""
        if not self.reasons:
            return self
        if self.provider == "openai" and self.reasoning_effort is None:
            return self.model_copy(update={"reasoning_effort": DEFAULT_EFFORT})
        if self.provider == "anthropic" and self.thinking_budget is None:
            return self.model_copy(update={"thinking_budget": DEFAULT_THINKING_BUDGET})
        return self

    @property
    def reasons(self) -> bool:
        if self.reasoning is not None:
            return self.reasoning
        return self.model.startswith(_REASONING_PREFIXES[self.provider])

    @property
    def window(self) -> int:
        """The model's context window in tokens."""
        if self.context_window is not None:
            return self.context_window
        known = [prefix for prefix in CONTEXT_WINDOWS if self.model.startswith(prefix)]
        return CONTEXT_WINDOWS[max(known, key=len)] if known else DEFAULT_CONTEXT_WINDOW

    def verifiers(self, mode: str, env: Mapping[str, str] | None = None) -> list[LLMSettings]:
        """The verification stage's panel: one settings per named model (or provider), paired in order.

        Unnamed, it is the provider's default verifier (a reasoning model), or the detector's model when
        the user named one. The paper goes to another provider only when the user names it.
        """
        providers = [p.strip() for p in (self.verifier_provider or "").split(",") if p.strip()]
        models = [m.strip() for m in self.verifier_model.split(",") if m.strip()]
        panel = []
        for n in range(max(1, len(providers), len(models))):
            provider = providers[n] if n < len(providers) else (providers[-1] if providers else self.provider)
            model = models[n] if n < len(models) else ""
            panel.append(self._verifier(provider, model, env))  # type: ignore[arg-type]
        return panel

    def _verifier(self, provider: ProviderName, model: str, env: Mapping[str, str] | None) -> LLMSettings:
        base_url = self.verifier_base_url or (self.base_url if provider == self.provider else None)
        fields = self.model_dump(exclude={"api_key", "verifier_provider", "verifier_model", "verifier_base_url"})
        listed = True
        if not model and self.model and provider == self.provider:  # the detector's model is the one a local server serves
            model, listed = self.model, self.list_prices
        elif not model:
            model, listed = DEFAULT_VERIFIERS[provider], base_url is None
        fields.update(provider=provider, base_url=base_url, model=model, list_prices=listed)
        if provider != self.provider:  # another vendor's budgets mean nothing there
            fields.update(reasoning_effort=None, thinking_budget=None, reasoning=None)
        verifier = LLMSettings.from_env(env, **fields)
        if verifier.api_key is None and verifier.key_env == self.key_env:
            verifier = verifier.model_copy(update={"api_key": self.api_key})
        return verifier.with_reasoning_defaults()

    @property
    def output_budget(self) -> int:
        """The output tokens a request may use: the answer's, plus what reasoning may spend first."""
        if self.provider == "anthropic":
            return self.max_output_tokens + (self.thinking_budget or 0)
        return self.max_output_tokens + (REASONING_ALLOWANCE[self.reasoning_effort] if self.reasoning_effort else 0)

    @field_validator("verifier_provider")
    @classmethod
    def _check_verifier_providers(cls, value: str | None) -> str | None:
        for provider in (value or "").split(","):
            if provider.strip() and provider.strip() not in KEY_ENV:
                raise ValueError(f"unknown verifier provider {provider.strip()!r}; use openai or anthropic (several: comma-separated)")
        return value

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
