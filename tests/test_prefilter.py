"""The cheap look before a case-blind pattern: it turns down only texts the pattern cannot match."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from auditex.analyzers.prefilter import may_match

RULES = Path(__file__).parent / "rules"


def test_a_text_is_turned_down_only_without_the_words_in_any_case():
    assert may_match("Unless STATED otherwise", ("unless",))
    assert may_match("By Default", ("default",))
    assert not may_match("We state it here, once.", ("unless", "default"))


def test_letters_the_case_blind_pattern_reads_as_i_or_s_are_never_turned_down():
    pattern = re.compile(r"\bunless\b|\bhipaa\b", re.IGNORECASE)
    for text in ("unleſs stated", "HİPAA compliant", "hıpaa compliant"):
        assert pattern.search(text), text
        assert may_match(text, ("unless", "hipaa")), text


def test_the_disclosure_finders_find_what_their_patterns_find_in_the_fixtures():
    ethics = importlib.import_module("auditex.analyzers.rules.disclosures.missing_ethics_statement")
    limitations = importlib.import_module("auditex.analyzers.rules.disclosures.missing_limitations")
    cases = [
        (ethics._HUMAN_SUBJECTS, ethics._human_subjects_in),
        (ethics._ETHICS, ethics._ethics_in),
        (limitations._LIMITATIONS, limitations._limitations_in),
    ]
    texts = [path.read_text(encoding="utf-8") for code in ("DIS001", "DIS003") for path in sorted((RULES / code).glob("*.tex"))]
    found = 0
    for pattern, find in cases:
        for text in texts:
            for paragraph in text.split("\n\n"):
                expected = [match.span() for match in pattern.finditer(paragraph)]
                assert [match.span() for match in find(paragraph)] == expected
                found += len(expected)
    assert found > 0
