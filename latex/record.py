"""A frozen dataclass as the type checker sees it, without the run-time guard that costs each class three execs.

A frozen dataclass compiles `__setattr__` and `__delattr__` that refuse every assignment, and its
`__init__` sets each field through `object.__setattr__`: some two hundred records and violations
pay that at import (about 0.2 ms a class), and every record built pays the slower `__init__`. A
`record` is declared frozen to mypy (`frozen_default`), which rejects an assignment to a field as
it does on a frozen dataclass; equality and hash are a frozen dataclass's (from the fields, or the
object's own with `eq=False`).

`__eq__`, `__hash__` and `__repr__` are shared functions that read a class's fields through an
`attrgetter` made once per class: they return what a dataclass's generated ones return (the same
tuples compared and hashed, the same text), without the three more execs a dataclass pays for each
class at import. `__init__`, the one method a dataclass must compile per class, is compiled when
the class is first built (`init_on_first_use`): a check builds about a third of the three hundred
records and violations it imports (a violation only when its rule finds something), and compiling
is most of what declaring a dataclass costs.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, TypeVar, cast, dataclass_transform, overload

T = TypeVar("T")


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, eq: bool = True, slots: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True)
def record(cls: type[T] | None = None, /, *, eq: bool = True, slots: bool = False) -> type[T] | Callable[[type[T]], type[T]]:
    """`@dataclass(frozen=True)` to mypy; at run time a dataclass hashed by its fields as a frozen one is."""

    def declare(cls: type[T]) -> type[T]:
        declared: Any = init_on_first_use(dataclass(init=False, eq=False, repr=False, slots=slots)(named(cls)))
        every = fields(declared)
        if _unset(declared, "__repr__"):
            declared.__repr__ = _repr
            declared.__record_shown__ = tuple(field.name for field in every if field.repr)
        if eq and _unset(declared, "__eq__"):
            declared.__eq__ = _eq
            declared.__record_compared__ = _values([field.name for field in every if field.compare])
        if eq and _unset(declared, "__hash__"):
            declared.__hash__ = _hash
            hashed = [field.name for field in every if (field.compare if field.hash is None else field.hash)]
            declared.__record_hashed__ = _values(hashed)
        return cast(type[T], declared)

    return declare if cls is None else declare(cls)


def named(cls: type[T]) -> type[T]:
    """`cls`, documented by its name when it has no docstring: a dataclass documents such a class by
    its signature, which `inspect` reads at some 0.2 ms a class."""
    if not cls.__doc__:
        cls.__doc__ = cls.__name__
    return cls


def init_on_first_use(cls: type[T]) -> type[T]:
    """`cls`, a dataclass declared with `init=False`, given the `__init__` a dataclass compiles for it
    when its first instance is built."""
    declared: Any = cls

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        # A dataclass of a subclass adding no fields compiles the __init__ of `cls`'s own fields,
        # defaults and __post_init__; it refers to neither class.
        fielded: Any = dataclass(eq=False, repr=False, match_args=False)(
            type(cls.__name__, (cls,), {"__doc__": cls.__doc__, "__slots__": ()})
        )
        compiled = vars(fielded)["__init__"]
        compiled.__qualname__ = f"{cls.__qualname__}.__init__"
        declared.__init__ = compiled
        compiled(self, *args, **kwargs)

    declared.__init__ = __init__
    return cls


def _unset(cls: type, method: str) -> bool:
    """Whether the class leaves `method` to the decorator, as a dataclass reads it (a class that defines
    `__eq__` alone has `__hash__` set to None, which a dataclass replaces)."""
    return cls.__dict__.get(method) is None


def _values(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The fields' values as one tuple, as a dataclass's generated methods build it."""
    if not names:
        return lambda _: ()
    if len(names) == 1:
        single = attrgetter(names[0])
        return lambda value: (single(value),)
    return attrgetter(*names)


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        values = self.__class__.__record_compared__
        return values(self) == values(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self.__class__.__record_hashed__(self))


@reprlib.recursive_repr()
def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__record_shown__)
    return f"{self.__class__.__qualname__}({shown})"
