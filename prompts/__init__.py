"""auditex.prompts."""
