"""REF: cross-references between \\ref-like commands and \\label."""

from .duplicate_label import duplicate_label
from .undefined_reference import undefined_reference
from .unused_label import unused_label

__all__ = ["duplicate_label", "undefined_reference", "unused_label"]
