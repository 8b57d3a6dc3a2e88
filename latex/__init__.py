"""auditex.latex."""
