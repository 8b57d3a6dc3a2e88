"""DRF: manuscript hygiene that changes what a reader sees (draft placeholders, float numbers)."""

from .hand_numbered import hand_numbered_reference
from .label_before_caption import label_before_caption
from .placeholders import draft_placeholder

__all__ = ["draft_placeholder", "hand_numbered_reference", "label_before_caption"]
