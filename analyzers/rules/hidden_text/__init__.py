"""SEC: text a human reader cannot see but a machine reads, and instructions to AI reviewers."""

from .invisible_text import hidden_text
from .prompt_injection import reviewer_prompt_injection

__all__ = ["hidden_text", "reviewer_prompt_injection"]
