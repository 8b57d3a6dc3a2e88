"""auditex.server."""
