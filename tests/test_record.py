"""A record compares, hashes and pickles as the frozen dataclass it stands for."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field, fields, replace

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


@record(slots=True)
class Measured:
    value: float
    notes: dict[str, int] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class FrozenMeasured:
    value: float
    notes: dict[str, int] = field(default_factory=dict, compare=False, repr=False)


@record
class Named:
    name: str

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Named) and other.name.lower() == self.name.lower()

    def __hash__(self) -> int:
        return hash(self.name.lower())


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


def test_repr_is_a_frozen_dataclass_s() -> None:
    assert repr(Place("a.tex", 3)) == "Place(file='a.tex', line=3)"
    assert (
        repr(Measured(0.5, {"a": 1})) == repr(FrozenMeasured(0.5, {"a": 1})).replace("FrozenMeasured", "Measured") == "Measured(value=0.5)"
    )
    assert repr(Marker("x")) == "Marker(name='x')"


def test_fields_left_out_of_comparison_are_left_out_of_equality_and_hash() -> None:
    assert Measured(0.5, {"a": 1}) == Measured(0.5, {}) and hash(Measured(0.5, {"a": 1})) == hash(FrozenMeasured(0.5))
    not_a_number = float("nan")
    assert Measured(not_a_number) == Measured(not_a_number) and FrozenMeasured(not_a_number) == FrozenMeasured(not_a_number)
    assert Place("a.tex", 3) != FrozenPlace("a.tex", 3) and Place("a.tex", 3) != SlottedPlace("a.tex", 3)


def test_a_record_s_own_equality_and_hash_are_kept() -> None:
    assert Named("Table") == Named("table") and hash(Named("Table")) == hash(Named("table"))
