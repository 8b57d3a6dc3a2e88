"""DRF: manuscript hygiene that changes what a reader sees (draft placeholders, float numbers)."""

from .label_before_caption import label_before_caption
from .placeholders import draft_placeholder

__all__ = ["draft_placeholder", "label_before_caption"]
