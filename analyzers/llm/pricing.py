"""What a call costs: USD per million input/output tokens, per model.

The default table holds list prices of common OpenAI and Anthropic models (checked late
2025; prices change, so users can override any row in their settings). A model that is
not in the table, such as a local one behind `--base-url`, costs 0.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from pydantic import BaseModel, ConfigDict, Field

from .provider import Usage


class Price(BaseModel):
    """USD per 1,000,000 tokens."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)


DEFAULT_PRICES: Mapping[str, Price] = MappingProxyType(
    {
        name: Price(input_per_mtok=inp, output_per_mtok=out)
        for name, (inp, out) in {
            "gpt-5": (1.25, 10.0),
            "gpt-5-mini": (0.25, 2.0),
            "gpt-5-nano": (0.05, 0.40),
            "gpt-4.1": (2.0, 8.0),
            "gpt-4.1-mini": (0.40, 1.60),
            "gpt-4.1-nano": (0.10, 0.40),
            "gpt-4o": (2.50, 10.0),
            "gpt-4o-mini": (0.15, 0.60),
            "o3": (2.0, 8.0),
            "o4-mini": (1.10, 4.40),
            "claude-opus-4-5": (5.0, 25.0),
            "claude-opus-4-1": (15.0, 75.0),
            "claude-opus-4": (15.0, 75.0),
            "claude-sonnet-4-5": (3.0, 15.0),
            "claude-sonnet-4": (3.0, 15.0),
            "claude-3-7-sonnet": (3.0, 15.0),
            "claude-haiku-4-5": (1.0, 5.0),
            "claude-3-5-haiku": (0.80, 4.0),
        }.items()
    }
)


def price_for(model: str, overrides: Mapping[str, Price] | None = None) -> Price | None:
    """The price row of `model`: an exact name, else the longest row it extends.

    Dated snapshots and point releases ("gpt-4o-mini-2024-07-18", "gpt-5.1",
    "claude-sonnet-4-5-20250929") share the price of the row they extend.
    """
    table = {**DEFAULT_PRICES, **(overrides or {})}
    if model in table:
        return table[model]
    extended = [name for name in table if model.startswith(name) and model[len(name)] in "-."]
    return table[max(extended, key=len)] if extended else None


def cost_of(usage: Usage, model: str, overrides: Mapping[str, Price] | None = None) -> float:
    price = price_for(model, overrides)
    if price is None:
        return 0.0
    return (usage.input_tokens * price.input_per_mtok + usage.output_tokens * price.output_per_mtok) / 1_000_000
