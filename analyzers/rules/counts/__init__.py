"""CNT: a stated count ("five datasets", "Table 3 lists the top 10 genes") against the things actually listed."""

from .count_mismatch import count_mismatch
from .declared_floats import declared_float_count
from .repeated_item import repeated_list_item
from .table_count import table_count_mismatch
from .table_panels import table_panels_mismatch
from .whole_count import whole_count_restated

__all__ = [
    "count_mismatch",
    "declared_float_count",
    "repeated_list_item",
    "table_count_mismatch",
    "table_panels_mismatch",
    "whole_count_restated",
]
