"""auditex.analyzers.llm."""
