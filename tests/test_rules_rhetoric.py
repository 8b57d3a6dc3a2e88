"""RHE rules: unqualified priority claims and 'significantly' without a test."""

from auditex.analyzers.engine import Engine
from auditex.analyzers.registry import Registry, rules_in
from auditex.analyzers.rules import rhetoric

from helpers import document, make_project


def found(tmp_path, body):
    project = make_project(tmp_path, {"main.tex": document("\\section{Introduction}\n" + body)})
    results = Engine(registry=Registry(rules_in(rhetoric))).check(project)
    assert all(f.severity.value == "hint" for f in results)
    return [(f.code, f.message) for f in results]


def test_unqualified_priority_claims(tmp_path):
    results = found(tmp_path, "We are the first to align actions with tokens. Our model achieves a new state-of-the-art on ALFRED.")
    assert [code for code, _ in results] == ["RHE001", "RHE001"]


def test_hedged_cited_or_quantified_claims_pass(tmp_path):
    body = (
        "To our knowledge, we are the first to align actions with tokens. "
        "Our model achieves state-of-the-art accuracy of 91.2 on ALFRED. "
        "Prior work \\cite{x} was the first method to do so. "
        "It is the first projection of the pair.\n"
    )
    assert found(tmp_path, body) == []


def test_at_most_three_per_paper(tmp_path):
    body = " ".join(f"We are the first to solve {name}." for name in ("alignment", "planning", "grasping", "sorting", "parsing"))
    assert len(found(tmp_path, body)) == 3


def test_significantly_without_any_test(tmp_path):
    assert [code for code, _ in found(tmp_path, "Our method significantly outperforms the baselines.")] == ["RHE002"]


def test_significantly_with_a_reported_test_passes(tmp_path):
    body = "Our method significantly outperforms the baselines (paired t-test, $p < .01$)."
    assert found(tmp_path, body) == []


def test_the_paper_wide_cap_keeps_the_first_claims_across_sections(tmp_path):
    claims = ("Gains are unprecedented.", "We are the first to plan.", "A groundbreaking idea.", "It revolutionizes parsing.")
    body = "".join(f"\\section{{Part {number}}}\n{claim}\n\n" for number, claim in enumerate(claims))
    results = found(tmp_path, body)
    assert [message.split("'")[1] for _, message in results] == ["unprecedented", "We are the first to", "groundbreaking"]


def test_a_test_reported_in_a_later_section_covers_earlier_claims(tmp_path):
    body = "Our method significantly outperforms the baselines.\n\n\\section{Appendix: statistics}\nA paired t-test was run.\n"
    assert found(tmp_path, body) == []
