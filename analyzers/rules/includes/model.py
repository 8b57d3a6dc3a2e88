"""What the INC and SUB rules share: each reports a problem the project met while it read its files."""

from __future__ import annotations

from collections.abc import Iterator

from ...context import RuleContext
from ...finding import Finding, Severity
from ...violation import Violation, violation_type


@violation_type
class ProjectProblemViolation(Violation):
    kind: str  # the project problem's kind (latex/project.py ProjectProblem)
    reason: str  # the project's words for it
    about: str  # what it is about, never where: a fingerprint survives edits above it

    @property
    def message(self) -> str:
        return self.reason

    @property
    def identity(self) -> str:
        return f"{self.kind}:{self.about}"


def project_problems(ctx: RuleContext, *kinds: str, severity: Severity | None = None) -> Iterator[Finding]:
    """The project's problems of `kinds`, as findings of the running rule."""
    for problem in ctx.project.problems:
        if problem.kind in kinds:
            about = problem.target or ctx.problem_text(problem) or problem.message
            violation = ProjectProblemViolation(problem.kind, problem.message, about)
            yield ctx.flag(violation, problem.file, problem.start, problem.end, severity=severity)
