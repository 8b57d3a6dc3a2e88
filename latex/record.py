"""A frozen dataclass as the type checker sees it, without the run-time guard that costs each class three execs.

A frozen dataclass compiles `__setattr__` and `__delattr__` that refuse every assignment, and its
`__init__` sets each field through `object.__setattr__`: some two hundred records and violations
pay that at import (about 0.2 ms a class), and every record built pays the slower `__init__`. A
`record` is declared frozen to mypy (`frozen_default`), which rejects an assignment to a field as
it does on a frozen dataclass; equality and hash are a frozen dataclass's (from the fields, or the
object's own with `eq=False`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar, dataclass_transform, overload

T = TypeVar("T")


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, eq: bool = True, slots: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True)
def record(cls: type[T] | None = None, /, *, eq: bool = True, slots: bool = False) -> type[T] | Callable[[type[T]], type[T]]:
    """`@dataclass(frozen=True)` to mypy; at run time a dataclass hashed by its fields as a frozen one is."""
    declare = dataclass(eq=eq, unsafe_hash=eq, slots=slots)
    return declare if cls is None else declare(cls)
