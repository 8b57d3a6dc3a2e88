"""CIT: citations and bibliography entries."""

from .duplicate_key import duplicate_bibliography_key
from .duplicate_reference import duplicate_reference
from .missing_bibliography import missing_bibliography
from .repeated_field import repeated_bibliography_field
from .undefined_citation import undefined_citation
from .unparsable_entry import unparsable_bibliography_entry
from .unused_entry import unused_bibliography_entry

__all__ = [
    "duplicate_bibliography_key",
    "duplicate_reference",
    "missing_bibliography",
    "repeated_bibliography_field",
    "undefined_citation",
    "unparsable_bibliography_entry",
    "unused_bibliography_entry",
]
