"""A pattern compiled on first use answers as `re.compile`'s does, and compiles once."""

from __future__ import annotations

import re

import pytest

from auditex.latex.deferred_pattern import DeferredPattern

SOURCE = r"(?P<whole>\d+)(?:\.(?P<places>\d+))?"
TEXT = "From 12.5 to 7, then 100.25 and 3."


def test_answers_as_the_compiled_pattern() -> None:
    deferred, compiled = DeferredPattern(SOURCE), re.compile(SOURCE)
    assert [m.span() for m in deferred.finditer(TEXT)] == [m.span() for m in compiled.finditer(TEXT)]
    assert deferred.findall(TEXT) == compiled.findall(TEXT)
    found, expected = deferred.search(TEXT, 10), compiled.search(TEXT, 10)
    assert found is not None and expected is not None and found.span() == expected.span()
    assert deferred.match(TEXT) is None and deferred.fullmatch("12.5") is not None
    assert deferred.sub("N", TEXT) == compiled.sub("N", TEXT)
    assert deferred.split(TEXT, 1) == compiled.split(TEXT, 1)


def test_flags_and_source_are_kept_and_read_without_compiling() -> None:
    deferred = DeferredPattern(r"todo", re.IGNORECASE)
    assert (deferred.pattern, deferred.flags) == ("todo", re.IGNORECASE)
    assert "compiled" not in vars(deferred)
    assert deferred.search("A TODO here") is not None


def test_compiles_once_and_then_answers_with_the_compiled_methods() -> None:
    deferred = DeferredPattern(r"\d+")
    first = deferred.compiled()
    assert deferred.compiled() is first
    assert deferred.search == first.search  # the bound method itself, no call in between
    assert deferred.finditer("a 1 b 22").__class__ is first.finditer("").__class__


def test_a_bad_pattern_fails_when_used_with_re_error() -> None:
    deferred = DeferredPattern(r"(unclosed")
    with pytest.raises(re.error):
        deferred.search("x")
