"""auditex.analyzers."""
