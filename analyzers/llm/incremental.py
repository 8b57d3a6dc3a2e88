"""The re-run policy: what an edit costs.

Every LLM unit is a pure function of its request, and answers are cached by the
exact request (`client.cache_key`), so a unit whose input did not change costs
0 calls.

With the whole paper in every call (the default), every call reads the paper, so an
edit anywhere re-runs the audit's calls; what keeps a re-audit cheap there is the
provider's prompt cache of the unchanged prefix, not this policy. The rest of this
policy is the memory design's (a paper too long for the context window), where each
call reads a part. There, what remains is to keep inputs from changing needlessly:

1. **Memory** (standard, deep) is built per part (consecutive sections): part P's
   memory reads only P's blocks. An edit in P re-runs P's memory, and no other
   memory: the memory is re-run when, and only when, its inputs changed.
2. **Part reviews** read their own blocks (and the deterministic findings in
   them) plus the paper memory and the related passages. Both are context, not subject: a part
   whose own input is unchanged is reviewed against *the memory it was last
   reviewed with* (its basis, remembered here), so its answer comes from the
   cache and its findings keep their fingerprints. An edited part is
   reviewed against the current memory, which becomes its new basis.
   `refresh=True` (CLI `--refresh`) reviews every part against the current
   memory.
3. **Deep mode**: the planner reads the outline and the global memory under the
   same basis rule, keyed by the outline; a specialist re-runs when a block of its
   focus sections changed; an adjudication batch re-runs when its candidate
   findings changed (one call over findings, no paper text).
4. **Verification** reads the candidates and the blocks they quote: an unchanged
   candidate's verdict comes from the cache. A candidate that quotes other sections
   is verified with the current memory, not a basis: when the memory it was judged
   against changed, it is verified again.
5. **Fast and critical** are one unit over the whole paper (per chunk): any edit
   re-runs that chunk. Use standard mode for cheap re-audits while editing.

Known limit: block indices are global, so inserting or deleting a block shifts
the indices, and thus the inputs, of every later section (editing text inside
blocks does not).
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
from pathlib import Path

import diskcache

from .settings import LLMSettings

log = logging.getLogger(__name__)


class ReviewBasis:
    """The context (memory, plan) each unit was last run with, keyed by what the unit owns.

    Lives next to the answer cache (`<cache dir>/basis`); without a cache directory it
    is kept in memory for the process, which still serves repeated audits by the server.
    """

    def __init__(self, directory: Path | None) -> None:
        self._memory: dict[str, str] = {}
        self._store: diskcache.Cache | None = None
        if directory is not None:
            try:
                self._store = diskcache.Cache(str(directory / "basis"))
            except (sqlite3.Error, OSError) as exc:
                log.warning("Could not open the audit basis store in %s (%s); re-audits re-run more.", directory, type(exc).__name__)

    @staticmethod
    def key(settings: LLMSettings, prompt_version: str, unit_id: str, own_input: str) -> str:
        material = "\x1f".join((settings.provider, settings.model, settings.endpoint, prompt_version, unit_id, own_input))
        return hashlib.sha256(material.encode()).hexdigest()

    def recall(self, key: str) -> str | None:
        if key in self._memory:
            return self._memory[key]
        if self._store is None:
            return None
        try:
            value = self._store.get(key)
        except (sqlite3.Error, OSError, ValueError, EOFError):
            return None
        return value if isinstance(value, str) else None

    def remember(self, key: str, context: str) -> None:
        self._memory[key] = context
        if self._store is not None:
            try:
                self._store.set(key, context)
            except (sqlite3.Error, OSError):
                pass

    def forget(self, key: str) -> None:
        """A unit that failed keeps no basis, so the next run reviews it afresh."""
        self._memory.pop(key, None)
        if self._store is not None:
            try:
                self._store.delete(key)
            except (sqlite3.Error, OSError):
                pass

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
