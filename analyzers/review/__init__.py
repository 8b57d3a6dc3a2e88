"""auditex.analyzers.review: PaperAudit-Review and revision comparison.

The error-aware review (§4.3, App. C.5) runs five stages through one LLM client:
paper memory (Table 24), baseline review (Table 25), integrity report (our
detection findings), motivation and novelty report (Table 27, with related work
from `analyzers.scholarly.related`), and minimal-edit refinement (Table 28). `workflow.run_review`
is the entry point for the CLI and the server. `revision` compares the findings
of two versions of a manuscript.
"""

from .workflow import Review, run_review

__all__ = ["Review", "run_review"]
