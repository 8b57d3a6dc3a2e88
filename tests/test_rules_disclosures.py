"""DIS rules: limitations, compute resources, ethics statements."""

from auditex.analyzers.check import check_path
from auditex.analyzers.engine import Engine
from auditex.analyzers.registry import Registry, rules_in
from auditex.analyzers.rules import disclosures

from helpers import document, make_project, write_project

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


def codes(tmp_path, body):
    project = make_project(tmp_path, {"main.tex": document(body)})
    found = Engine(registry=Registry(rules_in(disclosures))).check(project)
    assert all(f.severity.value == "information" and f.category.value == "ethical_omission" for f in found)
    return [f.code for f in found]


def test_missing_disclosures_are_noted_once_each(tmp_path):
    assert sorted(codes(tmp_path, BARE)) == ["DIS001", "DIS002", "DIS003"]


def test_complete_paper_passes(tmp_path):
    assert codes(tmp_path, COMPLETE) == []


def test_non_empirical_paper_needs_no_limitations_or_compute(tmp_path):
    assert codes(tmp_path, "\\section{Introduction}\nWe prove a theorem.\n\n\\section{Proof}\nIt holds.\n") == []


def test_a_venue_turns_a_disclosure_off_in_config(tmp_path):
    write_project(tmp_path, {"main.tex": document(BARE), ".auditex.toml": '[rules]\nignore = ["DIS002"]\n'})
    found = {f.code for f in check_path(tmp_path / "main.tex").findings if f.code.startswith("DIS")}
    assert found == {"DIS001", "DIS003"}
