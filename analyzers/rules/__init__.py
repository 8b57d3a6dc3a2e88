"""auditex.analyzers.rules."""
