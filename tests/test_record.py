"""A record compares, hashes and pickles as the frozen dataclass it stands for."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, fields, replace

from auditex.latex.record import record


@record
class Place:
    file: str
    line: int


@dataclass(frozen=True)
class FrozenPlace:
    file: str
    line: int


@record(slots=True)
class SlottedPlace:
    file: str
    line: int


@record(slots=True, eq=False)
class Marker:
    name: str


def test_equality_and_hash_are_a_frozen_dataclass_s() -> None:
    assert Place("a.tex", 3) == Place("a.tex", 3) != Place("a.tex", 4)
    assert hash(Place("a.tex", 3)) == hash(FrozenPlace("a.tex", 3)) == hash(SlottedPlace("a.tex", 3))
    assert len({Place("a.tex", 3), Place("a.tex", 3), Place("b.tex", 3)}) == 2
    assert [field.name for field in fields(SlottedPlace)] == ["file", "line"] and not hasattr(SlottedPlace("a", 1), "__dict__")


def test_without_equality_each_record_is_its_own() -> None:
    first, second = Marker("x"), Marker("x")
    assert first != second and len({first, second}) == 2 and first == first


def test_replace_and_pickle_keep_the_fields() -> None:
    moved = replace(SlottedPlace("a.tex", 3), line=9)
    assert moved == SlottedPlace("a.tex", 9)
    assert pickle.loads(pickle.dumps(moved)) == moved
    assert pickle.loads(pickle.dumps(Place("b.tex", 1))) == Place("b.tex", 1)
