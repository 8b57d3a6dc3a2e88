"""The staged check's first stage: the quick rules anew, the others' findings moved through the edits."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import write_project

from auditex.analyzers.engine import RuleEngines
from auditex.analyzers.finding import Finding
from auditex.analyzers.session import Session

MAIN = "\\documentclass{article}\n\\begin{document}\n\\input{body}\n\\end{document}\n"
BODY = (
    "\\section{Intro}\\label{sec:intro}\n"
    "Section~\\ref{sec:intro} says the accuracy (TBD) is high, for “quoted” reasons.\n"
    "\n"
    "A second paragraph, also TBD, ends the section.\n"
)


def placed(findings: list[Finding]) -> list[tuple[object, ...]]:
    return sorted(
        (f.file, f.code, f.range.start.line, f.range.start.character, f.range.end.line, f.range.end.character, f.message) for f in findings
    )


@pytest.mark.parametrize(
    "edited",
    [
        BODY.replace("Section~", "\\ref{sec:none} “x” Section~"),  # typed before findings on their line, past a non-ASCII character
        BODY.replace("\n\nA second", "\n\nA new line.\nAnd one more.\n\nA second"),  # lines inserted above a finding
        BODY.replace("the accuracy (TBD) is high, for “quoted” reasons.\n\n", ""),  # a finding's text deleted, lines with it
    ],
    ids=["typed-before", "lines-inserted", "lines-deleted"],
)
def test_the_first_stage_shows_what_the_full_check_shows_where_the_edit_did_not_reach(tmp_path: Path, edited: str):
    write_project(tmp_path, {"main.tex": MAIN, "body.tex": BODY})
    session = Session(tmp_path, rules=RuleEngines(), use_cache=False)
    session.open()
    session.check()
    assert {f.code for f in session.findings} >= {"DRF001"}
    session.apply({"body.tex": edited})
    assert session.changed and session.stageable
    assert session.check_quick()
    staged = placed(session.findings)
    assert session.changed  # the full check is still to come
    session.check()
    assert not session.changed
    full = placed(session.findings)
    fresh = Session(write_project(tmp_path / "cold", {"main.tex": MAIN, "body.tex": edited}), rules=RuleEngines(), use_cache=False)
    fresh.check()
    assert full == placed(fresh.findings)
    # The edits add or remove no slow finding here (the placeholders stay or go with their text), so the
    # first stage already shows the full check's findings, each where the full check puts it.
    assert staged == full


def test_a_project_never_checked_is_not_staged(tmp_path: Path):
    write_project(tmp_path, {"main.tex": MAIN, "body.tex": BODY})
    session = Session(tmp_path, rules=RuleEngines(), use_cache=False)
    session.open()
    assert session.changed and not session.stageable


def test_the_full_check_digests_again_only_what_changed_since_the_first_stage(tmp_path: Path):
    """Both stages read one state of the project: the second keeps the first's facet digests; an edit in
    between (a newer keystroke, or a bibliography changed on disk) makes it digest them anew."""
    write_project(tmp_path, {"main.tex": MAIN, "body.tex": BODY})
    session = Session(tmp_path, rules=RuleEngines(), use_cache=False)
    session.open()
    session.check()
    [state] = session.states or []
    session.apply({"body.tex": BODY.replace("high", "higher")})
    session.check_quick()
    quick = set(state.engine.last_stats.facet_seconds)
    assert quick
    session.check()
    assert not quick & set(state.engine.last_stats.facet_seconds)
    session.apply({"body.tex": BODY.replace("high", "highest")})
    session.check()
    assert quick <= set(state.engine.last_stats.facet_seconds)
    fresh = Session(
        write_project(tmp_path / "cold", {"main.tex": MAIN, "body.tex": BODY.replace("high", "highest")}),
        rules=RuleEngines(),
        use_cache=False,
    )
    fresh.check()
    assert placed(session.findings) == placed(fresh.findings)
