"""DRF: manuscript hygiene that changes what a reader sees (draft placeholders, float numbers)."""

from .float_numbers import hand_numbered_float
from .label_before_caption import label_before_caption
from .placeholders import draft_placeholder

__all__ = ["draft_placeholder", "hand_numbered_float", "label_before_caption"]
