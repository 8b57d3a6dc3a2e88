"""RHE rules: unqualified priority claims and 'significantly' without a test."""

from helpers import document, rule_findings

INTRODUCTION = "\\section{Introduction}\n"


def test_unqualified_priority_claims(tmp_path):
    results = rule_findings(
        tmp_path,
        document(INTRODUCTION + "We are the first to align actions with tokens. Our model achieves a new state-of-the-art on ALFRED."),
        "RHE",
    )
    assert [(f.code, f.severity.value) for f in results] == [("RHE001", "hint"), ("RHE001", "hint")]


def test_hedged_cited_or_quantified_claims_pass(tmp_path):
    body = (
        "To our knowledge, we are the first to align actions with tokens. "
        "Our model achieves state-of-the-art accuracy of 91.2 on ALFRED. "
        "Prior work \\cite{x} was the first method to do so. "
        "It is the first projection of the pair.\n"
    )
    assert rule_findings(tmp_path, document(INTRODUCTION + body), "RHE") == []


def test_at_most_three_per_paper(tmp_path):
    body = " ".join(f"We are the first to solve {name}." for name in ("alignment", "planning", "grasping", "sorting", "parsing"))
    assert len(rule_findings(tmp_path, document(INTRODUCTION + body), "RHE")) == 3


def test_significantly_without_any_test(tmp_path):
    found = rule_findings(tmp_path, document(INTRODUCTION + "Our method significantly outperforms the baselines."), "RHE")
    assert [(f.code, f.severity.value) for f in found] == [("RHE002", "hint")]


def test_significantly_with_a_reported_test_passes(tmp_path):
    body = "Our method significantly outperforms the baselines (paired t-test, $p < .01$)."
    assert rule_findings(tmp_path, document(INTRODUCTION + body), "RHE") == []


def test_the_paper_wide_cap_keeps_the_first_claims_across_sections(tmp_path):
    claims = ("Gains are unprecedented.", "We are the first to plan.", "A groundbreaking idea.", "It revolutionizes parsing.")
    body = "".join(f"\\section{{Part {number}}}\n{claim}\n\n" for number, claim in enumerate(claims))
    results = rule_findings(tmp_path, document(INTRODUCTION + body), "RHE")
    assert [f.message.split('"')[1] for f in results] == ["unprecedented", "We are the first to", "groundbreaking"]


def test_a_test_reported_in_a_later_section_covers_earlier_claims(tmp_path):
    body = "Our method significantly outperforms the baselines.\n\n\\section{Appendix: statistics}\nA paired t-test was run.\n"
    assert rule_findings(tmp_path, document(INTRODUCTION + body), "RHE") == []
