"""CNT: a stated count ("five datasets") against the things actually listed."""

from .count_mismatch import count_mismatch

__all__ = ["count_mismatch"]
