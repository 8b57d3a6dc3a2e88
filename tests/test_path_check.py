"""check_path, the one-shot check: its session checked with the collector's full passes made rare."""

from __future__ import annotations

import gc

from test_analysis_cache import PAPER, write

from auditex.analyzers.path_check import check_path, rare_full_collections
from auditex.analyzers.session import Session


def test_a_one_shot_check_runs_with_rare_full_collections_and_sets_the_thresholds_back(tmp_path, monkeypatch):
    write(tmp_path / "paper", PAPER)
    during = []
    checked = Session.check

    def check(session: Session) -> bool:
        during.append(gc.get_threshold())
        return checked(session)

    monkeypatch.setattr(Session, "check", check)
    before = gc.get_threshold()
    check_path(tmp_path / "paper", use_cache=False)
    assert during and during[0][:2] == before[:2] and during[0][2] > before[2]
    assert gc.get_threshold() == before


def test_checks_that_overlap_set_the_thresholds_back_when_the_last_one_ends():
    # A batch checks several papers in threads: one ending must not set back what another still runs under.
    before = gc.get_threshold()
    first, second = rare_full_collections(), rare_full_collections()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert gc.get_threshold()[2] > before[2]
    second.__exit__(None, None, None)
    assert gc.get_threshold() == before
