"""A pattern compiled on first use answers as `re.compile`'s does, and compiles once."""

from __future__ import annotations

import gc
import importlib
import pkgutil
import re
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from auditex.latex.deferred_pattern import _FOLDS_TO_LOWER, DeferredPattern, required_literals

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


def test_the_literals_every_match_contains_one_of() -> None:
    assert required_literals(r"\\begin\s*\{table\}") == ({"{table}"}, False)
    assert required_literals(r"x(?=y)z\b") == ({"xz"}, False)  # what looks ahead or behind matches no text
    assert required_literals(r"(?<=abc)d") == ({"d"}, False)
    assert required_literals(r"\\(?:ref|eqref)\{") == ({"ref", "eqref"}, False)  # one of the branches
    assert required_literals(r"ab?c|abc") == ({"a"}, False)  # the parser takes the common "a" out
    assert required_literals(r"x{0,3}yz(?:w)+") == ({"yz"}, False)
    for none in (r"abc|", r"(?:abc)?", r"[ab]c*", r"(?i:bcd)", r"(ab)?\1", "|".join("abcdefghijklm")):
        assert required_literals(none) == (set(), False), none
    assert required_literals("ABC", re.LOCALE | re.ASCII) == (set(), False)


def test_a_case_insensitive_pattern_gives_its_literals_in_lower_case_without_i_or_s() -> None:
    assert required_literals(r"\bTable\s+\d", re.IGNORECASE) == ({"table"}, True)
    assert required_literals(r"(?i)\bsignificant(?-i:ly)") == ({"cantly"}, True)
    assert required_literals(r"(?i)Kelvin|Celsius") == ({"kelv", "cel"}, True)


def test_the_characters_lowered_for_a_case_insensitive_literal_match_only_what_lowers_to_them() -> None:
    every_character = "".join(map(chr, range(sys.maxunicode + 1)))
    for character in _FOLDS_TO_LOWER:
        matches = re.findall(re.escape(character), every_character, re.IGNORECASE)
        assert {match.lower() for match in matches} == {character.lower()}, character


def test_without_its_literal_the_pattern_answers_no_match_and_stays_uncompiled() -> None:
    deferred = DeferredPattern(r"\\cite\{(\w+)\}")
    text = "No citation in this sentence."
    assert deferred.search(text) is None and list(deferred.finditer(text)) == []
    assert (deferred.sub("X", text), deferred.subn("X", text), deferred.split(text)) == (text, (text, 0), [text])
    assert deferred.findall(text) == [] and "compiled" not in vars(deferred)
    assert deferred.search(r"see \cite{x} and", 0, 8) is None and "compiled" not in vars(deferred)
    assert deferred.findall(r"see \cite{x}") == ["x"] and "compiled" in vars(deferred)


def _patterns_of_the_code_base() -> list[DeferredPattern]:
    import auditex

    for module in pkgutil.walk_packages(auditex.__path__, "auditex."):
        importlib.import_module(module.name)
    found = {(o.pattern, o.flags) for o in gc.get_objects() if isinstance(o, DeferredPattern)}
    return [DeferredPattern(pattern, flags) for pattern, flags in sorted(found)]


def _sentences() -> list[str]:
    rules = Path(__file__).parent / "rules"
    return [line for path in sorted(rules.glob("*/*.tex")) for line in path.read_text().splitlines() if line.strip()]


def _answers(pattern: DeferredPattern | re.Pattern[str], text: str) -> list[object]:
    def spans(found: Iterable[re.Match[str] | None]) -> list[object]:
        return [m and (m.span(), m.groups()) for m in found]

    middle = len(text) // 2
    return [
        spans([pattern.search(text), pattern.match(text), pattern.fullmatch(text), pattern.search(text, middle, -1)]),
        spans([pattern.search(text, -3, middle), pattern.match(text, middle)]),
        spans(pattern.finditer(text)),
        spans(pattern.finditer(text, 1, len(text) - 1)),
        pattern.findall(text),
        pattern.sub("<>", text),
        pattern.subn(lambda m: m.group().upper(), text, 2),
        pattern.split(text),
    ]


def test_every_method_of_the_code_base_patterns_answers_as_re_compile_on_real_sentences() -> None:
    sentences, patterns = _sentences(), _patterns_of_the_code_base()
    with_literal = [p for p in patterns if required_literals(p.pattern, p.flags)[0]]
    assert len(with_literal) > 150 and len(sentences) > 1000
    pairs, absent = 0, 0
    for index, pattern in enumerate(with_literal):
        literals, folded = required_literals(pattern.pattern, pattern.flags)
        holding = [s for s in sentences if any(literal in (s.lower() if folded else s) for literal in literals)][:2]
        for text in [*holding, *sentences[index * 7 : index * 7 + 3]]:
            fresh = DeferredPattern(pattern.pattern, pattern.flags)
            assert _answers(fresh, text) == _answers(re.compile(pattern.pattern, pattern.flags), text), (pattern.pattern, text)
            pairs, absent = pairs + 1, absent + ("compiled" not in vars(fresh))
    assert pairs > 700 and absent > 300  # both paths are exercised
