"""DRF: manuscript hygiene that changes what a reader sees (draft placeholders, float numbers)."""

from .placeholders import draft_placeholder

__all__ = ["draft_placeholder"]
