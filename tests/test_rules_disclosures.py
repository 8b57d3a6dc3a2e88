"""DIS rules: limitations, compute resources, ethics statements."""

from helpers import document, rule_findings

BARE = (
    "\\section{Introduction}\nWe propose a method.\n\n"
    "\\section{Experiments}\nWe train for 100 epochs with Adam. We recruited 40 participants on Prolific to rate "
    "the outputs; participants were shown pairs.\n\n"
    "\\section{Conclusion}\nOur method is better.\n"
)
COMPLETE = (
    "\\section{Introduction}\nWe propose a method.\n\n"
    "\\section{Experiments}\nWe train for 100 epochs on 4 NVIDIA A100 GPUs (12 hours). We recruited 40 participants on "
    "Prolific; the study was approved by our institutional review board and participants gave informed consent.\n\n"
    "\\section{Conclusion}\nOur method is better.\n\n\\paragraph{Limitations} It assumes clean labels.\n"
)


def test_missing_disclosures_are_noted_once_each(tmp_path):
    found = rule_findings(tmp_path, document(BARE), "DIS")
    assert sorted(f.code for f in found) == ["DIS001", "DIS002", "DIS003"]
    assert all(f.severity.value == "information" and f.category.value == "ethical_omission" for f in found)


def test_complete_paper_passes(tmp_path):
    assert rule_findings(tmp_path, document(COMPLETE), "DIS") == []


def test_non_empirical_paper_needs_no_limitations_or_compute(tmp_path):
    assert rule_findings(tmp_path, document("\\section{Introduction}\nWe prove a theorem.\n\n\\section{Proof}\nIt holds.\n"), "DIS") == []


def test_a_venue_turns_a_disclosure_off_in_config(tmp_path):
    found = rule_findings(tmp_path, {"main.tex": document(BARE), ".auditex.toml": '[rules]\nignore = ["DIS002"]\n'}, "DIS")
    assert {f.code for f in found} == {"DIS001", "DIS003"}
