"""CNT: a stated count ("five datasets", "Table 3 lists the top 10 genes") against the things actually listed."""

from .count_mismatch import count_mismatch
from .table_count import table_count_mismatch

__all__ = ["count_mismatch", "table_count_mismatch"]
