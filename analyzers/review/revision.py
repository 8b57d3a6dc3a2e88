"""`verify-revision`: which findings a revision resolved, which persist, which are new.

Findings of the two versions are matched by fingerprint (code, file and the words
that identify the problem), so a finding survives edits elsewhere in the paper.
Persisting findings are reported where they are in the new version.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...latex.record import record
from ..finding import Finding
from ..path_check import check_path


@record
class RevisionComparison:
    resolved: list[Finding]
    persisting: list[Finding]
    new: list[Finding]

    def contract(self) -> dict[str, list[dict[str, Any]]]:
        return {name: [f.contract() for f in getattr(self, name)] for name in ("resolved", "persisting", "new")}


def compare_findings(old: list[Finding], new: list[Finding]) -> RevisionComparison:
    old_prints = {f.with_fingerprint().fingerprint for f in old}
    new_prints = {f.with_fingerprint().fingerprint for f in new}
    return RevisionComparison(
        resolved=[f for f in old if f.with_fingerprint().fingerprint not in new_prints],
        persisting=[f for f in new if f.with_fingerprint().fingerprint in old_prints],
        new=[f for f in new if f.with_fingerprint().fingerprint not in old_prints],
    )


def verify_revision(old: Path, new: Path) -> RevisionComparison:
    """Run the deterministic checks on both versions and compare; InputError for a bad path."""
    return compare_findings(check_path(old).findings, check_path(new).findings)
