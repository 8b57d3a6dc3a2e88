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


def test_a_few_findings_placed_among_many_in_report_order_are_where_a_sort_puts_them():
    """The first stage places the others' findings among the quick rules' by bisection: the same list, ties and all,
    as sorting them together (the quick ones first among equals, each side in its own order)."""
    import random

    from auditex.analyzers.finding import Category, Range, Severity
    from auditex.analyzers.policy import in_report_order, report_order

    def finding(number: int, code: str, line: int, message: str) -> Finding:
        file = ("main.bib", "body.tex")[number % 2]
        return Finding(
            code=code, category=Category.LATEX, severity=Severity.HINT, message=message, file=file, range=Range.of(line, 0, line, 1)
        )

    shuffle = random.Random(34)
    for trial in range(200):
        many = sorted((finding(n, shuffle.choice(("CIT004", "SEC001")), shuffle.randrange(30), "m") for n in range(300)), key=report_order)
        few = [finding(n, shuffle.choice(("CIT004", "DRF001", "SEC001")), shuffle.randrange(30), str(n % 2)) for n in range(trial % 12)]
        for ordered, more in ((many, few), (few, many)):  # the other way round, too many to bisect: sorted
            placed = in_report_order(sorted(ordered, key=report_order), more)
            assert [id(f) for f in placed] == [id(f) for f in sorted([*sorted(ordered, key=report_order), *more], key=report_order)]


def test_the_first_stage_keeps_a_finding_before_the_edit_as_it_was_and_moves_one_after_it(tmp_path: Path):
    write_project(tmp_path, {"main.tex": MAIN, "body.tex": BODY})
    session = Session(tmp_path, rules=RuleEngines(), use_cache=False)
    session.check()
    first, second = sorted((f for f in session.findings if f.code == "DRF001"), key=lambda f: f.range.start.line)
    session.apply({"body.tex": BODY.replace("A second paragraph", "Typed. A second paragraph")})
    assert session.check_quick()
    staged = {f.range.start.line: f for f in session.findings if f.code == "DRF001"}
    assert staged[first.range.start.line] is first  # its text and all before it are the same: not copied
    moved = staged[second.range.start.line]
    assert moved is not second and moved.range.start.character == second.range.start.character + len("Typed. ")
