"""What a call used (`Usage`, as the providers report it) and what it costs: USD per million tokens,
per model, with the providers' prompt-cache rates.

The one price table of auditex. Each row gives the base input rate, the rate of input
tokens read from the provider's prompt cache, the rate of input tokens written to it,
and the output rate (list prices checked late 2025; prices change, so users can override
any row in their settings, `[llm.prices]`).

- OpenAI caches a repeated prompt prefix by itself and bills the cached tokens at the
  model's cached-input rate: 50% of the base rate for gpt-4o, 25% for gpt-4.1, o3 and
  o4-mini, 10% for gpt-5. Writing the cache costs nothing extra.
- Anthropic caches a prefix only up to a `cache_control` breakpoint: a cache read costs
  0.1x the base input rate, a cache write (5-minute cache) 1.25x.

A row given without cache rates (an override for a local model) bills cached tokens at the
base rate. A model that is not in the table, such as a local one behind `--base-url`, is unpriced:
its calls count as $0 and the report says "unpriced". So is a model named by default at a `--base-url`
(the server serves its own model whatever the name), unless a price is configured for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field

ANTHROPIC_CACHE_READ = 0.1
ANTHROPIC_CACHE_WRITE = 1.25


class Usage(BaseModel):
    input_tokens: int = Field(default=0, description="the whole prompt, cached parts included")
    output_tokens: int = 0
    cache_read_tokens: int = Field(default=0, description="of input_tokens: read from the provider's prompt cache")
    cache_write_tokens: int = Field(default=0, description="of input_tokens: written to it (Anthropic bills these extra)")

    @property
    def uncached_input_tokens(self) -> int:
        return max(0, self.input_tokens - self.cache_read_tokens - self.cache_write_tokens)


class Price(BaseModel):
    """USD per 1,000,000 tokens."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)
    cached_input_per_mtok: float | None = Field(default=None, ge=0, description="None = input_per_mtok")
    cache_write_per_mtok: float | None = Field(default=None, ge=0, description="None = input_per_mtok")

    def input_cost(self, usage: Usage) -> float:
        """What the prompt of one call is billed, cache reads and writes at their own rates."""
        cached = self.input_per_mtok if self.cached_input_per_mtok is None else self.cached_input_per_mtok
        written = self.input_per_mtok if self.cache_write_per_mtok is None else self.cache_write_per_mtok
        return (
            usage.uncached_input_tokens * self.input_per_mtok + usage.cache_read_tokens * cached + usage.cache_write_tokens * written
        ) / 1_000_000

    def output_cost(self, usage: Usage) -> float:
        return usage.output_tokens * self.output_per_mtok / 1_000_000


def _openai(base: float, cached: float, output: float) -> Price:
    return Price(input_per_mtok=base, cached_input_per_mtok=cached, cache_write_per_mtok=base, output_per_mtok=output)


def _anthropic(base: float, output: float) -> Price:
    return Price(
        input_per_mtok=base,
        cached_input_per_mtok=round(base * ANTHROPIC_CACHE_READ, 6),
        cache_write_per_mtok=round(base * ANTHROPIC_CACHE_WRITE, 6),
        output_per_mtok=output,
    )


DEFAULT_PRICES: Mapping[str, Price] = MappingProxyType(
    {
        # OpenAI: input, cached input, output
        "gpt-5": _openai(1.25, 0.125, 10.0),
        "gpt-5-mini": _openai(0.25, 0.025, 2.0),
        "gpt-5-nano": _openai(0.05, 0.005, 0.40),
        "gpt-4.1": _openai(2.0, 0.50, 8.0),
        "gpt-4.1-mini": _openai(0.40, 0.10, 1.60),
        "gpt-4.1-nano": _openai(0.10, 0.025, 0.40),
        "gpt-4o": _openai(2.50, 1.25, 10.0),
        "gpt-4o-mini": _openai(0.15, 0.075, 0.60),
        "o3": _openai(2.0, 0.50, 8.0),
        "o4-mini": _openai(1.10, 0.275, 4.40),
        # Anthropic: input, output (cache read 0.1x and write 1.25x of input)
        "claude-opus-4-6": _anthropic(5.0, 25.0),
        "claude-opus-4-5": _anthropic(5.0, 25.0),
        "claude-opus-4-1": _anthropic(15.0, 75.0),
        "claude-opus-4": _anthropic(15.0, 75.0),
        "claude-sonnet-4-6": _anthropic(3.0, 15.0),
        "claude-sonnet-4-5": _anthropic(3.0, 15.0),
        "claude-sonnet-4": _anthropic(3.0, 15.0),
        "claude-3-7-sonnet": _anthropic(3.0, 15.0),
        "claude-haiku-4-5": _anthropic(1.0, 5.0),
        "claude-3-5-haiku": _anthropic(0.80, 4.0),
    }
)


def price_for(model: str, overrides: Mapping[str, Price] | None = None, listed: bool = True) -> Price | None:
    """The price row of `model`: an exact name, else the longest row it extends (`listed`: in the list
    prices too, else in the `overrides` alone).

    Dated snapshots and point releases ("gpt-4o-mini-2024-07-18", "gpt-5.1",
    "claude-sonnet-4-5-20250929") share the price of the row they extend.
    """
    table = {**(DEFAULT_PRICES if listed else {}), **(overrides or {})}
    if model in table:
        return table[model]
    extended = [name for name in table if model.startswith(name) and model[len(name)] in "-."]
    return table[max(extended, key=len)] if extended else None


def cost_of(usage: Usage, model: str, overrides: Mapping[str, Price] | None = None, listed: bool = True) -> float:
    price = price_for(model, overrides, listed)
    return 0.0 if price is None else price.input_cost(usage) + price.output_cost(usage)
