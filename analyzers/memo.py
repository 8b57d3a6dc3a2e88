"""How much per-text and per-section work is memoised.

Rules, and the readers they share (apa_results.py, p_values.py), memoise per-block work by the
block's text (`functools.lru_cache(maxsize=TEXT_CACHE_SIZE)`), so re-running a project rule after
an edit re-reads only the edited blocks. A project rule that walks every block memoises its walk
per section (`SectionKey`): the manuscript hands on the Section objects an edit did not touch, in
text or place, so their blocks and offsets stand, and an edit walks the edited section alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from ..latex.manuscript import Section

T = TypeVar("T")

TEXT_CACHE_SIZE = 8192
# Each entry holds a section and its blocks: a book's sections, for a few projects, and no more.
SECTION_CACHE_SIZE = 1024


class Same(Generic[T]):
    """An object as a cache key by identity, whatever its contents compare equal to: hashing them would cost
    what the cache saves (one index's macros, which every section of a check asks about). Holding the object
    keeps its id unused."""

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.value is self.value


class SectionKey(Same["Section"]):
    """A section as a cache key: the same Section object is the same key."""

    __slots__ = ()

    @property
    def section(self) -> Section:
        return self.value
