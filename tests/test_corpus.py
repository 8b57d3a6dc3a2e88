"""Every real paper in ../shared/corpus: no crash, every include found, every finding in the ledger's scope triaged."""

import tomllib
from pathlib import Path

import pytest
from conftest import CORPUS_PAPERS
from corpus_ledger import FALSE_PER_PAPER, SERIOUS, draft, in_scope, load_ledger

from auditex.analyzers.finding import Severity
from auditex.analyzers.path_check import check_path
from auditex.evaluation.real_errors import Ledger, Problem, catching
from auditex.evaluation.real_errors import load_ledger as load_real_errors
from auditex.latex.project import Project

REAL_ERRORS = Path(__file__).with_name("real_errors")
CAUGHT = Path(__file__).with_name("real_errors_caught.toml")


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
    # The real errors careful readers found that a rule caught stay caught.
    real = load_real_errors(REAL_ERRORS)
    lost = [
        f"{problem.file}:{problem.line} {problem.kind} (was caught by {code}): {problem.evidence}"
        for problem, code in caught_before(real, paper)
        if catching(problem, result.findings, Severity.INFORMATION) is None
    ]
    assert not lost, "real errors no longer caught (benchmarks/real_errors.py --write-caught after an intended change):\n" + "\n".join(lost)


def caught_before(ledger: Ledger, paper: str) -> list[tuple[Problem, str]]:
    """The paper's problems tests/real_errors_caught.toml lists as caught, with the code that caught each."""
    listed = tomllib.loads(CAUGHT.read_text(encoding="utf-8")).get("caught", []) if CAUGHT.is_file() else []
    by_place = {(problem.file, problem.line, problem.kind): problem for problem in ledger.papers.get(paper, [])}
    return [
        (by_place[(item["file"], item["line"], item["kind"])], item["code"])
        for item in listed
        if item["paper"] == paper and (item["file"], item["line"], item["kind"]) in by_place
    ]


def test_the_real_errors_ledger_covers_every_corpus_paper_and_points_into_its_sources(corpus_dir):
    """Every corpus paper was read (a file even where nothing was found), and every problem names a line of a real file."""
    ledger = load_real_errors(REAL_ERRORS)
    assert sorted(ledger.papers) == CORPUS_PAPERS
    assert ledger.held_out <= set(CORPUS_PAPERS) and len(ledger.held_out) == round(len(CORPUS_PAPERS) / 5)
    for problem in ledger.problems:
        path = corpus_dir / problem.paper / problem.file
        assert path.is_file(), f"{problem.paper}: no file {problem.file}"
        lines = path.read_text(encoding="utf-8", errors="replace").count("\n") + 1
        assert problem.line <= lines, f"{problem.paper} {problem.file}:{problem.line} is past its {lines} lines"


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
