"""Every real paper in ../shared/corpus: no crash, every include found, every finding in the ledger's scope triaged."""

from pathlib import Path

import pytest
from conftest import CORPUS_PAPERS
from corpus_ledger import FALSE_PER_PAPER, SERIOUS, draft, in_scope, load_ledger

from auditex.analyzers.check import check_path
from auditex.analyzers.finding import Severity
from auditex.latex.project import Project


def _shipped(folder: Path, target: str) -> bool:
    """Whether a file of that name exists anywhere in the paper's folder."""
    names = {Path(target).name, Path(target).name + ".tex", Path(target).name + ".bib"}
    return any(path.name in names for path in folder.rglob("*") if path.is_file())


@pytest.mark.parametrize("paper", CORPUS_PAPERS or ["(corpus absent)"])
def test_real_paper_checks_cleanly(paper, corpus_dir):
    folder = corpus_dir / paper
    result = check_path(folder)
    assert result.projects, f"no root file found in {paper}"
    for project in result.projects:
        assert project.manuscript.blocks, f"{paper}: {project.root_file} produced no blocks"
        for problem in project.problems:
            if problem.kind in ("missing_file", "missing_bibliography"):
                # Only files the authors' sources really lack (generated vc.tex, version.tex, …).
                assert not _shipped(folder, problem.target), f"{paper}: {problem.message}"
            assert problem.kind not in ("include_cycle", "unparsable"), f"{paper}: {problem.message}"
    ledger = {key: entry for key, entry in load_ledger().items() if entry.paper == paper}
    found = {(paper, finding.fingerprint): finding for finding in in_scope(result.findings)}
    untriaged = [draft(paper, finding) for key, finding in found.items() if key not in ledger]
    assert not untriaged, "findings missing from tests/corpus_triage.toml; triage them:\n\n" + "\n".join(untriaged)
    gone = [
        f"{entry.code} {entry.file}: {entry.message} ({entry.verdict}: {entry.reason})" for key, entry in ledger.items() if key not in found
    ]
    assert not gone, (
        "ledger entries no longer reported (a genuine one lost is a regression; a false one fixed should be removed):\n" + "\n".join(gone)
    )
    # The ledger records each finding's severity, so that the false-warning budget counts what users see,
    # and precision is not bought with silence: a genuine warning that now informs is a regression.
    quieted = [key for key, entry in ledger.items() if entry.kept_warning and found[key].severity not in SERIOUS]
    assert not quieted, "genuine warnings now reported below warning:\n" + "\n".join(_change(ledger[key], found[key]) for key in quieted)
    moved = [_change(entry, found[key]) for key, entry in ledger.items() if found[key].severity.value != entry.severity]
    assert not moved, "severities changed; update them in tests/corpus_triage.toml:\n" + "\n".join(moved)


def _change(entry, finding) -> str:
    return f"{entry.code} {entry.file} {entry.fingerprint}: {entry.message} ({entry.verdict}; was {entry.severity}, now {finding.severity.value}, evidence {finding.evidence_class})"


def test_false_warnings_stay_within_budget():
    """At most FALSE_PER_PAPER false warnings per corpus paper, as triaged in the ledger."""
    if not CORPUS_PAPERS:
        pytest.skip("../shared/corpus is absent (a user's clone): the ledger has nothing to count against")
    false = [
        entry
        for entry in load_ledger().values()
        if entry.verdict == "false" and entry.paper in CORPUS_PAPERS and Severity(entry.severity) in SERIOUS
    ]
    assert len(false) <= FALSE_PER_PAPER * len(CORPUS_PAPERS), [f"{e.paper} {e.code}: {e.reason}" for e in false]


def test_multi_file_paper_reaches_every_section_file(corpus_dir):
    project = Project(corpus_dir / "nips24_mllm_actions", "main.tex")
    sections = {path for path in project.files if path.startswith("sections/")}
    assert sections == {
        f"sections/{name}.tex" for name in ("abstract", "intro", "related_work", "method", "experiments", "conclusion", "checklist")
    }
    assert project.bibliography_files == ["main.bib"]


def test_ledger_rejects_an_entry_without_a_verdict(tmp_path):
    ledger = tmp_path / "triage.toml"
    ledger.write_text(
        '[[finding]]\npaper = "p"\ncode = "NUM001"\nfile = "a.tex"\nfingerprint = "f"\nmessage = "m"\nverdict = "?"\nreason = ""\n'
    )
    with pytest.raises(ValueError, match="verdict must be one of"):
        load_ledger(ledger)
