"""RHE: claims worded stronger than their evidence. Hints only, and few per paper."""

from .priority_claim import unsupported_priority_claim
from .significance_claim import significance_without_test

__all__ = ["significance_without_test", "unsupported_priority_claim"]
