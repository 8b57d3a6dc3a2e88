"""BIB: references verified against scholarly indexes (only with `auditex check --online` or the
`auditex.online` setting)."""

from .identifier_mismatch import identifier_mismatch
from .metadata_mismatch import reference_metadata_mismatch
from .published_preprint import preprint_has_published_version
from .reference_not_found import reference_not_found
from .retracted_reference import retracted_reference

__all__ = [
    "identifier_mismatch",
    "preprint_has_published_version",
    "reference_metadata_mismatch",
    "reference_not_found",
    "retracted_reference",
]
