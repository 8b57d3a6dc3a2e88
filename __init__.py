"""auditex: audits LaTeX research manuscripts like a careful reviewer."""

__version__ = "0.1.0"
