"""How much per-text work is memoised.

Rules, and the readers they share (apa_results.py, p_values.py), memoise per-block work by the
block's text (`functools.lru_cache(maxsize=TEXT_CACHE_SIZE)`), so re-running a project rule after
an edit re-reads only the edited blocks.
"""

TEXT_CACHE_SIZE = 8192
