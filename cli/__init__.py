"""auditex.cli."""
