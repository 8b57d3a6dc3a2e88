"""DRF: manuscript hygiene that changes what a reader sees (draft placeholders, float numbers)."""

from .author_notes import printed_author_note
from .cited_author import citation_names_another_author
from .copied_caption import copied_caption
from .described_float import hand_number_of_another_float
from .described_reference import reference_of_another_float
from .described_unit import hand_number_of_another_unit
from .draft_pages import draft_page_mark
from .hand_numbered import hand_numbered_reference
from .label_before_caption import label_before_caption
from .panel_subject import panel_of_another_subject
from .placeholders import draft_placeholder
from .reference_kind import reference_names_another_kind
from .respectively import respectively_swaps_floats

__all__ = [
    "citation_names_another_author",
    "copied_caption",
    "draft_page_mark",
    "draft_placeholder",
    "hand_number_of_another_float",
    "hand_number_of_another_unit",
    "hand_numbered_reference",
    "label_before_caption",
    "panel_of_another_subject",
    "printed_author_note",
    "reference_names_another_kind",
    "reference_of_another_float",
    "respectively_swaps_floats",
]
