"""ARI: the arithmetic a sentence states about its own numbers (shares, changes, parts of a whole) and about a cited table (factors)."""

from .parts_of_whole import parts_not_whole
from .ratio_claim import ratio_claim_mismatch
from .share_of_count import share_of_count_mismatch
from .stated_change import stated_change_mismatch

__all__ = ["parts_not_whole", "ratio_claim_mismatch", "share_of_count_mismatch", "stated_change_mismatch"]
