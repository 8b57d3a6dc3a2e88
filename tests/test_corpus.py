"""Every real paper in ../shared/corpus: no crash, every include found, no spurious errors."""

from pathlib import Path

import pytest

from auditex.analyzers.check import check_path
from auditex.latex.project import Project
from conftest import CORPUS_PAPERS

# Error-severity findings on the corpus that a careful reader confirms as real.
GENUINE_ERRORS = {
    # BibTeX stops with "Case mismatch error between cite keys scott70 and Scott70".
    ("hott_book", "CIT001", "preliminaries.tex"),
}


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
    errors = [(paper, f.code, f.file) for f in result.findings if f.severity.value == "error"]
    assert set(errors) <= GENUINE_ERRORS, errors


def test_multi_file_paper_reaches_every_section_file(corpus_dir):
    project = Project(corpus_dir / "nips24_mllm_actions", "main.tex")
    sections = {path for path in project.files if path.startswith("sections/")}
    assert sections == {f"sections/{name}.tex" for name in ("abstract", "intro", "related_work", "method", "experiments", "conclusion", "checklist")}
    assert project.bibliography_files == ["main.bib"]
