"""What a rule found, in words, before it is placed in the source.

As ruff's `Violation`, a rule's finding is a small value of its own type that owns its message,
the title of its fix, and the words its fingerprint keeps (so the finding survives edits that
move it). The rule decides where it is and how sure it is; `RuleContext.flag` makes the `Finding`.
A rule written as a unit (one module per code, see analyzers/rules/README.md) declares its
violation beside its check, so the message of a code is read and changed in one place.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

from ..latex.record import init_on_first_use, named


class Violation(ABC):
    @property
    @abstractmethod
    def message(self) -> str:
        """One line, as the editor shows it: what is wrong, with the values that show it."""

    @property
    def fix_title(self) -> str | None:
        """What the fix does, when the rule offers one ("Move the label after the caption")."""
        return None

    @property
    def identity(self) -> str:
        """The words that identify this finding wherever it moves; by default its message."""
        return self.message


V = TypeVar("V", bound=Violation)


@dataclass_transform(frozen_default=True)
def violation_type(cls: type[V]) -> type[V]:
    """A rule's violation as a frozen dataclass to mypy (see `latex.record`), without the equality, hash and repr
    nothing asks of a violation, and with its `__init__` compiled when the rule first finds one: over a hundred
    rules declare one, and a check of a paper builds a tenth of them."""
    return init_on_first_use(dataclass(init=False, eq=False, repr=False)(named(cls)))


class MisspelledKey(Violation):
    """A key no definition holds (a `\\ref` label, a `\\cite` key), whose fix puts the closest defined key in its place."""

    key: str
    closest: str | None

    @property
    def fix_title(self) -> str | None:
        return f"Replace `{self.key}` with `{self.closest}`" if self.closest else None

    @property
    def identity(self) -> str:
        return self.key
