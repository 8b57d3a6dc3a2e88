"""pydantic's model API (`model_copy`, `model_dump`, `model_validate`) on plain dataclasses.

A finding and the project's configuration are built on every check, and read or written from outside
only at its edges: a cache, a JSON report, an LLM's answer, `.auditex.toml`. As pydantic models they
cost every `auditex check` pydantic's import and the building of their validators, 0.5 G of the 8.4 G
instructions of a cold check of a 176 KB paper (valgrind), though the check validates nothing. As
dataclasses with this API, pydantic builds a type's validator and serializer (a `TypeAdapter`) the
first time data crosses an edge, and a check that prints text never imports it.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self

if TYPE_CHECKING:
    from pydantic import TypeAdapter


class PlainModel:
    """A dataclass read and written as a pydantic model is: validated from data by `model_validate`,
    written out by `model_dump`, with pydantic's rules for each field's type."""

    __slots__ = ()
    # Fields never written out (pydantic's `Field(exclude=True)`).
    never_dumped: ClassVar[frozenset[str]] = frozenset()

    def model_copy(self, *, update: Mapping[str, Any] | None = None) -> Self:
        return replace(self, **(update or {}))  # type: ignore[type-var]  # every subclass is a dataclass

    def model_dump(
        self, *, mode: Literal["python", "json"] = "python", exclude: Set[str] = frozenset(), exclude_none: bool = False
    ) -> dict[str, Any]:
        dumped: dict[str, Any] = adapter(type(self)).dump_python(
            self, mode=mode, exclude=set(exclude | self.never_dumped) or None, exclude_none=exclude_none
        )
        return dumped

    def model_dump_json(self) -> str:
        return adapter(type(self)).dump_json(self, exclude=set(self.never_dumped) or None).decode()

    @classmethod
    def model_validate(cls, data: Any) -> Self:
        """`data` as this type, checked and converted as pydantic does (raises pydantic's ValidationError)."""
        validated: Self = adapter(cls).validate_python(data)
        return validated


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def adapter(cls: Any) -> TypeAdapter[Any]:
    """pydantic's validator and serializer of `cls` (a dataclass, or a type built of them), made once."""
    made = _ADAPTERS.get(cls)
    if made is None:
        from pydantic import TypeAdapter  # the edges pay for pydantic; a check does not

        made = _ADAPTERS[cls] = TypeAdapter(cls)
    return made
